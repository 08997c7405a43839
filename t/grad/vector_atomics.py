# Vector atomics and matrix arrays: scatter of vec3 values, a mat33
# array read and written.
import warp as wp


@wp.kernel
def vector_atomics(ps: wp.array(dtype=wp.vec3), ms: wp.array(dtype=wp.mat33), force: wp.array(dtype=wp.vec3), out: wp.array(dtype=wp.mat33)):
    i = wp.tid()
    p = ps[i]
    m = ms[i]
    f = m * p + wp.cross(p, wp.vec3(1.0, 0.5, 0.25))
    wp.atomic_add(force, i % 3, f)
    force[(i + 1) % 3] -= p * 0.5
    out[i] = wp.outer(f, p) + wp.transpose(m) * m
