/*
 * stmt.c: statements, helper functions and whole kernels.
 *
 * A kernel is: its parameters (inputs, read anywhere; outputs, read and
 * written by each thread at its own index i only; accumulators, written
 * only through atomics and never read), `i = wp.tid()`, a body drawn with
 * the category's weights (at least one statement of the kinds the
 * category promises), and a final store into every output.
 *
 * Intervals through control flow: a variable assigned in the block that
 * declared it takes the new value's interval; assigned in a nested block,
 * the union with the old one.  In a loop, a variable from outside the loop
 * may change only if the loop declared it carried (its interval widened to
 * an envelope [-B, B] on entry, every update written to stay inside it:
 * v = c * v + e with |c| <= 0.75, v *= c, v = B * wp.tanh(e)) or is an
 * accumulator the loop declared (acc += e, |e| bounded so that the trip
 * count times |e| stays within the accumulator's interval).
 */
#include <math.h>
#include <string.h>

#include "gen/gen_int.h"

#define NMAX 16777216.0

/* ---- words --------------------------------------------------------------- */

/* clang-format off */
static const char *const kw_a[] = {
	"damped", "smooth", "scaled", "fused", "blended", "clipped", "weighted", "masked",
	"local", "soft", "normalized", "periodic", "signed", "sparse", "shifted", "banded",
	"warped", "implicit", "explicit", "relaxed", "filtered", "mirrored", "stable", "coarse",
	"fine", "radial", "linear", "cubic", "adaptive", "leaky", "biased", "jittered"};
static const char *const kw_n[] = {
	"spring", "density", "wave", "particle", "field", "grid", "edge", "heat",
	"pressure", "contact", "velocity", "charge", "cloth", "fluid", "ray", "light",
	"signal", "noise", "terrain", "vortex", "mass", "energy", "flux", "stress",
	"strain", "orbit", "pulse", "spline", "kernel", "sample", "tile", "voxel"};
static const char *const kw_v[] = {
	"force", "update", "step", "sum", "accumulate", "integrate", "project", "reduce",
	"filter", "splat", "gather", "scatter", "blend", "eval", "advect", "relax",
	"solve", "transfer", "resample", "decay", "warp", "clamp", "rescale", "correct"};
static const char *const hw[] = {
	"smoothstep", "falloff", "lerp_to", "wrap_index", "soft_clip", "response", "penalty",
	"bump", "kernel_weight", "envelope", "squash", "shape_fn", "ramp", "damping",
	"attenuate", "profile", "blend_pair", "split_parts", "polar", "deposit", "fetch",
	"mix_vec", "reflect_off", "shade", "potential", "gauss"};
static const char *const fw[] = {
	"vel", "accum", "weight", "scale", "damp", "energy", "phase", "offset", "bias", "gain",
	"temp", "dist", "rate", "mass", "alpha", "beta", "theta", "speed", "decay", "score",
	"level", "ratio", "delta", "flux", "heat", "drag", "lift", "spin", "slope", "span",
	"h", "t", "u", "w", "s", "val", "acc", "prev", "err", "res", "coef", "amp", "freq"};
static const char *const iw[] = {"count", "idx", "slot", "bucket", "hits", "lane", "row", "col",
				 "cell", "bin", "rank", "tick", "nb", "src_idx", "q", "r", "key"};
static const char *const bw[] = {"inside", "active", "hit", "done", "valid", "near", "flag", "is_pos", "ok"};
static const char *const vw[] = {"pos", "dir", "vel", "axis", "normal", "up", "tangent", "offs",
				 "color", "grad", "p", "q", "edge", "force", "d", "c", "mid", "step_v"};
static const char *const mw[] = {"rot", "basis", "frame", "jac", "cov", "stress", "strain",
				 "xform", "hess", "a", "b", "m", "k_mat", "inertia"};
static const char *const aw_in[] = {"xs", "vals", "data", "src", "samples", "heights", "inp",
				    "a", "b", "u", "v", "w", "mass", "temp", "phase", "rho"};
static const char *const aw_vin[] = {"points", "pos", "vel", "normals", "dirs", "verts", "colors", "forces"};
static const char *const aw_min[] = {"rots", "frames", "mats", "jacobians", "basis", "tensors"};
static const char *const aw_iin[] = {"keys", "nbrs", "ids", "links", "perm", "cells", "other", "bins"};
static const char *const aw_out[] = {"out", "result", "dst", "y", "res", "energy_out", "grad", "value",
				     "pos_out", "flags", "counts", "accum", "total", "hist", "sums", "field"};
static const char *const sw_f[] = {"alpha", "scale", "dt", "eps", "gain", "k", "stiffness", "damping", "bias", "c0"};
static const char *const sw_n[] = {"n", "count", "num", "size", "length", "n_items"};
static const char *const lw[] = {"j", "k", "m", "t", "s", "it", "step", "p", "l"};
static const char *const cw[] = {"iters", "steps", "k_iter", "tries", "rounds", "passes"};
/* clang-format on */

/* ---- profiles: statement and expression weights per category ------------ */

/*                      ASSIGN AUG IF FOR WHILE COMP STORE ATOMIC CALL RET REASSIGN */
/* percent of kernels with a random state (rng = wp.rand_init(...)) */
#define RAND_PCT 15

static const Prof prof[NCAT] = {
	[CAT_ARITHMETIC] = {{10, 4, 1, 0, 0, 0, 2, 0, 0, 0, 2}, {4, 9, 0, 0, 0, 0, 0, 1, 2}, 0, 0, 30},
	[CAT_MATH] = {{10, 2, 1, 0, 0, 0, 2, 0, 0, 0, 1}, {3, 4, 9, 0, 0, 0, 0, 2, 0}, 0, 0, 5},
	[CAT_VECTOR] = {{8, 3, 1, 0, 0, 4, 2, 0, 0, 0, 1}, {4, 3, 1, 6, 0, 0, 0, 1, 0}, 70, 0, 5},
	[CAT_MATRIX] = {{8, 2, 1, 0, 0, 3, 2, 0, 0, 0, 1}, {4, 3, 1, 2, 5, 0, 0, 1, 0}, 30, 50, 0},
	[CAT_CONTROL_FLOW] = {{6, 2, 4, 0, 0, 1, 3, 0, 0, 2, 2}, {4, 4, 1, 0, 0, 4, 0, 2, 0}, 10, 0, 20},
	[CAT_LOOP] = {{5, 3, 2, 8, 3, 0, 2, 0, 0, 0, 1}, {4, 4, 2, 0, 0, 1, 0, 1, 0}, 10, 0, 20},
	[CAT_ATOMIC] = {{5, 2, 2, 1, 0, 0, 1, 8, 0, 0, 1}, {4, 4, 1, 0, 0, 1, 0, 1, 0}, 15, 0, 20},
	[CAT_FUNCTION] = {{5, 2, 1, 1, 0, 0, 2, 0, 7, 0, 1}, {4, 4, 1, 0, 0, 0, 6, 1, 0}, 20, 0, 10},
	[CAT_INPLACE] = {{4, 10, 1, 1, 0, 5, 6, 0, 0, 0, 3}, {4, 4, 1, 0, 0, 1, 0, 1, 0}, 30, 10, 20},
	[CAT_COMBINED] = {{6, 3, 3, 3, 1, 2, 2, 2, 2, 1, 1}, {4, 4, 3, 2, 1, 1, 2, 1, 1}, 25, 10, 15},
};

/* ---- variables ------------------------------------------------------------ */

static Var *add_var(G *g, const char *name, int ty, int kind, Iv iv, int dep, int idx)
{
	if (g->nv >= MAXV)
		ks_fatal("internal: too many variables");
	int x = g->nv++;
	Var *v = &g->v[x];
	uint64_t bit = 1ULL << (x & 63);
	for (int t = 0; t < NTY; t++)
		g->vmask[t][x >> 6] &= ~bit;
	g->amask[x >> 6] &= ~bit;
	if (kind == GV_ARRAY)
		g->amask[x >> 6] |= bit;
	else
		g->vmask[ty][x >> 6] |= bit;
	memset(v, 0, sizeof *v);
	SCAT(v->name, sizeof v->name, name);
	v->ty = (unsigned char)ty;
	v->kind = (unsigned char)kind;
	v->iv = iv;
	v->dep = (unsigned char)dep;
	v->idx = (unsigned char)idx;
	v->alive = 1;
	v->loop = g->loop;
	v->blk = g->blk;
	return v;
}

/* Word lists by type: float, int, bool, vector, matrix. */
typedef struct Words {
	const char *const *w;
	int n;
} Words;
/* clang-format off */
#define WORDS(a) {a, (int)KS_NELEM(a)}
/* clang-format on */

static void name_by_type(G *g, char *dst, int ty, const Words *w)
{
	int k = ty == T_F ? 0 : ty == T_I ? 1 : ty == T_B ? 2 : IS_VEC(ty) ? 3 : 4;
	newname(g, dst, w[k].w, w[k].n);
}

