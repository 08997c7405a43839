/*
 * ks_quat.h: the quaternions, ks_quat, ks_quath and ks_quatd of each float
 * type: (x, y, z, w), w the real part, as Warp lays them out; their
 * operators, the quaternion builtins of ir/builtins.h in Warp's formulas
 * and order of operations (quat.h), and the helpers their derivative
 * rules call: ks_adj_<builtin>_<param>_<type> is the adjoint contribution
 * to the parameter <param> of <builtin>, given the arguments and g, the
 * adjoint of the result (doc/autodiff.md).
 */
#ifndef KS_QUAT_H
#define KS_QUAT_H

/* A quaternion's constructor, operators (the product by Warp's formula)
 * and rotation of a vector; V3 is the vector of the same scalar SN (C type
 * ST). */
#define KS_QUAT(QT, SN, ST, V3)                                                                                  \
	typedef struct {                                                                                         \
		ST c[4];                                                                                         \
	} ks_##QT;                                                                                               \
	KS_MAKE4(QT, ST)                                                                                         \
	KS_FUNC ks_##QT ks_zero_##QT(void)                                                                       \
	{                                                                                                        \
		return ks_make_##QT(ks_zero_##SN(), ks_zero_##SN(), ks_zero_##SN(), ks_zero_##SN());             \
	}                                                                                                        \
	KS_FUNC ks_##QT ks_fill_##QT(ST s) { return ks_make_##QT(s, s, s, s); }                                  \
	KS_FUNC ks_##QT ks_insert_##QT(ks_##QT q, int k, ST s)                                                   \
	{                                                                                                        \
		q.c[k] = s;                                                                                      \
		return q;                                                                                        \
	}                                                                                                        \
	KS_CW1(ks_##QT, ks_neg_##QT, 4, ks_neg_##SN)                                                             \
	KS_CW2(ks_##QT, ks_add_##QT, 4, ks_add_##SN)                                                             \
	KS_CW2(ks_##QT, ks_sub_##QT, 4, ks_sub_##SN)                                                             \
	KS_CWS(ks_##QT, ks_mul_##QT##_##SN, 4, ST, ks_mul_##SN)                                                  \
	KS_CSW(ks_##QT, ks_mul_##SN##_##QT, 4, ST, ks_mul_##SN)                                                  \
	KS_CWS(ks_##QT, ks_div_##QT##_##SN, 4, ST, ks_div_##SN)                                                  \
	/* a*b + c*d + e*f - g*h, left to right */                                                               \
	KS_FUNC ST ks_ppm_##SN(ST a, ST b, ST c, ST d, ST e, ST f, ST g, ST h)                                   \
	{                                                                                                        \
		return ks_sub_##SN(                                                                              \
			ks_add_##SN(ks_add_##SN(ks_mul_##SN(a, b), ks_mul_##SN(c, d)), ks_mul_##SN(e, f)),       \
			ks_mul_##SN(g, h));                                                                      \
	}                                                                                                        \
	KS_FUNC ks_##QT ks_mul_##QT##_##QT(ks_##QT a, ks_##QT b)                                                 \
	{                                                                                                        \
		return ks_make_##QT(ks_ppm_##SN(a.c[3], b.c[0], b.c[3], a.c[0], a.c[1], b.c[2], b.c[1], a.c[2]), \
				    ks_ppm_##SN(a.c[3], b.c[1], b.c[3], a.c[1], a.c[2], b.c[0], b.c[2], a.c[0]), \
				    ks_ppm_##SN(a.c[3], b.c[2], b.c[3], a.c[2], a.c[0], b.c[1], b.c[0], a.c[1]), \
				    ks_sub_##SN(ks_sub_##SN(ks_sub_##SN(ks_mul_##SN(a.c[3], b.c[3]),             \
									ks_mul_##SN(a.c[0], b.c[0])),            \
							    ks_mul_##SN(a.c[1], b.c[1])),                        \
						ks_mul_##SN(a.c[2], b.c[2])));                                   \
	}                                                                                                        \
	KS_FUNC bool ks_eq_##QT(ks_##QT a, ks_##QT b)                                                            \
	{                                                                                                        \
		for (int i = 0; i < 4; i++)                                                                      \
			if (!ks_eq_##SN(a.c[i], b.c[i]))                                                         \
				return false;                                                                    \
		return true;                                                                                     \
	}                                                                                                        \
	KS_FUNC bool ks_ne_##QT(ks_##QT a, ks_##QT b) { return !ks_eq_##QT(a, b); }                              \
	/* q x q^-1 for a unit q (Warp's quat_rotate) */                                                         \
	KS_FUNC ks_##V3 ks_quat_rotate_##QT(ks_##QT q, ks_##V3 x)                                                \
	{                                                                                                        \
		ST two = ks_add_##SN(ks_one_##SN(), ks_one_##SN());                                              \
		ST c = ks_sub_##SN(ks_mul_##SN(ks_mul_##SN(two, q.c[3]), q.c[3]), ks_one_##SN());                \
		ST d = ks_mul_##SN(                                                                              \
			two, ks_add_##SN(ks_add_##SN(ks_mul_##SN(q.c[0], x.c[0]), ks_mul_##SN(q.c[1], x.c[1])),  \
					 ks_mul_##SN(q.c[2], x.c[2])));                                          \
		ks_##V3 r;                                                                                       \
		for (int i = 0; i < 3; i++) {                                                                    \
			int j = (i + 1) % 3, k = (i + 2) % 3;                                                    \
			ST s = ks_sub_##SN(ks_mul_##SN(q.c[j], x.c[k]), ks_mul_##SN(q.c[k], x.c[j]));            \
			r.c[i] = ks_add_##SN(ks_add_##SN(ks_mul_##SN(x.c[i], c), ks_mul_##SN(q.c[i], d)),        \
					     ks_mul_##SN(ks_mul_##SN(s, q.c[3]), two));                          \
		}                                                                                                \
		return r;                                                                                        \
	}

KS_QUAT(quat, float, KS_REAL, vec3)
KS_QUAT(quath, float16, ks_half, vec3h)
KS_QUAT(quatd, float64, double, vec3d)

/* The quaternion builtins and their adjoints.  V3, M3, M4: the vector and
 * matrices of the same scalar SN (C type ST). */
#define KS_QUAT_MATH(QT, SN, ST, V3, M3, M4)                                                                       \
	KS_FUNC ST ks_dot_##QT(ks_##QT a, ks_##QT b)                                                               \
	{                                                                                                          \
		ST r = ks_mul_##SN(a.c[0], b.c[0]);                                                                \
		for (int i = 1; i < 4; i++)                                                                        \
			r = ks_add_##SN(r, ks_mul_##SN(a.c[i], b.c[i]));                                           \
		return r;                                                                                          \
	}                                                                                                          \
	KS_FUNC ST ks_length_sq_##QT(ks_##QT a) { return ks_dot_##QT(a, a); }                                      \
	KS_FUNC ST ks_length_##QT(ks_##QT a) { return ks_sqrt_##SN(ks_dot_##QT(a, a)); }                           \
	KS_FUNC ks_##QT ks_quat_identity_##SN(void)                                                                \
	{                                                                                                          \
		return ks_make_##QT(ks_zero_##SN(), ks_zero_##SN(), ks_zero_##SN(), ks_one_##SN());                \
	}                                                                                                          \
	/* a quaternion of length 0 normalizes to the identity (Warp) */                                           \
	KS_FUNC ks_##QT ks_normalize_##QT(ks_##QT q)                                                               \
	{                                                                                                          \
		ST l = ks_length_##QT(q);                                                                          \
		if (!ks_gt_##SN(l, ks_zero_##SN()))                                                                \
			return ks_quat_identity_##SN();                                                            \
		return ks_mul_##QT##_##SN(q, ks_div_##SN(ks_one_##SN(), l));                                       \
	}                                                                                                          \
	KS_CSW(ks_##QT, ks_div_##SN##_##QT, 4, ST, ks_div_##SN)                                                    \
	KS_FUNC ks_##QT ks_quat_inverse_##QT(ks_##QT q)                                                            \
	{                                                                                                          \
		return ks_make_##QT(ks_neg_##SN(q.c[0]), ks_neg_##SN(q.c[1]), ks_neg_##SN(q.c[2]), q.c[3]);        \
	}                                                                                                          \
	KS_FUNC ks_##V3 ks_quat_vec_##QT(ks_##QT q) { return ks_make_##V3(q.c[0], q.c[1], q.c[2]); }               \
	KS_FUNC ks_##QT ks_make_##QT##_##V3(ks_##V3 v, ST w) { return ks_make_##QT(v.c[0], v.c[1], v.c[2], w); }   \
	/* q^-1 x q for a unit q: quat_rotate with the sign of its cross term   \
	 * turned, which is quat_rotate of quat_inverse(q) */                                  \
	KS_FUNC ks_##V3 ks_quat_rotate_inv_##QT(ks_##QT q, ks_##V3 x)                                              \
	{                                                                                                          \
		return ks_quat_rotate_##QT(ks_quat_inverse_##QT(q), x);                                            \
	}                                                                                                          \
	KS_FUNC ks_##QT ks_quat_from_axis_angle_##V3(ks_##V3 axis, ST angle)                                       \
	{                                                                                                          \
		ST half = ks_mul_##SN(angle, ks_to_##SN##_float(0.5f));                                            \
		return ks_make_##QT##_##V3(ks_mul_##V3##_##SN(axis, ks_sin_##SN(half)), ks_cos_##SN(half));        \
	}                                                                                                          \
	/* quat_to_axis_angle's two results: the axis turned so that the angle \
	 * is in [0, pi] (the identity gives the zero axis and angle 0) */                                   \
	KS_FUNC ks_##V3 ks_quat_axis_##QT(ks_##QT q)                                                               \
	{                                                                                                          \
		ks_##V3 n = ks_normalize_##V3(ks_quat_vec_##QT(q));                                                \
		return ks_lt_##SN(q.c[3], ks_zero_##SN()) ? ks_neg_##V3(n) : n;                                    \
	}                                                                                                          \
	KS_FUNC ST ks_quat_angle_##QT(ks_##QT q)                                                                   \
	{                                                                                                          \
		ST two = ks_to_##SN##_float(2.0f);                                                                 \
		return ks_mul_##SN(two, ks_atan2_##SN(ks_length_##V3(ks_quat_vec_##QT(q)), ks_abs_##SN(q.c[3])));  \
	}                                                                                                          \
	KS_FUNC ks_##QT ks_quat_rpy_##SN(ST roll, ST pitch, ST yaw)                                                \
	{                                                                                                          \
		ST h = ks_to_##SN##_float(0.5f);                                                                   \
		ST cy = ks_cos_##SN(ks_mul_##SN(yaw, h)), sy = ks_sin_##SN(ks_mul_##SN(yaw, h));                   \
		ST cr = ks_cos_##SN(ks_mul_##SN(roll, h)), sr = ks_sin_##SN(ks_mul_##SN(roll, h));                 \
		ST cp = ks_cos_##SN(ks_mul_##SN(pitch, h)), sp = ks_sin_##SN(ks_mul_##SN(pitch, h));               \
		return ks_make_##QT(                                                                               \
			ks_sub_##SN(ks_mul_##SN(ks_mul_##SN(cy, sr), cp), ks_mul_##SN(ks_mul_##SN(sy, cr), sp)),   \
			ks_add_##SN(ks_mul_##SN(ks_mul_##SN(cy, cr), sp), ks_mul_##SN(ks_mul_##SN(sy, sr), cp)),   \
			ks_sub_##SN(ks_mul_##SN(ks_mul_##SN(sy, cr), cp), ks_mul_##SN(ks_mul_##SN(cy, sr), sp)),   \
			ks_add_##SN(ks_mul_##SN(ks_mul_##SN(cy, cr), cp), ks_mul_##SN(ks_mul_##SN(sy, sr), sp)));  \
	}                                                                                                          \
	/* the unit vector along axis k */                                                                         \
	KS_FUNC ks_##V3 ks_unit_##V3(int k)                                                                        \
	{                                                                                                          \
		ks_##V3 e = ks_zero_##V3();                                                                        \
		e.c[k] = ks_one_##SN();                                                                            \
		return e;                                                                                          \
	}                                                                                                          \
	/* column j: the rotation of the j-th unit vector */                                                       \
	KS_FUNC ks_##M3 ks_quat_to_matrix_##QT(ks_##QT q)                                                          \
	{                                                                                                          \
		ks_##M3 m;                                                                                         \
		for (int j = 0; j < 3; j++) {                                                                      \
			ks_##V3 c = ks_quat_rotate_##QT(q, ks_unit_##V3(j));                                       \
			for (int i = 0; i < 3; i++)                                                                \
				m.c[i][j] = c.c[i];                                                                \
		}                                                                                                  \
		return m;                                                                                          \
	}                                                                                                          \
	/* The rotation of a matrix (its upper 3x3), unnormalized: from the     \
	 * trace when it is not negative, else from the largest diagonal entry  \
	 * d, with i, j the other two axes in cyclic order (Warp's branches). */                                  \
	KS_FUNC int ks_quat_branch_##M3(const ks_##M3 *m)                                                          \
	{                                                                                                          \
		ST tr = ks_add_##SN(ks_add_##SN(m->c[0][0], m->c[1][1]), m->c[2][2]);                              \
		int d = 0;                                                                                         \
		if (ks_ge_##SN(tr, ks_zero_##SN()))                                                                \
			return 3;                                                                                  \
		if (ks_gt_##SN(m->c[1][1], m->c[0][0]))                                                            \
			d = 1;                                                                                     \
		if (ks_gt_##SN(m->c[2][2], m->c[d][d]))                                                            \
			d = 2;                                                                                     \
		return d;                                                                                          \
	}                                                                                                          \
	KS_FUNC ks_##QT ks_quat_of_rotation_##M3(ks_##M3 m)                                                        \
	{                                                                                                          \
		int d = ks_quat_branch_##M3(&m);                                                                   \
		ST half = ks_to_##SN##_float(0.5f), h, s;                                                          \
		ks_##QT u;                                                                                         \
		if (d == 3) {                                                                                      \
			s = ks_add_##SN(ks_add_##SN(m.c[0][0], m.c[1][1]), m.c[2][2]);                             \
		} else {                                                                                           \
			int i = (d + 1) % 3, j = (d + 2) % 3;                                                      \
			s = ks_sub_##SN(m.c[d][d], ks_add_##SN(m.c[i][i], m.c[j][j]));                             \
		}                                                                                                  \
		h = ks_sqrt_##SN(ks_add_##SN(s, ks_one_##SN()));                                                   \
		u.c[d] = ks_mul_##SN(half, h);                                                                     \
		h = ks_div_##SN(half, h);                                                                          \
		for (int k = 0; k < 3; k++) {                                                                      \
			int i = (k + 1) % 3, j = (k + 2) % 3;                                                      \
			if (k == d)                                                                                \
				continue;                                                                          \
			if (d == 3)                                                                                \
				u.c[k] = ks_mul_##SN(ks_sub_##SN(m.c[j][i], m.c[i][j]), h);                        \
			else if (k == (d + 1) % 3)                                                                 \
				u.c[k] = ks_mul_##SN(ks_add_##SN(m.c[d][k], m.c[k][d]), h);                        \
			else                                                                                       \
				u.c[k] = ks_mul_##SN(ks_add_##SN(m.c[k][d], m.c[d][k]), h);                        \
		}                                                                                                  \
		if (d != 3) {                                                                                      \
			int i = (d + 1) % 3, j = (d + 2) % 3;                                                      \
			u.c[3] = ks_mul_##SN(ks_sub_##SN(m.c[j][i], m.c[i][j]), h);                                \
		}                                                                                                  \
		return u;                                                                                          \
	}                                                                                                          \
	KS_FUNC ks_##M3 ks_upper_##M4(ks_##M4 m)                                                                   \
	{                                                                                                          \
		ks_##M3 r;                                                                                         \
		for (int i = 0; i < 3; i++)                                                                        \
			for (int j = 0; j < 3; j++)                                                                \
				r.c[i][j] = m.c[i][j];                                                             \
		return r;                                                                                          \
	}                                                                                                          \
	KS_FUNC ks_##QT ks_quat_from_matrix_##M3(ks_##M3 m)                                                        \
	{                                                                                                          \
		return ks_normalize_##QT(ks_quat_of_rotation_##M3(m));                                             \
	}                                                                                                          \
	KS_FUNC ks_##QT ks_quat_from_matrix_##M4(ks_##M4 m) { return ks_quat_from_matrix_##M3(ks_upper_##M4(m)); } \
	KS_FUNC ks_##QT ks_quat_slerp_##QT(ks_##QT a, ks_##QT b, ST t)                                             \
	{                                                                                                          \
		ks_##QT d = ks_mul_##QT##_##QT(ks_quat_inverse_##QT(a), b);                                        \
		ks_##QT s =                                                                                        \
			ks_quat_from_axis_angle_##V3(ks_quat_axis_##QT(d), ks_mul_##SN(t, ks_quat_angle_##QT(d))); \
		return ks_mul_##QT##_##QT(a, s);                                                                   \
	}                                                                                                          \
	/* ---- their adjoints */                                                                                  \
	/* quat_rotate(q, x) = (2w^2 - 1) x + 2 v (v.x) + 2 w (v x x), v the    \
	 * vector part of q: the adjoint of q */                                  \
	KS_FUNC ks_##QT ks_adj_quat_rotate_q_##QT(ks_##QT q, ks_##V3 x, ks_##V3 g)                                 \
	{                                                                                                          \
		ST two = ks_to_##SN##_float(2.0f), four = ks_to_##SN##_float(4.0f);                                \
		ks_##V3 v = ks_quat_vec_##QT(q);                                                                   \
		ks_##V3 dv = ks_add_##V3(ks_mul_##V3##_##SN(ks_add_##V3(ks_mul_##V3##_##SN(g, ks_dot_##V3(v, x)),  \
									ks_mul_##V3##_##SN(x, ks_dot_##V3(v, g))), \
							    two),                                                  \
					 ks_mul_##V3##_##SN(ks_cross_##V3(x, g), ks_mul_##SN(two, q.c[3])));       \
		ST dw = ks_dot_##V3(g, ks_add_##V3(ks_mul_##V3##_##SN(x, ks_mul_##SN(four, q.c[3])),               \
						   ks_mul_##V3##_##SN(ks_cross_##V3(v, x), two)));                 \
		return ks_make_##QT##_##V3(dv, dw);                                                                \
	}                                                                                                          \
	KS_FUNC ks_##V3 ks_adj_quat_from_axis_angle_axis_##V3(ks_##V3 axis, ST angle, ks_##QT g)                   \
	{                                                                                                          \
		(void)axis;                                                                                        \
		ST half = ks_mul_##SN(angle, ks_to_##SN##_float(0.5f));                                            \
		return ks_mul_##V3##_##SN(ks_quat_vec_##QT(g), ks_sin_##SN(half));                                 \
	}                                                                                                          \
	KS_FUNC ST ks_adj_quat_from_axis_angle_angle_##V3(ks_##V3 axis, ST angle, ks_##QT g)                       \
	{                                                                                                          \
		ST h = ks_to_##SN##_float(0.5f), half = ks_mul_##SN(angle, h);                                     \
		return ks_mul_##SN(                                                                                \
			h, ks_sub_##SN(ks_mul_##SN(ks_cos_##SN(half), ks_dot_##V3(axis, ks_quat_vec_##QT(g))),     \
				       ks_mul_##SN(ks_sin_##SN(half), g.c[3])));                                   \
	}                                                                                                          \
	/* the adjoint of q through (quat_axis(q), quat_angle(q)), none at a    \
	 * quaternion with no vector part (Warp) */                                  \
	KS_FUNC ks_##QT ks_adj_quat_to_axis_angle_##QT(ks_##QT q, ks_##V3 gaxis, ST gangle)                        \
	{                                                                                                          \
		ks_##V3 v = ks_quat_vec_##QT(q);                                                                   \
		ST l = ks_length_##V3(v), w = q.c[3], two = ks_to_##SN##_float(2.0f);                              \
		ST flip = ks_lt_##SN(w, ks_zero_##SN()) ? ks_neg_##SN(ks_one_##SN()) : ks_one_##SN();              \
		if (!ks_gt_##SN(l, ks_zero_##SN()))                                                                \
			return ks_zero_##QT();                                                                     \
		ks_##V3 n = ks_div_##V3##_##SN(v, l);                                                              \
		ST den = ks_add_##SN(ks_mul_##SN(l, l), ks_mul_##SN(w, w));                                        \
		ks_##V3 dv = ks_mul_##V3##_##SN(ks_sub_##V3(gaxis, ks_mul_##V3##_##SN(n, ks_dot_##V3(n, gaxis))),  \
						ks_div_##SN(flip, l));                                             \
		dv = ks_add_##V3(                                                                                  \
			dv, ks_mul_##V3##_##SN(                                                                    \
				    n, ks_div_##SN(ks_mul_##SN(ks_mul_##SN(gangle, two), ks_abs_##SN(w)), den)));  \
		ST dw = ks_neg_##SN(                                                                               \
			ks_div_##SN(ks_mul_##SN(ks_mul_##SN(ks_mul_##SN(gangle, two), flip), l), den));            \
		return ks_make_##QT##_##V3(dv, dw);                                                                \
	}                                                                                                          \
	/* wp.quat_to_axis_angle(q): both results */                                                               \
	KS_FUNC void ks_quat_to_axis_angle_##QT(ks_##QT q, ks_##V3 *axis, ST *angle)                               \
	{                                                                                                          \
		*axis = ks_quat_axis_##QT(q);                                                                      \
		*angle = ks_quat_angle_##QT(q);                                                                    \
	}                                                                                                          \
	KS_FUNC ks_##QT ks_adj_quat_axis_##QT(ks_##QT q, ks_##V3 g)                                                \
	{                                                                                                          \
		return ks_adj_quat_to_axis_angle_##QT(q, g, ks_zero_##SN());                                       \
	}                                                                                                          \
	KS_FUNC ks_##QT ks_adj_quat_angle_##QT(ks_##QT q, ST g)                                                    \
	{                                                                                                          \
		return ks_adj_quat_to_axis_angle_##QT(q, ks_zero_##V3(), g);                                       \
	}                                                                                                          \
	/* d quat_rpy / d (roll, pitch, yaw)[k] */                                                                 \
	KS_FUNC ST ks_adj_quat_rpy_##SN(ST roll, ST pitch, ST yaw, ks_##QT g, int k)                               \
	{                                                                                                          \
		ST h = ks_to_##SN##_float(0.5f);                                                                   \
		ST cy = ks_cos_##SN(ks_mul_##SN(yaw, h)), sy = ks_sin_##SN(ks_mul_##SN(yaw, h));                   \
		ST cr = ks_cos_##SN(ks_mul_##SN(roll, h)), sr = ks_sin_##SN(ks_mul_##SN(roll, h));                 \
		ST cp = ks_cos_##SN(ks_mul_##SN(pitch, h)), sp = ks_sin_##SN(ks_mul_##SN(pitch, h));               \
		/* the derivative of each of cr sr cp sp cy sy: k's pair turns */                                  \
		ST c[6] = {cr, sr, cp, sp, cy, sy};                                                                \
		c[2 * k] = ks_mul_##SN(ks_neg_##SN(h), c[2 * k + 1]);                                              \
		c[2 * k + 1] = ks_mul_##SN(h, k == 0 ? cr : k == 1 ? cp : cy);                                     \
		cr = c[0], sr = c[1], cp = c[2], sp = c[3], cy = c[4], sy = c[5];                                  \
		ks_##QT d = ks_make_##QT(                                                                          \
			ks_sub_##SN(ks_mul_##SN(ks_mul_##SN(cy, sr), cp), ks_mul_##SN(ks_mul_##SN(sy, cr), sp)),   \
			ks_add_##SN(ks_mul_##SN(ks_mul_##SN(cy, cr), sp), ks_mul_##SN(ks_mul_##SN(sy, sr), cp)),   \
			ks_sub_##SN(ks_mul_##SN(ks_mul_##SN(sy, cr), cp), ks_mul_##SN(ks_mul_##SN(cy, sr), sp)),   \
			ks_add_##SN(ks_mul_##SN(ks_mul_##SN(cy, cr), cp), ks_mul_##SN(ks_mul_##SN(sy, sr), sp)));  \
		return ks_dot_##QT(d, g);                                                                          \
	}                                                                                                          \
	KS_FUNC ST ks_adj_quat_rpy_roll_##SN(ST r, ST p, ST y, ks_##QT g)                                          \
	{                                                                                                          \
		return ks_adj_quat_rpy_##SN(r, p, y, g, 0);                                                        \
	}                                                                                                          \
	KS_FUNC ST ks_adj_quat_rpy_pitch_##SN(ST r, ST p, ST y, ks_##QT g)                                         \
	{                                                                                                          \
		return ks_adj_quat_rpy_##SN(r, p, y, g, 1);                                                        \
	}                                                                                                          \
	KS_FUNC ST ks_adj_quat_rpy_yaw_##SN(ST r, ST p, ST y, ks_##QT g)                                           \
	{                                                                                                          \
		return ks_adj_quat_rpy_##SN(r, p, y, g, 2);                                                        \
	}                                                                                                          \
	KS_FUNC ks_##QT ks_adj_quat_to_matrix_quat_##QT(ks_##QT q, ks_##M3 g)                                      \
	{                                                                                                          \
		ks_##QT r = ks_zero_##QT();                                                                        \
		for (int j = 0; j < 3; j++) {                                                                      \
			ks_##V3 col = ks_make_##V3(g.c[0][j], g.c[1][j], g.c[2][j]);                               \
			r = ks_add_##QT(r, ks_adj_quat_rotate_q_##QT(q, ks_unit_##V3(j), col));                    \
		}                                                                                                  \
		return r;                                                                                          \
	}                                                                                                          \
	/* the adjoint of normalize(q), none at a zero q */                                                        \
	KS_FUNC ks_##QT ks_adj_normalize_##QT(ks_##QT q, ks_##QT g)                                                \
	{                                                                                                          \
		ST l = ks_length_##QT(q);                                                                          \
		if (!ks_gt_##SN(l, ks_zero_##SN()))                                                                \
			return ks_zero_##QT();                                                                     \
		ST il = ks_div_##SN(ks_one_##SN(), l);                                                             \
		return ks_sub_##QT(ks_mul_##QT##_##SN(g, il),                                                      \
				   ks_mul_##QT##_##SN(q, ks_mul_##SN(ks_mul_##SN(ks_mul_##SN(il, il), il),         \
								     ks_dot_##QT(q, g))));                         \
	}                                                                                                          \
	KS_FUNC ks_##M3 ks_adj_quat_from_matrix_rotation_##M3(ks_##M3 m, ks_##QT g)                                \
	{                                                                                                          \
		ks_##QT u = ks_quat_of_rotation_##M3(m), du = ks_adj_normalize_##QT(u, g);                         \
		int d = ks_quat_branch_##M3(&m);                                                                   \
		ST half = ks_to_##SN##_float(0.5f), s, h, dh, ds;                                                  \
		ks_##M3 r = ks_zero_##M3();                                                                        \
		if (d == 3)                                                                                        \
			s = ks_add_##SN(ks_add_##SN(m.c[0][0], m.c[1][1]), m.c[2][2]);                             \
		else                                                                                               \
			s = ks_sub_##SN(m.c[d][d], ks_add_##SN(m.c[(d + 1) % 3][(d + 1) % 3],                      \
							       m.c[(d + 2) % 3][(d + 2) % 3]));                    \
		ST root = ks_sqrt_##SN(ks_add_##SN(s, ks_one_##SN()));                                             \
		h = ks_div_##SN(half, root);                                                                       \
		/* dh/ds = -h / (2 (s + 1)); the other components are (their sum  \
		 * or difference) * h */                                \
		dh = ks_div_##SN(ks_neg_##SN(ks_mul_##SN(half, h)), ks_add_##SN(s, ks_one_##SN()));                \
		ds = ks_mul_##SN(ks_mul_##SN(half, h), du.c[d]);                                                   \
		for (int k = 0; k < 4; k++) {                                                                      \
			int a, b;                                                                                  \
			ST sgn;                                                                                    \
			if (k == d)                                                                                \
				continue;                                                                          \
			if (k == 3 || d == 3) {                                                                    \
				int c = k == 3 ? d : k;                                                            \
				a = (c + 2) % 3, b = (c + 1) % 3;                                                  \
				sgn = ks_neg_##SN(ks_one_##SN());                                                  \
			} else {                                                                                   \
				a = d, b = k;                                                                      \
				sgn = ks_one_##SN();                                                               \
			}                                                                                          \
			/* u[k] = (m[a][b] + sgn m[b][a]) h */                                                     \
			ST pair = ks_add_##SN(m.c[a][b], ks_mul_##SN(sgn, m.c[b][a]));                             \
			ds = ks_add_##SN(ds, ks_mul_##SN(ks_mul_##SN(pair, dh), du.c[k]));                         \
			r.c[a][b] = ks_add_##SN(r.c[a][b], ks_mul_##SN(h, du.c[k]));                               \
			r.c[b][a] = ks_add_##SN(r.c[b][a], ks_mul_##SN(ks_mul_##SN(sgn, h), du.c[k]));             \
		}                                                                                                  \
		for (int i = 0; i < 3; i++) {                                                                      \
			int plus = d == 3 || i == d;                                                               \
			r.c[i][i] = ks_add_##SN(r.c[i][i], plus ? ds : ks_neg_##SN(ds));                           \
		}                                                                                                  \
		return r;                                                                                          \
	}                                                                                                          \
	KS_FUNC ks_##M3 ks_adj_quat_from_matrix_mat_##M3(ks_##M3 m, ks_##QT g)                                     \
	{                                                                                                          \
		return ks_adj_quat_from_matrix_rotation_##M3(m, g);                                                \
	}                                                                                                          \
	KS_FUNC ks_##M4 ks_adj_quat_from_matrix_mat_##M4(ks_##M4 m, ks_##QT g)                                     \
	{                                                                                                          \
		ks_##M3 r = ks_adj_quat_from_matrix_rotation_##M3(ks_upper_##M4(m), g);                            \
		ks_##M4 out = ks_zero_##M4();                                                                      \
		for (int i = 0; i < 3; i++)                                                                        \
			for (int j = 0; j < 3; j++)                                                                \
				out.c[i][j] = r.c[i][j];                                                           \
		return out;                                                                                        \
	}                                                                                                          \
	/* slerp(a, b, t) = a * s, s = quat_from_axis_angle(axis, t angle) of   \
	 * d = a^-1 b, reversed step by step */                                  \
	KS_FUNC void ks_adj_slerp_##QT(ks_##QT a, ks_##QT b, ST t, ks_##QT g, ks_##QT *da, ks_##QT *db, ST *dt)    \
	{                                                                                                          \
		ks_##QT d = ks_mul_##QT##_##QT(ks_quat_inverse_##QT(a), b);                                        \
		ks_##V3 axis = ks_quat_axis_##QT(d);                                                               \
		ST angle = ks_quat_angle_##QT(d), ta = ks_mul_##SN(t, angle);                                      \
		ks_##QT s = ks_quat_from_axis_angle_##V3(axis, ta);                                                \
		ks_##QT ds = ks_mul_##QT##_##QT(ks_quat_inverse_##QT(a), g);                                       \
		ST dta = ks_adj_quat_from_axis_angle_angle_##V3(axis, ta, ds);                                     \
		ks_##QT dd = ks_adj_quat_to_axis_angle_##QT(                                                       \
			d, ks_adj_quat_from_axis_angle_axis_##V3(axis, ta, ds), ks_mul_##SN(dta, t));              \
		*dt = ks_mul_##SN(dta, angle);                                                                     \
		*db = ks_mul_##QT##_##QT(a, dd);                                                                   \
		*da = ks_add_##QT(ks_mul_##QT##_##QT(g, ks_quat_inverse_##QT(s)),                                  \
				  ks_quat_inverse_##QT(ks_mul_##QT##_##QT(dd, ks_quat_inverse_##QT(b))));          \
	}                                                                                                          \
	KS_FUNC ks_##QT ks_adj_quat_slerp_a_##QT(ks_##QT a, ks_##QT b, ST t, ks_##QT g)                            \
	{                                                                                                          \
		ks_##QT da, db;                                                                                    \
		ST dt;                                                                                             \
		ks_adj_slerp_##QT(a, b, t, g, &da, &db, &dt);                                                      \
		return da;                                                                                         \
	}                                                                                                          \
	KS_FUNC ks_##QT ks_adj_quat_slerp_b_##QT(ks_##QT a, ks_##QT b, ST t, ks_##QT g)                            \
	{                                                                                                          \
		ks_##QT da, db;                                                                                    \
		ST dt;                                                                                             \
		ks_adj_slerp_##QT(a, b, t, g, &da, &db, &dt);                                                      \
		return db;                                                                                         \
	}                                                                                                          \
	KS_FUNC ST ks_adj_quat_slerp_t_##QT(ks_##QT a, ks_##QT b, ST t, ks_##QT g)                                 \
	{                                                                                                          \
		ks_##QT da, db;                                                                                    \
		ST dt;                                                                                             \
		ks_adj_slerp_##QT(a, b, t, g, &da, &db, &dt);                                                      \
		return dt;                                                                                         \
	}

KS_QUAT_MATH(quat, float, KS_REAL, vec3, mat33, mat44)
KS_QUAT_MATH(quath, float16, ks_half, vec3h, mat33h, mat44h)
KS_QUAT_MATH(quatd, float64, double, vec3d, mat33d, mat44d)
/* quat_identity() is float32, as Warp's default */
KS_FUNC ks_quat ks_quat_identity(void) { return ks_quat_identity_float(); }

#endif
