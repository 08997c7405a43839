/*
 * expr_guard.c: the domain guards and the squashes of the rules at the
 * top of gen/expr.c.
 *
 * A value that may grow past LIM is scaled by a round constant, clamped,
 * or squashed through tanh; an int past a bound is clamped; a divisor is
 * kept at least 0.5 in size and the argument of sqrt, log or pow above
 * its edge, each the way a person guards code: the operand itself when
 * its interval allows, else (1.0 + e * e), (c + wp.abs(e)), a literal in
 * range.  wp.abs is written only where it changes something.
 */
#include <math.h>
#include <string.h>

#include "gen/expr.h"

/* The float literals, in order of value, for a constant operand that a
 * guard would otherwise wrap (wp.sqrt(wp.abs(0.2) + 0.25)). */
/* clang-format off */
static const char *const lit_up[] = {"0.05", "0.1", "0.125", "0.2", "0.25", "0.3", "0.5", "0.6",
				     "0.75", "0.8", "0.9", "1.25", "1.5", "2.0", "3.0", "4.0"};
static const double lit_upv[] = {0.05, 0.1, 0.125, 0.2, 0.25, 0.3, 0.5, 0.6,
				 0.75, 0.8, 0.9, 1.25, 1.5, 2.0, 3.0, 4.0};
/* clang-format on */

/* A literal in [LO, HI] (0 < LO <= HI), negated when NEG. */
static Expr lit_in(G *g, double lo, double hi, int neg)
{
	int c[16], n = 0;
	for (int k = 0; k < 16; k++)
		if (lit_upv[k] >= lo && lit_upv[k] <= hi)
			c[n++] = k;
	int k = n ? c[rnd(g, n)] : 0;
	double v = lit_upv[k];
	if (neg)
		return ex(S("-", lit_up[k]), T_F, P_UNARY, iv_mk(-v, -v), 0);
	return ex(lit_up[k], T_F, P_ATOM, iv_mk(v, v), 0);
}

/* The round scales a person writes: 0.5, 0.25, 0.1, 0.05, 0.01 ... */
/* clang-format off */
const double ex_round_scale[] = {0.5, 0.25, 0.2, 0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001, 0.0005, 0.0002, 0.0001};
const char *const ex_round_scale_text[] = {"0.5", "0.25", "0.2", "0.1", "0.05", "0.02", "0.01", "0.005", "0.002", "0.001", "0.0005", "0.0002", "0.0001"};
/* clang-format on */

/* The first round scale k with m * k <= c, or -1 when none is that small. */
int ex_round_scale_for(double m, double c)
{
	for (int i = 0; i < (int)KS_NELEM(ex_round_scale); i++)
		if (m * ex_round_scale[i] <= c)
			return i;
	return -1;
}

/* E (a float, vector or matrix) times the round constant ex_round_scale[I]. */
Expr ex_scale_by(G *g, Expr e, int i)
{
	if (e.ty == T_F)
		COV(g, expr_mul);
	else if (IS_VEC(e.ty))
		COV(g, expr_scalar_vec);
	else
		COV(g, expr_scalar_mat);
	return ex(S(ex_round_scale_text[i], " * ", par(g, e, P_UNARY)), e.ty, P_MUL,
		  iv_scale(e.iv, ex_round_scale[i]), e.dep);
}

/* Float E clamped to [-c, c]. */
static Expr clamp_f(G *g, Expr e, double c)
{
	const char *ct = flit(g, c);
	COVB(g, CLAMP_F);
	return ex(S("wp.clamp(", e.s, ", -", ct, ", ", ct, ")"), T_F, P_ATOM,
		  iv_mk(fmax(e.iv.lo, -c), fmin(e.iv.hi, c)), e.dep);
}

/* E made fit for wp.tanh: within +-4, where float tanh is not yet +-1.
 * A tanh that rounds to +-1 in float but not in double (16 * tanh(x) is
 * exactly 16.0 in float) puts a later int(), floor or comparison on an
 * edge that the two precisions take to different sides, so the gradient
 * check's double run would follow another branch.  Scaled by a round
 * constant, else clamped; no random draw. */
