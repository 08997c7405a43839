# Boolean logic: and/or/not in conditions and conditional expressions (a if c else b).
import warp as wp


@wp.kernel
def inside_box(half: float, p: wp.array(dtype=wp.vec3), mask: wp.array(dtype=int), sdist: wp.array(dtype=float)):
    i = wp.tid()
    v = p[i]
    h = 0.25 + 0.5 * wp.abs(half)
    if wp.abs(v.x) < h and wp.abs(v.y) < h and wp.abs(v.z) < h:
        mask[i] = 1
    elif wp.abs(v.x) > 0.9 or not (v.y > -0.9):
        mask[i] = 2
    else:
        mask[i] = 0
    d = wp.max(wp.abs(v.x), wp.max(wp.abs(v.y), wp.abs(v.z))) - h
    sdist[i] = 2.0 * d if d > 0.0 else d


@wp.kernel
def leaky_relu(alpha: float, x: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    v = x[i]
    out[i] = v if v > 0.0 else 0.1 * (1.0 + alpha) * v


@wp.kernel
def select_index(n: int, keys: wp.array(dtype=int), x: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    j = keys[i] if not (keys[i] == i) else (i + 1) % n
    out[i] = x[j] - x[i]
