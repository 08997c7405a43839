/*
 * ks_scalar.h: the scalar types' operations, ks_<op>_<type>: arithmetic
 * and comparisons (float16 computed in float32 and rounded back), integer
 * division, remainder and shifts with one answer on every device, the math
 * builtins of ir/builtins.h on every scalar type, and the conversions that
 * C's casts do not do as Warp does (a float to an int; float16).
 */
#ifndef KS_SCALAR_H
#define KS_SCALAR_H

/* ---- scalars ------------------------------------------------------------ */

/* Every scalar type has its arithmetic as functions too, ks_<op>_<type>,
 * so that the vector and matrix code (ks_vec.h, ks_mat.h) is written once
 * for all of them.  For float, float64, int, uint32, int64 and uint64 the
 * emitted code uses C's operators directly (but for / and % on ints,
 * below). */
#define KS_NATIVE_ARITH(SN, ST)                                \
	KS_FUNC ST ks_zero_##SN(void) { return (ST)0; }        \
	KS_FUNC ST ks_add_##SN(ST a, ST b) { return a + b; }   \
	KS_FUNC ST ks_sub_##SN(ST a, ST b) { return a - b; }   \
	KS_FUNC ST ks_mul_##SN(ST a, ST b) { return a * b; }   \
	KS_FUNC ST ks_neg_##SN(ST a) { return -a; }            \
	KS_FUNC bool ks_lt_##SN(ST a, ST b) { return a < b; }  \
	KS_FUNC bool ks_le_##SN(ST a, ST b) { return a <= b; } \
	KS_FUNC bool ks_gt_##SN(ST a, ST b) { return a > b; }  \
	KS_FUNC bool ks_ge_##SN(ST a, ST b) { return a >= b; } \
	KS_FUNC bool ks_eq_##SN(ST a, ST b) { return a == b; } \
	KS_FUNC bool ks_ne_##SN(ST a, ST b) { return a != b; }

/* The 8- and 16-bit ints: C computes them as int; the result is brought
 * back to the type (wrapping, as Warp's), and a product of two uint16
 * is taken in uint32, where it cannot overflow. */
#define KS_SMALL_ARITH(SN, ST, WIDE)                                           \
	KS_FUNC ST ks_zero_##SN(void) { return (ST)0; }                        \
	KS_FUNC ST ks_add_##SN(ST a, ST b) { return (ST)((WIDE)a + (WIDE)b); } \
	KS_FUNC ST ks_sub_##SN(ST a, ST b) { return (ST)((WIDE)a - (WIDE)b); } \
	KS_FUNC ST ks_mul_##SN(ST a, ST b) { return (ST)((WIDE)a * (WIDE)b); } \
	KS_FUNC ST ks_neg_##SN(ST a) { return (ST)(0 - (WIDE)a); }             \
	KS_FUNC ST ks_invert_##SN(ST a) { return (ST)~a; }                     \
	KS_FUNC ST ks_bit_and_##SN(ST a, ST b) { return (ST)(a & b); }         \
	KS_FUNC ST ks_bit_or_##SN(ST a, ST b) { return (ST)(a | b); }          \
	KS_FUNC ST ks_bit_xor_##SN(ST a, ST b) { return (ST)(a ^ b); }         \
	KS_FUNC bool ks_lt_##SN(ST a, ST b) { return a < b; }                  \
	KS_FUNC bool ks_le_##SN(ST a, ST b) { return a <= b; }                 \
	KS_FUNC bool ks_gt_##SN(ST a, ST b) { return a > b; }                  \
	KS_FUNC bool ks_ge_##SN(ST a, ST b) { return a >= b; }                 \
	KS_FUNC bool ks_eq_##SN(ST a, ST b) { return a == b; }                 \
	KS_FUNC bool ks_ne_##SN(ST a, ST b) { return a != b; }

/* Integer division, remainder and floor division of every width: C's
 * truncating / and %, with one answer on every device where C has none
 * (and x86 traps, while a GPU gives a machine-specific value): a / 0 ==
 * a // 0 == 0 and a % 0 == a (so a == (a / b) * b + a % b for every b),
 * and the most negative value divided by -1 wraps to itself, remainder
 * 0.  a // b rounds toward minus infinity, as Warp's does on ints too. */
