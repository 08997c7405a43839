/*
 * expr_bool.c: bool expressions (gen_b): comparisons of floats and
 * ints, and, or, not.
 *
 * A comparison sets a value that varies from thread to thread against a
 * threshold inside its range that no input equals, and the two tests of
 * an and/or name no value in common (such a pair is easily always or
 * never true), so that an `if` built on it goes both ways.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gen/expr.h"

/* A float fit for a comparison: varies from thread to thread, over a
 * range neither a point nor so wide (float(i), NMAX) that the launch
 * sees only its bottom. */
static int cmp_ok(Expr a)
{
	double w = a.iv.hi - a.iv.lo;
	return (a.dep & DEP_VARY) && !(a.dep & DEP_N) && w >= 0.1 && w <= 200;
}

/* An input element (or a parameter of a helper), squashed when wide. */
static Expr thread_f(G *g)
{
	Var *a = pick_arr(g, T_F, R_IN);
	if (a)
		return read_arr(g, a, 1);
	for (int t = 0; t < 8; t++) {
		Var *v = pick_var(g, T_F, 0, 1);
		if (v && (v->dep & DEP_VARY) && v->iv.hi - v->iv.lo >= 0.1) {
			Expr e = ex_var(v);
			return v->iv.hi - v->iv.lo > 200 ? squash(g, e, 2.0) : e;
		}
	}
	Var *o = pick_arr(g, T_F, -1);
	if (o)
		return read_arr(g, o, 1);
	Expr e = ex_dep_f(g, 0);
	if (e.iv.hi - e.iv.lo > 200)
		e = squash(g, e, 2.0);
	return e;
}

/* A threshold in the middle third of iv (values of sums and products
 * gather there): a round one of thresh()'s when
 * one fits, else two decimals, the last neither 0 nor 5 (never a
 * multiple of 2^-23: no input equals it). */
const char *ex_thresh_in(G *g, Iv iv)
{
	double w = iv.hi - iv.lo, lo = iv.lo + w / 3, hi = iv.hi - w / 3;
	for (int t = 0; t < 4; t++) {
		const char *c = thresh(g);
		double x = atof(c);
		if (x > lo && x < hi)
			return c;
	}
	double x = lo + (hi - lo) * (0.2 + 0.6 * rnd(g, 100) / 100.0);
	long k = (long)floor(x * 100.0 + 0.5);
	if (k % 5 == 0)
		k += k < (long)floor(hi * 100.0) ? 1 : -1;
	char b[32];
	snprintf(b, sizeof b, "%.2f", (double)k / 100.0);
	return S(b);
}

/* Does TEXT use the thread index i as a value (not only as the index
 * of an element, `x[i]`)? */
static int bare_i(const char *t)
{
	for (const char *p = t; (p = strchr(p, 'i')); p++)
		if ((p == t || !(isalnum((unsigned char)p[-1]) || p[-1] == '_' || p[-1] == '.' || p[-1] == '[')) &&
		    !isalnum((unsigned char)p[1]) && p[1] != '_' && p[1] != ']')
			return 1;
	return 0;
}

/* Do the texts A and B name a variable in common?  (`x < 0.2 or x >=
 * 0.1`, `k % 3 > 0 and k % 3 == 0`: an and/or of two tests of one value
 * is easily always or never true.)  The thread index i counts where it
 * is a value in both (`i % 2 != 0 or i % 2 == 0`), not where it only
 * picks the thread's element. */
static int shares_name(const char *a, const char *b)
{
	if (bare_i(a) && bare_i(b))
		return 1;
	static const char *const skip[] = {"wp", "float", "int", "not", "and", "or", "if", "else", "i"};
	for (const char *p = a; *p;) {
		if (!(isalpha((unsigned char)*p) || *p == '_') ||
		    (p > a && (isalnum((unsigned char)p[-1]) || p[-1] == '_' || p[-1] == '.'))) {
			p++;
			continue;
		}
		const char *e = p;
		while (isalnum((unsigned char)*e) || *e == '_')
			e++;
		size_t n = (size_t)(e - p);
		int kw = 0;
		for (size_t k = 0; k < KS_NELEM(skip); k++)
			kw |= strlen(skip[k]) == n && !strncmp(skip[k], p, n);
		for (const char *q = b; !kw && *q; q++) {
			if (strncmp(q, p, n) || isalnum((unsigned char)q[n]) || q[n] == '_')
				continue;
			if (q > b && (isalnum((unsigned char)q[-1]) || q[-1] == '_' || q[-1] == '.'))
				continue;
			return 1;
		}
		p = e;
	}
	return 0;
}
#define REDRAW_SHARED(a, b, gen)                                            \
	do {                                                                \
		for (int t_ = 0; t_ < 4 && shares_name((a).s, (b).s); t_++) \
			b = (gen);                                          \
	} while (0)

