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
 * An includer that only wants the first five columns may define
 * B(e, name, res, args, fl) alone: B6 then drops the sixth.
 */
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
 * writes (BF_ADJOINT) */
B6(SVD3, "svd3", "U: mat(3, 3, S), sigma: vec(3, S), V: mat(3, 3, S)", "A: mat(3, 3, Float)", 0, "adj_svd3(a, r, r1, r2, g, g1, g2)")
B6(SVD2, "svd2", "U: mat(2, 2, S), sigma: vec(2, S), V: mat(2, 2, S)", "A: mat(2, 2, Float)", 0, "adj_svd2(a, r, r1, r2, g, g1, g2)")
B6(QR3, "qr3", "Q: mat(3, 3, S), R: mat(3, 3, S)", "A: mat(3, 3, Float)", 0, "adj_qr3(a, r, r1, g, g1)")
B6(EIG3, "eig3", "Q: mat(3, 3, S), d: vec(3, S)", "A: mat(3, 3, Float)", 0, "adj_eig3(a, r, r1, g, g1)")
B6(ADJ_SVD3, "adj_svd3", "mat(3, 3, S)", "mat(3, 3, Float), mat(3, 3, S), vec(3, S), mat(3, 3, S), mat(3, 3, S), vec(3, S), mat(3, 3, S)", BF_ADJOINT, "")
B6(ADJ_SVD2, "adj_svd2", "mat(2, 2, S)", "mat(2, 2, Float), mat(2, 2, S), vec(2, S), mat(2, 2, S), mat(2, 2, S), vec(2, S), mat(2, 2, S)", BF_ADJOINT, "")
B6(ADJ_QR3, "adj_qr3", "mat(3, 3, S)", "mat(3, 3, Float), mat(3, 3, S), mat(3, 3, S), mat(3, 3, S), mat(3, 3, S)", BF_ADJOINT, "")
B6(ADJ_EIG3, "adj_eig3", "mat(3, 3, S)", "mat(3, 3, Float), mat(3, 3, S), vec(3, S), mat(3, 3, S), vec(3, S)", BF_ADJOINT, "")

/* quaternions, transforms and spatial vectors */

/* random numbers (Warp's PCG generator) and sampling */

/* atomics: return the old value; the result may be left unused */
B6(ATOMIC_ADD, "atomic_add", "T", "arr: array(Arith), index, value: T", BF_ATOMIC, "")
B6(ATOMIC_SUB, "atomic_sub", "T", "arr: array(Arith), index, value: T", BF_ATOMIC, "")
B6(ATOMIC_MIN, "atomic_min", "S", "arr: array(Scalar), index, value: S", BF_ATOMIC, "")
B6(ATOMIC_MAX, "atomic_max", "S", "arr: array(Scalar), index, value: S", BF_ATOMIC, "")

/* bitwise atomics, exchange and compare-and-swap */

#ifdef KS_B6_LOCAL
#undef B6
#undef KS_B6_LOCAL
#endif
