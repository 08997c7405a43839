/*
 * ksynth.h: the runtime that code emitted by kemit-cpu and kemit-cu
 * includes, and the only header it includes.  One source of truth for the
 * CPU and for CUDA: the types, the vector and matrix operations, the math
 * builtins and the atomics are written once; `#if KS_CUDA` marks the few
 * places where the two must differ (function qualifiers, atomics, libc).
 *
 * "CUDA code" means compiled by nvcc or NVRTC (__CUDACC__) or by the host
 * C++ compiler through the simulator shim ksynth_sim.h (KS_CUDA_SIM).
 * NVRTC has no libc headers, so under __CUDACC__ nothing is included and
 * the CUDA math builtins (sinf, sqrtf, ...) are used directly.
 *
 * Semantics follow NVIDIA Warp (warp/native/builtin.h, vec.h, mat.h):
 * single precision throughout, min(a, b) = a < b ? a : b, max(a, b) =
 * a > b ? a : b, clamp(x, lo, hi) = min(max(lo, x), hi), sign(x) = x < 0 ?
 * -1 : 1 (so sign(0) = 1), normalize(0) = 0, inverse of a singular matrix =
 * 0.  Reductions (dot, mat * vec, mat * mat) add left to right, products
 * are never fused: FMA contraction must be off (C: -std=c11 keeps GCC's
 * -ffp-contract=off; CUDA: --fmad=false), so the CPU and CUDA agree bit
 * for bit wherever the operations are correctly rounded.
 *
 * Names: ks_<op>_<type of the first operand> for builtins (the table in
 * ir/builtins.h, spelled by ir_builtin_cname) and ks_<op>_<types> for the
 * IR's own opcodes on vectors and matrices (ks_mul_mat33_vec3).
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

/* Double mode (CPU only): compiled with -DKS_REAL_DOUBLE, the same emitted
 * C computes in double precision, for krun --gradcheck's finite
 * differences.  The emitted code stays readable (`float`); here, after the
 * headers, every float libm call that this header or the emitted code
 * makes is mapped to its double twin and `float` itself becomes `double`,
 * so the ks_ types (ks_vec3 holds doubles), the ks_ functions, the
 * parameters and the locals are all double.  Float literals (0.5f) stay
 * float constants, promoted to double where they are used. */
#if defined(KS_REAL_DOUBLE) && !KS_CUDA
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
#define float double
#endif

/* ---- types ------------------------------------------------------------ */

typedef struct { float c[2]; } ks_vec2;
typedef struct { float c[3]; } ks_vec3;
typedef struct { float c[4]; } ks_vec4;
typedef struct { float c[2][2]; } ks_mat22; /* row-major: c[row][col] */
typedef struct { float c[3][3]; } ks_mat33;
typedef struct { float c[4][4]; } ks_mat44;

#if KS_CUDA
#define KS_INF __int_as_float(0x7f800000)
#define KS_NAN __int_as_float(0x7fffffff)
#else
#define KS_INF INFINITY
#define KS_NAN NAN
#endif

/* ---- scalar builtins ---------------------------------------------------- */

/* The emitters call the libm names (sinf, ...) directly; these aliases
 * exist so that every builtin row has its ks_ name too. */