static void fresh(G *g, char *dst, int ty)
{
	static const Words w[5] = {WORDS(fw), WORDS(iw), WORDS(bw), WORDS(vw), WORDS(mw)};
	name_by_type(g, dst, ty, w);
}

/* A variable this statement may assign freely (not carried by a loop). */
static Var *pick_mod(G *g, int ty)
{
	int c[MAXV], n = 0;
	for (int i = 0; i < g->nv; i++) {
		Var *v = &g->v[i];
		if (!v->alive || v->kind != GV_LOCAL || v->acc || v->count || v->carried)
			continue;
		if ((ty >= 0 && v->ty != ty) || (ty < 0 && v->ty == T_B))
			continue;
		if (v->loop != g->loop)
			continue;
		c[n++] = i;
	}
	return n ? &g->v[c[rnd(g, n)]] : NULL;
}

static void set_iv(G *g, Var *v, Expr e)
{
	if (v->blk == g->blk) {
		v->iv = e.iv;
		v->idx = e.idx;
		v->dep = e.dep;
	} else {
		v->iv = iv_hull(v->iv, e.iv);
		v->idx &= e.idx;
		v->dep |= e.dep;
	}
}

static int blk_begin(G *g)
{
	g->ind++;
	g->blk++;
	return g->nv;
}

static void blk_end(G *g, int mark)
{
	for (int i = mark; i < g->nv; i++)
		g->v[i].alive = 0;
	g->ind--;
	g->blk--;
}

static int new_type(G *g)
{
	int vp = g->p->vec * g->k->vec_pct / 30, mp = g->p->mat * g->k->vec_pct / 30;
	int ip = g->p->intv * g->k->int_pct / 20;
	int r = rnd(g, 100);
	if (r < vp)
		return chance(g, 70) ? VEC_OF(g->vecn) : VEC_OF(2 + rnd(g, 3));
	r -= vp;
	if (r < mp)
		return MAT_OF(chance(g, 60) ? 3 : 2 + rnd(g, 3));
	r -= mp;
	if (r < ip)
		return T_I;
	if (r < ip + 4)
		return T_B;
	return T_F;
}

static int edepth(G *g) { return 1 + rnd(g, g->k->depth > 0 ? g->k->depth : 1); }

/* ---- statements ------------------------------------------------------------- */

static void stmt(G *g, int nest);
static void stmts(G *g, int n, int nest);
static void st_decomp(G *g, int ty);

static void st_assign(G *g)
{
	int ty = new_type(g);
	if ((ty == T_M33 || ty == T_M22) && chance(g, 10)) {
		st_decomp(g, ty);
		return;
	}
	Expr e = gen_ty(g, ty, edepth(g));
	if (ty != T_B && !e.dep && chance(g, 70))
		e = with_dep(g, e);
	if ((ty == T_F || ty == T_I) && e.prec == P_ATOM && !e.dep && chance(g, 50)) {
		g->cov->c[ty == T_F ? GC_expr_conv_float : GC_expr_conv_int]++;
		e.s = S(ty == T_F ? "float(" : "int(", e.s, ")");
	}
	char name[28];
	fresh(g, name, ty);
	cov_type(g, ty);
	COV(g, stmt_assign);
	L(name, " = ", e.s);
	add_var(g, name, ty, GV_LOCAL, e.iv, e.dep, e.idx)->lit = is_lit(e.s);
}

/* A name from the one-word LIST, registered as a variable of type TY that
 * no later term reads (a factor whose sign Warp leaves open). */
static void hidden(G *g, char *dst, const char *const *list, int n, int ty)
{
	newname(g, dst, list, n);
	add_var(g, dst, ty, GV_LOCAL, iv_sym(1.0), 1, 0)->alive = 0;
}

/* A decomposition of a matrix whose singular values lie apart
 * (near_diag), kept to what does not depend on the choices Warp leaves to
 * its algorithm (doc/warp-differences.md, 5): of svd3 and svd2 the polar
 * rotation U V^T and the singular values; of eig3 a function of the
 * symmetric matrix F^T F, Q diag(f(d)) Q^T; both factors of qr3 (of I plus
 * a small matrix, R's diagonal positive). */
static void st_decomp(G *g, int ty)
{
	/* clang-format off */
	static const char *const un[] = {"U"}, *const vn[] = {"V"}, *const sn[] = {"sigma"},
			       *const qn[] = {"Q"}, *const rn[] = {"R"}, *const dn[] = {"lam"},
			       *const fn[] = {"F"};
	/* clang-format on */
	static const double d3[] = {3.0, 2.0, 1.0}, d2[] = {2.0, 1.0}, d1[] = {1.0, 1.0, 1.0};
	int n = TY_N(ty), dep, form = n == 2 ? 0 : rnd(g, 3);
	int d = edepth(g) - 1;
	char u[28], v[28], sg[28], r[28];
	const char *sv = n == 3 ? "wp.svd3(" : "wp.svd2(";
	COV(g, stmt_tuple_unpack);
	cov_type(g, ty);
	if (form == 0) {
		const char *a = near_diag(g, n, d, n == 3 ? d3 : d2, 0.4, &dep);
		hidden(g, u, un, 1, ty);
		newname(g, sg, sn, 1);
		hidden(g, v, vn, 1, ty);
		if (n == 3)
			COVB(g, SVD3);
		else
			COVB(g, SVD2);
		L(u, ", ", sg, ", ", v, " = ", sv, a, ")");
		add_var(g, sg, VEC_OF(n), GV_LOCAL, iv_mk(0.6, n + 0.4), dep, 0);
		fresh(g, r, ty);
		COVB(g, TRANSPOSE);
		COV(g, expr_mat_mat);
		COV(g, stmt_assign);
		L(r, " = ", u, " * wp.transpose(", v, ")");
		add_var(g, r, ty, GV_LOCAL, iv_sym(1.0), dep, 0);
		return;
	}
	if (form == 1) {
		/* the eigenvalues of F^T F are the squared singular values of F,
		 * in [0.36, 11.6] and apart */
		char f[28], q[28], l[28];
		const char *a = near_diag(g, 3, d, d3, 0.4, &dep);
		newname(g, f, fn, 1);
		COV(g, stmt_assign);
		L(f, " = ", a);
		add_var(g, f, ty, GV_LOCAL, iv_sym(4.0), dep, 0);
		hidden(g, q, qn, 1, ty);
		hidden(g, l, dn, 1, T_V3);
		COVB(g, EIG3);
		COVB(g, TRANSPOSE);
		COV(g, expr_mat_mat);
		L(q, ", ", l, " = wp.eig3(wp.transpose(", f, ") * ", f, ")");
		/* sqrt: the right stretch tensor; log: twice the Hencky strain */
		int lg = chance(g, 50);
		const char *fl = lg ? "wp.log(" : "wp.sqrt(", *e = "";
		for (int k = 0; k < 3; k++)
			e = APP(e, k ? ", " : "", fl, l, "[", ilit(g, k), "])");
		COVB(g, DIAG);
		COV(g, expr_vec_ctor);
		COV(g, expr_vec_index);
		fresh(g, r, ty);
		COV(g, stmt_assign);
		L(r, " = ", q, " * wp.diag(wp.vec3(", e, ")) * wp.transpose(", q, ")");
		add_var(g, r, ty, GV_LOCAL, iv_sym(lg ? 2.5 : 3.5), dep, 0);
		return;
	}
	const char *a = near_diag(g, 3, d, d1, 0.5, &dep);
	newname(g, u, qn, 1);
	newname(g, r, rn, 1);
	COVB(g, QR3);
	L(u, ", ", r, " = wp.qr3(", a, ")");
	add_var(g, u, ty, GV_LOCAL, iv_sym(1.0), dep, 0);
	add_var(g, r, ty, GV_LOCAL, iv_sym(2.0), dep, 0);
}

