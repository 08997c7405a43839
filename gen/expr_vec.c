/*
 * expr_vec.c: vector expressions (gen_v) of 2, 3 or 4 components:
 * leaves, constructors and fills, sums and differences, scalings,
 * products of a matrix and a vector, a matrix's rows, cross products,
 * normalization, abs, min and max.
 *
 * A vector is normalized only after it is offset so that one component
 * is at least 0.5 in size (the rules at the top of gen/expr.c).
 */
#include <math.h>

#include "gen/expr.h"

static Expr vec_ctor(G *g, int n, int d)
{
	if (chance(g, 12)) {
		Expr a = gen_f(g, d - 1);
		if (!named_ex(a))
			a = ex_dep_f(g, d - 1);
		COV(g, expr_vec_fill);
		return ex(S("wp.vec", ilit(g, n), "(", a.s, ")"), VEC_OF(n), P_ATOM, a.iv, a.dep);
	}
	/* components differ from each other (not wp.vec3(t, t, t)), and one
	 * names a variable */
	Expr c[4];
	int named = 0;
	for (int k = 0; k < n; k++) {
		for (int t = 0; t < 3; t++) {
			c[k] = k && chance(g, 25) ? lit_f(g) : gen_f(g, n == 4 ? d - 2 : d - 1);
			int same = 0;
			for (int j = 0; j < k; j++)
				same |= SAME(c[j], c[k]);
			if (!same)
				break;
		}
		named = named || named_ex(c[k]);
	}
	if (!named)
		c[rnd(g, n)] = ex_dep_f(g, d - 1);
	const char *s = S("wp.vec", ilit(g, n), "(");
	Iv v = c[0].iv;
	int dep = 0;
	for (int k = 0; k < n; k++) {
		v = iv_hull(v, c[k].iv);
		dep |= c[k].dep;
		s = APP(s, k ? ", " : "", c[k].s);
	}
	COV(g, expr_vec_ctor);
	return ex(S(s, ")"), VEC_OF(n), P_ATOM, v, dep);
}

/* The leaves vectors and matrices share, by R, a draw of rnd(g, 6): a
 * variable of type TY (0, 1), an element of an array of TY (2, 3);
 * nothing (0) when there is none or R asks for another kind. */
int ex_leaf_vm(G *g, int ty, int r, int d, Expr *e)
{
	Var *v = r < 2 ? pick_var(g, ty, 0, 1) : r < 4 ? pick_arr(g, ty, -1) : NULL;
	if (!v)
		return 0;
	*e = r < 2 ? ex_var(v) : read_arr(g, v, d);
	return 1;
}

static Expr leaf_v(G *g, int n, int d)
{
	int t = VEC_OF(n), r = rnd(g, 6);
	Expr e;
	if (ex_leaf_vm(g, t, r, d, &e))
		return e;
	switch (r) {
	case 4: {
		Var *m = pick_var(g, MAT_OF(n), 0, 1);
		if (m) {
			COV(g, expr_mat_row);
			return ex(S(m->name, "[", ilit(g, rnd(g, n)), "]"), t, P_ATOM, m->iv, m->dep);
		}
		break;
	}
	default:
		break;
	}
	return vec_ctor(g, n, d > 0 ? d : 1);
}

