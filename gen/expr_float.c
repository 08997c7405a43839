/*
 * expr_float.c: float expressions (gen_f): leaves, arithmetic, the
 * scalar math builtins, min and max, `x if c else y`, float(int), what
 * vectors and matrices yield (dot products, lengths, components,
 * determinants, entries), and calls of the kernel's @wp.func helpers
 * (call_helper, which the statements use too).
 *
 * Every builtin's argument is kept in its domain (sqrt, log, pow, asin,
 * exp ... by the rules at the top of gen/expr.c), and every result
 * within LIM.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gen/expr.h"

Expr ex_leaf_f(G *g, int d)
{
	for (int t = 0; t < 6; t++) {
		switch (rnd(g, 10)) {
		case 0:
		case 1:
		case 2:
		case 3: {
			Var *v = pick_var(g, T_F, 0, 1);
			if (v)
				return ex_var(v);
			break;
		}
		case 4:
		case 5: {
			Var *a = pick_arr(g, T_F, -1);
			if (a)
				return read_arr(g, a, d);
			break;
		}
		case 6: {
			Var *v = NULL;
			for (int n = 2; n <= 4 && !v; n++)
				v = pick_var(g, VEC_OF(2 + rnd(g, 3)), 0, 1);
			if (!v)
				break;
			int k = rnd(g, TY_N(v->ty));
			if (chance(g, 50)) {
				static const char *const comp[] = {".x", ".y", ".z", ".w"};
				COV(g, expr_vec_attr);
				return ex(S(v->name, comp[k]), T_F, P_ATOM, v->iv, v->dep);
			}
			COV(g, expr_vec_index);
			return ex(S(v->name, "[", ilit(g, k), "]"), T_F, P_ATOM, v->iv, v->dep);
		}
		case 7: {
			Var *v = pick_var(g, MAT_OF(2 + rnd(g, 3)), 0, 1);
			if (!v)
				break;
			int n = TY_N(v->ty);
			COV(g, expr_mat_elem);
			int col = rnd(g, n), row = rnd(g, n); /* drawn in turn, not as two arguments */
			return ex(S(v->name, "[", ilit(g, row), ", ", ilit(g, col), "]"), T_F, P_ATOM, v->iv,
				  v->dep);
		}
		case 8: {
			Var *v = pick_var(g, T_I, 0, 1);
			if (!v || iv_mag(v->iv) > 1e6)
				break;
			COV(g, expr_conv_float);
			return ex(S(chance(g, 10) ? "wp.float32(" : "float(", v->name, ")"), T_F, P_ATOM, v->iv,
				  v->dep);
		}
		default:
			return lit_f(g);
		}
	}
	Var *a = pick_arr(g, T_F, -1);
	if (a)
		return read_arr(g, a, d);
	return lit_f(g);
}

/* The argument of a quantizer (floor, ceil, round, sign...): scaled so
 * that its range spans a few integers (the cell of a position is
 * wp.floor(8.0 * x)), or for a sign shifted to straddle 0 (wp.sign(x -
 * 0.3)); else the result is one value for every thread and seed. */
Expr ex_spread(G *g, Expr a, int sign)
{
	if (sign) {
		if (a.iv.lo < 0 && a.iv.hi > 0)
			return a;
		const char *t = ex_thresh_in(g, a.iv);
		double c = atof(t);
		COV(g, expr_sub);
		return ex(S(par(g, a, P_ADD), " - ", t), T_F, P_ADD, iv_mk(a.iv.lo - c, a.iv.hi - c), a.dep);
	}
	double w = a.iv.hi - a.iv.lo;
	if (w >= 4.0 || w <= 0.0)
		return a;
	static const char *const k[] = {"2.0", "4.0", "8.0", "16.0"};
	static const double kv[] = {2, 4, 8, 16};
	int j = 0;
	while (j < 3 && w * kv[j] < 4.0)
		j++;
	COV(g, expr_mul);
	return ex(S(k[j], " * ", par(g, a, P_MUL)), T_F, P_MUL, iv_mk(a.iv.lo * kv[j], a.iv.hi * kv[j]), a.dep);
}