KS_FUNC float ks_sin_float(float x) { return sinf(x); }
KS_FUNC float ks_cos_float(float x) { return cosf(x); }
KS_FUNC float ks_tan_float(float x) { return tanf(x); }
KS_FUNC float ks_asin_float(float x) { return asinf(x); }
KS_FUNC float ks_acos_float(float x) { return acosf(x); }
KS_FUNC float ks_atan_float(float x) { return atanf(x); }
KS_FUNC float ks_atan2_float(float y, float x) { return atan2f(y, x); }
KS_FUNC float ks_sinh_float(float x) { return sinhf(x); }
KS_FUNC float ks_cosh_float(float x) { return coshf(x); }
KS_FUNC float ks_tanh_float(float x) { return tanhf(x); }
KS_FUNC float ks_exp_float(float x) { return expf(x); }
KS_FUNC float ks_log_float(float x) { return logf(x); }
KS_FUNC float ks_log2_float(float x) { return log2f(x); }
KS_FUNC float ks_log10_float(float x) { return log10f(x); }
KS_FUNC float ks_sqrt_float(float x) { return sqrtf(x); }
KS_FUNC float ks_pow_float(float x, float y) { return powf(x, y); }
KS_FUNC float ks_floor_float(float x) { return floorf(x); }
KS_FUNC float ks_ceil_float(float x) { return ceilf(x); }
KS_FUNC float ks_abs_float(float x) { return fabsf(x); }
KS_FUNC int ks_abs_int(int x) { return x < 0 ? -x : x; }
KS_FUNC float ks_sign_float(float x) { return x < 0.0f ? -1.0f : 1.0f; }
KS_FUNC int ks_sign_int(int x) { return x < 0 ? -1 : 1; }
KS_FUNC float ks_min_float(float a, float b) { return a < b ? a : b; }
KS_FUNC int ks_min_int(int a, int b) { return a < b ? a : b; }
KS_FUNC float ks_max_float(float a, float b) { return a > b ? a : b; }
KS_FUNC int ks_max_int(int a, int b) { return a > b ? a : b; }
KS_FUNC float ks_clamp_float(float x, float lo, float hi) { return ks_min_float(ks_max_float(lo, x), hi); }
KS_FUNC int ks_clamp_int(int x, int lo, int hi) { return ks_min_int(ks_max_int(lo, x), hi); }
/* Integer division and conversion have one answer on every device, where
 * C and C++ leave them undefined (and x86 traps on a / 0, while the GPU
 * gives a machine-specific value):
 *
 *   a / 0 == 0 and a % 0 == a (so a == (a / b) * b + a % b for every b),
 *   INT_MIN / -1 == INT_MIN and INT_MIN % -1 == 0 (two's complement wraps);
 *   a // b rounds toward minus infinity, as Warp's does (on ints too, where
 *   C's / truncates), a // 0 == 0; a % b truncates, as C's %, fmodf and
 *   Warp's;
 *   int(x) of a float truncates toward zero, saturates out of range (to
 *   INT_MIN or INT_MAX) and gives 0 for a NaN, as the GPU's own float to
 *   int conversion does.
 *
 * The emitters call these where the divisor is not a constant other than
 * 0 and -1, and where the float is not a constant in range. */
KS_FUNC int ks_div_int(int a, int b)
{
	if (b == 0)
		return 0;
	if (b == -1)
		return (int)(0u - (unsigned)a);
	return a / b;
}
KS_FUNC int ks_mod_int(int a, int b)
{
	return b == 0 ? a : b == -1 ? 0 : a % b;
}
KS_FUNC int ks_floordiv_int(int a, int b)
{
	if (b == 0)
		return 0;
	int q = ks_div_int(a, b), r = ks_mod_int(a, b);
	return r != 0 && (r < 0) != (b < 0) ? q - 1 : q;
}
KS_FUNC int ks_toint_float(float x)
{
	if (x != x)
		return 0;
	if (x >= 2147483648.0f)
		return 2147483647;
	if (x <= -2147483648.0f)
		return -2147483647 - 1;
	return (int)x;
}
KS_FUNC float ks_floordiv_float(float a, float b) { return floorf(a / b); }
KS_FUNC float ks_mod_float(float a, float b) { return fmodf(a, b); }

/* ---- vectors -------------------------------------------------------------- */

