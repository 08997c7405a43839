/*
 * expr_int.c: int expressions (gen_i) and indices (gen_idx).
 *
 * An int stays below 2^30 in size and a divisor at least 1; an index is
 * i, an int array element, or a form that stays in [0, n), n the length
 * of every array: a modulus by n, a clamp, n - 1 - j, a floor division.
 */
#include <math.h>
#include <string.h>

#include "gen/expr.h"

Expr ex_leaf_i(G *g, int d)
{
	switch (rnd(g, 8)) {
	case 0:
	case 1: {
		Var *v = pick_var(g, T_I, 0, 1);
		if (v)
			return ex_var(v);
		break;
	}
	case 2: {
		Var *a = pick_arr(g, T_I, -1);
		if (a)
			return read_arr(g, a, d);
		break;
	}
	case 3:
		if (nvar(g))
			return ex_var(nvar(g));
		break;
	case 4: {
		Expr f = gen_f(g, d - 1);
		if (!named_ex(f)) /* not int(0.5 * 4.0) */
			f = ex_dep_f(g, d - 1);
		f = squash(g, f, 100.0);
		static const char *const k[] = {"4.0", "8.0", "10.0", "3.0", "16.0"};
		static const double kv[] = {4, 8, 10, 3, 16};
		int j = rnd(g, 5);
		COV(g, expr_conv_int);
		COV(g, expr_mul);
		Expr e = ex(S(chance(g, 10) ? "wp.int32(" : "int(", par(g, f, P_MUL), " * ", k[j], ")"), T_I,
			    P_ATOM, iv_mk(trunc(f.iv.lo * kv[j]), trunc(f.iv.hi * kv[j])), f.dep);
		return e;
	}
	case 5: {
		int k = 1 + rnd(g, 9);
		return ex(ilit(g, k), T_I, P_ATOM, iv_mk(k, k), 0);
	}
	default:
		break;
	}
	if (g->in_func) {
		Var *v = pick_var(g, T_I, 0, 1);
		if (v)
			return ex_var(v);
		return ex("1", T_I, P_ATOM, iv_mk(1, 1), 0);
	}
	Expr e = ex("i", T_I, P_ATOM, iv_mk(0, NMAX - 1), DEP_THREAD | DEP_N);
	e.idx = 1;
	return e;
}

Expr ex_int_div(G *g, Expr b)
{
	if (b.iv.lo >= 1)
		return b;
	if (!named_ex(b)) { /* not wp.abs(-1) % 7 + 1 */
		int k = 2 + rnd(g, 6);
		return ex(ilit(g, k), T_I, P_ATOM, iv_mk(k, k), 0);
	}
	if (b.iv.lo >= 0 && chance(g, 50)) {
		COV(g, expr_int_add);
		return ex(S(par(g, b, P_ADD), " + 1"), T_I, P_ADD, iv_mk(b.iv.lo + 1, b.iv.hi + 1), b.dep);
	}
	int k = 2 + rnd(g, 6);
	COV(g, expr_int_mod);
	COV(g, expr_int_add);
	if (abs_needless(b))
		return ex(S(par(g, b, P_MUL), " % ", ilit(g, k), " + 1"), T_I, P_ADD, iv_mk(1, k), b.dep);
	COVB(g, ABS_I);
	return ex(S("wp.abs(", b.s, ") % ", ilit(g, k), " + 1"), T_I, P_ADD, iv_mk(1, k), b.dep);
}

