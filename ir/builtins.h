/*
 * builtins.h: every builtin function of the language, one row per
 * overload.  The type checker, the IR verifier, kdiff and the emitters all
 * read this table; a new builtin is one row here (plus its runtime code).
 *
 *     B(ENUM, "name", "result", "args", flags, "adjoint")
 *
 * The arguments are type patterns separated by commas, the result one
 * pattern ("" for no value) or several, each named, for a builtin with
 * several results (svd3):
 *
 *     Float  Int  Scalar   a scalar of that class (Float: float16, float32,
 *                          float64; Int: int8 .. uint64; Scalar: either),
 *                          bound to S where it first appears, and S
 *                          itself wherever it appears again
 *     bool  int  uint32    one type, by its IR name
 *     vec(N, P)            a vector of P, N a length or a name (N, M, K)
 *                          bound where it first appears
 *     mat(N, M, P)  quat(P)  transform(P)
 *     Any                  any type but an array, bound to T (and T again)
 *     Arith                a scalar, vector or matrix, bound to T
 *     array(P)             an array of P of any rank, the rank bound to D
 *     tile(N, M, P)        a tile of P with those extents; tile(P) a tile
 *                          of P of any shape (a result tile(P): the shape
 *                          of the argument's)
 *     index                D int arguments (of any int type), the indices
 *                          of that array
 *
 * A pattern may be named, "x: Float": the name a keyword argument gives
 * (Warp's name for the parameter).
 *
 * So "vec(N, Scalar), vec(N, S)" is two vectors of one length and one
 * scalar type.  The name is the Warp name without "wp.".  The emitted C
 * name of an overload is ks_<name>_<type>, the type being its first
 * argument's (an array's element type; see ir_builtin_cname).
 *
 * The adjoint column gives the derivative rule (diff/rule.c has the
 * grammar): for each argument, separated by ';', its adjoint
 * contribution as an expression over a, b, c (the arguments), r (the
 * result) and g (the result's adjoint), r1, g1, r2, g2 for the second and
 * third results of a builtin with several; "" or an empty part means none
 * (floor, sign; tid and atomics are handled by kdiff itself; values of
 * int type never have adjoints).  Non-smooth points follow Warp
 * (doc/autodiff.md).
 *
 * A row flagged BF_INTERNAL is no builtin of the language: a kernel
 * cannot call it (wp.NAME is unknown); derivative rules do.
 *
 * An includer that only wants the first five columns may define
 * B(e, name, res, args, fl) alone: B6 then drops the sixth.
 */
/* clang-format off */
#ifndef B6
#define B6(e, name, res, args, fl, adj) B(e, name, res, args, fl)
#define KS_B6_LOCAL
#endif
B6(TID, "tid", "int", "", BF_KERNEL_ONLY, "")

/* scalar math */
B6(SIN, "sin", "S", "x: Float", 0, "g * cos(a)")
B6(COS, "cos", "S", "x: Float", 0, "-g * sin(a)")
B6(TAN, "tan", "S", "x: Float", 0, "g / (cos(a) * cos(a))")
B6(ASIN, "asin", "S", "x: Float", 0, "g / sqrt(1.0 - a * a)")
B6(ACOS, "acos", "S", "x: Float", 0, "-g / sqrt(1.0 - a * a)")
B6(ATAN, "atan", "S", "x: Float", 0, "g / (a * a + 1.0)")
B6(ATAN2, "atan2", "S", "y: Float, x: S", 0, "g * b / (a * a + b * b); -g * a / (a * a + b * b)")
B6(SINH, "sinh", "S", "x: Float", 0, "g * cosh(a)")
B6(COSH, "cosh", "S", "x: Float", 0, "g * sinh(a)")
B6(TANH, "tanh", "S", "x: Float", 0, "g * (1.0 - r * r)")
B6(EXP, "exp", "S", "x: Float", 0, "g * r")
B6(LOG, "log", "S", "x: Float", 0, "g / a")
B6(LOG2, "log2", "S", "x: Float", 0, "g / (a * 0.6931471805599453)")
B6(LOG10, "log10", "S", "x: Float", 0, "g / (a * 2.302585092994046)")
B6(SQRT, "sqrt", "S", "x: Float", 0, "g / (2.0 * r)")
B6(POW, "pow", "S", "x: Float, y: S", 0, "g * b * pow(a, b - 1.0); a > 0.0 ? g * r * log(a) : 0.0")
B6(FLOOR, "floor", "S", "x: Float", 0, "")
B6(CEIL, "ceil", "S", "x: Float", 0, "")
B6(ABS_F, "abs", "S", "x: Float", 0, "a < 0.0 ? -g : g")
B6(ABS_I, "abs", "S", "x: Int", 0, "")
B6(ABS_V, "abs", "vec(N, S)", "x: vec(N, Scalar)", 0, "@a < 0.0 ? -g : g")
B6(SIGN_F, "sign", "S", "x: Float", 0, "")
B6(SIGN_I, "sign", "S", "x: Int", 0, "")
B6(MIN_F, "min", "S", "a: Float, b: S", 0, "a < b ? g : 0.0; a < b ? 0.0 : g")
B6(MIN_I, "min", "S", "a: Int, b: S", 0, "")
B6(MIN_V, "min", "vec(N, S)", "a: vec(N, Scalar), b: vec(N, S)", 0, "@a < b ? g : 0.0; a < b ? 0.0 : g")
B6(MAX_F, "max", "S", "a: Float, b: S", 0, "a > b ? g : 0.0; a > b ? 0.0 : g")
B6(MAX_I, "max", "S", "a: Int, b: S", 0, "")
B6(MAX_V, "max", "vec(N, S)", "a: vec(N, Scalar), b: vec(N, S)", 0, "@a > b ? g : 0.0; a > b ? 0.0 : g")
B6(CLAMP_F, "clamp", "S", "x: Float, low: S, high: S", 0, "a < b ? 0.0 : (c < a ? 0.0 : g); a < b ? (c < b ? 0.0 : g) : 0.0; a < b ? (c < b ? g : 0.0) : (c < a ? g : 0.0)")
B6(CLAMP_I, "clamp", "S", "x: Int, low: S, high: S", 0, "")