/* KS_VEC(N) defines every operation on ks_vecN. */
#define KS_VEC(N)                                                                   \
	KS_FUNC ks_vec##N ks_zero_vec##N(void)                                      \
	{                                                                           \
		ks_vec##N r;                                                        \
		for (int i = 0; i < N; i++)                                         \
			r.c[i] = 0.0f;                                              \
		return r;                                                           \
	}                                                                           \
	KS_FUNC ks_vec##N ks_fill_vec##N(float s)                                   \
	{                                                                           \
		ks_vec##N r;                                                        \
		for (int i = 0; i < N; i++)                                         \
			r.c[i] = s;                                                 \
		return r;                                                           \
	}                                                                           \
	KS_FUNC ks_vec##N ks_insert_vec##N(ks_vec##N v, int k, float s)             \
	{                                                                           \
		v.c[k] = s;                                                         \
		return v;                                                           \
	}                                                                           \
	KS_FUNC ks_vec##N ks_neg_vec##N(ks_vec##N a)                                \
	{                                                                           \
		for (int i = 0; i < N; i++)                                         \
			a.c[i] = -a.c[i];                                           \
		return a;                                                           \
	}                                                                           \
	KS_FUNC ks_vec##N ks_add_vec##N(ks_vec##N a, ks_vec##N b)                   \
	{                                                                           \
		for (int i = 0; i < N; i++)                                         \
			a.c[i] = a.c[i] + b.c[i];                                   \
		return a;                                                           \
	}                                                                           \
	KS_FUNC ks_vec##N ks_sub_vec##N(ks_vec##N a, ks_vec##N b)                   \
	{                                                                           \
		for (int i = 0; i < N; i++)                                         \
			a.c[i] = a.c[i] - b.c[i];                                   \
		return a;                                                           \
	}                                                                           \
	KS_FUNC ks_vec##N ks_mul_vec##N##_float(ks_vec##N a, float s)               \
	{                                                                           \
		for (int i = 0; i < N; i++)                                         \
			a.c[i] = a.c[i] * s;                                        \
		return a;                                                           \
	}                                                                           \
	KS_FUNC ks_vec##N ks_mul_float_vec##N(float s, ks_vec##N a)                 \
	{                                                                           \
		for (int i = 0; i < N; i++)                                         \
			a.c[i] = s * a.c[i];                                        \
		return a;                                                           \
	}                                                                           \
	KS_FUNC ks_vec##N ks_div_vec##N##_float(ks_vec##N a, float s)               \
	{                                                                           \
		for (int i = 0; i < N; i++)                                         \
			a.c[i] = a.c[i] / s;                                        \
		return a;                                                           \
	}                                                                           \
	KS_FUNC float ks_dot_vec##N(ks_vec##N a, ks_vec##N b)                       \
	{                                                                           \
		float r = a.c[0] * b.c[0];                                          \
		for (int i = 1; i < N; i++)                                         \
			r = r + a.c[i] * b.c[i];                                    \
		return r;                                                           \
	}                                                                           \
	KS_FUNC float ks_length_sq_vec##N(ks_vec##N a) { return ks_dot_vec##N(a, a); } \
	KS_FUNC float ks_length_vec##N(ks_vec##N a) { return sqrtf(ks_dot_vec##N(a, a)); } \
	KS_FUNC ks_vec##N ks_normalize_vec##N(ks_vec##N a)                          \
	{                                                                           \
		float l = ks_length_vec##N(a);                                      \
		return l > 0.0f ? ks_div_vec##N##_float(a, l) : ks_zero_vec##N();   \
	}                                                                           \
	KS_FUNC ks_vec##N ks_abs_vec##N(ks_vec##N a)                                \
	{                                                                           \
		for (int i = 0; i < N; i++)                                         \
			a.c[i] = fabsf(a.c[i]);                                     \
		return a;                                                           \
	}                                                                           \
	KS_FUNC ks_vec##N ks_min_vec##N(ks_vec##N a, ks_vec##N b)                   \
	{                                                                           \
		for (int i = 0; i < N; i++)                                         \
			a.c[i] = ks_min_float(a.c[i], b.c[i]);                      \
		return a;                                                           \
	}                                                                           \
	KS_FUNC ks_vec##N ks_max_vec##N(ks_vec##N a, ks_vec##N b)                   \
	{                                                                           \
		for (int i = 0; i < N; i++)                                         \
			a.c[i] = ks_max_float(a.c[i], b.c[i]);                      \
		return a;                                                           \
	}

KS_VEC(2)
KS_VEC(3)
KS_VEC(4)

KS_FUNC ks_vec2 ks_make_vec2(float x, float y)
{
	ks_vec2 r;
	r.c[0] = x;
	r.c[1] = y;
	return r;
}

KS_FUNC ks_vec3 ks_make_vec3(float x, float y, float z)
{
	ks_vec3 r;
	r.c[0] = x;
	r.c[1] = y;
	r.c[2] = z;
	return r;
}