static const char *cmp_op(G *g, int eq_ok)
{
	int k = rnd(g, eq_ok ? 6 : 4);
	static const char *const op[] = {" < ", " > ", " <= ", " >= ", " == ", " != "};
	static const int c[] = {GC_expr_lt, GC_expr_gt, GC_expr_le, GC_expr_ge, GC_expr_eq, GC_expr_ne};
	g->cov->c[c[k]]++;
	return op[k];
}

Expr gen_b(G *g, int d)
{
	int r = rnd(g, 20);
	if (d > 0 && r < 3) {
		g->no_draw++;
		Expr a = gen_b(g, d - 1), b = gen_b(g, d - 1);
		REDRAW_SHARED(a, b, gen_b(g, d - 1));
		g->no_draw--;
		if (shares_name(a.s, b.s))
			return a;
		COV(g, expr_and);
		return ex(S(par(g, a, P_NOT), " and ", par(g, b, P_NOT)), T_B, P_AND, iv_mk(0, 1), a.dep | b.dep);
	}
	if (d > 0 && r < 5) {
		g->no_draw++;
		Expr a = gen_b(g, d - 1), b = gen_b(g, d - 1);
		REDRAW_SHARED(a, b, gen_b(g, d - 1));
		g->no_draw--;
		if (shares_name(a.s, b.s))
			return a;
		COV(g, expr_or);
		return ex(S(par(g, a, P_AND), " or ", par(g, b, P_AND)), T_B, P_OR, iv_mk(0, 1), a.dep | b.dep);
	}
	if (d > 0 && r < 6) {
		Expr a = gen_b(g, d - 1);
		COV(g, expr_not);
		return ex(S("not ", par(g, a, P_NOT)), T_B, P_NOT, iv_mk(0, 1), a.dep);
	}
	if (r < 7) {
		Var *v = pick_var(g, T_B, 0, 1);
		if (v && (v->dep & DEP_VARY))
			return ex_var(v);
	}
	if (r < 10) {
		/* an int that varies from thread to thread on the left: no
		 * comparison of constants, nor of a value every thread shares */
		Expr a = gen_i(g, d > 0 ? d - 1 : 0);
		for (int t = 0; t < 4 && !(a.dep & DEP_VARY); t++)
			a = gen_i(g, d > 0 ? d - 1 : 0);
		if (!(a.dep & DEP_VARY))
			a = ex_dep_i(g, 0);
		if (!(a.dep & DEP_VARY))
			goto float_cmp;
		Expr b = gen_i(g, d > 0 ? d - 1 : 0);
		REDRAW(a, b, gen_i(g, d > 0 ? d - 1 : 0));
		/* two values of one range ([0, n) both: indices), else x % k
		 * against 0: a value of another range, or n, would make the
		 * comparison the same for every thread */
		if (a.iv.lo >= 0 && (chance(g, 50) || SAME(a, b) || !a.idx || !b.idx || !(b.dep & DEP_VARY))) {
			/* x % k against 0: ==, != or > (>= 0 and < 0 are constant) */
			static const char *const op[] = {" == ", " != ", " > "};
			static const int c[] = {GC_expr_eq, GC_expr_ne, GC_expr_gt};
			int k = rnd(g, 3);
			g->cov->c[c[k]]++;
			COV(g, expr_int_mod);
			a = ex(S(par(g, a, P_MUL), " % ", ilit(g, 2 + rnd(g, 3))), T_I, P_MUL, iv_mk(0, 4), a.dep);
			return ex(S(a.s, op[k], "0"), T_B, P_CMP, iv_mk(0, 1), a.dep);
		}
		if (SAME(a, b) || !a.idx || !b.idx || !(b.dep & DEP_VARY))
			goto float_cmp;
		return ex(S(par(g, a, P_ADD), cmp_op(g, 1), par(g, b, P_ADD)), T_B, P_CMP, iv_mk(0, 1),
			  a.dep | b.dep);
	}
float_cmp:;
	/* a float that varies from thread to thread, against a threshold in
	 * the middle of its range or a value whose range overlaps it: both
	 * ways taken under the input law */
	Expr a = gen_f(g, d > 0 ? d - 1 : 0);
	for (int t = 0; t < 6 && !(cmp_ok(a)); t++)
		a = gen_f(g, d > 0 ? d - 1 : 0);
	if (!cmp_ok(a))
		a = thread_f(g);
	const char *b = ex_thresh_in(g, a.iv);
	if (chance(g, 40)) {
		Expr x = gen_f(g, d > 0 ? d - 1 : 0);
		REDRAW(a, x, gen_f(g, d > 0 ? d - 1 : 0));
		double lo = a.iv.lo > x.iv.lo ? a.iv.lo : x.iv.lo, hi = a.iv.hi < x.iv.hi ? a.iv.hi : x.iv.hi;
		double wa = a.iv.hi - a.iv.lo, wx = x.iv.hi - x.iv.lo;
		if (!SAME(a, x) && named_ex(x) && hi - lo > 0.5 * (wa < wx ? wa : wx))
			b = par(g, x, P_ADD);
	}
	return ex(S(par(g, a, P_ADD), cmp_op(g, 0), b), T_B, P_CMP, iv_mk(0, 1), a.dep);
}