/* rounding, interpolation, special functions and tests of a scalar */
B6(LERP_F, "lerp", "S", "a: Float, b: S, t: S", 0, "g * (1.0 - c); g * c; g * (b - a)")
B6(LERP_V, "lerp", "vec(N, S)", "a: vec(N, Float), b: vec(N, S), t: S", 0, "g * (1.0 - c); g * c; fdot(g, b - a)")
B6(LERP_M, "lerp", "mat(N, M, S)", "a: mat(N, M, Float), b: mat(N, M, S), t: S", 0, "g * (1.0 - c); g * c; fdot(g, b - a)")
B6(SMOOTHSTEP, "smoothstep", "S", "a: Float, b: S, x: S", 0,
   "(b - c) / (a - b) < 0.0 ? ((a - c) / (a - b) > 0.0 ? g * 6.0 * (a - c) * (b - c) * (b - c) / ((a - b) * (a - b) * (a - b) * (a - b)) : 0.0) : 0.0; "
   "(b - c) / (a - b) < 0.0 ? ((a - c) / (a - b) > 0.0 ? g * 6.0 * (a - c) * (a - c) * (c - b) / ((a - b) * (a - b) * (a - b) * (a - b)) : 0.0) : 0.0; "
   "(b - c) / (a - b) < 0.0 ? ((a - c) / (a - b) > 0.0 ? g * 6.0 * (a - c) * (b - c) / ((a - b) * (a - b) * (a - b)) : 0.0) : 0.0")
B6(STEP, "step", "S", "x: Scalar", 0, "")
B6(NONZERO, "nonzero", "S", "x: Scalar", 0, "")
B6(RADIANS, "radians", "S", "x: Float", 0, "g * 0.017453292519943295")
B6(DEGREES, "degrees", "S", "x: Float", 0, "g * 57.29577951308232")
B6(ROUND, "round", "S", "x: Float", 0, "")
B6(RINT, "rint", "S", "x: Float", 0, "")
B6(TRUNC, "trunc", "S", "x: Float", 0, "")
B6(FRAC, "frac", "S", "x: Float", 0, "g")
B6(MOD_F, "mod", "S", "a: Float, b: S", 0, "g; -g * trunc(a / b)")
B6(MOD_I, "mod", "S", "a: Int, b: S", 0, "")
B6(MOD_V, "mod", "vec(N, S)", "a: vec(N, Scalar), b: vec(N, S)", 0, "@g; -g * trunc(a / b)")
B6(COPYSIGN, "copysign", "S", "x: Float, y: S", 0, "copysign(1.0, a) == copysign(1.0, b) ? g : -g; ")
B6(CBRT, "cbrt", "S", "x: Float", 0, "g / (3.0 * r * r)")
B6(ERF, "erf", "S", "x: Float", 0, "1.1283791670955126 * exp(-a * a) * g")
B6(ERFC, "erfc", "S", "x: Float", 0, "-1.1283791670955126 * exp(-a * a) * g")
B6(ERFINV, "erfinv", "S", "x: Float", 0, "0.886226925452758 * exp(r * r) * g")
B6(ERFCINV, "erfcinv", "S", "x: Float", 0, "-0.886226925452758 * exp(r * r) * g")
B6(ISNAN, "isnan", "bool", "a: Float", 0, "")
B6(ISNAN_V, "isnan", "bool", "a: vec(N, Float)", 0, "")
B6(ISNAN_M, "isnan", "bool", "a: mat(N, M, Float)", 0, "")
B6(ISINF, "isinf", "bool", "a: Float", 0, "")
B6(ISINF_V, "isinf", "bool", "a: vec(N, Float)", 0, "")
B6(ISINF_M, "isinf", "bool", "a: mat(N, M, Float)", 0, "")
B6(ISFINITE, "isfinite", "bool", "a: Float", 0, "")
B6(ISFINITE_V, "isfinite", "bool", "a: vec(N, Float)", 0, "")
B6(ISFINITE_M, "isfinite", "bool", "a: mat(N, M, Float)", 0, "")
B6(BIT_COUNT, "bit_count", "int", "x: Int", 0, "")
B6(INVERT, "invert", "S", "a: Int", 0, "")
B6(INVERT_V, "invert", "vec(N, S)", "a: vec(N, Int)", 0, "")

/* vectors and matrices */
B6(DOT, "dot", "S", "a: vec(N, Scalar), b: vec(N, S)", 0, "g * b; g * a")
B6(CROSS, "cross", "vec(3, S)", "a: vec(3, Scalar), b: vec(3, S)", 0, "cross(b, g); cross(g, a)")
B6(LENGTH, "length", "S", "a: vec(N, Float)", 0, "r > 0.0 ? a * (g / r) : 0.0")
B6(LENGTH_SQ, "length_sq", "S", "a: vec(N, Scalar)", 0, "a * (2.0 * g)")
B6(NORMALIZE, "normalize", "vec(N, S)", "a: vec(N, Float)", 0, "length(a) > 0.0 ? (g - r * dot(r, g)) / length(a) : 0.0")
B6(OUTER, "outer", "mat(N, N, S)", "a: vec(N, Scalar), b: vec(N, S)", 0, "g * b; transpose(g) * a")
B6(TRANSPOSE, "transpose", "mat(N, N, S)", "a: mat(N, N, Scalar)", 0, "transpose(g)")
B6(DETERMINANT, "determinant", "S", "a: mat(N, N, Float)", 0, "transpose(inverse(a)) * (g * r)")
B6(INVERSE, "inverse", "mat(N, N, S)", "a: mat(N, N, Float)", 0, "-(transpose(r) * g * transpose(r))")

