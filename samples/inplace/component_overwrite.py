# Component overwrite: vec3 array elements and matrix entries updated in place with stores and +=.
import warp as wp


@wp.kernel
def bounce_floor(pos: wp.array(dtype=wp.vec3), vel: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    p = pos[i]
    v = vel[i]
    if p[1] < 0.0:
        p[1] = -p[1]
        v[1] = -0.5 * v[1]
    v[0] = 0.9 * v[0]
    p += 0.1 * v
    pos[i] = p
    vel[i] = v


@wp.kernel
def regularize(m: wp.array(dtype=wp.mat33), eps: float):
    i = wp.tid()
    a = m[i]
    e = 0.1 + eps * eps
    a[0, 0] = a[0, 0] + e
    a[1, 1] = a[1, 1] + e
    a[2, 2] = a[2, 2] - a[0, 1] * 0.5
    m[i] = a
