/*
 * expr_mat.c: matrix expressions (gen_m) of 2x2, 3x3 and 4x4: leaves,
 * constructors and fills, sums and differences, scalings, products,
 * transposes, outer products, inverses; and a matrix's determinant, a
 * float (ex_det_f).
 *
 * A matrix is inverted only as M + c I with c above N |M| (diagonally
 * dominant), and a determinant taken only of s M + I or of a written-out
 * matrix with a dominant diagonal: never singular, of modest size.
 */
#include <math.h>

#include "gen/expr.h"

const char *ex_eye(G *g, int n, double c)
{
	const char *s = S("wp.mat", ilit(g, n), ilit(g, n), "(");
	const char *ct = flit(g, c);
	for (int r = 0; r < n; r++)
		for (int k = 0; k < n; k++)
			s = APP(s, r || k ? ", " : "", r == k ? ct : "0.0");
	COV(g, expr_mat_ctor);
	return S(s, ")");
}

/* S M + D, D the diagonal matrix of DIAG's N entries and S a round scale
 * with N S |M| <= TOL (1, not written, when M is that small already),
 * S in *SCALE when SCALE is not NULL */
const char *ex_diag_plus(G *g, Expr m, int n, const double *diag, double tol, double *scale)
{
	double mm = iv_mag(m.iv), k = 1;
	const char *sm = par(g, m, P_ADD);
	if (n * mm > tol) {
		int i = ex_round_scale_for(n * mm, tol);
		k = i >= 0 ? ex_round_scale[i] : pow(10.0, floor(log10(tol / (n * mm))));
		sm = S(i >= 0 ? ex_round_scale_text[i] : flit(g, k), " * ", par(g, m, P_UNARY));
		COV(g, expr_scalar_mat);
	}
	if (scale)
		*scale = k;
	const char *c = S("wp.mat", ilit(g, n), ilit(g, n), "(");
	for (int r = 0; r < n; r++)
		for (int col = 0; col < n; col++)
			c = APP(c, r || col ? ", " : "", r == col ? flit(g, diag[r]) : "0.0");
	COV(g, expr_mat_ctor);
	COV(g, expr_mat_add);
	return S(sm, " + ", c, ")");
}

static Expr mat_ctor(G *g, int n, int d)
{
	int t = MAT_OF(n);
	if (chance(g, 15)) {
		Expr a = gen_f(g, d - 1);
		if (!named_ex(a))
			a = ex_dep_f(g, d - 1);
		COV(g, expr_mat_fill);
		return ex(S("wp.mat", ilit(g, n), ilit(g, n), "(", a.s, ")"), t, P_ATOM, a.iv, a.dep);
	}
	/* entries stay short (a 4x4 of compound terms reads like noise), and
	 * at least one names a variable */
	const char *s = S("wp.mat", ilit(g, n), ilit(g, n), "(");
	int named = 0;
	Iv v = iv_mk(0, 0);
	int dep = 0;
	for (int k = 0; k < n * n; k++) {
		Expr a = chance(g, n == 4 ? 60 : 40) ? lit_f(g) : gen_f(g, n >= 3 ? 0 : d - 2);
		if (chance(g, 15))
			a = ex("0.0", T_F, P_ATOM, iv_mk(0, 0), 0);
		if (!named && k == n * n - 1 && !named_ex(a))
			a = ex_dep_f(g, n >= 3 ? 0 : d - 2);
		named = named || named_ex(a);
		v = k ? iv_hull(v, a.iv) : a.iv;
		dep |= a.dep;
		s = APP(s, k ? ", " : "", a.s);
	}
	COV(g, expr_mat_ctor);
	return ex(S(s, ")"), t, P_ATOM, v, dep);
}

/* wp.determinant of a matrix that is nonsingular by construction, with a
 * value of modest size.  An outer product, a filled wp.mat33(a), or a
 * written-out matrix with a repeated row has a determinant of exactly 0
 * whatever the inputs: a constant output, and a tie in any comparison made
 * with it.  So a written-out matrix gets entries of size <= 1 off its
 * diagonal and a dominant diagonal (each diagonal literal above the sum
 * of its row's other entries), and any other matrix M becomes s M + I,
 * s a round scale with N s |M| <= 1/2.  Either is strictly diagonally
 * dominant, hence invertible; the second's determinant lies in
 * [(1 - q)^N, (1 + q)^N] with q = N s |M| (Gershgorin). */