Expr gen_i(G *g, int d)
{
	if (d <= 0)
		return ex_leaf_i(g, d);
	if (chance(g, g->rng[0] ? 2 * LIB_PCT : LIB_PCT)) {
		Expr l = lib_i(g, d);
		return iv_mag(l.iv) >= ILIM ? ex_dep_i(g, 0) : l;
	}
	Expr a = gen_i(g, d - 1), b, e;
	switch (rnd(g, 12)) {
	case 0:
	case 1:
		b = gen_i(g, d - 1);
		REDRAW(a, b, gen_i(g, d - 1));
		while (SAME(a, b)) {
			int k_ = 1 + rnd(g, 9);
			b = ex(ilit(g, k_), T_I, P_ATOM, iv_mk(k_, k_), 0);
		}
		COV(g, expr_int_add);
		e = ex(S(par(g, a, P_ADD), " + ", par(g, b, P_MUL)), T_I, P_ADD, iv_add(a.iv, b.iv), a.dep | b.dep);
		break;
	case 2:
		b = gen_i(g, d - 1);
		REDRAW(a, b, gen_i(g, d - 1));
		while (SAME(a, b)) {
			int k_ = 1 + rnd(g, 9);
			b = ex(ilit(g, k_), T_I, P_ATOM, iv_mk(k_, k_), 0);
		}
		COV(g, expr_int_sub);
		e = ex(S(par(g, a, P_ADD), " - ", par(g, b, P_MUL)), T_I, P_ADD, iv_sub(a.iv, b.iv), a.dep | b.dep);
		break;
	case 3: {
		int k = 2 + rnd(g, 4);
		b = ex(ilit(g, k), T_I, P_ATOM, iv_mk(k, k), 0);
		if (chance(g, 40)) {
			Expr c = gen_i(g, d - 1);
			if (iv_mag(c.iv) <= 1000 && iv_mag(a.iv) <= 1000)
				b = c;
		}
		COV(g, expr_int_mul);
		e = ex(S(par(g, a, P_MUL), " * ", par(g, b, P_UNARY)), T_I, P_MUL, iv_mul(a.iv, b.iv),
		       a.dep | b.dep);
		break;
	}
	case 4:
	case 5:
	case 6: {
		/* compared before the guard: i % (i + 1) is i */
		b = gen_i(g, d - 1);
		REDRAW(a, b, gen_i(g, d - 1));
		if (SAME(a, b)) {
			int k_ = 2 + rnd(g, 6);
			b = ex(ilit(g, k_), T_I, P_ATOM, iv_mk(k_, k_), 0);
		}
		b = ex_int_div(g, b);
		double m = iv_mag(a.iv);
		int k = rnd(g, 3);
		if (k == 2 && a.prec == P_MUL && strstr(a.s, " % ")) /* not i % n % (n + 1) */
			k = rnd(g, 2);
		const char *op = k == 0 ? " // " : k == 1 ? " / " : " % ";
		if (k == 0)
			COV(g, expr_int_floordiv);
		else if (k == 1)
			COV(g, expr_int_div);
		else
			COV(g, expr_int_mod);
		Iv r = k < 2 ? iv_sym(m) : iv_mk(a.iv.lo >= 0 ? 0 : -b.iv.hi, a.iv.hi <= 0 ? 0 : b.iv.hi);
		if (k < 2 && a.iv.lo >= 0)
			r.lo = 0;
		e = ex(S(par(g, a, P_MUL), op, par(g, b, P_UNARY)), T_I, P_MUL, r, a.dep | b.dep);
		break;
	}
	case 7:
		COV(g, expr_neg);
		e = ex(S("-", par(g, a, P_UNARY)), T_I, P_UNARY, iv_neg(a.iv), a.dep);
		break;
	case 8:
		if (!a.dep || abs_needless(a)) { /* not wp.abs(9), wp.abs(i) */
			e = a;
			break;
		}
		COVB(g, ABS_I);
		e = ex(S("wp.abs(", a.s, ")"), T_I, P_ATOM, iv_mk(0, iv_mag(a.iv)), a.dep);
		break;
	case 9:
		if (!a.dep) {
			e = a;
			break;
		}
		COVB(g, SIGN_I);
		e = ex(S("wp.sign(", a.s, ")"), T_I, P_ATOM, iv_mk(-1, 1), a.dep);
		break;
	case 10:
		b = gen_i(g, d - 1);
		REDRAW(a, b, gen_i(g, d - 1));
		if (SAME(a, b)) {
			e = a;
			break;
		}
		if (chance(g, 50)) {
			COVB(g, MIN_I);
			e = ex(S("wp.min(", a.s, ", ", b.s, ")"), T_I, P_ATOM,
			       iv_mk(fmin(a.iv.lo, b.iv.lo), fmin(a.iv.hi, b.iv.hi)), a.dep | b.dep);
		} else {
			COVB(g, MAX_I);
			e = ex(S("wp.max(", a.s, ", ", b.s, ")"), T_I, P_ATOM,
			       iv_mk(fmax(a.iv.lo, b.iv.lo), fmax(a.iv.hi, b.iv.hi)), a.dep | b.dep);
		}
		break;
	default: {
		int lo = a.iv.lo >= 0 ? 0 : -rnd(g, 4), hi = 2 + rnd(g, 12);
		COVB(g, CLAMP_I);
		e = ex(S("wp.clamp(", a.s, ", ", ilit(g, lo), ", ", ilit(g, hi), ")"), T_I, P_ATOM,
		       iv_mk(fmin(fmax(a.iv.lo, lo), hi), fmax(fmin(a.iv.hi, hi), lo)), a.dep);
		break;
	}
	}
	if (iv_mag(e.iv) >= ILIM)
		return a; /* too large: the operand alone (already counted, still sound) */
	return ex_no_const(g, e, d);
}