/* more of vectors and matrices: component-wise, constructors, decompositions */
B6(SIGN_V, "sign", "vec(N, S)", "x: vec(N, Scalar)", 0, "")
B6(MIN_VS, "min", "S", "a: vec(N, Scalar)", 0, "basis(a, int(argmin(a)), g)")
B6(MAX_VS, "max", "S", "a: vec(N, Scalar)", 0, "basis(a, int(argmax(a)), g)")
B6(ARGMIN, "argmin", "uint32", "a: vec(N, Scalar)", 0, "")
B6(ARGMAX, "argmax", "uint32", "a: vec(N, Scalar)", 0, "")
B6(CW_MUL_V, "cw_mul", "vec(N, S)", "a: vec(N, Scalar), b: vec(N, S)", 0, "cw_mul(g, b); cw_mul(g, a)")
B6(CW_MUL_M, "cw_mul", "mat(N, M, S)", "a: mat(N, M, Scalar), b: mat(N, M, S)", 0, "cw_mul(g, b); cw_mul(g, a)")
B6(CW_DIV_V, "cw_div", "vec(N, S)", "a: vec(N, Scalar), b: vec(N, S)", 0, "cw_div(g, b); -cw_mul(g, cw_div(r, b))")
B6(CW_DIV_M, "cw_div", "mat(N, M, S)", "a: mat(N, M, Scalar), b: mat(N, M, S)", 0, "cw_div(g, b); -cw_mul(g, cw_div(r, b))")
B6(DDOT, "ddot", "S", "a: mat(N, M, Float), b: mat(N, M, S)", 0, "g * b; g * a")
B6(TRACE, "trace", "S", "a: mat(N, N, Float)", 0, "diag(fill(get_diag(a), g))")
B6(GET_DIAG, "get_diag", "vec(N, S)", "mat: mat(N, N, Float)", 0, "diag(g)")
B6(DIAG, "diag", "mat(N, N, S)", "vec: vec(N, Float)", 0, "get_diag(g)")
B6(SKEW, "skew", "mat(3, 3, S)", "vec: vec(3, Float)", 0, "vec(at(g, 2, 1) - at(g, 1, 2), at(g, 0, 2) - at(g, 2, 0), at(g, 1, 0) - at(g, 0, 1))")
B6(ROWS2, "matrix_from_rows", "mat(2, 2, S)", "vec(2, Float), vec(2, S)", 0, "at(g, 0); at(g, 1)")
B6(ROWS3, "matrix_from_rows", "mat(3, 3, S)", "vec(3, Float), vec(3, S), vec(3, S)", 0, "at(g, 0); at(g, 1); at(g, 2)")
B6(ROWS4, "matrix_from_rows", "mat(4, 4, S)", "vec(4, Float), vec(4, S), vec(4, S), vec(4, S)", 0, "at(g, 0); at(g, 1); at(g, 2); at(g, 3)")
B6(COLS2, "matrix_from_cols", "mat(2, 2, S)", "vec(2, Float), vec(2, S)", 0, "at(transpose(g), 0); at(transpose(g), 1)")
B6(COLS3, "matrix_from_cols", "mat(3, 3, S)", "vec(3, Float), vec(3, S), vec(3, S)", 0, "at(transpose(g), 0); at(transpose(g), 1); at(transpose(g), 2)")
B6(COLS4, "matrix_from_cols", "mat(4, 4, S)", "vec(4, Float), vec(4, S), vec(4, S), vec(4, S)", 0, "at(transpose(g), 0); at(transpose(g), 1); at(transpose(g), 2); at(transpose(g), 3)")
B6(DIV_APPROX_F, "div_approx", "S", "a: Float, b: S", 0, "g / b; -(g * r) / b")
B6(DIV_APPROX_V, "div_approx", "vec(N, S)", "a: vec(N, Float), b: S", 0, "g / b; -fdot(g, r) / b")
B6(DIV_APPROX_M, "div_approx", "mat(N, N, S)", "a: mat(N, N, Float), b: S", 0, "g / b; -fdot(g, r) / b")
B6(DIV_APPROX_SV, "div_approx", "vec(N, S)", "a: Float, b: vec(N, S)", 0, "@g / b; -g * r / b")
B6(DIV_APPROX_SM, "div_approx", "mat(N, N, S)", "a: Float, b: mat(N, N, S)", 0, "fdot(g, cw_div(fill(b, 1.0), b)); -cw_mul(g, cw_div(r, b))")
B6(INVERSE_APPROX, "inverse_approx", "mat(N, N, S)", "a: mat(N, N, Float)", 0, "-(transpose(r) * g * transpose(r))")
/* decompositions: several results (U, sigma, V = wp.svd3(A), or
 * wp.svd3(A, U, sigma, V) into the caller's variables); the adjoint of
 * each is a runtime function of its own, adj_<name>, which only kdiff
 * writes (BF_INTERNAL) */
B6(SVD3, "svd3", "U: mat(3, 3, S), sigma: vec(3, S), V: mat(3, 3, S)", "A: mat(3, 3, Float)", 0, "adj_svd3(a, r, r1, r2, g, g1, g2)")
B6(SVD2, "svd2", "U: mat(2, 2, S), sigma: vec(2, S), V: mat(2, 2, S)", "A: mat(2, 2, Float)", 0, "adj_svd2(a, r, r1, r2, g, g1, g2)")
B6(QR3, "qr3", "Q: mat(3, 3, S), R: mat(3, 3, S)", "A: mat(3, 3, Float)", 0, "adj_qr3(a, r, r1, g, g1)")
B6(EIG3, "eig3", "Q: mat(3, 3, S), d: vec(3, S)", "A: mat(3, 3, Float)", 0, "adj_eig3(a, r, r1, g, g1)")
B6(ADJ_SVD3, "adj_svd3", "mat(3, 3, S)", "mat(3, 3, Float), mat(3, 3, S), vec(3, S), mat(3, 3, S), mat(3, 3, S), vec(3, S), mat(3, 3, S)", BF_INTERNAL, "")
B6(ADJ_SVD2, "adj_svd2", "mat(2, 2, S)", "mat(2, 2, Float), mat(2, 2, S), vec(2, S), mat(2, 2, S), mat(2, 2, S), vec(2, S), mat(2, 2, S)", BF_INTERNAL, "")
B6(ADJ_QR3, "adj_qr3", "mat(3, 3, S)", "mat(3, 3, Float), mat(3, 3, S), mat(3, 3, S), mat(3, 3, S), mat(3, 3, S)", BF_INTERNAL, "")
B6(ADJ_EIG3, "adj_eig3", "mat(3, 3, S)", "mat(3, 3, Float), mat(3, 3, S), vec(3, S), mat(3, 3, S), vec(3, S)", BF_INTERNAL, "")