static Expr math1(G *g, Expr a)
{
	const char *s = a.s;
	Iv v = a.iv;
	switch (rnd(g, 17)) {
	case 0:
		COVB(g, SIN);
		return ex(S("wp.sin(", s, ")"), T_F, P_ATOM, iv_mk(-1, 1), a.dep);
	case 1:
		COVB(g, COS);
		return ex(S("wp.cos(", s, ")"), T_F, P_ATOM, iv_mk(-1, 1), a.dep);
	case 2:
		a = squash(g, a, 1.2);
		COVB(g, TAN);
		return ex(S("wp.tan(", a.s, ")"), T_F, P_ATOM, iv_mk(tan(a.iv.lo), tan(a.iv.hi)), a.dep);
	case 3:
		a = squash(g, a, 0.9);
		COVB(g, ASIN);
		return ex(S("wp.asin(", a.s, ")"), T_F, P_ATOM, iv_mk(asin(a.iv.lo), asin(a.iv.hi)), a.dep);
	case 4:
		a = squash(g, a, 0.9);
		COVB(g, ACOS);
		return ex(S("wp.acos(", a.s, ")"), T_F, P_ATOM, iv_mk(acos(a.iv.hi), acos(a.iv.lo)), a.dep);
	case 5:
		COVB(g, ATAN);
		return ex(S("wp.atan(", s, ")"), T_F, P_ATOM, iv_mk(atan(v.lo), atan(v.hi)), a.dep);
	case 6:
		a = squash(g, a, 3.0);
		COVB(g, SINH);
		return ex(S("wp.sinh(", a.s, ")"), T_F, P_ATOM, iv_mk(sinh(a.iv.lo), sinh(a.iv.hi)), a.dep);
	case 7:
		a = squash(g, a, 3.0);
		COVB(g, COSH);
		return ex(S("wp.cosh(", a.s, ")"), T_F, P_ATOM, iv_mk(1.0, cosh(iv_mag(a.iv))), a.dep);
	case 8:
		a = tanh_arg(g, a);
		COVB(g, TANH);
		return ex(S("wp.tanh(", a.s, ")"), T_F, P_ATOM, iv_mk(tanh(a.iv.lo), tanh(a.iv.hi)), a.dep);
	case 9:
		a = squash(g, a, 4.0);
		COVB(g, EXP);
		return ex(S("wp.exp(", a.s, ")"), T_F, P_ATOM, iv_mk(exp(a.iv.lo), exp(a.iv.hi)), a.dep);
	case 10: {
		a = ex_positive(g, a, 0.5);
		int k = rnd(g, 3);
		if (k == 0) {
			COVB(g, LOG);
			return ex(S("wp.log(", a.s, ")"), T_F, P_ATOM, iv_mk(log(a.iv.lo), log(a.iv.hi)), a.dep);
		} else if (k == 1) {
			COVB(g, LOG2);
			return ex(S("wp.log2(", a.s, ")"), T_F, P_ATOM, iv_mk(log2(a.iv.lo), log2(a.iv.hi)), a.dep);
		}
		COVB(g, LOG10);
		return ex(S("wp.log10(", a.s, ")"), T_F, P_ATOM, iv_mk(log10(a.iv.lo), log10(a.iv.hi)), a.dep);
	}
	case 11:
		a = ex_positive(g, a, 0.25);
		COVB(g, SQRT);
		return ex(S("wp.sqrt(", a.s, ")"), T_F, P_ATOM, iv_mk(sqrt(a.iv.lo), sqrt(a.iv.hi)), a.dep);
	case 12: {
		a = ex_positive(g, a, 0.5);
		a = squash(g, a, 8.0);
		if (a.iv.lo < 0.5) /* squashing a positive value keeps it >= 0.5 only if scaled; redo */
			a = ex_positive(g, squash(g, a, 4.0), 0.5);
		static const char *const et[] = {"2.0", "0.5", "1.5", "3.0", "-1.0", "0.25"};
		static const double ev[] = {2.0, 0.5, 1.5, 3.0, -1.0, 0.25};
		int k = rnd(g, 6);
		double b0 = a.iv.lo, b1 = a.iv.hi, e = ev[k];
		double p0 = pow(b0, e), p1 = pow(b1, e);
		COVB(g, POW);
		return ex(S("wp.pow(", a.s, ", ", et[k], ")"), T_F, P_ATOM, iv_mk(fmin(p0, p1), fmax(p0, p1)),
			  a.dep);
	}
	case 13:
		a = ex_spread(g, a, 0);
		COVB(g, FLOOR);
		return ex(S("wp.floor(", a.s, ")"), T_F, P_ATOM, iv_mk(floor(a.iv.lo), floor(a.iv.hi)), a.dep);
	case 14:
		a = ex_spread(g, a, 0);
		COVB(g, CEIL);
		return ex(S("wp.ceil(", a.s, ")"), T_F, P_ATOM, iv_mk(ceil(a.iv.lo), ceil(a.iv.hi)), a.dep);
	case 15:
		if (abs_call(s))
			return ex(s, T_F, P_ATOM, v, a.dep);
		COVB(g, ABS_F);
		return ex(S("wp.abs(", s, ")"), T_F, P_ATOM,
			  iv_mk(v.lo > 0   ? v.lo
				: v.hi < 0 ? -v.hi
					   : 0,
				iv_mag(v)),
			  a.dep);
	default:
		a = ex_spread(g, a, 1);
		COVB(g, SIGN_F);
		return ex(S("wp.sign(", a.s, ")"), T_F, P_ATOM, iv_mk(-1, 1), a.dep);
	}
}