/* v op= e for a freely assignable variable. */
static void st_aug(G *g)
{
	Var *v = pick_mod(g, -1);
	if (!v) {
		st_assign(g);
		return;
	}
	int ty = v->ty;
	Iv r;
	if (ty == T_F) {
		int k = rnd(g, 12);
		if (k < 4 || iv_mag(v->iv) > 32) {
			Expr e = gen_f(g, edepth(g));
			if (iv_mag(v->iv) > 32) {
				e = squash(g, e, 0.9);
				COV(g, stmt_aug_mul);
				L(v->name, " *= ", e.s);
				r = iv_mk(-iv_mag(v->iv) * 0.9, iv_mag(v->iv) * 0.9);
			} else {
				e = squash(g, e, 16.0);
				int add = chance(g, 50);
				g->cov->c[add ? GC_stmt_aug_add : GC_stmt_aug_sub]++;
				L(v->name, add ? " += " : " -= ", e.s);
				r = add ? iv_mk(v->iv.lo + e.iv.lo, v->iv.hi + e.iv.hi)
					: iv_mk(v->iv.lo - e.iv.hi, v->iv.hi - e.iv.lo);
			}
		} else if (k < 7) {
			Expr e = squash(g, gen_f(g, edepth(g)), 2.0);
			COV(g, stmt_aug_mul);
			L(v->name, " *= ", e.s);
			r = iv_sym(iv_mag(v->iv) * 2.0);
		} else if (k < 10) {
			Expr e = safe_div(g, gen_f(g, edepth(g)));
			COV(g, stmt_aug_div);
			L(v->name, " /= ", e.s);
			r = iv_sym(iv_mag(v->iv) / fmin(fabs(e.iv.lo), fabs(e.iv.hi)));
		} else if (k == 10) {
			static const char *const d[] = {"0.5", "0.25", "2.0", "0.75"};
			static const double dv[] = {0.5, 0.25, 2.0, 0.75};
			int j = rnd(g, 4);
			COV(g, stmt_aug_div); /* floats divide; // is for ints */
			L(v->name, " /= ", d[j]);
			r = iv_sym(iv_mag(v->iv) / dv[j]);
		} else {
			static const char *const d[] = {"0.7", "1.5", "0.3", "2.0"};
			static const double dv[] = {0.7, 1.5, 0.3, 2.0};
			int j = rnd(g, 4);
			COV(g, stmt_aug_mod);
			L(v->name, " %= ", d[j]);
			r = iv_sym(dv[j]);
		}
	} else if (ty == T_I) {
		int k = rnd(g, 6);
		if (k < 3) {
			Expr e = squash_int(g, gen_i(g, edepth(g) - 1), 1000);
			if (iv_mag(v->iv) > 1e8) {
				COV(g, stmt_aug_mod);
				L(v->name, " %= 7");
				r = iv_mk(v->iv.lo < 0 ? -6 : 0, 6);
			} else if (k < 2) {
				COV(g, stmt_aug_add);
				L(v->name, " += ", e.s);
				r = iv_mk(v->iv.lo + e.iv.lo, v->iv.hi + e.iv.hi);
			} else {
				COV(g, stmt_aug_sub);
				L(v->name, " -= ", e.s);
				r = iv_mk(v->iv.lo - e.iv.hi, v->iv.hi - e.iv.lo);
			}
		} else if (k == 3 && iv_mag(v->iv) < 1e6) {
			int c = 2 + rnd(g, 3);
			COV(g, stmt_aug_mul);
			L(v->name, " *= ", ilit(g, c));
			r = iv_mk(v->iv.lo * c, v->iv.hi * c);
		} else if (k == 4) {
			int c = 2 + rnd(g, 4);
			COV(g, stmt_aug_floordiv);
			L(v->name, " //= ", ilit(g, c));
			r = v->iv;
			if (r.lo > 0)
				r.lo = 0;
		} else {
			int c = 2 + rnd(g, 6);
			COV(g, stmt_aug_mod);
			L(v->name, " %= ", ilit(g, c));
			r = iv_mk(v->iv.lo < 0 ? -(c - 1) : 0, v->iv.hi > 0 ? c - 1 : 0);
		}
	} else if (IS_VEC(ty) || IS_MAT(ty)) {
		int n = TY_N(ty);
		if (chance(g, 35) || iv_mag(v->iv) > 16) {
			Expr s = squash(g, gen_f(g, edepth(g) - 1), iv_mag(v->iv) > 16 ? 0.9 : 2.0);
			COV(g, stmt_aug_mul);
			L(v->name, " *= ", s.s);
			r = iv_sym(iv_mag(v->iv) * iv_mag(s.iv));
		} else {
			Expr e = squash(g, IS_VEC(ty) ? gen_v(g, n, edepth(g) - 1) : gen_m(g, n, edepth(g) - 1),
					16.0);
			int add = chance(g, 60);
			g->cov->c[add ? GC_stmt_aug_add : GC_stmt_aug_sub]++;
			L(v->name, add ? " += " : " -= ", e.s);
			r = iv_sym(iv_mag(v->iv) + iv_mag(e.iv));
		}
	} else {
		st_assign(g);
		return;
	}
	Expr e = ex("", ty, P_ATOM, r, 1);
	e.idx = 0;
	set_iv(g, v, e);
	v->dep |= DEP_INPUT;
}

static void st_reassign(G *g)
{
	Var *v = pick_mod(g, -1);
	if (!v) {
		st_assign(g);
		return;
	}
	Expr e = gen_ty(g, v->ty, edepth(g));
	for (int t = 0; t < 3 && !strcmp(e.s, v->name); t++) /* not x = x */
		e = gen_ty(g, v->ty, edepth(g));
	if (!e.dep || !strcmp(e.s, v->name))
		e = with_dep(g, e);
	if (!strcmp(e.s, v->name)) {
		st_assign(g);
		return;
	}
	COV(g, stmt_assign);
	L(v->name, " = ", e.s);
	set_iv(g, v, e);
}

/* v[k] = e, v.x = e, m[r, c] = e, m[r] = row */
static void st_comp(G *g)
{
	Var *v = NULL;
	for (int t = 0; t < 4 && !v; t++) {
		int ty = chance(g, 60)   ? VEC_OF(g->vecn)
			 : chance(g, 50) ? VEC_OF(2 + rnd(g, 3))
					 : MAT_OF(2 + rnd(g, 3));
		v = pick_mod(g, ty);
	}
	if (!v) {
		/* make one to update */
		int ty = chance(g, 70) ? VEC_OF(g->vecn) : MAT_OF(2 + rnd(g, 3));
		Expr e;
		if (IS_MAT(ty) && chance(g, 40)) { /* a zero matrix, filled below */
			COV(g, expr_mat_zero);
			e = ex(S("wp.mat", ilit(g, TY_N(ty)), ilit(g, TY_N(ty)), "()"), ty, P_ATOM, iv_mk(0, 0), 0);
		} else
			e = gen_ty(g, ty, edepth(g));
		char name[28];
		fresh(g, name, ty);
		cov_type(g, ty);
		COV(g, stmt_assign);
		L(name, " = ", e.s);
		v = add_var(g, name, ty, GV_LOCAL, e.iv, e.dep, 0);
		g->sp = 0;
	}
	int n = TY_N(v->ty);
	Expr e;
	if (IS_VEC(v->ty)) {
		int k = rnd(g, n);
		e = squash(g, gen_f(g, edepth(g)), 16.0);
		if (chance(g, 50)) {
			static const char *const comp[] = {".x", ".y", ".z", ".w"};
			COV(g, stmt_vec_attr_store);
			L(v->name, comp[k], " = ", e.s);
		} else {
			COV(g, stmt_vec_index_store);
			L(v->name, "[", ilit(g, k), "] = ", e.s);
		}
	} else if (chance(g, 70)) {
		e = squash(g, gen_f(g, edepth(g)), 16.0);
		COV(g, stmt_mat_elem_store);
		int col = rnd(g, n), row = rnd(g, n); /* drawn in turn, not as two arguments */
		L(v->name, "[", ilit(g, row), ", ", ilit(g, col), "] = ", e.s);
	} else {
		e = squash(g, gen_v(g, n, edepth(g) - 1), 16.0);
		COV(g, stmt_mat_row_store);
		L(v->name, "[", ilit(g, rnd(g, n)), "] = ", e.s);
	}
	v->iv = iv_hull(v->iv, e.iv);
	v->dep |= e.dep;
}

