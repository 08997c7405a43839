"""Masked updates with wp.where: a branch-free step that moves only the
particles inside a box, and a safe reciprocal."""
import warp as wp


@wp.func
def inside(p: wp.vec3, lo: float, hi: float) -> bool:
    return p[0] > lo and p[0] < hi and p[2] > lo and p[2] < hi


@wp.kernel
def masked_step(x: wp.array[wp.vec3], v: wp.array[wp.vec3], active: wp.array[int],
                dt: float, out: wp.array[wp.vec3]):
    i = wp.tid()
    p = x[i]
    moved = p + v[i] * dt
    # keep the particles outside the box and the inactive ones where they are
    q = wp.where(inside(p, -0.5, 0.5), moved, p)
    out[i] = wp.where(active[i] & 1, q, p * 0.5)


@wp.kernel
def safe_inverse(values: wp.array[float], mass: wp.array[float], out: wp.array[float]):
    i = wp.tid()
    m = values[i]
    w = wp.where(wp.abs(m) < 0.25, 0.0, 1.0 / m)
    out[i] = w * mass[i] + wp.extract(wp.vec2(m, w), 1)