#define KS_INT_DIV_SIGNED(SN, ST, MIN)                                                                \
	KS_FUNC ST ks_div_##SN(ST a, ST b)                                                            \
	{                                                                                             \
		if (b == 0)                                                                           \
			return (ST)0;                                                                 \
		if (b == (ST)-1)                                                                      \
			return a == (ST)(MIN) ? a : (ST)(0 - a);                                      \
		return (ST)(a / b);                                                                   \
	}                                                                                             \
	KS_FUNC ST ks_mod_##SN(ST a, ST b) { return b == 0 ? a : b == (ST)-1 ? (ST)0 : (ST)(a % b); } \
	KS_FUNC ST ks_floordiv_##SN(ST a, ST b)                                                       \
	{                                                                                             \
		if (b == 0)                                                                           \
			return (ST)0;                                                                 \
		ST q = ks_div_##SN(a, b), r = ks_mod_##SN(a, b);                                      \
		return (r != 0 && ((r < 0) != (b < 0))) ? (ST)(q - 1) : q;                            \
	}
#define KS_INT_DIV_UNSIGNED(SN, ST)                                                 \
	KS_FUNC ST ks_div_##SN(ST a, ST b) { return b == 0 ? (ST)0 : (ST)(a / b); } \
	KS_FUNC ST ks_mod_##SN(ST a, ST b) { return b == 0 ? a : (ST)(a % b); }     \
	KS_FUNC ST ks_floordiv_##SN(ST a, ST b) { return ks_div_##SN(a, b); }

/* Shifts: the count is a number of bits; a count outside [0, width)
 * shifts everything out (0, or -1 for a negative value shifted right),
 * as the GPU does.  A left shift works on the unsigned bits. */
#define KS_INT_SHIFT(SN, ST, UT, BITS, NEGFILL)                                   \
	KS_FUNC ST ks_lshift_##SN(ST a, ST n)                                     \
	{                                                                         \
		return (uint64_t)n >= (BITS) ? (ST)0 : (ST)(UT)((UT)a << (int)n); \
	}                                                                         \
	KS_FUNC ST ks_rshift_##SN(ST a, ST n) { return (uint64_t)n >= (BITS) ? (ST)(NEGFILL) : (ST)(a >> (int)n); }

KS_NATIVE_ARITH(int, int)
KS_NATIVE_ARITH(uint32, uint32_t)
KS_NATIVE_ARITH(int64, int64_t)
KS_NATIVE_ARITH(uint64, uint64_t)
KS_NATIVE_ARITH(float, KS_REAL)
KS_NATIVE_ARITH(float64, double)
KS_SMALL_ARITH(int8, int8_t, int)
KS_SMALL_ARITH(uint8, uint8_t, int)
KS_SMALL_ARITH(int16, int16_t, int)
KS_SMALL_ARITH(uint16, uint16_t, uint32_t)
KS_INT_DIV_SIGNED(int8, int8_t, -128)
KS_INT_DIV_UNSIGNED(uint8, uint8_t)
KS_INT_DIV_SIGNED(int16, int16_t, -32768)
KS_INT_DIV_UNSIGNED(uint16, uint16_t)
KS_INT_DIV_SIGNED(int, int, -2147483647 - 1)
KS_INT_DIV_UNSIGNED(uint32, uint32_t)
KS_INT_DIV_SIGNED(int64, int64_t, -9223372036854775807ll - 1)
KS_INT_DIV_UNSIGNED(uint64, uint64_t)
KS_INT_SHIFT(int8, int8_t, uint8_t, 8, a < 0 ? -1 : 0)
KS_INT_SHIFT(uint8, uint8_t, uint8_t, 8, 0)
KS_INT_SHIFT(int16, int16_t, uint16_t, 16, a < 0 ? -1 : 0)
KS_INT_SHIFT(uint16, uint16_t, uint16_t, 16, 0)
KS_INT_SHIFT(int, int, uint32_t, 32, a < 0 ? -1 : 0)
KS_INT_SHIFT(uint32, uint32_t, uint32_t, 32, 0)
KS_INT_SHIFT(int64, int64_t, uint64_t, 64, a < 0 ? -1 : 0)
KS_INT_SHIFT(uint64, uint64_t, uint64_t, 64, 0)