/* quaternions, transforms and spatial vectors */
B6(QUAT_IDENTITY, "quat_identity", "quat(float)", "", 0, "")
B6(QUAT_FROM_AXIS_ANGLE, "quat_from_axis_angle", "quat(S)", "axis: vec(3, Float), angle: S", 0, "adj_quat_from_axis_angle_axis(a, b, g); adj_quat_from_axis_angle_angle(a, b, g)")
B6(QUAT_FROM_MATRIX33, "quat_from_matrix", "quat(S)", "mat: mat(3, 3, Float)", 0, "adj_quat_from_matrix_mat(a, g)")
B6(QUAT_FROM_MATRIX44, "quat_from_matrix", "quat(S)", "mat: mat(4, 4, Float)", 0, "adj_quat_from_matrix_mat(a, g)")
B6(QUAT_RPY, "quat_rpy", "quat(S)", "roll: Float, pitch: S, yaw: S", 0, "adj_quat_rpy_roll(a, b, c, g); adj_quat_rpy_pitch(a, b, c, g); adj_quat_rpy_yaw(a, b, c, g)")
B6(QUAT_TO_MATRIX, "quat_to_matrix", "mat(3, 3, S)", "quat: quat(Float)", 0, "adj_quat_to_matrix_quat(a, g)")
B6(QUAT_INVERSE, "quat_inverse", "quat(S)", "quat: quat(Float)", 0, "quat_inverse(g)")
B6(QUAT_ROTATE, "quat_rotate", "vec(3, S)", "quat: quat(Float), vec: vec(3, S)", 0, "adj_quat_rotate_q(a, b, g); quat_rotate_inv(a, g)")
B6(QUAT_ROTATE_INV, "quat_rotate_inv", "vec(3, S)", "quat: quat(Float), vec: vec(3, S)", 0, "quat_inverse(adj_quat_rotate_q(quat_inverse(a), b, g)); quat_rotate(a, g)")
B6(QUAT_TO_AXIS_ANGLE, "quat_to_axis_angle", "axis: vec(3, S), angle: S", "quat: quat(Float)", 0, "adj_quat_to_axis_angle(a, g, g1)")
B6(QUAT_SLERP, "quat_slerp", "quat(S)", "a: quat(Float), b: quat(S), t: S", 0, "adj_quat_slerp_a(a, b, c, g); adj_quat_slerp_b(a, b, c, g); adj_quat_slerp_t(a, b, c, g)")
B6(QUAT_AXIS, "quat_axis", "vec(3, S)", "quat: quat(Float)", BF_INTERNAL, "adj_quat_axis(a, g)")
B6(QUAT_ANGLE, "quat_angle", "S", "quat: quat(Float)", BF_INTERNAL, "adj_quat_angle(a, g)")
B6(DOT_Q, "dot", "S", "a: quat(Float), b: quat(S)", 0, "g * b; g * a")
B6(LENGTH_Q, "length", "S", "a: quat(Float)", 0, "r > 0.0 ? a * (g / r) : 0.0")
B6(LENGTH_SQ_Q, "length_sq", "S", "a: quat(Float)", 0, "a * (2.0 * g)")
B6(NORMALIZE_Q, "normalize", "quat(S)", "a: quat(Float)", 0, "adj_normalize(a, g)")
B6(TRANSFORM_IDENTITY, "transform_identity", "transform(float)", "", 0, "")
B6(TRANSFORM_GET_TRANSLATION, "transform_get_translation", "vec(3, S)", "xform: transform(Float)", 0, "adj_transform_get_translation_xform(g)")
B6(TRANSFORM_GET_ROTATION, "transform_get_rotation", "quat(S)", "xform: transform(Float)", 0, "adj_transform_get_rotation_xform(g)")
B6(TRANSFORM_MULTIPLY, "transform_multiply", "transform(S)", "a: transform(Float), b: transform(S)", 0, "adj_transform_multiply_a(a, b, g); adj_transform_multiply_b(a, b, g)")
B6(TRANSFORM_POINT, "transform_point", "vec(3, S)", "xform: transform(Float), point: vec(3, S)", 0, "adj_transform_point_xform(a, b, g); adj_transform_point_point(a, b, g)")
B6(TRANSFORM_POINT_M, "transform_point", "vec(3, S)", "mat: mat(4, 4, Float), point: vec(3, S)", 0, "adj_transform_point_mat(a, b, g); adj_transform_point_point(a, b, g)")
B6(TRANSFORM_VECTOR, "transform_vector", "vec(3, S)", "xform: transform(Float), vec: vec(3, S)", 0, "adj_transform_vector_xform(a, b, g); adj_transform_vector_vec(a, b, g)")
B6(TRANSFORM_VECTOR_M, "transform_vector", "vec(3, S)", "mat: mat(4, 4, Float), vec: vec(3, S)", 0, "adj_transform_vector_mat(a, b, g); adj_transform_vector_vec(a, b, g)")
B6(TRANSFORM_INVERSE, "transform_inverse", "transform(S)", "xform: transform(Float)", 0, "adj_transform_inverse_xform(a, g)")
B6(SPATIAL_TOP, "spatial_top", "vec(3, S)", "svec: vec(6, Float)", 0, "adj_spatial_top_svec(g)")
B6(SPATIAL_BOTTOM, "spatial_bottom", "vec(3, S)", "svec: vec(6, Float)", 0, "adj_spatial_bottom_svec(g)")
B6(SPATIAL_DOT, "spatial_dot", "S", "a: vec(6, Float), b: vec(6, S)", 0, "g * b; g * a")
B6(SPATIAL_CROSS, "spatial_cross", "vec(6, S)", "a: vec(6, Float), b: vec(6, S)", 0, "adj_spatial_cross_a(a, b, g); adj_spatial_cross_b(a, b, g)")
B6(SPATIAL_CROSS_DUAL, "spatial_cross_dual", "vec(6, S)", "a: vec(6, Float), b: vec(6, S)", 0, "adj_spatial_cross_dual_a(a, b, g); adj_spatial_cross_dual_b(a, b, g)")
B6(SPATIAL_ADJOINT, "spatial_adjoint", "mat(6, 6, S)", "r: mat(3, 3, Float), s: mat(3, 3, S)", 0, "adj_spatial_adjoint_r(g); adj_spatial_adjoint_s(g)")
B6(ATOMIC_ADD_Q, "atomic_add", "quat(S)", "arr: array(quat(Float)), index, value: quat(S)", BF_ATOMIC, "")
B6(ATOMIC_SUB_Q, "atomic_sub", "quat(S)", "arr: array(quat(Float)), index, value: quat(S)", BF_ATOMIC, "")
B6(ATOMIC_ADD_X, "atomic_add", "transform(S)", "arr: array(transform(Float)), index, value: transform(S)", BF_ATOMIC, "")
B6(ATOMIC_SUB_X, "atomic_sub", "transform(S)", "arr: array(transform(Float)), index, value: transform(S)", BF_ATOMIC, "")
/* their adjoints, called only by the rules above: adj_<builtin>_<param>
 * is the adjoint of that parameter, from the arguments and g */
