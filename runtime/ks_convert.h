/*
 * ks_convert.h: conversions between types beyond the scalars' (which are
 * ks_scalar.h's): a vector, matrix, quaternion or transform to the same
 * shape of another scalar type, component by component; and ks_bitcast,
 * a value's bits read as another type of the same size (wp.cast).
 */
#ifndef KS_CONVERT_H
#define KS_CONVERT_H

/* Numbers convert among themselves as C's casts do (the emitted code
 * writes the cast), but for a float to an int and for float16 (ks_scalar.h).
 * A vector, matrix, quaternion or transform converts component by
 * component to the same shape of another scalar, among int32 and the
 * floats (ks_to_vec3d_vec3). */
#define KS_CAST(TN, TT, FN, FT) \
	KS_FUNC TT ks_to_##TN##_##FN(FT x) { return (TT)x; }
KS_CAST(float, KS_REAL, int, int)
KS_CAST(float64, double, int, int)

#define KS_CONV(N, TO, TN, FROM, FN)                        \
	KS_FUNC ks_##TO ks_to_##TO##_##FROM(ks_##FROM a)    \
	{                                                   \
		ks_##TO r;                                  \
		for (int i = 0; i < N; i++)                 \
			r.c[i] = ks_to_##TN##_##FN(a.c[i]); \
		return r;                                   \
	}
#define KS_CONV_MAT(N, TO, TN, FROM, FN)                                  \
	KS_FUNC ks_##TO ks_to_##TO##_##FROM(ks_##FROM a)                  \
	{                                                                 \
		ks_##TO r;                                                \
		for (int i = 0; i < N; i++)                               \
			for (int j = 0; j < N; j++)                       \
				r.c[i][j] = ks_to_##TN##_##FN(a.c[i][j]); \
		return r;                                                 \
	}
/* every direction between two scalar types, for one shape */
#define KS_CONV2(CONV, N, A, AN, B, BN) CONV(N, A, AN, B, BN) CONV(N, B, BN, A, AN)
#define KS_CONV_FLOATS(CONV, N, H, F, D)          \
	KS_CONV2(CONV, N, H, float16, F, float)   \
	KS_CONV2(CONV, N, H, float16, D, float64) \
	KS_CONV2(CONV, N, F, float, D, float64)
#define KS_CONV_VECS(N, H, F, D, I)              \
	KS_CONV_FLOATS(KS_CONV, N, H, F, D)      \
	KS_CONV2(KS_CONV, N, I, int, H, float16) \
	KS_CONV2(KS_CONV, N, I, int, F, float)   \
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
/* clang-format off */
#define ks_bitcast(TO, FROM, x) (((union { FROM from; TO to; }){.from = (x)}).to)
/* clang-format on */
#endif

#endif