Expr tanh_arg(G *g, Expr e)
{
	double m = iv_mag(e.iv);
	if (m <= 4.0)
		return e;
	int i = ex_round_scale_for(m, 4.0);
	return i >= 0 ? ex_scale_by(g, e, i) : clamp_f(g, e, 4.0);
}

/* E kept within [-c, c]: unchanged when it already is, else scaled by a
 * constant, clamped or passed through tanh/sin. */
Expr squash(G *g, Expr e, double c)
{
	double m = iv_mag(e.iv);
	if (m <= c)
		return e;
	if (e.ty == T_F && c >= 0.05 && !named_ex(e)) /* not wp.clamp(4.0, -2.0, 2.0) */
		return lit_in(g, 0.05, c, e.iv.lo < 0);
	if (e.ty != T_F || chance(g, 35)) {
		int i = ex_round_scale_for(m, c);
		if (i >= 0)
			return ex_scale_by(g, e, i);
		if (e.ty != T_F) {
			double k = pow(10.0, floor(log10(c / m)));
			COV(g, expr_scalar_vec);
			return ex(S(flit(g, k), " * ", par(g, e, P_UNARY)), e.ty, P_MUL, iv_scale(e.iv, k), e.dep);
		}
	}
	const char *ct = flit(g, c);
	Expr r;
	/* wp.sin of a large value: its float rounding alone moves the result,
	 * and c * sin(x) multiplies x's rounding by c|cos x| on its way to
	 * the gradient, more than float can give the gradient check (c *
	 * sin(16 * sin(det(A))) with det(A) near 600) */
	switch (m > 50.0 ? rnd(g, 2) : rnd(g, 3)) {
	case 0:
		r = clamp_f(g, e, c);
		break;
	case 1:
		COVB(g, TANH);
		e = tanh_arg(g, e);
		r = ex(c == 1.0 ? S("wp.tanh(", e.s, ")") : S(ct, " * wp.tanh(", e.s, ")"), T_F,
		       c == 1.0 ? P_ATOM : P_MUL, iv_sym(c), e.dep);
		if (c != 1.0)
			COV(g, expr_mul);
		break;
	default:
		COVB(g, SIN);
		r = ex(c == 1.0 ? S("wp.sin(", e.s, ")") : S(ct, " * wp.sin(", e.s, ")"), T_F,
		       c == 1.0 ? P_ATOM : P_MUL, iv_sym(c), e.dep);
		if (c != 1.0)
			COV(g, expr_mul);
		break;
	}
	return r;
}

/* An int kept within [-c, c] (c >= 1). */
Expr squash_int(G *g, Expr e, int c)
{
	if (iv_mag(e.iv) <= c)
		return e;
	if (!named_ex(e)) { /* not wp.min(9, 4) */
		int k = 1 + rnd(g, c);
		if (e.iv.lo < 0)
			return ex(S("-", ilit(g, k)), T_I, P_UNARY, iv_mk(-k, -k), 0);
		return ex(ilit(g, k), T_I, P_ATOM, iv_mk(k, k), 0);
	}
	const char *ct = ilit(g, c);
	if (e.iv.lo >= 0 && chance(g, 60)) {
		COV(g, expr_int_mod);
		return ex(S(par(g, e, P_MUL), " % ", ilit(g, c + 1)), T_I, P_MUL, iv_mk(0, c), e.dep);
	}
	/* clamp only the side that needs it */
	if (e.iv.lo >= -c) {
		COVB(g, MIN_I);
		return ex(S("wp.min(", e.s, ", ", ct, ")"), T_I, P_ATOM, iv_mk(e.iv.lo, fmin(e.iv.hi, c)), e.dep);
	}
	if (e.iv.hi <= c) {
		COVB(g, MAX_I);
		return ex(S("wp.max(", e.s, ", -", ct, ")"), T_I, P_ATOM, iv_mk(fmax(e.iv.lo, -c), e.iv.hi), e.dep);
	}
	COVB(g, CLAMP_I);
	return ex(S("wp.clamp(", e.s, ", -", ct, ", ", ct, ")"), T_I, P_ATOM,
		  iv_mk(fmax(e.iv.lo, -c), fmin(e.iv.hi, c)), e.dep);
}