B6(ADJ_QUAT_ROTATE_Q, "adj_quat_rotate_q", "quat(S)", "quat(Float), vec(3, S), vec(3, S)", BF_INTERNAL, "")
B6(ADJ_QUAT_FROM_AXIS_ANGLE_AXIS, "adj_quat_from_axis_angle_axis", "vec(3, S)", "vec(3, Float), S, quat(S)", BF_INTERNAL, "")
B6(ADJ_QUAT_FROM_AXIS_ANGLE_ANGLE, "adj_quat_from_axis_angle_angle", "S", "vec(3, Float), S, quat(S)", BF_INTERNAL, "")
B6(ADJ_QUAT_FROM_MATRIX33_MAT, "adj_quat_from_matrix_mat", "mat(3, 3, S)", "mat(3, 3, Float), quat(S)", BF_INTERNAL, "")
B6(ADJ_QUAT_FROM_MATRIX44_MAT, "adj_quat_from_matrix_mat", "mat(4, 4, S)", "mat(4, 4, Float), quat(S)", BF_INTERNAL, "")
B6(ADJ_QUAT_RPY_ROLL, "adj_quat_rpy_roll", "S", "Float, S, S, quat(S)", BF_INTERNAL, "")
B6(ADJ_QUAT_RPY_PITCH, "adj_quat_rpy_pitch", "S", "Float, S, S, quat(S)", BF_INTERNAL, "")
B6(ADJ_QUAT_RPY_YAW, "adj_quat_rpy_yaw", "S", "Float, S, S, quat(S)", BF_INTERNAL, "")
B6(ADJ_QUAT_TO_AXIS_ANGLE, "adj_quat_to_axis_angle", "quat(S)", "quat(Float), vec(3, S), S", BF_INTERNAL, "")
B6(ADJ_QUAT_TO_MATRIX_QUAT, "adj_quat_to_matrix_quat", "quat(S)", "quat(Float), mat(3, 3, S)", BF_INTERNAL, "")
B6(ADJ_QUAT_SLERP_A, "adj_quat_slerp_a", "quat(S)", "quat(Float), quat(S), S, quat(S)", BF_INTERNAL, "")
B6(ADJ_QUAT_SLERP_B, "adj_quat_slerp_b", "quat(S)", "quat(Float), quat(S), S, quat(S)", BF_INTERNAL, "")
B6(ADJ_QUAT_SLERP_T, "adj_quat_slerp_t", "S", "quat(Float), quat(S), S, quat(S)", BF_INTERNAL, "")
B6(ADJ_QUAT_AXIS, "adj_quat_axis", "quat(S)", "quat(Float), vec(3, S)", BF_INTERNAL, "")
B6(ADJ_QUAT_ANGLE, "adj_quat_angle", "quat(S)", "quat(Float), S", BF_INTERNAL, "")
B6(ADJ_NORMALIZE_Q, "adj_normalize", "quat(S)", "quat(Float), quat(S)", BF_INTERNAL, "")
B6(ADJ_TRANSFORM_GET_TRANSLATION_XFORM, "adj_transform_get_translation_xform", "transform(S)", "vec(3, Float)", BF_INTERNAL, "")
B6(ADJ_TRANSFORM_GET_ROTATION_XFORM, "adj_transform_get_rotation_xform", "transform(S)", "quat(Float)", BF_INTERNAL, "")
B6(ADJ_TRANSFORM_MULTIPLY_A, "adj_transform_multiply_a", "transform(S)", "transform(Float), transform(S), transform(S)", BF_INTERNAL, "")
B6(ADJ_TRANSFORM_MULTIPLY_B, "adj_transform_multiply_b", "transform(S)", "transform(Float), transform(S), transform(S)", BF_INTERNAL, "")
B6(ADJ_TRANSFORM_POINT_XFORM, "adj_transform_point_xform", "transform(S)", "transform(Float), vec(3, S), vec(3, S)", BF_INTERNAL, "")
B6(ADJ_TRANSFORM_POINT_POINT, "adj_transform_point_point", "vec(3, S)", "transform(Float), vec(3, S), vec(3, S)", BF_INTERNAL, "")
B6(ADJ_TRANSFORM_POINT_POINT_M, "adj_transform_point_point", "vec(3, S)", "mat(4, 4, Float), vec(3, S), vec(3, S)", BF_INTERNAL, "")
B6(ADJ_TRANSFORM_POINT_MAT, "adj_transform_point_mat", "mat(4, 4, S)", "mat(4, 4, Float), vec(3, S), vec(3, S)", BF_INTERNAL, "")
B6(ADJ_TRANSFORM_VECTOR_XFORM, "adj_transform_vector_xform", "transform(S)", "transform(Float), vec(3, S), vec(3, S)", BF_INTERNAL, "")
B6(ADJ_TRANSFORM_VECTOR_VEC, "adj_transform_vector_vec", "vec(3, S)", "transform(Float), vec(3, S), vec(3, S)", BF_INTERNAL, "")
B6(ADJ_TRANSFORM_VECTOR_VEC_M, "adj_transform_vector_vec", "vec(3, S)", "mat(4, 4, Float), vec(3, S), vec(3, S)", BF_INTERNAL, "")
B6(ADJ_TRANSFORM_VECTOR_MAT, "adj_transform_vector_mat", "mat(4, 4, S)", "mat(4, 4, Float), vec(3, S), vec(3, S)", BF_INTERNAL, "")
B6(ADJ_TRANSFORM_INVERSE_XFORM, "adj_transform_inverse_xform", "transform(S)", "transform(Float), transform(S)", BF_INTERNAL, "")
B6(ADJ_SPATIAL_TOP_SVEC, "adj_spatial_top_svec", "vec(6, S)", "vec(3, Float)", BF_INTERNAL, "")
B6(ADJ_SPATIAL_BOTTOM_SVEC, "adj_spatial_bottom_svec", "vec(6, S)", "vec(3, Float)", BF_INTERNAL, "")
B6(ADJ_SPATIAL_CROSS_A, "adj_spatial_cross_a", "vec(6, S)", "vec(6, Float), vec(6, S), vec(6, S)", BF_INTERNAL, "")
B6(ADJ_SPATIAL_CROSS_B, "adj_spatial_cross_b", "vec(6, S)", "vec(6, Float), vec(6, S), vec(6, S)", BF_INTERNAL, "")
B6(ADJ_SPATIAL_CROSS_DUAL_A, "adj_spatial_cross_dual_a", "vec(6, S)", "vec(6, Float), vec(6, S), vec(6, S)", BF_INTERNAL, "")
B6(ADJ_SPATIAL_CROSS_DUAL_B, "adj_spatial_cross_dual_b", "vec(6, S)", "vec(6, Float), vec(6, S), vec(6, S)", BF_INTERNAL, "")
B6(ADJ_SPATIAL_ADJOINT_R, "adj_spatial_adjoint_r", "mat(3, 3, S)", "mat(6, 6, Float)", BF_INTERNAL, "")
B6(ADJ_SPATIAL_ADJOINT_S, "adj_spatial_adjoint_s", "mat(3, 3, S)", "mat(6, 6, Float)", BF_INTERNAL, "")

/* random numbers (Warp's PCG generator) and sampling */
/* The state is a uint32 that each draw advances: those rows (BF_STATE)
 * have a second result, the new state, which kparse writes back to the
 * variable the call named (doc/language.md).  None has an adjoint: Warp
 * defines no gradient for a draw, not even to low and high. */
B6(RAND_INIT, "rand_init", "uint32", "seed: int", BF_OWN_NAME, "")
B6(RAND_INIT_OFFSET, "rand_init", "uint32", "seed: int, offset: int", BF_OWN_NAME, "")
B6(RANDI, "randi", "int", "state: uint32", BF_STATE, "")
B6(RANDI_RANGE, "randi", "int", "state: uint32, low: int, high: int", BF_STATE, "")
B6(RANDU, "randu", "uint32", "state: uint32", BF_STATE, "")
B6(RANDU_RANGE, "randu", "uint32", "state: uint32, low: uint32, high: uint32", BF_STATE, "")
B6(RANDF, "randf", "float", "state: uint32", BF_STATE, "")
B6(RANDF_RANGE, "randf", "float", "state: uint32, low: float, high: float", BF_STATE, "")
B6(RANDN, "randn", "float", "state: uint32", BF_STATE, "")
B6(POISSON, "poisson", "uint32", "state: uint32, lam: float", BF_STATE, "")
B6(SAMPLE_CDF, "sample_cdf", "int", "state: uint32, cdf: array(float)", BF_STATE | BF_VIEW, "")
B6(SAMPLE_TRIANGLE, "sample_triangle", "vec2", "state: uint32", BF_STATE, "")
B6(SAMPLE_UNIT_RING, "sample_unit_ring", "vec2", "state: uint32", BF_STATE, "")
B6(SAMPLE_UNIT_DISK, "sample_unit_disk", "vec2", "state: uint32", BF_STATE, "")
B6(SAMPLE_UNIT_SPHERE_SURFACE, "sample_unit_sphere_surface", "vec3", "state: uint32", BF_STATE, "")
B6(SAMPLE_UNIT_SPHERE, "sample_unit_sphere", "vec3", "state: uint32", BF_STATE, "")
B6(SAMPLE_UNIT_HEMISPHERE_SURFACE, "sample_unit_hemisphere_surface", "vec3", "state: uint32", BF_STATE, "")
B6(SAMPLE_UNIT_HEMISPHERE, "sample_unit_hemisphere", "vec3", "state: uint32", BF_STATE, "")
B6(SAMPLE_UNIT_SQUARE, "sample_unit_square", "vec2", "state: uint32", BF_STATE, "")
B6(SAMPLE_UNIT_CUBE, "sample_unit_cube", "vec3", "state: uint32", BF_STATE, "")