KS_FUNC KS_REAL ks_div_float(KS_REAL a, KS_REAL b) { return a / b; }
KS_FUNC double ks_div_float64(double a, double b) { return a / b; }
KS_FUNC KS_REAL ks_floordiv_float(KS_REAL a, KS_REAL b) { return floorf(a / b); }
KS_FUNC double ks_floordiv_float64(double a, double b) { return floor(a / b); }
KS_FUNC KS_REAL ks_mod_float(KS_REAL a, KS_REAL b) { return fmodf(a, b); }
KS_FUNC double ks_mod_float64(double a, double b) { return fmod(a, b); }

/* float16: computed in float32, rounded back after every operation */
#if KS_DOUBLE_MODE
KS_NATIVE_ARITH(float16, double)
KS_FUNC double ks_div_float16(double a, double b) { return a / b; }
KS_FUNC double ks_floordiv_float16(double a, double b) { return floor(a / b); }
KS_FUNC double ks_mod_float16(double a, double b) { return fmod(a, b); }
#define KS_H(x) (x)
#define KS_HALF(x) (x)
#else
#define KS_H(x) ks_half_to_float(x)
#define KS_HALF(x) ks_half_of(x)
KS_FUNC ks_half ks_zero_float16(void)
{
	ks_half h = {0};
	return h;
}
KS_FUNC ks_half ks_add_float16(ks_half a, ks_half b) { return KS_HALF(KS_H(a) + KS_H(b)); }
KS_FUNC ks_half ks_sub_float16(ks_half a, ks_half b) { return KS_HALF(KS_H(a) - KS_H(b)); }
KS_FUNC ks_half ks_mul_float16(ks_half a, ks_half b) { return KS_HALF(KS_H(a) * KS_H(b)); }
KS_FUNC ks_half ks_div_float16(ks_half a, ks_half b) { return KS_HALF(KS_H(a) / KS_H(b)); }
KS_FUNC ks_half ks_floordiv_float16(ks_half a, ks_half b) { return KS_HALF(floorf(KS_H(a) / KS_H(b))); }
KS_FUNC ks_half ks_mod_float16(ks_half a, ks_half b) { return KS_HALF(fmodf(KS_H(a), KS_H(b))); }
KS_FUNC ks_half ks_neg_float16(ks_half a)
{
	a.bits ^= 0x8000;
	return a;
}
KS_FUNC bool ks_lt_float16(ks_half a, ks_half b) { return KS_H(a) < KS_H(b); }
KS_FUNC bool ks_le_float16(ks_half a, ks_half b) { return KS_H(a) <= KS_H(b); }
KS_FUNC bool ks_gt_float16(ks_half a, ks_half b) { return KS_H(a) > KS_H(b); }
KS_FUNC bool ks_ge_float16(ks_half a, ks_half b) { return KS_H(a) >= KS_H(b); }
KS_FUNC bool ks_eq_float16(ks_half a, ks_half b) { return KS_H(a) == KS_H(b); }
KS_FUNC bool ks_ne_float16(ks_half a, ks_half b) { return KS_H(a) != KS_H(b); }
#endif

/* ---- scalar builtins ---------------------------------------------------- */

/* The math of ir/builtins.h.  The emitters call the libm names (sinf,
 * sin, ...) for float and float64 directly; these exist so that every
 * builtin row has its ks_ name, and float16 computes in float32. */
#define KS_MATH1(OP, F32, F64)                                        \
	KS_FUNC KS_REAL ks_##OP##_float(KS_REAL x) { return F32(x); } \
	KS_FUNC double ks_##OP##_float64(double x) { return F64(x); } \
	KS_FUNC ks_half ks_##OP##_float16(ks_half x) { return KS_HALF(F32(KS_H(x))); }
