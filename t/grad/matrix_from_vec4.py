# 4x4 matrices from four vec4 rows or columns: every row's or column's
# adjoint reaches its vector (kdiff once dropped builtins of four
# arguments, so a, b and the offset got no gradient).
import warp as wp


@wp.kernel
def frame_rows(a: wp.array(dtype=wp.vec4), b: wp.array(dtype=wp.vec4), offset: wp.vec4, out: wp.array(dtype=wp.mat44), s: wp.array(dtype=float)):
    i = wp.tid()
    m = wp.matrix_from_rows(a[i], b[i], 2.0 * a[i] - b[i], offset)
    out[i] = m
    s[i] = wp.ddot(m, m) + wp.determinant(m)


@wp.kernel
def frame_cols(a: wp.array(dtype=wp.vec4), b: wp.array(dtype=wp.vec4), offset: wp.vec4, out: wp.array(dtype=wp.vec4)):
    i = wp.tid()
    m = wp.matrix_from_cols(a[i], offset, b[i], a[i] + b[i])
    out[i] = m * b[i]