static int short_text(Expr e) { return strlen(e.s) <= 24; }

/* Is the whole of s one call of wp.abs? */
int abs_call(const char *s)
{
	if (strncmp(s, "wp.abs(", 7))
		return 0;
	int depth = 0;
	for (const char *p = s + 6; *p; p++)
		if (*p == '(')
			depth++;
		else if (*p == ')' && --depth == 0)
			return !p[1];
	return 0;
}

const char *abs_text(G *g, const char *s, int b)
{
	if (abs_call(s))
		return s;
	g->cov->b[b]++;
	return S("wp.abs(", s, ")");
}

/* A divisor made from B, at least 0.5 in size. */
Expr safe_div(G *g, Expr b)
{
	if (b.iv.lo >= 0.5 || b.iv.hi <= -0.5)
		return b;
	if (!named_ex(b)) /* not 1.0 + 0.1 * 0.1 */
		return lit_in(g, 0.5, 4.0, 0);
	if (b.iv.lo > -8.0 && chance(g, 30)) {
		double c = ceil(-b.iv.lo + 0.5);
		COV(g, expr_add);
		return ex(S(flit(g, c), " + ", par(g, b, P_MUL)), T_F, P_ADD, iv_mk(b.iv.lo + c, b.iv.hi + c),
			  b.dep);
	}
	switch (short_text(b) ? rnd(g, 4) : 1 + rnd(g, 3)) {
	case 0:
		COV(g, expr_mul);
		COV(g, expr_add);
		return ex(S("1.0 + ", par(g, b, P_MUL), " * ", par(g, b, P_UNARY)), T_F, P_ADD,
			  iv_mk(1.0, 1.0 + iv_mag(b.iv) * iv_mag(b.iv)), b.dep);
	case 1: {
		static const char *const c[] = {"0.5", "1.0", "2.0"};
		static const double cv[] = {0.5, 1.0, 2.0};
		int k = rnd(g, 3);
		COV(g, expr_add);
		return ex(S(c[k], " + ", abs_text(g, b.s, GB_ABS_F)), T_F, P_ADD,
			  iv_mk(cv[k], cv[k] + iv_mag(b.iv)), b.dep);
	}
	case 2:
		COVB(g, SIN);
		COV(g, expr_add);
		return ex(S("2.0 + wp.sin(", b.s, ")"), T_F, P_ADD, iv_mk(1.0, 3.0), b.dep);
	default:
		COVB(g, COS);
		COV(g, expr_sub);
		return ex(S("1.5 - wp.cos(", b.s, ")"), T_F, P_ADD, iv_mk(0.5, 2.5), b.dep);
	}
}

/* A value >= LO (0.25 for sqrt, 0.5 for log and pow). */
Expr ex_positive(G *g, Expr a, double lo)
{
	if (a.iv.lo >= lo)
		return a;
	if (!named_ex(a))
		return lit_in(g, lo, 4.0, 0);
	const char *lt = lo == 0.25 ? "0.25" : "0.5";
	if (short_text(a) && chance(g, 50)) {
		COV(g, expr_mul);
		COV(g, expr_add);
		return ex(S(par(g, a, P_MUL), " * ", par(g, a, P_UNARY), " + ", lo == 0.25 ? "0.25" : "1.0"), T_F,
			  P_ADD, iv_mk(lo == 0.25 ? 0.25 : 1.0, iv_mag(a.iv) * iv_mag(a.iv) + 1.0), a.dep);
	}
	COV(g, expr_add);
	return ex(S(abs_text(g, a.s, GB_ABS_F), " + ", lt), T_F, P_ADD, iv_mk(lo, lo + iv_mag(a.iv)), a.dep);
}
