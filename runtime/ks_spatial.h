/*
 * ks_spatial.h: the spatial builtins of ir/builtins.h, on the spatial
 * vectors and matrices of each float type (ks_spatial_vector and
 * ks_spatial_matrix, whose operators are ks_vec.h's and ks_mat.h's): a
 * spatial vector is (w, v), the angular part on top.  spatial_cross,
 * spatial_cross_dual, spatial_adjoint, spatial_top and spatial_bottom in
 * Warp's formulas (spatial.h), and their adjoints (ks_adj_, as in
 * ks_quat.h).
 */
#ifndef KS_SPATIAL_H
#define KS_SPATIAL_H

/* V6, M6: the spatial vector and matrix of the scalar SN (C type ST); V3,
 * M3: the vector and matrix of their halves and blocks. */
#define KS_SPATIAL_MATH(SN, ST, V3, M3, V6, M6)                                                                    \
	KS_FUNC ks_##V6 ks_make_##V6##_##V3(ks_##V3 w, ks_##V3 v)                                                  \
	{                                                                                                          \
		return ks_make_##V6(w.c[0], w.c[1], w.c[2], v.c[0], v.c[1], v.c[2]);                               \
	}                                                                                                          \
	KS_FUNC ks_##V3 ks_spatial_top_##V6(ks_##V6 a) { return ks_make_##V3(a.c[0], a.c[1], a.c[2]); }            \
	KS_FUNC ks_##V3 ks_spatial_bottom_##V6(ks_##V6 a) { return ks_make_##V3(a.c[3], a.c[4], a.c[5]); }         \
	KS_FUNC ST ks_spatial_dot_##V6(ks_##V6 a, ks_##V6 b) { return ks_dot_##V6(a, b); }                         \
	KS_FUNC ks_##V6 ks_spatial_cross_##V6(ks_##V6 a, ks_##V6 b)                                                \
	{                                                                                                          \
		ks_##V3 wa = ks_spatial_top_##V6(a), va = ks_spatial_bottom_##V6(a);                               \
		ks_##V3 wb = ks_spatial_top_##V6(b), vb = ks_spatial_bottom_##V6(b);                               \
		return ks_make_##V6##_##V3(ks_cross_##V3(wa, wb),                                                  \
					   ks_add_##V3(ks_cross_##V3(va, wb), ks_cross_##V3(wa, vb)));             \
	}                                                                                                          \
	KS_FUNC ks_##V6 ks_spatial_cross_dual_##V6(ks_##V6 a, ks_##V6 b)                                           \
	{                                                                                                          \
		ks_##V3 wa = ks_spatial_top_##V6(a), va = ks_spatial_bottom_##V6(a);                               \
		ks_##V3 wb = ks_spatial_top_##V6(b), vb = ks_spatial_bottom_##V6(b);                               \
		return ks_make_##V6##_##V3(ks_add_##V3(ks_cross_##V3(wa, wb), ks_cross_##V3(va, vb)),              \
					   ks_cross_##V3(wa, vb));                                                 \
	}                                                                                                          \
	/* [[R, 0], [S, R]] */                                                                                     \
	KS_FUNC ks_##M6 ks_spatial_adjoint_##M3(ks_##M3 r, ks_##M3 s)                                              \
	{                                                                                                          \
		ks_##M6 m = ks_zero_##M6();                                                                        \
		for (int i = 0; i < 3; i++)                                                                        \
			for (int j = 0; j < 3; j++) {                                                              \
				m.c[i][j] = r.c[i][j];                                                             \
				m.c[i + 3][j + 3] = r.c[i][j];                                                     \
				m.c[i + 3][j] = s.c[i][j];                                                         \
			}                                                                                          \
		return m;                                                                                          \
	}                                                                                                          \
	KS_FUNC ks_##V6 ks_adj_spatial_top_svec_##V3(ks_##V3 g) { return ks_make_##V6##_##V3(g, ks_zero_##V3()); } \
	KS_FUNC ks_##V6 ks_adj_spatial_bottom_svec_##V3(ks_##V3 g)                                                 \
	{                                                                                                          \
		return ks_make_##V6##_##V3(ks_zero_##V3(), g);                                                     \
	}                                                                                                          \
	/* (x cross y) . g: x gets y cross g, y gets g cross x */                                                  \
	KS_FUNC ks_##V6 ks_adj_spatial_cross_a_##V6(ks_##V6 a, ks_##V6 b, ks_##V6 g)                               \
	{                                                                                                          \
		ks_##V3 wb = ks_spatial_top_##V6(b), vb = ks_spatial_bottom_##V6(b);                               \
		ks_##V3 gw = ks_spatial_top_##V6(g), gv = ks_spatial_bottom_##V6(g);                               \
		(void)a;                                                                                           \
		return ks_make_##V6##_##V3(ks_add_##V3(ks_cross_##V3(wb, gw), ks_cross_##V3(vb, gv)),              \
					   ks_cross_##V3(wb, gv));                                                 \
	}                                                                                                          \
	KS_FUNC ks_##V6 ks_adj_spatial_cross_b_##V6(ks_##V6 a, ks_##V6 b, ks_##V6 g)                               \
	{                                                                                                          \
		ks_##V3 wa = ks_spatial_top_##V6(a), va = ks_spatial_bottom_##V6(a);                               \
		ks_##V3 gw = ks_spatial_top_##V6(g), gv = ks_spatial_bottom_##V6(g);                               \
		(void)b;                                                                                           \
		return ks_make_##V6##_##V3(ks_add_##V3(ks_cross_##V3(gw, wa), ks_cross_##V3(gv, va)),              \
					   ks_cross_##V3(gv, wa));                                                 \
	}                                                                                                          \
	KS_FUNC ks_##V6 ks_adj_spatial_cross_dual_a_##V6(ks_##V6 a, ks_##V6 b, ks_##V6 g)                          \
	{                                                                                                          \
		ks_##V3 wb = ks_spatial_top_##V6(b), vb = ks_spatial_bottom_##V6(b);                               \
		ks_##V3 gw = ks_spatial_top_##V6(g), gv = ks_spatial_bottom_##V6(g);                               \
		(void)a;                                                                                           \
		return ks_make_##V6##_##V3(ks_add_##V3(ks_cross_##V3(wb, gw), ks_cross_##V3(vb, gv)),              \
					   ks_cross_##V3(vb, gw));                                                 \
	}                                                                                                          \
	KS_FUNC ks_##V6 ks_adj_spatial_cross_dual_b_##V6(ks_##V6 a, ks_##V6 b, ks_##V6 g)                          \
	{                                                                                                          \
		ks_##V3 wa = ks_spatial_top_##V6(a), va = ks_spatial_bottom_##V6(a);                               \
		ks_##V3 gw = ks_spatial_top_##V6(g), gv = ks_spatial_bottom_##V6(g);                               \
		(void)b;                                                                                           \
		return ks_make_##V6##_##V3(ks_cross_##V3(gw, wa),                                                  \
					   ks_add_##V3(ks_cross_##V3(gw, va), ks_cross_##V3(gv, wa)));             \
	}                                                                                                          \
	KS_FUNC ks_##M3 ks_adj_spatial_adjoint_r_##M6(ks_##M6 g)                                                   \
	{                                                                                                          \
		ks_##M3 r;                                                                                         \
		for (int i = 0; i < 3; i++)                                                                        \
			for (int j = 0; j < 3; j++)                                                                \
				r.c[i][j] = ks_add_##SN(g.c[i][j], g.c[i + 3][j + 3]);                             \
		return r;                                                                                          \
	}                                                                                                          \
	KS_FUNC ks_##M3 ks_adj_spatial_adjoint_s_##M6(ks_##M6 g)                                                   \
	{                                                                                                          \
		ks_##M3 r;                                                                                         \
		for (int i = 0; i < 3; i++)                                                                        \
			for (int j = 0; j < 3; j++)                                                                \
				r.c[i][j] = g.c[i + 3][j];                                                         \
		return r;                                                                                          \
	}

KS_SPATIAL_MATH(float, KS_REAL, vec3, mat33, spatial_vector, spatial_matrix)
KS_SPATIAL_MATH(float16, ks_half, vec3h, mat33h, spatial_vectorh, spatial_matrixh)
KS_SPATIAL_MATH(float64, double, vec3d, mat33d, spatial_vectord, spatial_matrixd)

#endif