static Expr minmax_f(G *g, int d)
{
	Expr a = gen_f(g, d - 1);
	for (int t = 0; t < 3 && !a.dep; t++) /* not wp.abs(4.0) */
		a = gen_f(g, d - 1);
	if (!named_ex(a))
		a = ex_dep_f(g, d - 1);
	switch (rnd(g, 4)) {
	case 0: {
		Expr b = gen_f(g, d - 1);
		REDRAW(a, b, gen_f(g, d - 1));
		while (SAME(a, b))
			b = lit_f(g);
		COVB(g, MIN_F);
		return ex(S("wp.min(", a.s, ", ", b.s, ")"), T_F, P_ATOM,
			  iv_mk(fmin(a.iv.lo, b.iv.lo), fmin(a.iv.hi, b.iv.hi)), a.dep | b.dep);
	}
	case 1: {
		Expr b = gen_f(g, d - 1);
		REDRAW(a, b, gen_f(g, d - 1));
		while (SAME(a, b))
			b = lit_f(g);
		COVB(g, MAX_F);
		return ex(S("wp.max(", a.s, ", ", b.s, ")"), T_F, P_ATOM,
			  iv_mk(fmax(a.iv.lo, b.iv.lo), fmax(a.iv.hi, b.iv.hi)), a.dep | b.dep);
	}
	case 2: {
		static const char *const lo[] = {"-0.5", "0.0", "-1.0", "-0.25"};
		static const char *const hi[] = {"0.5", "1.0", "2.0", "0.75"};
		static const double lov[] = {-0.5, 0.0, -1.0, -0.25}, hiv[] = {0.5, 1.0, 2.0, 0.75};
		int k = rnd(g, 4), m = rnd(g, 4);
		COVB(g, CLAMP_F);
		return ex(S("wp.clamp(", a.s, ", ", lo[k], ", ", hi[m], ")"), T_F, P_ATOM,
			  iv_mk(fmin(fmax(a.iv.lo, lov[k]), hiv[m]), fmax(fmin(a.iv.hi, hiv[m]), lov[k])), a.dep);
	}
	default:
		if (abs_needless(a))
			return a;
		COVB(g, ABS_F);
		return ex(S("wp.abs(", a.s, ")"), T_F, P_ATOM, iv_mk(0, iv_mag(a.iv)), a.dep);
	}
}

