/*
 * ks_mat.h: the square matrices of each float type (2x2, 3x3, 4x4 and
 * 6x6, the spatial matrix), row-major: their constructors, operators,
 * products with vectors and matrices, determinants and inverses in Warp's
 * formulas, and the other matrix builtins (lerp, the tests, ddot, trace,
 * diag, skew, matrix_from_rows and _cols, ...).
 */
#ifndef KS_MAT_H
#define KS_MAT_H

/* ks_<MT> holds N x N components of SN, row-major: c[row][col]; VT is the
 * vector of a row. */
#define KS_MAT(MT, N, SN, ST, VT)                                                                              \
	typedef struct {                                                                                       \
		ST c[N][N];                                                                                    \
	} ks_##MT;                                                                                             \
	KS_FUNC ks_##MT ks_zero_##MT(void)                                                                     \
	{                                                                                                      \
		ks_##MT r;                                                                                     \
		for (int i = 0; i < N; i++)                                                                    \
			for (int j = 0; j < N; j++)                                                            \
				r.c[i][j] = ks_zero_##SN();                                                    \
		return r;                                                                                      \
	}                                                                                                      \
	KS_FUNC ks_##MT ks_fill_##MT(ST s)                                                                     \
	{                                                                                                      \
		ks_##MT r;                                                                                     \
		for (int i = 0; i < N; i++)                                                                    \
			for (int j = 0; j < N; j++)                                                            \
				r.c[i][j] = s;                                                                 \
		return r;                                                                                      \
	}                                                                                                      \
	KS_FUNC ks_##VT ks_row_##MT(ks_##MT m, int i)                                                          \
	{                                                                                                      \
		ks_##VT r;                                                                                     \
		for (int j = 0; j < N; j++)                                                                    \
			r.c[j] = m.c[i][j];                                                                    \
		return r;                                                                                      \
	}                                                                                                      \
	KS_FUNC ks_##MT ks_set_row_##MT(ks_##MT m, int i, ks_##VT r)                                           \
	{                                                                                                      \
		for (int j = 0; j < N; j++)                                                                    \
			m.c[i][j] = r.c[j];                                                                    \
		return m;                                                                                      \
	}                                                                                                      \
	KS_FUNC ks_##MT ks_insert_##MT(ks_##MT m, int i, int j, ST s)                                          \
	{                                                                                                      \
		m.c[i][j] = s;                                                                                 \
		return m;                                                                                      \
	}                                                                                                      \
	KS_FUNC ks_##MT ks_neg_##MT(ks_##MT a)                                                                 \
	{                                                                                                      \
		for (int i = 0; i < N; i++)                                                                    \
			for (int j = 0; j < N; j++)                                                            \
				a.c[i][j] = ks_neg_##SN(a.c[i][j]);                                            \
		return a;                                                                                      \
	}                                                                                                      \
	KS_FUNC ks_##MT ks_add_##MT(ks_##MT a, ks_##MT b)                                                      \
	{                                                                                                      \
		for (int i = 0; i < N; i++)                                                                    \
			for (int j = 0; j < N; j++)                                                            \
				a.c[i][j] = ks_add_##SN(a.c[i][j], b.c[i][j]);                                 \
		return a;                                                                                      \
	}                                                                                                      \
	KS_FUNC ks_##MT ks_sub_##MT(ks_##MT a, ks_##MT b)                                                      \
	{                                                                                                      \
		for (int i = 0; i < N; i++)                                                                    \
			for (int j = 0; j < N; j++)                                                            \
				a.c[i][j] = ks_sub_##SN(a.c[i][j], b.c[i][j]);                                 \
		return a;                                                                                      \
	}                                                                                                      \
	KS_FUNC ks_##MT ks_mul_##MT##_##SN(ks_##MT a, ST s)                                                    \
	{                                                                                                      \
		for (int i = 0; i < N; i++)                                                                    \
			for (int j = 0; j < N; j++)                                                            \
				a.c[i][j] = ks_mul_##SN(a.c[i][j], s);                                         \
		return a;                                                                                      \
	}                                                                                                      \
	KS_FUNC ks_##MT ks_mul_##SN##_##MT(ST s, ks_##MT a)                                                    \
	{                                                                                                      \
		for (int i = 0; i < N; i++)                                                                    \
			for (int j = 0; j < N; j++)                                                            \
				a.c[i][j] = ks_mul_##SN(s, a.c[i][j]);                                         \
		return a;                                                                                      \
	}                                                                                                      \
	KS_FUNC ks_##MT ks_div_##MT##_##SN(ks_##MT a, ST s)                                                    \
	{                                                                                                      \
		for (int i = 0; i < N; i++)                                                                    \
			for (int j = 0; j < N; j++)                                                            \
				a.c[i][j] = ks_div_##SN(a.c[i][j], s);                                         \
		return a;                                                                                      \
	}                                                                                                      \
	KS_FUNC ks_##MT ks_div_##SN##_##MT(ST s, ks_##MT a)                                                    \
	{                                                                                                      \
		for (int i = 0; i < N; i++)                                                                    \
			for (int j = 0; j < N; j++)                                                            \
				a.c[i][j] = ks_div_##SN(s, a.c[i][j]);                                         \
		return a;                                                                                      \
	}                                                                                                      \
	KS_FUNC ks_##VT ks_mul_##MT##_##VT(ks_##MT m, ks_##VT v)                                               \
	{                                                                                                      \
		ks_##VT r;                                                                                     \
		for (int i = 0; i < N; i++) {                                                                  \
			r.c[i] = ks_mul_##SN(m.c[i][0], v.c[0]);                                               \
			for (int k = 1; k < N; k++)                                                            \
				r.c[i] = ks_add_##SN(r.c[i], ks_mul_##SN(m.c[i][k], v.c[k]));                  \
		}                                                                                              \
		return r;                                                                                      \
	}                                                                                                      \
	KS_FUNC ks_##VT ks_mul_##VT##_##MT(ks_##VT v, ks_##MT m)                                               \
	{                                                                                                      \
		ks_##VT r;                                                                                     \
		for (int j = 0; j < N; j++) {                                                                  \
			r.c[j] = ks_mul_##SN(v.c[0], m.c[0][j]);                                               \
			for (int k = 1; k < N; k++)                                                            \
				r.c[j] = ks_add_##SN(r.c[j], ks_mul_##SN(v.c[k], m.c[k][j]));                  \
		}                                                                                              \
		return r;                                                                                      \
	}                                                                                                      \
	KS_FUNC ks_##MT ks_mul_##MT##_##MT(ks_##MT a, ks_##MT b)                                               \
	{                                                                                                      \
		ks_##MT r;                                                                                     \
		for (int i = 0; i < N; i++)                                                                    \
			for (int j = 0; j < N; j++) {                                                          \
				r.c[i][j] = ks_mul_##SN(a.c[i][0], b.c[0][j]);                                 \
				for (int k = 1; k < N; k++)                                                    \
					r.c[i][j] = ks_add_##SN(r.c[i][j], ks_mul_##SN(a.c[i][k], b.c[k][j])); \
			}                                                                                      \
		return r;                                                                                      \
	}                                                                                                      \
	KS_FUNC ks_##MT ks_outer_##VT(ks_##VT a, ks_##VT b)                                                    \
	{                                                                                                      \
		ks_##MT r;                                                                                     \
		for (int i = 0; i < N; i++)                                                                    \
			for (int j = 0; j < N; j++)                                                            \
				r.c[i][j] = ks_mul_##SN(a.c[i], b.c[j]);                                       \
		return r;                                                                                      \
	}                                                                                                      \
	KS_FUNC ks_##MT ks_transpose_##MT(ks_##MT a)                                                           \
	{                                                                                                      \
		ks_##MT r;                                                                                     \
		for (int i = 0; i < N; i++)                                                                    \
			for (int j = 0; j < N; j++)                                                            \
				r.c[i][j] = a.c[j][i];                                                         \
		return r;                                                                                      \
	}                                                                                                      \
	KS_FUNC bool ks_eq_##MT(ks_##MT a, ks_##MT b)                                                          \
	{                                                                                                      \
		for (int i = 0; i < N; i++)                                                                    \
			for (int j = 0; j < N; j++)                                                            \
				if (!ks_eq_##SN(a.c[i][j], b.c[i][j]))                                         \
					return false;                                                          \
		return true;                                                                                   \
	}                                                                                                      \
	KS_FUNC bool ks_ne_##MT(ks_##MT a, ks_##MT b) { return !ks_eq_##MT(a, b); }

/* The constructors from every component, row by row. */
#define KS_MAKE22(MT, ST)                                            \
	KS_FUNC ks_##MT ks_make_##MT(ST m00, ST m01, ST m10, ST m11) \
	{                                                            \
		ks_##MT r;                                           \
		r.c[0][0] = m00, r.c[0][1] = m01;                    \
		r.c[1][0] = m10, r.c[1][1] = m11;                    \
		return r;                                            \
	}
#define KS_MAKE33(MT, ST)                                                                                    \
	KS_FUNC ks_##MT ks_make_##MT(ST m00, ST m01, ST m02, ST m10, ST m11, ST m12, ST m20, ST m21, ST m22) \
	{                                                                                                    \
		ks_##MT r;                                                                                   \
		r.c[0][0] = m00, r.c[0][1] = m01, r.c[0][2] = m02;                                           \
		r.c[1][0] = m10, r.c[1][1] = m11, r.c[1][2] = m12;                                           \
		r.c[2][0] = m20, r.c[2][1] = m21, r.c[2][2] = m22;                                           \
		return r;                                                                                    \
	}
#define KS_MAKE44(MT, ST)                                                                                    \
	KS_FUNC ks_##MT ks_make_##MT(ST m00, ST m01, ST m02, ST m03, ST m10, ST m11, ST m12, ST m13, ST m20, \
				     ST m21, ST m22, ST m23, ST m30, ST m31, ST m32, ST m33)                 \
	{                                                                                                    \
		ks_##MT r;                                                                                   \
		r.c[0][0] = m00, r.c[0][1] = m01, r.c[0][2] = m02, r.c[0][3] = m03;                          \
		r.c[1][0] = m10, r.c[1][1] = m11, r.c[1][2] = m12, r.c[1][3] = m13;                          \
		r.c[2][0] = m20, r.c[2][1] = m21, r.c[2][2] = m22, r.c[2][3] = m23;                          \
		r.c[3][0] = m30, r.c[3][1] = m31, r.c[3][2] = m32, r.c[3][3] = m33;                          \
		return r;                                                                                    \
	}
