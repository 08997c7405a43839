# Spring network: vec3 Hooke forces with damping, scattered to both endpoints with atomics on float components.
import warp as wp


@wp.func
def spring_force(xa: wp.vec3, xb: wp.vec3, va: wp.vec3, vb: wp.vec3, rest: float, ke: float, kd: float) -> wp.vec3:
    d = xb - xa
    l = wp.sqrt(wp.dot(d, d) + 1.0e-4)
    unit = (1.0 / l) * d
    stretch = l - rest
    rel = wp.dot(vb - va, unit)
    return (ke * stretch + kd * rel) * unit


@wp.kernel
def eval_springs(n: int, other: wp.array(dtype=int), x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), rest: wp.array(dtype=float), fx: wp.array(dtype=float), fy: wp.array(dtype=float), fz: wp.array(dtype=float)):
    i = wp.tid()
    j = other[i]
    if j == i:
        j = (i + 1) % n
    f = spring_force(x[i], x[j], v[i], v[j], 0.5 + 0.25 * rest[i], 10.0, 0.5)
    wp.atomic_add(fx, i, f.x)
    wp.atomic_add(fy, i, f.y)
    wp.atomic_add(fz, i, f.z)
    wp.atomic_sub(fx, j, f[0])
    wp.atomic_sub(fy, j, f[1])
    wp.atomic_sub(fz, j, f[2])
