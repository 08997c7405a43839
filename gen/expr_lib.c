/*
 * expr_lib.c: the wider library (lib_f, lib_i, lib_v, lib_m), drawn in
 * a few percent of the composite terms: the rows of ir/builtins.h beyond
 * the arithmetic core -- special functions, component-wise and
 * structural vector and matrix functions, quaternions, transforms and
 * spatial vectors written inline (kgen keeps no local of those types),
 * and draws from the kernel's random state.  Each keeps the domain rules
 * of the top of gen/expr.c:
 *   erfinv        argument within +-0.9; erfcinv 1 +- 0.9; cbrt >= 0.25
 *   mod, cw_div   divisors >= 0.5 in size (wp.abs(w) + c, c + cw_mul(b, b))
 *   quaternions   unit by construction: from an axis made non-zero and
 *                 normalized, roll/pitch/yaw, a matrix s M + I (its trace
 *                 > 0, Warp's first branch), a normalized wp.quat(v, 1.0);
 *                 slerp from the identity to an angle in [0.5, 2.5]
 *   draws         randn within +-6 (Box-Muller of 2^-24 steps); none in a
 *                 branch of x if c else y, nor in and/or
 */
#include <math.h>

#include "gen/expr.h"

#define SQRT3 1.7320508075688772

static Expr no_ctor(G *g, int ty, int d);

/* wp.normalize(v + wp.vec3(0.0, c, 0.0)): a unit axis. */
static Expr unit_axis(G *g, int d)
{
	Expr a = gen_v(g, 3, d);
	for (int t = 0; t < 3 && ex_is_ctor(a); t++)
		a = gen_v(g, 3, d);
	double c = floor(iv_mag(a.iv)) + 1.0;
	int k = rnd(g, 3);
	const char *s = "wp.vec3(";
	for (int j = 0; j < 3; j++)
		s = APP(s, j ? ", " : "", j == k ? flit(g, c) : "0.0");
	COV(g, expr_vec_ctor);
	COV(g, expr_vec_add);
	COVB(g, NORMALIZE);
	return ex(S("wp.normalize(", a.s, " + ", s, "))"), T_V3, P_ATOM, iv_mk(-1, 1), a.dep);
}

/* A float that names a variable, within +-C. */
static Expr named_f(G *g, int d, double c)
{
	Expr a = gen_f(g, d);
	if (!named_ex(a))
		a = ex_dep_f(g, d);
	return squash(g, a, c);
}

/* ex_diag_plus of a random matrix M: its singular values lie within TOL of
 * DIAG's entries (Weyl), so with those entries more than 2 TOL apart and
 * above TOL they stay apart and away from 0, where a decomposition's
 * factors are unique but for signs and its derivative is modest.  *DEP:
 * whether M depends on the inputs (two tries for one that does). */
const char *near_diag(G *g, int n, int d, const double *diag, double tol, int *dep)
{
	Expr m = gen_m(g, n, d);
	if (!m.dep)
		m = gen_m(g, n, d);
	*dep = m.dep;
	return ex_diag_plus(g, m, n, diag, tol, NULL);
}

/* s M + I for a matrix of size N: diagonally dominant (as ex_det_f). */
static const char *near_eye(G *g, int n, int d, int *dep)
{
	static const double one[] = {1.0, 1.0, 1.0, 1.0};
	Expr m = gen_m(g, n, d);
	*dep = m.dep;
	return ex_diag_plus(g, m, n, one, 0.5, NULL);
}