KS_FUNC ks_vec4 ks_make_vec4(float x, float y, float z, float w)
{
	ks_vec4 r;
	r.c[0] = x;
	r.c[1] = y;
	r.c[2] = z;
	r.c[3] = w;
	return r;
}

KS_FUNC ks_vec3 ks_cross_vec3(ks_vec3 a, ks_vec3 b)
{
	return ks_make_vec3(a.c[1] * b.c[2] - a.c[2] * b.c[1],
			    a.c[2] * b.c[0] - a.c[0] * b.c[2],
			    a.c[0] * b.c[1] - a.c[1] * b.c[0]);
}

/* ---- matrices ------------------------------------------------------------- */

/* KS_MAT(N) defines every operation on ks_matNN that is written the same
 * way for every N. */
#define KS_MAT(N)                                                                   \
	KS_FUNC ks_mat##N##N ks_zero_mat##N##N(void)                                \
	{                                                                           \
		ks_mat##N##N r;                                                     \
		for (int i = 0; i < N; i++)                                         \
			for (int j = 0; j < N; j++)                                 \
				r.c[i][j] = 0.0f;                                   \
		return r;                                                           \
	}                                                                           \
	KS_FUNC ks_mat##N##N ks_fill_mat##N##N(float s)                             \
	{                                                                           \
		ks_mat##N##N r;                                                     \
		for (int i = 0; i < N; i++)                                         \
			for (int j = 0; j < N; j++)                                 \
				r.c[i][j] = s;                                      \
		return r;                                                           \
	}                                                                           \
	KS_FUNC ks_vec##N ks_row_mat##N##N(ks_mat##N##N m, int i)                   \
	{                                                                           \
		ks_vec##N r;                                                        \
		for (int j = 0; j < N; j++)                                         \
			r.c[j] = m.c[i][j];                                         \
		return r;                                                           \
	}                                                                           \
	KS_FUNC ks_mat##N##N ks_set_row_mat##N##N(ks_mat##N##N m, int i, ks_vec##N r) \
	{                                                                           \
		for (int j = 0; j < N; j++)                                         \
			m.c[i][j] = r.c[j];                                         \
		return m;                                                           \
	}                                                                           \
	KS_FUNC ks_mat##N##N ks_insert_mat##N##N(ks_mat##N##N m, int i, int j, float s) \
	{                                                                           \
		m.c[i][j] = s;                                                      \
		return m;                                                           \
	}                                                                           \
	KS_FUNC ks_mat##N##N ks_neg_mat##N##N(ks_mat##N##N a)                       \
	{                                                                           \
		for (int i = 0; i < N; i++)                                         \
			for (int j = 0; j < N; j++)                                 \
				a.c[i][j] = -a.c[i][j];                             \
		return a;                                                           \
	}                                                                           \
	KS_FUNC ks_mat##N##N ks_add_mat##N##N(ks_mat##N##N a, ks_mat##N##N b)       \
	{                                                                           \
		for (int i = 0; i < N; i++)                                         \
			for (int j = 0; j < N; j++)                                 \
				a.c[i][j] = a.c[i][j] + b.c[i][j];                  \
		return a;                                                           \
	}                                                                           \
	KS_FUNC ks_mat##N##N ks_sub_mat##N##N(ks_mat##N##N a, ks_mat##N##N b)       \
	{                                                                           \
		for (int i = 0; i < N; i++)                                         \
			for (int j = 0; j < N; j++)                                 \
				a.c[i][j] = a.c[i][j] - b.c[i][j];                  \
		return a;                                                           \
	}                                                                           \
	KS_FUNC ks_mat##N##N ks_mul_mat##N##N##_float(ks_mat##N##N a, float s)      \
	{                                                                           \
		for (int i = 0; i < N; i++)                                         \
			for (int j = 0; j < N; j++)                                 \
				a.c[i][j] = a.c[i][j] * s;                          \
		return a;                                                           \
	}                                                                           \
	KS_FUNC ks_mat##N##N ks_mul_float_mat##N##N(float s, ks_mat##N##N a)        \
	{                                                                           \
		for (int i = 0; i < N; i++)                                         \
			for (int j = 0; j < N; j++)                                 \
				a.c[i][j] = s * a.c[i][j];                          \
		return a;                                                           \
	}                                                                           \
	KS_FUNC ks_mat##N##N ks_div_mat##N##N##_float(ks_mat##N##N a, float s)      \
	{                                                                           \
		for (int i = 0; i < N; i++)                                         \
			for (int j = 0; j < N; j++)                                 \
				a.c[i][j] = a.c[i][j] / s;                          \
		return a;                                                           \
	}                                                                           \
	KS_FUNC ks_vec##N ks_mul_mat##N##N##_vec##N(ks_mat##N##N m, ks_vec##N v)    \
	{                                                                           \
		ks_vec##N r;                                                        \
		for (int i = 0; i < N; i++) {                                       \
			r.c[i] = m.c[i][0] * v.c[0];                                \
			for (int k = 1; k < N; k++)                                 \
				r.c[i] = r.c[i] + m.c[i][k] * v.c[k];               \
		}                                                                   \
		return r;                                                           \
	}                                                                           \
	KS_FUNC ks_mat##N##N ks_mul_mat##N##N##_mat##N##N(ks_mat##N##N a, ks_mat##N##N b) \
	{                                                                           \
		ks_mat##N##N r;                                                     \
		for (int i = 0; i < N; i++)                                         \
			for (int j = 0; j < N; j++) {                               \
				r.c[i][j] = a.c[i][0] * b.c[0][j];                  \
				for (int k = 1; k < N; k++)                         \
					r.c[i][j] = r.c[i][j] + a.c[i][k] * b.c[k][j]; \
			}                                                           \
		return r;                                                           \
	}                                                                           \
	KS_FUNC ks_mat##N##N ks_outer_vec##N(ks_vec##N a, ks_vec##N b)              \
	{                                                                           \
		ks_mat##N##N r;                                                     \
		for (int i = 0; i < N; i++)                                         \
			for (int j = 0; j < N; j++)                                 \
				r.c[i][j] = a.c[i] * b.c[j];                        \
		return r;                                                           \
	}                                                                           \
	KS_FUNC ks_mat##N##N ks_transpose_mat##N##N(ks_mat##N##N a)                 \
	{                                                                           \
		ks_mat##N##N r;                                                     \
		for (int i = 0; i < N; i++)                                         \
			for (int j = 0; j < N; j++)                                 \
				r.c[i][j] = a.c[j][i];                              \
		return r;                                                           \
	}