/* A store into an output at the thread's own index. */
static void st_store(G *g, Var *a, int top)
{
	if (!a)
		a = pick_arr(g, -1, R_OUT);
	if (!a)
		return;
	int t = a->ty;
	int k = rnd(g, 10);
	if (top || k < 6 || t == T_B) {
		Expr e = gen_ty(g, t, edepth(g));
		/* an output's final value changes with the inputs' values */
		for (int r = 0; top && r < 3 && !(e.dep & DEP_SEED); r++)
			e = gen_ty(g, t, edepth(g));
		if (!e.dep)
			e = with_dep(g, e);
		if (top && !(e.dep & DEP_SEED))
			e = with_seed(g, e);
		if (t == T_I && chance(g, 30) && !e.idx) {
			/* an int output is often a clamped bucket */
			e = squash_int(g, e, 1 << 20);
		}
		COV(g, stmt_array_store);
		L(a->name, "[i] = ", e.s);
		a->iv = iv_hull(a->iv, e.iv);
		a->idx &= e.idx;
		if (top && g->blk == 1)
			a->stored = 1;
		return;
	}
	if (k < 8 || IS_MAT(t)) {
		/* read, compute, write: contractive inside loops */
		if (t == T_F && chance(g, 50)) {
			Expr e = safe_div(g, gen_f(g, edepth(g) - 1));
			if (g->loop && fmin(fabs(e.iv.lo), fabs(e.iv.hi)) < 1.0 && !named_ex(e)) {
				e = ex("2.0", T_F, P_ATOM, iv_mk(2, 2), 0);
			} else if (g->loop && fmin(fabs(e.iv.lo), fabs(e.iv.hi)) < 1.0) {
				COV(g, expr_add);
				e = ex(S("1.0 + ", abs_text(g, e.s, GB_ABS_F)), T_F, P_ADD,
				       iv_mk(1, 1 + iv_mag(e.iv)), e.dep);
			}
			COV(g, stmt_array_read_modify_write);
			L(a->name, "[i] /= ", e.s);
			a->iv = iv_hull(a->iv, iv_sym(iv_mag(a->iv) / fmin(fabs(e.iv.lo), fabs(e.iv.hi))));
		} else if (t == T_I) {
			int c = 2 + rnd(g, 3);
			COV(g, stmt_array_read_modify_write);
			L(a->name, "[i] %= ", ilit(g, c));
			a->iv = iv_hull(a->iv, iv_mk(0, c - 1));
		} else {
			Expr s = squash(g, gen_f(g, edepth(g) - 1), g->loop ? 1.0 : 2.0);
			COV(g, stmt_array_read_modify_write);
			L(a->name, "[i] *= ", s.s);
			a->iv = iv_hull(a->iv, iv_sym(iv_mag(a->iv) * iv_mag(s.iv)));
		}
		a->idx = 0;
		return;
	}
	/* += / -= at the own index: atomic syntax, deterministic */
	Expr e = t == T_I ? squash_int(g, gen_i(g, edepth(g) - 1), 4) : squash(g, gen_ty(g, t, edepth(g) - 1), 2.0);
	int add = chance(g, 60);
	g->cov->c[add ? GC_stmt_array_atomic_add : GC_stmt_array_atomic_sub]++;
	L(a->name, "[i]", add ? " += " : " -= ", e.s);
	double m = iv_mag(e.iv) * g->trip;
	a->iv = iv_mk(a->iv.lo - m, a->iv.hi + m);
	a->idx = 0;
}

/* Atomics into an accumulator (any index), or at the own index of an
 * output with the old value used. */
static void st_atomic(G *g)
{
	Var *a = pick_arr(g, -1, R_ACC);
	Var *o = pick_arr(g, -1, R_OUT);
	if (o && (IS_MAT(o->ty) || o->ty == T_B))
		o = NULL;
	if (o && g->loop == 0 && !g->in_func && (!a || chance(g, 25))) {
		int t = o->ty;
		/* only add/sub: kdiff takes the old value of a thread's own
		 * element, never that of atomic_min/max */
		int mm = rnd(g, 2);
		/* clang-format off */
		static const char *const fn[] = {"wp.atomic_add(", "wp.atomic_sub(", "wp.atomic_min(", "wp.atomic_max("};
		Expr e = t == T_I ? squash_int(g, gen_i(g, edepth(g) - 1), 16) : squash(g, gen_ty(g, t, edepth(g) - 1), 4.0);
		static const int bf[4] = {GB_ATOMIC_ADD, GB_ATOMIC_SUB, GB_ATOMIC_MIN, GB_ATOMIC_MAX};
		static const int bi[4] = {GB_ATOMIC_ADD, GB_ATOMIC_SUB, GB_ATOMIC_MIN, GB_ATOMIC_MAX};
		static const int bv[2] = {GB_ATOMIC_ADD, GB_ATOMIC_SUB};
		/* clang-format on */
		g->cov->b[t == T_F ? bf[mm] : t == T_I ? bi[mm] : bv[mm]]++;
		char name[28];
		NEWNAME(g, name, ((const char *const[]){"old", "prev", "before", "last"}));
		cov_type(g, t);
		COV(g, stmt_assign);
		L(name, " = ", fn[mm], o->name, ", i, ", e.s, ")");
		add_var(g, name, t, GV_LOCAL, o->iv, 1, o->idx);
		double m = iv_mag(e.iv);
		o->iv = iv_hull(o->iv, mm < 2 ? iv_mk(o->iv.lo - m, o->iv.hi + m) : e.iv);
		o->idx = 0;
		return;
	}
	if (!a) {
		st_store(g, NULL, 0);
		return;
	}
	int t = a->ty;
	Expr j = gen_idx(g, 2);
	Expr e;
	if (t == T_I) {
		int k = (int)(64.0 / g->trip);
		e = squash_int(g, gen_i(g, edepth(g) - 1), k < 1 ? 1 : k);
	} else
		e = squash(g, gen_ty(g, t, edepth(g)), 8.0);
	int r = rnd(g, IS_VEC(t) || IS_MAT(t) ? 4 : 6);
	/* one family per array: add/sub, or min, or max (doc/autodiff.md) */
	if (a->afam == 1 && r >= 4)
		r = rnd(g, 4);
	else if (a->afam >= 2)
		r = a->afam + 2;
	a->afam = (unsigned char)(r < 4 ? 1 : r - 2);
	switch (r) {
	case 0:
		g->cov->b[t == T_F    ? GB_ATOMIC_ADD
			  : t == T_I  ? GB_ATOMIC_ADD
			  : IS_MAT(t) ? GB_ATOMIC_ADD
				      : GB_ATOMIC_ADD]++;
		COV(g, stmt_call);
		L("wp.atomic_add(", a->name, ", ", j.s, ", ", e.s, ")");
		break;
	case 1:
		g->cov->b[t == T_F    ? GB_ATOMIC_SUB
			  : t == T_I  ? GB_ATOMIC_SUB
			  : IS_MAT(t) ? GB_ATOMIC_SUB
				      : GB_ATOMIC_SUB]++;
		COV(g, stmt_call);
		L("wp.atomic_sub(", a->name, ", ", j.s, ", ", e.s, ")");
		break;
	case 2:
		COV(g, stmt_array_atomic_add);
		L(a->name, "[", j.s, "] += ", e.s);
		break;
	case 3:
		COV(g, stmt_array_atomic_sub);
		L(a->name, "[", j.s, "] -= ", e.s);
		break;
	case 4:
		g->cov->b[t == T_F ? GB_ATOMIC_MIN : GB_ATOMIC_MIN]++;
		COV(g, stmt_call);
		L("wp.atomic_min(", a->name, ", ", j.s, ", ", e.s, ")");
		break;
	default:
		g->cov->b[t == T_F ? GB_ATOMIC_MAX : GB_ATOMIC_MAX]++;
		COV(g, stmt_call);
		L("wp.atomic_max(", a->name, ", ", j.s, ", ", e.s, ")");
		break;
	}
}

static void st_if(G *g, int nest)
{
	Expr c = gen_b(g, 1 + rnd(g, 2));
	COV(g, stmt_if);
	L("if ", c.s, ":");
	g->sp = 0;
	int mark = blk_begin(g);
	stmts(g, 1 + rnd(g, 3), nest - 1);
	blk_end(g, mark);
	/* one elif at most: each condition further down a chain is reached
	 * by fewer threads, and no branch is pass alone */
	if (chance(g, 20)) {
		c = gen_b(g, 1);
		COV(g, stmt_elif);
		L("elif ", c.s, ":");
		g->sp = 0;
		mark = blk_begin(g);
		stmts(g, 1 + rnd(g, 2), nest - 1);
		blk_end(g, mark);
	}
	if (chance(g, 50)) {
		COV(g, stmt_else);
		L("else:");
		mark = blk_begin(g);
		stmts(g, 1 + rnd(g, 2), nest - 1);
		blk_end(g, mark);
	}
}

/* An update that keeps a carried variable inside its envelope [-B, B]. */
static void st_carried(G *g, Var *v)
{
	double B = v->iv.hi;
	if (v->ty == T_I) {
		/* an index walk: stays in [0, n) */
		Expr j = gen_idx(g, 1);
		Var *a = pick_arr(g, T_I, R_IN);
		COV(g, stmt_assign);
		if (a && chance(g, 50)) {
			COV(g, expr_array_index);
			L(v->name, " = ", a->name, "[", v->name, "]");
		} else {
			COV(g, expr_int_add);
			COV(g, expr_int_mod);
			L(v->name, " = (", v->name, " + ", j.s, " + 1) % ", g->v[g->nvar].name);
		}
		return;
	}
	int n = TY_N(v->ty);
	switch (rnd(g, 4)) {
	case 0:
	case 1: {
		static const char *const c[] = {"0.5", "0.25", "0.75"};
		static const double cv[] = {0.5, 0.25, 0.75};
		int k = rnd(g, 3);
		Expr e =
			squash(g, v->ty == T_F ? gen_f(g, edepth(g)) : gen_v(g, n, edepth(g) - 1), (1 - cv[k]) * B);
		COV(g, stmt_assign);
		g->cov->c[v->ty == T_F ? GC_expr_mul : GC_expr_scalar_vec]++;
		g->cov->c[v->ty == T_F ? GC_expr_add : GC_expr_vec_add]++;
		L(v->name, " = ", c[k], " * ", v->name, " + ", par(g, e, P_MUL));
		break;
	}
	case 2: {
		static const char *const c[] = {"0.5", "0.9", "-0.5", "0.8"};
		COV(g, stmt_aug_mul);
		L(v->name, " *= ", PICK(g, c));
		break;
	}
	default:
		if (v->ty == T_F) {
			Expr e = gen_f(g, edepth(g));
			for (int t = 0; t < 3 && !named_ex(e); t++) /* not x = wp.tanh(0.25) */
				e = gen_f(g, edepth(g));
			if (!named_ex(e))
				e = ex(v->name, T_F, P_ATOM, v->iv, v->dep);
			e = tanh_arg(g, e);
			COV(g, stmt_assign);
			COVB(g, TANH);
			if (B >= 1.0)
				L(v->name, " = wp.tanh(", e.s, ")");
			else {
				COV(g, expr_mul);
				L(v->name, " = ", flit(g, floor(B * 100) / 100), " * wp.tanh(", e.s, ")");
			}
		} else {
			COV(g, stmt_aug_mul);
			L(v->name, " *= 0.5");
		}
	}
}