static Expr arith_f(G *g, int d)
{
	Expr a = gen_f(g, d - 1);
	int op = rnd(g, 20);
	if (op < 6) {
		Expr b = gen_f(g, d - 1);
		REDRAW(a, b, gen_f(g, d - 1));
		while (SAME(a, b))
			b = lit_f(g);
		COV(g, expr_add);
		return ex(S(par(g, a, P_ADD), " + ", par(g, b, P_MUL)), T_F, P_ADD, iv_add(a.iv, b.iv),
			  a.dep | b.dep);
	}
	if (op < 10) {
		Expr b = gen_f(g, d - 1);
		REDRAW(a, b, gen_f(g, d - 1));
		while (SAME(a, b))
			b = lit_f(g);
		COV(g, expr_sub);
		return ex(S(par(g, a, P_ADD), " - ", par(g, b, P_MUL)), T_F, P_ADD, iv_sub(a.iv, b.iv),
			  a.dep | b.dep);
	}
	if (op < 15) {
		Expr b = gen_f(g, d - 1);
		if (iv_mag(iv_mul(a.iv, b.iv)) > LIM)
			b = squash(g, b, LIM / fmax(iv_mag(a.iv), 1.0));
		COV(g, expr_mul);
		return ex(S(par(g, a, P_MUL), " * ", par(g, b, P_UNARY)), T_F, P_MUL, iv_mul(a.iv, b.iv),
			  a.dep | b.dep);
	}
	if (op < 18) {
		Expr b = safe_div(g, gen_f(g, d - 1));
		REDRAW(a, b, safe_div(g, gen_f(g, d - 1)));
		while (SAME(a, b))
			b = lit_f(g);
		double lo = fmin(fabs(b.iv.lo), fabs(b.iv.hi));
		Iv r = iv_sym(iv_mag(a.iv) / lo);
		COV(g, expr_div);
		return ex(S(par(g, a, P_MUL), " / ", par(g, b, P_UNARY)), T_F, P_MUL, r, a.dep | b.dep);
	}
	if (op == 18) {
		COV(g, expr_neg);
		return ex(S("-", par(g, a, P_UNARY)), T_F, P_UNARY, iv_neg(a.iv), a.dep);
	}
	/* float % (floats never take //, which reads as an int idiom) */
	Expr b = safe_div(g, gen_f(g, d - 1));
	REDRAW(a, b, safe_div(g, gen_f(g, d - 1)));
	while (SAME(a, b))
		b = lit_f(g);
	double hi = iv_mag(b.iv);
	COV(g, expr_mod);
	return ex(S(par(g, a, P_MUL), " % ", par(g, b, P_UNARY)), T_F, P_MUL, iv_sym(hi), a.dep | b.dep);
}

static Expr call_f(G *g, int d);

