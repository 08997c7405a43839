# Matrix atomics and gathers: many threads read the same mat33 element
# (its adjoint is accumulated atomically), += and atomic_sub on a mat22
# accumulator at computed indices.
import warp as wp


@wp.kernel
def matrix_atomics(frames: wp.array(dtype=wp.mat33), ids: wp.array(dtype=int), acc: wp.array(dtype=wp.mat22), out: wp.array(dtype=wp.mat33)):
    i = wp.tid()
    m = frames[ids[i]]
    r = wp.mat22(m[0, 0], m[0, 1], m[1, 0], m[1, 1])
    acc[ids[i]] += r * m[2, 2]
    wp.atomic_sub(acc, i % 4, wp.transpose(r) * 0.5)
    out[i] = m * frames[0] + wp.transpose(m)
