/*
 * ops.c: checks runtime/ksynth.h against values worked out by hand.  Built
 * as C (gcc, tcc) and as simulated CUDA (g++ with ksynth_sim.h) by
 * t3003-runtime.t; prints TAP.
 */
#include "ksynth.h"

#include <stdio.h>
#include <string.h>

static int n, failed;

static void ok(int cond, const char *what)
{
	printf("%sok %d - %s\n", cond ? "" : "not ", ++n, what);
	failed += !cond;
}

static int same_mat33(ks_mat33 a, const float *want)
{
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++)
			if (a.c[i][j] != want[3 * i + j])
				return 0;
	return 1;
}

int main(void)
{
	ks_vec3 x = ks_make_vec3(1.0f, 0.0f, 0.0f), y = ks_make_vec3(0.0f, 1.0f, 0.0f);
	ks_vec3 z = ks_cross_vec3(x, y);
	ok(z.c[0] == 0.0f && z.c[1] == 0.0f && z.c[2] == 1.0f, "cross(x, y) = z");
	ks_vec3 c = ks_cross_vec3(ks_make_vec3(1, 2, 3), ks_make_vec3(4, 5, 6));
	ok(c.c[0] == -3.0f && c.c[1] == 6.0f && c.c[2] == -3.0f, "cross((1,2,3), (4,5,6)) = (-3,6,-3)");
	ok(ks_dot_vec3(ks_make_vec3(1, 2, 3), ks_make_vec3(4, 5, 6)) == 32.0f, "dot = 32");
	ok(ks_length_vec2(ks_make_vec2(3, 4)) == 5.0f, "length((3,4)) = 5");
	ks_vec3 nz = ks_normalize_vec3(ks_zero_vec3());
	ok(nz.c[0] == 0.0f && nz.c[1] == 0.0f && nz.c[2] == 0.0f, "normalize(0) = 0");
	ks_vec2 nn = ks_normalize_vec2(ks_make_vec2(0, -2));
	ok(nn.c[0] == 0.0f && nn.c[1] == -1.0f, "normalize((0,-2)) = (0,-1)");

	/* [[2,0,1],[1,3,2],[1,1,1]]: det = 2(3-2) - 0 + 1(1-3) = 0 → singular;
	 * use [[2,0,1],[1,3,2],[1,1,2]]: det = 2(6-2) - 0 + 1(1-3) = 6 */
	ks_mat33 m = ks_make_mat33(2, 0, 1, 1, 3, 2, 1, 1, 2);
	ok(ks_determinant_mat33(m) == 6.0f, "determinant of a 3x3 = 6");
	ks_mat33 s = ks_make_mat33(2, 0, 1, 1, 3, 2, 1, 1, 1);
	ok(ks_determinant_mat33(s) == 0.0f, "singular 3x3: determinant 0");
	const float zero[9] = {0};
	ok(same_mat33(ks_inverse_mat33(s), zero), "inverse of a singular 3x3 = 0");
	/* the inverse of diag(2, 4, 8) is exact */
	ks_mat33 d = ks_make_mat33(2, 0, 0, 0, 4, 0, 0, 0, 8);
	const float dinv[9] = {0.5f, 0, 0, 0, 0.25f, 0, 0, 0, 0.125f};
	ok(same_mat33(ks_inverse_mat33(d), dinv), "inverse of diag(2,4,8)");
	/* m * inverse(m) = I to rounding */
	ks_mat33 p = ks_mul_mat33_mat33(m, ks_inverse_mat33(m));
	float err = 0;
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++)
			err += fabsf(p.c[i][j] - (i == j ? 1.0f : 0.0f));
	ok(err < 1e-5f, "m * inverse(m) = I");
	ks_mat22 a = ks_make_mat22(4, 7, 2, 6); /* det 10, inverse [[.6,-.7],[-.2,.4]] */
	ks_mat22 ai = ks_inverse_mat22(a);
	ok(ks_determinant_mat22(a) == 10.0f, "determinant of a 2x2 = 10");
	ok(fabsf(ai.c[0][0] - 0.6f) < 1e-6f && fabsf(ai.c[0][1] + 0.7f) < 1e-6f &&
	   fabsf(ai.c[1][0] + 0.2f) < 1e-6f && fabsf(ai.c[1][1] - 0.4f) < 1e-6f, "inverse of a 2x2");
	ks_mat44 q = ks_make_mat44(1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 4, 0, 1, 2, 3, 1);
	ok(ks_determinant_mat44(q) == 8.0f, "determinant of a 4x4 = 8");
	ks_mat44 qi = ks_inverse_mat44(q);
	ks_mat44 qq = ks_mul_mat44_mat44(q, qi);
	err = 0;
	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 4; j++)
			err += fabsf(qq.c[i][j] - (i == j ? 1.0f : 0.0f));
	ok(err < 1e-5f, "q * inverse(q) = I (4x4)");
	ok(ks_inverse_mat44(ks_zero_mat44()).c[0][0] == 0.0f, "inverse of a singular 4x4 = 0");
	ks_vec3 mv = ks_mul_mat33_vec3(m, ks_make_vec3(1, 2, 3));
	ok(mv.c[0] == 5.0f && mv.c[1] == 13.0f && mv.c[2] == 9.0f, "mat33 * vec3");
	ks_mat33 o = ks_outer_vec3(ks_make_vec3(1, 2, 3), ks_make_vec3(1, 0, -1));
	ok(o.c[1][0] == 2.0f && o.c[2][2] == -3.0f && ks_transpose_mat33(o).c[0][1] == 2.0f, "outer, transpose");

	/* Warp's sign: -1 for x < 0, else 1 (sign(0) = 1) */
	ok(ks_sign_float(0.0f) == 1.0f && ks_sign_float(-0.0f) == 1.0f && ks_sign_float(-2.5f) == -1.0f,
	   "sign(0.0) = sign(-0.0) = 1, sign(-2.5) = -1");
	ok(ks_sign_int(0) == 1 && ks_sign_int(-7) == -1 && ks_sign_int(3) == 1, "sign on ints");
	ok(ks_floordiv_float(-7.0f, 2.0f) == -4.0f && ks_mod_float(-7.0f, 2.0f) == -1.0f,
	   "float -7 // 2 = -4, -7 % 2 = -1 (fmodf)");
	int mi = -7, two = 2;
	ok(mi / two == -3 && mi % two == -1, "int -7 / 2 = -3, -7 % 2 = -1 (C truncation)");
	ok(ks_floordiv_int(-7, 2) == -4 && ks_floordiv_int(7, -2) == -4 && ks_floordiv_int(-1, 2) == -1 &&
	       ks_floordiv_int(-8, 2) == -4 && ks_floordiv_int(7, 2) == 3 && ks_floordiv_int(-7, -2) == 3 &&
	       ks_floordiv_int(0, -3) == 0,
	   "int // rounds down as Warp's: -7 // 2 = -4, 7 // -2 = -4, -1 // 2 = -1, -7 // -2 = 3");
	/* the results C leaves undefined, defined the same on every device */
	int imin = -2147483647 - 1, imax = 2147483647;
	ok(ks_div_int(7, 0) == 0 && ks_div_int(-7, 0) == 0 && ks_div_int(imin, 0) == 0,
	   "int a / 0 = 0");
	ok(ks_mod_int(7, 0) == 7 && ks_mod_int(-7, 0) == -7 && ks_mod_int(imin, 0) == imin,
	   "int a % 0 = a");
	ok(ks_floordiv_int(7, 0) == 0 && ks_floordiv_int(-7, 0) == 0, "int a // 0 = 0");
	ok(ks_div_int(imin, -1) == imin && ks_mod_int(imin, -1) == 0 &&
	       ks_floordiv_int(imin, -1) == imin && ks_div_int(imax, -1) == -imax,
	   "INT_MIN / -1 = INT_MIN, INT_MIN % -1 = 0, INT_MIN // -1 = INT_MIN");
	ok(ks_div_int(-7, 2) == -3 && ks_mod_int(-7, 2) == -1 && ks_div_int(7, -1) == -7 &&
	       ks_mod_int(7, -2) == 1,
	   "ks_div_int and ks_mod_int truncate elsewhere, as C");
	ok(ks_to_int_float(KS_NAN) == 0 && ks_to_int_float(-KS_NAN) == 0, "int(nan) = 0");
	ok(ks_to_int_float(KS_INF) == imax && ks_to_int_float(-KS_INF) == imin &&
	       ks_to_int_float(3.0e9f) == imax && ks_to_int_float(-3.0e9f) == imin &&
	       ks_to_int_float(2147483648.0f) == imax,
	   "int(x) saturates out of range: inf, 3e9, 2^31 -> INT_MAX; -inf, -3e9 -> INT_MIN");
	ok(ks_to_int_float(-2147483648.0f) == imin && ks_to_int_float(2147483520.0f) == 2147483520 &&
	       ks_to_int_float(-2.7f) == -2 && ks_to_int_float(2.7f) == 2 && ks_to_int_float(-0.5f) == 0,
	   "int(x) truncates toward zero in range: -2^31, 2147483520, -2.7 -> -2, 2.7 -> 2");
	ok(ks_clamp_float(5.0f, -1.0f, 1.0f) == 1.0f && ks_clamp_float(-5.0f, -1.0f, 1.0f) == -1.0f &&
	   ks_clamp_float(0.25f, -1.0f, 1.0f) == 0.25f, "clamp float");
	ok(ks_clamp_int(9, 0, 4) == 4 && ks_clamp_int(-9, 0, 4) == 0, "clamp int");
	ok(ks_min_float(1.0f, KS_NAN) == KS_NAN || ks_min_float(1.0f, KS_NAN) != ks_min_float(1.0f, KS_NAN),
	   "min(1, nan) = nan (a < b ? a : b)");
	ok(ks_max_int(-3, 2) == 2 && ks_min_int(-3, 2) == -3 && ks_abs_int(-4) == 4, "int min max abs");
	ks_vec3 av = ks_abs_vec3(ks_make_vec3(-1, 2, -3));
	ok(av.c[0] == 1.0f && av.c[2] == 3.0f, "abs on vec3");

	float cell = 1.0f;
	ok(ks_atomic_add_float(&cell, 2.0f) == 1.0f && cell == 3.0f, "atomic_add returns the old value");
	ok(ks_atomic_min_float(&cell, 5.0f) == 3.0f && cell == 3.0f, "atomic_min keeps the smaller");
	ok(ks_atomic_max_float(&cell, 5.0f) == 3.0f && cell == 5.0f, "atomic_max takes the larger");
	ok(ks_atomic_sub_float(&cell, 1.0f) == 5.0f && cell == 4.0f, "atomic_sub");
	int icell = 4;
	ok(ks_atomic_min_int(&icell, -1) == 4 && icell == -1 && ks_atomic_sub_int(&icell, 2) == -1 &&
	   icell == -3, "int atomics");
	ks_vec2 vc = ks_make_vec2(1, 2);
	ks_vec2 old = ks_atomic_add_vec2(&vc, ks_make_vec2(10, 20));
	ok(old.c[1] == 2.0f && vc.c[0] == 11.0f && vc.c[1] == 22.0f, "vector atomic_add");
	printf("1..%d\n", n);
	return failed != 0;
}