/* A unit quaternion (its text; components within +-1). */
static Expr gen_q(G *g, int d)
{
	int dep = 0;
	switch (rnd(g, d > 0 ? 8 : 4)) {
	case 0: {
		Expr ax = unit_axis(g, d - 1), an = named_f(g, d - 1, 3.0);
		COVB(g, QUAT_FROM_AXIS_ANGLE);
		return ex(S("wp.quat_from_axis_angle(", ax.s, ", ", an.s, ")"), T_V4, P_ATOM, iv_sym(1),
			  ax.dep | an.dep);
	}
	case 1: {
		Expr r = named_f(g, d - 1, 3.0), p = named_f(g, d - 1, 1.5), y = named_f(g, d - 1, 3.0);
		COVB(g, QUAT_RPY);
		return ex(S("wp.quat_rpy(", r.s, ", ", p.s, ", ", y.s, ")"), T_V4, P_ATOM, iv_sym(1),
			  r.dep | p.dep | y.dep);
	}
	case 2: {
		int n = chance(g, 70) ? 3 : 4;
		const char *m = near_eye(g, n, d - 1, &dep);
		if (n == 3)
			COVB(g, QUAT_FROM_MATRIX33);
		else
			COVB(g, QUAT_FROM_MATRIX44);
		return ex(S("wp.quat_from_matrix(", m, ")"), T_V4, P_ATOM, iv_sym(1), dep);
	}
	case 3: {
		Expr v = gen_v(g, 3, d - 1);
		v = squash(g, v, 2.0);
		COVB(g, NORMALIZE_Q);
		return ex(S("wp.normalize(wp.quat(", v.s, ", 1.0))"), T_V4, P_ATOM, iv_sym(1), v.dep);
	}
	case 4: {
		Expr q = gen_q(g, d - 1);
		COVB(g, QUAT_INVERSE);
		return ex(S("wp.quat_inverse(", q.s, ")"), T_V4, P_ATOM, iv_sym(1), q.dep);
	}
	case 5: {
		/* from rest to an angle well inside (0, pi): the relative
		 * rotation's axis stays defined */
		Expr ax = unit_axis(g, d - 1), an = named_f(g, d - 1, 0.5), t = named_f(g, d - 1, 1.0);
		static const char *const c[] = {"1.0", "1.5", "2.0"};
		COVB(g, QUAT_FROM_AXIS_ANGLE);
		COVB(g, QUAT_IDENTITY);
		COVB(g, QUAT_SLERP);
		COV(g, expr_add);
		return ex(S("wp.quat_slerp(wp.quat_identity(), wp.quat_from_axis_angle(", ax.s, ", ", PICK(g, c),
			    " + ", par(g, an, P_MUL), "), ", t.s, ")"),
			  T_V4, P_ATOM, iv_sym(1), ax.dep | an.dep | t.dep);
	}
	case 6: {
		Expr tq = gen_q(g, d - 1);
		Expr p = squash(g, gen_v(g, 3, d - 1), 4.0);
		COVB(g, TRANSFORM_GET_ROTATION);
		return ex(S("wp.transform_get_rotation(wp.transform(", p.s, ", ", tq.s, "))"), T_V4, P_ATOM,
			  iv_sym(1), tq.dep | p.dep);
	}
	default: {
		/* a rotation that applies only where a condition holds */
		Expr c = gen_b(g, d - 1);
		g->no_draw++;
		Expr q = gen_q(g, d - 1);
		g->no_draw--;
		COV(g, expr_ifexp);
		COVB(g, QUAT_IDENTITY);
		return ex(S("(", q.s, " if ", par(g, c, P_OR), " else wp.quat_identity())"), T_V4, P_ATOM,
			  iv_sym(1), q.dep | c.dep);
	}
	}
}

/* A transform with a unit rotation; its iv bounds the translation. */
static Expr gen_xf(G *g, int d)
{
	switch (rnd(g, d > 0 ? 4 : 1)) {
	case 1: {
		Expr a = gen_xf(g, d - 1), b = gen_xf(g, d - 1);
		COVB(g, TRANSFORM_MULTIPLY);
		return ex(S("wp.transform_multiply(", a.s, ", ", b.s, ")"), T_V4, P_ATOM,
			  iv_sym(SQRT3 * iv_mag(b.iv) + iv_mag(a.iv)), a.dep | b.dep);
	}
	case 2: {
		Expr a = gen_xf(g, d - 1);
		COVB(g, TRANSFORM_INVERSE);
		return ex(S("wp.transform_inverse(", a.s, ")"), T_V4, P_ATOM, iv_sym(SQRT3 * iv_mag(a.iv)), a.dep);
	}
	case 3: {
		Expr c = gen_b(g, d - 1);
		g->no_draw++;
		Expr a = gen_xf(g, d - 1);
		g->no_draw--;
		COV(g, expr_ifexp);
		COVB(g, TRANSFORM_IDENTITY);
		return ex(S("(", a.s, " if ", par(g, c, P_OR), " else wp.transform_identity())"), T_V4, P_ATOM,
			  a.iv, a.dep | c.dep);
	}
	default: {
		Expr p = squash(g, gen_v(g, 3, d > 0 ? d - 1 : 0), 4.0);
		Expr q = gen_q(g, d > 0 ? d - 1 : 0);
		return ex(S("wp.transform(", p.s, ", ", q.s, ")"), T_V4, P_ATOM, p.iv, p.dep | q.dep);
	}
	}
}

/* A spatial vector (six floats). */
static Expr gen_sv(G *g, int d)
{
	switch (rnd(g, d > 0 ? 4 : 1)) {
	case 1:
	case 2: {
		Expr a = gen_sv(g, d - 1), b = gen_sv(g, d - 1);
		a = squash(g, a, 4.0);
		b = squash(g, b, 4.0);
		int dual = rnd(g, 2);
		if (dual)
			COVB(g, SPATIAL_CROSS_DUAL);
		else
			COVB(g, SPATIAL_CROSS);
		return ex(S(dual ? "wp.spatial_cross_dual(" : "wp.spatial_cross(", a.s, ", ", b.s, ")"), T_V4,
			  P_ATOM, iv_sym(4 * iv_mag(a.iv) * iv_mag(b.iv)), a.dep | b.dep);
	}
	case 3: {
		Expr r = squash(g, gen_m(g, 3, d - 1), 2.0), s = squash(g, gen_m(g, 3, d - 1), 2.0);
		NOT_BOTH_CTOR(r, s, squash(g, gen_m(g, 3, d - 1), 2.0));
		if (ex_is_ctor(r) && ex_is_ctor(s))
			s = no_ctor(g, T_M33, d - 1);
		Expr v = squash(g, gen_sv(g, d - 1), 4.0);
		COVB(g, SPATIAL_ADJOINT);
		return ex(S("wp.spatial_adjoint(", r.s, ", ", s.s, ") * ", v.s), T_V4, P_MUL,
			  iv_sym(6 * fmax(iv_mag(r.iv), iv_mag(s.iv)) * iv_mag(v.iv)), r.dep | s.dep | v.dep);
	}
	default: {
		Expr w = gen_v(g, 3, d > 0 ? d - 1 : 0), v = gen_v(g, 3, d > 0 ? d - 1 : 0);
		NOT_BOTH_CTOR(w, v, gen_v(g, 3, d > 0 ? d - 1 : 0));
		if (ex_is_ctor(w) && ex_is_ctor(v))
			v = no_ctor(g, T_V3, d > 0 ? d - 1 : 0);
		return ex(S("wp.spatial_vector(", w.s, ", ", v.s, ")"), T_V4, P_ATOM, iv_hull(w.iv, v.iv),
			  w.dep | v.dep);
	}
	}
}