/* An index in [0, n). */
Expr gen_idx(G *g, int d)
{
	Var *n = nvar(g);
	Expr e = ex("i", T_I, P_ATOM, iv_mk(0, NMAX - 1), DEP_THREAD | DEP_N);
	e.idx = 1;
	if (g->in_func) {
		Var *v = pick_var(g, T_I, 1, 1);
		if (!v)
			return ex("0", T_I, P_ATOM, iv_mk(0, 0), 0);
		e = ex_var(v);
	}
	int r = rnd(g, 100);
	if (d <= 0 || r < 35)
		return e;
	if (r < 50) {
		Var *v = pick_var(g, T_I, 1, 1);
		if (v)
			return ex_var(v);
		return e;
	}
	if (r < 62 || !n) {
		Var *a = pick_arr(g, T_I, R_IN);
		if (a) {
			Expr x = read_arr(g, a, d - 1);
			x.idx = 1;
			return x;
		}
		return e;
	}
	Expr a = gen_idx(g, d - 1);
	const char *ns = n->name;
	Expr out;
	switch (rnd(g, 10)) {
	case 0: {
		const char *k = ilit(g, 1 + rnd(g, 5));
		COV(g, expr_int_add);
		COV(g, expr_int_mod);
		out = ex(S("(", a.s, " + ", k, ") % ", ns), T_I, P_MUL, iv_mk(0, NMAX - 1), a.dep);
		break;
	}
	case 1:
		COV(g, expr_int_sub);
		out = ex(S(ns, " - 1 - ", par(g, a, P_MUL)), T_I, P_ADD, iv_mk(0, NMAX - 1), a.dep);
		break;
	case 2:
		COVB(g, MIN_I);
		COV(g, expr_int_add);
		out = ex(S("wp.min(", a.s, " + ", ilit(g, 1 + rnd(g, 3)), ", ", ns, " - 1)"), T_I, P_ATOM,
			 iv_mk(0, NMAX - 1), a.dep);
		break;
	case 3:
		COVB(g, MAX_I);
		COV(g, expr_int_sub);
		out = ex(S("wp.max(", a.s, " - ", ilit(g, 1 + rnd(g, 3)), ", 0)"), T_I, P_ATOM, iv_mk(0, NMAX - 1),
			 a.dep);
		break;
	case 4: {
		Expr b = gen_i(g, d - 1);
		COVB(g, CLAMP_I);
		out = ex(S("wp.clamp(", b.s, ", 0, ", ns, " - 1)"), T_I, P_ATOM, iv_mk(0, NMAX - 1), b.dep);
		break;
	}
	case 5:
		COV(g, expr_int_floordiv);
		out = ex(S(par(g, a, P_MUL), " // 2"), T_I, P_MUL, iv_mk(0, NMAX / 2), a.dep);
		break;
	case 6: {
		Expr f = gen_f(g, d - 1);
		if (!named_ex(f))
			f = ex_dep_f(g, d - 1);
		f = squash(g, f, 8.0);
		COV(g, expr_conv_int);
		COV(g, expr_int_mod);
		COV(g, expr_mul);
		out = ex(S("int(", abs_text(g, f.s, GB_ABS_F), " * ",
			   PICK(g, ((const char *const[]){"4.0", "8.0", "16.0", "3.0"})), ") % ", ns),
			 T_I, P_MUL, iv_mk(0, NMAX - 1), f.dep);
		break;
	}
	case 7: {
		Expr b = gen_idx(g, d - 1);
		REDRAW(a, b, gen_idx(g, d - 1));
		if (SAME(a, b))
			return a;
		COV(g, expr_int_add);
		COV(g, expr_int_mod);
		out = ex(S("(", a.s, " + ", b.s, ") % ", ns), T_I, P_MUL, iv_mk(0, NMAX - 1), a.dep | b.dep);
		break;
	}
	case 8: {
		Expr b = gen_idx(g, d - 1);
		REDRAW(a, b, gen_idx(g, d - 1));
		if (SAME(a, b))
			return a;
		COVB(g, ABS_I);
		COV(g, expr_int_sub);
		out = ex(S("wp.abs(", a.s, " - ", par(g, b, P_MUL), ")"), T_I, P_ATOM, iv_mk(0, NMAX - 1),
			 a.dep | b.dep);
		break;
	}
	default: {
		Expr b = gen_idx(g, d - 1);
		REDRAW(a, b, gen_idx(g, d - 1));
		if (SAME(a, b))
			return a;
		COV(g, expr_int_mod);
		COV(g, expr_int_add);
		out = ex(S(par(g, a, P_MUL), " % (", b.s, " + 1)"), T_I, P_MUL, iv_mk(0, NMAX - 1), a.dep | b.dep);
		break;
	}
	}
	out.idx = 1;
	return out;
}