#define KS_MAKE66(MT, ST)                                                                                    \
	KS_FUNC ks_##MT ks_make_##MT(ST m00, ST m01, ST m02, ST m03, ST m04, ST m05, ST m10, ST m11, ST m12, \
				     ST m13, ST m14, ST m15, ST m20, ST m21, ST m22, ST m23, ST m24, ST m25, \
				     ST m30, ST m31, ST m32, ST m33, ST m34, ST m35, ST m40, ST m41, ST m42, \
				     ST m43, ST m44, ST m45, ST m50, ST m51, ST m52, ST m53, ST m54, ST m55) \
	{                                                                                                    \
		ST v[36] = {m00, m01, m02, m03, m04, m05, m10, m11, m12, m13, m14, m15,                      \
			    m20, m21, m22, m23, m24, m25, m30, m31, m32, m33, m34, m35,                      \
			    m40, m41, m42, m43, m44, m45, m50, m51, m52, m53, m54, m55};                     \
		ks_##MT r;                                                                                   \
		for (int i = 0; i < 36; i++)                                                                 \
			r.c[i / 6][i % 6] = v[i];                                                            \
		return r;                                                                                    \
	}

/* Determinants and inverses follow Warp's formulas (mat.h), in the
 * matrix's own type: the adjugate times the reciprocal of the
 * determinant, and the zero matrix when the determinant is 0.  The 4x4
 * cofactors come from 2x2 minors (the scheme Warp takes from USD's
 * GfMatrix4f::Inverse).  A(x, y) and the like spell the scalar operations
 * of SN in the macros below. */