static int can_draw(G *g) { return g->rng[0] && !g->in_func && !g->no_draw; }

/* A vector of N that is not a splat, with its components apart. */
static Expr plain_v(G *g, int n, int d)
{
	Expr u = gen_v(g, n, d);
	for (int t = 0; t < 3 && (ex_is_splat(u) || !named_ex(u)); t++)
		u = gen_v(g, n, d);
	if (!named_ex(u))
		u = ex_dep_vm(g, VEC_OF(n), d);
	return u;
}

/* A vector or matrix of type TY that is no constructor (a call of two
 * constructors reads as one written out by hand): drawn again, else a
 * variable or element of the type, else a constructor scaled. */
static Expr no_ctor(G *g, int ty, int d)
{
	Expr e = gen_ty(g, ty, d);
	for (int t = 0; t < 4 && ex_is_ctor(e); t++)
		e = gen_ty(g, ty, d);
	if (!ex_is_ctor(e))
		return e;
	Var *v = pick_var(g, ty, 0, 1);
	if (v)
		return ex_var(v);
	Var *a = pick_arr(g, ty, -1);
	if (a)
		return read_arr(g, a, d);
	return ex_scale_by(g, e, 0);
}

Expr lib_f(G *g, int d)
{
	int r = can_draw(g) && chance(g, 50) ? 26 + rnd(g, 4) : rnd(g, 26);
	Expr a = named_f(g, d - 1, LIM);
	switch (r) {
	case 0: {
		Expr b = gen_f(g, d - 1), t = named_f(g, d - 1, 1.0);
		REDRAW(a, b, gen_f(g, d - 1));
		COVB(g, LERP_F);
		return ex(S("wp.lerp(", a.s, ", ", b.s, ", ", t.s, ")"), T_F, P_ATOM,
			  iv_sym(iv_mag(a.iv) + iv_mag(iv_sub(b.iv, a.iv))), a.dep | b.dep | t.dep);
	}
	case 1: {
		/* clang-format off */
		static const char *const lo[] = {"-1.0", "-0.5", "0.0", "0.1"}, *const hi[] = {"0.5", "1.0", "2.0", "0.8"};
		/* clang-format on */
		const char *l = PICK(g, lo), *h = PICK(g, hi); /* drawn in turn */
		COVB(g, SMOOTHSTEP);
		return ex(S("wp.smoothstep(", l, ", ", h, ", ", a.s, ")"), T_F, P_ATOM, iv_mk(0, 1), a.dep);
	}
	case 2: {
		Expr c = squash(g, a, 2.0);
		const char *t = ex_thresh_in(g, c.iv);
		COVB(g, STEP);
		COV(g, expr_sub);
		return ex(S("wp.step(", par(g, c, P_ADD), " - ", t, ")"), T_F, P_ATOM, iv_mk(0, 1), a.dep);
	}
	case 3:
		a = ex_spread(g, a, 0);
		COVB(g, NONZERO);
		return ex(S("wp.nonzero(wp.floor(", a.s, "))"), T_F, P_ATOM, iv_mk(0, 1), a.dep);
	case 4:
		a = squash(g, a, 4.0);
		COVB(g, DEGREES);
		return ex(S("wp.degrees(", a.s, ")"), T_F, P_ATOM, iv_sym(iv_mag(a.iv) * 57.3), a.dep);
	case 5:
		COVB(g, RADIANS);
		return ex(S("wp.radians(", a.s, ")"), T_F, P_ATOM, iv_sym(iv_mag(a.iv) * 0.0175), a.dep);
	case 6: {
		static const char *const fn[] = {"wp.round(", "wp.rint(", "wp.trunc("};
		static const int bf[] = {GB_ROUND, GB_RINT, GB_TRUNC};
		int k = rnd(g, 3);
		a = ex_spread(g, a, 0);
		g->cov->b[bf[k]]++;
		return ex(S(fn[k], a.s, ")"), T_F, P_ATOM, iv_mk(floor(a.iv.lo), ceil(a.iv.hi)), a.dep);
	}
	case 7:
		COVB(g, FRAC);
		return ex(S("wp.frac(", a.s, ")"), T_F, P_ATOM, iv_sym(1), a.dep);
	case 8: {
		Expr b = safe_div(g, gen_f(g, d - 1));
		REDRAW(a, b, safe_div(g, gen_f(g, d - 1)));
		COVB(g, MOD_F);
		return ex(S("wp.mod(", a.s, ", ", b.s, ")"), T_F, P_ATOM, iv_sym(fmin(iv_mag(a.iv), iv_mag(b.iv))),
			  a.dep | b.dep);
	}
	case 9: {
		Expr b = gen_f(g, d - 1);
		REDRAW(a, b, gen_f(g, d - 1));
		COVB(g, COPYSIGN);
		return ex(S("wp.copysign(", a.s, ", ", b.s, ")"), T_F, P_ATOM, iv_sym(iv_mag(a.iv)), a.dep | b.dep);
	}
	case 10:
		a = ex_positive(g, a, 0.25);
		COVB(g, CBRT);
		return ex(S("wp.cbrt(", a.s, ")"), T_F, P_ATOM, iv_mk(cbrt(a.iv.lo), cbrt(a.iv.hi)), a.dep);
	case 11: {
		a = squash(g, a, 2.0);
		int k = rnd(g, 2);
		if (k)
			COVB(g, ERFC);
		else
			COVB(g, ERF);
		return ex(S(k ? "wp.erfc(" : "wp.erf(", a.s, ")"), T_F, P_ATOM, k ? iv_mk(0, 2) : iv_sym(1), a.dep);
	}
	case 12:
		a = squash(g, a, 0.9);
		COVB(g, ERFINV);
		return ex(S("wp.erfinv(", a.s, ")"), T_F, P_ATOM, iv_sym(1.17), a.dep);
	case 13:
		a = squash(g, a, 0.9);
		COVB(g, ERFCINV);
		COV(g, expr_add);
		return ex(S("wp.erfcinv(1.0 + ", par(g, a, P_MUL), ")"), T_F, P_ATOM, iv_sym(1.17), a.dep);
	case 14:
	case 15: {
		int n = 2 + rnd(g, 3);
		Expr u = plain_v(g, n, d - 1);
		int mx = r == 15;
		if (mx)
			COVB(g, MAX_VS);
		else
			COVB(g, MIN_VS);
		return ex(S(mx ? "wp.max(" : "wp.min(", u.s, ")"), T_F, P_ATOM, u.iv, u.dep);
	}
	case 16: {
		int n = 2 + rnd(g, 3);
		Expr m = gen_m(g, n, d - 1), b;
		if (!ex_second_vm(g, m, d - 1, &b))
			b = no_ctor(g, m.ty, d - 1);
		if (ex_is_ctor(m) && ex_is_ctor(b))
			b = no_ctor(g, m.ty, d - 1);
		COVB(g, DDOT);
		return ex(S("wp.ddot(", m.s, ", ", b.s, ")"), T_F, P_ATOM,
			  iv_sym(n * n * iv_mag(m.iv) * iv_mag(b.iv)), m.dep | b.dep);
	}
	case 17: {
		int n = 2 + rnd(g, 3);
		Expr m = gen_m(g, n, d - 1);
		if (!named_ex(m))
			m = ex_dep_vm(g, m.ty, d - 1);
		COVB(g, TRACE);
		return ex(S("wp.trace(", m.s, ")"), T_F, P_ATOM, iv_sym(n * iv_mag(m.iv)), m.dep);
	}
	case 18: {
		Expr b = safe_div(g, gen_f(g, d - 1));
		REDRAW(a, b, safe_div(g, gen_f(g, d - 1)));
		COVB(g, DIV_APPROX_F);
		return ex(S("wp.div_approx(", a.s, ", ", b.s, ")"), T_F, P_ATOM,
			  iv_sym(iv_mag(a.iv) / fmin(fabs(b.iv.lo), fabs(b.iv.hi))), a.dep | b.dep);
	}
	case 19: {
		Expr p = gen_q(g, d - 1), q = gen_q(g, d - 1);
		REDRAW(p, q, gen_q(g, d - 1));
		COVB(g, DOT_Q);
		return ex(S("wp.dot(", p.s, ", ", q.s, ")"), T_F, P_ATOM, iv_sym(1), p.dep | q.dep);
	}
	case 20:
	case 21: {
		Expr v = squash(g, gen_v(g, 3, d - 1), 2.0);
		Expr w = named_f(g, d - 1, 2.0);
		if (r == 20) {
			COVB(g, LENGTH_Q);
			return ex(S("wp.length(wp.quat(", v.s, ", ", w.s, "))"), T_F, P_ATOM, iv_mk(0, 4),
				  v.dep | w.dep);
		}
		COVB(g, LENGTH_SQ_Q);
		return ex(S("wp.length_sq(wp.quat(", v.s, ", ", w.s, "))"), T_F, P_ATOM, iv_mk(0, 16),
			  v.dep | w.dep);
	}
	case 22:
	case 23: {
		Expr p = squash(g, gen_sv(g, d - 1), 4.0), q = squash(g, gen_sv(g, d - 1), 4.0);
		REDRAW(p, q, squash(g, gen_sv(g, d - 1), 4.0));
		COVB(g, SPATIAL_DOT);
		return ex(S("wp.spatial_dot(", p.s, ", ", q.s, ")"), T_F, P_ATOM,
			  iv_sym(6 * iv_mag(p.iv) * iv_mag(q.iv)), p.dep | q.dep);
	}
	case 24: {
		Expr p = gen_q(g, d - 1);
		int row = rnd(g, 3), col = rnd(g, 3);
		COVB(g, QUAT_TO_MATRIX);
		COV(g, expr_mat_elem);
		return ex(S("wp.quat_to_matrix(", p.s, ")[", ilit(g, row), ", ", ilit(g, col), "]"), T_F, P_ATOM,
			  iv_sym(1), p.dep);
	}
	case 25:
		return a;
	case 26:
		COVB(g, RANDF);
		return ex(S("wp.randf(", g->rng, ")"), T_F, P_ATOM, iv_mk(0, 1), DEP_VARY);
	case 27: {
		/* clang-format off */
		static const char *const lo[] = {"-1.0", "0.0", "0.5", "-0.25"}, *const hi[] = {"1.0", "2.0", "1.5", "0.25"};
		/* clang-format on */
		static const double lov[] = {-1, 0, 0.5, -0.25}, hiv[] = {1, 2, 1.5, 0.25};
		int k = rnd(g, 4);
		COVB(g, RANDF_RANGE);
		return ex(S("wp.randf(", g->rng, ", ", lo[k], ", ", hi[k], ")"), T_F, P_ATOM, iv_mk(lov[k], hiv[k]),
			  DEP_VARY);
	}
	default:
		COVB(g, RANDN);
		return ex(S("wp.randn(", g->rng, ")"), T_F, P_ATOM, iv_sym(6.0), DEP_VARY);
	}
}