/* acc += e, within the accumulator's budget. */
static void st_accum(G *g, Var *v)
{
	double b = v->budget / (g->trip / v->trip);
	if (v->ty == T_I) {
		if (b < 1) {
			COV(g, stmt_pass);
			L("pass");
			return;
		}
		if (b >= 3 && chance(g, 40)) {
			Expr e = gen_idx(g, 1);
			COV(g, stmt_aug_add);
			COV(g, expr_int_mod);
			L(v->name, " += ", par(g, e, P_MUL), " % ", ilit(g, (int)fmin(b, 4.0)));
		} else {
			COV(g, stmt_aug_add);
			L(v->name, " += 1");
		}
		return;
	}
	int saved = v->alive;
	v->alive = 0;
	Expr e = squash(g, v->ty == T_F ? gen_f(g, edepth(g)) : gen_v(g, TY_N(v->ty), edepth(g) - 1), b);
	v->alive = (unsigned char)saved;
	int add = chance(g, 70);
	g->cov->c[add ? GC_stmt_aug_add : GC_stmt_aug_sub]++;
	L(v->name, add ? " += " : " -= ", e.s);
}

static Var *declare_acc(G *g, int ty, double T)
{
	char name[28];
	static const char *const fa[] = {"acc", "total", "sum_v", "energy", "mean", "partial", "run"};
	static const char *const ia[] = {"hits", "count", "n_hit", "tally", "seen"};
	static const char *const va[] = {"accum", "sum_vec", "centroid", "net", "drift"};
	double budget = ty == T_I ? 2 : 1.0;
	if (ty == T_F) {
		NEWNAME(g, name, fa);
		COV(g, expr_conv_float);
		L(name, " = float(0.0)");
	} else if (ty == T_I) {
		NEWNAME(g, name, ia);
		COV(g, expr_conv_int);
		L(name, " = int(0)");
		budget = 1;
	} else {
		NEWNAME(g, name, va);
		if (chance(g, 50)) {
			COV(g, expr_vec_zero);
			L(name, " = wp.vec", ilit(g, TY_N(ty)), "()");
		} else {
			COV(g, expr_vec_fill);
			L(name, " = wp.vec", ilit(g, TY_N(ty)), "(0.0)");
		}
	}
	COV(g, stmt_assign);
	cov_type(g, ty);
	double m = budget * T;
	Var *v = add_var(g, name, ty, GV_LOCAL, ty == T_I ? iv_mk(0, m) : iv_sym(m), 1, 0);
	v->acc = 1;
	v->budget = budget;
	v->trip = g->trip;
	return v;
}

/* The loop header: `for NAME in range(...)`, its trip bound and the loop
 * variable's interval. */
static const char *for_header(G *g, const char *name, double *trip, Iv *jv, int *jidx)
{
	Var *n = g->nvar >= 0 ? &g->v[g->nvar] : NULL;
	*jidx = 0;
	int r = rnd(g, 12);
	if (r < 3) {
		int k = 2 + rnd(g, 5);
		*trip = k;
		*jv = iv_mk(0, k - 1);
		COV(g, stmt_for_range1);
		return S("for ", name, " in range(", ilit(g, k), "):");
	}
	if (r < 5) {
		int a = rnd(g, 3), b = a + 2 + rnd(g, 4);
		*trip = b - a;
		*jv = iv_mk(a, b - 1);
		COV(g, stmt_for_range2);
		return S("for ", name, " in range(", ilit(g, a), ", ", ilit(g, b), "):");
	}
	if (r < 6) {
		int b = 3 + rnd(g, 5);
		*trip = b;
		*jv = iv_mk(1, b);
		COV(g, stmt_for_range3);
		return S("for ", name, " in range(", ilit(g, b), ", 0, -1):");
	}
	if (r < 7) {
		int b = 4 + rnd(g, 6);
		*trip = (b + 1) / 2;
		*jv = iv_mk(0, b - 1);
		COV(g, stmt_for_range3);
		return S("for ", name, " in range(0, ", ilit(g, b), ", 2):");
	}
	COV(g, stmt_for_dynamic);
	if (!n || g->in_func) {
		Expr e = gen_idx(g, 1);
		int k = 2 + rnd(g, 4);
		*trip = k;
		*jv = iv_mk(0, k - 1);
		COV(g, stmt_for_range1);
		if (!named_ex(e)) /* not range(0 % 5) */
			return S("for ", name, " in range(", ilit(g, k), "):");
		COV(g, expr_int_mod);
		return S("for ", name, " in range(", par(g, e, P_MUL), " % ", ilit(g, k + 1), "):");
	}
	const char *ns = n->name;
	int k = 2 + rnd(g, 4);
	*trip = k;
	switch (r) {
	case 7:
		*jv = iv_mk(0, k - 1);
		COV(g, stmt_for_range1);
		COV(g, expr_int_mod);
		COV(g, expr_int_add);
		return S("for ", name, " in range(", ns, " % ", ilit(g, k), " + 1):");
	case 8: {
		*jv = iv_mk(0, NMAX - 1);
		*jidx = 1;
		COV(g, stmt_for_range2);
		COVB(g, MIN_I);
		COV(g, expr_int_add);
		Expr b = gen_idx(g, 1);
		return S("for ", name, " in range(", b.s, ", wp.min(", par(g, b, P_ADD), " + ", ilit(g, k), ", ",
			 ns, ")):");
	}
	case 9: {
		*jv = iv_mk(0, NMAX - 1);
		*jidx = 1;
		COV(g, stmt_for_range3);
		COVB(g, MAX_I);
		COV(g, expr_int_sub);
		return S("for ", name, " in range(i, wp.max(i - ", ilit(g, k), ", -1), -1):");
	}
	case 10: {
		Expr e = gen_idx(g, 1);
		*jv = iv_mk(0, k);
		COV(g, stmt_for_range1);
		COV(g, expr_int_mod);
		return S("for ", name, " in range(", par(g, e, P_MUL), " % ", ilit(g, k + 1), "):");
	}
	default:
		*jv = iv_mk(0, NMAX - 1);
		*jidx = 1;
		*trip = k;
		COV(g, stmt_for_range3);
		COVB(g, MIN_I);
		COV(g, expr_int_add);
		return S("for ", name, " in range(i, wp.min(i + ", ilit(g, 2 * k), ", ", ns, "), 2):");
	}
}

/* Pick up to one outer variable to carry through a loop. */
static Var *carry(G *g)
{
	if (!chance(g, 45))
		return NULL;
	Var *v = NULL;
	if (chance(g, 20) && g->nvar >= 0 && !g->in_func) {
		v = pick_mod(g, T_I);
		if (v && !v->idx)
			v = NULL;
	}
	if (!v)
		v = pick_mod(g, T_F);
	if (!v)
		v = pick_mod(g, VEC_OF(g->vecn));
	if (!v || v->lit)
		return NULL;
	if (v->ty != T_I) {
		double B = fmax(ceil(iv_mag(v->iv)), 1.0);
		v->iv = iv_sym(B);
	}
	v->carried = 1;
	return v;
}

static void loop_body(G *g, Var **accs, int nacc, Var *cv, int nest, int is_while)
{
	int n = 1 + rnd(g, 3), done_acc = 0;
	for (int s = 0; s < n + nacc + (cv != NULL); s++) {
		g->sp = 0;
		int left = n + nacc + (cv != NULL) - s;
		if (done_acc < nacc && (chance(g, 50) || left <= nacc - done_acc + (cv != NULL))) {
			Var *a = accs[done_acc++];
			if (chance(g, 25) && !(a->ty == T_I)) {
				Expr c = gen_b(g, 1);
				COV(g, stmt_if);
				L("if ", c.s, ":");
				int mark = blk_begin(g);
				st_accum(g, a);
				blk_end(g, mark);
			} else
				st_accum(g, a);
			continue;
		}
		if (cv && left == 1) {
			st_carried(g, cv);
			continue;
		}
		if (chance(g, 12)) {
			Expr c = gen_b(g, 1);
			int brk = chance(g, 50);
			COV(g, stmt_if);
			L("if ", c.s, ":");
			g->ind++;
			if (brk)
				COV(g, stmt_break);
			else
				COV(g, stmt_continue);
			L(brk ? "break" : "continue");
			g->ind--;
			continue;
		}
		(void)is_while;
		stmt(g, nest);
	}
}