Expr gen_v(G *g, int n, int d)
{
	int t = VEC_OF(n);
	if (d <= 0 || g->sp > sizeof g->scratch / 2)
		return leaf_v(g, n, 0);
	Expr e, a, b;
	if (chance(g, g->rng[0] ? 2 * LIB_PCT : LIB_PCT))
		e = lib_v(g, n, d);
	else
		switch (rnd(g, 14)) {
		case 0:
		case 1:
			a = gen_v(g, n, d - 1);
			if (!ex_second_vm(g, a, d - 1, &b)) {
				e = a;
				break;
			}
			COV(g, expr_vec_add);
			e = ex(S(par(g, a, P_ADD), " + ", par(g, b, P_MUL)), t, P_ADD, iv_add(a.iv, b.iv),
			       a.dep | b.dep);
			break;
		case 2:
			a = gen_v(g, n, d - 1);
			if (!ex_second_vm(g, a, d - 1, &b)) {
				e = a;
				break;
			}
			COV(g, expr_vec_sub);
			e = ex(S(par(g, a, P_ADD), " - ", par(g, b, P_MUL)), t, P_ADD, iv_sub(a.iv, b.iv),
			       a.dep | b.dep);
			break;
		case 3:
		case 4: {
			Expr s = squash(g, gen_f(g, d - 1), 4.0);
			a = gen_v(g, n, d - 1);
			COV(g, expr_scalar_vec);
			if (chance(g, 70))
				e = ex(S(par(g, s, P_MUL), " * ", par(g, a, P_UNARY)), t, P_MUL, iv_mul(s.iv, a.iv),
				       a.dep | s.dep);
			else
				e = ex(S(par(g, a, P_MUL), " * ", par(g, s, P_UNARY)), t, P_MUL, iv_mul(s.iv, a.iv),
				       a.dep | s.dep);
			break;
		}
		case 5:
			a = gen_v(g, n, d - 1);
			COV(g, expr_vec_neg);
			e = ex(S("-", par(g, a, P_UNARY)), t, P_UNARY, iv_neg(a.iv), a.dep);
			break;
		case 6: {
			Expr m = gen_m(g, n, d - 1);
			a = gen_v(g, n, d - 1);
			NOT_BOTH_CTOR(m, a, gen_v(g, n, d - 1));
			if (ex_is_ctor(m) && ex_is_ctor(a)) {
				e = a;
				break;
			}
			COV(g, expr_mat_vec);
			e = ex(S(par(g, m, P_MUL), " * ", par(g, a, P_UNARY)), t, P_MUL,
			       iv_sym(n * iv_mag(m.iv) * iv_mag(a.iv)), a.dep | m.dep);
			break;
		}
		case 7: {
			a = gen_v(g, n, d - 1);
			for (int t_ = 0; t_ < 3 && ex_is_ctor(a);
			     t_++) /* not wp.vec3(x, y, z) + wp.vec3(0.0, 2.0, 0.0) */
				a = gen_v(g, n, d - 1);
			double c = floor(iv_mag(a.iv)) + 1.0;
			int k = rnd(g, n);
			const char *s = S("wp.vec", ilit(g, n), "(");
			for (int j = 0; j < n; j++)
				s = APP(s, j ? ", " : "", j == k ? flit(g, c) : "0.0");
			COV(g, expr_vec_ctor);
			COV(g, expr_vec_add);
			COVB(g, NORMALIZE);
			e = ex(S("wp.normalize(", a.s, " + ", s, "))"), t, P_ATOM, iv_mk(-1, 1), a.dep);
			break;
		}
		case 8:
			if (n == 3) {
				a = gen_v(g, n, d - 1);
				if (!ex_second_vm(g, a, d - 1, &b)) {
					e = a;
					break;
				}
				COVB(g, CROSS);
				e = ex(S("wp.cross(", a.s, ", ", b.s, ")"), t, P_ATOM,
				       iv_sym(2 * iv_mag(a.iv) * iv_mag(b.iv)), a.dep | b.dep);
				break;
			}
			/* fall through */
		case 9:
			a = gen_v(g, n, d - 1);
			switch (rnd(g, 3)) {
			case 0:
				if (abs_call(a.s)) {
					e = a;
					break;
				}
				COVB(g, ABS_V);
				e = ex(S("wp.abs(", a.s, ")"), t, P_ATOM, iv_mk(0, iv_mag(a.iv)), a.dep);
				break;
			case 1:
				if (!ex_second_vm(g, a, d - 1, &b)) {
					e = a;
					break;
				}
				COVB(g, MIN_V);
				e = ex(S("wp.min(", a.s, ", ", b.s, ")"), t, P_ATOM,
				       iv_mk(fmin(a.iv.lo, b.iv.lo), fmin(a.iv.hi, b.iv.hi)), a.dep | b.dep);
				break;
			default:
				if (!ex_second_vm(g, a, d - 1, &b)) {
					e = a;
					break;
				}
				COVB(g, MAX_V);
				e = ex(S("wp.max(", a.s, ", ", b.s, ")"), t, P_ATOM,
				       iv_mk(fmax(a.iv.lo, b.iv.lo), fmax(a.iv.hi, b.iv.hi)), a.dep | b.dep);
				break;
			}
			break;
		case 10:
			e = vec_ctor(g, n, d);
			break;
		default:
			e = leaf_v(g, n, d);
			break;
		}
	if (iv_mag(e.iv) > LIM)
		e = squash(g, e, LIM / 4);
	return ex_no_const(g, e, d);
}
