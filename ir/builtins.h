/*
 * builtins.h: every builtin function of the language, one row per
 * overload.  The type checker, the IR verifier, kdiff and the emitters all
 * read this table; a new builtin is one row here (plus its runtime code).
 *
 *     B(ENUM, "name", "result", "args", flags, "adjoint")
 *
 * The arguments are type patterns separated by commas, the result one
 * pattern ("" for no value):
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
 * result) and g (the result's adjoint); "" or an empty part means none
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

/* quaternions, transforms and spatial vectors */

/* random numbers (Warp's PCG generator) and sampling */

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
B6(ATOMIC_CAS, "atomic_cas", "S", "arr: array(Scalar), index, compare: S, value: S", BF_ATOMIC, "")

#ifdef KS_B6_LOCAL
#undef B6
#undef KS_B6_LOCAL
#endif
