/*
 * ksynth.h: the runtime that code emitted by kemit-cpu and kemit-cu
 * includes, and the only header it includes.  One source of truth for the
 * CPU and for CUDA: the types, the operations on them, the math builtins
 * and the atomics are written once; `#if KS_CUDA` marks the few places
 * where the two must differ (function qualifiers, atomics, libc).
 *
 * "CUDA code" means compiled by nvcc or NVRTC (__CUDACC__) or by the host
 * C++ compiler through the simulator shim ksynth_sim.h (KS_CUDA_SIM).
 * NVRTC has no libc headers, so under __CUDACC_RTC__ nothing is included:
 * the CUDA math builtins (sinf, sqrtf, ...) are used directly and the
 * fixed-width ints are defined here.
 *
 * Semantics follow NVIDIA Warp (warp/native/builtin.h, vec.h, mat.h,
 * quat.h): min(a, b) = a < b ? a : b, max(a, b) = a > b ? a : b, clamp(x,
 * lo, hi) = min(max(lo, x), hi), sign(x) = x < 0 ? -1 : 1 (so sign(0) =
 * 1), normalize(0) = 0, inverse of a singular matrix = 0.  Every value is
 * computed in its own type: float16 is stored as 16 bits and each
 * operation on it is done in float32 and rounded back to float16 (to
 * nearest, ties to even), as Warp does.  Integer arithmetic wraps in its
 * width where Warp's does (the unsigned types; the 8- and 16-bit ones);
 * an integer division or remainder by zero gives 0, a float converted to
 * an int gives 0 when it is NaN or out of the int's range, and a shift by
 * a count outside [0, width) gives 0 (or -1: a negative signed value
 * shifted right), the same on every device.  Reductions (dot, mat * vec,
 * mat * mat) add left to right, products are never fused: FMA contraction
 * must be off (C: -std=c11 keeps GCC's -ffp-contract=off; CUDA:
 * --fmad=false), so the CPU and CUDA agree bit for bit wherever the
 * operations are correctly rounded.
 *
 * Names: ks_<op>_<type> (the IR's name of the first operand's type,
 * ir/types.h: float, float64, vec3d, mat33, quat, ...) for builtins (the
 * table in ir/builtins.h, spelled by ir_builtin_cname) and for operators
 * on what C has no operator for; ks_<op>_<type>_<type> where the two
 * operands' types differ (ks_mul_mat33_vec3, ks_mul_float_vec3d);
 * ks_to_<to>_<from> for conversions C does not do as Warp does.
 */
#ifndef KSYNTH_H
#define KSYNTH_H

#if defined(__CUDACC__) || defined(KS_CUDA_SIM)
#define KS_CUDA 1
#else
#define KS_CUDA 0
#endif

#if KS_CUDA
#define KS_FUNC static __device__ __forceinline__
#else
#include <math.h>
#include <stdbool.h>
#define KS_FUNC static inline
#endif

#if defined(__CUDACC_RTC__)
typedef signed char int8_t;
typedef unsigned char uint8_t;
typedef short int16_t;
typedef unsigned short uint16_t;
typedef int int32_t;
typedef unsigned int uint32_t;
typedef long long int64_t;
typedef unsigned long long uint64_t;
#else
#include <stdint.h>
#endif

/* Double mode (CPU only): compiled with -DKS_REAL_DOUBLE, the same emitted
 * C computes in double precision, for krun --gradcheck's finite
 * differences.  The emitted code stays readable (`float`); here, after the
 * headers, every float libm call that this header or the emitted code
 * makes is mapped to its double twin, this header's float32 is KS_REAL,
 * a double, and at its end `float` itself becomes `double`, so the ks_
 * types (ks_vec3 holds doubles), the ks_ functions, the parameters and the
 * locals are all double; float16 (ks_half) is a double too.  Float
 * literals (0.5f) stay float constants, promoted to double where they are
 * used. */
#if defined(KS_REAL_DOUBLE) && !KS_CUDA
#define KS_DOUBLE_MODE 1
#define sinf sin
#define cosf cos
#define tanf tan
#define asinf asin
#define acosf acos
#define atanf atan
#define atan2f atan2
#define sinhf sinh
#define coshf cosh
#define tanhf tanh
#define expf exp
#define logf log
#define log2f log2
#define log10f log10
#define sqrtf sqrt
#define powf pow
#define floorf floor
#define ceilf ceil
#define fabsf fabs
#define fmodf fmod
#define roundf round
#define rintf rint
#define truncf trunc
#define cbrtf cbrt
#define erff erf
#define erfcf erfc
#define copysignf copysign
#define KS_REAL double
#else
#define KS_DOUBLE_MODE 0
#define KS_REAL float
#endif

#if KS_CUDA
#define KS_INF __int_as_float(0x7f800000)
#define KS_NAN __int_as_float(0x7fffffff)
#define KS_INF_F64 __longlong_as_double(0x7ff0000000000000ll)
#define KS_NAN_F64 __longlong_as_double(0x7fffffffffffffffll)
#else
#define KS_INF INFINITY
#define KS_NAN NAN
#define KS_INF_F64 ((double)INFINITY)
#define KS_NAN_F64 ((double)NAN)
#endif

/* ---- float16 ---------------------------------------------------------- */

/* A float16 is its 16 bits; ks_half_of rounds a float to the nearest one
 * (ties to even, overflow to infinity), ks_half_to_float widens it.  Both
 * are done on the bits, identically on every device. */
#if KS_DOUBLE_MODE
typedef double ks_half;
KS_FUNC ks_half ks_half_of(double x) { return x; }
KS_FUNC double ks_half_to_float(ks_half h) { return h; }
#else
typedef struct { uint16_t bits; } ks_half;

KS_FUNC KS_REAL ks_half_to_float(ks_half h)
{
	uint32_t sign = (uint32_t)(h.bits & 0x8000) << 16, exp = (h.bits >> 10) & 0x1f;
	uint32_t man = h.bits & 0x3ff, x;
	if (exp == 0x1f) {
		x = sign | 0x7f800000u | (man << 13);
	} else if (exp) {
		x = sign | ((exp - 15 + 127) << 23) | (man << 13);
	} else if (man) {
		int e = -1;
		do {
			man <<= 1;
			e++;
		} while (!(man & 0x400));
		x = sign | ((uint32_t)(127 - 15 - e) << 23) | ((man & 0x3ff) << 13);
	} else {
		x = sign;
	}
	union { uint32_t u; KS_REAL f; } v;
	v.u = x;
	return v.f;
}

KS_FUNC ks_half ks_half_of(KS_REAL f)
{
	union { KS_REAL f; uint32_t u; } v;
	v.f = f;
	uint32_t x = v.u, exp = (x >> 23) & 0xff, man = x & 0x7fffff;
	uint16_t sign = (uint16_t)((x >> 16) & 0x8000);
	ks_half h;
	if (exp == 0xff) {
		h.bits = (uint16_t)(sign | 0x7c00 | (man ? 0x200 | (man >> 13) : 0));
		return h;
	}
	int e = (int)exp - 127 + 15;
	if (e >= 0x1f) {
		h.bits = (uint16_t)(sign | 0x7c00);
		return h;
	}
	uint32_t sig = man | (exp ? 0x800000u : 0);
	int shift = 13;
	if (e <= 0) {
		shift = 14 - e;
		if (shift > 25) {
			h.bits = sign;
			return h;
		}
		e = 0;
	}
	uint32_t r = sig >> shift, rest = sig & ((1u << shift) - 1), half = 1u << (shift - 1);
	if (rest > half || (rest == half && (r & 1)))
		r++;
	/* a carry out of the significand bumps the exponent: adding the
	 * fields does it, up to infinity */
	h.bits = (uint16_t)(sign | (e ? ((uint32_t)e << 10) + (r - 0x400) : r));
	return h;
}
#endif

/* ---- scalars ------------------------------------------------------------ */

/* Every scalar type has its arithmetic as functions too, ks_<op>_<type>,
 * so that the vector and matrix code below is written once for all of
 * them.  For float, float64, int, uint32, int64 and uint64 the emitted
 * code uses C's operators directly (but for / and % on ints, below). */
#define KS_NATIVE_ARITH(SN, ST)                                                      \
	KS_FUNC ST ks_zero_##SN(void) { return (ST)0; }                             \
	KS_FUNC ST ks_add_##SN(ST a, ST b) { return a + b; }                        \
	KS_FUNC ST ks_sub_##SN(ST a, ST b) { return a - b; }                        \
	KS_FUNC ST ks_mul_##SN(ST a, ST b) { return a * b; }                        \
	KS_FUNC ST ks_neg_##SN(ST a) { return -a; }                                 \
	KS_FUNC bool ks_lt_##SN(ST a, ST b) { return a < b; }                       \
	KS_FUNC bool ks_le_##SN(ST a, ST b) { return a <= b; }                      \
	KS_FUNC bool ks_gt_##SN(ST a, ST b) { return a > b; }                       \
	KS_FUNC bool ks_ge_##SN(ST a, ST b) { return a >= b; }                      \
	KS_FUNC bool ks_eq_##SN(ST a, ST b) { return a == b; }                      \
	KS_FUNC bool ks_ne_##SN(ST a, ST b) { return a != b; }

/* The 8- and 16-bit ints: C computes them as int; the result is brought
 * back to the type (wrapping, as Warp's), and a product of two uint16
 * is taken in uint32, where it cannot overflow. */
#define KS_SMALL_ARITH(SN, ST, WIDE)                                                 \
	KS_FUNC ST ks_zero_##SN(void) { return (ST)0; }                             \
	KS_FUNC ST ks_add_##SN(ST a, ST b) { return (ST)((WIDE)a + (WIDE)b); }      \
	KS_FUNC ST ks_sub_##SN(ST a, ST b) { return (ST)((WIDE)a - (WIDE)b); }      \
	KS_FUNC ST ks_mul_##SN(ST a, ST b) { return (ST)((WIDE)a * (WIDE)b); }      \
	KS_FUNC ST ks_neg_##SN(ST a) { return (ST)(0 - (WIDE)a); }                  \
	KS_FUNC ST ks_invert_##SN(ST a) { return (ST)~a; }                          \
	KS_FUNC ST ks_bit_and_##SN(ST a, ST b) { return (ST)(a & b); }              \
	KS_FUNC ST ks_bit_or_##SN(ST a, ST b) { return (ST)(a | b); }               \
	KS_FUNC ST ks_bit_xor_##SN(ST a, ST b) { return (ST)(a ^ b); }              \
	KS_FUNC bool ks_lt_##SN(ST a, ST b) { return a < b; }                       \
	KS_FUNC bool ks_le_##SN(ST a, ST b) { return a <= b; }                      \
	KS_FUNC bool ks_gt_##SN(ST a, ST b) { return a > b; }                       \
	KS_FUNC bool ks_ge_##SN(ST a, ST b) { return a >= b; }                      \
	KS_FUNC bool ks_eq_##SN(ST a, ST b) { return a == b; }                      \
	KS_FUNC bool ks_ne_##SN(ST a, ST b) { return a != b; }

/* Integer division, remainder and floor division of every width: C's
 * truncating / and %, with one answer on every device where C has none
 * (and x86 traps, while a GPU gives a machine-specific value): a / 0 ==
 * a // 0 == 0 and a % 0 == a (so a == (a / b) * b + a % b for every b),
 * and the most negative value divided by -1 wraps to itself, remainder
 * 0.  a // b rounds toward minus infinity, as Warp's does on ints too. */
#define KS_INT_DIV_SIGNED(SN, ST, MIN)                                               \
	KS_FUNC ST ks_div_##SN(ST a, ST b)                                          \
	{                                                                           \
		if (b == 0)                                                         \
			return (ST)0;                                               \
		if (b == (ST)-1)                                                    \
			return a == (ST)(MIN) ? a : (ST)(0 - a);                    \
		return (ST)(a / b);                                                 \
	}                                                                           \
	KS_FUNC ST ks_mod_##SN(ST a, ST b)                                          \
	{                                                                           \
		return b == 0 ? a : b == (ST)-1 ? (ST)0 : (ST)(a % b);              \
	}                                                                           \
	KS_FUNC ST ks_floordiv_##SN(ST a, ST b)                                     \
	{                                                                           \
		if (b == 0)                                                         \
			return (ST)0;                                               \
		ST q = ks_div_##SN(a, b), r = ks_mod_##SN(a, b);                    \
		return (r != 0 && ((r < 0) != (b < 0))) ? (ST)(q - 1) : q;          \
	}
#define KS_INT_DIV_UNSIGNED(SN, ST)                                                  \
	KS_FUNC ST ks_div_##SN(ST a, ST b) { return b == 0 ? (ST)0 : (ST)(a / b); } \
	KS_FUNC ST ks_mod_##SN(ST a, ST b) { return b == 0 ? a : (ST)(a % b); }     \
	KS_FUNC ST ks_floordiv_##SN(ST a, ST b) { return ks_div_##SN(a, b); }

/* Shifts: the count is a number of bits; a count outside [0, width)
 * shifts everything out (0, or -1 for a negative value shifted right),
 * as the GPU does.  A left shift works on the unsigned bits. */
#define KS_INT_SHIFT(SN, ST, UT, BITS, NEGFILL)                                      \
	KS_FUNC ST ks_lshift_##SN(ST a, ST n)                                       \
	{                                                                           \
		return (uint64_t)n >= (BITS) ? (ST)0 : (ST)(UT)((UT)a << (int)n);  \
	}                                                                           \
	KS_FUNC ST ks_rshift_##SN(ST a, ST n)                                       \
	{                                                                           \
		return (uint64_t)n >= (BITS) ? (ST)(NEGFILL) : (ST)(a >> (int)n);   \
	}

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
KS_FUNC ks_half ks_zero_float16(void) { ks_half h = {0}; return h; }
KS_FUNC ks_half ks_add_float16(ks_half a, ks_half b) { return KS_HALF(KS_H(a) + KS_H(b)); }
KS_FUNC ks_half ks_sub_float16(ks_half a, ks_half b) { return KS_HALF(KS_H(a) - KS_H(b)); }
KS_FUNC ks_half ks_mul_float16(ks_half a, ks_half b) { return KS_HALF(KS_H(a) * KS_H(b)); }
KS_FUNC ks_half ks_div_float16(ks_half a, ks_half b) { return KS_HALF(KS_H(a) / KS_H(b)); }
KS_FUNC ks_half ks_floordiv_float16(ks_half a, ks_half b) { return KS_HALF(floorf(KS_H(a) / KS_H(b))); }
KS_FUNC ks_half ks_mod_float16(ks_half a, ks_half b) { return KS_HALF(fmodf(KS_H(a), KS_H(b))); }
KS_FUNC ks_half ks_neg_float16(ks_half a) { a.bits ^= 0x8000; return a; }
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
#define KS_MATH1(OP, F32, F64)                                                       \
	KS_FUNC KS_REAL ks_##OP##_float(KS_REAL x) { return F32(x); }                   \
	KS_FUNC double ks_##OP##_float64(double x) { return F64(x); }               \
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
#define KS_MINMAX(SN, ST)                                                            \
	KS_FUNC ST ks_min_##SN(ST a, ST b) { return ks_lt_##SN(a, b) ? a : b; }     \
	KS_FUNC ST ks_max_##SN(ST a, ST b) { return ks_gt_##SN(a, b) ? a : b; }     \
	KS_FUNC ST ks_clamp_##SN(ST x, ST lo, ST hi) { return ks_min_##SN(ks_max_##SN(lo, x), hi); }
#define KS_SIGNED(SN, ST)                                                            \
	KS_FUNC ST ks_abs_##SN(ST x) { return ks_lt_##SN(x, ks_zero_##SN()) ? ks_neg_##SN(x) : x; } \
	KS_FUNC ST ks_sign_##SN(ST x) { return ks_lt_##SN(x, ks_zero_##SN()) ? (ST)-1 : (ST)1; }
#define KS_UNSIGNED(SN, ST)                                                          \
	KS_FUNC ST ks_abs_##SN(ST x) { return x; }                                  \
	KS_FUNC ST ks_sign_##SN(ST x) { (void)x; return (ST)1; }
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
KS_FUNC ks_half ks_abs_float16(ks_half x) { x.bits &= 0x7fff; return x; }
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
#define KS_STEP(SN, ST, ZERO, ONE)                                                   \
	KS_FUNC ST ks_step_##SN(ST x) { return ks_lt_##SN(x, ZERO) ? ONE : ZERO; }  \
	KS_FUNC ST ks_nonzero_##SN(ST x) { return ks_eq_##SN(x, ZERO) ? ZERO : ONE; }