Expr lib_i(G *g, int d)
{
	int r = can_draw(g) && chance(g, 50) ? 6 + rnd(g, 6) : rnd(g, 6);
	switch (r) {
	case 0: {
		Expr a = gen_i(g, d - 1);
		if (!named_ex(a))
			a = ex_dep_i(g, d - 1);
		Expr b = gen_i(g, d - 1);
		REDRAW(a, b, gen_i(g, d - 1));
		b = ex_int_div(g, b);
		COVB(g, MOD_I);
		return ex(S("wp.mod(", a.s, ", ", b.s, ")"), T_I, P_ATOM,
			  iv_mk(a.iv.lo >= 0 ? 0 : -b.iv.hi, a.iv.hi <= 0 ? 0 : b.iv.hi), a.dep | b.dep);
	}
	case 1: {
		Expr a = ex_dep_i(g, d - 1);
		if (!named_ex(a)) /* not wp.bit_count(7) */
			return gen_i(g, d - 1);
		COVB(g, BIT_COUNT);
		return ex(S("wp.bit_count(", a.s, ")"), T_I, P_ATOM, iv_mk(0, 32), a.dep);
	}
	case 2: {
		Expr a = ex_dep_i(g, d - 1);
		if (!named_ex(a))
			return gen_i(g, d - 1);
		COVB(g, INVERT);
		return ex(S("wp.invert(", a.s, ")"), T_I, P_ATOM, iv_mk(-a.iv.hi - 1, -a.iv.lo - 1), a.dep);
	}
	case 3:
	case 4: {
		int n = 2 + rnd(g, 3);
		Expr u = plain_v(g, n, d - 1);
		if (r == 3)
			COVB(g, ARGMIN);
		else
			COVB(g, ARGMAX);
		COV(g, expr_conv_int);
		return ex(S(r == 3 ? "int(wp.argmin(" : "int(wp.argmax(", u.s, "))"), T_I, P_ATOM, iv_mk(0, n - 1),
			  u.dep);
	}
	case 5:
		return gen_i(g, d - 1);
	case 6: {
		int k = 2 + rnd(g, 15);
		COVB(g, RANDI);
		COV(g, expr_int_mod);
		return ex(S("wp.randi(", g->rng, ") % ", ilit(g, k)), T_I, P_MUL, iv_mk(-(k - 1), k - 1), DEP_VARY);
	}
	case 7: {
		int lo = -rnd(g, 4), hi = 2 + rnd(g, 12);
		COVB(g, RANDI_RANGE);
		return ex(S("wp.randi(", g->rng, ", ", ilit(g, lo), ", ", ilit(g, hi), ")"), T_I, P_ATOM,
			  iv_mk(lo, hi - 1), DEP_VARY);
	}
	case 8: {
		int k = 2 + rnd(g, 15);
		COVB(g, RANDU);
		COV(g, expr_conv_int);
		return ex(S("int(wp.randu(", g->rng, ") % wp.uint32(", ilit(g, k), "))"), T_I, P_ATOM,
			  iv_mk(0, k - 1), DEP_VARY);
	}
	case 9: {
		int k = 2 + rnd(g, 15);
		COVB(g, RANDU_RANGE);
		COV(g, expr_conv_int);
		return ex(S("int(wp.randu(", g->rng, ", wp.uint32(0), wp.uint32(", ilit(g, k), ")))"), T_I, P_ATOM,
			  iv_mk(0, k - 1), DEP_VARY);
	}
	case 10: {
		static const char *const lam[] = {"0.5", "2.0", "4.0", "12.0"};
		static const double lv[] = {0.5, 2, 4, 12};
		int k = rnd(g, 4);
		COVB(g, POISSON);
		COV(g, expr_conv_int);
		return ex(S("int(wp.poisson(", g->rng, ", ", lam[k], "))"), T_I, P_ATOM, iv_mk(0, lv[k] * 20 + 40),
			  DEP_VARY);
	}
	default: {
		Var *a = pick_arr(g, T_F, R_IN);
		if (!a)
			return gen_i(g, d - 1);
		COVB(g, SAMPLE_CDF);
		Expr e = ex(S("wp.sample_cdf(", g->rng, ", ", a->name, ")"), T_I, P_ATOM, iv_mk(0, NMAX - 1),
			    DEP_VARY | DEP_N);
		e.idx = 1;
		return e;
	}
	}
}

