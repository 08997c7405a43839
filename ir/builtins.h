/*
 * builtins.h: every builtin function of the language, one row per
 * overload.  The type checker, the IR verifier, kdiff and the emitters all
 * read this table; a new builtin is one row here (plus its runtime code).
 *
 *     B(ENUM, "name", "result", "args", flags)
 *
 * Types are written one character each:
 *     f float    i int      b bool
 *     v vecN     m matNN    (one N per row: "m:vv" is outer(vecN, vecN))
 *     3 vec3
 *     F float[]  I int[]    V vecN[]
 * The result "" means no value.  The name is the Warp name without "wp.".
 * The emitted C name of an overload is ks_<name>_<suffix>, the suffix being
 * the type of its first value argument (see ir_builtin_cname).
 */
B(TID, "tid", "i", "", BF_KERNEL_ONLY)

/* scalar math */
B(SIN, "sin", "f", "f", 0)
B(COS, "cos", "f", "f", 0)
B(TAN, "tan", "f", "f", 0)
B(ASIN, "asin", "f", "f", 0)
B(ACOS, "acos", "f", "f", 0)
B(ATAN, "atan", "f", "f", 0)
B(ATAN2, "atan2", "f", "ff", 0)
B(SINH, "sinh", "f", "f", 0)
B(COSH, "cosh", "f", "f", 0)
B(TANH, "tanh", "f", "f", 0)
B(EXP, "exp", "f", "f", 0)
B(LOG, "log", "f", "f", 0)
B(LOG2, "log2", "f", "f", 0)
B(LOG10, "log10", "f", "f", 0)
B(SQRT, "sqrt", "f", "f", 0)
B(POW, "pow", "f", "ff", 0)
B(FLOOR, "floor", "f", "f", 0)
B(CEIL, "ceil", "f", "f", 0)
B(ABS_F, "abs", "f", "f", 0)
B(ABS_I, "abs", "i", "i", 0)
B(ABS_V, "abs", "v", "v", 0)
B(SIGN_F, "sign", "f", "f", 0)
B(SIGN_I, "sign", "i", "i", 0)
B(MIN_F, "min", "f", "ff", 0)
B(MIN_I, "min", "i", "ii", 0)
B(MIN_V, "min", "v", "vv", 0)
B(MAX_F, "max", "f", "ff", 0)
B(MAX_I, "max", "i", "ii", 0)
B(MAX_V, "max", "v", "vv", 0)
B(CLAMP_F, "clamp", "f", "fff", 0)
B(CLAMP_I, "clamp", "i", "iii", 0)

/* vectors and matrices */
B(DOT, "dot", "f", "vv", 0)
B(CROSS, "cross", "3", "33", 0)
B(LENGTH, "length", "f", "v", 0)
B(LENGTH_SQ, "length_sq", "f", "v", 0)
B(NORMALIZE, "normalize", "v", "v", 0)
B(OUTER, "outer", "m", "vv", 0)
B(TRANSPOSE, "transpose", "m", "m", 0)
B(DETERMINANT, "determinant", "f", "m", 0)
B(INVERSE, "inverse", "m", "m", 0)

/* atomics: return the old value; the result may be left unused */
B(ATOMIC_ADD_F, "atomic_add", "f", "Fif", BF_ATOMIC)
B(ATOMIC_ADD_I, "atomic_add", "i", "Iii", BF_ATOMIC)
B(ATOMIC_ADD_V, "atomic_add", "v", "Viv", BF_ATOMIC)
B(ATOMIC_SUB_F, "atomic_sub", "f", "Fif", BF_ATOMIC)
B(ATOMIC_SUB_I, "atomic_sub", "i", "Iii", BF_ATOMIC)
B(ATOMIC_SUB_V, "atomic_sub", "v", "Viv", BF_ATOMIC)
B(ATOMIC_MIN_F, "atomic_min", "f", "Fif", BF_ATOMIC)
B(ATOMIC_MIN_I, "atomic_min", "i", "Iii", BF_ATOMIC)
B(ATOMIC_MAX_F, "atomic_max", "f", "Fif", BF_ATOMIC)
B(ATOMIC_MAX_I, "atomic_max", "i", "Iii", BF_ATOMIC)
