# NVIDIA/warp#1697: the adjoint of v[i] = v[i] + x on local vectors and
# matrices was silently wrong.
import warp as wp


@wp.kernel
def warp_1697(xs: wp.array(dtype=float), vs: wp.array(dtype=wp.vec3), ms: wp.array(dtype=wp.mat33), out: wp.array(dtype=float)):
    i = wp.tid()
    x = xs[i]
    v = vs[i]
    m = ms[i]
    for k in range(3):
        v[k] = v[k] + x * v[k]
        m[k, k] = m[k, k] + x * m[k, k]
    m[0, 2] = m[0, 2] * v[1]
    out[i] = wp.length(m * v) + v[2]