KS_MATH1(sin, sinf, sin)
KS_MATH1(cos, cosf, cos)
KS_MATH1(tan, tanf, tan)
KS_MATH1(asin, asinf, asin)
KS_MATH1(acos, acosf, acos)
KS_MATH1(atan, atanf, atan)
KS_MATH1(sinh, sinhf, sinh)
KS_MATH1(cosh, coshf, cosh)
KS_MATH1(tanh, tanhf, tanh)
KS_MATH1(exp, expf, exp)
KS_MATH1(log, logf, log)
KS_MATH1(log2, log2f, log2)
KS_MATH1(log10, log10f, log10)
KS_MATH1(sqrt, sqrtf, sqrt)
KS_MATH1(floor, floorf, floor)
KS_MATH1(ceil, ceilf, ceil)
KS_FUNC KS_REAL ks_atan2_float(KS_REAL y, KS_REAL x) { return atan2f(y, x); }
KS_FUNC double ks_atan2_float64(double y, double x) { return atan2(y, x); }
KS_FUNC ks_half ks_atan2_float16(ks_half y, ks_half x) { return KS_HALF(atan2f(KS_H(y), KS_H(x))); }
KS_FUNC KS_REAL ks_pow_float(KS_REAL x, KS_REAL y) { return powf(x, y); }
KS_FUNC double ks_pow_float64(double x, double y) { return pow(x, y); }
KS_FUNC ks_half ks_pow_float16(ks_half x, ks_half y) { return KS_HALF(powf(KS_H(x), KS_H(y))); }

/* abs, sign, min, max, clamp, on every number type */
#define KS_MINMAX(SN, ST)                                                       \
	KS_FUNC ST ks_min_##SN(ST a, ST b) { return ks_lt_##SN(a, b) ? a : b; } \
	KS_FUNC ST ks_max_##SN(ST a, ST b) { return ks_gt_##SN(a, b) ? a : b; } \
	KS_FUNC ST ks_clamp_##SN(ST x, ST lo, ST hi) { return ks_min_##SN(ks_max_##SN(lo, x), hi); }
#define KS_SIGNED(SN, ST)                                                                           \
	KS_FUNC ST ks_abs_##SN(ST x) { return ks_lt_##SN(x, ks_zero_##SN()) ? ks_neg_##SN(x) : x; } \
	KS_FUNC ST ks_sign_##SN(ST x) { return ks_lt_##SN(x, ks_zero_##SN()) ? (ST)-1 : (ST)1; }
#define KS_UNSIGNED(SN, ST)                        \
	KS_FUNC ST ks_abs_##SN(ST x) { return x; } \
	KS_FUNC ST ks_sign_##SN(ST x)              \
	{                                          \
		(void)x;                           \
		return (ST)1;                      \
	}
KS_MINMAX(int8, int8_t)
KS_MINMAX(uint8, uint8_t)
KS_MINMAX(int16, int16_t)
KS_MINMAX(uint16, uint16_t)
KS_MINMAX(int, int)
KS_MINMAX(uint32, uint32_t)
KS_MINMAX(int64, int64_t)
KS_MINMAX(uint64, uint64_t)
KS_MINMAX(float16, ks_half)
KS_MINMAX(float, KS_REAL)
KS_MINMAX(float64, double)
KS_SIGNED(int8, int8_t)
KS_UNSIGNED(uint8, uint8_t)
KS_SIGNED(int16, int16_t)
KS_UNSIGNED(uint16, uint16_t)
KS_SIGNED(int, int)
KS_UNSIGNED(uint32, uint32_t)
KS_SIGNED(int64, int64_t)
KS_UNSIGNED(uint64, uint64_t)
KS_FUNC KS_REAL ks_abs_float(KS_REAL x) { return fabsf(x); }
KS_FUNC double ks_abs_float64(double x) { return fabs(x); }
KS_FUNC KS_REAL ks_sign_float(KS_REAL x) { return x < 0.0f ? -1.0f : 1.0f; }
KS_FUNC double ks_sign_float64(double x) { return x < 0.0 ? -1.0 : 1.0; }
#if KS_DOUBLE_MODE
KS_FUNC double ks_abs_float16(double x) { return fabs(x); }
KS_FUNC double ks_sign_float16(double x) { return x < 0.0 ? -1.0 : 1.0; }
#else
KS_FUNC ks_half ks_abs_float16(ks_half x)
{
	x.bits &= 0x7fff;
	return x;
}
KS_FUNC ks_half ks_sign_float16(ks_half x) { return KS_HALF(KS_H(x) < 0.0f ? -1.0f : 1.0f); }
#endif