Expr gen_f(G *g, int d)
{
	Expr e;
	if (d <= 0 || g->sp > sizeof g->scratch / 2)
		return ex_leaf_f(g, d);
	if (chance(g, g->rng[0] ? 2 * LIB_PCT : LIB_PCT))
		e = lib_f(g, d);
	else
		switch (wpick(g, g->p->ex, NEX)) {
		case EX_LEAF:
			e = ex_leaf_f(g, d);
			break;
		case EX_ARITH:
			e = arith_f(g, d);
			break;
		case EX_MATH: {
			Expr arg = gen_f(g, d - 1);
			for (int t = 0; t < 3 && !arg.dep; t++)
				arg = gen_f(g, d - 1);
			if (!named_ex(arg))
				arg = ex_dep_f(g, d - 1);
			e = math1(g, arg);
			if (chance(g, 10)) {
				Expr y = gen_f(g, d - 1), x = safe_div(g, gen_f(g, d - 1));
				if (!named_ex(y) && !named_ex(x))
					y = ex_dep_f(g, d - 1);
				if (x.iv.lo < 0) {
					COV(g, expr_neg);
					x = ex(S("-", par(g, x, P_UNARY)), T_F, P_UNARY, iv_neg(x.iv), x.dep);
				}
				COVB(g, ATAN2);
				e = ex(S("wp.atan2(", y.s, ", ", x.s, ")"), T_F, P_ATOM,
				       iv_mk(-1.5707963267948966, 1.5707963267948966), y.dep | x.dep | e.dep);
			}
			break;
		}
		case EX_VEC: {
			int n = chance(g, 60) ? g->vecn : 2 + rnd(g, 3);
			Expr u = gen_v(g, n, d - 1);
			/* not wp.length_sq(wp.vec3(s)): n s^2 written the long way */
			for (int t = 0; t < 3 && ex_is_splat(u); t++)
				u = gen_v(g, n, d - 1);
			int r = ex_is_splat(u) ? 0 : rnd(g, 4);
			if (r == 3 && ex_is_ctor(u)) /* not wp.vec3(a, b, c)[1] */
				r = rnd(g, 3);
			/* not wp.length(wp.normalize(v)): 1 up to rounding, which
			 * float and double round to either side of a later floor */
			if ((r == 1 || r == 2) && !strncmp(u.s, "wp.normalize(", 13))
				r = 3;
			switch (r) {
			case 0: {
				Expr w = gen_v(g, n, d - 1);
				NOT_BOTH_CTOR(u, w, gen_v(g, n, d - 1));
				if (ex_is_ctor(u) && ex_is_ctor(w)) {
					COVB(g, LENGTH);
					e = ex(S("wp.length(", u.s, ")"), T_F, P_ATOM,
					       iv_mk(0, sqrt(n) * iv_mag(u.iv)), u.dep);
					break;
				}
				COVB(g, DOT);
				e = ex(S("wp.dot(", u.s, ", ", w.s, ")"), T_F, P_ATOM,
				       iv_sym(n * iv_mag(u.iv) * iv_mag(w.iv)), u.dep | w.dep);
				break;
			}
			case 1:
				COVB(g, LENGTH);
				e = ex(S("wp.length(", u.s, ")"), T_F, P_ATOM, iv_mk(0, sqrt(n) * iv_mag(u.iv)),
				       u.dep);
				break;
			case 2:
				COVB(g, LENGTH_SQ);
				e = ex(S("wp.length_sq(", u.s, ")"), T_F, P_ATOM,
				       iv_mk(0, n * iv_mag(u.iv) * iv_mag(u.iv)), u.dep);
				break;
			default: {
				int k = rnd(g, n);
				if (u.prec == P_ATOM && chance(g, 50)) {
					static const char *const comp[] = {".x", ".y", ".z", ".w"};
					COV(g, expr_vec_attr);
					e = ex(S(u.s, comp[k]), T_F, P_ATOM, u.iv, u.dep);
				} else {
					COV(g, expr_vec_index);
					e = ex(S(par(g, u, P_ATOM), "[", ilit(g, k), "]"), T_F, P_ATOM, u.iv,
					       u.dep);
				}
			}
			}
			break;
		}
		case EX_MAT: {
			int n = 2 + rnd(g, 3);
			Expr m = gen_m(g, n, d - 1);
			if (chance(g, 50) || ex_is_ctor(m)) {
				e = ex_det_f(g, n, m, d - 1);
			} else {
				COV(g, expr_mat_elem);
				int col = rnd(g, n), row = rnd(g, n); /* drawn in turn, not as two arguments */
				e = ex(S(par(g, m, P_ATOM), "[", ilit(g, row), ", ", ilit(g, col), "]"), T_F,
				       P_ATOM, m.iv, m.dep);
			}
			break;
		}
		case EX_TERN: {
			Expr c = gen_b(g, d - 1);
			g->no_draw++;
			Expr a = gen_f(g, d - 1), b = gen_f(g, d - 1);
			REDRAW(a, b, gen_f(g, d - 1));
			g->no_draw--;
			while (SAME(a, b))
				b = lit_f(g);
			COV(g, expr_ifexp);
			e = ex(S(par(g, a, P_OR), " if ", par(g, c, P_OR), " else ", par(g, b, P_IFEXP)), T_F,
			       P_IFEXP, iv_hull(a.iv, b.iv), a.dep | b.dep | c.dep);
			break;
		}
		case EX_CALL:
			e = call_f(g, d);
			break;
		case EX_MINMAX:
			e = minmax_f(g, d);
			break;
		default: {
			Expr k = gen_i(g, d - 1);
			if (!named_ex(k)) /* not float(3) */
				k = ex_dep_i(g, d - 1);
			k = squash_int(g, k, 1000);
			COV(g, expr_conv_float);
			e = ex(S("float(", k.s, ")"), T_F, P_ATOM, k.iv, k.dep);
			break;
		}
		}
	if (iv_mag(e.iv) > LIM)
		e = squash(g, e, LIM / 4);
	return ex_no_const(g, e, d);
}