/* Perlin noise (runtime/ks_noise.h): a function of the state, which it
 * does not advance, and of x, smooth in x but at the cells' faces; the
 * adjoints through its gradient (noise_grad, pnoise_grad) and, for
 * curlnoise, its second derivatives (curlnoise_adj).  Warp's curlnoise
 * leaves lacunarity and gain without a gradient; here they have theirs
 * (curlnoise_adj_params: lacunarity's and gain's, doc/warp-differences.md). */
B6(NOISE, "noise", "float", "state: uint32, x: float", 0, "; noise_grad(a, b) * g")
B6(NOISE_2D, "noise", "float", "state: uint32, xy: vec2", 0, "; noise_grad(a, b) * g")
B6(NOISE_3D, "noise", "float", "state: uint32, xyz: vec3", 0, "; noise_grad(a, b) * g")
B6(NOISE_4D, "noise", "float", "state: uint32, xyzt: vec4", 0, "; noise_grad(a, b) * g")
B6(PNOISE, "pnoise", "float", "state: uint32, x: float, px: int", 0, "; pnoise_grad(a, b, c) * g; ")
B6(PNOISE_2D, "pnoise", "float", "state: uint32, xy: vec2, px: int, py: int", 0, "; pnoise_grad(a, b, c, d) * g; ; ")
B6(PNOISE_3D, "pnoise", "float", "state: uint32, xyz: vec3, px: int, py: int, pz: int", 0,
   "; pnoise_grad(a, b, c, d, e) * g; ; ; ")
B6(PNOISE_4D, "pnoise", "float", "state: uint32, xyzt: vec4, px: int, py: int, pz: int, pt: int", 0,
   "; pnoise_grad(a, b, c, d, e, f) * g; ; ; ; ")
B6(CURLNOISE_2D, "curlnoise", "vec2", "state: uint32, xy: vec2, octaves: uint32 = 1, lacunarity: float = 2.0, gain: float = 0.5", 0,
   "; curlnoise_adj(a, b, c, d, e, g); ; at(curlnoise_adj_params(a, b, c, d, e, g), 0); at(curlnoise_adj_params(a, b, c, d, e, g), 1)")
B6(CURLNOISE_3D, "curlnoise", "vec3", "state: uint32, xyz: vec3, octaves: uint32 = 1, lacunarity: float = 2.0, gain: float = 0.5", 0,
   "; curlnoise_adj(a, b, c, d, e, g); ; at(curlnoise_adj_params(a, b, c, d, e, g), 0); at(curlnoise_adj_params(a, b, c, d, e, g), 1)")
B6(CURLNOISE_4D, "curlnoise", "vec3", "state: uint32, xyzt: vec4, octaves: uint32 = 1, lacunarity: float = 2.0, gain: float = 0.5", 0,
   "; curlnoise_adj(a, b, c, d, e, g); ; at(curlnoise_adj_params(a, b, c, d, e, g), 0); at(curlnoise_adj_params(a, b, c, d, e, g), 1)")
B6(NOISE_GRAD, "noise_grad", "float", "state: uint32, x: float", BF_INTERNAL, "")
B6(NOISE_GRAD_2D, "noise_grad", "vec2", "state: uint32, xy: vec2", BF_INTERNAL, "")
B6(NOISE_GRAD_3D, "noise_grad", "vec3", "state: uint32, xyz: vec3", BF_INTERNAL, "")
B6(NOISE_GRAD_4D, "noise_grad", "vec4", "state: uint32, xyzt: vec4", BF_INTERNAL, "")
B6(PNOISE_GRAD, "pnoise_grad", "float", "state: uint32, x: float, px: int", BF_INTERNAL, "")
B6(PNOISE_GRAD_2D, "pnoise_grad", "vec2", "state: uint32, xy: vec2, px: int, py: int", BF_INTERNAL, "")
B6(PNOISE_GRAD_3D, "pnoise_grad", "vec3", "state: uint32, xyz: vec3, px: int, py: int, pz: int", BF_INTERNAL, "")
B6(PNOISE_GRAD_4D, "pnoise_grad", "vec4", "state: uint32, xyzt: vec4, px: int, py: int, pz: int, pt: int", BF_INTERNAL, "")
B6(CURLNOISE_ADJ_2D, "curlnoise_adj", "vec2", "state: uint32, xy: vec2, octaves: uint32, lacunarity: float, gain: float, adj: vec2", BF_INTERNAL, "")
B6(CURLNOISE_ADJ_3D, "curlnoise_adj", "vec3", "state: uint32, xyz: vec3, octaves: uint32, lacunarity: float, gain: float, adj: vec3", BF_INTERNAL, "")
B6(CURLNOISE_ADJ_4D, "curlnoise_adj", "vec4", "state: uint32, xyzt: vec4, octaves: uint32, lacunarity: float, gain: float, adj: vec3", BF_INTERNAL, "")
B6(CURLNOISE_ADJ_PARAMS_2D, "curlnoise_adj_params", "vec2", "state: uint32, xy: vec2, octaves: uint32, lacunarity: float, gain: float, adj: vec2", BF_INTERNAL, "")
B6(CURLNOISE_ADJ_PARAMS_3D, "curlnoise_adj_params", "vec2", "state: uint32, xyz: vec3, octaves: uint32, lacunarity: float, gain: float, adj: vec3", BF_INTERNAL, "")
B6(CURLNOISE_ADJ_PARAMS_4D, "curlnoise_adj_params", "vec2", "state: uint32, xyzt: vec4, octaves: uint32, lacunarity: float, gain: float, adj: vec3", BF_INTERNAL, "")