/* Leave a loop of trip bound T: its block closes, its accumulators and
 * carried variable become plain locals again. */
static void loop_end(G *g, double T, int mark, Var **accs, int nacc, Var *cv)
{
	g->trip /= T;
	g->loop--;
	blk_end(g, mark);
	for (int k = 0; k < nacc; k++)
		accs[k]->acc = 0;
	if (cv)
		cv->carried = 0;
}

static void st_for(G *g, int nest)
{
	Var *accs[2];
	int nacc = 0;
	char name[28];
	NEWNAME(g, name, lw);
	double T;
	Iv jv;
	int jidx;
	g->sp = 0;
	const char *hdr = for_header(g, name, &T, &jv, &jidx);
	char hbuf[256];
	SCAT(hbuf, sizeof hbuf, hdr);
	g->sp = 0;
	int na = rnd(g, 3);
	for (int k = 0; k < na; k++) {
		int ty = chance(g, 20) ? T_I : (g->p->vec > 20 && chance(g, 40)) ? VEC_OF(g->vecn) : T_F;
		accs[nacc++] = declare_acc(g, ty, T * g->trip);
	}
	Var *cv = carry(g);
	L(hbuf);
	int mark = blk_begin(g);
	g->loop++;
	g->trip *= T;
	Var *lv = add_var(g, name, T_I, GV_LOOP, jv, DEP_THREAD | DEP_N, jidx);
	(void)lv;
	loop_body(g, accs, nacc, cv, nest - 1, 0);
	loop_end(g, T, mark, accs, nacc, cv);
}

static void st_while(G *g, int nest)
{
	char name[28];
	NEWNAME(g, name, cw);
	int K = 3 + rnd(g, 6);
	COV(g, expr_conv_int);
	COV(g, stmt_assign);
	cov_type(g, T_I);
	L(name, " = int(0)");
	Var *cnt = add_var(g, name, T_I, GV_LOCAL, iv_mk(0, K), 0, 0);
	cnt->count = 1;
	Var *accs[1];
	int nacc = 0;
	if (chance(g, 60))
		accs[nacc++] = declare_acc(g, T_F, K * g->trip);
	Var *cv = carry(g);
	Var *flag = NULL;
	const char *cond = S(name, " < ", ilit(g, K));
	COV(g, expr_lt);
	if (chance(g, 30)) {
		char fn[28];
		NEWNAME(g, fn, bw);
		cov_type(g, T_B);
		COV(g, expr_true_false);
		COV(g, stmt_assign);
		L(fn, " = bool(False)");
		flag = add_var(g, fn, T_B, GV_LOCAL, iv_mk(0, 1), 0, 0);
		COV(g, expr_and);
		COV(g, expr_not);
		cond = S(cond, " and not ", fn);
	} else if (chance(g, 40)) {
		Expr c = gen_b(g, 0);
		COV(g, expr_and);
		cond = S(cond, " and ", par(g, c, P_NOT));
	}
	COV(g, stmt_while);
	L("while ", cond, ":");
	int mark = blk_begin(g);
	g->loop++;
	g->trip *= K;
	COV(g, stmt_aug_add);
	L(name, " += 1");
	if (flag) {
		Expr c = gen_b(g, 1);
		COV(g, stmt_if);
		L("if ", c.s, ":");
		g->ind++;
		COV(g, expr_true_false);
		COV(g, stmt_assign);
		L(flag->name, " = True");
		g->ind--;
	}
	loop_body(g, accs, nacc, cv, nest - 1, 1);
	loop_end(g, K, mark, accs, nacc, cv);
	cnt->count = 0;
	cnt->iv = iv_mk(0, K);
}

/* A call of a helper as a statement: x = f(...), a, b = f(...), f(...). */
static void st_call(G *g)
{
	int c[MAXH], n = 0;
	for (int k = 0; k < g->nh; k++)
		if (helper_ok(g, &g->h[k]))
			c[n++] = k;
	if (!n) {
		st_assign(g);
		return;
	}
	Helper *h = &g->h[c[rnd(g, n)]];
	int dep;
	Expr call = call_helper(g, h, edepth(g), NULL, &dep);
	if (h->nret == 0) {
		COV(g, stmt_call);
		L(call.s);
		return;
	}
	if (h->nret == 1) {
		char name[28];
		fresh(g, name, h->rty[0]);
		cov_type(g, h->rty[0]);
		COV(g, stmt_assign);
		L(name, " = ", call.s);
		Var *v = add_var(g, name, h->rty[0], GV_LOCAL, h->riv[0], 1, h->ridx[0]);
		(void)v;
		return;
	}
	char names[3][28];
	const char *lhs = "";
	for (int k = 0; k < h->nret; k++) {
		fresh(g, names[k], h->rty[k]);
		add_var(g, names[k], h->rty[k], GV_LOCAL, h->riv[k], 1, h->ridx[k]);
		cov_type(g, h->rty[k]);
		lhs = APP(lhs, k ? ", " : "", names[k]);
	}
	COV(g, stmt_tuple_unpack);
	L(lhs, " = ", call.s);
}

static void st_return(G *g)
{
	if (g->in_func || g->loop) {
		st_if(g, 1);
		return;
	}
	Expr c = gen_b(g, 1);
	COV(g, stmt_if);
	L("if ", c.s, ":");
	g->ind++;
	COV(g, stmt_return_kernel);
	L("return");
	g->ind--;
}

static void stmt(G *g, int nest)
{
	g->sp = 0;
	/* a statement budget keeps kernels at about 5-40 lines: near it no
	 * new blocks open, past it only plain assignments follow */
	int cap = 2 * (g->k->stmts > 0 ? g->k->stmts : 1) + 4;
	int over = g->nstmt++ > cap;
	/* near the table's end (the largest knobs), no new names */
	if (g->nv > MAXV - 24) {
		st_reassign(g);
		return;
	}
	if (over) {
		st_assign(g);
		return;
	}
	int w[NST];
	memcpy(w, g->p->st, sizeof w);
	if (nest <= 0 || g->nstmt > cap - 6)
		w[ST_IF] = w[ST_FOR] = w[ST_WHILE] = 0;
	if (g->in_func)
		w[ST_STORE] = w[ST_ATOMIC] = w[ST_RETURN] = w[ST_CALL] = 0;
	/* clang-format off */
	switch (wpick(g, w, NST)) {
	case ST_ASSIGN: st_assign(g); break;
	case ST_AUG: st_aug(g); break;
	case ST_IF: st_if(g, nest); break;
	case ST_FOR: st_for(g, nest); break;
	case ST_WHILE: st_while(g, nest); break;
	case ST_COMP: st_comp(g); break;
	case ST_STORE: st_store(g, NULL, 0); break;
	case ST_ATOMIC: st_atomic(g); break;
	case ST_CALL: st_call(g); break;
	case ST_RETURN: st_return(g); break;
	default: st_reassign(g); break;
	}
	/* clang-format on */
}

static void stmts(G *g, int n, int nest)
{
	for (int k = 0; k < n; k++)
		stmt(g, nest);
}

/* ---- helper functions ---------------------------------------------------------- */

static const char *param_text(G *g, const char *name, int ty, int arr)
{
	if (arr) {
		static const int ca[NTY] = {GC_type_array_float, GC_type_array_int,   0,
					    GC_type_array_vec2,  GC_type_array_vec3,  GC_type_array_vec4,
					    GC_type_array_mat22, GC_type_array_mat33, GC_type_array_mat44};
		g->cov->c[ca[ty]]++;
		if (chance(g, 6)) {
			COV(g, type_array_ndim);
			return S(name, ": wp.array(dtype=", ty_spell(g, ty), ", ndim=1)");
		}
		return S(name, ": wp.array(dtype=", ty_spell(g, ty), ")");
	}
	cov_type(g, ty);
	return S(name, ": ", ty_spell(g, ty));
}

static void helper_return(G *g, Helper *h, int early)
{
	const char *s = "";
	for (int k = 0; k < h->nret; k++) {
		Expr e;
		int t = h->rty[k];
		if (k == 0 && h->ridx[0]) {
			e = gen_idx(g, 2);
		} else {
			e = gen_ty(g, t, edepth(g));
			if (t == T_I)
				e = squash_int(g, e, 1 << 20);
			else
				e = squash(g, e, 16.0);
		}
		h->riv[k] = early || !h->riv[k].hi ? (early ? e.iv : iv_hull(h->riv[k], e.iv))
						   : iv_hull(h->riv[k], e.iv);
		s = APP(s, k ? ", " : "", e.s);
	}
	if (h->nret > 1)
		COV(g, stmt_return_multi);
	else
		COV(g, stmt_return_func);
	L("return ", s);
}

