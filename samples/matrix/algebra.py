# Matrix algebra: a mat22 inverse solve, outer-product covariance and determinants.
import warp as wp


@wp.kernel
def solve2x2(a: wp.array(dtype=float), b: wp.array(dtype=float), rhs: wp.array(dtype=wp.vec2), x: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    m = wp.mat22(2.0 + a[i], 0.5 * b[i], -0.5 * b[i], 2.0 - 0.5 * a[i])
    x[i] = wp.inverse(m) * rhs[i]


@wp.kernel
def covariance(p: wp.array(dtype=wp.vec3), cov: wp.array(dtype=wp.mat33), det: wp.array(dtype=float)):
    i = wp.tid()
    v = p[i]
    c = wp.outer(v, v) + wp.mat33(1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0)
    cov[i] = c
    det[i] = wp.determinant(c)