/* Rounding, interpolation, special functions and tests of a scalar, as
 * Warp defines them: frac(x) = x - trunc(x); mod is C's fmod on floats
 * and % on ints (the ks_mod_ above); radians and degrees multiply by a
 * double constant and round once; step(x) = x < 0 ? 1 : 0 (a step down
 * at 0, Warp's convention); smoothstep clamps (x - a) / (b - a) to [0, 1],
 * a NaN to 0, and evaluates u * u * (3 - 2 * u). */
KS_MATH1(round, roundf, round)
KS_MATH1(rint, rintf, rint)
KS_MATH1(trunc, truncf, trunc)
KS_MATH1(cbrt, cbrtf, cbrt)
KS_MATH1(erf, erff, erf)
KS_MATH1(erfc, erfcf, erfc)
KS_FUNC KS_REAL ks_frac_float(KS_REAL x) { return x - truncf(x); }
KS_FUNC double ks_frac_float64(double x) { return x - trunc(x); }
KS_FUNC ks_half ks_frac_float16(ks_half x) { return KS_HALF(KS_H(x) - truncf(KS_H(x))); }
KS_FUNC KS_REAL ks_radians_float(KS_REAL x) { return (KS_REAL)(x * 0.017453292519943295); }
KS_FUNC double ks_radians_float64(double x) { return x * 0.017453292519943295; }
KS_FUNC ks_half ks_radians_float16(ks_half x) { return KS_HALF((KS_REAL)(KS_H(x) * 0.017453292519943295)); }
KS_FUNC KS_REAL ks_degrees_float(KS_REAL x) { return (KS_REAL)(x * 57.29577951308232); }
KS_FUNC double ks_degrees_float64(double x) { return x * 57.29577951308232; }
KS_FUNC ks_half ks_degrees_float16(ks_half x) { return KS_HALF((KS_REAL)(KS_H(x) * 57.29577951308232)); }
KS_FUNC KS_REAL ks_copysign_float(KS_REAL x, KS_REAL y) { return copysignf(x, y); }
KS_FUNC double ks_copysign_float64(double x, double y) { return copysign(x, y); }
#if KS_DOUBLE_MODE
KS_FUNC double ks_copysign_float16(double x, double y) { return copysign(x, y); }
#else
KS_FUNC ks_half ks_copysign_float16(ks_half x, ks_half y)
{
	x.bits = (uint16_t)((x.bits & 0x7fff) | (y.bits & 0x8000));
	return x;
}
#endif

/* div_approx: CUDA's fast division for float32 (2 ulp), the exact one
 * elsewhere, as Warp's CPU code does */
#if defined(__CUDACC__)
KS_FUNC float ks_div_approx_float(float a, float b) { return __fdividef(a, b); }
#else
KS_FUNC KS_REAL ks_div_approx_float(KS_REAL a, KS_REAL b) { return a / b; }
#endif
KS_FUNC double ks_div_approx_float64(double a, double b) { return a / b; }
KS_FUNC ks_half ks_div_approx_float16(ks_half a, ks_half b) { return ks_div_float16(a, b); }

/* step, nonzero, lerp and smoothstep on each type, from its arithmetic */
#define KS_STEP(SN, ST, ZERO, ONE)                                                 \
	KS_FUNC ST ks_step_##SN(ST x) { return ks_lt_##SN(x, ZERO) ? ONE : ZERO; } \
	KS_FUNC ST ks_nonzero_##SN(ST x) { return ks_eq_##SN(x, ZERO) ? ZERO : ONE; }