static void gen_helper(G *g)
{
	Helper *h = &g->h[g->nh];
	memset(h, 0, sizeof *h);
	g->nv = 0;
	g->in_func = 1;
	g->nvar = -1;
	g->blk = 0;
	g->loop = 0;
	g->trip = 1;
	for (int t = 0;; t++) {
		SCAT(h->name, sizeof h->name, PICK(g, hw), t > 8 ? "_b" : "", g->suffix);
		int dup = 0;
		for (int k = 0; k < g->nh; k++)
			dup |= !strcmp(g->h[k].name, h->name);
		if (!dup)
			break;
	}
	int kind = rnd(g, 7);
	int vn = g->vecn;
	g->sp = 0;
	switch (kind) {
	case 0:
	case 1: /* scalar */
		h->np = 1 + rnd(g, 3);
		for (int k = 0; k < h->np; k++) {
			h->pty[k] = T_F;
			h->piv[k] = iv_sym(PICK(g, ((const double[]){1.0, 2.0, 4.0})));
		}
		if (chance(g, 25)) {
			h->pty[h->np] = T_I;
			h->piv[h->np++] = iv_mk(-16, 16);
		}
		h->nret = 1;
		h->rty[0] = T_F;
		break;
	case 2: /* vector */
		h->np = 2;
		h->pty[0] = VEC_OF(vn);
		h->piv[0] = iv_sym(2.0);
		h->pty[1] = T_F;
		h->piv[1] = iv_sym(2.0);
		if (chance(g, 40)) {
			h->pty[2] = VEC_OF(vn);
			h->piv[2] = iv_sym(2.0);
			h->np = 3;
		}
		h->nret = 1;
		h->rty[0] = chance(g, 60) ? VEC_OF(vn) : T_F;
		break;
	case 3: /* several values */
		h->np = 1 + rnd(g, 2);
		for (int k = 0; k < h->np; k++) {
			h->pty[k] = chance(g, 20) ? VEC_OF(vn) : T_F;
			h->piv[k] = iv_sym(2.0);
		}
		h->nret = 2 + chance(g, 20);
		for (int k = 0; k < h->nret; k++)
			h->rty[k] = k == 1 && chance(g, 30) ? T_I : chance(g, 20) ? VEC_OF(vn) : T_F;
		break;
	case 4: /* an index */
		h->np = 2;
		h->pty[0] = T_I;
		h->pidx[0] = 1;
		h->pty[1] = T_I;
		h->pcount[1] = 1;
		h->nret = 1;
		h->rty[0] = T_I;
		h->ridx[0] = 1;
		break;
	case 5: /* reads an input array */
		h->np = 3;
		h->pty[0] = chance(g, 70) ? T_F : VEC_OF(vn);
		h->parr[0] = 1;
		h->prole[0] = R_IN;
		h->pty[1] = T_I;
		h->pidx[1] = 1;
		h->pty[2] = T_I;
		h->pcount[2] = 1;
		h->nret = 1;
		h->rty[0] = T_F;
		break;
	default: /* deposits into an accumulator */
		h->np = 3;
		h->pty[0] = chance(g, 70) ? T_F : T_I;
		h->parr[0] = 1;
		h->prole[0] = R_ACC;
		h->pty[1] = T_I;
		h->pidx[1] = 1;
		h->pty[2] = h->pty[0];
		h->piv[2] = h->pty[0] == T_I ? iv_mk(-4, 4) : iv_sym(4.0);
		h->nret = 0;
		break;
	}
	/* the signature */
	static const char *const pf[] = {"x", "y", "z", "a", "b", "t", "r", "s", "w", "v"};
	static const char *const pv[] = {"p", "q", "d", "u", "v", "dir"};
	const char *sig = "";
	for (int k = 0; k < h->np; k++) {
		char pn[28];
		int t = h->pty[k];
		if (h->parr[k])
			NEWNAME(g, pn, ((const char *const[]){"xs", "vals", "buf", "arr", "field"}));
		else if (h->pcount[k])
			NEWNAME(g, pn, sw_n);
		else if (t == T_I)
			NEWNAME(g, pn, ((const char *const[]){"j", "idx", "k", "m", "slot"}));
		else if (IS_VEC(t))
			NEWNAME(g, pn, pv);
		else
			NEWNAME(g, pn, pf);
		sig = APP(sig, k ? ", " : "", param_text(g, pn, t, h->parr[k]));
		Iv iv = h->pidx[k] ? iv_mk(0, NMAX - 1) : h->pcount[k] ? iv_mk(1, NMAX) : h->piv[k];
		Var *v = add_var(g, pn, t, h->parr[k] ? GV_ARRAY : GV_PARAM, h->parr[k] ? iv_sym(1.0) : iv,
				 h->pcount[k] || (t == T_I && !h->pidx[k]) ? DEP_INPUT : DEP_THREAD, h->pidx[k]);
		if (h->parr[k])
			v->role = h->prole[k];
		if (h->pcount[k])
			g->nvar = g->nv - 1;
	}
	const char *ann = "";
	if (h->nret == 1 && chance(g, 60)) {
		COV(g, stmt_func_annotated);
		ann = S(" -> ", ty_spell(g, h->rty[0]));
	}
	put(g, "@wp.func\n");
	COV(g, stmt_func_def);
	L("def ", h->name, "(", sig, ")", ann, ":");
	g->ind = 1;
	if (chance(g, 15)) {
		COV(g, stmt_docstring);
		L("\"\"\"",
		  PICK(g,
		       ((const char *const[]){"Helper.", "Smooth response.", "Shared math.", "Per-element term."})),
		  "\"\"\"");
	}
	if (kind == 6) {
		Var *a = &g->v[0], *j = &g->v[1], *x = &g->v[2];
		int k = rnd(g, 3);
		g->cov->b[h->pty[0] == T_F ? (k == 1 ? GB_ATOMIC_SUB : GB_ATOMIC_ADD)
					   : (k == 1 ? GB_ATOMIC_SUB : GB_ATOMIC_ADD)]++;
		if (k == 2) {
			COV(g, stmt_array_atomic_add);
			L(a->name, "[", j->name, "] += ", x->name);
		} else {
			COV(g, stmt_call);
			L(k == 1 ? "wp.atomic_sub(" : "wp.atomic_add(", a->name, ", ", j->name, ", ", x->name, ")");
		}
	} else if (kind == 4) {
		stmts(g, rnd(g, 2), 0);
		g->sp = 0;
		helper_return(g, h, 0);
	} else {
		stmts(g, rnd(g, 3), 1);
		g->sp = 0;
		if (chance(g, 20) && h->nret) {
			Expr c = gen_b(g, 1);
			COV(g, stmt_if);
			L("if ", c.s, ":");
			g->ind++;
			helper_return(g, h, 1);
			g->ind--;
			g->sp = 0;
		}
		helper_return(g, h, 0);
	}
	put(g, "\n\n");
	g->in_func = 0;
	g->ind = 0;
	g->nv = 0;
	g->nh++;
}

/* ---- kernels ---------------------------------------------------------------------- */

static void add_param(G *g, int ty, int kind, int role)
{
	static const Words in[5] = {WORDS(aw_in), WORDS(aw_iin), WORDS(aw_in), WORDS(aw_vin), WORDS(aw_min)};
	char name[28];
	if (kind == GV_ARRAY) {
		if (role != R_IN)
			NEWNAME(g, name, aw_out);
		else
			name_by_type(g, name, ty, in);
	} else if (ty == T_I)
		NEWNAME(g, name, sw_n);
	else if (ty == T_F)
		NEWNAME(g, name, sw_f);
	else
		fresh(g, name, ty);
	Iv iv = ty == T_I ? (kind == GV_ARRAY ? iv_mk(0, NMAX - 1) : iv_mk(1, NMAX)) : iv_sym(1.0);
	/* an int scalar is n for every seed; a float or composite one is drawn */
	int dep = kind != GV_PARAM ? DEP_INPUT : ty == T_I ? DEP_INPUT | DEP_N : DEP_INPUT | DEP_SEED;
	Var *v = add_var(g, name, ty, kind, iv, dep, ty == T_I && kind == GV_ARRAY);
	v->role = (unsigned char)role;
	if (ty == T_I && kind == GV_PARAM && g->nvar < 0)
		g->nvar = g->nv - 1;
}

static int elem_type(G *g)
{
	switch (g->cat) {
	case CAT_VECTOR:
		return chance(g, 60) ? VEC_OF(g->vecn) : chance(g, 50) ? T_F : VEC_OF(2 + rnd(g, 3));
	case CAT_MATRIX:
		return chance(g, 45) ? MAT_OF(2 + rnd(g, 3)) : chance(g, 50) ? VEC_OF(g->vecn) : T_F;
	case CAT_ARITHMETIC:
	case CAT_CONTROL_FLOW:
		return chance(g, 25) ? T_I : T_F;
	case CAT_COMBINED:
	case CAT_INPLACE:
	case CAT_ATOMIC:
		return chance(g, 20)   ? VEC_OF(g->vecn)
		       : chance(g, 15) ? T_I
		       : chance(g, 5)  ? MAT_OF(2 + rnd(g, 3))
				       : T_F;
	default:
		return chance(g, 12) ? VEC_OF(g->vecn) : chance(g, 10) ? T_I : T_F;
	}
}