/* atomics: return the old value; the result may be left unused */
B6(ATOMIC_ADD, "atomic_add", "T", "arr: array(Arith), index, value: T", BF_ATOMIC, "")
B6(ATOMIC_SUB, "atomic_sub", "T", "arr: array(Arith), index, value: T", BF_ATOMIC, "")
B6(ATOMIC_MIN, "atomic_min", "S", "arr: array(Scalar), index, value: S", BF_ATOMIC, "")
B6(ATOMIC_MAX, "atomic_max", "S", "arr: array(Scalar), index, value: S", BF_ATOMIC, "")

/* bitwise atomics, exchange and compare-and-swap */
B6(ATOMIC_AND, "atomic_and", "S", "arr: array(Int), index, value: S", BF_ATOMIC, "")
B6(ATOMIC_OR, "atomic_or", "S", "arr: array(Int), index, value: S", BF_ATOMIC, "")
B6(ATOMIC_XOR, "atomic_xor", "S", "arr: array(Int), index, value: S", BF_ATOMIC, "")
B6(ATOMIC_EXCH, "atomic_exch", "S", "arr: array(Scalar), index, value: S", BF_ATOMIC, "")
/* a float vector's or matrix's components exchanged each by itself:
 * kdiff's taking of a stored element's adjoint in a kernel on tiles */
B6(ATOMIC_EXCH_V, "atomic_exch", "vec(N, S)", "arr: array(vec(N, Float)), index, value: vec(N, S)", BF_ATOMIC | BF_INTERNAL, "")
B6(ATOMIC_EXCH_M, "atomic_exch", "mat(N, M, S)", "arr: array(mat(N, M, Float)), index, value: mat(N, M, S)", BF_ATOMIC | BF_INTERNAL, "")
B6(ATOMIC_CAS, "atomic_cas", "S", "arr: array(Scalar), index, compare: S, value: S", BF_ATOMIC, "")

/* tiles (doc/language.md): a block's threads compute each together */
B6(TILE_MATMUL, "tile_matmul", "tile(M, N, S)", "a: tile(M, K, Float), b: tile(K, N, S)", BF_TILE, "tile_matmul(g, tile_transpose(b)); tile_matmul(tile_transpose(a), g)")
B6(TILE_TRANSPOSE, "tile_transpose", "tile(N, M, T)", "a: tile(M, N, Any)", BF_TILE, "tile_transpose(g)")
B6(TILE_SUM, "tile_sum", "tile(1, T)", "a: tile(Arith)", BF_TILE, "fill(a, at(g, 0))")
B6(TILE_MIN, "tile_min", "tile(1, S)", "a: tile(Scalar)", BF_TILE, "tile_onehot(a, tile_argmin(a), g)")
B6(TILE_MAX, "tile_max", "tile(1, S)", "a: tile(Scalar)", BF_TILE, "tile_onehot(a, tile_argmax(a), g)")
/* the row-major index of the least (greatest) element, the first of
 * equal ones; and the product of the elements, wp.tile_reduce(wp.mul, a) */
B6(TILE_ARGMIN, "tile_argmin", "tile(1, int)", "a: tile(Scalar)", BF_TILE, "")
B6(TILE_ARGMAX, "tile_argmax", "tile(1, int)", "a: tile(Scalar)", BF_TILE, "")
B6(TILE_PROD, "tile_prod", "tile(1, S)", "a: tile(Scalar)", BF_TILE | BF_INTERNAL, "tile_prods_before(a) * tile_prods_after(a) * fill(a, at(g, 0))")
/* a tile of a's shape, zeros but for element i[0], which is g[0]: the
 * adjoint of a minimum or maximum, all of it to the element chosen */
B6(TILE_ONEHOT, "tile_onehot", "tile(S)", "a: tile(Scalar), i: tile(1, int), g: tile(1, S)", BF_TILE | BF_INTERNAL, "")
/* a thread's share of the sum of a tile's elements (those it computes):
 * the shares of a block's threads add up to the sum (kdiff's adjoint of
 * a number that every element of a tile operation read) */
B6(TILE_SHARE, "tile_share", "T", "a: tile(Arith)", BF_TILE | BF_INTERNAL, "")
/* a tile of each thread's value, element k thread k's (wp.tile(x,
 * preserve_type=True); kparse spreads a vector's or matrix's components
 * over rows), and back: the element of each thread */
B6(TILE, "tile", "tile(block, T)", "x: Any", BF_TILE, "untile(g)")
B6(UNTILE, "untile", "T", "a: tile(block, Any)", BF_TILE, "tile(g)")
/* the threads of a block: 1 on the CPU */
B6(BLOCK_DIM, "block_dim", "int", "", 0, "")
/* the DFT of each row of a tile of complex numbers (vec2: re, im), along
 * its last axis (any shape, the leading extents a stack of rows),
 * unnormalised: wp.tile_fft (e^-2pi i k n / N) and
 * wp.tile_ifft (e^+...), each the other's adjoint.  Warp's transforms
 * are in place: kparse writes `%a = tile_fft %a` */
B6(TILE_FFT, "tile_fft", "tile(vec(2, S))", "inout: tile(vec(2, Float))", BF_TILE, "tile_ifft(g)")
B6(TILE_IFFT, "tile_ifft", "tile(vec(2, S))", "inout: tile(vec(2, Float))", BF_TILE, "tile_fft(g)")
/* prefix sums of a tile's elements in row-major order, including each
 * element or not (wp.tile_scan_inclusive, tile_scan_exclusive), and
 * kdiff's suffix sums, their adjoints */
B6(TILE_SCAN_INCLUSIVE, "tile_scan_inclusive", "tile(S)", "a: tile(Scalar)", BF_TILE, "tile_rscan_inclusive(g)")
B6(TILE_SCAN_EXCLUSIVE, "tile_scan_exclusive", "tile(S)", "a: tile(Scalar)", BF_TILE, "tile_rscan_exclusive(g)")
B6(TILE_RSCAN_INCLUSIVE, "tile_rscan_inclusive", "tile(S)", "a: tile(Scalar)", BF_TILE | BF_INTERNAL, "tile_scan_inclusive(g)")
B6(TILE_RSCAN_EXCLUSIVE, "tile_rscan_exclusive", "tile(S)", "a: tile(Scalar)", BF_TILE | BF_INTERNAL, "tile_scan_exclusive(g)")
/* Cholesky factors and triangular solves of square tiles of float32 or
 * float64: wp.tile_cholesky's lower factor L of a's lower triangle (L Lᵀ
 * = a, zeros above), the z of L z = y from L's lower triangle
 * (tile_lower_solve), the x of U x = z from U's upper (tile_upper_solve),
 * the right-hand side a column (N) or N x M of them.  kparse writes the
 * upper factor and tile_cholesky_solve with these and transposes.  Their
 * adjoints (doc/autodiff.md): Murray's for the factor, ā = Φ(L⁻ᵀ S L⁻¹)
 * with S = Φ(Lᵀ ḡ) + Φ(Lᵀ ḡ)ᵀ, Φ the lower triangle with its diagonal
 * halved; a solve's, the solve of ḡ with the transpose, and minus the
 * triangle of that times the solution's transpose for the matrix */
