# Vector and matrix builtins at generic points: component-wise min/max/abs
# on vec2/vec4, normalize, vec/float division, inverse and determinant of
# mat22 and mat44, outer, mat.mat and mat.vec products.
import warp as wp


@wp.kernel
def review_vecmat(ps: wp.array(dtype=wp.vec4), ns: wp.array(dtype=wp.mat22), out: wp.array(dtype=wp.vec4), f: wp.array(dtype=float)):
    i = wp.tid()
    p = ps[i]
    u = wp.vec2(p[0], p[1])
    w = wp.vec2(p[2], p[3])
    z = wp.max(p, wp.vec4(p[3])) + wp.abs(p) - wp.min(p * p[1], wp.vec4(0.1, -0.2, 0.3, p[0]))
    u2 = wp.normalize(u) / (w[0] + 2.0) + wp.abs(w) * wp.length(u)
    n = ns[i] + wp.mat22(2.0, 0.0, 0.0, 2.0)
    n2 = wp.inverse(n) * wp.determinant(n) + wp.outer(u, w)
    q = wp.mat44(z[0], 1.0, 0.0, 0.0, 0.0, 2.0 + z[1], 0.0, 0.5, 0.0, 0.0, 2.0, u2[0], z[3], 0.0, n2[0, 1], 3.0)
    r = wp.inverse(q) * z
    f[i] = wp.determinant(q) + wp.dot(n2 * u2, w)
    out[i] = r + wp.vec4(u2[0], u2[1], n2[1, 0], n2[1, 1])