#define KS_INTERP(SN, ST, ZERO, ONE, TWO, THREE)                                     \
	KS_FUNC ST ks_lerp_##SN(ST a, ST b, ST t)                                   \
	{                                                                           \
		return ks_add_##SN(ks_mul_##SN(a, ks_sub_##SN(ONE, t)), ks_mul_##SN(b, t)); \
	}                                                                           \
	KS_FUNC ST ks_smoothstep_##SN(ST a, ST b, ST x)                             \
	{                                                                           \
		ST u = ks_div_##SN(ks_sub_##SN(x, a), ks_sub_##SN(b, a));           \
		u = ks_gt_##SN(u, ZERO) ? (ks_lt_##SN(u, ONE) ? u : ONE) : ZERO;   \
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
#define KS_TO_INT(IN, IT, LO, HI, FHI)                                               \
	KS_FUNC IT ks_to_##IN##_float(KS_REAL x)                                      \
	{                                                                           \
		return x != x ? (IT)0 : x < (double)(LO) ? (IT)(LO) : x >= (FHI) ? (IT)(HI) : (IT)x; \
	}                                                                           \
	KS_FUNC IT ks_to_##IN##_float64(double x)                                   \
	{                                                                           \
		return x != x ? (IT)0 : x < (double)(LO) ? (IT)(LO) : x >= (FHI) ? (IT)(HI) : (IT)x; \
	}                                                                           \
	KS_FUNC IT ks_to_##IN##_float16(ks_half x) { return ks_to_##IN##_float(KS_H(x)); } \
	KS_FUNC ks_half ks_to_float16_##IN(IT x) { return KS_HALF((KS_REAL)x); }      \
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

/* ---- vectors -------------------------------------------------------------- */

/* NAME, a function of type T (a vector, quaternion or transform of N
 * components) that applies F component by component: to a (KS_CW1), to a
 * and b (KS_CW2), to a and a scalar s of type ST, after (KS_CWS) or before
 * (KS_CSW). */
#define KS_CW1(T, NAME, N, F)                                                       \
	KS_FUNC T NAME(T a)                                                         \
	{                                                                           \
		for (int i = 0; i < N; i++)                                         \
			a.c[i] = F(a.c[i]);                                         \
		return a;                                                           \
	}
#define KS_CW2(T, NAME, N, F)                                                       \
	KS_FUNC T NAME(T a, T b)                                                    \
	{                                                                           \
		for (int i = 0; i < N; i++)                                         \
			a.c[i] = F(a.c[i], b.c[i]);                                 \
		return a;                                                           \
	}
#define KS_CWS(T, NAME, N, ST, F)                                                   \
	KS_FUNC T NAME(T a, ST s)                                                   \
	{                                                                           \
		for (int i = 0; i < N; i++)                                         \
			a.c[i] = F(a.c[i], s);                                      \
		return a;                                                           \
	}
#define KS_CSW(T, NAME, N, ST, F)                                                   \
	KS_FUNC T NAME(ST s, T a)                                                   \
	{                                                                           \
		for (int i = 0; i < N; i++)                                         \
			a.c[i] = F(s, a.c[i]);                                      \
		return a;                                                           \
	}

/* ks_<VT> holds N components of the scalar SN (C type ST).  KS_VEC
 * defines what every vector has; KS_VEC_FLOAT what vectors of floats add;
 * KS_MAKEn the constructors. */
#define KS_VEC(VT, N, SN, ST)                                                       \
	typedef struct { ST c[N]; } ks_##VT;                                        \
	KS_FUNC ks_##VT ks_zero_##VT(void)                                          \
	{                                                                           \
		ks_##VT r;                                                          \
		for (int i = 0; i < N; i++)                                         \
			r.c[i] = ks_zero_##SN();                                    \
		return r;                                                           \
	}                                                                           \
	KS_FUNC ks_##VT ks_fill_##VT(ST s)                                          \
	{                                                                           \
		ks_##VT r;                                                          \
		for (int i = 0; i < N; i++)                                         \
			r.c[i] = s;                                                 \
		return r;                                                           \
	}                                                                           \
	KS_FUNC ks_##VT ks_insert_##VT(ks_##VT v, int k, ST s)                      \
	{                                                                           \
		v.c[k] = s;                                                         \
		return v;                                                           \
	}                                                                           \
	KS_CW1(ks_##VT, ks_neg_##VT, N, ks_neg_##SN)                                \
	KS_CW2(ks_##VT, ks_add_##VT, N, ks_add_##SN)                                \
	KS_CW2(ks_##VT, ks_sub_##VT, N, ks_sub_##SN)                                \
	KS_CWS(ks_##VT, ks_mul_##VT##_##SN, N, ST, ks_mul_##SN)                     \
	KS_CSW(ks_##VT, ks_mul_##SN##_##VT, N, ST, ks_mul_##SN)                     \
	KS_CWS(ks_##VT, ks_div_##VT##_##SN, N, ST, ks_div_##SN)                     \
	KS_CSW(ks_##VT, ks_div_##SN##_##VT, N, ST, ks_div_##SN)                     \
	KS_FUNC ST ks_dot_##VT(ks_##VT a, ks_##VT b)                                \
	{                                                                           \
		ST r = ks_mul_##SN(a.c[0], b.c[0]);                                 \
		for (int i = 1; i < N; i++)                                         \
			r = ks_add_##SN(r, ks_mul_##SN(a.c[i], b.c[i]));            \
		return r;                                                           \
	}                                                                           \
	KS_FUNC ST ks_length_sq_##VT(ks_##VT a) { return ks_dot_##VT(a, a); }       \
	KS_FUNC bool ks_eq_##VT(ks_##VT a, ks_##VT b)                               \
	{                                                                           \
		for (int i = 0; i < N; i++)                                         \
			if (!ks_eq_##SN(a.c[i], b.c[i]))                            \
				return false;                                       \
		return true;                                                        \
	}                                                                           \
	KS_FUNC bool ks_ne_##VT(ks_##VT a, ks_##VT b) { return !ks_eq_##VT(a, b); } \
	KS_CW1(ks_##VT, ks_abs_##VT, N, ks_abs_##SN)                                \
	KS_CW2(ks_##VT, ks_min_##VT, N, ks_min_##SN)                                \
	KS_CW2(ks_##VT, ks_max_##VT, N, ks_max_##SN)

#define KS_VEC_FLOAT(VT, N, SN, ST)                                                 \
	KS_FUNC ST ks_length_##VT(ks_##VT a) { return ks_sqrt_##SN(ks_dot_##VT(a, a)); } \
	KS_FUNC ks_##VT ks_normalize_##VT(ks_##VT a)                                \
	{                                                                           \
		ST l = ks_length_##VT(a);                                           \
		return ks_gt_##SN(l, ks_zero_##SN()) ? ks_div_##VT##_##SN(a, l) : ks_zero_##VT(); \
	}

#define KS_CROSS(VT, SN, ST)                                                        \
	KS_FUNC ks_##VT ks_cross_##VT(ks_##VT a, ks_##VT b)                         \
	{                                                                           \
		return ks_make_##VT(ks_sub_##SN(ks_mul_##SN(a.c[1], b.c[2]), ks_mul_##SN(a.c[2], b.c[1])), \
				    ks_sub_##SN(ks_mul_##SN(a.c[2], b.c[0]), ks_mul_##SN(a.c[0], b.c[2])), \
				    ks_sub_##SN(ks_mul_##SN(a.c[0], b.c[1]), ks_mul_##SN(a.c[1], b.c[0]))); \
	}

#define KS_MAKE2(VT, ST)                                                            \
	KS_FUNC ks_##VT ks_make_##VT(ST x, ST y)                                    \
	{                                                                           \
		ks_##VT r;                                                          \
		r.c[0] = x, r.c[1] = y;                                             \
		return r;                                                           \
	}
#define KS_MAKE3(VT, ST)                                                            \
	KS_FUNC ks_##VT ks_make_##VT(ST x, ST y, ST z)                              \
	{                                                                           \
		ks_##VT r;                                                          \
		r.c[0] = x, r.c[1] = y, r.c[2] = z;                                 \
		return r;                                                           \
	}
#define KS_MAKE4(VT, ST)                                                            \
	KS_FUNC ks_##VT ks_make_##VT(ST x, ST y, ST z, ST w)                        \
	{                                                                           \
		ks_##VT r;                                                          \
		r.c[0] = x, r.c[1] = y, r.c[2] = z, r.c[3] = w;                     \
		return r;                                                           \
	}
#define KS_MAKE6(VT, ST)                                                            \
	KS_FUNC ks_##VT ks_make_##VT(ST a, ST b, ST c, ST d, ST e, ST f)            \
	{                                                                           \
		ks_##VT r;                                                          \
		r.c[0] = a, r.c[1] = b, r.c[2] = c, r.c[3] = d, r.c[4] = e, r.c[5] = f; \
		return r;                                                           \
	}

/* The vectors of one scalar type: lengths 2, 3, 4 and, for floats, the
 * spatial vector (6). */
#define KS_VECS(SN, ST, V2, V3, V4)                                                  \
	KS_VEC(V2, 2, SN, ST)                                                       \
	KS_VEC(V3, 3, SN, ST)                                                       \
	KS_VEC(V4, 4, SN, ST)                                                       \
	KS_MAKE2(V2, ST)                                                            \
	KS_MAKE3(V3, ST)                                                            \
	KS_MAKE4(V4, ST)                                                            \
	KS_CROSS(V3, SN, ST)
#define KS_FLOAT_VECS(SN, ST, V2, V3, V4, V6)                                        \
	KS_VECS(SN, ST, V2, V3, V4)                                                 \
	KS_VEC(V6, 6, SN, ST)                                                       \
	KS_MAKE6(V6, ST)                                                            \
	KS_VEC_FLOAT(V2, 2, SN, ST)                                                 \
	KS_VEC_FLOAT(V3, 3, SN, ST)                                                 \
	KS_VEC_FLOAT(V4, 4, SN, ST)                                                 \
	KS_VEC_FLOAT(V6, 6, SN, ST)

KS_FLOAT_VECS(float, KS_REAL, vec2, vec3, vec4, spatial_vector)
KS_FLOAT_VECS(float16, ks_half, vec2h, vec3h, vec4h, spatial_vectorh)
KS_FLOAT_VECS(float64, double, vec2d, vec3d, vec4d, spatial_vectord)
KS_VECS(int8, int8_t, vec2b, vec3b, vec4b)
KS_VECS(uint8, uint8_t, vec2ub, vec3ub, vec4ub)
KS_VECS(int16, int16_t, vec2s, vec3s, vec4s)
KS_VECS(uint16, uint16_t, vec2us, vec3us, vec4us)
KS_VECS(int, int, vec2i, vec3i, vec4i)
KS_VECS(uint32, uint32_t, vec2ui, vec3ui, vec4ui)
KS_VECS(int64, int64_t, vec2l, vec3l, vec4l)
KS_VECS(uint64, uint64_t, vec2ul, vec3ul, vec4ul)

/* More of every vector: component-wise sign and mod (mod as the scalar's,
 * fmod on floats); argmin and argmax (the first smallest or largest
 * component, NaNs skipped, 0 when all are NaN, as Warp's), and min and
 * max of the components, the one argmin and argmax pick; cw_mul, cw_div. */
#define KS_VEC_MORE(VT, N, SN, ST)                                                  \
	KS_CW1(ks_##VT, ks_sign_##VT, N, ks_sign_##SN)                              \
	KS_CW2(ks_##VT, ks_mod_##VT, N, ks_mod_##SN)                                \
	KS_CW2(ks_##VT, ks_cw_mul_##VT, N, ks_mul_##SN)                             \
	KS_CW2(ks_##VT, ks_cw_div_##VT, N, ks_div_##SN)                             \
	KS_FUNC uint32_t ks_argmin_##VT(ks_##VT a)                                  \
	{                                                                           \
		int k = 0;                                                          \
		while (k < N && ks_ne_##SN(a.c[k], a.c[k]))                         \
			k++;                                                        \
		if (k == N)                                                         \
			return 0;                                                   \
		for (int i = k + 1; i < N; i++)                                     \
			if (ks_lt_##SN(a.c[i], a.c[k]))                             \
				k = i;                                              \
		return (uint32_t)k;                                                 \
	}                                                                           \
	KS_FUNC uint32_t ks_argmax_##VT(ks_##VT a)                                  \
	{                                                                           \
		int k = 0;                                                          \
		while (k < N && ks_ne_##SN(a.c[k], a.c[k]))                         \
			k++;                                                        \
		if (k == N)                                                         \
			return 0;                                                   \
		for (int i = k + 1; i < N; i++)                                     \
			if (ks_gt_##SN(a.c[i], a.c[k]))                             \
				k = i;                                              \
		return (uint32_t)k;                                                 \
	}                                                                           \
	KS_FUNC ST ks_min_of_##VT(ks_##VT a) { return a.c[ks_argmin_##VT(a)]; }     \
	KS_FUNC ST ks_max_of_##VT(ks_##VT a) { return a.c[ks_argmax_##VT(a)]; }

/* lerp and the tests of a float vector: a NaN or infinite component makes
 * it NaN or infinite; finite when all are */
#define KS_VEC_FLOAT_MORE(VT, N, SN, ST)                                            \
	KS_FUNC ks_##VT ks_lerp_##VT(ks_##VT a, ks_##VT b, ST t)                    \
	{                                                                           \
		ST s = ks_sub_##SN(ks_one_##SN(), t);                               \
		for (int i = 0; i < N; i++)                                         \
			a.c[i] = ks_add_##SN(ks_mul_##SN(a.c[i], s), ks_mul_##SN(b.c[i], t)); \
		return a;                                                           \
	}                                                                           \
	KS_FUNC bool ks_isnan_##VT(ks_##VT a)                                       \
	{                                                                           \
		for (int i = 0; i < N; i++)                                         \
			if (ks_isnan_##SN(a.c[i]))                                  \
				return true;                                        \
		return false;                                                       \
	}                                                                           \
	KS_FUNC bool ks_isinf_##VT(ks_##VT a)                                       \
	{                                                                           \
		for (int i = 0; i < N; i++)                                         \
			if (ks_isinf_##SN(a.c[i]))                                  \
				return true;                                        \
		return false;                                                       \
	}                                                                           \
	KS_FUNC bool ks_isfinite_##VT(ks_##VT a)                                    \
	{                                                                           \
		for (int i = 0; i < N; i++)                                         \
			if (!ks_isfinite_##SN(a.c[i]))                              \
				return false;                                       \
		return true;                                                        \
	}

/* the components of a float vector by a scalar, and a scalar by each
 * component, approximately */
#define KS_VEC_DIV_APPROX(VT, N, SN, ST)                                            \
	KS_CWS(ks_##VT, ks_div_approx_##VT, N, ST, ks_div_approx_##SN)              \
	KS_FUNC ks_##VT ks_div_approx_##SN##_##VT(ST s, ks_##VT b)                  \
	{                                                                           \
		for (int i = 0; i < N; i++)                                         \
			b.c[i] = ks_div_approx_##SN(s, b.c[i]);                     \
		return b;                                                           \
	}

/* ~ of each component of an int vector */
#define KS_VEC_INT_MORE(VT, N, SN, ST)                                              \
	KS_CW1(ks_##VT, ks_invert_##VT, N, ks_invert_##SN)

#define KS_FLOAT_VECS_MORE(SN, ST, V2, V3, V4, V6)                                   \
	KS_VEC_MORE(V2, 2, SN, ST)                                                  \
	KS_VEC_MORE(V3, 3, SN, ST)                                                  \
	KS_VEC_MORE(V4, 4, SN, ST)                                                  \
	KS_VEC_MORE(V6, 6, SN, ST)                                                  \
	KS_VEC_FLOAT_MORE(V2, 2, SN, ST)                                            \
	KS_VEC_FLOAT_MORE(V3, 3, SN, ST)                                            \
	KS_VEC_FLOAT_MORE(V4, 4, SN, ST)                                            \
	KS_VEC_FLOAT_MORE(V6, 6, SN, ST)                                            \
	KS_VEC_DIV_APPROX(V2, 2, SN, ST)                                            \
	KS_VEC_DIV_APPROX(V3, 3, SN, ST)                                            \
	KS_VEC_DIV_APPROX(V4, 4, SN, ST)                                            \
	KS_VEC_DIV_APPROX(V6, 6, SN, ST)
#define KS_INT_VECS_MORE(SN, ST, V2, V3, V4)                                         \
	KS_VEC_MORE(V2, 2, SN, ST)                                                  \
	KS_VEC_MORE(V3, 3, SN, ST)                                                  \
	KS_VEC_MORE(V4, 4, SN, ST)                                                  \
	KS_VEC_INT_MORE(V2, 2, SN, ST)                                              \
	KS_VEC_INT_MORE(V3, 3, SN, ST)                                              \
	KS_VEC_INT_MORE(V4, 4, SN, ST)

KS_FUNC KS_REAL ks_one_float(void) { return 1.0f; }
KS_FUNC double ks_one_float64(void) { return 1.0; }
KS_FUNC ks_half ks_one_float16(void) { return KS_HALF(1.0f); }
KS_FLOAT_VECS_MORE(float, KS_REAL, vec2, vec3, vec4, spatial_vector)
KS_FLOAT_VECS_MORE(float16, ks_half, vec2h, vec3h, vec4h, spatial_vectorh)
KS_FLOAT_VECS_MORE(float64, double, vec2d, vec3d, vec4d, spatial_vectord)
KS_INT_VECS_MORE(int8, int8_t, vec2b, vec3b, vec4b)
KS_INT_VECS_MORE(uint8, uint8_t, vec2ub, vec3ub, vec4ub)
KS_INT_VECS_MORE(int16, int16_t, vec2s, vec3s, vec4s)
KS_INT_VECS_MORE(uint16, uint16_t, vec2us, vec3us, vec4us)
KS_INT_VECS_MORE(int, int, vec2i, vec3i, vec4i)
KS_INT_VECS_MORE(uint32, uint32_t, vec2ui, vec3ui, vec4ui)
KS_INT_VECS_MORE(int64, int64_t, vec2l, vec3l, vec4l)
KS_INT_VECS_MORE(uint64, uint64_t, vec2ul, vec3ul, vec4ul)

/* ---- matrices ------------------------------------------------------------- */

/* ks_<MT> holds N x N components of SN, row-major: c[row][col]; VT is the
 * vector of a row. */
#define KS_MAT(MT, N, SN, ST, VT)                                                   \
	typedef struct { ST c[N][N]; } ks_##MT;                                     \
	KS_FUNC ks_##MT ks_zero_##MT(void)                                          \
	{                                                                           \
		ks_##MT r;                                                          \
		for (int i = 0; i < N; i++)                                         \
			for (int j = 0; j < N; j++)                                 \
				r.c[i][j] = ks_zero_##SN();                         \
		return r;                                                           \
	}                                                                           \
	KS_FUNC ks_##MT ks_fill_##MT(ST s)                                          \
	{                                                                           \
		ks_##MT r;                                                          \
		for (int i = 0; i < N; i++)                                         \
			for (int j = 0; j < N; j++)                                 \
				r.c[i][j] = s;                                      \
		return r;                                                           \
	}                                                                           \
	KS_FUNC ks_##VT ks_row_##MT(ks_##MT m, int i)                               \
	{                                                                           \
		ks_##VT r;                                                          \
		for (int j = 0; j < N; j++)                                         \
			r.c[j] = m.c[i][j];                                         \
		return r;                                                           \
	}                                                                           \
	KS_FUNC ks_##MT ks_set_row_##MT(ks_##MT m, int i, ks_##VT r)                \
	{                                                                           \
		for (int j = 0; j < N; j++)                                         \
			m.c[i][j] = r.c[j];                                         \
		return m;                                                           \
	}                                                                           \
	KS_FUNC ks_##MT ks_insert_##MT(ks_##MT m, int i, int j, ST s)               \
	{                                                                           \
		m.c[i][j] = s;                                                      \
		return m;                                                           \
	}                                                                           \
	KS_FUNC ks_##MT ks_neg_##MT(ks_##MT a)                                      \
	{                                                                           \
		for (int i = 0; i < N; i++)                                         \
			for (int j = 0; j < N; j++)                                 \
				a.c[i][j] = ks_neg_##SN(a.c[i][j]);                 \
		return a;                                                           \
	}                                                                           \
	KS_FUNC ks_##MT ks_add_##MT(ks_##MT a, ks_##MT b)                           \
	{                                                                           \
		for (int i = 0; i < N; i++)                                         \
			for (int j = 0; j < N; j++)                                 \
				a.c[i][j] = ks_add_##SN(a.c[i][j], b.c[i][j]);      \
		return a;                                                           \
	}                                                                           \
	KS_FUNC ks_##MT ks_sub_##MT(ks_##MT a, ks_##MT b)                           \
	{                                                                           \
		for (int i = 0; i < N; i++)                                         \
			for (int j = 0; j < N; j++)                                 \
				a.c[i][j] = ks_sub_##SN(a.c[i][j], b.c[i][j]);      \
		return a;                                                           \
	}                                                                           \
	KS_FUNC ks_##MT ks_mul_##MT##_##SN(ks_##MT a, ST s)                         \
	{                                                                           \
		for (int i = 0; i < N; i++)                                         \
			for (int j = 0; j < N; j++)                                 \
				a.c[i][j] = ks_mul_##SN(a.c[i][j], s);              \
		return a;                                                           \
	}                                                                           \
	KS_FUNC ks_##MT ks_mul_##SN##_##MT(ST s, ks_##MT a)                         \
	{                                                                           \
		for (int i = 0; i < N; i++)                                         \
			for (int j = 0; j < N; j++)                                 \
				a.c[i][j] = ks_mul_##SN(s, a.c[i][j]);              \
		return a;                                                           \
	}                                                                           \
	KS_FUNC ks_##MT ks_div_##MT##_##SN(ks_##MT a, ST s)                         \
	{                                                                           \
		for (int i = 0; i < N; i++)                                         \
			for (int j = 0; j < N; j++)                                 \
				a.c[i][j] = ks_div_##SN(a.c[i][j], s);              \
		return a;                                                           \
	}                                                                           \
	KS_FUNC ks_##MT ks_div_##SN##_##MT(ST s, ks_##MT a)                         \
	{                                                                           \
		for (int i = 0; i < N; i++)                                         \
			for (int j = 0; j < N; j++)                                 \
				a.c[i][j] = ks_div_##SN(s, a.c[i][j]);              \
		return a;                                                           \
	}                                                                           \
	KS_FUNC ks_##VT ks_mul_##MT##_##VT(ks_##MT m, ks_##VT v)                    \
	{                                                                           \
		ks_##VT r;                                                          \
		for (int i = 0; i < N; i++) {                                       \
			r.c[i] = ks_mul_##SN(m.c[i][0], v.c[0]);                    \
			for (int k = 1; k < N; k++)                                 \
				r.c[i] = ks_add_##SN(r.c[i], ks_mul_##SN(m.c[i][k], v.c[k])); \
		}                                                                   \
		return r;                                                           \
	}                                                                           \
	KS_FUNC ks_##VT ks_mul_##VT##_##MT(ks_##VT v, ks_##MT m)                    \
	{                                                                           \
		ks_##VT r;                                                          \
		for (int j = 0; j < N; j++) {                                       \
			r.c[j] = ks_mul_##SN(v.c[0], m.c[0][j]);                    \
			for (int k = 1; k < N; k++)                                 \
				r.c[j] = ks_add_##SN(r.c[j], ks_mul_##SN(v.c[k], m.c[k][j])); \
		}                                                                   \
		return r;                                                           \
	}                                                                           \
	KS_FUNC ks_##MT ks_mul_##MT##_##MT(ks_##MT a, ks_##MT b)                    \
	{                                                                           \
		ks_##MT r;                                                          \
		for (int i = 0; i < N; i++)                                         \
			for (int j = 0; j < N; j++) {                               \
				r.c[i][j] = ks_mul_##SN(a.c[i][0], b.c[0][j]);      \
				for (int k = 1; k < N; k++)                         \
					r.c[i][j] = ks_add_##SN(r.c[i][j], ks_mul_##SN(a.c[i][k], b.c[k][j])); \
			}                                                           \
		return r;                                                           \
	}                                                                           \
	KS_FUNC ks_##MT ks_outer_##VT(ks_##VT a, ks_##VT b)                         \
	{                                                                           \
		ks_##MT r;                                                          \
		for (int i = 0; i < N; i++)                                         \
			for (int j = 0; j < N; j++)                                 \
				r.c[i][j] = ks_mul_##SN(a.c[i], b.c[j]);            \
		return r;                                                           \
	}                                                                           \
	KS_FUNC ks_##MT ks_transpose_##MT(ks_##MT a)                                \
	{                                                                           \
		ks_##MT r;                                                          \
		for (int i = 0; i < N; i++)                                         \
			for (int j = 0; j < N; j++)                                 \
				r.c[i][j] = a.c[j][i];                              \
		return r;                                                           \
	}                                                                           \
	KS_FUNC bool ks_eq_##MT(ks_##MT a, ks_##MT b)                               \
	{                                                                           \
		for (int i = 0; i < N; i++)                                         \
			for (int j = 0; j < N; j++)                                 \
				if (!ks_eq_##SN(a.c[i][j], b.c[i][j]))              \
					return false;                               \
		return true;                                                        \
	}                                                                           \
	KS_FUNC bool ks_ne_##MT(ks_##MT a, ks_##MT b) { return !ks_eq_##MT(a, b); }

/* The constructors from every component, row by row. */
#define KS_MAKE22(MT, ST)                                                           \
	KS_FUNC ks_##MT ks_make_##MT(ST m00, ST m01, ST m10, ST m11)                \
	{                                                                           \
		ks_##MT r;                                                          \
		r.c[0][0] = m00, r.c[0][1] = m01;                                   \
		r.c[1][0] = m10, r.c[1][1] = m11;                                   \
		return r;                                                           \
	}
#define KS_MAKE33(MT, ST)                                                           \
	KS_FUNC ks_##MT ks_make_##MT(ST m00, ST m01, ST m02, ST m10, ST m11, ST m12, \
				     ST m20, ST m21, ST m22)                        \
	{                                                                           \
		ks_##MT r;                                                          \
		r.c[0][0] = m00, r.c[0][1] = m01, r.c[0][2] = m02;                  \
		r.c[1][0] = m10, r.c[1][1] = m11, r.c[1][2] = m12;                  \
		r.c[2][0] = m20, r.c[2][1] = m21, r.c[2][2] = m22;                  \
		return r;                                                           \
	}
#define KS_MAKE44(MT, ST)                                                           \
	KS_FUNC ks_##MT ks_make_##MT(ST m00, ST m01, ST m02, ST m03, ST m10, ST m11, \
				     ST m12, ST m13, ST m20, ST m21, ST m22, ST m23, \
				     ST m30, ST m31, ST m32, ST m33)                \
	{                                                                           \
		ks_##MT r;                                                          \
		r.c[0][0] = m00, r.c[0][1] = m01, r.c[0][2] = m02, r.c[0][3] = m03; \
		r.c[1][0] = m10, r.c[1][1] = m11, r.c[1][2] = m12, r.c[1][3] = m13; \
		r.c[2][0] = m20, r.c[2][1] = m21, r.c[2][2] = m22, r.c[2][3] = m23; \
		r.c[3][0] = m30, r.c[3][1] = m31, r.c[3][2] = m32, r.c[3][3] = m33; \
		return r;                                                           \
	}
#define KS_MAKE66(MT, ST)                                                           \
	KS_FUNC ks_##MT ks_make_##MT(ST m00, ST m01, ST m02, ST m03, ST m04, ST m05, \
				     ST m10, ST m11, ST m12, ST m13, ST m14, ST m15, \
				     ST m20, ST m21, ST m22, ST m23, ST m24, ST m25, \
				     ST m30, ST m31, ST m32, ST m33, ST m34, ST m35, \
				     ST m40, ST m41, ST m42, ST m43, ST m44, ST m45, \
				     ST m50, ST m51, ST m52, ST m53, ST m54, ST m55) \
	{                                                                           \
		ST v[36] = {m00, m01, m02, m03, m04, m05, m10, m11, m12, m13, m14, m15, \
			    m20, m21, m22, m23, m24, m25, m30, m31, m32, m33, m34, m35, \
			    m40, m41, m42, m43, m44, m45, m50, m51, m52, m53, m54, m55}; \
		ks_##MT r;                                                          \
		for (int i = 0; i < 36; i++)                                        \
			r.c[i / 6][i % 6] = v[i];                                   \
		return r;                                                           \
	}

/* Determinants and inverses follow Warp's formulas (mat.h), in the
 * matrix's own type: the adjugate times the reciprocal of the
 * determinant, and the zero matrix when the determinant is 0.  The 4x4
 * cofactors come from 2x2 minors (the scheme Warp takes from USD's
 * GfMatrix4f::Inverse).  A(x, y) and the like spell the scalar operations
 * of SN in the macros below. */
#define KS_DET22(MT, SN, ST)                                                        \
	KS_FUNC ST ks_determinant_##MT(ks_##MT m)                                   \
	{                                                                           \
		return ks_sub_##SN(ks_mul_##SN(m.c[0][0], m.c[1][1]), ks_mul_##SN(m.c[1][0], m.c[0][1])); \
	}                                                                           \
	KS_FUNC ks_##MT ks_inverse_##MT(ks_##MT m)                                  \
	{                                                                           \
		ST det = ks_determinant_##MT(m);                                    \
		if (ks_eq_##SN(det, ks_zero_##SN()))                                \
			return ks_zero_##MT();                                      \
		return ks_mul_##MT##_##SN(ks_make_##MT(m.c[1][1], ks_neg_##SN(m.c[0][1]),  \
							ks_neg_##SN(m.c[1][0]), m.c[0][0]), \
					  ks_div_##SN(ks_one_##SN(), det));         \
	}
#define KS_DET33(MT, SN, ST, VT)                                                    \
	KS_FUNC ST ks_determinant_##MT(ks_##MT m)                                   \
	{                                                                           \
		return ks_dot_##VT(ks_row_##MT(m, 0), ks_cross_##VT(ks_row_##MT(m, 1), ks_row_##MT(m, 2))); \
	}                                                                           \
	KS_FUNC ST ks_cof33_##SN(ST a, ST b, ST c, ST d)                            \
	{                                                                           \
		return ks_sub_##SN(ks_mul_##SN(a, b), ks_mul_##SN(c, d));           \
	}                                                                           \
	KS_FUNC ks_##MT ks_inverse_##MT(ks_##MT m)                                  \
	{                                                                           \
		ST det = ks_determinant_##MT(m);                                    \
		ks_##MT b;                                                          \
		if (ks_eq_##SN(det, ks_zero_##SN()))                                \
			return ks_zero_##MT();                                      \
		b.c[0][0] = ks_cof33_##SN(m.c[1][1], m.c[2][2], m.c[1][2], m.c[2][1]); \
		b.c[1][0] = ks_cof33_##SN(m.c[1][2], m.c[2][0], m.c[1][0], m.c[2][2]); \
		b.c[2][0] = ks_cof33_##SN(m.c[1][0], m.c[2][1], m.c[1][1], m.c[2][0]); \
		b.c[0][1] = ks_cof33_##SN(m.c[0][2], m.c[2][1], m.c[0][1], m.c[2][2]); \
		b.c[1][1] = ks_cof33_##SN(m.c[0][0], m.c[2][2], m.c[0][2], m.c[2][0]); \
		b.c[2][1] = ks_cof33_##SN(m.c[0][1], m.c[2][0], m.c[0][0], m.c[2][1]); \
		b.c[0][2] = ks_cof33_##SN(m.c[0][1], m.c[1][2], m.c[0][2], m.c[1][1]); \
		b.c[1][2] = ks_cof33_##SN(m.c[0][2], m.c[1][0], m.c[0][0], m.c[1][2]); \
		b.c[2][2] = ks_cof33_##SN(m.c[0][0], m.c[1][1], m.c[0][1], m.c[1][0]); \
		return ks_mul_##MT##_##SN(b, ks_div_##SN(ks_one_##SN(), det));      \
	}
/* a*b - c*d + e*f and a*b - c*d - e*f, left to right */
#define KS_DET44(MT, SN, ST)                                                        \
	KS_FUNC ST ks_pmp_##SN(ST a, ST b, ST c, ST d, ST e, ST f)                  \
	{                                                                           \
		return ks_add_##SN(ks_sub_##SN(ks_mul_##SN(a, b), ks_mul_##SN(c, d)), ks_mul_##SN(e, f)); \
	}                                                                           \
	KS_FUNC ST ks_pmm_##SN(ST a, ST b, ST c, ST d, ST e, ST f)                  \
	{                                                                           \
		return ks_sub_##SN(ks_sub_##SN(ks_mul_##SN(a, b), ks_mul_##SN(c, d)), ks_mul_##SN(e, f)); \
	}                                                                           \
	KS_FUNC ST ks_determinant_##MT(ks_##MT m)                                   \
	{                                                                           \
		ST(*x)[4] = m.c;                                                    \
		ST y01 = ks_cof33_##SN(x[0][2], x[1][3], x[1][2], x[0][3]);         \
		ST y02 = ks_cof33_##SN(x[0][2], x[2][3], x[2][2], x[0][3]);         \
		ST y03 = ks_cof33_##SN(x[0][2], x[3][3], x[3][2], x[0][3]);         \
		ST y12 = ks_cof33_##SN(x[1][2], x[2][3], x[2][2], x[1][3]);         \
		ST y13 = ks_cof33_##SN(x[1][2], x[3][3], x[3][2], x[1][3]);         \
		ST y23 = ks_cof33_##SN(x[2][2], x[3][3], x[3][2], x[2][3]);         \
		ST z30 = ks_pmm_##SN(x[1][1], y02, x[2][1], y01, x[0][1], y12);     \
		ST z20 = ks_pmp_##SN(x[0][1], y13, x[1][1], y03, x[3][1], y01);     \
		ST z10 = ks_pmm_##SN(x[2][1], y03, x[3][1], y02, x[0][1], y23);     \
		ST z00 = ks_pmp_##SN(x[1][1], y23, x[2][1], y13, x[3][1], y12);     \
		return ks_add_##SN(ks_add_##SN(ks_add_##SN(ks_mul_##SN(x[3][0], z30), ks_mul_##SN(x[2][0], z20)), \
					       ks_mul_##SN(x[1][0], z10)),          \
				   ks_mul_##SN(x[0][0], z00));                      \
	}                                                                           \
	KS_FUNC ks_##MT ks_inverse_##MT(ks_##MT m)                                  \
	{                                                                           \
		ST(*x)[4] = m.c;                                                    \
		ks_##MT r;                                                          \
		/* 2x2 minors of the first two columns */                           \
		ST y01 = ks_cof33_##SN(x[0][0], x[1][1], x[1][0], x[0][1]);         \
		ST y02 = ks_cof33_##SN(x[0][0], x[2][1], x[2][0], x[0][1]);         \
		ST y03 = ks_cof33_##SN(x[0][0], x[3][1], x[3][0], x[0][1]);         \
		ST y12 = ks_cof33_##SN(x[1][0], x[2][1], x[2][0], x[1][1]);         \
		ST y13 = ks_cof33_##SN(x[1][0], x[3][1], x[3][0], x[1][1]);         \
		ST y23 = ks_cof33_##SN(x[2][0], x[3][1], x[3][0], x[2][1]);         \
		/* cofactors of the last two columns */                             \
		ST z33 = ks_pmp_##SN(x[0][2], y12, x[1][2], y02, x[2][2], y01);     \
		ST z23 = ks_pmm_##SN(x[1][2], y03, x[3][2], y01, x[0][2], y13);     \
		ST z13 = ks_pmp_##SN(x[0][2], y23, x[2][2], y03, x[3][2], y02);     \
		ST z03 = ks_pmm_##SN(x[2][2], y13, x[3][2], y12, x[1][2], y23);     \
		ST z32 = ks_pmm_##SN(x[1][3], y02, x[2][3], y01, x[0][3], y12);     \
		ST z22 = ks_pmp_##SN(x[0][3], y13, x[1][3], y03, x[3][3], y01);     \
		ST z12 = ks_pmm_##SN(x[2][3], y03, x[3][3], y02, x[0][3], y23);     \
		ST z02 = ks_pmp_##SN(x[1][3], y23, x[2][3], y13, x[3][3], y12);     \
		/* 2x2 minors of the last two columns */                            \
		y01 = ks_cof33_##SN(x[0][2], x[1][3], x[1][2], x[0][3]);            \
		y02 = ks_cof33_##SN(x[0][2], x[2][3], x[2][2], x[0][3]);            \
		y03 = ks_cof33_##SN(x[0][2], x[3][3], x[3][2], x[0][3]);            \
		y12 = ks_cof33_##SN(x[1][2], x[2][3], x[2][2], x[1][3]);            \
		y13 = ks_cof33_##SN(x[1][2], x[3][3], x[3][2], x[1][3]);            \
		y23 = ks_cof33_##SN(x[2][2], x[3][3], x[3][2], x[2][3]);            \
		/* cofactors of the first two columns */                            \
		ST z30 = ks_pmm_##SN(x[1][1], y02, x[2][1], y01, x[0][1], y12);     \
		ST z20 = ks_pmp_##SN(x[0][1], y13, x[1][1], y03, x[3][1], y01);     \
		ST z10 = ks_pmm_##SN(x[2][1], y03, x[3][1], y02, x[0][1], y23);     \
		ST z00 = ks_pmp_##SN(x[1][1], y23, x[2][1], y13, x[3][1], y12);     \
		ST z31 = ks_pmp_##SN(x[0][0], y12, x[1][0], y02, x[2][0], y01);     \
		ST z21 = ks_pmm_##SN(x[1][0], y03, x[3][0], y01, x[0][0], y13);     \
		ST z11 = ks_pmp_##SN(x[0][0], y23, x[2][0], y03, x[3][0], y02);     \
		ST z01 = ks_pmm_##SN(x[2][0], y13, x[3][0], y12, x[1][0], y23);     \
		ST det = ks_add_##SN(ks_add_##SN(ks_add_##SN(ks_mul_##SN(x[3][0], z30), ks_mul_##SN(x[2][0], z20)), \
						 ks_mul_##SN(x[1][0], z10)),        \
				     ks_mul_##SN(x[0][0], z00));                    \
		if (ks_eq_##SN(det, ks_zero_##SN()))                                \
			return ks_zero_##MT();                                      \
		ST rcp = ks_div_##SN(ks_one_##SN(), det);                           \
		ST z[4][4] = {{z00, z10, z20, z30}, {z01, z11, z21, z31},           \
			      {z02, z12, z22, z32}, {z03, z13, z23, z33}};          \
		for (int i = 0; i < 4; i++)                                         \
			for (int j = 0; j < 4; j++)                                 \
				r.c[i][j] = ks_mul_##SN(z[i][j], rcp);              \
		return r;                                                           \
	}

#define KS_MATS(SN, ST, M2, M3, M4, M6, V2, V3, V4, V6)                              \
	KS_MAT(M2, 2, SN, ST, V2)                                                   \
	KS_MAT(M3, 3, SN, ST, V3)                                                   \
	KS_MAT(M4, 4, SN, ST, V4)                                                   \
	KS_MAT(M6, 6, SN, ST, V6)                                                   \
	KS_MAKE22(M2, ST)                                                           \
	KS_MAKE33(M3, ST)                                                           \
	KS_MAKE44(M4, ST)                                                           \
	KS_MAKE66(M6, ST)                                                           \
	KS_DET22(M2, SN, ST)                                                        \
	KS_DET33(M3, SN, ST, V3)                                                    \
	KS_DET44(M4, SN, ST)

KS_MATS(float, KS_REAL, mat22, mat33, mat44, spatial_matrix, vec2, vec3, vec4, spatial_vector)
KS_MATS(float16, ks_half, mat22h, mat33h, mat44h, spatial_matrixh, vec2h, vec3h, vec4h, spatial_vectorh)
KS_MATS(float64, double, mat22d, mat33d, mat44d, spatial_matrixd, vec2d, vec3d, vec4d, spatial_vectord)

/* More of every matrix: lerp, the tests, component-wise products,
 * ddot (the sum of the component products), trace, the diagonal as a
 * vector and a vector as a diagonal matrix, and the matrix of rows or of
 * columns (matrix_from_rows, matrix_from_cols; one function per size,
 * below). */
#define KS_MAT_MORE(MT, N, SN, ST, VT)                                              \
	KS_FUNC ks_##MT ks_lerp_##MT(ks_##MT a, ks_##MT b, ST t)                    \
	{                                                                           \
		ST s = ks_sub_##SN(ks_one_##SN(), t);                               \
		for (int i = 0; i < N; i++)                                         \
			for (int j = 0; j < N; j++)                                 \
				a.c[i][j] = ks_add_##SN(ks_mul_##SN(a.c[i][j], s), ks_mul_##SN(b.c[i][j], t)); \
		return a;                                                           \
	}                                                                           \
	KS_FUNC bool ks_isnan_##MT(ks_##MT a)                                       \
	{                                                                           \
		for (int i = 0; i < N; i++)                                         \
			if (ks_isnan_##VT(ks_row_##MT(a, i)))                       \
				return true;                                        \
		return false;                                                       \
	}                                                                           \
	KS_FUNC bool ks_isinf_##MT(ks_##MT a)                                       \
	{                                                                           \
		for (int i = 0; i < N; i++)                                         \
			if (ks_isinf_##VT(ks_row_##MT(a, i)))                       \
				return true;                                        \
		return false;                                                       \
	}                                                                           \
	KS_FUNC bool ks_isfinite_##MT(ks_##MT a)                                    \
	{                                                                           \
		for (int i = 0; i < N; i++)                                         \
			if (!ks_isfinite_##VT(ks_row_##MT(a, i)))                   \
				return false;                                       \
		return true;                                                        \
	}                                                                           \
	KS_FUNC ks_##MT ks_cw_mul_##MT(ks_##MT a, ks_##MT b)                        \
	{                                                                           \
		for (int i = 0; i < N; i++)                                         \
			for (int j = 0; j < N; j++)                                 \
				a.c[i][j] = ks_mul_##SN(a.c[i][j], b.c[i][j]);      \
		return a;                                                           \
	}                                                                           \
	KS_FUNC ks_##MT ks_cw_div_##MT(ks_##MT a, ks_##MT b)                        \
	{                                                                           \
		for (int i = 0; i < N; i++)                                         \
			for (int j = 0; j < N; j++)                                 \
				a.c[i][j] = ks_div_##SN(a.c[i][j], b.c[i][j]);      \
		return a;                                                           \
	}                                                                           \
	KS_FUNC ST ks_ddot_##MT(ks_##MT a, ks_##MT b)                               \
	{                                                                           \
		ST r = ks_zero_##SN();                                              \
		for (int i = 0; i < N; i++)                                         \
			for (int j = 0; j < N; j++)                                 \
				r = ks_add_##SN(r, ks_mul_##SN(a.c[i][j], b.c[i][j])); \
		return r;                                                           \
	}                                                                           \
	KS_FUNC ST ks_trace_##MT(ks_##MT a)                                         \
	{                                                                           \
		ST r = ks_zero_##SN();                                              \
		for (int i = 0; i < N; i++)                                         \
			r = ks_add_##SN(r, a.c[i][i]);                              \
		return r;                                                           \
	}                                                                           \
	KS_FUNC ks_##VT ks_get_diag_##MT(ks_##MT a)                                 \
	{                                                                           \
		ks_##VT r;                                                          \
		for (int i = 0; i < N; i++)                                         \
			r.c[i] = a.c[i][i];                                         \
		return r;                                                           \
	}                                                                           \
	KS_FUNC ks_##MT ks_diag_##VT(ks_##VT d)                                     \
	{                                                                           \
		ks_##MT r = ks_zero_##MT();                                         \
		for (int i = 0; i < N; i++)                                         \
			r.c[i][i] = d.c[i];                                         \
		return r;                                                           \
	}                                                                           \
	KS_FUNC ks_##MT ks_div_approx_##MT(ks_##MT a, ST s)                         \
	{                                                                           \
		for (int i = 0; i < N; i++)                                         \
			for (int j = 0; j < N; j++)                                 \
				a.c[i][j] = ks_div_approx_##SN(a.c[i][j], s);       \
		return a;                                                           \
	}                                                                           \
	KS_FUNC ks_##MT ks_div_approx_##SN##_##MT(ST s, ks_##MT b)                  \
	{                                                                           \
		for (int i = 0; i < N; i++)                                         \
			for (int j = 0; j < N; j++)                                 \
				b.c[i][j] = ks_div_approx_##SN(s, b.c[i][j]);       \
		return b;                                                           \
	}

/* inverse_approx: the inverse; its divisions are exact, which Warp's
 * approximate one allows */
#define KS_INVERSE_APPROX(MT) KS_FUNC ks_##MT ks_inverse_approx_##MT(ks_##MT a) { return ks_inverse_##MT(a); }

/* skew(v): the matrix of v x . (cross product with v) */
#define KS_SKEW(MT, SN, VT)                                                         \
	KS_FUNC ks_##MT ks_skew_##VT(ks_##VT v)                                     \
	{                                                                           \
		ks_##MT r = ks_zero_##MT();                                         \
		r.c[0][1] = ks_neg_##SN(v.c[2]), r.c[0][2] = v.c[1];                \
		r.c[1][0] = v.c[2], r.c[1][2] = ks_neg_##SN(v.c[0]);                \
		r.c[2][0] = ks_neg_##SN(v.c[1]), r.c[2][1] = v.c[0];                \
		return r;                                                           \
	}

/* ks_matrix_from_rows_VT and _cols_VT, named after the vector as every
 * builtin is after its first argument; the vectors are the arguments */
#define KS_FROM_VECS2(MT, VT)                                                       \
	KS_FUNC ks_##MT ks_matrix_from_rows_##VT(ks_##VT a, ks_##VT b)              \
	{                                                                           \
		ks_##VT v[2] = {a, b};                                              \
		ks_##MT r;                                                          \
		for (int i = 0; i < 2; i++)                                         \
			for (int j = 0; j < 2; j++)                                 \
				r.c[i][j] = v[i].c[j];                              \
		return r;                                                           \
	}                                                                           \
	KS_FUNC ks_##MT ks_matrix_from_cols_##VT(ks_##VT a, ks_##VT b)              \
	{                                                                           \
		ks_##VT v[2] = {a, b};                                              \
		ks_##MT r;                                                          \
		for (int i = 0; i < 2; i++)                                         \
			for (int j = 0; j < 2; j++)                                 \
				r.c[j][i] = v[i].c[j];                              \
		return r;                                                           \
	}
#define KS_FROM_VECS3(MT, VT)                                                       \
	KS_FUNC ks_##MT ks_matrix_from_rows_##VT(ks_##VT a, ks_##VT b, ks_##VT c)   \
	{                                                                           \
		ks_##VT v[3] = {a, b, c};                                           \
		ks_##MT r;                                                          \
		for (int i = 0; i < 3; i++)                                         \
			for (int j = 0; j < 3; j++)                                 \
				r.c[i][j] = v[i].c[j];                              \
		return r;                                                           \
	}                                                                           \
	KS_FUNC ks_##MT ks_matrix_from_cols_##VT(ks_##VT a, ks_##VT b, ks_##VT c)   \
	{                                                                           \
		ks_##VT v[3] = {a, b, c};                                           \
		ks_##MT r;                                                          \
		for (int i = 0; i < 3; i++)                                         \
			for (int j = 0; j < 3; j++)                                 \
				r.c[j][i] = v[i].c[j];                              \
		return r;                                                           \
	}
#define KS_FROM_VECS4(MT, VT)                                                       \
	KS_FUNC ks_##MT ks_matrix_from_rows_##VT(ks_##VT a, ks_##VT b, ks_##VT c, ks_##VT d) \
	{                                                                           \
		ks_##VT v[4] = {a, b, c, d};                                        \
		ks_##MT r;                                                          \
		for (int i = 0; i < 4; i++)                                         \
			for (int j = 0; j < 4; j++)                                 \
				r.c[i][j] = v[i].c[j];                              \
		return r;                                                           \
	}                                                                           \
	KS_FUNC ks_##MT ks_matrix_from_cols_##VT(ks_##VT a, ks_##VT b, ks_##VT c, ks_##VT d) \
	{                                                                           \
		ks_##VT v[4] = {a, b, c, d};                                        \
		ks_##MT r;                                                          \
		for (int i = 0; i < 4; i++)                                         \
			for (int j = 0; j < 4; j++)                                 \
				r.c[j][i] = v[i].c[j];                              \
		return r;                                                           \
	}

#define KS_MATS_MORE(SN, ST, M2, M3, M4, M6, V2, V3, V4, V6)                         \
	KS_MAT_MORE(M2, 2, SN, ST, V2)                                              \
	KS_MAT_MORE(M3, 3, SN, ST, V3)                                              \
	KS_MAT_MORE(M4, 4, SN, ST, V4)                                              \
	KS_MAT_MORE(M6, 6, SN, ST, V6)                                              \
	KS_INVERSE_APPROX(M2)                                                       \
	KS_INVERSE_APPROX(M3)                                                       \
	KS_INVERSE_APPROX(M4)                                                       \
	KS_SKEW(M3, SN, V3)                                                         \
	KS_FROM_VECS2(M2, V2)                                                       \
	KS_FROM_VECS3(M3, V3)                                                       \
	KS_FROM_VECS4(M4, V4)

KS_MATS_MORE(float, KS_REAL, mat22, mat33, mat44, spatial_matrix, vec2, vec3, vec4, spatial_vector)
KS_MATS_MORE(float16, ks_half, mat22h, mat33h, mat44h, spatial_matrixh, vec2h, vec3h, vec4h, spatial_vectorh)
KS_MATS_MORE(float64, double, mat22d, mat33d, mat44d, spatial_matrixd, vec2d, vec3d, vec4d, spatial_vectord)

/* Decompositions of small matrices (svd3, svd2, qr3, eig3) and their
 * adjoints.  The work is done on arrays of CT: KS_REAL for float32 and
 * float16 (a float16 matrix is widened first and its factors rounded
 * back), double for float64.  X names the variant (r: KS_REAL, d: double).
 *
 * eig3 diagonalizes the symmetric part (A + A^T) / 2 by cyclic Jacobi
 * rotations until the off-diagonal part is below EPS of the diagonal (at
 * most 16 sweeps): Q (det +1) and d, the eigenvalues in increasing order.
 * svd3 takes V from the eigenvectors of A^T A, orders the columns of A V
 * by decreasing length (a swap negates one column, so det V stays +1),
 * and factors A V = Q R by qr3: U = Q, sigma = the diagonal of R.  So
 * sigma decreases in magnitude, sigma[0] and sigma[1] are >= 0, and
 * sigma[2] has the sign of det A; U and V are rotations.  qr3 is
 * Gram-Schmidt on the columns: R[0][0] and R[1][1] are >= 0, the last
 * column of Q is the cross product of the first two (det Q = +1), so
 * R[2][2] carries the sign of det A.  A column that vanishes (below EPS of
 * A's norm) is replaced by a unit vector perpendicular to the ones before.
 * svd2: V is the rotation that diagonalizes A^T A with V[0][0] >= 0, the
 * singular values are >= 0, and U has the determinant's sign (+1 for a
 * singular A).
 *
 * The adjoints are the exact derivatives of these functions: for the
 * SVDs U (F o (U^T gU - gU^T U) S + diag(gs) + S (F o (V^T gV - gV^T V)))
 * V^T, F[i][j] = 1 / (s[j]^2 - s[i]^2) for i < j, the difference held
 * below -FEPS as Warp holds it (FEPS 1e-6, 1e-12 for float64); for qr3
 * (gQ + Q copyltu(R gR^T - gQ^T Q)) R^-T, zero where R is singular; for
 * eig3 the symmetric part of Q (diag(gd) + F o (Q^T gQ)) Q^T, F[i][j] =
 * 1 / (d[j] - d[i]), a difference closer to 0 than 1e-6 moved to +-1e-6. */
#if KS_DOUBLE_MODE
#define KS_REAL_EPS 2.220446049250313e-16
#else
#define KS_REAL_EPS 1.1920929e-7f
#endif

#define KS_DECOMP_CORE(X, CT, SQRT, ABS, EPS, FEPS)                                  \
	/* one Jacobi rotation in the plane (p, q): s = J^T s J, v = v J */       \
	KS_FUNC void ks_jacobi_rotate_##X(CT s[3][3], CT v[3][3], int p, int q)     \
	{                                                                           \
		if (s[p][q] == 0)                                                   \
			return;                                                     \
		CT theta = (s[q][q] - s[p][p]) / (2 * s[p][q]);                     \
		CT t = 1 / (ABS(theta) + SQRT(theta * theta + 1));                  \
		if (theta < 0)                                                      \
			t = -t;                                                     \
		CT c = 1 / SQRT(t * t + 1), sn = t * c;                             \
		for (int k = 0; k < 3; k++) {                                       \
			CT a = s[k][p], b = s[k][q];                                \
			s[k][p] = c * a - sn * b;                                   \
			s[k][q] = sn * a + c * b;                                   \
		}                                                                   \
		for (int k = 0; k < 3; k++) {                                       \
			CT a = s[p][k], b = s[q][k];                                \
			s[p][k] = c * a - sn * b;                                   \
			s[q][k] = sn * a + c * b;                                   \
		}                                                                   \
		s[p][q] = s[q][p] = 0;                                              \
		for (int k = 0; k < 3; k++) {                                       \
			CT a = v[k][p], b = v[k][q];                                \
			v[k][p] = c * a - sn * b;                                   \
			v[k][q] = sn * a + c * b;                                   \
		}                                                                   \
	}                                                                           \
	/* s symmetric becomes diagonal; v the rotation of its eigenvectors */    \
	KS_FUNC void ks_jacobi3_##X(CT s[3][3], CT v[3][3])                         \
	{                                                                           \
		for (int i = 0; i < 3; i++)                                         \
			for (int j = 0; j < 3; j++)                                 \
				v[i][j] = i == j;                                   \
		for (int sweep = 0; sweep < 16; sweep++) {                          \
			CT off = s[0][1] * s[0][1] + s[0][2] * s[0][2] + s[1][2] * s[1][2]; \
			CT diag = s[0][0] * s[0][0] + s[1][1] * s[1][1] + s[2][2] * s[2][2]; \
			if (!(off > EPS * EPS * diag))                              \
				break;                                              \
			ks_jacobi_rotate_##X(s, v, 0, 1);                           \
			ks_jacobi_rotate_##X(s, v, 0, 2);                           \
			ks_jacobi_rotate_##X(s, v, 1, 2);                           \
		}                                                                   \
	}                                                                           \
	/* swap columns i and j of m, negating one: the determinant stays */      \
	KS_FUNC void ks_swap_cols_##X(CT m[3][3], int i, int j)                     \
	{                                                                           \
		for (int k = 0; k < 3; k++) {                                       \
			CT t = m[k][i];                                             \
			m[k][i] = -m[k][j];                                         \
			m[k][j] = t;                                                \
		}                                                                   \
	}                                                                           \
	KS_FUNC CT ks_col_dot_##X(CT a[3][3], int i, CT b[3][3], int j)             \
	{                                                                           \
		return a[0][i] * b[0][j] + a[1][i] * b[1][j] + a[2][i] * b[2][j];   \
	}                                                                           \
	/* q = a Gram-Schmidt on the columns of a; r = q^T a, upper triangular */ \
	KS_FUNC void ks_qr3_core_##X(CT a[3][3], CT q[3][3], CT r[3][3])            \
	{                                                                           \
		CT tiny = 0;                                                        \
		for (int i = 0; i < 3; i++)                                         \
			for (int j = 0; j < 3; j++)                                 \
				tiny += a[i][j] * a[i][j];                          \
		tiny = EPS * SQRT(tiny);                                            \
		CT n0 = SQRT(ks_col_dot_##X(a, 0, a, 0));                           \
		for (int k = 0; k < 3; k++)                                         \
			q[k][0] = n0 > tiny ? a[k][0] / n0 : (CT)(k == 0);          \
		for (int k = 0; k < 3; k++)                                         \
			q[k][1] = a[k][1];                                          \
		for (int pass = 0; pass < 2; pass++) { /* twice: orthogonal */      \
			CT d = ks_col_dot_##X(q, 0, q, 1);                          \
			for (int k = 0; k < 3; k++)                                 \
				q[k][1] -= d * q[k][0];                             \
		}                                                                   \
		CT n1 = SQRT(ks_col_dot_##X(q, 1, q, 1));                           \
		if (n1 > tiny) {                                                    \
			for (int k = 0; k < 3; k++)                                 \
				q[k][1] /= n1;                                      \
		} else {                                                            \
			/* the axis least along q0, less its part along q0 */       \
			int m = 0;                                                  \
			for (int k = 1; k < 3; k++)                                 \
				if (ABS(q[k][0]) < ABS(q[m][0]))                    \
					m = k;                                      \
			for (int k = 0; k < 3; k++)                                 \
				q[k][1] = (CT)(k == m) - q[m][0] * q[k][0];         \
			n1 = SQRT(ks_col_dot_##X(q, 1, q, 1));                      \
			for (int k = 0; k < 3; k++)                                 \
				q[k][1] /= n1;                                      \
		}                                                                   \
		q[0][2] = q[1][0] * q[2][1] - q[2][0] * q[1][1];                    \
		q[1][2] = q[2][0] * q[0][1] - q[0][0] * q[2][1];                    \
		q[2][2] = q[0][0] * q[1][1] - q[1][0] * q[0][1];                    \
		for (int i = 0; i < 3; i++)                                         \
			for (int j = 0; j < 3; j++)                                 \
				r[i][j] = j < i ? 0 : ks_col_dot_##X(q, i, a, j);   \
	}                                                                           \
	KS_FUNC void ks_svd3_core_##X(CT a[3][3], CT u[3][3], CT s[3], CT v[3][3])  \
	{                                                                           \
		CT ata[3][3], b[3][3], r[3][3], rho[3];                             \
		for (int i = 0; i < 3; i++)                                         \
			for (int j = 0; j < 3; j++)                                 \
				ata[i][j] = ks_col_dot_##X(a, i, a, j);             \
		ks_jacobi3_##X(ata, v);                                             \
		for (int i = 0; i < 3; i++)                                         \
			for (int j = 0; j < 3; j++)                                 \
				b[i][j] = a[i][0] * v[0][j] + a[i][1] * v[1][j] + a[i][2] * v[2][j]; \
		for (int j = 0; j < 3; j++)                                         \
			rho[j] = ks_col_dot_##X(b, j, b, j);                        \
		for (int i = 0; i < 2; i++)                                         \
			for (int j = i + 1; j < 3; j++)                             \
				if (rho[i] < rho[j]) {                              \
					CT t = rho[i];                              \
					rho[i] = rho[j], rho[j] = t;                \
					ks_swap_cols_##X(b, i, j);                  \
					ks_swap_cols_##X(v, i, j);                  \
				}                                                   \
		ks_qr3_core_##X(b, u, r);                                           \
		for (int k = 0; k < 3; k++)                                         \
			s[k] = r[k][k];                                             \
	}                                                                           \
	KS_FUNC void ks_eig3_core_##X(CT a[3][3], CT q[3][3], CT d[3])              \
	{                                                                           \
		CT s[3][3];                                                         \
		for (int i = 0; i < 3; i++)                                         \
			for (int j = 0; j < 3; j++)                                 \
				s[i][j] = (a[i][j] + a[j][i]) / 2;                  \
		ks_jacobi3_##X(s, q);                                               \
		for (int k = 0; k < 3; k++)                                         \
			d[k] = s[k][k];                                             \
		for (int i = 0; i < 2; i++)                                         \
			for (int j = i + 1; j < 3; j++)                             \
				if (d[j] < d[i]) {                                  \
					CT t = d[i];                                \
					d[i] = d[j], d[j] = t;                      \
					ks_swap_cols_##X(q, i, j);                  \
				}                                                   \
	}                                                                           \
	/* 2x2 in the top-left corner of 3x3 arrays */                            \
	KS_FUNC void ks_svd2_core_##X(CT a[3][3], CT u[3][3], CT s[3], CT v[3][3])  \
	{                                                                           \
		CT ata[3][3] = {{0}}, b[3][3] = {{0}};                              \
		for (int i = 0; i < 2; i++)                                         \
			for (int j = 0; j < 2; j++)                                 \
				ata[i][j] = a[0][i] * a[0][j] + a[1][i] * a[1][j];  \
		for (int i = 0; i < 3; i++)                                         \
			for (int j = 0; j < 3; j++)                                 \
				v[i][j] = u[i][j] = i == j;                         \
		ks_jacobi_rotate_##X(ata, v, 0, 1);                                 \
		if (ata[0][0] < ata[1][1])                                          \
			ks_swap_cols_##X(v, 0, 1);                                  \
		if (v[0][0] < 0 || (v[0][0] == 0 && v[1][0] < 0))                   \
			for (int i = 0; i < 2; i++)                                 \
				for (int j = 0; j < 2; j++)                         \
					v[i][j] = -v[i][j];                         \
		for (int i = 0; i < 2; i++)                                         \
			for (int j = 0; j < 2; j++)                                 \
				b[i][j] = a[i][0] * v[0][j] + a[i][1] * v[1][j];    \
		CT tiny = EPS * SQRT(a[0][0] * a[0][0] + a[0][1] * a[0][1] + a[1][0] * a[1][0] + a[1][1] * a[1][1]); \
		CT n0 = SQRT(b[0][0] * b[0][0] + b[1][0] * b[1][0]);                \
		if (n0 > tiny)                                                      \
			u[0][0] = b[0][0] / n0, u[1][0] = b[1][0] / n0;             \
		CT sg = a[0][0] * a[1][1] - a[0][1] * a[1][0] < 0 ? -1 : 1;         \
		u[0][1] = -sg * u[1][0];                                            \
		u[1][1] = sg * u[0][0];                                             \
		s[0] = u[0][0] * b[0][0] + u[1][0] * b[1][0];                       \
		s[1] = u[0][1] * b[0][1] + u[1][1] * b[1][1];                       \
		s[2] = 0;                                                           \
	}                                                                           \
	/* the adjoint of svd3 (n 3) and svd2 (n 2: the top-left corners) */       \
	KS_FUNC void ks_adj_svd_core_##X(int n, CT u[3][3], CT s[3], CT v[3][3], CT gu[3][3], \
					 CT gs[3], CT gv[3][3], CT ga[3][3])        \
	{                                                                           \
		CT f[3][3], m[3][3], w[3][3];                                       \
		for (int i = 0; i < n; i++) {                                       \
			f[i][i] = 0;                                                \
			for (int j = i + 1; j < n; j++) {                           \
				CT d = s[j] * s[j] - s[i] * s[i];                   \
				d = d < -(CT)FEPS ? d : -(CT)FEPS;                  \
				f[i][j] = 1 / d;                                    \
				f[j][i] = -1 / d;                                   \
			}                                                           \
		}                                                                   \
		for (int i = 0; i < n; i++)                                         \
			for (int j = 0; j < n; j++) {                               \
				CT ku = 0, kv = 0;                                  \
				for (int k = 0; k < n; k++) {                       \
					ku += u[k][i] * gu[k][j] - gu[k][i] * u[k][j]; \
					kv += v[k][i] * gv[k][j] - gv[k][i] * v[k][j]; \
				}                                                   \
				m[i][j] = f[i][j] * ku * s[j] + s[i] * f[i][j] * kv + (i == j ? gs[i] : 0); \
			}                                                           \
		for (int i = 0; i < n; i++) /* w = u m */                           \
			for (int j = 0; j < n; j++) {                               \
				w[i][j] = 0;                                        \
				for (int k = 0; k < n; k++)                         \
					w[i][j] += u[i][k] * m[k][j];               \
			}                                                           \
		for (int i = 0; i < n; i++) /* ga = w v^T */                        \
			for (int j = 0; j < n; j++) {                               \
				ga[i][j] = 0;                                       \
				for (int k = 0; k < n; k++)                         \
					ga[i][j] += w[i][k] * v[j][k];              \
			}                                                           \
	}                                                                           \
	KS_FUNC void ks_adj_qr3_core_##X(CT q[3][3], CT r[3][3], CT gq[3][3], CT gr[3][3], \
					 CT ga[3][3])                               \
	{                                                                           \
		CT m[3][3], x[3][3], ri[3][3] = {{0}};                              \
		CT det = r[0][0] * r[1][1] * r[2][2];                               \
		for (int i = 0; i < 3; i++)                                         \
			for (int j = 0; j < 3; j++) {                               \
				m[i][j] = 0;                                        \
				for (int k = 0; k < 3; k++)                         \
					m[i][j] += r[i][k] * gr[j][k] - gq[k][i] * q[k][j]; \
			}                                                           \
		for (int i = 0; i < 3; i++) /* x = gq + q copyltu(m) */             \
			for (int j = 0; j < 3; j++) {                               \
				x[i][j] = gq[i][j];                                 \
				for (int k = 0; k < 3; k++)                         \
					x[i][j] += q[i][k] * (k > j ? m[k][j] : m[j][k]); \
			}                                                           \
		if (det == 0) {                                                     \
			for (int i = 0; i < 3; i++)                                 \
				for (int j = 0; j < 3; j++)                         \
					ga[i][j] = 0;                               \
			return;                                                     \
		}                                                                   \
		/* the inverse of the upper triangular r */                        \
		ri[0][0] = 1 / r[0][0], ri[1][1] = 1 / r[1][1], ri[2][2] = 1 / r[2][2]; \
		ri[0][1] = -r[0][1] / (r[0][0] * r[1][1]);                          \
		ri[1][2] = -r[1][2] / (r[1][1] * r[2][2]);                          \
		ri[0][2] = (r[0][1] * r[1][2] - r[0][2] * r[1][1]) / det;          \
		for (int i = 0; i < 3; i++) /* ga = x ri^T */                       \
			for (int j = 0; j < 3; j++) {                               \
				ga[i][j] = 0;                                       \
				for (int k = 0; k < 3; k++)                         \
					ga[i][j] += x[i][k] * ri[j][k];             \
			}                                                           \
	}                                                                           \
	KS_FUNC void ks_adj_eig3_core_##X(CT q[3][3], CT d[3], CT gq[3][3], CT gd[3], CT ga[3][3]) \
	{                                                                           \
		CT m[3][3], w[3][3], g[3][3];                                       \
		for (int i = 0; i < 3; i++)                                         \
			for (int j = 0; j < 3; j++) {                               \
				CT qg = 0, e = d[j] - d[i];                         \
				for (int k = 0; k < 3; k++)                         \
					qg += q[k][i] * gq[k][j];                   \
				if (ABS(e) < (CT)1e-6)                              \
					e = e < 0 ? (CT)-1e-6 : (CT)1e-6;           \
				m[i][j] = i == j ? gd[i] : qg / e;                  \
			}                                                           \
		for (int i = 0; i < 3; i++)                                         \
			for (int j = 0; j < 3; j++) {                               \
				w[i][j] = 0;                                        \
				for (int k = 0; k < 3; k++)                         \
					w[i][j] += q[i][k] * m[k][j];               \
			}                                                           \
		for (int i = 0; i < 3; i++)                                         \
			for (int j = 0; j < 3; j++) {                               \
				g[i][j] = 0;                                        \
				for (int k = 0; k < 3; k++)                         \
					g[i][j] += w[i][k] * q[j][k];               \
			}                                                           \
		for (int i = 0; i < 3; i++)                                         \
			for (int j = 0; j < 3; j++)                                 \
				ga[i][j] = (g[i][j] + g[j][i]) / 2;                 \
	}

KS_DECOMP_CORE(r, KS_REAL, sqrtf, fabsf, KS_REAL_EPS, 1e-6)
KS_DECOMP_CORE(d, double, sqrt, fabs, 2.220446049250313e-16, 1e-12)

/* The builtins of one float type: ST to CT by TO, back by FROM. */
#define KS_DECOMP_IN(n, dst, src, TO)                                               \
	for (int i = 0; i < n; i++)                                                 \
		for (int j = 0; j < n; j++)                                         \
			dst[i][j] = TO(src.c[i][j]);
#define KS_DECOMP_OUT(n, dst, src, FROM)                                            \
	for (int i = 0; i < n; i++)                                                 \
		for (int j = 0; j < n; j++)                                         \
			dst.c[i][j] = FROM(src[i][j]);
#define KS_DECOMP(M2, V2, M3, V3, X, CT, TO, FROM)                                   \
	KS_FUNC void ks_svd3_##M3(ks_##M3 A, ks_##M3 *U, ks_##V3 *sigma, ks_##M3 *V)  \
	{                                                                           \
		CT a[3][3], u[3][3], s[3], v[3][3];                                 \
		KS_DECOMP_IN(3, a, A, TO)                                           \
		ks_svd3_core_##X(a, u, s, v);                                       \
		KS_DECOMP_OUT(3, (*U), u, FROM)                                     \
		KS_DECOMP_OUT(3, (*V), v, FROM)                                     \
		for (int k = 0; k < 3; k++)                                         \
			sigma->c[k] = FROM(s[k]);                                   \
	}                                                                           \
	KS_FUNC void ks_svd2_##M2(ks_##M2 A, ks_##M2 *U, ks_##V2 *sigma, ks_##M2 *V)  \
	{                                                                           \
		CT a[3][3] = {{0}}, u[3][3], s[3], v[3][3];                         \
		KS_DECOMP_IN(2, a, A, TO)                                           \
		ks_svd2_core_##X(a, u, s, v);                                       \
		KS_DECOMP_OUT(2, (*U), u, FROM)                                     \
		KS_DECOMP_OUT(2, (*V), v, FROM)                                     \
		for (int k = 0; k < 2; k++)                                         \
			sigma->c[k] = FROM(s[k]);                                   \
	}                                                                           \
	KS_FUNC void ks_qr3_##M3(ks_##M3 A, ks_##M3 *Q, ks_##M3 *R)                 \
	{                                                                           \
		CT a[3][3], q[3][3], r[3][3];                                       \
		KS_DECOMP_IN(3, a, A, TO)                                           \
		ks_qr3_core_##X(a, q, r);                                           \
		KS_DECOMP_OUT(3, (*Q), q, FROM)                                     \
		KS_DECOMP_OUT(3, (*R), r, FROM)                                     \
	}                                                                           \
	KS_FUNC void ks_eig3_##M3(ks_##M3 A, ks_##M3 *Q, ks_##V3 *d)                \
	{                                                                           \
		CT a[3][3], q[3][3], e[3];                                          \
		KS_DECOMP_IN(3, a, A, TO)                                           \
		ks_eig3_core_##X(a, q, e);                                          \
		KS_DECOMP_OUT(3, (*Q), q, FROM)                                     \
		for (int k = 0; k < 3; k++)                                         \
			d->c[k] = FROM(e[k]);                                       \
	}                                                                           \
	KS_FUNC ks_##M3 ks_adj_svd3_##M3(ks_##M3 A, ks_##M3 U, ks_##V3 sigma, ks_##M3 V, \
					 ks_##M3 gU, ks_##V3 gsigma, ks_##M3 gV)    \
	{                                                                           \
		CT u[3][3], v[3][3], gu[3][3], gv[3][3], s[3], gs[3], ga[3][3];     \
		ks_##M3 r;                                                          \
		(void)A;                                                            \
		KS_DECOMP_IN(3, u, U, TO)                                           \
		KS_DECOMP_IN(3, v, V, TO)                                           \
		KS_DECOMP_IN(3, gu, gU, TO)                                         \
		KS_DECOMP_IN(3, gv, gV, TO)                                         \
		for (int k = 0; k < 3; k++)                                         \
			s[k] = TO(sigma.c[k]), gs[k] = TO(gsigma.c[k]);             \
		ks_adj_svd_core_##X(3, u, s, v, gu, gs, gv, ga);                    \
		KS_DECOMP_OUT(3, r, ga, FROM)                                       \
		return r;                                                           \
	}                                                                           \
	KS_FUNC ks_##M2 ks_adj_svd2_##M2(ks_##M2 A, ks_##M2 U, ks_##V2 sigma, ks_##M2 V, \
					 ks_##M2 gU, ks_##V2 gsigma, ks_##M2 gV)    \
	{                                                                           \
		CT u[3][3], v[3][3], gu[3][3], gv[3][3], s[3], gs[3], ga[3][3];     \
		ks_##M2 r;                                                          \
		(void)A;                                                            \
		KS_DECOMP_IN(2, u, U, TO)                                           \
		KS_DECOMP_IN(2, v, V, TO)                                           \
		KS_DECOMP_IN(2, gu, gU, TO)                                         \
		KS_DECOMP_IN(2, gv, gV, TO)                                         \
		for (int k = 0; k < 2; k++)                                         \
			s[k] = TO(sigma.c[k]), gs[k] = TO(gsigma.c[k]);             \
		ks_adj_svd_core_##X(2, u, s, v, gu, gs, gv, ga);                    \
		KS_DECOMP_OUT(2, r, ga, FROM)                                       \
		return r;                                                           \
	}                                                                           \
	KS_FUNC ks_##M3 ks_adj_qr3_##M3(ks_##M3 A, ks_##M3 Q, ks_##M3 R, ks_##M3 gQ, ks_##M3 gR) \
	{                                                                           \
		CT q[3][3], rr[3][3], gq[3][3], gr[3][3], ga[3][3];                 \
		ks_##M3 r;                                                          \
		(void)A;                                                            \
		KS_DECOMP_IN(3, q, Q, TO)                                           \
		KS_DECOMP_IN(3, rr, R, TO)                                          \
		KS_DECOMP_IN(3, gq, gQ, TO)                                         \
		KS_DECOMP_IN(3, gr, gR, TO)                                         \
		ks_adj_qr3_core_##X(q, rr, gq, gr, ga);                             \
		KS_DECOMP_OUT(3, r, ga, FROM)                                       \
		return r;                                                           \
	}                                                                           \
	KS_FUNC ks_##M3 ks_adj_eig3_##M3(ks_##M3 A, ks_##M3 Q, ks_##V3 d, ks_##M3 gQ, ks_##V3 gd) \
	{                                                                           \
		CT q[3][3], gq[3][3], e[3], ge[3], ga[3][3];                        \
		ks_##M3 r;                                                          \
		(void)A;                                                            \
		KS_DECOMP_IN(3, q, Q, TO)                                           \
		KS_DECOMP_IN(3, gq, gQ, TO)                                         \
		for (int k = 0; k < 3; k++)                                         \
			e[k] = TO(d.c[k]), ge[k] = TO(gd.c[k]);                     \
		ks_adj_eig3_core_##X(q, e, gq, ge, ga);                             \
		KS_DECOMP_OUT(3, r, ga, FROM)                                       \
		return r;                                                           \
	}

#define KS_SAME(x) (x)
KS_DECOMP(mat22, vec2, mat33, vec3, r, KS_REAL, KS_SAME, KS_SAME)
KS_DECOMP(mat22h, vec2h, mat33h, vec3h, r, KS_REAL, KS_H, KS_HALF)
KS_DECOMP(mat22d, vec2d, mat33d, vec3d, d, double, KS_SAME, KS_SAME)

/* ---- quaternions and transforms ------------------------------------------- */

/* A quaternion is (x, y, z, w), w the real part; a transform is a
 * position p (c[0..2]) and a rotation q (c[3..6]), as Warp lays them
 * out.  Products follow Warp's formulas (quat.h, spatial.h). */
#define KS_QUAT(QT, XT, SN, ST, V3)                                                 \
	typedef struct { ST c[4]; } ks_##QT;                                        \
	typedef struct { ST c[7]; } ks_##XT;                                        \
	KS_MAKE4(QT, ST)                                                            \
	KS_FUNC ks_##QT ks_zero_##QT(void) { return ks_make_##QT(ks_zero_##SN(), ks_zero_##SN(), ks_zero_##SN(), ks_zero_##SN()); } \
	KS_FUNC ks_##QT ks_fill_##QT(ST s) { return ks_make_##QT(s, s, s, s); }     \
	KS_FUNC ks_##QT ks_insert_##QT(ks_##QT q, int k, ST s)                      \
	{                                                                           \
		q.c[k] = s;                                                         \
		return q;                                                           \
	}                                                                           \
	KS_CW1(ks_##QT, ks_neg_##QT, 4, ks_neg_##SN)                                \
	KS_CW2(ks_##QT, ks_add_##QT, 4, ks_add_##SN)                                \
	KS_CW2(ks_##QT, ks_sub_##QT, 4, ks_sub_##SN)                                \
	KS_CWS(ks_##QT, ks_mul_##QT##_##SN, 4, ST, ks_mul_##SN)                     \
	KS_CSW(ks_##QT, ks_mul_##SN##_##QT, 4, ST, ks_mul_##SN)                     \
	KS_CWS(ks_##QT, ks_div_##QT##_##SN, 4, ST, ks_div_##SN)                     \
	/* a*b + c*d + e*f - g*h, left to right */                                  \
	KS_FUNC ST ks_ppm_##SN(ST a, ST b, ST c, ST d, ST e, ST f, ST g, ST h)      \
	{                                                                           \
		return ks_sub_##SN(ks_add_##SN(ks_add_##SN(ks_mul_##SN(a, b), ks_mul_##SN(c, d)), \
					       ks_mul_##SN(e, f)),                  \
				   ks_mul_##SN(g, h));                              \
	}                                                                           \
	KS_FUNC ks_##QT ks_mul_##QT##_##QT(ks_##QT a, ks_##QT b)                    \
	{                                                                           \
		return ks_make_##QT(                                                \
			ks_ppm_##SN(a.c[3], b.c[0], b.c[3], a.c[0], a.c[1], b.c[2], b.c[1], a.c[2]), \
			ks_ppm_##SN(a.c[3], b.c[1], b.c[3], a.c[1], a.c[2], b.c[0], b.c[2], a.c[0]), \
			ks_ppm_##SN(a.c[3], b.c[2], b.c[3], a.c[2], a.c[0], b.c[1], b.c[0], a.c[1]), \
			ks_sub_##SN(ks_sub_##SN(ks_sub_##SN(ks_mul_##SN(a.c[3], b.c[3]),  \
							    ks_mul_##SN(a.c[0], b.c[0])), \
						ks_mul_##SN(a.c[1], b.c[1])),       \
				    ks_mul_##SN(a.c[2], b.c[2])));                  \
	}                                                                           \
	KS_FUNC bool ks_eq_##QT(ks_##QT a, ks_##QT b)                               \
	{                                                                           \
		for (int i = 0; i < 4; i++)                                         \
			if (!ks_eq_##SN(a.c[i], b.c[i]))                            \
				return false;                                       \
		return true;                                                        \
	}                                                                           \
	KS_FUNC bool ks_ne_##QT(ks_##QT a, ks_##QT b) { return !ks_eq_##QT(a, b); } \
	/* q x q^-1 for a unit q (Warp's quat_rotate) */                            \
	KS_FUNC ks_##V3 ks_quat_rotate_##QT(ks_##QT q, ks_##V3 x)                   \
	{                                                                           \
		ST two = ks_add_##SN(ks_one_##SN(), ks_one_##SN());                 \
		ST c = ks_sub_##SN(ks_mul_##SN(ks_mul_##SN(two, q.c[3]), q.c[3]), ks_one_##SN()); \
		ST d = ks_mul_##SN(two, ks_add_##SN(ks_add_##SN(ks_mul_##SN(q.c[0], x.c[0]), \
								  ks_mul_##SN(q.c[1], x.c[1])), \
						    ks_mul_##SN(q.c[2], x.c[2])));  \
		ks_##V3 r;                                                          \
		for (int i = 0; i < 3; i++) {                                       \
			int j = (i + 1) % 3, k = (i + 2) % 3;                       \
			ST s = ks_sub_##SN(ks_mul_##SN(q.c[j], x.c[k]), ks_mul_##SN(q.c[k], x.c[j])); \
			r.c[i] = ks_add_##SN(ks_add_##SN(ks_mul_##SN(x.c[i], c), ks_mul_##SN(q.c[i], d)), \
					     ks_mul_##SN(ks_mul_##SN(s, q.c[3]), two)); \
		}                                                                   \
		return r;                                                           \
	}                                                                           \
	KS_FUNC ks_##XT ks_make_##XT(ks_##V3 p, ks_##QT q)                          \
	{                                                                           \
		ks_##XT t;                                                          \
		for (int i = 0; i < 3; i++)                                         \
			t.c[i] = p.c[i];                                            \
		for (int i = 0; i < 4; i++)                                         \
			t.c[3 + i] = q.c[i];                                        \
		return t;                                                           \
	}                                                                           \
	KS_FUNC ks_##V3 ks_transform_p_##XT(ks_##XT t) { return ks_make_##V3(t.c[0], t.c[1], t.c[2]); } \
	KS_FUNC ks_##QT ks_transform_q_##XT(ks_##XT t) { return ks_make_##QT(t.c[3], t.c[4], t.c[5], t.c[6]); } \
	KS_FUNC ks_##XT ks_zero_##XT(void)                                          \
	{                                                                           \
		ks_##XT t;                                                          \
		for (int i = 0; i < 7; i++)                                         \
			t.c[i] = ks_zero_##SN();                                    \
		return t;                                                           \
	}                                                                           \
	KS_FUNC ks_##XT ks_fill_##XT(ST s)                                          \
	{                                                                           \
		ks_##XT t;                                                          \
		for (int i = 0; i < 7; i++)                                         \
			t.c[i] = s;                                                 \
		return t;                                                           \
	}                                                                           \
	KS_FUNC ks_##XT ks_insert_##XT(ks_##XT t, int k, ST s)                      \
	{                                                                           \
		t.c[k] = s;                                                         \
		return t;                                                           \
	}                                                                           \
	KS_CW2(ks_##XT, ks_add_##XT, 7, ks_add_##SN)                                \
	KS_CW2(ks_##XT, ks_sub_##XT, 7, ks_sub_##SN)                                \
	KS_CWS(ks_##XT, ks_mul_##XT##_##SN, 7, ST, ks_mul_##SN)                     \
	KS_CSW(ks_##XT, ks_mul_##SN##_##XT, 7, ST, ks_mul_##SN)                     \
	/* a * b: b's position rotated by a's rotation plus a's position, the   \
	 * rotations multiplied */                                                  \
	KS_FUNC ks_##XT ks_mul_##XT##_##XT(ks_##XT a, ks_##XT b)                    \
	{                                                                           \
		ks_##QT qa = ks_transform_q_##XT(a);                                \
		return ks_make_##XT(ks_add_##V3(ks_quat_rotate_##QT(qa, ks_transform_p_##XT(b)), \
						ks_transform_p_##XT(a)),            \
				    ks_mul_##QT##_##QT(qa, ks_transform_q_##XT(b))); \
	}                                                                           \
	KS_FUNC bool ks_eq_##XT(ks_##XT a, ks_##XT b)                               \
	{                                                                           \
		for (int i = 0; i < 7; i++)                                         \
			if (!ks_eq_##SN(a.c[i], b.c[i]))                            \
				return false;                                       \
		return true;                                                        \
	}                                                                           \
	KS_FUNC bool ks_ne_##XT(ks_##XT a, ks_##XT b) { return !ks_eq_##XT(a, b); }

KS_QUAT(quat, transform, float, KS_REAL, vec3)
KS_QUAT(quath, transformh, float16, ks_half, vec3h)
KS_QUAT(quatd, transformd, float64, double, vec3d)

/* The quaternion, transform and spatial builtins of ir/builtins.h, in
 * Warp's formulas and order of operations, and the helpers their
 * derivative rules call: ks_adj_<builtin>_<param>_<type> is the adjoint
 * contribution to the parameter <param> of <builtin>, given the
 * arguments and g, the adjoint of the result (doc/autodiff.md).  QT, XT:
 * the quaternion and transform; V3, V6, M3, M4, M6: the vectors and
 * matrices of the same scalar SN (C type ST). */
#define KS_QUAT_MATH(QT, XT, SN, ST, V3, M3, M4, V6, M6)                            \
	KS_FUNC ST ks_dot_##QT(ks_##QT a, ks_##QT b)                                \
	{                                                                           \
		ST r = ks_mul_##SN(a.c[0], b.c[0]);                                 \
		for (int i = 1; i < 4; i++)                                         \
			r = ks_add_##SN(r, ks_mul_##SN(a.c[i], b.c[i]));            \
		return r;                                                           \
	}                                                                           \
	KS_FUNC ST ks_length_sq_##QT(ks_##QT a) { return ks_dot_##QT(a, a); }       \
	KS_FUNC ST ks_length_##QT(ks_##QT a) { return ks_sqrt_##SN(ks_dot_##QT(a, a)); } \
	KS_FUNC ks_##QT ks_quat_identity_##SN(void)                                 \
	{                                                                           \
		return ks_make_##QT(ks_zero_##SN(), ks_zero_##SN(), ks_zero_##SN(), ks_one_##SN()); \
	}                                                                           \
	/* a quaternion of length 0 normalizes to the identity (Warp) */            \
	KS_FUNC ks_##QT ks_normalize_##QT(ks_##QT q)                                \
	{                                                                           \
		ST l = ks_length_##QT(q);                                           \
		if (!ks_gt_##SN(l, ks_zero_##SN()))                                 \
			return ks_quat_identity_##SN();                             \
		return ks_mul_##QT##_##SN(q, ks_div_##SN(ks_one_##SN(), l));        \
	}                                                                           \
	KS_CSW(ks_##QT, ks_div_##SN##_##QT, 4, ST, ks_div_##SN)                     \
	KS_FUNC ks_##QT ks_quat_inverse_##QT(ks_##QT q)                             \
	{                                                                           \
		return ks_make_##QT(ks_neg_##SN(q.c[0]), ks_neg_##SN(q.c[1]), ks_neg_##SN(q.c[2]), q.c[3]); \
	}                                                                           \
	KS_FUNC ks_##V3 ks_quat_vec_##QT(ks_##QT q) { return ks_make_##V3(q.c[0], q.c[1], q.c[2]); } \
	KS_FUNC ks_##QT ks_make_##QT##_##V3(ks_##V3 v, ST w) { return ks_make_##QT(v.c[0], v.c[1], v.c[2], w); } \
	/* q^-1 x q for a unit q: quat_rotate with the sign of its cross term   \
	 * turned, which is quat_rotate of quat_inverse(q) */                       \
	KS_FUNC ks_##V3 ks_quat_rotate_inv_##QT(ks_##QT q, ks_##V3 x)               \
	{                                                                           \
		return ks_quat_rotate_##QT(ks_quat_inverse_##QT(q), x);             \
	}                                                                           \
	KS_FUNC ks_##QT ks_quat_from_axis_angle_##V3(ks_##V3 axis, ST angle)        \
	{                                                                           \
		ST half = ks_mul_##SN(angle, ks_to_##SN##_float(0.5f));             \
		return ks_make_##QT##_##V3(ks_mul_##V3##_##SN(axis, ks_sin_##SN(half)), ks_cos_##SN(half)); \
	}                                                                           \
	/* quat_to_axis_angle's two results: the axis turned so that the angle \
	 * is in [0, pi] (the identity gives the zero axis and angle 0) */         \
	KS_FUNC ks_##V3 ks_quat_axis_##QT(ks_##QT q)                                \
	{                                                                           \
		ks_##V3 n = ks_normalize_##V3(ks_quat_vec_##QT(q));                 \
		return ks_lt_##SN(q.c[3], ks_zero_##SN()) ? ks_neg_##V3(n) : n;     \
	}                                                                           \
	KS_FUNC ST ks_quat_angle_##QT(ks_##QT q)                                    \
	{                                                                           \
		ST two = ks_to_##SN##_float(2.0f);                                  \
		return ks_mul_##SN(two, ks_atan2_##SN(ks_length_##V3(ks_quat_vec_##QT(q)), ks_abs_##SN(q.c[3]))); \
	}                                                                           \
	KS_FUNC ks_##QT ks_quat_rpy_##SN(ST roll, ST pitch, ST yaw)                 \
	{                                                                           \
		ST h = ks_to_##SN##_float(0.5f);                                    \
		ST cy = ks_cos_##SN(ks_mul_##SN(yaw, h)), sy = ks_sin_##SN(ks_mul_##SN(yaw, h)); \
		ST cr = ks_cos_##SN(ks_mul_##SN(roll, h)), sr = ks_sin_##SN(ks_mul_##SN(roll, h)); \
		ST cp = ks_cos_##SN(ks_mul_##SN(pitch, h)), sp = ks_sin_##SN(ks_mul_##SN(pitch, h)); \
		return ks_make_##QT(                                                \
			ks_sub_##SN(ks_mul_##SN(ks_mul_##SN(cy, sr), cp), ks_mul_##SN(ks_mul_##SN(sy, cr), sp)), \
			ks_add_##SN(ks_mul_##SN(ks_mul_##SN(cy, cr), sp), ks_mul_##SN(ks_mul_##SN(sy, sr), cp)), \
			ks_sub_##SN(ks_mul_##SN(ks_mul_##SN(sy, cr), cp), ks_mul_##SN(ks_mul_##SN(cy, sr), sp)), \
			ks_add_##SN(ks_mul_##SN(ks_mul_##SN(cy, cr), cp), ks_mul_##SN(ks_mul_##SN(sy, sr), sp))); \
	}                                                                           \
	/* the unit vector along axis k */                                          \
	KS_FUNC ks_##V3 ks_unit_##V3(int k)                                         \
	{                                                                           \
		ks_##V3 e = ks_zero_##V3();                                         \
		e.c[k] = ks_one_##SN();                                             \
		return e;                                                           \
	}                                                                           \
	/* column j: the rotation of the j-th unit vector */                        \
	KS_FUNC ks_##M3 ks_quat_to_matrix_##QT(ks_##QT q)                           \
	{                                                                           \
		ks_##M3 m;                                                          \
		for (int j = 0; j < 3; j++) {                                       \
			ks_##V3 c = ks_quat_rotate_##QT(q, ks_unit_##V3(j));        \
			for (int i = 0; i < 3; i++)                                 \
				m.c[i][j] = c.c[i];                                 \
		}                                                                   \
		return m;                                                           \
	}                                                                           \
	/* The rotation of a matrix (its upper 3x3), unnormalized: from the     \
	 * trace when it is not negative, else from the largest diagonal entry  \
	 * d, with i, j the other two axes in cyclic order (Warp's branches). */ \
	KS_FUNC int ks_quat_branch_##M3(const ks_##M3 *m)                           \
	{                                                                           \
		ST tr = ks_add_##SN(ks_add_##SN(m->c[0][0], m->c[1][1]), m->c[2][2]); \
		int d = 0;                                                          \
		if (ks_ge_##SN(tr, ks_zero_##SN()))                                 \
			return 3;                                                   \
		if (ks_gt_##SN(m->c[1][1], m->c[0][0]))                             \
			d = 1;                                                      \
		if (ks_gt_##SN(m->c[2][2], m->c[d][d]))                             \
			d = 2;                                                      \
		return d;                                                           \
	}                                                                           \
	KS_FUNC ks_##QT ks_quat_of_rotation_##M3(ks_##M3 m)                         \
	{                                                                           \
		int d = ks_quat_branch_##M3(&m);                                    \
		ST half = ks_to_##SN##_float(0.5f), h, s;                           \
		ks_##QT u;                                                          \
		if (d == 3) {                                                       \
			s = ks_add_##SN(ks_add_##SN(m.c[0][0], m.c[1][1]), m.c[2][2]); \
		} else {                                                            \
			int i = (d + 1) % 3, j = (d + 2) % 3;                       \
			s = ks_sub_##SN(m.c[d][d], ks_add_##SN(m.c[i][i], m.c[j][j])); \
		}                                                                   \
		h = ks_sqrt_##SN(ks_add_##SN(s, ks_one_##SN()));                    \
		u.c[d] = ks_mul_##SN(half, h);                                      \
		h = ks_div_##SN(half, h);                                           \
		for (int k = 0; k < 3; k++) {                                       \
			int i = (k + 1) % 3, j = (k + 2) % 3;                       \
			if (k == d)                                                 \
				continue;                                           \
			if (d == 3)                                                 \
				u.c[k] = ks_mul_##SN(ks_sub_##SN(m.c[j][i], m.c[i][j]), h); \
			else if (k == (d + 1) % 3)                                  \
				u.c[k] = ks_mul_##SN(ks_add_##SN(m.c[d][k], m.c[k][d]), h); \
			else                                                        \
				u.c[k] = ks_mul_##SN(ks_add_##SN(m.c[k][d], m.c[d][k]), h); \
		}                                                                   \
		if (d != 3) {                                                       \
			int i = (d + 1) % 3, j = (d + 2) % 3;                       \
			u.c[3] = ks_mul_##SN(ks_sub_##SN(m.c[j][i], m.c[i][j]), h); \
		}                                                                   \
		return u;                                                           \
	}                                                                           \
	KS_FUNC ks_##M3 ks_upper_##M4(ks_##M4 m)                                    \
	{                                                                           \
		ks_##M3 r;                                                          \
		for (int i = 0; i < 3; i++)                                         \
			for (int j = 0; j < 3; j++)                                 \
				r.c[i][j] = m.c[i][j];                              \
		return r;                                                           \
	}                                                                           \
	KS_FUNC ks_##QT ks_quat_from_matrix_##M3(ks_##M3 m) { return ks_normalize_##QT(ks_quat_of_rotation_##M3(m)); } \
	KS_FUNC ks_##QT ks_quat_from_matrix_##M4(ks_##M4 m) { return ks_quat_from_matrix_##M3(ks_upper_##M4(m)); } \
	KS_FUNC ks_##QT ks_quat_slerp_##QT(ks_##QT a, ks_##QT b, ST t)              \
	{                                                                           \
		ks_##QT d = ks_mul_##QT##_##QT(ks_quat_inverse_##QT(a), b);         \
		ks_##QT s = ks_quat_from_axis_angle_##V3(ks_quat_axis_##QT(d), ks_mul_##SN(t, ks_quat_angle_##QT(d))); \
		return ks_mul_##QT##_##QT(a, s);                                    \
	}                                                                           \
	/* ---- their adjoints */                                                \
	/* quat_rotate(q, x) = (2w^2 - 1) x + 2 v (v.x) + 2 w (v x x), v the    \
	 * vector part of q: the adjoint of q */                                    \
	KS_FUNC ks_##QT ks_adj_quat_rotate_q_##QT(ks_##QT q, ks_##V3 x, ks_##V3 g)  \
	{                                                                           \
		ST two = ks_to_##SN##_float(2.0f), four = ks_to_##SN##_float(4.0f); \
		ks_##V3 v = ks_quat_vec_##QT(q);                                    \
		ks_##V3 dv = ks_add_##V3(ks_mul_##V3##_##SN(ks_add_##V3(ks_mul_##V3##_##SN(g, ks_dot_##V3(v, x)), \
								     ks_mul_##V3##_##SN(x, ks_dot_##V3(v, g))), \
						    two),                                   \
					 ks_mul_##V3##_##SN(ks_cross_##V3(x, g), ks_mul_##SN(two, q.c[3]))); \
		ST dw = ks_dot_##V3(g, ks_add_##V3(ks_mul_##V3##_##SN(x, ks_mul_##SN(four, q.c[3])), \
						    ks_mul_##V3##_##SN(ks_cross_##V3(v, x), two))); \
		return ks_make_##QT##_##V3(dv, dw);                                 \
	}                                                                           \
	KS_FUNC ks_##V3 ks_adj_quat_from_axis_angle_axis_##V3(ks_##V3 axis, ST angle, ks_##QT g) \
	{                                                                           \
		(void)axis;                                                         \
		ST half = ks_mul_##SN(angle, ks_to_##SN##_float(0.5f));             \
		return ks_mul_##V3##_##SN(ks_quat_vec_##QT(g), ks_sin_##SN(half));  \
	}                                                                           \
	KS_FUNC ST ks_adj_quat_from_axis_angle_angle_##V3(ks_##V3 axis, ST angle, ks_##QT g) \
	{                                                                           \
		ST h = ks_to_##SN##_float(0.5f), half = ks_mul_##SN(angle, h);      \
		return ks_mul_##SN(h, ks_sub_##SN(ks_mul_##SN(ks_cos_##SN(half), ks_dot_##V3(axis, ks_quat_vec_##QT(g))), \
						  ks_mul_##SN(ks_sin_##SN(half), g.c[3]))); \
	}                                                                           \
	/* the adjoint of q through (quat_axis(q), quat_angle(q)), none at a    \
	 * quaternion with no vector part (Warp) */                                 \
	KS_FUNC ks_##QT ks_adj_quat_to_axis_angle_##QT(ks_##QT q, ks_##V3 gaxis, ST gangle) \
	{                                                                           \
		ks_##V3 v = ks_quat_vec_##QT(q);                                    \
		ST l = ks_length_##V3(v), w = q.c[3], two = ks_to_##SN##_float(2.0f); \
		ST flip = ks_lt_##SN(w, ks_zero_##SN()) ? ks_neg_##SN(ks_one_##SN()) : ks_one_##SN(); \
		if (!ks_gt_##SN(l, ks_zero_##SN()))                                 \
			return ks_zero_##QT();                                      \
		ks_##V3 n = ks_div_##V3##_##SN(v, l);                               \
		ST den = ks_add_##SN(ks_mul_##SN(l, l), ks_mul_##SN(w, w));         \
		ks_##V3 dv = ks_mul_##V3##_##SN(ks_sub_##V3(gaxis, ks_mul_##V3##_##SN(n, ks_dot_##V3(n, gaxis))), \
						ks_div_##SN(flip, l));              \
		dv = ks_add_##V3(dv, ks_mul_##V3##_##SN(n, ks_div_##SN(ks_mul_##SN(ks_mul_##SN(gangle, two), \
										  ks_abs_##SN(w)), den))); \
		ST dw = ks_neg_##SN(ks_div_##SN(ks_mul_##SN(ks_mul_##SN(ks_mul_##SN(gangle, two), flip), l), den)); \
		return ks_make_##QT##_##V3(dv, dw);                                 \
	}                                                                           \
	KS_FUNC ks_##QT ks_adj_quat_axis_##QT(ks_##QT q, ks_##V3 g) { return ks_adj_quat_to_axis_angle_##QT(q, g, ks_zero_##SN()); } \
	KS_FUNC ks_##QT ks_adj_quat_angle_##QT(ks_##QT q, ST g) { return ks_adj_quat_to_axis_angle_##QT(q, ks_zero_##V3(), g); } \
	/* d quat_rpy / d (roll, pitch, yaw)[k] */                                  \
	KS_FUNC ST ks_adj_quat_rpy_##SN(ST roll, ST pitch, ST yaw, ks_##QT g, int k) \
	{                                                                           \
		ST h = ks_to_##SN##_float(0.5f);                                    \
		ST cy = ks_cos_##SN(ks_mul_##SN(yaw, h)), sy = ks_sin_##SN(ks_mul_##SN(yaw, h)); \
		ST cr = ks_cos_##SN(ks_mul_##SN(roll, h)), sr = ks_sin_##SN(ks_mul_##SN(roll, h)); \
		ST cp = ks_cos_##SN(ks_mul_##SN(pitch, h)), sp = ks_sin_##SN(ks_mul_##SN(pitch, h)); \
		/* the derivative of each of cr sr cp sp cy sy: k's pair turns */   \
		ST c[6] = {cr, sr, cp, sp, cy, sy};                                 \
		c[2 * k] = ks_mul_##SN(ks_neg_##SN(h), c[2 * k + 1]);               \
		c[2 * k + 1] = ks_mul_##SN(h, k == 0 ? cr : k == 1 ? cp : cy);      \
		cr = c[0], sr = c[1], cp = c[2], sp = c[3], cy = c[4], sy = c[5];   \
		ks_##QT d = ks_make_##QT(                                           \
			ks_sub_##SN(ks_mul_##SN(ks_mul_##SN(cy, sr), cp), ks_mul_##SN(ks_mul_##SN(sy, cr), sp)), \
			ks_add_##SN(ks_mul_##SN(ks_mul_##SN(cy, cr), sp), ks_mul_##SN(ks_mul_##SN(sy, sr), cp)), \
			ks_sub_##SN(ks_mul_##SN(ks_mul_##SN(sy, cr), cp), ks_mul_##SN(ks_mul_##SN(cy, sr), sp)), \
			ks_add_##SN(ks_mul_##SN(ks_mul_##SN(cy, cr), cp), ks_mul_##SN(ks_mul_##SN(sy, sr), sp))); \
		return ks_dot_##QT(d, g);                                           \
	}                                                                           \
	KS_FUNC ST ks_adj_quat_rpy_roll_##SN(ST r, ST p, ST y, ks_##QT g) { return ks_adj_quat_rpy_##SN(r, p, y, g, 0); } \
	KS_FUNC ST ks_adj_quat_rpy_pitch_##SN(ST r, ST p, ST y, ks_##QT g) { return ks_adj_quat_rpy_##SN(r, p, y, g, 1); } \
	KS_FUNC ST ks_adj_quat_rpy_yaw_##SN(ST r, ST p, ST y, ks_##QT g) { return ks_adj_quat_rpy_##SN(r, p, y, g, 2); } \
	KS_FUNC ks_##QT ks_adj_quat_to_matrix_quat_##QT(ks_##QT q, ks_##M3 g)       \
	{                                                                           \
		ks_##QT r = ks_zero_##QT();                                         \
		for (int j = 0; j < 3; j++) {                                       \
			ks_##V3 col = ks_make_##V3(g.c[0][j], g.c[1][j], g.c[2][j]); \
			r = ks_add_##QT(r, ks_adj_quat_rotate_q_##QT(q, ks_unit_##V3(j), col)); \
		}                                                                   \
		return r;                                                           \
	}                                                                           \
	/* the adjoint of normalize(q), none at a zero q */                         \
	KS_FUNC ks_##QT ks_adj_normalize_##QT(ks_##QT q, ks_##QT g)                 \
	{                                                                           \
		ST l = ks_length_##QT(q);                                           \
		if (!ks_gt_##SN(l, ks_zero_##SN()))                                 \
			return ks_zero_##QT();                                      \
		ST il = ks_div_##SN(ks_one_##SN(), l);                              \
		return ks_sub_##QT(ks_mul_##QT##_##SN(g, il),                       \
				   ks_mul_##QT##_##SN(q, ks_mul_##SN(ks_mul_##SN(ks_mul_##SN(il, il), il), ks_dot_##QT(q, g)))); \
	}                                                                           \
	KS_FUNC ks_##M3 ks_adj_quat_from_matrix_rotation_##M3(ks_##M3 m, ks_##QT g) \
	{                                                                           \
		ks_##QT u = ks_quat_of_rotation_##M3(m), du = ks_adj_normalize_##QT(u, g); \
		int d = ks_quat_branch_##M3(&m);                                    \
		ST half = ks_to_##SN##_float(0.5f), s, h, dh, ds;                   \
		ks_##M3 r = ks_zero_##M3();                                         \
		if (d == 3)                                                         \
			s = ks_add_##SN(ks_add_##SN(m.c[0][0], m.c[1][1]), m.c[2][2]); \
		else                                                                \
			s = ks_sub_##SN(m.c[d][d], ks_add_##SN(m.c[(d + 1) % 3][(d + 1) % 3], \
							       m.c[(d + 2) % 3][(d + 2) % 3])); \
		ST root = ks_sqrt_##SN(ks_add_##SN(s, ks_one_##SN()));             \
		h = ks_div_##SN(half, root);                                        \
		/* dh/ds = -h / (2 (s + 1)); the other components are (their sum  \
		 * or difference) * h */                                            \
		dh = ks_div_##SN(ks_neg_##SN(ks_mul_##SN(half, h)), ks_add_##SN(s, ks_one_##SN())); \
		ds = ks_mul_##SN(ks_mul_##SN(half, h), du.c[d]);                    \
		for (int k = 0; k < 4; k++) {                                       \
			int a, b;                                                   \
			ST sgn;                                                     \
			if (k == d)                                                 \
				continue;                                           \
			if (k == 3 || d == 3) {                                     \
				int c = k == 3 ? d : k;                             \
				a = (c + 2) % 3, b = (c + 1) % 3;                   \
				sgn = ks_neg_##SN(ks_one_##SN());                   \
			} else {                                                    \
				a = d, b = k;                                       \
				sgn = ks_one_##SN();                                \
			}                                                           \
			/* u[k] = (m[a][b] + sgn m[b][a]) h */                      \
			ST pair = ks_add_##SN(m.c[a][b], ks_mul_##SN(sgn, m.c[b][a])); \
			ds = ks_add_##SN(ds, ks_mul_##SN(ks_mul_##SN(pair, dh), du.c[k])); \
			r.c[a][b] = ks_add_##SN(r.c[a][b], ks_mul_##SN(h, du.c[k])); \
			r.c[b][a] = ks_add_##SN(r.c[b][a], ks_mul_##SN(ks_mul_##SN(sgn, h), du.c[k])); \
		}                                                                   \
		for (int i = 0; i < 3; i++) {                                       \
			int plus = d == 3 || i == d;                                \
			r.c[i][i] = ks_add_##SN(r.c[i][i], plus ? ds : ks_neg_##SN(ds)); \
		}                                                                   \
		return r;                                                           \
	}                                                                           \
	KS_FUNC ks_##M3 ks_adj_quat_from_matrix_mat_##M3(ks_##M3 m, ks_##QT g) { return ks_adj_quat_from_matrix_rotation_##M3(m, g); } \
	KS_FUNC ks_##M4 ks_adj_quat_from_matrix_mat_##M4(ks_##M4 m, ks_##QT g)      \
	{                                                                           \
		ks_##M3 r = ks_adj_quat_from_matrix_rotation_##M3(ks_upper_##M4(m), g); \
		ks_##M4 out = ks_zero_##M4();                                       \
		for (int i = 0; i < 3; i++)                                         \
			for (int j = 0; j < 3; j++)                                 \
				out.c[i][j] = r.c[i][j];                            \
		return out;                                                         \
	}                                                                           \
	/* slerp(a, b, t) = a * s, s = quat_from_axis_angle(axis, t angle) of   \
	 * d = a^-1 b, reversed step by step */                                     \
	KS_FUNC void ks_adj_slerp_##QT(ks_##QT a, ks_##QT b, ST t, ks_##QT g, ks_##QT *da, ks_##QT *db, ST *dt) \
	{                                                                           \
		ks_##QT d = ks_mul_##QT##_##QT(ks_quat_inverse_##QT(a), b);         \
		ks_##V3 axis = ks_quat_axis_##QT(d);                                \
		ST angle = ks_quat_angle_##QT(d), ta = ks_mul_##SN(t, angle);       \
		ks_##QT s = ks_quat_from_axis_angle_##V3(axis, ta);                 \
		ks_##QT ds = ks_mul_##QT##_##QT(ks_quat_inverse_##QT(a), g);        \
		ST dta = ks_adj_quat_from_axis_angle_angle_##V3(axis, ta, ds);      \
		ks_##QT dd = ks_adj_quat_to_axis_angle_##QT(d, ks_adj_quat_from_axis_angle_axis_##V3(axis, ta, ds), \
							 ks_mul_##SN(dta, t));      \
		*dt = ks_mul_##SN(dta, angle);                                      \
		*db = ks_mul_##QT##_##QT(a, dd);                                    \
		*da = ks_add_##QT(ks_mul_##QT##_##QT(g, ks_quat_inverse_##QT(s)),   \
				  ks_quat_inverse_##QT(ks_mul_##QT##_##QT(dd, ks_quat_inverse_##QT(b)))); \
	}                                                                           \
	KS_FUNC ks_##QT ks_adj_quat_slerp_a_##QT(ks_##QT a, ks_##QT b, ST t, ks_##QT g) \
	{                                                                           \
		ks_##QT da, db;                                                     \
		ST dt;                                                              \
		ks_adj_slerp_##QT(a, b, t, g, &da, &db, &dt);                       \
		return da;                                                          \
	}                                                                           \
	KS_FUNC ks_##QT ks_adj_quat_slerp_b_##QT(ks_##QT a, ks_##QT b, ST t, ks_##QT g) \
	{                                                                           \
		ks_##QT da, db;                                                     \
		ST dt;                                                              \
		ks_adj_slerp_##QT(a, b, t, g, &da, &db, &dt);                       \
		return db;                                                          \
	}                                                                           \
	KS_FUNC ST ks_adj_quat_slerp_t_##QT(ks_##QT a, ks_##QT b, ST t, ks_##QT g)  \
	{                                                                           \
		ks_##QT da, db;                                                     \
		ST dt;                                                              \
		ks_adj_slerp_##QT(a, b, t, g, &da, &db, &dt);                       \
		return dt;                                                          \
	}                                                                           \
	/* ---- transforms */                                                      \
	KS_FUNC ks_##XT ks_transform_identity_##SN(void) { return ks_make_##XT(ks_zero_##V3(), ks_quat_identity_##SN()); } \
	KS_FUNC ks_##V3 ks_transform_get_translation_##XT(ks_##XT t) { return ks_transform_p_##XT(t); } \
	KS_FUNC ks_##QT ks_transform_get_rotation_##XT(ks_##XT t) { return ks_transform_q_##XT(t); } \
	KS_FUNC ks_##XT ks_transform_set_translation_##XT(ks_##XT t, ks_##V3 p) { return ks_make_##XT(p, ks_transform_q_##XT(t)); } \
	KS_FUNC ks_##XT ks_transform_set_rotation_##XT(ks_##XT t, ks_##QT q) { return ks_make_##XT(ks_transform_p_##XT(t), q); } \
	KS_FUNC ks_##XT ks_transform_multiply_##XT(ks_##XT a, ks_##XT b) { return ks_mul_##XT##_##XT(a, b); } \
	KS_FUNC ks_##V3 ks_transform_point_##XT(ks_##XT t, ks_##V3 x)               \
	{                                                                           \
		return ks_add_##V3(ks_transform_p_##XT(t), ks_quat_rotate_##QT(ks_transform_q_##XT(t), x)); \
	}                                                                           \
	KS_FUNC ks_##V3 ks_transform_vector_##XT(ks_##XT t, ks_##V3 x) { return ks_quat_rotate_##QT(ks_transform_q_##XT(t), x); } \
	KS_CW1(ks_##XT, ks_neg_##XT, 7, ks_neg_##SN)                                                                              \
	KS_FUNC ks_##XT ks_transform_inverse_##XT(ks_##XT t)                        \
	{                                                                           \
		ks_##QT qi = ks_quat_inverse_##QT(ks_transform_q_##XT(t));          \
		return ks_make_##XT(ks_neg_##V3(ks_quat_rotate_##QT(qi, ks_transform_p_##XT(t))), qi); \
	}                                                                           \
	/* a 4x4 matrix on a point (w = 1) or a vector (w = 0) */                   \
	KS_FUNC ks_##V3 ks_transform_affine_##M4(ks_##M4 m, ks_##V3 x, int point)   \
	{                                                                           \
		ks_##V3 r;                                                          \
		for (int i = 0; i < 3; i++) {                                       \
			r.c[i] = ks_mul_##SN(m.c[i][0], x.c[0]);                    \
			for (int k = 1; k < 3; k++)                                 \
				r.c[i] = ks_add_##SN(r.c[i], ks_mul_##SN(m.c[i][k], x.c[k])); \
			r.c[i] = ks_add_##SN(r.c[i], point ? m.c[i][3] : ks_mul_##SN(m.c[i][3], ks_zero_##SN())); \
		}                                                                   \
		return r;                                                           \
	}                                                                           \
	KS_FUNC ks_##V3 ks_transform_point_##M4(ks_##M4 m, ks_##V3 x) { return ks_transform_affine_##M4(m, x, 1); } \
	KS_FUNC ks_##V3 ks_transform_vector_##M4(ks_##M4 m, ks_##V3 x) { return ks_transform_affine_##M4(m, x, 0); } \
	KS_FUNC ks_##XT ks_adj_transform_get_translation_xform_##V3(ks_##V3 g) { return ks_make_##XT(g, ks_zero_##QT()); } \
	KS_FUNC ks_##XT ks_adj_transform_get_rotation_xform_##QT(ks_##QT g) { return ks_make_##XT(ks_zero_##V3(), g); } \
	KS_FUNC ks_##XT ks_adj_transform_multiply_a_##XT(ks_##XT a, ks_##XT b, ks_##XT g) \
	{                                                                           \
		ks_##V3 gp = ks_transform_p_##XT(g);                                \
		ks_##QT qa = ks_transform_q_##XT(a), qb = ks_transform_q_##XT(b);   \
		return ks_make_##XT(gp, ks_add_##QT(ks_adj_quat_rotate_q_##QT(qa, ks_transform_p_##XT(b), gp), \
						    ks_mul_##QT##_##QT(ks_transform_q_##XT(g), ks_quat_inverse_##QT(qb)))); \
	}                                                                           \
	KS_FUNC ks_##XT ks_adj_transform_multiply_b_##XT(ks_##XT a, ks_##XT b, ks_##XT g) \
	{                                                                           \
		ks_##QT qa = ks_transform_q_##XT(a);                                \
		(void)b;                                                            \
		return ks_make_##XT(ks_quat_rotate_inv_##QT(qa, ks_transform_p_##XT(g)), \
				    ks_mul_##QT##_##QT(ks_quat_inverse_##QT(qa), ks_transform_q_##XT(g))); \
	}                                                                           \
	KS_FUNC ks_##XT ks_adj_transform_point_xform_##XT(ks_##XT t, ks_##V3 x, ks_##V3 g) \
	{                                                                           \
		return ks_make_##XT(g, ks_adj_quat_rotate_q_##QT(ks_transform_q_##XT(t), x, g)); \
	}                                                                           \
	KS_FUNC ks_##XT ks_adj_transform_vector_xform_##XT(ks_##XT t, ks_##V3 x, ks_##V3 g) \
	{                                                                           \
		return ks_make_##XT(ks_zero_##V3(), ks_adj_quat_rotate_q_##QT(ks_transform_q_##XT(t), x, g)); \
	}                                                                           \
	KS_FUNC ks_##V3 ks_adj_transform_point_point_##XT(ks_##XT t, ks_##V3 x, ks_##V3 g) \
	{                                                                           \
		(void)x;                                                            \
		return ks_quat_rotate_inv_##QT(ks_transform_q_##XT(t), g);          \
	}                                                                           \
	KS_FUNC ks_##V3 ks_adj_transform_vector_vec_##XT(ks_##XT t, ks_##V3 x, ks_##V3 g) { return ks_adj_transform_point_point_##XT(t, x, g); } \
	/* m's upper-left 3x3 transposed, on g */                                   \
	KS_FUNC ks_##V3 ks_adj_transform_point_point_##M4(ks_##M4 m, ks_##V3 x, ks_##V3 g) \
	{                                                                           \
		ks_##V3 r;                                                          \
		(void)x;                                                            \
		for (int j = 0; j < 3; j++) {                                       \
			r.c[j] = ks_mul_##SN(m.c[0][j], g.c[0]);                    \
			for (int i = 1; i < 3; i++)                                 \
				r.c[j] = ks_add_##SN(r.c[j], ks_mul_##SN(m.c[i][j], g.c[i])); \
		}                                                                   \
		return r;                                                           \
	}                                                                           \
	KS_FUNC ks_##V3 ks_adj_transform_vector_vec_##M4(ks_##M4 m, ks_##V3 x, ks_##V3 g) { return ks_adj_transform_point_point_##M4(m, x, g); } \
	/* outer(g, (x, w)) in the first three rows */                              \
	KS_FUNC ks_##M4 ks_adj_transform_affine_##M4(ks_##V3 x, ks_##V3 g, int point) \
	{                                                                           \
		ks_##M4 r = ks_zero_##M4();                                         \
		for (int i = 0; i < 3; i++) {                                       \
			for (int j = 0; j < 3; j++)                                 \
				r.c[i][j] = ks_mul_##SN(g.c[i], x.c[j]);            \
			r.c[i][3] = point ? g.c[i] : ks_zero_##SN();                \
		}                                                                   \
		return r;                                                           \
	}                                                                           \
	KS_FUNC ks_##M4 ks_adj_transform_point_mat_##M4(ks_##M4 m, ks_##V3 x, ks_##V3 g) \
	{                                                                           \
		(void)m;                                                            \
		return ks_adj_transform_affine_##M4(x, g, 1);                       \
	}                                                                           \
	KS_FUNC ks_##M4 ks_adj_transform_vector_mat_##M4(ks_##M4 m, ks_##V3 x, ks_##V3 g) \
	{                                                                           \
		(void)m;                                                            \
		return ks_adj_transform_affine_##M4(x, g, 0);                       \
	}                                                                           \
	/* transform_inverse(t) = (-rotate(q^-1, p), q^-1) */                       \
	KS_FUNC ks_##XT ks_adj_transform_inverse_xform_##XT(ks_##XT t, ks_##XT g)   \
	{                                                                           \
		ks_##QT qi = ks_quat_inverse_##QT(ks_transform_q_##XT(t));          \
		ks_##V3 gp = ks_neg_##V3(ks_transform_p_##XT(g));                   \
		ks_##QT dqi = ks_add_##QT(ks_transform_q_##XT(g),                   \
					  ks_adj_quat_rotate_q_##QT(qi, ks_transform_p_##XT(t), gp)); \
		return ks_make_##XT(ks_quat_rotate_inv_##QT(qi, gp), ks_quat_inverse_##QT(dqi)); \
	}                                                                           \
	/* ---- spatial vectors (w, v): the angular part on top */                 \
	KS_FUNC ks_##V6 ks_make_##V6##_##V3(ks_##V3 w, ks_##V3 v)                   \
	{                                                                           \
		return ks_make_##V6(w.c[0], w.c[1], w.c[2], v.c[0], v.c[1], v.c[2]); \
	}                                                                           \
	KS_FUNC ks_##V3 ks_spatial_top_##V6(ks_##V6 a) { return ks_make_##V3(a.c[0], a.c[1], a.c[2]); } \
	KS_FUNC ks_##V3 ks_spatial_bottom_##V6(ks_##V6 a) { return ks_make_##V3(a.c[3], a.c[4], a.c[5]); } \
	KS_FUNC ST ks_spatial_dot_##V6(ks_##V6 a, ks_##V6 b) { return ks_dot_##V6(a, b); } \
	KS_FUNC ks_##V6 ks_spatial_cross_##V6(ks_##V6 a, ks_##V6 b)                 \
	{                                                                           \
		ks_##V3 wa = ks_spatial_top_##V6(a), va = ks_spatial_bottom_##V6(a); \
		ks_##V3 wb = ks_spatial_top_##V6(b), vb = ks_spatial_bottom_##V6(b); \
		return ks_make_##V6##_##V3(ks_cross_##V3(wa, wb),                   \
					   ks_add_##V3(ks_cross_##V3(va, wb), ks_cross_##V3(wa, vb))); \
	}                                                                           \
	KS_FUNC ks_##V6 ks_spatial_cross_dual_##V6(ks_##V6 a, ks_##V6 b)            \
	{                                                                           \
		ks_##V3 wa = ks_spatial_top_##V6(a), va = ks_spatial_bottom_##V6(a); \
		ks_##V3 wb = ks_spatial_top_##V6(b), vb = ks_spatial_bottom_##V6(b); \
		return ks_make_##V6##_##V3(ks_add_##V3(ks_cross_##V3(wa, wb), ks_cross_##V3(va, vb)), \
					   ks_cross_##V3(wa, vb));                  \
	}                                                                           \
	/* [[R, 0], [S, R]] */                                                      \
	KS_FUNC ks_##M6 ks_spatial_adjoint_##M3(ks_##M3 r, ks_##M3 s)               \
	{                                                                           \
		ks_##M6 m = ks_zero_##M6();                                         \
		for (int i = 0; i < 3; i++)                                         \
			for (int j = 0; j < 3; j++) {                               \
				m.c[i][j] = r.c[i][j];                              \
				m.c[i + 3][j + 3] = r.c[i][j];                      \
				m.c[i + 3][j] = s.c[i][j];                          \
			}                                                           \
		return m;                                                           \
	}                                                                           \
	KS_FUNC ks_##V6 ks_adj_spatial_top_svec_##V3(ks_##V3 g) { return ks_make_##V6##_##V3(g, ks_zero_##V3()); } \
	KS_FUNC ks_##V6 ks_adj_spatial_bottom_svec_##V3(ks_##V3 g) { return ks_make_##V6##_##V3(ks_zero_##V3(), g); } \
	/* (x cross y) . g: x gets y cross g, y gets g cross x */                   \
	KS_FUNC ks_##V6 ks_adj_spatial_cross_a_##V6(ks_##V6 a, ks_##V6 b, ks_##V6 g) \
	{                                                                           \
		ks_##V3 wb = ks_spatial_top_##V6(b), vb = ks_spatial_bottom_##V6(b); \
		ks_##V3 gw = ks_spatial_top_##V6(g), gv = ks_spatial_bottom_##V6(g); \
		(void)a;                                                            \
		return ks_make_##V6##_##V3(ks_add_##V3(ks_cross_##V3(wb, gw), ks_cross_##V3(vb, gv)), \
					   ks_cross_##V3(wb, gv));                  \
	}                                                                           \
	KS_FUNC ks_##V6 ks_adj_spatial_cross_b_##V6(ks_##V6 a, ks_##V6 b, ks_##V6 g) \
	{                                                                           \
		ks_##V3 wa = ks_spatial_top_##V6(a), va = ks_spatial_bottom_##V6(a); \
		ks_##V3 gw = ks_spatial_top_##V6(g), gv = ks_spatial_bottom_##V6(g); \
		(void)b;                                                            \
		return ks_make_##V6##_##V3(ks_add_##V3(ks_cross_##V3(gw, wa), ks_cross_##V3(gv, va)), \
					   ks_cross_##V3(gv, wa));                  \
	}                                                                           \
	KS_FUNC ks_##V6 ks_adj_spatial_cross_dual_a_##V6(ks_##V6 a, ks_##V6 b, ks_##V6 g) \
	{                                                                           \
		ks_##V3 wb = ks_spatial_top_##V6(b), vb = ks_spatial_bottom_##V6(b); \
		ks_##V3 gw = ks_spatial_top_##V6(g), gv = ks_spatial_bottom_##V6(g); \
		(void)a;                                                            \
		return ks_make_##V6##_##V3(ks_add_##V3(ks_cross_##V3(wb, gw), ks_cross_##V3(vb, gv)), \
					   ks_cross_##V3(vb, gw));                  \
	}                                                                           \
	KS_FUNC ks_##V6 ks_adj_spatial_cross_dual_b_##V6(ks_##V6 a, ks_##V6 b, ks_##V6 g) \
	{                                                                           \
		ks_##V3 wa = ks_spatial_top_##V6(a), va = ks_spatial_bottom_##V6(a); \
		ks_##V3 gw = ks_spatial_top_##V6(g), gv = ks_spatial_bottom_##V6(g); \
		(void)b;                                                            \
		return ks_make_##V6##_##V3(ks_cross_##V3(gw, wa),                   \
					   ks_add_##V3(ks_cross_##V3(gw, va), ks_cross_##V3(gv, wa))); \
	}                                                                           \
	KS_FUNC ks_##M3 ks_adj_spatial_adjoint_r_##M6(ks_##M6 g)                    \
	{                                                                           \
		ks_##M3 r;                                                          \
		for (int i = 0; i < 3; i++)                                         \
			for (int j = 0; j < 3; j++)                                 \
				r.c[i][j] = ks_add_##SN(g.c[i][j], g.c[i + 3][j + 3]); \
		return r;                                                           \
	}                                                                           \
	KS_FUNC ks_##M3 ks_adj_spatial_adjoint_s_##M6(ks_##M6 g)                    \
	{                                                                           \
		ks_##M3 r;                                                          \
		for (int i = 0; i < 3; i++)                                         \
			for (int j = 0; j < 3; j++)                                 \
				r.c[i][j] = g.c[i + 3][j];                          \
		return r;                                                           \
	}

KS_QUAT_MATH(quat, transform, float, KS_REAL, vec3, mat33, mat44, spatial_vector, spatial_matrix)
KS_QUAT_MATH(quath, transformh, float16, ks_half, vec3h, mat33h, mat44h, spatial_vectorh, spatial_matrixh)
KS_QUAT_MATH(quatd, transformd, float64, double, vec3d, mat33d, mat44d, spatial_vectord, spatial_matrixd)
/* quat_identity() and transform_identity() are float32, as Warp's default */
KS_FUNC ks_quat ks_quat_identity(void) { return ks_quat_identity_float(); }
KS_FUNC ks_transform ks_transform_identity(void) { return ks_transform_identity_float(); }

/* ---- conversions between types ------------------------------------------ */

/* Numbers convert among themselves as C's casts do (the emitted code
 * writes the cast), but for a float to an int and for float16 (above).
 * A vector, matrix, quaternion or transform converts component by
 * component to the same shape of another scalar, among int32 and the
 * floats (ks_to_vec3d_vec3). */
#define KS_CAST(TN, TT, FN, FT) KS_FUNC TT ks_to_##TN##_##FN(FT x) { return (TT)x; }
KS_CAST(float, KS_REAL, int, int)
KS_CAST(float64, double, int, int)

#define KS_CONV(N, TO, TN, FROM, FN)                                                \
	KS_FUNC ks_##TO ks_to_##TO##_##FROM(ks_##FROM a)                            \
	{                                                                           \
		ks_##TO r;                                                          \
		for (int i = 0; i < N; i++)                                         \
			r.c[i] = ks_to_##TN##_##FN(a.c[i]);                         \
		return r;                                                           \
	}
#define KS_CONV_MAT(N, TO, TN, FROM, FN)                                            \
	KS_FUNC ks_##TO ks_to_##TO##_##FROM(ks_##FROM a)                            \
	{                                                                           \
		ks_##TO r;                                                          \
		for (int i = 0; i < N; i++)                                         \
			for (int j = 0; j < N; j++)                                 \
				r.c[i][j] = ks_to_##TN##_##FN(a.c[i][j]);           \
		return r;                                                           \
	}
/* every direction between two scalar types, for one shape */
#define KS_CONV2(CONV, N, A, AN, B, BN) CONV(N, A, AN, B, BN) CONV(N, B, BN, A, AN)
#define KS_CONV_FLOATS(CONV, N, H, F, D)                                            \
	KS_CONV2(CONV, N, H, float16, F, float)                                     \
	KS_CONV2(CONV, N, H, float16, D, float64)                                   \
	KS_CONV2(CONV, N, F, float, D, float64)
#define KS_CONV_VECS(N, H, F, D, I)                                                 \
	KS_CONV_FLOATS(KS_CONV, N, H, F, D)                                         \
	KS_CONV2(KS_CONV, N, I, int, H, float16)                                    \
	KS_CONV2(KS_CONV, N, I, int, F, float)                                      \
	KS_CONV2(KS_CONV, N, I, int, D, float64)
KS_CONV_VECS(2, vec2h, vec2, vec2d, vec2i)
KS_CONV_VECS(3, vec3h, vec3, vec3d, vec3i)
KS_CONV_VECS(4, vec4h, vec4, vec4d, vec4i)
KS_CONV_FLOATS(KS_CONV, 6, spatial_vectorh, spatial_vector, spatial_vectord)
KS_CONV_FLOATS(KS_CONV_MAT, 2, mat22h, mat22, mat22d)
KS_CONV_FLOATS(KS_CONV_MAT, 3, mat33h, mat33, mat33d)
KS_CONV_FLOATS(KS_CONV_MAT, 4, mat44h, mat44, mat44d)
KS_CONV_FLOATS(KS_CONV_MAT, 6, spatial_matrixh, spatial_matrix, spatial_matrixd)
KS_CONV_FLOATS(KS_CONV, 4, quath, quat, quatd)
KS_CONV_FLOATS(KS_CONV, 7, transformh, transform, transformd)

/* wp.cast(x, T): x's bits as a T of the same size (the IR's bitcast),
 * ks_bitcast(int, ks_float32, x).  ks_float32 is float32 in double mode
 * too (a CPU build for gradient checks, where the emitted code's float is
 * double): a float is rounded to float32 before its bits are read, and
 * bits read as one are widened.  (Not so float16 and the composites of
 * floats, whose bits double mode does not keep.) */
typedef float ks_float32;
#if KS_CUDA
template <typename TO, typename FROM> KS_FUNC TO ks_bitcast_to(FROM x)
{
	union {
		FROM from;
		TO to;
	} u;
	u.from = x;
	return u.to;
}
#define ks_bitcast(TO, FROM, x) ks_bitcast_to<TO, FROM>(x)
#else
#define ks_bitcast(TO, FROM, x) (((union { FROM from; TO to; }){.from = (x)}).to)
#endif

/* ---- arrays ---------------------------------------------------------------- */

/* An array of two or more dimensions is a view: its elements, row-major,
 * and its shape; a[i, j] is a.data[i * a.shape[1] + j].  (A 1-D array is
 * a pointer to its elements.) */
#define KS_ARRAY(EN, ET) typedef struct { ET *data; int shape[4]; } ks_array_##EN;
#define KS_ARRAY_VECS(SN, ST, V2, V3, V4)                                            \
	KS_ARRAY(SN, ST) KS_ARRAY(V2, ks_##V2) KS_ARRAY(V3, ks_##V3) KS_ARRAY(V4, ks_##V4)
KS_ARRAY(bool, bool)
KS_ARRAY_VECS(int8, int8_t, vec2b, vec3b, vec4b)
KS_ARRAY_VECS(uint8, uint8_t, vec2ub, vec3ub, vec4ub)
KS_ARRAY_VECS(int16, int16_t, vec2s, vec3s, vec4s)
KS_ARRAY_VECS(uint16, uint16_t, vec2us, vec3us, vec4us)
KS_ARRAY_VECS(int, int, vec2i, vec3i, vec4i)
KS_ARRAY_VECS(uint32, uint32_t, vec2ui, vec3ui, vec4ui)
KS_ARRAY_VECS(int64, int64_t, vec2l, vec3l, vec4l)
KS_ARRAY_VECS(uint64, uint64_t, vec2ul, vec3ul, vec4ul)
#define KS_ARRAY_FLOATS(SN, ST, V2, V3, V4, V6, M2, M3, M4, M6, Q, X)                \
	KS_ARRAY_VECS(SN, ST, V2, V3, V4)                                           \
	KS_ARRAY(V6, ks_##V6) KS_ARRAY(M2, ks_##M2) KS_ARRAY(M3, ks_##M3)           \
	KS_ARRAY(M4, ks_##M4) KS_ARRAY(M6, ks_##M6) KS_ARRAY(Q, ks_##Q) KS_ARRAY(X, ks_##X)
KS_ARRAY_FLOATS(float, KS_REAL, vec2, vec3, vec4, spatial_vector, mat22, mat33, mat44,
		spatial_matrix, quat, transform)
KS_ARRAY_FLOATS(float16, ks_half, vec2h, vec3h, vec4h, spatial_vectorh, mat22h, mat33h,
		mat44h, spatial_matrixh, quath, transformh)
KS_ARRAY_FLOATS(float64, double, vec2d, vec3d, vec4d, spatial_vectord, mat22d, mat33d,
		mat44d, spatial_matrixd, quatd, transformd)

/* Checked mode (kemit-cpu --checked, krun's own cpu build; C only): every
 * array, a 1-D one too, is a view, and every access a[i, j] is
 * a.data[ks_index2(a.shape, i, j, "a", LINE, COL)], the source position
 * of the access.  An index outside its extent calls ks_bounds_error, which
 * the program that loads the code (krun) points at a function that
 * reports the access and does not return; left unset, the program
 * aborts. */
#if defined(KS_CHECKED) && !KS_CUDA
#include <stdlib.h>
void (*ks_bounds_error)(const char *array, int line, int col, int rank, const long long *index,
			const int *shape);

KS_FUNC long long ks_index_checked(const int *shape, int rank, const long long *index,
				 const char *array, int line, int col)
{
	long long at = 0;
	for (int k = 0; k < rank; k++) {
		if (index[k] < 0 || index[k] >= shape[k]) {
			if (ks_bounds_error)
				ks_bounds_error(array, line, col, rank, index, shape);
			abort();
		}
		at = at * shape[k] + index[k];
	}
	return at;
}
KS_FUNC long long ks_index1(const int *shape, long long i, const char *array, int line, int col)
{
	long long index[1] = {i};
	return ks_index_checked(shape, 1, index, array, line, col);
}
KS_FUNC long long ks_index2(const int *shape, long long i, long long j, const char *array, int line,
			    int col)
{
	long long index[2] = {i, j};
	return ks_index_checked(shape, 2, index, array, line, col);
}
KS_FUNC long long ks_index3(const int *shape, long long i, long long j, long long k,
			    const char *array, int line, int col)
{
	long long index[3] = {i, j, k};
	return ks_index_checked(shape, 3, index, array, line, col);
}
KS_FUNC long long ks_index4(const int *shape, long long i, long long j, long long k, long long l,
			    const char *array, int line, int col)
{
	long long index[4] = {i, j, k, l};
	return ks_index_checked(shape, 4, index, array, line, col);
}
#endif

/* ---- atomics ------------------------------------------------------------- */

/* Each returns the value before the update.  The CPU runs threads one
 * after another, so there a plain read-modify-write is atomic. */
#if KS_CUDA
KS_FUNC KS_REAL ks_atomic_add_float(KS_REAL *p, KS_REAL v) { return atomicAdd(p, v); }
KS_FUNC double ks_atomic_add_float64(double *p, double v) { return atomicAdd(p, v); }
KS_FUNC int ks_atomic_add_int(int *p, int v) { return atomicAdd(p, v); }
KS_FUNC uint32_t ks_atomic_add_uint32(uint32_t *p, uint32_t v) { return atomicAdd((unsigned *)p, (unsigned)v); }
KS_FUNC uint64_t ks_atomic_add_uint64(uint64_t *p, uint64_t v)
{
	return atomicAdd((unsigned long long *)p, (unsigned long long)v);
}
KS_FUNC int64_t ks_atomic_add_int64(int64_t *p, int64_t v)
{
	return (int64_t)atomicAdd((unsigned long long *)p, (unsigned long long)v);
}
KS_FUNC KS_REAL ks_atomic_sub_float(KS_REAL *p, KS_REAL v) { return atomicAdd(p, -v); }
KS_FUNC double ks_atomic_sub_float64(double *p, double v) { return atomicAdd(p, -v); }
KS_FUNC int ks_atomic_sub_int(int *p, int v) { return atomicSub(p, v); }
KS_FUNC uint32_t ks_atomic_sub_uint32(uint32_t *p, uint32_t v) { return atomicAdd((unsigned *)p, 0u - (unsigned)v); }
KS_FUNC uint64_t ks_atomic_sub_uint64(uint64_t *p, uint64_t v)
{
	return atomicAdd((unsigned long long *)p, 0ull - (unsigned long long)v);
}
KS_FUNC int64_t ks_atomic_sub_int64(int64_t *p, int64_t v)
{
	return (int64_t)atomicAdd((unsigned long long *)p, 0ull - (unsigned long long)v);
}
KS_FUNC int ks_atomic_min_int(int *p, int v) { return atomicMin(p, v); }
KS_FUNC int ks_atomic_max_int(int *p, int v) { return atomicMax(p, v); }
KS_FUNC uint32_t ks_atomic_min_uint32(uint32_t *p, uint32_t v) { return atomicMin((unsigned *)p, (unsigned)v); }
KS_FUNC uint32_t ks_atomic_max_uint32(uint32_t *p, uint32_t v) { return atomicMax((unsigned *)p, (unsigned)v); }
KS_FUNC int64_t ks_atomic_min_int64(int64_t *p, int64_t v) { return atomicMin((long long *)p, (long long)v); }
KS_FUNC int64_t ks_atomic_max_int64(int64_t *p, int64_t v) { return atomicMax((long long *)p, (long long)v); }
KS_FUNC uint64_t ks_atomic_min_uint64(uint64_t *p, uint64_t v)
{
	return atomicMin((unsigned long long *)p, (unsigned long long)v);
}
KS_FUNC uint64_t ks_atomic_max_uint64(uint64_t *p, uint64_t v)
{
	return atomicMax((unsigned long long *)p, (unsigned long long)v);
}
/* No float atomicMin/atomicMax: a compare-and-swap loop on the bits,
 * storing only when the new value wins (v < old, Warp's min). */
#define KS_ATOMIC_FLOAT_MINMAX(OP, SN, ST, WT, CMP, TOBITS, FROMBITS)                \
	KS_FUNC ST ks_atomic_##OP##_##SN(ST *p, ST v)                               \
	{                                                                           \
		WT *ip = (WT *)p;                                                   \
		WT old = *ip, seen;                                                 \
		while (v CMP FROMBITS(old)) {                                       \
			seen = atomicCAS(ip, old, TOBITS(v));                       \
			if (seen == old)                                            \
				break;                                              \
			old = seen;                                                 \
		}                                                                   \
		return FROMBITS(old);                                               \
	}
#define KS_DBITS(x) ((unsigned long long)__double_as_longlong(x))
#define KS_DVAL(x) __longlong_as_double((long long)(x))
KS_ATOMIC_FLOAT_MINMAX(min, float, KS_REAL, int, <, __float_as_int, __int_as_float)
KS_ATOMIC_FLOAT_MINMAX(max, float, KS_REAL, int, >, __float_as_int, __int_as_float)
KS_ATOMIC_FLOAT_MINMAX(min, float64, double, unsigned long long, <, KS_DBITS, KS_DVAL)
KS_ATOMIC_FLOAT_MINMAX(max, float64, double, unsigned long long, >, KS_DBITS, KS_DVAL)

/* The 8- and 16-bit types: a compare-and-swap loop on the aligned 32-bit
 * word that holds the value, replacing its bytes only. */
#define KS_ATOMIC_NARROW(OP, SN, ST, BITS, GET, PUT, UPDATE)                         \
	KS_FUNC ST ks_atomic_##OP##_##SN(ST *p, ST v)                               \
	{                                                                           \
		unsigned *w = (unsigned *)((unsigned long long)p & ~3ull);          \
		unsigned shift = (unsigned)((unsigned long long)p & 3ull) * 8u;     \
		unsigned mask = ((1u << (BITS)) - 1u) << shift, old = *w, seen;     \
		for (;;) {                                                          \
			ST o = GET((old & mask) >> shift);                          \
			ST n = UPDATE;                                              \
			seen = atomicCAS(w, old, (old & ~mask) | ((unsigned)PUT(n) << shift)); \
			if (seen == old)                                            \
				return o;                                           \
			old = seen;                                                 \
		}                                                                   \
	}
#define KS_INT_GET(ST) (ST)
#define KS_BITS_OF(x) (x)
#define KS_ATOMIC_NARROW_INT(SN, ST, BITS, UT)                                       \
	KS_ATOMIC_NARROW(add, SN, ST, BITS, (ST)(UT), (UT), ks_add_##SN(o, v))      \
	KS_ATOMIC_NARROW(sub, SN, ST, BITS, (ST)(UT), (UT), ks_sub_##SN(o, v))      \
	KS_ATOMIC_NARROW(min, SN, ST, BITS, (ST)(UT), (UT), ks_min_##SN(o, v))      \
	KS_ATOMIC_NARROW(max, SN, ST, BITS, (ST)(UT), (UT), ks_max_##SN(o, v))
KS_ATOMIC_NARROW_INT(int8, int8_t, 8, uint8_t)
KS_ATOMIC_NARROW_INT(uint8, uint8_t, 8, uint8_t)
KS_ATOMIC_NARROW_INT(int16, int16_t, 16, uint16_t)
KS_ATOMIC_NARROW_INT(uint16, uint16_t, 16, uint16_t)
KS_FUNC ks_half ks_half_bits(unsigned b)
{
	ks_half h;
	h.bits = (uint16_t)b;
	return h;
}
#define KS_HALF_BITS(h) (h).bits
KS_ATOMIC_NARROW(add, float16, ks_half, 16, ks_half_bits, KS_HALF_BITS, ks_add_float16(o, v))
KS_ATOMIC_NARROW(sub, float16, ks_half, 16, ks_half_bits, KS_HALF_BITS, ks_sub_float16(o, v))
KS_ATOMIC_NARROW(min, float16, ks_half, 16, ks_half_bits, KS_HALF_BITS, ks_min_float16(o, v))
KS_ATOMIC_NARROW(max, float16, ks_half, 16, ks_half_bits, KS_HALF_BITS, ks_max_float16(o, v))
#else
#define KS_ATOMIC_SCALAR(SN, ST)                                                     \
	KS_FUNC ST ks_atomic_add_##SN(ST *p, ST v) { ST old = *p; *p = ks_add_##SN(old, v); return old; } \
	KS_FUNC ST ks_atomic_sub_##SN(ST *p, ST v) { ST old = *p; *p = ks_sub_##SN(old, v); return old; } \
	KS_FUNC ST ks_atomic_min_##SN(ST *p, ST v) { ST old = *p; if (ks_lt_##SN(v, old)) *p = v; return old; } \
	KS_FUNC ST ks_atomic_max_##SN(ST *p, ST v) { ST old = *p; if (ks_gt_##SN(v, old)) *p = v; return old; }
KS_ATOMIC_SCALAR(int8, int8_t)
KS_ATOMIC_SCALAR(uint8, uint8_t)
KS_ATOMIC_SCALAR(int16, int16_t)
KS_ATOMIC_SCALAR(uint16, uint16_t)
KS_ATOMIC_SCALAR(int, int)
KS_ATOMIC_SCALAR(uint32, uint32_t)
KS_ATOMIC_SCALAR(int64, int64_t)
KS_ATOMIC_SCALAR(uint64, uint64_t)
KS_ATOMIC_SCALAR(float16, ks_half)
KS_ATOMIC_SCALAR(float, KS_REAL)
KS_ATOMIC_SCALAR(float64, double)
#endif

/* Bitwise atomics (ints), exchange and compare-and-swap (every number
 * type).  Each returns the old value.  Compare-and-swap compares bits,
 * as the GPU does, on every device: a float's -0.0 is not 0.0 there, and
 * a NaN matches the same NaN. */
#if KS_CUDA
#define KS_ATOMIC_WORD(SN, ST, WT)                                                   \
	KS_FUNC ST ks_atomic_and_##SN(ST *p, ST v) { return (ST)atomicAnd((WT *)p, (WT)v); } \
	KS_FUNC ST ks_atomic_or_##SN(ST *p, ST v) { return (ST)atomicOr((WT *)p, (WT)v); }   \
	KS_FUNC ST ks_atomic_xor_##SN(ST *p, ST v) { return (ST)atomicXor((WT *)p, (WT)v); } \
	KS_FUNC ST ks_atomic_exch_##SN(ST *p, ST v) { return (ST)atomicExch((WT *)p, (WT)v); } \
	KS_FUNC ST ks_atomic_cas_##SN(ST *p, ST c, ST v)                            \
	{                                                                           \
		return (ST)atomicCAS((WT *)p, (WT)c, (WT)v);                        \
	}
KS_ATOMIC_WORD(int, int, int)
KS_ATOMIC_WORD(uint32, uint32_t, unsigned)
KS_ATOMIC_WORD(int64, int64_t, unsigned long long)
KS_ATOMIC_WORD(uint64, uint64_t, unsigned long long)
#define KS_ATOMIC_FLOAT_SWAP(SN, ST, WT, TOBITS, FROMBITS)                           \
	KS_FUNC ST ks_atomic_exch_##SN(ST *p, ST v)                                 \
	{                                                                           \
		return FROMBITS(atomicExch((WT *)p, (WT)TOBITS(v)));                \
	}                                                                           \
	KS_FUNC ST ks_atomic_cas_##SN(ST *p, ST c, ST v)                            \
	{                                                                           \
		return FROMBITS(atomicCAS((WT *)p, (WT)TOBITS(c), (WT)TOBITS(v)));  \
	}
KS_ATOMIC_FLOAT_SWAP(float, KS_REAL, int, __float_as_int, __int_as_float)
KS_ATOMIC_FLOAT_SWAP(float64, double, unsigned long long, KS_DBITS, KS_DVAL)
/* the 8- and 16-bit types: the loop on the word that holds them */
#define KS_ATOMIC_NARROW_CAS(SN, ST, BITS, GET, PUT)                                 \
	KS_FUNC ST ks_atomic_cas_##SN(ST *p, ST c, ST v)                            \
	{                                                                           \
		unsigned *w = (unsigned *)((unsigned long long)p & ~3ull);          \
		unsigned shift = (unsigned)((unsigned long long)p & 3ull) * 8u;     \
		unsigned mask = ((1u << (BITS)) - 1u) << shift, old = *w, seen;     \
		for (;;) {                                                          \
			ST o = GET((old & mask) >> shift);                          \
			if ((unsigned)PUT(o) != ((unsigned)PUT(c) & ((1u << (BITS)) - 1u))) \
				return o;                                           \
			seen = atomicCAS(w, old, (old & ~mask) | ((unsigned)PUT(v) << shift)); \
			if (seen == old)                                            \
				return o;                                           \
			old = seen;                                                 \
		}                                                                   \
	}
#define KS_ATOMIC_NARROW_BITS(SN, ST, BITS, UT)                                      \
	KS_ATOMIC_NARROW(and, SN, ST, BITS, (ST)(UT), (UT), (ST)(o & v))            \
	KS_ATOMIC_NARROW(or, SN, ST, BITS, (ST)(UT), (UT), (ST)(o | v))             \
	KS_ATOMIC_NARROW(xor, SN, ST, BITS, (ST)(UT), (UT), (ST)(o ^ v))            \
	KS_ATOMIC_NARROW(exch, SN, ST, BITS, (ST)(UT), (UT), v)                     \
	KS_ATOMIC_NARROW_CAS(SN, ST, BITS, (ST)(UT), (UT))
KS_ATOMIC_NARROW_BITS(int8, int8_t, 8, uint8_t)
KS_ATOMIC_NARROW_BITS(uint8, uint8_t, 8, uint8_t)
KS_ATOMIC_NARROW_BITS(int16, int16_t, 16, uint16_t)
KS_ATOMIC_NARROW_BITS(uint16, uint16_t, 16, uint16_t)
KS_ATOMIC_NARROW(exch, float16, ks_half, 16, ks_half_bits, KS_HALF_BITS, v)
KS_ATOMIC_NARROW_CAS(float16, ks_half, 16, ks_half_bits, KS_HALF_BITS)
#else
#define KS_ATOMIC_BITWISE(SN, ST)                                                    \
	KS_FUNC ST ks_atomic_and_##SN(ST *p, ST v) { ST old = *p; *p = (ST)(old & v); return old; } \
	KS_FUNC ST ks_atomic_or_##SN(ST *p, ST v) { ST old = *p; *p = (ST)(old | v); return old; }  \
	KS_FUNC ST ks_atomic_xor_##SN(ST *p, ST v) { ST old = *p; *p = (ST)(old ^ v); return old; }
/* SAME(a, b): are the bits of a and b the same? */
#define KS_ATOMIC_SWAP(SN, ST, SAME)                                                 \
	KS_FUNC ST ks_atomic_exch_##SN(ST *p, ST v) { ST old = *p; *p = v; return old; } \
	KS_FUNC ST ks_atomic_cas_##SN(ST *p, ST c, ST v)                            \
	{                                                                           \
		ST old = *p;                                                        \
		if (SAME(old, c))                                                   \
			*p = v;                                                     \
		return old;                                                         \
	}
#define KS_SAME_INT(a, b) ((a) == (b))
#if KS_DOUBLE_MODE
#define KS_SAME_HALF(a, b) ks_same_float64(a, b)
#else
#define KS_SAME_HALF(a, b) ((a).bits == (b).bits)
#endif
KS_FUNC int ks_same_float(KS_REAL a, KS_REAL b)
{
#if KS_DOUBLE_MODE
	union { KS_REAL f; uint64_t u; } x = {a}, y = {b};
#else
	union { KS_REAL f; uint32_t u; } x = {a}, y = {b};
#endif
	return x.u == y.u;
}
KS_FUNC int ks_same_float64(double a, double b)
{
	union { double f; uint64_t u; } x = {a}, y = {b};
	return x.u == y.u;
}
#define KS_ATOMIC_INT_BITS(SN, ST) KS_ATOMIC_BITWISE(SN, ST) KS_ATOMIC_SWAP(SN, ST, KS_SAME_INT)
KS_ATOMIC_INT_BITS(int8, int8_t)
KS_ATOMIC_INT_BITS(uint8, uint8_t)
KS_ATOMIC_INT_BITS(int16, int16_t)
KS_ATOMIC_INT_BITS(uint16, uint16_t)
KS_ATOMIC_INT_BITS(int, int)
KS_ATOMIC_INT_BITS(uint32, uint32_t)
KS_ATOMIC_INT_BITS(int64, int64_t)
KS_ATOMIC_INT_BITS(uint64, uint64_t)
KS_ATOMIC_SWAP(float16, ks_half, KS_SAME_HALF)
KS_ATOMIC_SWAP(float, KS_REAL, ks_same_float)
KS_ATOMIC_SWAP(float64, double, ks_same_float64)
#endif

/* wp.printf and print write to the log, never to standard output (krun's
 * JSON): on the CPU and in sim that is stderr; the GPU's printf goes to
 * the process's standard output, which krun points at stderr around a
 * launch (runtime/run_cuda.c). */
#if KS_CUDA && !defined(KS_CUDA_SIM)
#ifndef __CUDACC_RTC__
#include <stdio.h> /* nvcc; NVRTC knows printf */
#endif
#define ks_printf printf
#else
#include <stdio.h>
#define ks_printf(...) fprintf(stderr, __VA_ARGS__)
#endif

/* Vector, matrix, quaternion and transform atomics: componentwise (each component is atomic,
 * the value as a whole is not, as in Warp). */
#define KS_VEC_ATOMIC(VT, N, SN)                                                    \
	KS_FUNC ks_##VT ks_atomic_add_##VT(ks_##VT *p, ks_##VT v)                   \
	{                                                                           \
		ks_##VT old;                                                        \
		for (int i = 0; i < N; i++)                                         \
			old.c[i] = ks_atomic_add_##SN(&p->c[i], v.c[i]);            \
		return old;                                                         \
	}                                                                           \
	KS_FUNC ks_##VT ks_atomic_sub_##VT(ks_##VT *p, ks_##VT v)                   \
	{                                                                           \
		ks_##VT old;                                                        \
		for (int i = 0; i < N; i++)                                         \
			old.c[i] = ks_atomic_sub_##SN(&p->c[i], v.c[i]);            \
		return old;                                                         \
	}
#define KS_MAT_ATOMIC(MT, N, SN)                                                    \
	KS_FUNC ks_##MT ks_atomic_add_##MT(ks_##MT *p, ks_##MT v)                   \
	{                                                                           \
		ks_##MT old;                                                        \
		for (int i = 0; i < N; i++)                                         \
			for (int j = 0; j < N; j++)                                 \
				old.c[i][j] = ks_atomic_add_##SN(&p->c[i][j], v.c[i][j]); \
		return old;                                                         \
	}                                                                           \
	KS_FUNC ks_##MT ks_atomic_sub_##MT(ks_##MT *p, ks_##MT v)                   \
	{                                                                           \
		ks_##MT old;                                                        \
		for (int i = 0; i < N; i++)                                         \
			for (int j = 0; j < N; j++)                                 \
				old.c[i][j] = ks_atomic_sub_##SN(&p->c[i][j], v.c[i][j]); \
		return old;                                                         \
	}
#define KS_VEC_ATOMICS(SN, V2, V3, V4)                                               \
	KS_VEC_ATOMIC(V2, 2, SN) KS_VEC_ATOMIC(V3, 3, SN) KS_VEC_ATOMIC(V4, 4, SN)
#define KS_FLOAT_ATOMICS(SN, V2, V3, V4, V6, M2, M3, M4, M6)                         \
	KS_VEC_ATOMICS(SN, V2, V3, V4) KS_VEC_ATOMIC(V6, 6, SN)                     \
	KS_MAT_ATOMIC(M2, 2, SN) KS_MAT_ATOMIC(M3, 3, SN) KS_MAT_ATOMIC(M4, 4, SN)  \
	KS_MAT_ATOMIC(M6, 6, SN)
KS_FLOAT_ATOMICS(float, vec2, vec3, vec4, spatial_vector, mat22, mat33, mat44, spatial_matrix)
KS_FLOAT_ATOMICS(float16, vec2h, vec3h, vec4h, spatial_vectorh, mat22h, mat33h, mat44h,
		 spatial_matrixh)
KS_FLOAT_ATOMICS(float64, vec2d, vec3d, vec4d, spatial_vectord, mat22d, mat33d, mat44d,
		 spatial_matrixd)
KS_VEC_ATOMIC(quat, 4, float) KS_VEC_ATOMIC(transform, 7, float)
KS_VEC_ATOMIC(quath, 4, float16) KS_VEC_ATOMIC(transformh, 7, float16)
KS_VEC_ATOMIC(quatd, 4, float64) KS_VEC_ATOMIC(transformd, 7, float64)
KS_VEC_ATOMICS(int8, vec2b, vec3b, vec4b)
KS_VEC_ATOMICS(uint8, vec2ub, vec3ub, vec4ub)
KS_VEC_ATOMICS(int16, vec2s, vec3s, vec4s)
KS_VEC_ATOMICS(uint16, vec2us, vec3us, vec4us)
KS_VEC_ATOMICS(int, vec2i, vec3i, vec4i)
KS_VEC_ATOMICS(uint32, vec2ui, vec3ui, vec4ui)
KS_VEC_ATOMICS(int64, vec2l, vec3l, vec4l)
KS_VEC_ATOMICS(uint64, vec2ul, vec3ul, vec4ul)

/* Double mode: the emitted code's float is double too (see the top). */
#if KS_DOUBLE_MODE
#define float double
#endif

/* ---- random numbers ----------------------------------------------------------
 *
 * Warp's generator, bit for bit: the state is a uint32 and each draw
 * replaces it by pcg(state), the PCG hash of Jarzynski and Olano ("Hash
 * Functions for GPU Rendering", JCGT 2020); a draw is computed from the
 * new state.  The emitted code passes the state by address: a draw
 * advances the variable it names (ks_randf(&state)).
 *
 * Floats are made as Warp makes them, operation for operation and without
 * FMA contraction (Warp's fuse_fp=False, as everywhere in ksynth), so that
 * the same libm gives the same bits.  The two draws of randn are made left
 * to right, as Warp's compilers evaluate the operands of its one
 * expression. */
#define KS_PI_F 3.14159265358979323846f

KS_FUNC uint32_t ks_pcg(uint32_t state)
{
	uint32_t b = state * 747796405u + 2891336453u;
	uint32_t c = ((b >> ((b >> 28u) + 4u)) ^ b) * 277803737u;
	return (c >> 22u) ^ c;
}

KS_FUNC uint32_t ks_rand_init(int seed) { return ks_pcg((uint32_t)seed); }

KS_FUNC uint32_t ks_rand_init_offset(int seed, int offset)
{
	return ks_pcg((uint32_t)seed + ks_pcg((uint32_t)offset));
}

KS_FUNC uint32_t ks_randu(uint32_t *state)
{
	*state = ks_pcg(*state);
	return *state;
}

/* low + state % (high - low) in uint32, wrapping as Warp's does; an empty
 * range (high == low) gives low, where Warp divides by zero. */
KS_FUNC uint32_t ks_randu_range(uint32_t *state, uint32_t low, uint32_t high)
{
	uint32_t n = high - low, r = ks_randu(state);
	return (n ? r % n : 0u) + low;
}

KS_FUNC int ks_randi(uint32_t *state) { return (int)ks_randu(state); }

KS_FUNC int ks_randi_range(uint32_t *state, int low, int high)
{
	return (int)ks_randu_range(state, (uint32_t)low, (uint32_t)high);
}

/* The top 24 bits, scaled to [0, 1 - 2^-24]: exact in a float. */
KS_FUNC KS_REAL ks_randf(uint32_t *state)
{
	return (KS_REAL)(ks_randu(state) >> 8) * (1.0f / 16777216.0f);
}

KS_FUNC KS_REAL ks_randf_range(uint32_t *state, KS_REAL low, KS_REAL high)
{
	return (high - low) * ks_randf(state) + low;
}

/* Box-Muller; the first draw is kept off 0 by 5.96e-8 (just under 2^-24). */
KS_FUNC KS_REAL ks_randn(uint32_t *state)
{
	KS_REAL u = ks_randf(state), v = ks_randf(state);
	return sqrtf(-2.0f * logf(u + 5.96e-8f)) * cosf(2.0f * KS_PI_F * v);
}

/* The first index whose value is not below a uniform draw, by bisection
 * (the last index when none is): inverse-transform sampling of a CDF. */
KS_FUNC int ks_sample_cdf(uint32_t *state, ks_array_float cdf)
{
	KS_REAL u = ks_randf(state);
	int lo = 0, hi = cdf.shape[0] - 1;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (cdf.data[mid] < u)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Barycentric coordinates (u, v) of a uniform point in a triangle. */
KS_FUNC ks_vec2 ks_sample_triangle(uint32_t *state)
{
	KS_REAL r = sqrtf(ks_randf(state));
	KS_REAL u = 1.0f - r;
	return ks_make_vec2(u, ks_randf(state) * r);
}

KS_FUNC ks_vec2 ks_sample_unit_ring(uint32_t *state)
{
	KS_REAL theta = ks_randf_range(state, 0.0f, 2.0f * KS_PI_F);
	return ks_make_vec2(cosf(theta), sinf(theta));
}

KS_FUNC ks_vec2 ks_sample_unit_disk(uint32_t *state)
{
	KS_REAL r = sqrtf(ks_randf(state));
	KS_REAL theta = ks_randf_range(state, 0.0f, 2.0f * KS_PI_F);
	return ks_make_vec2(r * cosf(theta), r * sinf(theta));
}

/* A point at polar angle phi, azimuth theta and radius r: the sphere and
 * hemisphere samplers draw phi (cos phi uniform), theta, then r. */
KS_FUNC ks_vec3 ks_spherical(KS_REAL r, KS_REAL phi, KS_REAL theta)
{
	return ks_make_vec3(r * cosf(theta) * sinf(phi), r * sinf(theta) * sinf(phi), r * cosf(phi));
}

KS_FUNC ks_vec3 ks_sample_unit_sphere_surface(uint32_t *state)
{
	KS_REAL phi = acosf(1.0f - 2.0f * ks_randf(state));
	KS_REAL theta = ks_randf_range(state, 0.0f, 2.0f * KS_PI_F);
	return ks_make_vec3(cosf(theta) * sinf(phi), sinf(theta) * sinf(phi), cosf(phi));
}

KS_FUNC ks_vec3 ks_sample_unit_sphere(uint32_t *state)
{
	KS_REAL phi = acosf(1.0f - 2.0f * ks_randf(state));
	KS_REAL theta = ks_randf_range(state, 0.0f, 2.0f * KS_PI_F);
	return ks_spherical(powf(ks_randf(state), 1.0f / 3.0f), phi, theta);
}

KS_FUNC ks_vec3 ks_sample_unit_hemisphere_surface(uint32_t *state)
{
	KS_REAL phi = acosf(1.0f - ks_randf(state));
	KS_REAL theta = ks_randf_range(state, 0.0f, 2.0f * KS_PI_F);
	return ks_make_vec3(cosf(theta) * sinf(phi), sinf(theta) * sinf(phi), cosf(phi));
}

KS_FUNC ks_vec3 ks_sample_unit_hemisphere(uint32_t *state)
{
	KS_REAL phi = acosf(1.0f - ks_randf(state));
	KS_REAL theta = ks_randf_range(state, 0.0f, 2.0f * KS_PI_F);
	return ks_spherical(powf(ks_randf(state), 1.0f / 3.0f), phi, theta);
}

KS_FUNC ks_vec2 ks_sample_unit_square(uint32_t *state)
{
	KS_REAL x = ks_randf(state) - 0.5f;
	return ks_make_vec2(x, ks_randf(state) - 0.5f);
}

KS_FUNC ks_vec3 ks_sample_unit_cube(uint32_t *state)
{
	KS_REAL x = ks_randf(state) - 0.5f;
	KS_REAL y = ks_randf(state) - 0.5f;
	return ks_make_vec3(x, y, ks_randf(state) - 0.5f);
}

/* log(Gamma(x)) for x >= 1, the series of Zhang and Jin (Computation of
 * Special Functions, 1996) at x + n >= 7, then down by log(x + k). */
KS_FUNC KS_REAL ks_log_gamma(KS_REAL x)
{
	const KS_REAL coef[10] = {
		8.333333333333333e-02f, -2.777777777777778e-03f, 7.936507936507937e-04f,
		-5.952380952380952e-04f, 8.417508417508418e-04f, -1.917526917526918e-03f,
		6.410256410256410e-03f, -2.955065359477124e-02f, 1.796443723688307e-01f,
		-1.39243221690590e+00f};
	if (x == 1.0f || x == 2.0f)
		return 0.0f;
	uint32_t n = x < 7.0f ? (uint32_t)(7 - x) : 0u;
	KS_REAL x0 = x + (KS_REAL)n;
	KS_REAL x2 = (1.0f / x0) * (1.0f / x0);
	KS_REAL s = coef[9];
	for (int i = 8; i >= 0; i--) {
		s *= x2;
		s += coef[i];
	}
	/* 1.8378770664093453f: log(2 pi) */
	KS_REAL gl = s / x0 + 0.5f * 1.8378770664093453f + (x0 - 0.5f) * logf(x0) - x0;
	for (uint32_t k = 1; k <= n; k++) {
		gl -= logf(x0 - 1.0f);
		x0 -= 1.0f;
	}
	return gl;
}

/* Poisson with mean lam: for lam < 10 by multiplying uniforms until the
 * product falls to exp(-lam) (Knuth); from 10 up by Hoermann's transformed
 * rejection ("The transformed rejection method for generating Poisson
 * random variables", 1993). */
KS_FUNC uint32_t ks_poisson(uint32_t *state, KS_REAL lam)
{
	if (lam >= 10.0f) {
		KS_REAL slam = sqrtf(lam), loglam = logf(lam);
		KS_REAL b = 0.931f + 2.53f * slam;
		KS_REAL a = -0.059f + 0.02483f * b;
		KS_REAL invalpha = 1.1239f + 1.1328f / (b - 3.4f);
		KS_REAL vr = 0.9277f - 3.6224f / (b - 2.0f);
		for (;;) {
			KS_REAL u = ks_randf(state) - 0.5f;
			KS_REAL v = ks_randf(state);
			KS_REAL us = 0.5f - fabsf(u);
			KS_REAL k = floorf((2.0f * a / us + b) * u + lam + 0.43f);
			if (us >= 0.07f && v <= vr)
				return (uint32_t)k;
			if (k < 0.0f || (us < 0.013f && v > us))
				continue;
			if (logf(v) + logf(invalpha) - logf(a / (us * us) + b) <=
			    -lam + k * loglam - ks_log_gamma(k + 1.0f))
				return (uint32_t)k;
		}
	}
	if (lam == 0.0f)
		return 0u;
	KS_REAL limit = expf(-lam), prod = 1.0f;
	uint32_t x = 0;
	for (;;) {
		prod *= ks_randf(state);
		if (!(prod > limit))
			return x;
		x++;
	}
}

/* ---- the tape of a backward kernel ------------------------------------------
 *
 * A backward kernel whose loops keep checkpoints (doc/autodiff.md) takes a
 * last parameter `int *tape`: four ints the caller fills, then the words
 * of every thread.
 *
 *   tape[0]  words each thread may use; -1: only measure (see below)
 *   tape[1]  set to 0 by the caller; the kernel raises it to the words a
 *            thread would use with no bound (the largest over the threads)
 *   tape[2]  the number of threads (dim)
 *   tape[3]  0
 *
 * so tape holds 4 + dim * tape[0] ints.  Thread t's word w is tape[4 + t *
 * tape[0] + w] on the CPU, tape[4 + w * dim + t] in CUDA (the threads of a
 * warp touch neighbouring words).  With tape[0] = -1 every thread runs its
 * forward sweep, raises tape[1] and stops, leaving the arrays as they were:
 * a caller measures with a 4-int tape, then allocates.  A tape too small,
 * even of no words, gives the same gradient, recomputing more.
 *
 * A loop keeps the state its trips begin with, every `every` trips:
 * every one while the tape has room; when it is full, every other
 * checkpoint goes and `every` doubles (every = 0: not even one fits).
 * Trip 0's state is the loop's entry, which the code keeps itself.  In
 * double precision (KS_REAL_DOUBLE, which never runs a backward kernel) the
 * tape has no words.  A value is stored word by word as its float or int
 * components. */

typedef struct ks_tape {
	int *base;         /* the tape (header and words), or NULL */
	int tid, len;      /* this thread; the words it may use */
	int stride;        /* CUDA: the threads, the distance between two of its words */
	int measuring;     /* tape[0] was -1 */
	int top;           /* words in use */
	int vtop, vin;     /* with no bound: words in use; inner loops' words in a trip */
	int need;          /* with no bound: the most words in use */
} ks_tape;

/* the checkpoints of one run of a loop */
typedef struct ks_trips {
	int base, vbase;   /* top and vtop when the run began */
	int width;         /* words of a checkpoint */
	int every;         /* a checkpoint every `every` trips; 0: none */
	int cur;           /* the checkpoint ks_tape_back chose, 0: the entry */
} ks_trips;

KS_FUNC ks_tape ks_tape_open(int *tape, int tid)
{
	ks_tape t;
	t.base = tape;
	t.tid = tid;
	t.len = tape ? tape[0] : 0;
	t.measuring = t.len < 0;
	t.stride = tape ? tape[2] : 0;
#if defined(KS_REAL_DOUBLE) && !KS_CUDA
	t.len = 0;
#endif
	if (t.len < 0)
		t.len = 0;
	t.top = t.vtop = t.vin = t.need = 0;
	return t;
}

KS_FUNC int *ks_tape_word(ks_tape *t, int w)
{
#if KS_CUDA
	return t->base + 4 + (long long)w * t->stride + t->tid;
#else
	return t->base + 4 + (long long)t->tid * t->len + w;
#endif
}

KS_FUNC void ks_tape_raise(ks_tape *t, long long words)
{
	int n = words > 0x7fffffff ? 0x7fffffff : (int)words;
	if (n > t->need)
		t->need = n;
}

/* a loop handle before its loop runs */
KS_FUNC ks_trips ks_tape_none(void)
{
	ks_trips L = {0, 0, 0, 0, 0};
	return L;
}

KS_FUNC ks_trips ks_tape_loop(ks_tape *t, int width)
{
	ks_trips L;
	L.base = t->top;
	L.vbase = t->vtop;
	L.width = width;
	L.every = width > 0 ? 1 : 0;
	L.cur = 0;
	return L;
}

/* Trip `trip` begins: keep its state (the ks_tape_put_* that follow)? */
KS_FUNC bool ks_tape_keep(ks_tape *t, ks_trips *L, int trip)
{
	long long v = (long long)L->vbase + (long long)trip * L->width;
	t->vtop = v > 0x7fffffff ? 0x7fffffff : (int)v;
	t->vin = 0;
	ks_tape_raise(t, v);
	if (trip == 0 || L->every == 0 || trip % L->every || t->measuring)
		return false;
	while (t->top + L->width > t->len) {
		/* full: keep checkpoints 2, 4, 6, ... as 1, 2, 3, ... */
		int n = (t->top - L->base) / L->width;
		if (n == 0) {
			L->every = 0;
			return false;
		}
		for (int q = 1; 2 * q <= n; q++)
			for (int w = 0; w < L->width; w++)
				*ks_tape_word(t, L->base + (q - 1) * L->width + w) =
					*ks_tape_word(t, L->base + (2 * q - 1) * L->width + w);
		t->top = L->base + n / 2 * L->width;
		L->every *= 2;
		if (trip % L->every)
			return false;
	}
	return true;
}

/* A trip of an inner loop, in a run that only recomputes: with no bound,
 * its checkpoints would sit on top of the outer loop's. */
KS_FUNC void ks_tape_count(ks_tape *t, int width)
{
	t->vin += width;
	ks_tape_raise(t, (long long)t->vtop + t->vin);
}

/* The reverse is at trip `trip`: go back to its checkpoint (dropping the
 * later ones), and return the trip it was kept at (0: the loop's entry). */
KS_FUNC int ks_tape_back(ks_tape *t, ks_trips *L, int trip)
{
	int j = L->every ? trip / L->every : 0;
	long long v = (long long)L->vbase + (long long)trip * L->width;
	t->vtop = v > 0x7fffffff ? 0x7fffffff : (int)v;
	L->cur = j;
	t->top = L->base + j * L->width;
	return j * L->every;
}

/* After the forward sweep: report the need; stop if only measuring. */
KS_FUNC bool ks_tape_measured(ks_tape *t)
{
	if (t->base) {
#if KS_CUDA
		atomicMax(&t->base[1], t->need);
#else
		if (t->need > t->base[1])
			t->base[1] = t->need;
#endif
	}
	return t->measuring;
}

KS_FUNC int ks_tape_float_bits(float x)
{
#if KS_CUDA
	return __float_as_int(x);
#else
	union { float f; int i; } u;
	u.f = x;
	return u.i;
#endif
}

KS_FUNC float ks_tape_bits_float(int i)
{
#if KS_CUDA
	return __int_as_float(i);
#else
	union { float f; int i; } u;
	u.i = i;
	return u.f;
#endif
}

/* word `off` of the checkpoint chosen */
KS_FUNC int ks_tape_at(ks_tape *t, const ks_trips *L, int off)
{
	return *ks_tape_word(t, L->base + (L->cur - 1) * L->width + off);
}

KS_FUNC void ks_tape_put_int(ks_tape *t, int x) { *ks_tape_word(t, t->top++) = x; }
KS_FUNC void ks_tape_put_bool(ks_tape *t, bool x) { ks_tape_put_int(t, x ? 1 : 0); }
KS_FUNC void ks_tape_put_float(ks_tape *t, float x) { ks_tape_put_int(t, ks_tape_float_bits(x)); }
/* the value kept at word off of the checkpoint chosen, or x0, the loop's
 * entry value, when that is the loop's entry */
KS_FUNC int ks_tape_get_int(ks_tape *t, const ks_trips *L, int off, int x0)
{
	return L->cur ? ks_tape_at(t, L, off) : x0;
}
/* a random-number state: its bits in one word */
KS_FUNC void ks_tape_put_uint32(ks_tape *t, uint32_t x) { ks_tape_put_int(t, (int)x); }
KS_FUNC uint32_t ks_tape_get_uint32(ks_tape *t, const ks_trips *L, int off, uint32_t x0)
{
	return L->cur ? (uint32_t)ks_tape_at(t, L, off) : x0;
}
KS_FUNC bool ks_tape_get_bool(ks_tape *t, const ks_trips *L, int off, bool x0)
{
	return L->cur ? ks_tape_at(t, L, off) != 0 : x0;
}
KS_FUNC float ks_tape_get_float(ks_tape *t, const ks_trips *L, int off, float x0)
{
	return L->cur ? ks_tape_bits_float(ks_tape_at(t, L, off)) : x0;
}

#define KS_TAPE_VEC(N)                                                               \
	KS_FUNC void ks_tape_put_vec##N(ks_tape *t, ks_vec##N x)                     \
	{                                                                            \
		for (int i = 0; i < N; i++)                                          \
			ks_tape_put_float(t, x.c[i]);                                \
	}                                                                            \
	KS_FUNC ks_vec##N ks_tape_get_vec##N(ks_tape *t, const ks_trips *L, int off, ks_vec##N x0) \
	{                                                                            \
		if (L->cur)                                                          \
			for (int i = 0; i < N; i++)                                  \
				x0.c[i] = ks_tape_bits_float(ks_tape_at(t, L, off + i)); \
		return x0;                                                           \
	}
#define KS_TAPE_MAT(N)                                                               \
	KS_FUNC void ks_tape_put_mat##N##N(ks_tape *t, ks_mat##N##N x)               \
	{                                                                            \
		for (int i = 0; i < N; i++)                                          \
			for (int j = 0; j < N; j++)                                  \
				ks_tape_put_float(t, x.c[i][j]);                     \
	}                                                                            \
	KS_FUNC ks_mat##N##N ks_tape_get_mat##N##N(ks_tape *t, const ks_trips *L, int off, ks_mat##N##N x0) \
	{                                                                            \
		if (L->cur)                                                          \
			for (int i = 0; i < N; i++)                                  \
				for (int j = 0; j < N; j++)                          \
					x0.c[i][j] = ks_tape_bits_float(ks_tape_at(t, L, off + N * i + j)); \
		return x0;                                                           \
	}
KS_TAPE_VEC(2)
KS_TAPE_VEC(3)
KS_TAPE_VEC(4)
KS_TAPE_MAT(2)
KS_TAPE_MAT(3)
KS_TAPE_MAT(4)
/* a quaternion and a transform: their components in order */
#define KS_TAPE_COMPS(T, N)                                                          \
	KS_FUNC void ks_tape_put_##T(ks_tape *t, ks_##T x)                           \
	{                                                                            \
		for (int i = 0; i < N; i++)                                          \
			ks_tape_put_float(t, x.c[i]);                                \
	}                                                                            \
	KS_FUNC ks_##T ks_tape_get_##T(ks_tape *t, const ks_trips *L, int off, ks_##T x0) \
	{                                                                            \
		if (L->cur)                                                          \
			for (int i = 0; i < N; i++)                                  \
				x0.c[i] = ks_tape_bits_float(ks_tape_at(t, L, off + i)); \
		return x0;                                                           \
	}
KS_TAPE_COMPS(quat, 4)
KS_TAPE_COMPS(transform, 7)

#endif