B6(TILE_CHOLESKY, "tile_cholesky", "tile(N, N, S)", "A: tile(N, N, Float)", BF_TILE, "tile_lower_halved(tile_transpose(tile_upper_solve(tile_transpose(r), tile_transpose(tile_upper_solve(tile_transpose(r), tile_mirror_lower(tile_matmul(tile_transpose(r), g)))))))")
B6(TILE_LOWER_SOLVE, "tile_lower_solve", "tile(N, S)", "L: tile(N, N, Float), y: tile(N, S)", BF_TILE, "-tile_lower_outer(tile_upper_solve(tile_transpose(a), g), r); tile_upper_solve(tile_transpose(a), g)")
B6(TILE_LOWER_SOLVE_2D, "tile_lower_solve", "tile(N, M, S)", "L: tile(N, N, Float), y: tile(N, M, S)", BF_TILE, "-tile_lower_outer(tile_upper_solve(tile_transpose(a), g), r); tile_upper_solve(tile_transpose(a), g)")
B6(TILE_UPPER_SOLVE, "tile_upper_solve", "tile(N, S)", "U: tile(N, N, Float), z: tile(N, S)", BF_TILE, "-tile_upper_outer(tile_lower_solve(tile_transpose(a), g), r); tile_lower_solve(tile_transpose(a), g)")
B6(TILE_UPPER_SOLVE_2D, "tile_upper_solve", "tile(N, M, S)", "U: tile(N, N, Float), z: tile(N, M, S)", BF_TILE, "-tile_upper_outer(tile_lower_solve(tile_transpose(a), g), r); tile_lower_solve(tile_transpose(a), g)")
/* their adjoints' parts: the lower (upper) triangle of a bᵀ, zeros
 * across the other (a and b columns, or N x M tiles of them); a's lower
 * triangle mirrored onto its upper; a's lower triangle with its
 * diagonal halved (Φ), zeros above */
B6(TILE_LOWER_OUTER, "tile_lower_outer", "tile(N, N, S)", "a: tile(N, Float), b: tile(N, S)", BF_TILE | BF_INTERNAL, "")
B6(TILE_LOWER_OUTER_2D, "tile_lower_outer", "tile(N, N, S)", "a: tile(N, M, Float), b: tile(N, M, S)", BF_TILE | BF_INTERNAL, "")
B6(TILE_UPPER_OUTER, "tile_upper_outer", "tile(N, N, S)", "a: tile(N, Float), b: tile(N, S)", BF_TILE | BF_INTERNAL, "")
B6(TILE_UPPER_OUTER_2D, "tile_upper_outer", "tile(N, N, S)", "a: tile(N, M, Float), b: tile(N, M, S)", BF_TILE | BF_INTERNAL, "")
B6(TILE_MIRROR_LOWER, "tile_mirror_lower", "tile(N, N, S)", "a: tile(N, N, Float)", BF_TILE | BF_INTERNAL, "")
B6(TILE_LOWER_HALVED, "tile_lower_halved", "tile(N, N, S)", "a: tile(N, N, Float)", BF_TILE | BF_INTERNAL, "")
/* the products of the elements before (after) each, row-major, 1 for
 * none: a product's adjoint is theirs times the result's (tile_prod) */
B6(TILE_PRODS_BEFORE, "tile_prods_before", "tile(S)", "a: tile(Float)", BF_TILE | BF_INTERNAL, "")
B6(TILE_PRODS_AFTER, "tile_prods_after", "tile(S)", "a: tile(Float)", BF_TILE | BF_INTERNAL, "")
/* prefix maxima and minima (wp.tile_scan_max_inclusive, ...), and their
 * adjoints: an element that is a new extreme (the first of equal ones)
 * gets the adjoints of the results that are it, the others nothing */
B6(TILE_SCAN_MAX_INCLUSIVE, "tile_scan_max_inclusive", "tile(S)", "a: tile(Scalar)", BF_TILE, "tile_scan_max_adj(a, r, g)")
B6(TILE_SCAN_MIN_INCLUSIVE, "tile_scan_min_inclusive", "tile(S)", "a: tile(Scalar)", BF_TILE, "tile_scan_min_adj(a, r, g)")
B6(TILE_SCAN_MAX_ADJ, "tile_scan_max_adj", "tile(S)", "a: tile(Scalar), r: tile(S), g: tile(S)", BF_TILE | BF_INTERNAL, "")
B6(TILE_SCAN_MIN_ADJ, "tile_scan_min_adj", "tile(S)", "a: tile(Scalar), r: tile(S), g: tile(S)", BF_TILE | BF_INTERNAL, "")
/* wp.tile_sort(keys, values), in place: the order that sorts the keys
 * (element k the index of the k-th least, equal keys in their order),
 * and each tile taken in that order (tile_permute: r[k] = a[order[k]]);
 * the adjoint of one, the other (tile_unpermute: r[order[k]] = a[k]) */
B6(TILE_SORT_ORDER, "tile_sort_order", "tile(int)", "keys: tile(Scalar)", BF_TILE | BF_INTERNAL, "")
B6(TILE_PERMUTE, "tile_permute", "tile(T)", "a: tile(Any), order: tile(int)", BF_TILE | BF_INTERNAL, "tile_unpermute(g, b)")
B6(TILE_UNPERMUTE, "tile_unpermute", "tile(T)", "a: tile(Any), order: tile(int)", BF_TILE | BF_INTERNAL, "tile_permute(g, b)")
/* a tile of one element, thread `thread`'s x (wp.tile_from_thread is
 * its broadcast); on the CPU, a block of one thread, the thread's x; and
 * whether this thread is that one (its adjoint takes the element's) */
B6(TILE_PICK, "tile_pick", "tile(1, T)", "x: Any, thread: int", BF_TILE | BF_INTERNAL, "lane_is(b) ? at(g, 0) : 0.0;")
B6(LANE_IS, "lane_is", "bool", "thread: int", BF_INTERNAL | BF_OWN_NAME, "")
/* does this thread compute element k (row-major) of a tile: k modulo the
 * block's threads (kdiff's adjoint of t[i, j] = x, which that thread set) */
B6(LANE_OWNS, "lane_owns", "bool", "k: int", BF_INTERNAL | BF_OWN_NAME, "")
/* a square tile with a 1-D tile added to its diagonal (wp.tile_diag_add),
 * and kdiff's diagonal of a square tile, its adjoint's */
B6(TILE_DIAG_ADD, "tile_diag_add", "tile(N, N, T)", "a: tile(N, N, Arith), d: tile(N, T)", BF_TILE, "g; tile_diag(g)")
B6(TILE_DIAG, "tile_diag", "tile(N, T)", "a: tile(N, N, Arith)", BF_TILE | BF_INTERNAL, "")

#ifdef KS_B6_LOCAL
#undef B6
#undef KS_B6_LOCAL
#endif
/* clang-format on */