#define KS_DET22(MT, SN, ST)                                                                                \
	KS_FUNC ST ks_determinant_##MT(ks_##MT m)                                                           \
	{                                                                                                   \
		return ks_sub_##SN(ks_mul_##SN(m.c[0][0], m.c[1][1]), ks_mul_##SN(m.c[1][0], m.c[0][1]));   \
	}                                                                                                   \
	KS_FUNC ks_##MT ks_inverse_##MT(ks_##MT m)                                                          \
	{                                                                                                   \
		ST det = ks_determinant_##MT(m);                                                            \
		if (ks_eq_##SN(det, ks_zero_##SN()))                                                        \
			return ks_zero_##MT();                                                              \
		return ks_mul_##MT##_##SN(                                                                  \
			ks_make_##MT(m.c[1][1], ks_neg_##SN(m.c[0][1]), ks_neg_##SN(m.c[1][0]), m.c[0][0]), \
			ks_div_##SN(ks_one_##SN(), det));                                                   \
	}
#define KS_DET33(MT, SN, ST, VT)                                                                            \
	KS_FUNC ST ks_determinant_##MT(ks_##MT m)                                                           \
	{                                                                                                   \
		return ks_dot_##VT(ks_row_##MT(m, 0), ks_cross_##VT(ks_row_##MT(m, 1), ks_row_##MT(m, 2))); \
	}                                                                                                   \
	KS_FUNC ST ks_cof33_##SN(ST a, ST b, ST c, ST d)                                                    \
	{                                                                                                   \
		return ks_sub_##SN(ks_mul_##SN(a, b), ks_mul_##SN(c, d));                                   \
	}                                                                                                   \
	KS_FUNC ks_##MT ks_inverse_##MT(ks_##MT m)                                                          \
	{                                                                                                   \
		ST det = ks_determinant_##MT(m);                                                            \
		ks_##MT b;                                                                                  \
		if (ks_eq_##SN(det, ks_zero_##SN()))                                                        \
			return ks_zero_##MT();                                                              \
		b.c[0][0] = ks_cof33_##SN(m.c[1][1], m.c[2][2], m.c[1][2], m.c[2][1]);                      \
		b.c[1][0] = ks_cof33_##SN(m.c[1][2], m.c[2][0], m.c[1][0], m.c[2][2]);                      \
		b.c[2][0] = ks_cof33_##SN(m.c[1][0], m.c[2][1], m.c[1][1], m.c[2][0]);                      \
		b.c[0][1] = ks_cof33_##SN(m.c[0][2], m.c[2][1], m.c[0][1], m.c[2][2]);                      \
		b.c[1][1] = ks_cof33_##SN(m.c[0][0], m.c[2][2], m.c[0][2], m.c[2][0]);                      \
		b.c[2][1] = ks_cof33_##SN(m.c[0][1], m.c[2][0], m.c[0][0], m.c[2][1]);                      \
		b.c[0][2] = ks_cof33_##SN(m.c[0][1], m.c[1][2], m.c[0][2], m.c[1][1]);                      \
		b.c[1][2] = ks_cof33_##SN(m.c[0][2], m.c[1][0], m.c[0][0], m.c[1][2]);                      \
		b.c[2][2] = ks_cof33_##SN(m.c[0][0], m.c[1][1], m.c[0][1], m.c[1][0]);                      \
		return ks_mul_##MT##_##SN(b, ks_div_##SN(ks_one_##SN(), det));                              \
	}
/* a*b - c*d + e*f and a*b - c*d - e*f, left to right */
#define KS_DET44(MT, SN, ST)                                                                                       \
	KS_FUNC ST ks_pmp_##SN(ST a, ST b, ST c, ST d, ST e, ST f)                                                 \
	{                                                                                                          \
		return ks_add_##SN(ks_sub_##SN(ks_mul_##SN(a, b), ks_mul_##SN(c, d)), ks_mul_##SN(e, f));          \
	}                                                                                                          \
	KS_FUNC ST ks_pmm_##SN(ST a, ST b, ST c, ST d, ST e, ST f)                                                 \
	{                                                                                                          \
		return ks_sub_##SN(ks_sub_##SN(ks_mul_##SN(a, b), ks_mul_##SN(c, d)), ks_mul_##SN(e, f));          \
	}                                                                                                          \
	KS_FUNC ST ks_determinant_##MT(ks_##MT m)                                                                  \
	{                                                                                                          \
		ST(*x)[4] = m.c;                                                                                   \
		ST y01 = ks_cof33_##SN(x[0][2], x[1][3], x[1][2], x[0][3]);                                        \
		ST y02 = ks_cof33_##SN(x[0][2], x[2][3], x[2][2], x[0][3]);                                        \
		ST y03 = ks_cof33_##SN(x[0][2], x[3][3], x[3][2], x[0][3]);                                        \
		ST y12 = ks_cof33_##SN(x[1][2], x[2][3], x[2][2], x[1][3]);                                        \
		ST y13 = ks_cof33_##SN(x[1][2], x[3][3], x[3][2], x[1][3]);                                        \
		ST y23 = ks_cof33_##SN(x[2][2], x[3][3], x[3][2], x[2][3]);                                        \
		ST z30 = ks_pmm_##SN(x[1][1], y02, x[2][1], y01, x[0][1], y12);                                    \
		ST z20 = ks_pmp_##SN(x[0][1], y13, x[1][1], y03, x[3][1], y01);                                    \
		ST z10 = ks_pmm_##SN(x[2][1], y03, x[3][1], y02, x[0][1], y23);                                    \
		ST z00 = ks_pmp_##SN(x[1][1], y23, x[2][1], y13, x[3][1], y12);                                    \
		return ks_add_##SN(ks_add_##SN(ks_add_##SN(ks_mul_##SN(x[3][0], z30), ks_mul_##SN(x[2][0], z20)),  \
					       ks_mul_##SN(x[1][0], z10)),                                         \
				   ks_mul_##SN(x[0][0], z00));                                                     \
	}                                                                                                          \
	KS_FUNC ks_##MT ks_inverse_##MT(ks_##MT m)                                                                 \
	{                                                                                                          \
		ST(*x)[4] = m.c;                                                                                   \
		ks_##MT r;                                                                                         \
		/* 2x2 minors of the first two columns */                                                          \
		ST y01 = ks_cof33_##SN(x[0][0], x[1][1], x[1][0], x[0][1]);                                        \
		ST y02 = ks_cof33_##SN(x[0][0], x[2][1], x[2][0], x[0][1]);                                        \
		ST y03 = ks_cof33_##SN(x[0][0], x[3][1], x[3][0], x[0][1]);                                        \
		ST y12 = ks_cof33_##SN(x[1][0], x[2][1], x[2][0], x[1][1]);                                        \
		ST y13 = ks_cof33_##SN(x[1][0], x[3][1], x[3][0], x[1][1]);                                        \
		ST y23 = ks_cof33_##SN(x[2][0], x[3][1], x[3][0], x[2][1]);                                        \
		/* cofactors of the last two columns */                                                            \
		ST z33 = ks_pmp_##SN(x[0][2], y12, x[1][2], y02, x[2][2], y01);                                    \
		ST z23 = ks_pmm_##SN(x[1][2], y03, x[3][2], y01, x[0][2], y13);                                    \
		ST z13 = ks_pmp_##SN(x[0][2], y23, x[2][2], y03, x[3][2], y02);                                    \
		ST z03 = ks_pmm_##SN(x[2][2], y13, x[3][2], y12, x[1][2], y23);                                    \
		ST z32 = ks_pmm_##SN(x[1][3], y02, x[2][3], y01, x[0][3], y12);                                    \
		ST z22 = ks_pmp_##SN(x[0][3], y13, x[1][3], y03, x[3][3], y01);                                    \
		ST z12 = ks_pmm_##SN(x[2][3], y03, x[3][3], y02, x[0][3], y23);                                    \
		ST z02 = ks_pmp_##SN(x[1][3], y23, x[2][3], y13, x[3][3], y12);                                    \
		/* 2x2 minors of the last two columns */                                                           \
		y01 = ks_cof33_##SN(x[0][2], x[1][3], x[1][2], x[0][3]);                                           \
		y02 = ks_cof33_##SN(x[0][2], x[2][3], x[2][2], x[0][3]);                                           \
		y03 = ks_cof33_##SN(x[0][2], x[3][3], x[3][2], x[0][3]);                                           \
		y12 = ks_cof33_##SN(x[1][2], x[2][3], x[2][2], x[1][3]);                                           \
		y13 = ks_cof33_##SN(x[1][2], x[3][3], x[3][2], x[1][3]);                                           \
		y23 = ks_cof33_##SN(x[2][2], x[3][3], x[3][2], x[2][3]);                                           \
		/* cofactors of the first two columns */                                                           \
		ST z30 = ks_pmm_##SN(x[1][1], y02, x[2][1], y01, x[0][1], y12);                                    \
		ST z20 = ks_pmp_##SN(x[0][1], y13, x[1][1], y03, x[3][1], y01);                                    \
		ST z10 = ks_pmm_##SN(x[2][1], y03, x[3][1], y02, x[0][1], y23);                                    \
		ST z00 = ks_pmp_##SN(x[1][1], y23, x[2][1], y13, x[3][1], y12);                                    \
		ST z31 = ks_pmp_##SN(x[0][0], y12, x[1][0], y02, x[2][0], y01);                                    \
		ST z21 = ks_pmm_##SN(x[1][0], y03, x[3][0], y01, x[0][0], y13);                                    \
		ST z11 = ks_pmp_##SN(x[0][0], y23, x[2][0], y03, x[3][0], y02);                                    \
		ST z01 = ks_pmm_##SN(x[2][0], y13, x[3][0], y12, x[1][0], y23);                                    \
		ST det =                                                                                           \
			ks_add_##SN(ks_add_##SN(ks_add_##SN(ks_mul_##SN(x[3][0], z30), ks_mul_##SN(x[2][0], z20)), \
						ks_mul_##SN(x[1][0], z10)),                                        \
				    ks_mul_##SN(x[0][0], z00));                                                    \
		if (ks_eq_##SN(det, ks_zero_##SN()))                                                               \
			return ks_zero_##MT();                                                                     \
		ST rcp = ks_div_##SN(ks_one_##SN(), det);                                                          \
		ST z[4][4] = {                                                                                     \
			{z00, z10, z20, z30}, {z01, z11, z21, z31}, {z02, z12, z22, z32}, {z03, z13, z23, z33}};   \
		for (int i = 0; i < 4; i++)                                                                        \
			for (int j = 0; j < 4; j++)                                                                \
				r.c[i][j] = ks_mul_##SN(z[i][j], rcp);                                             \
		return r;                                                                                          \
	}

#define KS_MATS(SN, ST, M2, M3, M4, M6, V2, V3, V4, V6) \
	KS_MAT(M2, 2, SN, ST, V2)                       \
	KS_MAT(M3, 3, SN, ST, V3)                       \
	KS_MAT(M4, 4, SN, ST, V4)                       \
	KS_MAT(M6, 6, SN, ST, V6)                       \
	KS_MAKE22(M2, ST)                               \
	KS_MAKE33(M3, ST)                               \
	KS_MAKE44(M4, ST)                               \
	KS_MAKE66(M6, ST)                               \
	KS_DET22(M2, SN, ST)                            \
	KS_DET33(M3, SN, ST, V3)                        \
	KS_DET44(M4, SN, ST)

KS_MATS(float, KS_REAL, mat22, mat33, mat44, spatial_matrix, vec2, vec3, vec4, spatial_vector)
KS_MATS(float16, ks_half, mat22h, mat33h, mat44h, spatial_matrixh, vec2h, vec3h, vec4h, spatial_vectorh)
KS_MATS(float64, double, mat22d, mat33d, mat44d, spatial_matrixd, vec2d, vec3d, vec4d, spatial_vectord)

/* More of every matrix: lerp, the tests, component-wise products,
 * ddot (the sum of the component products), trace, the diagonal as a
 * vector and a vector as a diagonal matrix, and the matrix of rows or of
 * columns (matrix_from_rows, matrix_from_cols; one function per size,
 * below). */
#define KS_MAT_MORE(MT, N, SN, ST, VT)                                                                         \
	KS_FUNC ks_##MT ks_lerp_##MT(ks_##MT a, ks_##MT b, ST t)                                               \
	{                                                                                                      \
		ST s = ks_sub_##SN(ks_one_##SN(), t);                                                          \
		for (int i = 0; i < N; i++)                                                                    \
			for (int j = 0; j < N; j++)                                                            \
				a.c[i][j] = ks_add_##SN(ks_mul_##SN(a.c[i][j], s), ks_mul_##SN(b.c[i][j], t)); \
		return a;                                                                                      \
	}                                                                                                      \
	KS_FUNC bool ks_isnan_##MT(ks_##MT a)                                                                  \
	{                                                                                                      \
		for (int i = 0; i < N; i++)                                                                    \
			if (ks_isnan_##VT(ks_row_##MT(a, i)))                                                  \
				return true;                                                                   \
		return false;                                                                                  \
	}                                                                                                      \
	KS_FUNC bool ks_isinf_##MT(ks_##MT a)                                                                  \
	{                                                                                                      \
		for (int i = 0; i < N; i++)                                                                    \
			if (ks_isinf_##VT(ks_row_##MT(a, i)))                                                  \
				return true;                                                                   \
		return false;                                                                                  \
	}                                                                                                      \
	KS_FUNC bool ks_isfinite_##MT(ks_##MT a)                                                               \
	{                                                                                                      \
		for (int i = 0; i < N; i++)                                                                    \
			if (!ks_isfinite_##VT(ks_row_##MT(a, i)))                                              \
				return false;                                                                  \
		return true;                                                                                   \
	}                                                                                                      \
	KS_FUNC ks_##MT ks_cw_mul_##MT(ks_##MT a, ks_##MT b)                                                   \
	{                                                                                                      \
		for (int i = 0; i < N; i++)                                                                    \
			for (int j = 0; j < N; j++)                                                            \
				a.c[i][j] = ks_mul_##SN(a.c[i][j], b.c[i][j]);                                 \
		return a;                                                                                      \
	}                                                                                                      \
	KS_FUNC ks_##MT ks_cw_div_##MT(ks_##MT a, ks_##MT b)                                                   \
	{                                                                                                      \
		for (int i = 0; i < N; i++)                                                                    \
			for (int j = 0; j < N; j++)                                                            \
				a.c[i][j] = ks_div_##SN(a.c[i][j], b.c[i][j]);                                 \
		return a;                                                                                      \
	}                                                                                                      \
	KS_FUNC ST ks_ddot_##MT(ks_##MT a, ks_##MT b)                                                          \
	{                                                                                                      \
		ST r = ks_zero_##SN();                                                                         \
		for (int i = 0; i < N; i++)                                                                    \
			for (int j = 0; j < N; j++)                                                            \
				r = ks_add_##SN(r, ks_mul_##SN(a.c[i][j], b.c[i][j]));                         \
		return r;                                                                                      \
	}                                                                                                      \
	KS_FUNC ST ks_trace_##MT(ks_##MT a)                                                                    \
	{                                                                                                      \
		ST r = ks_zero_##SN();                                                                         \
		for (int i = 0; i < N; i++)                                                                    \
			r = ks_add_##SN(r, a.c[i][i]);                                                         \
		return r;                                                                                      \
	}                                                                                                      \
	KS_FUNC ks_##VT ks_get_diag_##MT(ks_##MT a)                                                            \
	{                                                                                                      \
		ks_##VT r;                                                                                     \
		for (int i = 0; i < N; i++)                                                                    \
			r.c[i] = a.c[i][i];                                                                    \
		return r;                                                                                      \
	}                                                                                                      \
	KS_FUNC ks_##MT ks_diag_##VT(ks_##VT d)                                                                \
	{                                                                                                      \
		ks_##MT r = ks_zero_##MT();                                                                    \
		for (int i = 0; i < N; i++)                                                                    \
			r.c[i][i] = d.c[i];                                                                    \
		return r;                                                                                      \
	}                                                                                                      \
	KS_FUNC ks_##MT ks_div_approx_##MT(ks_##MT a, ST s)                                                    \
	{                                                                                                      \
		for (int i = 0; i < N; i++)                                                                    \
			for (int j = 0; j < N; j++)                                                            \
				a.c[i][j] = ks_div_approx_##SN(a.c[i][j], s);                                  \
		return a;                                                                                      \
	}                                                                                                      \
	KS_FUNC ks_##MT ks_div_approx_##SN##_##MT(ST s, ks_##MT b)                                             \
	{                                                                                                      \
		for (int i = 0; i < N; i++)                                                                    \
			for (int j = 0; j < N; j++)                                                            \
				b.c[i][j] = ks_div_approx_##SN(s, b.c[i][j]);                                  \
		return b;                                                                                      \
	}

/* inverse_approx: the inverse; its divisions are exact, which Warp's
 * approximate one allows */
#define KS_INVERSE_APPROX(MT) \
	KS_FUNC ks_##MT ks_inverse_approx_##MT(ks_##MT a) { return ks_inverse_##MT(a); }

/* skew(v): the matrix of v x . (cross product with v) */
#define KS_SKEW(MT, SN, VT)                                          \
	KS_FUNC ks_##MT ks_skew_##VT(ks_##VT v)                      \
	{                                                            \
		ks_##MT r = ks_zero_##MT();                          \
		r.c[0][1] = ks_neg_##SN(v.c[2]), r.c[0][2] = v.c[1]; \
		r.c[1][0] = v.c[2], r.c[1][2] = ks_neg_##SN(v.c[0]); \
		r.c[2][0] = ks_neg_##SN(v.c[1]), r.c[2][1] = v.c[0]; \
		return r;                                            \
	}

/* ks_matrix_from_rows_VT and _cols_VT, named after the vector as every
 * builtin is after its first argument; the vectors are the arguments */
#define KS_FROM_VECS2(MT, VT)                                          \
	KS_FUNC ks_##MT ks_matrix_from_rows_##VT(ks_##VT a, ks_##VT b) \
	{                                                              \
		ks_##VT v[2] = {a, b};                                 \
		ks_##MT r;                                             \
		for (int i = 0; i < 2; i++)                            \
			for (int j = 0; j < 2; j++)                    \
				r.c[i][j] = v[i].c[j];                 \
		return r;                                              \
	}                                                              \
	KS_FUNC ks_##MT ks_matrix_from_cols_##VT(ks_##VT a, ks_##VT b) \
	{                                                              \
		ks_##VT v[2] = {a, b};                                 \
		ks_##MT r;                                             \
		for (int i = 0; i < 2; i++)                            \
			for (int j = 0; j < 2; j++)                    \
				r.c[j][i] = v[i].c[j];                 \
		return r;                                              \
	}
#define KS_FROM_VECS3(MT, VT)                                                     \
	KS_FUNC ks_##MT ks_matrix_from_rows_##VT(ks_##VT a, ks_##VT b, ks_##VT c) \
	{                                                                         \
		ks_##VT v[3] = {a, b, c};                                         \
		ks_##MT r;                                                        \
		for (int i = 0; i < 3; i++)                                       \
			for (int j = 0; j < 3; j++)                               \
				r.c[i][j] = v[i].c[j];                            \
		return r;                                                         \
	}                                                                         \
	KS_FUNC ks_##MT ks_matrix_from_cols_##VT(ks_##VT a, ks_##VT b, ks_##VT c) \
	{                                                                         \
		ks_##VT v[3] = {a, b, c};                                         \
		ks_##MT r;                                                        \
		for (int i = 0; i < 3; i++)                                       \
			for (int j = 0; j < 3; j++)                               \
				r.c[j][i] = v[i].c[j];                            \
		return r;                                                         \
	}
#define KS_FROM_VECS4(MT, VT)                                                                \
	KS_FUNC ks_##MT ks_matrix_from_rows_##VT(ks_##VT a, ks_##VT b, ks_##VT c, ks_##VT d) \
	{                                                                                    \
		ks_##VT v[4] = {a, b, c, d};                                                 \
		ks_##MT r;                                                                   \
		for (int i = 0; i < 4; i++)                                                  \
			for (int j = 0; j < 4; j++)                                          \
				r.c[i][j] = v[i].c[j];                                       \
		return r;                                                                    \
	}                                                                                    \
	KS_FUNC ks_##MT ks_matrix_from_cols_##VT(ks_##VT a, ks_##VT b, ks_##VT c, ks_##VT d) \
	{                                                                                    \
		ks_##VT v[4] = {a, b, c, d};                                                 \
		ks_##MT r;                                                                   \
		for (int i = 0; i < 4; i++)                                                  \
			for (int j = 0; j < 4; j++)                                          \
				r.c[j][i] = v[i].c[j];                                       \
		return r;                                                                    \
	}

#define KS_MATS_MORE(SN, ST, M2, M3, M4, M6, V2, V3, V4, V6) \
	KS_MAT_MORE(M2, 2, SN, ST, V2)                       \
	KS_MAT_MORE(M3, 3, SN, ST, V3)                       \
	KS_MAT_MORE(M4, 4, SN, ST, V4)                       \
	KS_MAT_MORE(M6, 6, SN, ST, V6)                       \
	KS_INVERSE_APPROX(M2)                                \
	KS_INVERSE_APPROX(M3)                                \
	KS_INVERSE_APPROX(M4)                                \
	KS_SKEW(M3, SN, V3)                                  \
	KS_FROM_VECS2(M2, V2)                                \
	KS_FROM_VECS3(M3, V3)                                \
	KS_FROM_VECS4(M4, V4)

KS_MATS_MORE(float, KS_REAL, mat22, mat33, mat44, spatial_matrix, vec2, vec3, vec4, spatial_vector)
KS_MATS_MORE(float16, ks_half, mat22h, mat33h, mat44h, spatial_matrixh, vec2h, vec3h, vec4h, spatial_vectorh)
KS_MATS_MORE(float64, double, mat22d, mat33d, mat44d, spatial_matrixd, vec2d, vec3d, vec4d, spatial_vectord)

#endif