#define KS_INTERP(SN, ST, ZERO, ONE, TWO, THREE)                                                \
	KS_FUNC ST ks_lerp_##SN(ST a, ST b, ST t)                                               \
	{                                                                                       \
		return ks_add_##SN(ks_mul_##SN(a, ks_sub_##SN(ONE, t)), ks_mul_##SN(b, t));     \
	}                                                                                       \
	KS_FUNC ST ks_smoothstep_##SN(ST a, ST b, ST x)                                         \
	{                                                                                       \
		ST u = ks_div_##SN(ks_sub_##SN(x, a), ks_sub_##SN(b, a));                       \
		u = ks_gt_##SN(u, ZERO) ? (ks_lt_##SN(u, ONE) ? u : ONE) : ZERO;                \
		return ks_mul_##SN(ks_mul_##SN(u, u), ks_sub_##SN(THREE, ks_mul_##SN(TWO, u))); \
	}
KS_STEP(int8, int8_t, (int8_t)0, (int8_t)1)
KS_STEP(uint8, uint8_t, (uint8_t)0, (uint8_t)1)
KS_STEP(int16, int16_t, (int16_t)0, (int16_t)1)
KS_STEP(uint16, uint16_t, (uint16_t)0, (uint16_t)1)
KS_STEP(int, int, 0, 1)
KS_STEP(uint32, uint32_t, 0u, 1u)
KS_STEP(int64, int64_t, (int64_t)0, (int64_t)1)
KS_STEP(uint64, uint64_t, (uint64_t)0, (uint64_t)1)
KS_STEP(float16, ks_half, KS_HALF(0.0f), KS_HALF(1.0f))
KS_STEP(float, KS_REAL, 0.0f, 1.0f)
KS_STEP(float64, double, 0.0, 1.0)
KS_INTERP(float16, ks_half, KS_HALF(0.0f), KS_HALF(1.0f), KS_HALF(2.0f), KS_HALF(3.0f))
KS_INTERP(float, KS_REAL, 0.0f, 1.0f, 2.0f, 3.0f)
KS_INTERP(float64, double, 0.0, 1.0, 2.0, 3.0)

/* erfinv and erfcinv: CUDA has them; elsewhere they are computed in
 * double, from a first guess refined by Newton's method on C's erf and
 * erfc (each step doubles the correct digits; three are enough for a
 * double), and a float result rounds that. */
#if defined(__CUDACC__)
KS_FUNC float ks_erfinv_float(float x) { return erfinvf(x); }
KS_FUNC double ks_erfinv_float64(double x) { return erfinv(x); }
KS_FUNC float ks_erfcinv_float(float x) { return erfcinvf(x); }
KS_FUNC double ks_erfcinv_float64(double x) { return erfcinv(x); }
#else
/* a guess within 1e-3 (Giles, "Approximating the erfinv function", 2010),
 * from w = -log((1 - x) * (1 + x)), given as w to keep the tails exact */
KS_FUNC double ks_erfinv_guess(double x, double w)
{
	double p;
	if (w < 5.0) {
		w -= 2.5;
		p = 2.81022636e-08;
		p = 3.43273939e-07 + p * w;
		p = -3.5233877e-06 + p * w;
		p = -4.39150654e-06 + p * w;
		p = 0.00021858087 + p * w;
		p = -0.00125372503 + p * w;
		p = -0.00417768164 + p * w;
		p = 0.246640727 + p * w;
		p = 1.50140941 + p * w;
	} else {
		w = sqrt(w) - 3.0;
		p = -0.000200214257;
		p = 0.000100950558 + p * w;
		p = 0.00134934322 + p * w;
		p = -0.00367342844 + p * w;
		p = 0.00573950773 + p * w;
		p = -0.0076224613 + p * w;
		p = 0.00943887047 + p * w;
		p = 1.00167406 + p * w;
		p = 2.83297682 + p * w;
	}
	return p * x;
}
KS_FUNC double ks_erfinv_float64(double x)
{
	if (!(x > -1.0 && x < 1.0))
		return x == 1.0 ? KS_INF_F64 : x == -1.0 ? -KS_INF_F64 : KS_NAN_F64;
	double y = ks_erfinv_guess(x, -log((1.0 - x) * (1.0 + x)));
	for (int i = 0; i < 3; i++)
		y -= (erf(y) - x) / (1.1283791670955126 * exp(-y * y));
	return y;
}
/* erfcinv(x) = erfinv(1 - x), solved on erfc so that a small x keeps its
 * digits: for x < 1 the root is positive and erfc(y) = x is well
 * conditioned. */