static void kernel_name(G *g, uint64_t index)
{
	const char *a = PICK(g, kw_a), *n = PICK(g, kw_n), *v = PICK(g, kw_v);
	switch (rnd(g, 3)) {
	case 0:
		SCAT(g->kname, sizeof g->kname, a, "_", n, "_", v, g->suffix);
		break;
	case 1:
		SCAT(g->kname, sizeof g->kname, n, "_", v, g->suffix);
		break;
	default:
		SCAT(g->kname, sizeof g->kname, a, "_", n, g->suffix);
		break;
	}
	(void)index;
}

void gen_body_kernel(G *g, uint64_t index)
{
	g->p = &prof[g->cat];
	g->nv = g->nh = 0;
	g->ind = g->loop = g->blk = g->in_func = 0;
	g->trip = 1;
	g->nvar = -1;
	g->sp = 0;
	g->nstmt = 0;
	g->rng[0] = 0;
	g->no_draw = 0;
	g->vecn = chance(g, 60) ? 3 : 2 + 2 * rnd(g, 2);
	char d[21];
	SCAT(g->suffix, sizeof g->suffix, "_", u64_str(d, index));
	g->kname[0] = 0;
	kernel_name(g, index);

	/* helpers first (they precede the kernel in the file) */
	int nh = g->cat == CAT_FUNCTION ? 1 + rnd(g, 3) : g->cat == CAT_COMBINED ? rnd(g, 3) : chance(g, 6);
	for (int k = 0; k < nh; k++)
		gen_helper(g);
	g->nstmt = 0;
	g->nvar = -1;

	/* parameters */
	int want_n = g->cat == CAT_LOOP || g->cat == CAT_ATOMIC || chance(g, 70);
	for (int k = 0; k < g->nh; k++)
		for (int j = 0; j < g->h[k].np; j++)
			want_n |= g->h[k].pcount[j] || g->h[k].pidx[j];
	int nin = 1 + rnd(g, g->k->params > 2 ? g->k->params - 1 : 1);
	int nout = 1 + (chance(g, 30) && g->k->params > 2);
	int order = rnd(g, 3);
	if (order == 1 && want_n)
		add_param(g, T_I, GV_PARAM, 0);
	for (int k = 0; k < nin; k++)
		add_param(g, elem_type(g), GV_ARRAY, R_IN);
	for (int k = 0; k < g->nh; k++) /* arrays the helpers read */
		for (int j = 0; j < g->h[k].np; j++)
			if (g->h[k].parr[j] && g->h[k].prole[j] == R_IN && !pick_arr(g, g->h[k].pty[j], R_IN))
				add_param(g, g->h[k].pty[j], GV_ARRAY, R_IN);
	if (chance(g, g->cat == CAT_LOOP || g->cat == CAT_ATOMIC ? 50 : 20))
		add_param(g, T_I, GV_ARRAY, R_IN);
	if (order != 1 && want_n)
		add_param(g, T_I, GV_PARAM, 0);
	if (chance(g, 45))
		add_param(g, T_F, GV_PARAM, 0);
	if (chance(g, g->cat == CAT_VECTOR || g->cat == CAT_MATRIX ? 25 : 4))
		add_param(g, g->cat == CAT_MATRIX && chance(g, 50) ? MAT_OF(2 + rnd(g, 3)) : VEC_OF(g->vecn),
			  GV_PARAM, 0);
	int nacc = g->cat == CAT_ATOMIC ? 1 + rnd(g, 2) : g->cat == CAT_COMBINED ? chance(g, 30) : 0;
	for (int k = 0; k < g->nh; k++)
		for (int j = 0; j < g->h[k].np; j++)
			if (g->h[k].parr[j] && g->h[k].prole[j] == R_ACC && !pick_arr(g, g->h[k].pty[j], R_ACC))
				add_param(g, g->h[k].pty[j], GV_ARRAY, R_ACC);
	for (int k = 0; k < nacc; k++) {
		int t = chance(g, 25) ? T_I : chance(g, 20) ? VEC_OF(g->vecn) : T_F;
		if (IS_VEC(t) && chance(g, 30))
			t = MAT_OF(2 + rnd(g, 3));
		add_param(g, t, GV_ARRAY, R_ACC);
	}
	for (int k = 0; k < nout; k++) {
		int t = elem_type(g);
		if (g->cat == CAT_MATRIX && k == 0 && chance(g, 50))
			t = MAT_OF(2 + rnd(g, 3));
		add_param(g, t, GV_ARRAY, R_OUT);
	}
	/* signature, in declaration order */
	const char *sig = "";
	for (int k = 0; k < g->nv; k++) {
		Var *v = &g->v[k];
		sig = APP(sig, k ? ", " : "", param_text(g, v->name, v->ty, v->kind == GV_ARRAY));
	}
	put(g, "@wp.kernel\n");
	L("def ", g->kname, "(", sig, "):");
	g->ind = 1;
	g->blk = 1;
	if (chance(g, 10)) {
		COV(g, stmt_docstring);
		L("\"\"\"",
		  PICK(g, ((const char *const[]){"One thread per element.", "Per-element update.",
						 "Generated test kernel.", "Each thread owns index i."})),
		  "\"\"\"");
	}
	COVB(g, TID);
	COV(g, stmt_assign);
	cov_type(g, T_I);
	L("i = wp.tid()");
	if (chance(g, RAND_PCT)) {
		/* a random stream per thread, from a seed and the thread */
		char name[28], seed[21];
		NEWNAME(g, name, ((const char *const[]){"rng", "state"}));
		COV(g, stmt_assign);
		if (chance(g, 70)) {
			COVB(g, RAND_INIT_OFFSET);
			L(name, " = wp.rand_init(", u64_str(seed, 1 + (uint64_t)rnd(g, 100000)), ", i)");
		} else {
			COVB(g, RAND_INIT);
			COV(g, expr_int_add);
			L(name, " = wp.rand_init(", u64_str(seed, 1 + (uint64_t)rnd(g, 100000)), " + i)");
		}
		SCAT(g->rng, sizeof g->rng, name);
	}

	/* loads */
	int nload = rnd(g, 3);
	for (int k = 0; k < nload; k++) {
		Var *a = pick_arr(g, -1, R_IN);
		if (!a)
			break;
		g->sp = 0;
		Expr e = read_arr(g, a, 2);
		char name[28];
		fresh(g, name, a->ty);
		cov_type(g, a->ty);
		COV(g, stmt_assign);
		L(name, " = ", e.s);
		add_var(g, name, a->ty, GV_LOCAL, e.iv, 1, e.idx);
	}

	/* the body, with the category's promised statements somewhere in it */
	int base = g->k->stmts > 0 ? g->k->stmts : 1;
	int n = base / 2 + rnd(g, base + 1);
	if (n < 1)
		n = 1;
	int force = -1;
	/* clang-format off */
	switch (g->cat) {
	case CAT_LOOP: force = chance(g, 75) ? ST_FOR : ST_WHILE; break;
	case CAT_CONTROL_FLOW: force = ST_IF; break;
	case CAT_ATOMIC: force = ST_ATOMIC; break;
	case CAT_FUNCTION: force = ST_CALL; break;
	case CAT_INPLACE: force = ST_AUG; break;
	case CAT_VECTOR:
	case CAT_MATRIX: force = ST_COMP; break;
	default: break;
	}
	/* clang-format on */
	int at = rnd(g, n);
	int nest = g->k->nest > 0 ? g->k->nest : 0;
	for (int k = 0; k < n; k++) {
		if (k == at && force >= 0) {
			g->sp = 0;
			/* clang-format off */
			switch (force) {
			case ST_FOR: st_for(g, nest > 0 ? nest : 1); break;
			case ST_WHILE: st_while(g, nest > 0 ? nest : 1); break;
			case ST_IF: st_if(g, nest > 0 ? nest : 1); break;
			case ST_ATOMIC: st_atomic(g); break;
			case ST_CALL: st_call(g); break;
			case ST_AUG: st_aug(g); break;
			default: st_comp(g); break;
			}
			/* clang-format on */
			continue;
		}
		stmt(g, nest);
	}
	if (g->cat == CAT_INPLACE) {
		Var *o = pick_arr(g, -1, R_OUT);
		g->sp = 0;
		if (o)
			st_store(g, o, 0);
	}
	if (g->cat == CAT_ATOMIC && chance(g, 50)) {
		g->sp = 0;
		st_atomic(g);
	}
	/* every output gets a final value */
	for (int k = 0; k < g->nv; k++) {
		Var *a = &g->v[k];
		if (a->kind == GV_ARRAY && a->role == R_OUT && !a->stored) {
			g->sp = 0;
			st_store(g, a, 1);
		}
	}
	put(g, "\n\n");
}