KS_MAT(2)
KS_MAT(3)
KS_MAT(4)

KS_FUNC ks_mat22 ks_make_mat22(float m00, float m01, float m10, float m11)
{
	ks_mat22 r;
	r.c[0][0] = m00, r.c[0][1] = m01;
	r.c[1][0] = m10, r.c[1][1] = m11;
	return r;
}

KS_FUNC ks_mat33 ks_make_mat33(float m00, float m01, float m02, float m10, float m11, float m12,
			       float m20, float m21, float m22)
{
	ks_mat33 r;
	r.c[0][0] = m00, r.c[0][1] = m01, r.c[0][2] = m02;
	r.c[1][0] = m10, r.c[1][1] = m11, r.c[1][2] = m12;
	r.c[2][0] = m20, r.c[2][1] = m21, r.c[2][2] = m22;
	return r;
}

KS_FUNC ks_mat44 ks_make_mat44(float m00, float m01, float m02, float m03, float m10, float m11,
			       float m12, float m13, float m20, float m21, float m22, float m23,
			       float m30, float m31, float m32, float m33)
{
	ks_mat44 r;
	r.c[0][0] = m00, r.c[0][1] = m01, r.c[0][2] = m02, r.c[0][3] = m03;
	r.c[1][0] = m10, r.c[1][1] = m11, r.c[1][2] = m12, r.c[1][3] = m13;
	r.c[2][0] = m20, r.c[2][1] = m21, r.c[2][2] = m22, r.c[2][3] = m23;
	r.c[3][0] = m30, r.c[3][1] = m31, r.c[3][2] = m32, r.c[3][3] = m33;
	return r;
}

