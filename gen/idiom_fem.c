/*
 * idiom_fem.c: finite elements: triangles (mat22) and tetrahedra
 * (mat33), a thread per element.
 *
 * The deformation gradient F = Ds * Dm_inv, then a material --
 * St. Venant-Kirchhoff, linear, a neo-Hookean flavour, per element or
 * global, maybe with muscle fibres and damping of the deformation rate
 * -- and its forces scattered to the element's nodes by atomics, and
 * maybe its energy, summed or per element.
 */
#include <math.h>

#include "gen/idiom.h"

void idiom_fem(Kit *k)
{
	G *g = k->g;
	const char *t = k->tid;
	int tet = chance(g, 35);
	int n = tet ? 3 : 2;
	const char *vt = tet ? "wp.vec3" : "wp.vec2", *mt = tet ? "wp.mat33" : "wp.mat22";
	const char *x = kit_arr(k, ONE(g, "x", "positions", "particle_x"), vt, 1);
	/* the element's vertices: an index array per corner, or one array
	 * of index vectors */
	int packed = chance(g, 45);
	const char *ia = 0, *ib = 0, *ic = 0, *id = 0, *iv = 0;
	if (packed) {
		iv = kit_arr(k,
			     tet ? ONE(g, "tet_indices", "tets", "elements")
				 : ONE(g, "tri_indices", "tris", "elements"),
			     tet ? "wp.vec4i" : "wp.vec3i", 1);
	} else {
		ia = kit_arr(k, "tri_i", "int", 1), ib = kit_arr(k, "tri_j", "int", 1),
		ic = kit_arr(k, "tri_k", "int", 1);
		id = tet ? kit_arr(k, "tri_l", "int", 1) : 0;
	}
	const char *pose = kit_arr(k, ONE(g, "pose", "Dm_inv", "rest_inv"), mt, 1);
	kit_tid_line(k, 1, t, 0);
	if (packed) {
		B(k, "e = %s[%s]", iv, t);
		B(k, "a = e[0]");
		B(k, "b = e[1]");
		B(k, "c = e[2]");
		if (tet)
			B(k, "d = e[3]");
	} else {
		B(k, "a = %s[%s]", ia, t);
		B(k, "b = %s[%s]", ib, t);
		B(k, "c = %s[%s]", ic, t);
		if (tet)
			B(k, "d = %s[%s]", id, t);
	}
	B(k, "x0 = %s[a]", x);
	if (tet)
		B(k, "Ds = wp.matrix_from_cols(%s[b] - x0, %s[c] - x0, %s[d] - x0)", x, x, x);
	else
		B(k, "Ds = wp.matrix_from_cols(%s[b] - x0, %s[c] - x0)", x, x);
	B(k, "Dm = %s[%s]", pose, t);
	B(k, "F = Ds * Dm");
	const char *mu, *lam;
	static const int matw[] = {30, 50, 20};
	int mat = wpick(g, matw, 3);
	if (mat == 0) {
		/* a material per element, or a table of materials that each
		 * element names */
		const char *m = t;
		if (chance(g, 40)) {
			B(k, "m = %s[%s]", kit_arr(k, ONE(g, "material", "mat_id", "element_material"), "int", 1),
			  t);
			m = "m";
		}
		mu = F(k, "%s[%s]", kit_arr(k, ONE(g, "k_mu", "mu", "shear"), "float", 1), m);
		lam = F(k, "%s[%s]", kit_arr(k, ONE(g, "k_lambda", "lam", "bulk"), "float", 1), m);
	} else if (mat == 1) {
		mu = kit_coef(k, ONE(g, "k_mu", "mu", "shear"), 0.5, 5.0);
		lam = kit_coef(k, ONE(g, "k_lambda", "lam", "bulk"), 0.5, 5.0);
	} else {
		/* Lame's parameters from a Young's modulus (per element or
		 * one) at a fixed Poisson ratio */
		const char *E = chance(g, 50) ? F(k, "%s[%s]",
						  kit_arr(k, ONE(g, "youngs", "k_E", "stiffness"), "float", 1), t)
					      : kit_fparam(k, ONE(g, "youngs", "k_E", "stiffness"));
		double nu = 0.1 + 0.05 * rnd(g, 7);
		B(k, "mu = %s * %s", kit_dec(k, round(1000.0 / (2.0 * (1.0 + nu))) / 1000.0), E);
		B(k, "lam = %s * %s", kit_dec(k, round(1000.0 * nu / ((1.0 + nu) * (1.0 - 2.0 * nu))) / 1000.0), E);
		mu = "mu";
		lam = "lam";
	}
	/* St. Venant-Kirchhoff, linear, a neo-Hookean flavour, and for
	 * triangles a co-rotated model */
	int model = rnd(g, tet ? 3 : 4);
	/* the volume change and its derivative, for the neo-Hookean and
	 * co-rotated models and for a volume term added to the others */
	int volume = model >= 2 || chance(g, 85);
	if (model < 2)
		B(k, "I = wp.identity(n=%d, dtype=float)", n);
	if (model == 0) {
		/* St. Venant-Kirchhoff */
		B(k, "E = 0.5 * (wp.transpose(F) * F - I)");
		B(k, "P = F * (%s + %s * wp.trace(E) * I)", kit_prod(k, kit_times(k, 2.0, mu), "E"), lam);
		B(k, "psi = %s * wp.ddot(E, E) + %s", mu,
		  kit_prod(k, kit_times(k, 0.5, lam), "wp.trace(E) * wp.trace(E)"));
	} else if (model == 1) {
		/* linear elasticity */
		B(k, "eps = 0.5 * (F + wp.transpose(F)) - I");
		B(k, "P = %s + %s * wp.trace(eps) * I", kit_prod(k, kit_times(k, 2.0, mu), "eps"), lam);
		B(k, "psi = %s * wp.ddot(eps, eps) + %s", mu,
		  kit_prod(k, kit_times(k, 0.5, lam), "wp.trace(eps) * wp.trace(eps)"));
	}
	if (volume) {
		/* the volume change through the cofactor */
		B(k, "J = wp.determinant(F)");
		if (tet)
			B(k,
			  "dJdF = wp.matrix_from_rows(wp.cross(F[1], F[2]), wp.cross(F[2], F[0]), wp.cross(F[0], F[1]))");
		else
			B(k, "dJdF = %s(F[1, 1], -F[1, 0], -F[0, 1], F[0, 0])", mt);
	}
	if (model == 2) {
		/* a stable neo-Hookean flavour with a rest volume ratio of its
		 * own (stable neo-Hookean models take 1 + 3 mu / (4 lambda), so
		 * that the rest shape is free of stress; here it is a tuned
		 * constant, as lambda may be near zero under the input law) */
		const char *r = chance(g, 10) ? "1.0" : kit_num(k, 1.0, 1.4);
		B(k, "P = %s * F + %s * (J - %s) * dJdF", mu, lam, r);
		B(k, "psi = %s + %s",
		  kit_prod(k, kit_times(k, 0.5, mu), F(k, "(wp.ddot(F, F) - %s)", tet ? "3.0" : "2.0")),
		  kit_prod(k, kit_times(k, 0.5, lam), F(k, "(J - %s) * (J - %s)", r, r)));
	} else if (model == 3) {
		/* fixed co-rotated: F's rotation in closed form (a 2x2 polar
		 * decomposition, its norm softened) */
		B(k, "cs = F[0, 0] + F[1, 1]");
		B(k, "sn = F[1, 0] - F[0, 1]");
		B(k, "inv_len = 1.0 / wp.sqrt(cs * cs + sn * sn + %s)", kit_num(k, 0.05, 0.3));
		B(k, "R = wp.mat22(cs, -sn, sn, cs) * inv_len");
		B(k, "S = F - R");
		B(k, "P = %s + %s * (J - 1.0) * dJdF", kit_prod(k, kit_times(k, 2.0, mu), "S"), lam);
		B(k, "psi = %s * wp.ddot(S, S) + %s", mu,
		  kit_prod(k, kit_times(k, 0.5, lam), "(J - 1.0) * (J - 1.0)"));
	} else if (volume) {
		/* a penalty on the volume change, its response tuned */
		const char *kv = kit_coef(k, ONE(g, "k_volume", "k_vol", "bulk_penalty"), 0.1, 2.0);
		B(k, "dJ = J - 1.0");
		B(k, "P = P + %s * dJdF", kit_prod(k, kv, kit_response(k, "dJ")));
	}
	if (chance(g, 25)) {
		/* a muscle fibre pulling along its direction, one for all or
		 * one per element */
		const char *act = kit_arr(k, ONE(g, "activation", "act", "tension"), "float", 1);
		const char *fib =
			chance(g, 60)
				? kit_scalar(k, ONE(g, "fiber", "fibre_dir", "muscle_dir"), vt)
				: F(k, "%s[%s]", kit_arr(k, ONE(g, "fiber", "fibre_dir", "muscle_dir"), vt, 1), t);
		B(k, "P = P + %s * F * wp.outer(%s, %s)", kit_prod(k, kit_num(k, 0.2, 2.0), F(k, "%s[%s]", act, t)),
		  fib, fib);
	}
	if (chance(g, 35)) {
		/* damping of the deformation rate, or of its symmetric part
		 * (a viscous stress) */
		const char *v = kit_arr(k, ONE(g, "v", "velocities", "particle_v"), vt, 1);
		const char *kd = kit_coef(k, ONE(g, "k_damp", "kd", "damping"), 0.01, 0.5);
		B(k, "v0 = %s[a]", v);
		if (tet)
			B(k, "dFdt = wp.matrix_from_cols(%s[b] - v0, %s[c] - v0, %s[d] - v0) * Dm", v, v, v);
		else
			B(k, "dFdt = wp.matrix_from_cols(%s[b] - v0, %s[c] - v0) * Dm", v, v);
		if (chance(g, 50))
			B(k, "P = P + %s * dFdt", kd);
		else
			B(k, "P = P + %s * (dFdt + wp.transpose(dFdt))", kd);
	}
	/* the rest area or volume per element, for cloth maybe times a
	 * thickness */
	const char *vol = chance(g, 50)
				  ? F(k, "%s[%s]", kit_arr(k, ONE(g, "rest_area", "area", "volume"), "float", 1), t)
				  : 0;
	if (vol && !tet && chance(g, 30))
		vol = F(k, "%s * %s", vol, kit_coef(k, ONE(g, "thickness", "shell_h", "h"), 0.05, 0.5));
	B(k, "H = P * wp.transpose(Dm)%s", vol ? F(k, " * %s", vol) : "");
	B(k, "Ht = wp.transpose(H)");
	const char *f = kit_arr(k, ONE(g, "f", "forces", "particle_f"), vt, 1);
	B(k, "wp.atomic_sub(%s, b, Ht[0])", f);
	B(k, "wp.atomic_sub(%s, c, Ht[1])", f);
	if (tet) {
		B(k, "wp.atomic_sub(%s, d, Ht[2])", f);
		B(k, "wp.atomic_add(%s, a, Ht[0] + Ht[1] + Ht[2])", f);
	} else {
		B(k, "wp.atomic_add(%s, a, Ht[0] + Ht[1])", f);
	}
	if (chance(g, 50)) {
		const char *en = kit_arr(k, ONE(g, "energy", "strain_energy", "pe"), "float", 1);
		B(k, "wp.atomic_add(%s, 0, psi%s)", en, vol ? F(k, " * %s", vol) : "");
	} else {
		const char *en = kit_arr(k, ONE(g, "element_energy", "psi_out", "density"), "float", 1);
		B(k, "%s[%s] = psi%s", en, t, vol && chance(g, 50) ? F(k, " * %s", vol) : "");
	}
	/* what the element also reports: its stress, its volume change */
	int rep = rnd(g, 4);
	if (rep == 1)
		B(k, "%s[%s] = P", kit_arr(k, ONE(g, "stress", "P_out", "piola"), mt, 1), t);
	else if (rep == 2 && volume)
		B(k, "%s[%s] = J", kit_arr(k, ONE(g, "J_out", "vol_ratio", "dilation"), "float", 1), t);
	kit_end(k, tet ? ONE(g, "tet_forces", "eval_tets", "solve_tets")
		       : ONE(g, "triangle_forces", "eval_triangles", "cloth_forces"));
}