/* A vector divisor made from B, every component at least *LO (0.5, 1 or
 * 2): wp.abs(b) + wp.vecN(c), for cw_div and a float over a vector. */
static const char *off_zero_v(G *g, int n, Expr b, double *lo)
{
	static const char *const c[] = {"0.5", "1.0", "2.0"};
	static const double cv[] = {0.5, 1.0, 2.0};
	int k = rnd(g, 3);
	*lo = cv[k];
	COV(g, expr_vec_add);
	COV(g, expr_vec_fill);
	return S(abs_text(g, b.s, GB_ABS_V), " + wp.vec", ilit(g, n), "(", c[k], ")");
}

/* A matrix divisor made from B, every element at least 1:
 * wp.cw_mul(b, b) + wp.matNN(1.0). */
static const char *off_zero_m(G *g, int n, Expr b)
{
	COVB(g, CW_MUL_M);
	COV(g, expr_mat_add);
	COV(g, expr_mat_fill);
	return S("wp.cw_mul(", b.s, ", ", b.s, ") + wp.mat", ilit(g, n), ilit(g, n), "(1.0)");
}

Expr lib_v(G *g, int n, int d)
{
	int t = VEC_OF(n);
	int r = can_draw(g) && chance(g, 40) ? 19 : rnd(g, 19);
	if (n != 3 && r >= 8 && r < 17)
		r = rnd(g, 8);
	switch (r) {
	case 0: {
		Expr a = plain_v(g, n, d - 1);
		COVB(g, SIGN_V);
		return ex(S("wp.sign(", a.s, ")"), t, P_ATOM, iv_sym(1), a.dep);
	}
	case 1:
	case 2: {
		Expr a = plain_v(g, n, d - 1), b;
		if (!ex_second_vm(g, a, d - 1, &b) || (ex_is_ctor(a) && ex_is_ctor(b)))
			b = no_ctor(g, t, d - 1);
		if (r == 1) {
			COVB(g, CW_MUL_V);
			return ex(S("wp.cw_mul(", a.s, ", ", b.s, ")"), t, P_ATOM, iv_mul(a.iv, b.iv),
				  a.dep | b.dep);
		}
		double lo;
		const char *q = off_zero_v(g, n, b, &lo);
		COVB(g, CW_DIV_V);
		return ex(S("wp.cw_div(", a.s, ", ", q, ")"), t, P_ATOM, iv_sym(iv_mag(a.iv) / lo), a.dep | b.dep);
	}
	case 3: {
		Expr m = gen_m(g, n, d - 1);
		if (!named_ex(m))
			m = ex_dep_vm(g, MAT_OF(n), d - 1);
		COVB(g, GET_DIAG);
		return ex(S("wp.get_diag(", m.s, ")"), t, P_ATOM, m.iv, m.dep);
	}
	case 4: {
		if (chance(g, 30)) {
			/* a float over each component */
			Expr s = named_f(g, d - 1, 2.0), b = plain_v(g, n, d - 1);
			double lo;
			const char *q = off_zero_v(g, n, b, &lo);
			COVB(g, DIV_APPROX_SV);
			return ex(S("wp.div_approx(", s.s, ", ", q, ")"), t, P_ATOM, iv_sym(iv_mag(s.iv) / lo),
				  s.dep | b.dep);
		}
		Expr a = plain_v(g, n, d - 1), s = safe_div(g, gen_f(g, d - 1));
		COVB(g, DIV_APPROX_V);
		return ex(S("wp.div_approx(", a.s, ", ", s.s, ")"), t, P_ATOM,
			  iv_sym(iv_mag(a.iv) / fmin(fabs(s.iv.lo), fabs(s.iv.hi))), a.dep | s.dep);
	}
	case 5: {
		Expr a = plain_v(g, n, d - 1), b, s = named_f(g, d - 1, 1.0);
		if (!ex_second_vm(g, a, d - 1, &b) || (ex_is_ctor(a) && ex_is_ctor(b)))
			b = no_ctor(g, t, d - 1);
		COVB(g, LERP_V);
		return ex(S("wp.lerp(", a.s, ", ", b.s, ", ", s.s, ")"), t, P_ATOM,
			  iv_sym(iv_mag(a.iv) + iv_mag(iv_sub(b.iv, a.iv))), a.dep | b.dep | s.dep);
	}
	case 6: {
		Expr a = plain_v(g, n, d - 1), b = gen_v(g, n, d - 1);
		COVB(g, MOD_V);
		COVB(g, ABS_V);
		COV(g, expr_vec_add);
		COV(g, expr_vec_fill);
		return ex(S("wp.mod(", a.s, ", wp.abs(", b.s, ") + wp.vec", ilit(g, n), "(1.0))"), t, P_ATOM,
			  iv_sym(fmin(iv_mag(a.iv), iv_mag(b.iv) + 1.0)), a.dep | b.dep);
	}
	case 7:
		return gen_v(g, n, d - 1);
	case 8:
	case 9: {
		Expr q = gen_q(g, d - 1), v = plain_v(g, 3, d - 1);
		if (r == 8)
			COVB(g, QUAT_ROTATE);
		else
			COVB(g, QUAT_ROTATE_INV);
		return ex(S(r == 8 ? "wp.quat_rotate(" : "wp.quat_rotate_inv(", q.s, ", ", v.s, ")"), t, P_ATOM,
			  iv_sym(SQRT3 * iv_mag(v.iv)), q.dep | v.dep);
	}
	case 10:
	case 11: {
		Expr x = gen_xf(g, d - 1), v = plain_v(g, 3, d - 1);
		if (r == 10) {
			COVB(g, TRANSFORM_POINT);
			return ex(S("wp.transform_point(", x.s, ", ", v.s, ")"), t, P_ATOM,
				  iv_sym(SQRT3 * iv_mag(v.iv) + iv_mag(x.iv)), x.dep | v.dep);
		}
		COVB(g, TRANSFORM_VECTOR);
		return ex(S("wp.transform_vector(", x.s, ", ", v.s, ")"), t, P_ATOM, iv_sym(SQRT3 * iv_mag(v.iv)),
			  x.dep | v.dep);
	}
	case 12: {
		Expr x = gen_xf(g, d - 1);
		COVB(g, TRANSFORM_GET_TRANSLATION);
		return ex(S("wp.transform_get_translation(", x.s, ")"), t, P_ATOM, x.iv, x.dep);
	}
	case 13: {
		Expr m = gen_m(g, 4, d - 1), v = plain_v(g, 3, d - 1);
		if (!named_ex(m))
			m = ex_dep_vm(g, T_M44, d - 1);
		if (ex_is_ctor(m) && ex_is_ctor(v))
			v = no_ctor(g, T_V3, d - 1);
		int pt = rnd(g, 2);
		if (pt)
			COVB(g, TRANSFORM_POINT_M);
		else
			COVB(g, TRANSFORM_VECTOR_M);
		return ex(S(pt ? "wp.transform_point(" : "wp.transform_vector(", m.s, ", ", v.s, ")"), t, P_ATOM,
			  iv_sym(iv_mag(m.iv) * (3 * iv_mag(v.iv) + 1)), m.dep | v.dep);
	}
	case 14:
	case 15: {
		Expr s = gen_sv(g, d - 1);
		if (r == 14)
			COVB(g, SPATIAL_TOP);
		else
			COVB(g, SPATIAL_BOTTOM);
		return ex(S(r == 14 ? "wp.spatial_top(" : "wp.spatial_bottom(", s.s, ")"), t, P_ATOM, s.iv, s.dep);
	}
	case 16: {
		Expr a = gen_v(g, 3, d - 1);
		for (int k = 0; k < 3 && !named_ex(a); k++)
			a = gen_v(g, 3, d - 1);
		a = squash(g, a, 4.0);
		COVB(g, SKEW);
		COV(g, expr_mat_vec);
		Expr b = plain_v(g, 3, d - 1);
		return ex(S("wp.skew(", a.s, ") * ", par(g, b, P_UNARY)), t, P_MUL,
			  iv_sym(2 * iv_mag(a.iv) * iv_mag(b.iv)), a.dep | b.dep);
	}
	case 17:
	case 18:
		return gen_v(g, n, d - 1);
	default: {
		/* clang-format off */
		static const char *const s2[] = {"wp.sample_triangle(", "wp.sample_unit_ring(", "wp.sample_unit_disk(",
						 "wp.sample_unit_square("};
		static const int b2[] = {GB_SAMPLE_TRIANGLE, GB_SAMPLE_UNIT_RING, GB_SAMPLE_UNIT_DISK, GB_SAMPLE_UNIT_SQUARE};
		static const char *const s3[] = {"wp.sample_unit_sphere_surface(", "wp.sample_unit_sphere(",
						 "wp.sample_unit_hemisphere_surface(", "wp.sample_unit_hemisphere(",
						 "wp.sample_unit_cube("};
		static const int b3[] = {GB_SAMPLE_UNIT_SPHERE_SURFACE, GB_SAMPLE_UNIT_SPHERE,
					 GB_SAMPLE_UNIT_HEMISPHERE_SURFACE, GB_SAMPLE_UNIT_HEMISPHERE, GB_SAMPLE_UNIT_CUBE};
		/* clang-format on */
		if (n == 4)
			return gen_v(g, n, d - 1);
		int k = n == 2 ? rnd(g, 4) : rnd(g, 5);
		g->cov->b[n == 2 ? b2[k] : b3[k]]++;
		return ex(S(n == 2 ? s2[k] : s3[k], g->rng, ")"), t, P_ATOM, iv_sym(1), DEP_VARY);
	}
	}
}