/* Determinants and inverses follow Warp's formulas (mat.h), in single
 * precision: the adjugate times the reciprocal of the determinant, and
 * the zero matrix when the determinant is 0. */
KS_FUNC float ks_determinant_mat22(ks_mat22 m)
{
	return m.c[0][0] * m.c[1][1] - m.c[1][0] * m.c[0][1];
}

KS_FUNC float ks_determinant_mat33(ks_mat33 m)
{
	return ks_dot_vec3(ks_row_mat33(m, 0), ks_cross_vec3(ks_row_mat33(m, 1), ks_row_mat33(m, 2)));
}

/* The 4x4 cofactors of the first two columns, from the 2x2 minors of the
 * last two (the scheme Warp takes from USD's GfMatrix4f::Inverse). */
KS_FUNC float ks_determinant_mat44(ks_mat44 m)
{
	float (*x)[4] = m.c;
	float y01 = x[0][2] * x[1][3] - x[1][2] * x[0][3];
	float y02 = x[0][2] * x[2][3] - x[2][2] * x[0][3];
	float y03 = x[0][2] * x[3][3] - x[3][2] * x[0][3];
	float y12 = x[1][2] * x[2][3] - x[2][2] * x[1][3];
	float y13 = x[1][2] * x[3][3] - x[3][2] * x[1][3];
	float y23 = x[2][2] * x[3][3] - x[3][2] * x[2][3];
	float z30 = x[1][1] * y02 - x[2][1] * y01 - x[0][1] * y12;
	float z20 = x[0][1] * y13 - x[1][1] * y03 + x[3][1] * y01;
	float z10 = x[2][1] * y03 - x[3][1] * y02 - x[0][1] * y23;
	float z00 = x[1][1] * y23 - x[2][1] * y13 + x[3][1] * y12;
	return x[3][0] * z30 + x[2][0] * z20 + x[1][0] * z10 + x[0][0] * z00;
}

KS_FUNC ks_mat22 ks_inverse_mat22(ks_mat22 m)
{
	float det = ks_determinant_mat22(m);
	if (det == 0.0f)
		return ks_zero_mat22();
	return ks_mul_mat22_float(ks_make_mat22(m.c[1][1], -m.c[0][1], -m.c[1][0], m.c[0][0]), 1.0f / det);
}

KS_FUNC ks_mat33 ks_inverse_mat33(ks_mat33 m)
{
	float det = ks_determinant_mat33(m);
	ks_mat33 b;
	if (det == 0.0f)
		return ks_zero_mat33();
	b.c[0][0] = m.c[1][1] * m.c[2][2] - m.c[1][2] * m.c[2][1];
	b.c[1][0] = m.c[1][2] * m.c[2][0] - m.c[1][0] * m.c[2][2];
	b.c[2][0] = m.c[1][0] * m.c[2][1] - m.c[1][1] * m.c[2][0];
	b.c[0][1] = m.c[0][2] * m.c[2][1] - m.c[0][1] * m.c[2][2];
	b.c[1][1] = m.c[0][0] * m.c[2][2] - m.c[0][2] * m.c[2][0];
	b.c[2][1] = m.c[0][1] * m.c[2][0] - m.c[0][0] * m.c[2][1];
	b.c[0][2] = m.c[0][1] * m.c[1][2] - m.c[0][2] * m.c[1][1];
	b.c[1][2] = m.c[0][2] * m.c[1][0] - m.c[0][0] * m.c[1][2];
	b.c[2][2] = m.c[0][0] * m.c[1][1] - m.c[0][1] * m.c[1][0];
	return ks_mul_mat33_float(b, 1.0f / det);
}