/* A call of a helper returning one float, with its arguments squashed
 * into the intervals the helper was written for. */
static Expr call_arg(G *g, Helper *h, int k, int d)
{
	int t = h->pty[k];
	if (h->parr[k]) {
		g->want_add = 1;
		Var *a = pick_arr(g, t, h->prole[k]);
		g->want_add = 0;
		if (a && a->role == R_ACC)
			a->afam = 1;
		return ex(a ? a->name : "?", t, P_ATOM, iv_mk(0, 0), 1);
	}
	if (h->pcount[k])
		return ex(g->v[g->nvar].name, T_I, P_ATOM, iv_mk(1, NMAX), 0);
	if (h->pidx[k])
		return gen_idx(g, d);
	if (t == T_I)
		return squash_int(g, gen_i(g, d), (int)h->piv[k].hi);
	Expr e = gen_ty(g, t, d);
	return squash(g, e, h->piv[k].hi);
}

Expr call_helper(G *g, Helper *h, int d, Iv *riv, int *dep)
{
	const char *s = S(h->name, "(");
	int dp = 0;
	for (int k = 0; k < h->np; k++) {
		Expr a = call_arg(g, h, k, d - 1);
		dp |= a.dep;
		s = APP(s, k ? ", " : "", a.s);
	}
	s = APP(s, ")");
	if (riv)
		*riv = h->riv[0];
	if (dep)
		*dep = dp;
	COV(g, expr_call_func);
	Expr e = ex(s, h->rty[0], P_ATOM, h->riv[0], dp);
	e.idx = h->ridx[0];
	return e;
}

/* Can helper H be called here (its arrays and n exist)? */
int helper_ok(G *g, Helper *h)
{
	for (int k = 0; k < h->np; k++) {
		if (h->parr[k]) {
			g->want_add = 1;
			Var *a = pick_arr(g, h->pty[k], h->prole[k]);
			g->want_add = 0;
			if (!a)
				return 0;
		}
		if ((h->pcount[k] || h->pidx[k]) && g->nvar < 0)
			return 0;
	}
	return 1;
}

static Expr call_f(G *g, int d)
{
	int c[MAXH], n = 0;
	for (int k = 0; k < g->nh; k++)
		if (g->h[k].nret == 1 && g->h[k].rty[0] == T_F && helper_ok(g, &g->h[k]))
			c[n++] = k;
	if (!n)
		return arith_f(g, d);
	return call_helper(g, &g->h[c[rnd(g, n)]], d, NULL, NULL);
}
