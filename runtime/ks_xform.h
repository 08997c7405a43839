/*
 * ks_xform.h: the transforms, ks_transform, ks_transformh and ks_transformd
 * of each float type: a position p (c[0..2]) and a rotation q, a
 * quaternion (c[3..6]), as Warp lays them out; their operators, the
 * transform builtins of ir/builtins.h in Warp's formulas (spatial.h), on
 * transforms and on 4x4 matrices, and their adjoints (ks_adj_, as in
 * ks_quat.h).
 */
#ifndef KS_XFORM_H
#define KS_XFORM_H

/* A transform's constructor from p and q, its parts, its operators; the
 * product composes: a * b is b's position rotated by a's rotation plus
 * a's position, the rotations multiplied.  QT and V3 are the quaternion and
 * vector of the same scalar SN (C type ST). */
#define KS_XFORM(XT, QT, SN, ST, V3)                                                                            \
	typedef struct {                                                                                        \
		ST c[7];                                                                                        \
	} ks_##XT;                                                                                              \
	KS_FUNC ks_##XT ks_make_##XT(ks_##V3 p, ks_##QT q)                                                      \
	{                                                                                                       \
		ks_##XT t;                                                                                      \
		for (int i = 0; i < 3; i++)                                                                     \
			t.c[i] = p.c[i];                                                                        \
		for (int i = 0; i < 4; i++)                                                                     \
			t.c[3 + i] = q.c[i];                                                                    \
		return t;                                                                                       \
	}                                                                                                       \
	KS_FUNC ks_##V3 ks_transform_p_##XT(ks_##XT t) { return ks_make_##V3(t.c[0], t.c[1], t.c[2]); }         \
	KS_FUNC ks_##QT ks_transform_q_##XT(ks_##XT t) { return ks_make_##QT(t.c[3], t.c[4], t.c[5], t.c[6]); } \
	KS_FUNC ks_##XT ks_zero_##XT(void)                                                                      \
	{                                                                                                       \
		ks_##XT t;                                                                                      \
		for (int i = 0; i < 7; i++)                                                                     \
			t.c[i] = ks_zero_##SN();                                                                \
		return t;                                                                                       \
	}                                                                                                       \
	KS_FUNC ks_##XT ks_fill_##XT(ST s)                                                                      \
	{                                                                                                       \
		ks_##XT t;                                                                                      \
		for (int i = 0; i < 7; i++)                                                                     \
			t.c[i] = s;                                                                             \
		return t;                                                                                       \
	}                                                                                                       \
	KS_FUNC ks_##XT ks_insert_##XT(ks_##XT t, int k, ST s)                                                  \
	{                                                                                                       \
		t.c[k] = s;                                                                                     \
		return t;                                                                                       \
	}                                                                                                       \
	KS_CW2(ks_##XT, ks_add_##XT, 7, ks_add_##SN)                                                            \
	KS_CW2(ks_##XT, ks_sub_##XT, 7, ks_sub_##SN)                                                            \
	KS_CWS(ks_##XT, ks_mul_##XT##_##SN, 7, ST, ks_mul_##SN)                                                 \
	KS_CSW(ks_##XT, ks_mul_##SN##_##XT, 7, ST, ks_mul_##SN)                                                 \
	/* a * b: b's position rotated by a's rotation plus a's position, the   \
	 * rotations multiplied */                               \
	KS_FUNC ks_##XT ks_mul_##XT##_##XT(ks_##XT a, ks_##XT b)                                                \
	{                                                                                                       \
		ks_##QT qa = ks_transform_q_##XT(a);                                                            \
		return ks_make_##XT(                                                                            \
			ks_add_##V3(ks_quat_rotate_##QT(qa, ks_transform_p_##XT(b)), ks_transform_p_##XT(a)),   \
			ks_mul_##QT##_##QT(qa, ks_transform_q_##XT(b)));                                        \
	}                                                                                                       \
	KS_FUNC bool ks_eq_##XT(ks_##XT a, ks_##XT b)                                                           \
	{                                                                                                       \
		for (int i = 0; i < 7; i++)                                                                     \
			if (!ks_eq_##SN(a.c[i], b.c[i]))                                                        \
				return false;                                                                   \
		return true;                                                                                    \
	}                                                                                                       \
	KS_FUNC bool ks_ne_##XT(ks_##XT a, ks_##XT b) { return !ks_eq_##XT(a, b); }

KS_XFORM(transform, quat, float, KS_REAL, vec3)
KS_XFORM(transformh, quath, float16, ks_half, vec3h)
KS_XFORM(transformd, quatd, float64, double, vec3d)

/* The transform builtins and their adjoints.  QT, V3, M4: the quaternion,
 * vector and 4x4 matrix of the same scalar SN. */
#define KS_XFORM_MATH(XT, QT, SN, V3, M4)                                                                         \
	KS_FUNC ks_##XT ks_transform_identity_##SN(void)                                                          \
	{                                                                                                         \
		return ks_make_##XT(ks_zero_##V3(), ks_quat_identity_##SN());                                     \
	}                                                                                                         \
	KS_FUNC ks_##V3 ks_transform_get_translation_##XT(ks_##XT t) { return ks_transform_p_##XT(t); }           \
	KS_FUNC ks_##QT ks_transform_get_rotation_##XT(ks_##XT t) { return ks_transform_q_##XT(t); }              \
	KS_FUNC ks_##XT ks_transform_set_translation_##XT(ks_##XT t, ks_##V3 p)                                   \
	{                                                                                                         \
		return ks_make_##XT(p, ks_transform_q_##XT(t));                                                   \
	}                                                                                                         \
	KS_FUNC ks_##XT ks_transform_set_rotation_##XT(ks_##XT t, ks_##QT q)                                      \
	{                                                                                                         \
		return ks_make_##XT(ks_transform_p_##XT(t), q);                                                   \
	}                                                                                                         \
	KS_FUNC ks_##XT ks_transform_multiply_##XT(ks_##XT a, ks_##XT b) { return ks_mul_##XT##_##XT(a, b); }     \
	KS_FUNC ks_##V3 ks_transform_point_##XT(ks_##XT t, ks_##V3 x)                                             \
	{                                                                                                         \
		return ks_add_##V3(ks_transform_p_##XT(t), ks_quat_rotate_##QT(ks_transform_q_##XT(t), x));       \
	}                                                                                                         \
	KS_FUNC ks_##V3 ks_transform_vector_##XT(ks_##XT t, ks_##V3 x)                                            \
	{                                                                                                         \
		return ks_quat_rotate_##QT(ks_transform_q_##XT(t), x);                                            \
	}                                                                                                         \
	KS_CW1(ks_##XT, ks_neg_##XT, 7, ks_neg_##SN)                                                              \
	KS_FUNC ks_##XT ks_transform_inverse_##XT(ks_##XT t)                                                      \
	{                                                                                                         \
		ks_##QT qi = ks_quat_inverse_##QT(ks_transform_q_##XT(t));                                        \
		return ks_make_##XT(ks_neg_##V3(ks_quat_rotate_##QT(qi, ks_transform_p_##XT(t))), qi);            \
	}                                                                                                         \
	/* a 4x4 matrix on a point (w = 1) or a vector (w = 0) */                                                 \
	KS_FUNC ks_##V3 ks_transform_affine_##M4(ks_##M4 m, ks_##V3 x, int point)                                 \
	{                                                                                                         \
		ks_##V3 r;                                                                                        \
		for (int i = 0; i < 3; i++) {                                                                     \
			r.c[i] = ks_mul_##SN(m.c[i][0], x.c[0]);                                                  \
			for (int k = 1; k < 3; k++)                                                               \
				r.c[i] = ks_add_##SN(r.c[i], ks_mul_##SN(m.c[i][k], x.c[k]));                     \
			r.c[i] = ks_add_##SN(r.c[i], point ? m.c[i][3] : ks_mul_##SN(m.c[i][3], ks_zero_##SN())); \
		}                                                                                                 \
		return r;                                                                                         \
	}                                                                                                         \
	KS_FUNC ks_##V3 ks_transform_point_##M4(ks_##M4 m, ks_##V3 x)                                             \
	{                                                                                                         \
		return ks_transform_affine_##M4(m, x, 1);                                                         \
	}                                                                                                         \
	KS_FUNC ks_##V3 ks_transform_vector_##M4(ks_##M4 m, ks_##V3 x)                                            \
	{                                                                                                         \
		return ks_transform_affine_##M4(m, x, 0);                                                         \
	}                                                                                                         \
	KS_FUNC ks_##XT ks_adj_transform_get_translation_xform_##V3(ks_##V3 g)                                    \
	{                                                                                                         \
		return ks_make_##XT(g, ks_zero_##QT());                                                           \
	}                                                                                                         \
	KS_FUNC ks_##XT ks_adj_transform_get_rotation_xform_##QT(ks_##QT g)                                       \
	{                                                                                                         \
		return ks_make_##XT(ks_zero_##V3(), g);                                                           \
	}                                                                                                         \
	KS_FUNC ks_##XT ks_adj_transform_multiply_a_##XT(ks_##XT a, ks_##XT b, ks_##XT g)                         \
	{                                                                                                         \
		ks_##V3 gp = ks_transform_p_##XT(g);                                                              \
		ks_##QT qa = ks_transform_q_##XT(a), qb = ks_transform_q_##XT(b);                                 \
		return ks_make_##XT(                                                                              \
			gp, ks_add_##QT(ks_adj_quat_rotate_q_##QT(qa, ks_transform_p_##XT(b), gp),                \
					ks_mul_##QT##_##QT(ks_transform_q_##XT(g), ks_quat_inverse_##QT(qb))));   \
	}                                                                                                         \
	KS_FUNC ks_##XT ks_adj_transform_multiply_b_##XT(ks_##XT a, ks_##XT b, ks_##XT g)                         \
	{                                                                                                         \
		ks_##QT qa = ks_transform_q_##XT(a);                                                              \
		(void)b;                                                                                          \
		return ks_make_##XT(ks_quat_rotate_inv_##QT(qa, ks_transform_p_##XT(g)),                          \
				    ks_mul_##QT##_##QT(ks_quat_inverse_##QT(qa), ks_transform_q_##XT(g)));        \
	}                                                                                                         \
	KS_FUNC ks_##XT ks_adj_transform_point_xform_##XT(ks_##XT t, ks_##V3 x, ks_##V3 g)                        \
	{                                                                                                         \
		return ks_make_##XT(g, ks_adj_quat_rotate_q_##QT(ks_transform_q_##XT(t), x, g));                  \
	}                                                                                                         \
	KS_FUNC ks_##XT ks_adj_transform_vector_xform_##XT(ks_##XT t, ks_##V3 x, ks_##V3 g)                       \
	{                                                                                                         \
		return ks_make_##XT(ks_zero_##V3(), ks_adj_quat_rotate_q_##QT(ks_transform_q_##XT(t), x, g));     \
	}                                                                                                         \
	KS_FUNC ks_##V3 ks_adj_transform_point_point_##XT(ks_##XT t, ks_##V3 x, ks_##V3 g)                        \
	{                                                                                                         \
		(void)x;                                                                                          \
		return ks_quat_rotate_inv_##QT(ks_transform_q_##XT(t), g);                                        \
	}                                                                                                         \
	KS_FUNC ks_##V3 ks_adj_transform_vector_vec_##XT(ks_##XT t, ks_##V3 x, ks_##V3 g)                         \
	{                                                                                                         \
		return ks_adj_transform_point_point_##XT(t, x, g);                                                \
	}                                                                                                         \
	/* m's upper-left 3x3 transposed, on g */                                                                 \
	KS_FUNC ks_##V3 ks_adj_transform_point_point_##M4(ks_##M4 m, ks_##V3 x, ks_##V3 g)                        \
	{                                                                                                         \
		ks_##V3 r;                                                                                        \
		(void)x;                                                                                          \
		for (int j = 0; j < 3; j++) {                                                                     \
			r.c[j] = ks_mul_##SN(m.c[0][j], g.c[0]);                                                  \
			for (int i = 1; i < 3; i++)                                                               \
				r.c[j] = ks_add_##SN(r.c[j], ks_mul_##SN(m.c[i][j], g.c[i]));                     \
		}                                                                                                 \
		return r;                                                                                         \
	}                                                                                                         \
	KS_FUNC ks_##V3 ks_adj_transform_vector_vec_##M4(ks_##M4 m, ks_##V3 x, ks_##V3 g)                         \
	{                                                                                                         \
		return ks_adj_transform_point_point_##M4(m, x, g);                                                \
	}                                                                                                         \
	/* outer(g, (x, w)) in the first three rows */                                                            \
	KS_FUNC ks_##M4 ks_adj_transform_affine_##M4(ks_##V3 x, ks_##V3 g, int point)                             \
	{                                                                                                         \
		ks_##M4 r = ks_zero_##M4();                                                                       \
		for (int i = 0; i < 3; i++) {                                                                     \
			for (int j = 0; j < 3; j++)                                                               \
				r.c[i][j] = ks_mul_##SN(g.c[i], x.c[j]);                                          \
			r.c[i][3] = point ? g.c[i] : ks_zero_##SN();                                              \
		}                                                                                                 \
		return r;                                                                                         \
	}                                                                                                         \
	KS_FUNC ks_##M4 ks_adj_transform_point_mat_##M4(ks_##M4 m, ks_##V3 x, ks_##V3 g)                          \
	{                                                                                                         \
		(void)m;                                                                                          \
		return ks_adj_transform_affine_##M4(x, g, 1);                                                     \
	}                                                                                                         \
	KS_FUNC ks_##M4 ks_adj_transform_vector_mat_##M4(ks_##M4 m, ks_##V3 x, ks_##V3 g)                         \
	{                                                                                                         \
		(void)m;                                                                                          \
		return ks_adj_transform_affine_##M4(x, g, 0);                                                     \
	}                                                                                                         \
	/* transform_inverse(t) = (-rotate(q^-1, p), q^-1) */                                                     \
	KS_FUNC ks_##XT ks_adj_transform_inverse_xform_##XT(ks_##XT t, ks_##XT g)                                 \
	{                                                                                                         \
		ks_##QT qi = ks_quat_inverse_##QT(ks_transform_q_##XT(t));                                        \
		ks_##V3 gp = ks_neg_##V3(ks_transform_p_##XT(g));                                                 \
		ks_##QT dqi = ks_add_##QT(ks_transform_q_##XT(g),                                                 \
					  ks_adj_quat_rotate_q_##QT(qi, ks_transform_p_##XT(t), gp));             \
		return ks_make_##XT(ks_quat_rotate_inv_##QT(qi, gp), ks_quat_inverse_##QT(dqi));                  \
	}

KS_XFORM_MATH(transform, quat, float, vec3, mat44)
KS_XFORM_MATH(transformh, quath, float16, vec3h, mat44h)
KS_XFORM_MATH(transformd, quatd, float64, vec3d, mat44d)
/* transform_identity() is float32, as Warp's default */
KS_FUNC ks_transform ks_transform_identity(void) { return ks_transform_identity_float(); }

#endif