Expr ex_det_f(G *g, int n, Expr m, int d)
{
	Iv iv;
	const char *arg;
	int dep;
	if (ex_is_ctor(m)) {
		const char *s = S("wp.mat", ilit(g, n), ilit(g, n), "(");
		Expr a[16];
		int named = 0;
		double bound = 1;
		dep = 0;
		for (int k = 0; k < n * n; k++) {
			if (k % (n + 1) == 0)
				continue; /* the diagonal, below */
			a[k] = chance(g, 50) ? lit_f(g) : gen_f(g, n >= 3 ? 0 : d - 2);
			if (!named && k == n * n - 2 && !named_ex(a[k]))
				a[k] = ex_dep_f(g, n >= 3 ? 0 : d - 2);
			a[k] = squash(g, a[k], 1.0);
			named = named || named_ex(a[k]);
			dep |= a[k].dep;
		}
		for (int r = 0; r < n; r++) {
			double off = 0;
			for (int k = 0; k < n; k++)
				if (k != r)
					off += iv_mag(a[r * n + k].iv);
			double c = ceil(off) + 1.0 + rnd(g, 2);
			if (chance(g, 25))
				c = -c;
			a[r * n + r] = ex(flit(g, c), T_F, P_ATOM, iv_mk(c, c), 0);
			bound *= fabs(c) + off;
			for (int k = 0; k < n; k++)
				s = APP(s, r || k ? ", " : "", a[r * n + k].s);
		}
		COV(g, expr_mat_ctor);
		arg = S(s, ")");
		iv = iv_sym(bound);
	} else {
		static const double one[] = {1.0, 1.0, 1.0, 1.0};
		double k;
		arg = ex_diag_plus(g, m, n, one, 0.5, &k);
		double q = n * k * iv_mag(m.iv);
		iv = iv_mk(pow(1 - q, n), pow(1 + q, n));
		dep = m.dep;
	}
	COVB(g, DETERMINANT);
	return ex(S("wp.determinant(", arg, ")"), T_F, P_ATOM, iv, dep);
}

static Expr leaf_m(G *g, int n, int d)
{
	int t = MAT_OF(n), r = rnd(g, 6);
	Expr e;
	if (ex_leaf_vm(g, t, r, d, &e))
		return e;
	switch (r) {
	case 4: {
		Expr a = gen_v(g, n, d > 0 ? d - 1 : 0), b = gen_v(g, n, d > 0 ? d - 1 : 0);
		NOT_BOTH_CTOR(a, b, gen_v(g, n, d > 0 ? d - 1 : 0));
		if (ex_is_ctor(a) && ex_is_ctor(b))
			break;
		COVB(g, OUTER);
		return ex(S("wp.outer(", a.s, ", ", b.s, ")"), t, P_ATOM, iv_sym(iv_mag(a.iv) * iv_mag(b.iv)),
			  a.dep | b.dep);
	}
	default:
		break;
	}
	return mat_ctor(g, n, d > 0 ? d : 1);
}

Expr gen_m(G *g, int n, int d)
{
	int t = MAT_OF(n);
	if (d <= 0 || g->sp > sizeof g->scratch / 2)
		return leaf_m(g, n, 0);
	Expr e, a, b;
	if (chance(g, g->rng[0] ? 2 * LIB_PCT : LIB_PCT))
		e = lib_m(g, n, d);
	else
		switch (rnd(g, 11)) {
		case 0:
			a = gen_m(g, n, d - 1);
			if (!ex_second_vm(g, a, d - 1, &b)) {
				e = a;
				break;
			}
			if (chance(g, 50)) {
				COV(g, expr_mat_add);
				e = ex(S(par(g, a, P_ADD), " + ", par(g, b, P_MUL)), t, P_ADD, iv_add(a.iv, b.iv),
				       a.dep | b.dep);
			} else {
				COV(g, expr_sub);
				e = ex(S(par(g, a, P_ADD), " - ", par(g, b, P_MUL)), t, P_ADD, iv_sub(a.iv, b.iv),
				       a.dep | b.dep);
			}
			break;
		case 1:
		case 2:
			a = gen_m(g, n, d - 1);
			b = gen_m(g, n, d - 1);
			NOT_BOTH_CTOR(a, b, gen_m(g, n, d - 1));
			if (ex_is_ctor(a) && ex_is_ctor(b)) {
				e = a;
				break;
			}
			COV(g, expr_mat_mat);
			e = ex(S(par(g, a, P_MUL), " * ", par(g, b, P_UNARY)), t, P_MUL,
			       iv_sym(n * iv_mag(a.iv) * iv_mag(b.iv)), a.dep | b.dep);
			break;
		case 3: {
			Expr s = squash(g, gen_f(g, d - 1), 4.0);
			a = gen_m(g, n, d - 1);
			COV(g, expr_scalar_mat);
			e = ex(S(par(g, s, P_MUL), " * ", par(g, a, P_UNARY)), t, P_MUL, iv_mul(s.iv, a.iv),
			       a.dep | s.dep);
			break;
		}
		case 4:
			a = gen_m(g, n, d - 1);
			COVB(g, TRANSPOSE);
			e = ex(S("wp.transpose(", a.s, ")"), t, P_ATOM, a.iv, a.dep);
			break;
		case 5: {
			a = gen_m(g, n, d - 1);
			for (int t_ = 0; t_ < 3 && ex_is_ctor(a);
			     t_++) /* not wp.mat22(a, b, c, d) + wp.mat22(5.0, ...) */
				a = gen_m(g, n, d - 1);
			double c = ceil(n * iv_mag(a.iv)) + 1.0;
			COV(g, expr_mat_add);
			COVB(g, INVERSE);
			e = ex(S("wp.inverse(", a.s, " + ", ex_eye(g, n, c), ")"), t, P_ATOM, iv_sym(1.0), a.dep);
			break;
		}
		case 6:
			a = gen_m(g, n, d - 1);
			COV(g, expr_neg);
			e = ex(S("-", par(g, a, P_UNARY)), t, P_UNARY, iv_neg(a.iv), a.dep);
			break;
		case 7:
			e = mat_ctor(g, n, d);
			break;
		default:
			e = leaf_m(g, n, d);
			break;
		}
	if (iv_mag(e.iv) > LIM)
		e = squash(g, e, LIM / 4);
	return ex_no_const(g, e, d);
}
