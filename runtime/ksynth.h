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
/* a // b rounds toward minus infinity, as Warp's does (on ints too, where
 * C's / truncates); a % b truncates, as C's % and fmodf, and as Warp's. */
KS_FUNC int ks_floordiv_int(int a, int b)
{
	int q = a / b;
	return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
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

#endif