KS_FUNC ks_mat44 ks_inverse_mat44(ks_mat44 m)
{
	float (*x)[4] = m.c;
	ks_mat44 r;
	/* 2x2 minors of the first two columns */
	float y01 = x[0][0] * x[1][1] - x[1][0] * x[0][1];
	float y02 = x[0][0] * x[2][1] - x[2][0] * x[0][1];
	float y03 = x[0][0] * x[3][1] - x[3][0] * x[0][1];
	float y12 = x[1][0] * x[2][1] - x[2][0] * x[1][1];
	float y13 = x[1][0] * x[3][1] - x[3][0] * x[1][1];
	float y23 = x[2][0] * x[3][1] - x[3][0] * x[2][1];
	/* cofactors of the last two columns */
	float z33 = x[0][2] * y12 - x[1][2] * y02 + x[2][2] * y01;
	float z23 = x[1][2] * y03 - x[3][2] * y01 - x[0][2] * y13;
	float z13 = x[0][2] * y23 - x[2][2] * y03 + x[3][2] * y02;
	float z03 = x[2][2] * y13 - x[3][2] * y12 - x[1][2] * y23;
	float z32 = x[1][3] * y02 - x[2][3] * y01 - x[0][3] * y12;
	float z22 = x[0][3] * y13 - x[1][3] * y03 + x[3][3] * y01;
	float z12 = x[2][3] * y03 - x[3][3] * y02 - x[0][3] * y23;
	float z02 = x[1][3] * y23 - x[2][3] * y13 + x[3][3] * y12;
	/* 2x2 minors of the last two columns */
	y01 = x[0][2] * x[1][3] - x[1][2] * x[0][3];
	y02 = x[0][2] * x[2][3] - x[2][2] * x[0][3];
	y03 = x[0][2] * x[3][3] - x[3][2] * x[0][3];
	y12 = x[1][2] * x[2][3] - x[2][2] * x[1][3];
	y13 = x[1][2] * x[3][3] - x[3][2] * x[1][3];
	y23 = x[2][2] * x[3][3] - x[3][2] * x[2][3];
	/* cofactors of the first two columns */
	float z30 = x[1][1] * y02 - x[2][1] * y01 - x[0][1] * y12;
	float z20 = x[0][1] * y13 - x[1][1] * y03 + x[3][1] * y01;
	float z10 = x[2][1] * y03 - x[3][1] * y02 - x[0][1] * y23;
	float z00 = x[1][1] * y23 - x[2][1] * y13 + x[3][1] * y12;
	float z31 = x[0][0] * y12 - x[1][0] * y02 + x[2][0] * y01;
	float z21 = x[1][0] * y03 - x[3][0] * y01 - x[0][0] * y13;
	float z11 = x[0][0] * y23 - x[2][0] * y03 + x[3][0] * y02;
	float z01 = x[2][0] * y13 - x[3][0] * y12 - x[1][0] * y23;
	float det = x[3][0] * z30 + x[2][0] * z20 + x[1][0] * z10 + x[0][0] * z00;
	if (det == 0.0f)
		return ks_zero_mat44();
	float rcp = 1.0f / det;
	r.c[0][0] = z00 * rcp, r.c[0][1] = z10 * rcp, r.c[0][2] = z20 * rcp, r.c[0][3] = z30 * rcp;
	r.c[1][0] = z01 * rcp, r.c[1][1] = z11 * rcp, r.c[1][2] = z21 * rcp, r.c[1][3] = z31 * rcp;
	r.c[2][0] = z02 * rcp, r.c[2][1] = z12 * rcp, r.c[2][2] = z22 * rcp, r.c[2][3] = z32 * rcp;
	r.c[3][0] = z03 * rcp, r.c[3][1] = z13 * rcp, r.c[3][2] = z23 * rcp, r.c[3][3] = z33 * rcp;
	return r;
}

/* ---- atomics ------------------------------------------------------------- */

/* Each returns the value before the update.  The CPU runs threads one
 * after another, so there a plain read-modify-write is atomic. */
#if KS_CUDA
KS_FUNC float ks_atomic_add_float(float *p, float v) { return atomicAdd(p, v); }
KS_FUNC int ks_atomic_add_int(int *p, int v) { return atomicAdd(p, v); }
KS_FUNC float ks_atomic_sub_float(float *p, float v) { return atomicAdd(p, -v); }
KS_FUNC int ks_atomic_sub_int(int *p, int v) { return atomicSub(p, v); }
KS_FUNC int ks_atomic_min_int(int *p, int v) { return atomicMin(p, v); }
KS_FUNC int ks_atomic_max_int(int *p, int v) { return atomicMax(p, v); }
/* No float atomicMin/atomicMax: a compare-and-swap loop on the bits,
 * storing only when the new value wins (v < old, Warp's min). */