Expr lib_m(G *g, int n, int d)
{
	int t = MAT_OF(n);
	switch (rnd(g, 10)) {
	case 0:
	case 1: {
		Expr a = gen_m(g, n, d - 1), b;
		if (!named_ex(a))
			a = ex_dep_vm(g, t, d - 1);
		if (!ex_second_vm(g, a, d - 1, &b) || (ex_is_ctor(a) && ex_is_ctor(b)))
			b = no_ctor(g, t, d - 1);
		b = squash(g, b, 4.0);
		if (chance(g, 50)) {
			COVB(g, CW_MUL_M);
			return ex(S("wp.cw_mul(", a.s, ", ", b.s, ")"), t, P_ATOM, iv_mul(a.iv, b.iv),
				  a.dep | b.dep);
		}
		if (ex_is_ctor(b)) /* not wp.cw_mul(wp.mat22(...), wp.mat22(...)) */
			b = squash(g, no_ctor(g, t, d - 1), 4.0);
		COVB(g, CW_DIV_M);
		return ex(S("wp.cw_div(", a.s, ", ", off_zero_m(g, n, b), ")"), t, P_ATOM, a.iv, a.dep | b.dep);
	}
	case 2: {
		Expr v = plain_v(g, n, d - 1);
		COVB(g, DIAG);
		return ex(S("wp.diag(", v.s, ")"), t, P_ATOM, iv_hull(v.iv, iv_mk(0, 0)), v.dep);
	}
	case 3:
	case 4: {
		Expr v[4];
		const char *s = "";
		Iv iv = iv_mk(0, 0);
		int dep = 0;
		int nctor = 0; /* one constructor among the vectors at most */
		for (int k = 0; k < n; k++) {
			v[k] = gen_v(g, n, d - 1);
			for (int j = 0; j < 3 && (!named_ex(v[k]) || (nctor && ex_is_ctor(v[k]))); j++)
				v[k] = gen_v(g, n, d - 1);
			if (nctor && ex_is_ctor(v[k]))
				v[k] = no_ctor(g, VEC_OF(n), d - 1);
			nctor += ex_is_ctor(v[k]);
			s = APP(s, k ? ", " : "", v[k].s);
			iv = k ? iv_hull(iv, v[k].iv) : v[k].iv;
			dep |= v[k].dep;
		}
		static const int br[] = {GB_ROWS2, GB_ROWS3, GB_ROWS4}, bc[] = {GB_COLS2, GB_COLS3, GB_COLS4};
		int rows = rnd(g, 2);
		g->cov->b[rows ? br[n - 2] : bc[n - 2]]++;
		return ex(S(rows ? "wp.matrix_from_rows(" : "wp.matrix_from_cols(", s, ")"), t, P_ATOM, iv, dep);
	}
	case 5: {
		Expr a = gen_m(g, n, d - 1);
		for (int k = 0; k < 3 && ex_is_ctor(a); k++)
			a = gen_m(g, n, d - 1);
		double c = ceil(n * iv_mag(a.iv)) + 1.0;
		COV(g, expr_mat_add);
		COVB(g, INVERSE_APPROX);
		return ex(S("wp.inverse_approx(", a.s, " + ", ex_eye(g, n, c), ")"), t, P_ATOM, iv_sym(1.0), a.dep);
	}
	case 6: {
		if (chance(g, 30)) {
			/* a float over each element, the divisor at least 1 */
			Expr s = named_f(g, d - 1, 2.0), b = gen_m(g, n, d - 1);
			if (!named_ex(b))
				b = ex_dep_vm(g, t, d - 1);
			b = squash(g, b, 4.0);
			COVB(g, DIV_APPROX_SM);
			return ex(S("wp.div_approx(", s.s, ", ", off_zero_m(g, n, b), ")"), t, P_ATOM,
				  iv_sym(iv_mag(s.iv)), s.dep | b.dep);
		}
		Expr a = gen_m(g, n, d - 1), s = safe_div(g, gen_f(g, d - 1));
		if (!named_ex(a))
			a = ex_dep_vm(g, t, d - 1);
		COVB(g, DIV_APPROX_M);
		return ex(S("wp.div_approx(", a.s, ", ", s.s, ")"), t, P_ATOM,
			  iv_sym(iv_mag(a.iv) / fmin(fabs(s.iv.lo), fabs(s.iv.hi))), a.dep | s.dep);
	}
	case 7: {
		Expr a = gen_m(g, n, d - 1), b, s = named_f(g, d - 1, 1.0);
		if (!named_ex(a))
			a = ex_dep_vm(g, t, d - 1);
		if (!ex_second_vm(g, a, d - 1, &b) || (ex_is_ctor(a) && ex_is_ctor(b)))
			b = no_ctor(g, t, d - 1);
		COVB(g, LERP_M);
		return ex(S("wp.lerp(", a.s, ", ", b.s, ", ", s.s, ")"), t, P_ATOM,
			  iv_sym(iv_mag(a.iv) + iv_mag(iv_sub(b.iv, a.iv))), a.dep | b.dep | s.dep);
	}
	case 8:
		if (n == 3) {
			Expr q = gen_q(g, d - 1);
			COVB(g, QUAT_TO_MATRIX);
			return ex(S("wp.quat_to_matrix(", q.s, ")"), t, P_ATOM, iv_sym(1), q.dep);
		}
		/* fall through */
	default:
		if (n == 3) {
			Expr a = gen_v(g, 3, d - 1);
			for (int k = 0; k < 3 && !named_ex(a); k++)
				a = gen_v(g, 3, d - 1);
			COVB(g, SKEW);
			return ex(S("wp.skew(", a.s, ")"), t, P_ATOM, iv_hull(a.iv, iv_neg(a.iv)), a.dep);
		}
		return gen_m(g, n, d - 1);
	}
}
