# A vector component assigned twice: out = (x0, 3 * y * x1, x2), so
# d out1 / d x1 = 3y and d out1 / d y = 3 x1.  With x = (1, 2, 3), y = 5 and
# a seed of ones, Warp 1.19 gives x.grad[1] = 24 and y.grad = 8 (exact: 15
# and 6), with or without the module option
# enable_vector_component_overwrites.
import warp as wp


@wp.kernel
def component_twice(x: wp.array(dtype=wp.vec3), y: wp.array(dtype=float), out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    v = x[i]
    v[1] = y[i] * v[1]
    v[1] = 3.0 * v[1]
    out[i] = v
