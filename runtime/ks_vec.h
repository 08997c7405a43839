/*
 * ks_vec.h: the vectors of every scalar type, lengths 2, 3 and 4, and 6
 * for floats (the spatial vector): a struct of N components, ks_<VT>,
 * with its constructors, operators and builtins, written once as macros
 * over ks_scalar.h's operations and instantiated for each type.  The
 * component-wise helpers (KS_CW1, KS_CW2, KS_CWS, KS_CSW) serve the
 * quaternions and transforms too.
 */
#ifndef KS_VEC_H
#define KS_VEC_H

/* NAME, a function of type T (a vector, quaternion or transform of N
 * components) that applies F component by component: to a (KS_CW1), to a
 * and b (KS_CW2), to a and a scalar s of type ST, after (KS_CWS) or before
 * (KS_CSW). */
#define KS_CW1(T, NAME, N, F)               \
	KS_FUNC T NAME(T a)                 \
	{                                   \
		for (int i = 0; i < N; i++) \
			a.c[i] = F(a.c[i]); \
		return a;                   \
	}
#define KS_CW2(T, NAME, N, F)                       \
	KS_FUNC T NAME(T a, T b)                    \
	{                                           \
		for (int i = 0; i < N; i++)         \
			a.c[i] = F(a.c[i], b.c[i]); \
		return a;                           \
	}
#define KS_CWS(T, NAME, N, ST, F)              \
	KS_FUNC T NAME(T a, ST s)              \
	{                                      \
		for (int i = 0; i < N; i++)    \
			a.c[i] = F(a.c[i], s); \
		return a;                      \
	}
#define KS_CSW(T, NAME, N, ST, F)              \
	KS_FUNC T NAME(ST s, T a)              \
	{                                      \
		for (int i = 0; i < N; i++)    \
			a.c[i] = F(s, a.c[i]); \
		return a;                      \
	}

/* ks_<VT> holds N components of the scalar SN (C type ST).  KS_VEC
 * defines what every vector has; KS_VEC_FLOAT what vectors of floats add;
 * KS_MAKEn the constructors. */
#define KS_VEC(VT, N, SN, ST)                                                       \
	typedef struct {                                                            \
		ST c[N];                                                            \
	} ks_##VT;                                                                  \
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

#define KS_VEC_FLOAT(VT, N, SN, ST)                                                               \
	KS_FUNC ST ks_length_##VT(ks_##VT a) { return ks_sqrt_##SN(ks_dot_##VT(a, a)); }          \
	KS_FUNC ks_##VT ks_normalize_##VT(ks_##VT a)                                              \
	{                                                                                         \
		ST l = ks_length_##VT(a);                                                         \
		return ks_gt_##SN(l, ks_zero_##SN()) ? ks_div_##VT##_##SN(a, l) : ks_zero_##VT(); \
	}

#define KS_CROSS(VT, SN, ST)                                                                                \
	KS_FUNC ks_##VT ks_cross_##VT(ks_##VT a, ks_##VT b)                                                 \
	{                                                                                                   \
		return ks_make_##VT(ks_sub_##SN(ks_mul_##SN(a.c[1], b.c[2]), ks_mul_##SN(a.c[2], b.c[1])),  \
				    ks_sub_##SN(ks_mul_##SN(a.c[2], b.c[0]), ks_mul_##SN(a.c[0], b.c[2])),  \
				    ks_sub_##SN(ks_mul_##SN(a.c[0], b.c[1]), ks_mul_##SN(a.c[1], b.c[0]))); \
	}

#define KS_MAKE2(VT, ST)                         \
	KS_FUNC ks_##VT ks_make_##VT(ST x, ST y) \
	{                                        \
		ks_##VT r;                       \
		r.c[0] = x, r.c[1] = y;          \
		return r;                        \
	}
#define KS_MAKE3(VT, ST)                               \
	KS_FUNC ks_##VT ks_make_##VT(ST x, ST y, ST z) \
	{                                              \
		ks_##VT r;                             \
		r.c[0] = x, r.c[1] = y, r.c[2] = z;    \
		return r;                              \
	}
#define KS_MAKE4(VT, ST)                                        \
	KS_FUNC ks_##VT ks_make_##VT(ST x, ST y, ST z, ST w)    \
	{                                                       \
		ks_##VT r;                                      \
		r.c[0] = x, r.c[1] = y, r.c[2] = z, r.c[3] = w; \
		return r;                                       \
	}
#define KS_MAKE6(VT, ST)                                                                \
	KS_FUNC ks_##VT ks_make_##VT(ST a, ST b, ST c, ST d, ST e, ST f)                \
	{                                                                               \
		ks_##VT r;                                                              \
		r.c[0] = a, r.c[1] = b, r.c[2] = c, r.c[3] = d, r.c[4] = e, r.c[5] = f; \
		return r;                                                               \
	}

/* The vectors of one scalar type: lengths 2, 3, 4 and, for floats, the
 * spatial vector (6). */
#define KS_VECS(SN, ST, V2, V3, V4) \
	KS_VEC(V2, 2, SN, ST)       \
	KS_VEC(V3, 3, SN, ST)       \
	KS_VEC(V4, 4, SN, ST)       \
	KS_MAKE2(V2, ST)            \
	KS_MAKE3(V3, ST)            \
	KS_MAKE4(V4, ST)            \
	KS_CROSS(V3, SN, ST)
