# Matrix elements: m[i, j] reads and stores on a Gram matrix and a mat44 homogeneous transform.
import warp as wp


@wp.kernel
def gram_matrix(a: wp.array(dtype=wp.mat33), out: wp.array(dtype=wp.mat33), trace: wp.array(dtype=float)):
    i = wp.tid()
    m = a[i]
    g = wp.transpose(m) * m
    g[0, 0] = g[0, 0] + 1.0
    g[1, 2] = 0.5 * (g[1, 2] + g[2, 1])
    trace[i] = g[0, 0] + g[1, 1] + g[2, 2]
    out[i] = g


@wp.kernel
def homogeneous(tx: float, p: wp.array(dtype=wp.vec3), s: wp.array(dtype=float), out: wp.array(dtype=wp.vec4), det: wp.array(dtype=float)):
    i = wp.tid()
    k = 1.5 + s[i]
    m = wp.mat44(k, 0.0, 0.0, tx, 0.0, k, 0.0, 0.0, 0.0, 0.0, k, 0.5, 0.0, 0.0, 0.0, 1.0)
    v = p[i]
    out[i] = m * wp.vec4(v.x, v.y, v.z, 1.0)
    det[i] = wp.determinant(m)