KS_FUNC float ks_atomic_min_float(float *p, float v)
{
	int *ip = (int *)p;
	int old = *ip, seen;
	while (v < __int_as_float(old)) {
		seen = atomicCAS(ip, old, __float_as_int(v));
		if (seen == old)
			break;
		old = seen;
	}
	return __int_as_float(old);
}
KS_FUNC float ks_atomic_max_float(float *p, float v)
{
	int *ip = (int *)p;
	int old = *ip, seen;
	while (v > __int_as_float(old)) {
		seen = atomicCAS(ip, old, __float_as_int(v));
		if (seen == old)
			break;
		old = seen;
	}
	return __int_as_float(old);
}
#else
KS_FUNC float ks_atomic_add_float(float *p, float v) { float old = *p; *p = old + v; return old; }
KS_FUNC int ks_atomic_add_int(int *p, int v) { int old = *p; *p = old + v; return old; }
KS_FUNC float ks_atomic_sub_float(float *p, float v) { float old = *p; *p = old - v; return old; }
KS_FUNC int ks_atomic_sub_int(int *p, int v) { int old = *p; *p = old - v; return old; }
KS_FUNC float ks_atomic_min_float(float *p, float v) { float old = *p; if (v < old) *p = v; return old; }
KS_FUNC int ks_atomic_min_int(int *p, int v) { int old = *p; if (v < old) *p = v; return old; }
KS_FUNC float ks_atomic_max_float(float *p, float v) { float old = *p; if (v > old) *p = v; return old; }
KS_FUNC int ks_atomic_max_int(int *p, int v) { int old = *p; if (v > old) *p = v; return old; }
#endif

/* Vector atomics: componentwise (each component is atomic, the vector as
 * a whole is not, as in Warp). */
#define KS_VEC_ATOMIC(N)                                                            \
	KS_FUNC ks_vec##N ks_atomic_add_vec##N(ks_vec##N *p, ks_vec##N v)           \
	{                                                                           \
		ks_vec##N old;                                                      \
		for (int i = 0; i < N; i++)                                         \
			old.c[i] = ks_atomic_add_float(&p->c[i], v.c[i]);           \
		return old;                                                         \
	}                                                                           \
	KS_FUNC ks_vec##N ks_atomic_sub_vec##N(ks_vec##N *p, ks_vec##N v)           \
	{                                                                           \
		ks_vec##N old;                                                      \
		for (int i = 0; i < N; i++)                                         \
			old.c[i] = ks_atomic_sub_float(&p->c[i], v.c[i]);           \
		return old;                                                         \
	}

KS_VEC_ATOMIC(2)
KS_VEC_ATOMIC(3)
KS_VEC_ATOMIC(4)

/* Matrix atomics: elementwise, likewise. */
#define KS_MAT_ATOMIC(N)                                                            \
	KS_FUNC ks_mat##N##N ks_atomic_add_mat##N##N(ks_mat##N##N *p, ks_mat##N##N v)   \
	{                                                                           \
		ks_mat##N##N old;                                                   \
		for (int i = 0; i < N; i++)                                         \
			for (int j = 0; j < N; j++)                                 \
				old.c[i][j] = ks_atomic_add_float(&p->c[i][j], v.c[i][j]); \
		return old;                                                         \
	}                                                                           \
	KS_FUNC ks_mat##N##N ks_atomic_sub_mat##N##N(ks_mat##N##N *p, ks_mat##N##N v)   \
	{                                                                           \
		ks_mat##N##N old;                                                   \
		for (int i = 0; i < N; i++)                                         \
			for (int j = 0; j < N; j++)                                 \
				old.c[i][j] = ks_atomic_sub_float(&p->c[i][j], v.c[i][j]); \
		return old;                                                         \
	}

KS_MAT_ATOMIC(2)
KS_MAT_ATOMIC(3)
KS_MAT_ATOMIC(4)

#endif