KS_FUNC double ks_erfcinv_float64(double x)
{
	if (!(x > 0.0 && x < 2.0))
		return x == 0.0 ? KS_INF_F64 : x == 2.0 ? -KS_INF_F64 : KS_NAN_F64;
	if (x > 1.0)
		return -ks_erfcinv_float64(2.0 - x);
	double y = ks_erfinv_guess(1.0 - x, -log(x * (2.0 - x)));
	for (int i = 0; i < 3; i++)
		y += (erfc(y) - x) / (1.1283791670955126 * exp(-y * y));
	return y;
}
KS_FUNC KS_REAL ks_erfinv_float(KS_REAL x) { return (KS_REAL)ks_erfinv_float64(x); }
KS_FUNC KS_REAL ks_erfcinv_float(KS_REAL x) { return (KS_REAL)ks_erfcinv_float64(x); }
#endif
KS_FUNC ks_half ks_erfinv_float16(ks_half x) { return KS_HALF(ks_erfinv_float(KS_H(x))); }
KS_FUNC ks_half ks_erfcinv_float16(ks_half x) { return KS_HALF(ks_erfcinv_float(KS_H(x))); }

/* isnan, isinf, isfinite, on the values themselves (no libm needed) */
KS_FUNC bool ks_isnan_float(KS_REAL x) { return x != x; }
KS_FUNC bool ks_isinf_float(KS_REAL x) { return x == KS_INF || x == -KS_INF; }
KS_FUNC bool ks_isfinite_float(KS_REAL x) { return x == x && !ks_isinf_float(x); }
KS_FUNC bool ks_isnan_float64(double x) { return x != x; }
KS_FUNC bool ks_isinf_float64(double x) { return x == KS_INF_F64 || x == -KS_INF_F64; }
KS_FUNC bool ks_isfinite_float64(double x) { return x == x && !ks_isinf_float64(x); }
#if KS_DOUBLE_MODE
KS_FUNC bool ks_isnan_float16(double x) { return ks_isnan_float64(x); }
KS_FUNC bool ks_isinf_float16(double x) { return ks_isinf_float64(x); }
KS_FUNC bool ks_isfinite_float16(double x) { return ks_isfinite_float64(x); }
#else
KS_FUNC bool ks_isnan_float16(ks_half x) { return (x.bits & 0x7c00) == 0x7c00 && (x.bits & 0x3ff); }
KS_FUNC bool ks_isinf_float16(ks_half x) { return (x.bits & 0x7fff) == 0x7c00; }
KS_FUNC bool ks_isfinite_float16(ks_half x) { return (x.bits & 0x7c00) != 0x7c00; }
#endif

/* bit_count: the bits set in an int's own width (a signed one's two's
 * complement bits), as an int; invert: ~ in the int's width */
