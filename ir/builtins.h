/*
 * builtins.h: every builtin function of the language, one row per
 * overload.  The type checker, the IR verifier, kdiff and the emitters all
 * read this table; a new builtin is one row here (plus its runtime code).
 *
 *     B(ENUM, "name", "result", "args", flags, "adjoint")
 *
 * Types are written one character each:
 *     f float    i int      b bool
 *     v vecN     m matNN    (one N per row: "m:vv" is outer(vecN, vecN))
 *     3 vec3
 *     F float[]  I int[]    V vecN[]   M matNN[]
 * The result "" means no value.  The name is the Warp name without "wp.".
 * The emitted C name of an overload is ks_<name>_<suffix>, the suffix being
 * the type of its first value argument (see ir_builtin_cname).
 *
 * The adjoint column gives the derivative rule (diff/rule.c has the
 * grammar): for each argument, separated by ';', its adjoint
 * contribution as an expression over a, b, c (the arguments), r (the
 * result) and g (the result's adjoint); "" or an empty part means none
 * (int rows, floor, sign; tid and atomics are handled by kdiff itself).
 * Non-smooth points follow Warp (doc/autodiff.md).
 *
 * An includer that only wants the first five columns may define
 * B(e, name, res, args, fl) alone: B6 then drops the sixth.
 */
#ifndef B6
#define B6(e, name, res, args, fl, adj) B(e, name, res, args, fl)
#define KS_B6_LOCAL
#endif
B6(TID, "tid", "i", "", BF_KERNEL_ONLY, "")

/* scalar math */
B6(SIN, "sin", "f", "f", 0, "g * cos(a)")
B6(COS, "cos", "f", "f", 0, "-g * sin(a)")
B6(TAN, "tan", "f", "f", 0, "g / (cos(a) * cos(a))")
B6(ASIN, "asin", "f", "f", 0, "g / sqrt(1.0 - a * a)")
B6(ACOS, "acos", "f", "f", 0, "-g / sqrt(1.0 - a * a)")
B6(ATAN, "atan", "f", "f", 0, "g / (a * a + 1.0)")
B6(ATAN2, "atan2", "f", "ff", 0, "g * b / (a * a + b * b); -g * a / (a * a + b * b)")
B6(SINH, "sinh", "f", "f", 0, "g * cosh(a)")
B6(COSH, "cosh", "f", "f", 0, "g * sinh(a)")
B6(TANH, "tanh", "f", "f", 0, "g * (1.0 - r * r)")
B6(EXP, "exp", "f", "f", 0, "g * r")
B6(LOG, "log", "f", "f", 0, "g / a")
B6(LOG2, "log2", "f", "f", 0, "g / (a * 0.6931472)")
B6(LOG10, "log10", "f", "f", 0, "g / (a * 2.3025851)")
B6(SQRT, "sqrt", "f", "f", 0, "g / (2.0 * r)")
B6(POW, "pow", "f", "ff", 0, "g * b * pow(a, b - 1.0); a > 0.0 ? g * r * log(a) : 0.0")
B6(FLOOR, "floor", "f", "f", 0, "")
B6(CEIL, "ceil", "f", "f", 0, "")
B6(ABS_F, "abs", "f", "f", 0, "a < 0.0 ? -g : g")
B6(ABS_I, "abs", "i", "i", 0, "")
B6(ABS_V, "abs", "v", "v", 0, "@a < 0.0 ? -g : g")
B6(SIGN_F, "sign", "f", "f", 0, "")
B6(SIGN_I, "sign", "i", "i", 0, "")
B6(MIN_F, "min", "f", "ff", 0, "a < b ? g : 0.0; a < b ? 0.0 : g")
B6(MIN_I, "min", "i", "ii", 0, "")
B6(MIN_V, "min", "v", "vv", 0, "@a < b ? g : 0.0; a < b ? 0.0 : g")
B6(MAX_F, "max", "f", "ff", 0, "a > b ? g : 0.0; a > b ? 0.0 : g")
B6(MAX_I, "max", "i", "ii", 0, "")
B6(MAX_V, "max", "v", "vv", 0, "@a > b ? g : 0.0; a > b ? 0.0 : g")
B6(CLAMP_F, "clamp", "f", "fff", 0, "a < b ? 0.0 : (c < a ? 0.0 : g); a < b ? (c < b ? 0.0 : g) : 0.0; a < b ? (c < b ? g : 0.0) : (c < a ? g : 0.0)")
B6(CLAMP_I, "clamp", "i", "iii", 0, "")

/* vectors and matrices */
B6(DOT, "dot", "f", "vv", 0, "g * b; g * a")
B6(CROSS, "cross", "3", "33", 0, "cross(b, g); cross(g, a)")
B6(LENGTH, "length", "f", "v", 0, "r > 0.0 ? a * (g / r) : 0.0")
B6(LENGTH_SQ, "length_sq", "f", "v", 0, "a * (2.0 * g)")
B6(NORMALIZE, "normalize", "v", "v", 0, "length(a) > 0.0 ? (g - r * dot(r, g)) / length(a) : 0.0")
B6(OUTER, "outer", "m", "vv", 0, "g * b; transpose(g) * a")
B6(TRANSPOSE, "transpose", "m", "m", 0, "transpose(g)")
B6(DETERMINANT, "determinant", "f", "m", 0, "transpose(inverse(a)) * (g * r)")
B6(INVERSE, "inverse", "m", "m", 0, "-(transpose(r) * g * transpose(r))")

/* atomics: return the old value; the result may be left unused */
B6(ATOMIC_ADD_F, "atomic_add", "f", "Fif", BF_ATOMIC, "")
B6(ATOMIC_ADD_I, "atomic_add", "i", "Iii", BF_ATOMIC, "")
B6(ATOMIC_ADD_V, "atomic_add", "v", "Viv", BF_ATOMIC, "")
B6(ATOMIC_SUB_F, "atomic_sub", "f", "Fif", BF_ATOMIC, "")
B6(ATOMIC_SUB_I, "atomic_sub", "i", "Iii", BF_ATOMIC, "")
B6(ATOMIC_SUB_V, "atomic_sub", "v", "Viv", BF_ATOMIC, "")
B6(ATOMIC_ADD_M, "atomic_add", "m", "Mim", BF_ATOMIC, "")
B6(ATOMIC_SUB_M, "atomic_sub", "m", "Mim", BF_ATOMIC, "")
B6(ATOMIC_MIN_F, "atomic_min", "f", "Fif", BF_ATOMIC, "")
B6(ATOMIC_MIN_I, "atomic_min", "i", "Iii", BF_ATOMIC, "")
B6(ATOMIC_MAX_F, "atomic_max", "f", "Fif", BF_ATOMIC, "")
B6(ATOMIC_MAX_I, "atomic_max", "i", "Iii", BF_ATOMIC, "")

#ifdef KS_B6_LOCAL
#undef B6
#undef KS_B6_LOCAL
#endif