#define KS_FLOAT_VECS(SN, ST, V2, V3, V4, V6) \
	KS_VECS(SN, ST, V2, V3, V4)           \
	KS_VEC(V6, 6, SN, ST)                 \
	KS_MAKE6(V6, ST)                      \
	KS_VEC_FLOAT(V2, 2, SN, ST)           \
	KS_VEC_FLOAT(V3, 3, SN, ST)           \
	KS_VEC_FLOAT(V4, 4, SN, ST)           \
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
#define KS_VEC_MORE(VT, N, SN, ST)                                              \
	KS_CW1(ks_##VT, ks_sign_##VT, N, ks_sign_##SN)                          \
	KS_CW2(ks_##VT, ks_mod_##VT, N, ks_mod_##SN)                            \
	KS_CW2(ks_##VT, ks_cw_mul_##VT, N, ks_mul_##SN)                         \
	KS_CW2(ks_##VT, ks_cw_div_##VT, N, ks_div_##SN)                         \
	KS_FUNC uint32_t ks_argmin_##VT(ks_##VT a)                              \
	{                                                                       \
		int k = 0;                                                      \
		while (k < N && ks_ne_##SN(a.c[k], a.c[k]))                     \
			k++;                                                    \
		if (k == N)                                                     \
			return 0;                                               \
		for (int i = k + 1; i < N; i++)                                 \
			if (ks_lt_##SN(a.c[i], a.c[k]))                         \
				k = i;                                          \
		return (uint32_t)k;                                             \
	}                                                                       \
	KS_FUNC uint32_t ks_argmax_##VT(ks_##VT a)                              \
	{                                                                       \
		int k = 0;                                                      \
		while (k < N && ks_ne_##SN(a.c[k], a.c[k]))                     \
			k++;                                                    \
		if (k == N)                                                     \
			return 0;                                               \
		for (int i = k + 1; i < N; i++)                                 \
			if (ks_gt_##SN(a.c[i], a.c[k]))                         \
				k = i;                                          \
		return (uint32_t)k;                                             \
	}                                                                       \
	KS_FUNC ST ks_min_of_##VT(ks_##VT a) { return a.c[ks_argmin_##VT(a)]; } \
	KS_FUNC ST ks_max_of_##VT(ks_##VT a) { return a.c[ks_argmax_##VT(a)]; }

/* lerp and the tests of a float vector: a NaN or infinite component makes
 * it NaN or infinite; finite when all are */
#define KS_VEC_FLOAT_MORE(VT, N, SN, ST)                                                      \
	KS_FUNC ks_##VT ks_lerp_##VT(ks_##VT a, ks_##VT b, ST t)                              \
	{                                                                                     \
		ST s = ks_sub_##SN(ks_one_##SN(), t);                                         \
		for (int i = 0; i < N; i++)                                                   \
			a.c[i] = ks_add_##SN(ks_mul_##SN(a.c[i], s), ks_mul_##SN(b.c[i], t)); \
		return a;                                                                     \
	}                                                                                     \
	KS_FUNC bool ks_isnan_##VT(ks_##VT a)                                                 \
	{                                                                                     \
		for (int i = 0; i < N; i++)                                                   \
			if (ks_isnan_##SN(a.c[i]))                                            \
				return true;                                                  \
		return false;                                                                 \
	}                                                                                     \
	KS_FUNC bool ks_isinf_##VT(ks_##VT a)                                                 \
	{                                                                                     \
		for (int i = 0; i < N; i++)                                                   \
			if (ks_isinf_##SN(a.c[i]))                                            \
				return true;                                                  \
		return false;                                                                 \
	}                                                                                     \
	KS_FUNC bool ks_isfinite_##VT(ks_##VT a)                                              \
	{                                                                                     \
		for (int i = 0; i < N; i++)                                                   \
			if (!ks_isfinite_##SN(a.c[i]))                                        \
				return false;                                                 \
		return true;                                                                  \
	}

/* the components of a float vector by a scalar, and a scalar by each
 * component, approximately */
#define KS_VEC_DIV_APPROX(VT, N, SN, ST)                               \
	KS_CWS(ks_##VT, ks_div_approx_##VT, N, ST, ks_div_approx_##SN) \
	KS_FUNC ks_##VT ks_div_approx_##SN##_##VT(ST s, ks_##VT b)     \
	{                                                              \
		for (int i = 0; i < N; i++)                            \
			b.c[i] = ks_div_approx_##SN(s, b.c[i]);        \
		return b;                                              \
	}

/* ~ of each component of an int vector */
#define KS_VEC_INT_MORE(VT, N, SN, ST) KS_CW1(ks_##VT, ks_invert_##VT, N, ks_invert_##SN)

#define KS_FLOAT_VECS_MORE(SN, ST, V2, V3, V4, V6) \
	KS_VEC_MORE(V2, 2, SN, ST)                 \
	KS_VEC_MORE(V3, 3, SN, ST)                 \
	KS_VEC_MORE(V4, 4, SN, ST)                 \
	KS_VEC_MORE(V6, 6, SN, ST)                 \
	KS_VEC_FLOAT_MORE(V2, 2, SN, ST)           \
	KS_VEC_FLOAT_MORE(V3, 3, SN, ST)           \
	KS_VEC_FLOAT_MORE(V4, 4, SN, ST)           \
	KS_VEC_FLOAT_MORE(V6, 6, SN, ST)           \
	KS_VEC_DIV_APPROX(V2, 2, SN, ST)           \
	KS_VEC_DIV_APPROX(V3, 3, SN, ST)           \
	KS_VEC_DIV_APPROX(V4, 4, SN, ST)           \
	KS_VEC_DIV_APPROX(V6, 6, SN, ST)
#define KS_INT_VECS_MORE(SN, ST, V2, V3, V4) \
	KS_VEC_MORE(V2, 2, SN, ST)           \
	KS_VEC_MORE(V3, 3, SN, ST)           \
	KS_VEC_MORE(V4, 4, SN, ST)           \
	KS_VEC_INT_MORE(V2, 2, SN, ST)       \
	KS_VEC_INT_MORE(V3, 3, SN, ST)       \
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

#endif