KS_FUNC int ks_popcount64(uint64_t x)
{
#if defined(__CUDACC__)
	return __popcll(x);
#else
	x = x - ((x >> 1) & 0x5555555555555555ull);
	x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
	return (int)((x * 0x0101010101010101ull) >> 56);
#endif
}
KS_FUNC int ks_bit_count_int8(int8_t x) { return ks_popcount64((uint8_t)x); }
KS_FUNC int ks_bit_count_uint8(uint8_t x) { return ks_popcount64(x); }
KS_FUNC int ks_bit_count_int16(int16_t x) { return ks_popcount64((uint16_t)x); }
KS_FUNC int ks_bit_count_uint16(uint16_t x) { return ks_popcount64(x); }
KS_FUNC int ks_bit_count_int(int x) { return ks_popcount64((uint32_t)x); }
KS_FUNC int ks_bit_count_uint32(uint32_t x) { return ks_popcount64(x); }
KS_FUNC int ks_bit_count_int64(int64_t x) { return ks_popcount64((uint64_t)x); }
KS_FUNC int ks_bit_count_uint64(uint64_t x) { return ks_popcount64(x); }
KS_FUNC int ks_invert_int(int x) { return ~x; }
KS_FUNC uint32_t ks_invert_uint32(uint32_t x) { return ~x; }
KS_FUNC int64_t ks_invert_int64(int64_t x) { return ~x; }
KS_FUNC uint64_t ks_invert_uint64(uint64_t x) { return ~x; }

/* ---- conversions ---------------------------------------------------------- */

/* A float to an int: truncated toward zero, saturated at the int's
 * limits, and 0 for a NaN, as the GPU's own conversion does (C leaves the
 * last two undefined), the same on every device. */
#define KS_TO_INT(IN, IT, LO, HI, FHI)                                                               \
	KS_FUNC IT ks_to_##IN##_float(KS_REAL x)                                                     \
	{                                                                                            \
		return x != x ? (IT)0 : x < (double)(LO) ? (IT)(LO) : x >= (FHI) ? (IT)(HI) : (IT)x; \
	}                                                                                            \
	KS_FUNC IT ks_to_##IN##_float64(double x)                                                    \
	{                                                                                            \
		return x != x ? (IT)0 : x < (double)(LO) ? (IT)(LO) : x >= (FHI) ? (IT)(HI) : (IT)x; \
	}                                                                                            \
	KS_FUNC IT ks_to_##IN##_float16(ks_half x) { return ks_to_##IN##_float(KS_H(x)); }           \
	KS_FUNC ks_half ks_to_float16_##IN(IT x) { return KS_HALF((KS_REAL)x); }                     \
	KS_FUNC IT ks_to_##IN##_bool(bool x) { return (IT)x; }
/* FHI: 2^bits, the first float above the range, exact as a double */
KS_TO_INT(int8, int8_t, -128, 127, 128.0)
KS_TO_INT(uint8, uint8_t, 0, 255, 256.0)
KS_TO_INT(int16, int16_t, -32768, 32767, 32768.0)
KS_TO_INT(uint16, uint16_t, 0, 65535, 65536.0)
KS_TO_INT(int, int, -2147483647 - 1, 2147483647, 2147483648.0)
KS_TO_INT(uint32, uint32_t, 0, 4294967295u, 4294967296.0)
KS_TO_INT(int64, int64_t, -9223372036854775807ll - 1, 9223372036854775807ll, 9223372036854775808.0)
KS_TO_INT(uint64, uint64_t, 0, 18446744073709551615ull, 18446744073709551616.0)
KS_FUNC ks_half ks_to_float16_float(KS_REAL x) { return KS_HALF(x); }
KS_FUNC ks_half ks_to_float16_float64(double x) { return KS_HALF((KS_REAL)x); }
KS_FUNC KS_REAL ks_to_float_float16(ks_half x) { return KS_H(x); }
KS_FUNC double ks_to_float64_float16(ks_half x) { return (double)KS_H(x); }
KS_FUNC ks_half ks_to_float16_bool(bool x) { return KS_HALF(x ? 1.0f : 0.0f); }
KS_FUNC bool ks_to_bool_float16(ks_half x) { return KS_H(x) != 0.0f; }
KS_FUNC KS_REAL ks_to_float_float(KS_REAL x) { return x; }
KS_FUNC double ks_to_float64_float64(double x) { return x; }
KS_FUNC double ks_to_float64_float(KS_REAL x) { return (double)x; }
KS_FUNC KS_REAL ks_to_float_float64(double x) { return (KS_REAL)x; }

#endif
