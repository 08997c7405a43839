/*
 * expr.c: typed random expressions that are finite by construction.
 *
 * gen_f/gen_i/gen_idx/gen_b/gen_v/gen_m write an expression of a type,
 * at most D levels deep, and return it with the interval of its values
 * (for vectors and matrices, one interval for every component).  Domain
 * rules, each written the way a person guards code:
 *   divisor       kept >= 0.5 in size: itself if its interval allows, else
 *                 (1.0 + e * e), (c + wp.abs(e)), (2.0 + wp.sin(e)) ...
 *   sqrt          argument >= 0.25; log, log2, log10 >= 0.5; pow base >= 0.5
 *                 and exponent in [-2, 2]
 *   asin, acos    argument within +-0.9; tan within +-1.2; exp, sinh, cosh
 *                 within +-4 (clamp, c * tanh, c * sin, or nothing needed)
 *   atan2(y, x)   x >= 0.5 (no branch cut)
 *   normalize     a vector offset so one component is >= 0.5 in size
 *   inverse       M + c I with c above N * |M|: diagonally dominant
 *   determinant   s M + I with N s |M| <= 1/2, or a written-out matrix with
 *                 a dominant diagonal: never singular, of modest size
 *   ints          |value| < 2^30; divisors >= 1; an index is i, an int
 *                 array element, or a form that stays in [0, n)
 *   every value   |v| <= LIM, else scaled by a constant or squashed
 *
 * This file holds what every type's generator builds on: the Expr and
 * its text, intervals and literals, the variables and arrays a leaf
 * names, and the rule that no term is built of literals alone.  The
 * squashes and guards are in expr_guard.c, each type's expressions in a
 * file of its own (expr_float.c, expr_int.c, expr_bool.c, expr_vec.c,
 * expr_mat.c), the builtins beyond the arithmetic core in expr_lib.c;
 * gen/expr.h declares what they share.
 */
#include <ctype.h>
#include <math.h>
#include <string.h>

#include "gen/expr.h"

Iv iv_mk(double lo, double hi)
{
	Iv r = {lo, hi};
	return r;
}
double iv_mag(Iv a) { return fmax(fabs(a.lo), fabs(a.hi)); }
Iv iv_hull(Iv a, Iv b) { return iv_mk(fmin(a.lo, b.lo), fmax(a.hi, b.hi)); }
Iv iv_sym(double m) { return iv_mk(-m, m); }

Expr ex(const char *s, int ty, int prec, Iv iv, int dep)
{
	Expr e = {s, iv, (unsigned char)ty, (unsigned char)prec, (unsigned char)dep, 0};
	return e;
}

/* E's text, parenthesized when its precedence is below PREC. */
const char *par(G *g, Expr e, int prec)
{
	if (e.prec < prec || (prec == P_UNARY && e.s[0] == '-'))
		return S("(", e.s, ")");
	return e.s;
}

/* clang-format off */
static const char *const nice[] = {"0.5", "0.25", "2.0", "0.1", "1.5", "3.0", "0.75", "0.9",
				   "0.2", "4.0", "0.3", "1.25", "0.05", "0.125", "0.8", "0.6"};
static const double nicev[] = {0.5, 0.25, 2.0, 0.1, 1.5, 3.0, 0.75, 0.9,
			       0.2, 4.0, 0.3, 1.25, 0.05, 0.125, 0.8, 0.6};
/* clang-format on */

Expr lit_f(G *g)
{
	int k = rnd(g, (int)KS_NELEM(nice));
	return ex(nice[k], T_F, P_ATOM, iv_mk(nicev[k], nicev[k]), 0);
}

/* Thresholds that no input equals exactly (not multiples of 2^-23), so a
 * comparison of an input never sits on its edge. */
const char *thresh(G *g)
{
	/* clang-format off */
	static const char *const t[] = {"0.1", "0.2", "0.3", "0.4", "0.7", "0.8", "0.15",
					"0.35", "0.45", "-0.1", "-0.3", "-0.7", "-0.45", "-0.2"};
	/* clang-format on */
	return PICK(g, t);
}

/* ---- variables and arrays ---------------------------------------------- */

/* Word W of MASK (two words), only the bits that name v[0 .. nv-1]. */
static uint64_t mask_word(const G *g, const uint64_t *mask, int w)
{
	int lo = 64 * w;
	return g->nv >= lo + 64 ? mask[w] : g->nv <= lo ? 0 : mask[w] & ((1ULL << (g->nv - lo)) - 1);
}

/* A random live variable of type TY (locals, scalar params, loop
 * variables); WANT_IDX: only indices. */
Var *pick_var(G *g, int ty, int want_idx, int any_kind)
{
	int c[MAXV], n = 0;
	(void)any_kind;
	for (int w = 0; w < 2; w++)
		for (uint64_t m = mask_word(g, g->vmask[ty], w); m; m &= m - 1) {
			int k = 64 * w + ks_ctz64(m);
			const Var *v = &g->v[k];
			if (v->alive && (!want_idx || v->idx))
				c[n++] = k;
		}
	return n ? &g->v[c[rnd(g, n)]] : NULL;
}

/* A random array of element type TY (-1: any) and role (-1: readable). */
Var *pick_arr(G *g, int ty, int role)
{
	int c[MAXV], n = 0;
	for (int w = 0; w < 2; w++)
		for (uint64_t m = mask_word(g, g->amask, w); m; m &= m - 1) {
			int k = 64 * w + ks_ctz64(m);
			const Var *v = &g->v[k];
			if (ty >= 0 && v->ty != ty)
				continue;
			if (role >= 0 ? v->role != role
				      : !(v->role == R_IN || (v->role == R_OUT && g->loop == 0 && !g->in_func)))
				continue;
			if (role == R_ACC && g->want_add && v->afam >= 2)
				continue;
			c[n++] = k;
		}
	return n ? &g->v[c[rnd(g, n)]] : NULL;
}

/* a[j]: inputs at any index, outputs at the thread's own. */
Expr read_arr(G *g, Var *a, int d)
{
	Expr j = a->role == R_IN ? gen_idx(g, d - 1) : ex("i", T_I, P_ATOM, iv_mk(0, NMAX), DEP_THREAD);
	COV(g, expr_array_index);
	Expr e = ex(S(a->name, "[", j.s, "]"), a->ty, P_ATOM, a->iv, a->ty == T_I ? DEP_ELEM | DEP_N : DEP_ELEM);
	e.idx = a->idx;
	return e;
}

Expr ex_var(Var *v)
{
	Expr e = ex(v->name, v->ty, P_ATOM, v->iv, v->dep);
	e.idx = v->idx;
	return e;
}

Expr with_dep(G *g, Expr e)
{
	if (e.dep)
		return e;
	Var *a = pick_arr(g, e.ty, R_IN);
	Expr x;
	if (a)
		x = read_arr(g, a, 1);
	else if (e.ty == T_F)
		x = gen_f(g, 0);
	else
		x = gen_ty(g, e.ty, 0);
	if (!x.dep || (ex_is_ctor(e) && ex_is_ctor(x)))
		return e;
	if (e.ty == T_I)
		COV(g, expr_int_add);
	else if (e.ty == T_F)
		COV(g, expr_add);
	else if (IS_VEC(e.ty))
		COV(g, expr_vec_add);
	else
		COV(g, expr_mat_add);
	Expr r = ex(S(par(g, e, P_ADD), " + ", par(g, x, P_MUL)), e.ty, P_ADD, iv_add(e.iv, x.iv),
		    x.dep | DEP_INPUT);
	return r;
}

/* E, made to depend on the inputs' values (DEP_SEED), so that an output
 * stored from it changes with them: plus an element of an input array of
 * its type, or of a float one (int(x * 8.0), wp.vec3(x), wp.mat33(x)). */
Expr with_seed(G *g, Expr e)
{
	if ((e.dep & DEP_SEED) || e.ty == T_B)
		return e;
	Var *a = pick_arr(g, e.ty, R_IN);
	Expr x;
	if (a) {
		x = read_arr(g, a, 1);
	} else {
		Var *f = pick_arr(g, T_F, R_IN);
		if (!f)
			return e;
		x = read_arr(g, f, 1);
		if (e.ty == T_I) {
			COV(g, expr_conv_int);
			COV(g, expr_mul);
			x = ex(S("int(", x.s, " * 8.0)"), T_I, P_ATOM, iv_mk(-8, 8), x.dep);
		} else if (IS_VEC(e.ty)) {
			COV(g, expr_vec_fill);
			x = ex(S("wp.vec", ilit(g, TY_N(e.ty)), "(", x.s, ")"), e.ty, P_ATOM, x.iv, x.dep);
		} else if (IS_MAT(e.ty)) {
			COV(g, expr_mat_fill);
			x = ex(S("wp.mat", ilit(g, TY_N(e.ty)), ilit(g, TY_N(e.ty)), "(", x.s, ")"), e.ty, P_ATOM,
			       x.iv, x.dep);
		}
	}
	if (e.ty == T_I)
		COV(g, expr_int_add);
	else if (e.ty == T_F)
		COV(g, expr_add);
	else if (IS_VEC(e.ty))
		COV(g, expr_vec_add);
	else
		COV(g, expr_mat_add);
	return ex(S(par(g, e, P_ADD), " + ", par(g, x, P_MUL)), e.ty, P_ADD, iv_add(e.iv, x.iv), e.dep | x.dep);
}

/* ---- no constant subterms ------------------------------------------------- */

/* A person names a value or writes a literal; a term built of literals
 * alone (2.0 * wp.sin(0.5), wp.determinant(wp.mat22(0.5))) reads as
 * noise.  Every composite term the generator returns names a variable,
 * else it is replaced by a leaf that does. */

/* Does S name a variable (an identifier other than wp.*, float, int, a
 * keyword or a number)? */
int has_name(const char *s)
{
	static const char *const kw[] = {"wp", "float", "int", "if", "else", "and", "or", "not", "True", "False"};
	for (const char *p = s; *p;) {
		unsigned char c = (unsigned char)*p;
		if (c >= '0' && c <= '9') {
			while (isalnum((unsigned char)*p) || *p == '.' || *p == '_')
				p++;
			continue;
		}
		if (!(isalpha(c) || c == '_')) {
			p++;
			continue;
		}
		const char *q = p;
		while (isalnum((unsigned char)*q) || *q == '_')
			q++;
		if (p == s || p[-1] != '.') {
			size_t l = (size_t)(q - p), k;
			for (k = 0; k < KS_NELEM(kw); k++)
				if (strlen(kw[k]) == l && !memcmp(kw[k], p, l))
					break;
			if (k == KS_NELEM(kw))
				return 1;
		}
		p = q;
	}
	return 0;
}

/* A plain literal: 2.0, -0.5, 7. */
int is_lit(const char *s)
{
	if (*s == '-')
		s++;
	if (!isdigit((unsigned char)*s))
		return 0;
	while (isalnum((unsigned char)*s) || *s == '.' || (*s == '-' && (s[-1] == 'e')))
		s++;
	return !*s;
}

/* A vector or matrix constructor: wp.vec3(...), wp.mat22(...). */
int ex_is_ctor(Expr e)
{
	return e.prec == P_ATOM && (!strncmp(e.s, "wp.vec", 6) || !strncmp(e.s, "wp.mat", 6)) &&
	       (IS_VEC(e.ty) || IS_MAT(e.ty));
}

/* A vector constructor of one argument, wp.vec3(s): a splat. */
int ex_is_splat(Expr e)
{
	if (!IS_VEC(e.ty) || !ex_is_ctor(e))
		return 0;
	int depth = 0;
	for (const char *p = strchr(e.s, '('); p && *p; p++) {
		depth += (*p == '(' || *p == '[') - (*p == ')' || *p == ']');
		if (*p == ',' && depth == 1)
			return 0;
	}
	return 1;
}

/* The second operand B (depth D) of a binary operation on vectors or
 * matrices of A's type, drawn again while it repeats A or both are
 * constructors; 0 when it still does (the caller keeps A alone). */
int ex_second_vm(G *g, Expr a, int d, Expr *b)
{
	int n = TY_N(a.ty);
#define GEN_VM (IS_VEC(a.ty) ? gen_v(g, n, d) : gen_m(g, n, d))
	*b = GEN_VM;
	REDRAW(a, *b, GEN_VM);
	NOT_BOTH_CTOR(a, *b, GEN_VM);
#undef GEN_VM
	return !(SAME(a, *b) || (ex_is_ctor(a) && ex_is_ctor(*b)));
}

/* A float leaf that names a variable (within LIM). */
Expr ex_dep_f(G *g, int d)
{
	Expr e;
	for (int t = 0; t < 4; t++) {
		e = ex_leaf_f(g, d);
		if (named_ex(e))
			return e;
	}
	Var *v;
	Var *a = pick_arr(g, T_F, -1);
	if (a)
		e = read_arr(g, a, d);
	else if ((v = pick_var(g, T_F, 0, 1)))
		e = ex_var(v);
	else if ((v = pick_var(g, T_I, 0, 1))) {
		COV(g, expr_conv_float);
		e = ex(S("float(", v->name, ")"), T_F, P_ATOM, v->iv, v->dep);
	} else if (!g->in_func) {
		COV(g, expr_conv_float);
		e = ex("float(i)", T_F, P_ATOM, iv_mk(0, NMAX - 1), DEP_THREAD | DEP_N);
	} else
		return e;
	if (iv_mag(e.iv) > LIM)
		e = squash(g, e, LIM / 4);
	return e;
}

/* An int leaf that names a variable. */
Expr ex_dep_i(G *g, int d)
{
	Expr e;
	for (int t = 0; t < 4; t++) {
		e = ex_leaf_i(g, d);
		if (named_ex(e))
			return e;
	}
	Var *v = pick_var(g, T_I, 0, 1);
	if (v)
		return ex_var(v);
	if (!g->in_func) {
		e = ex("i", T_I, P_ATOM, iv_mk(0, NMAX - 1), DEP_THREAD | DEP_N);
		e.idx = 1;
	}
	return e;
}

/* A vector or matrix of size N that names a variable: one, an array
 * element, or the constructor filled with a float that does. */
Expr ex_dep_vm(G *g, int ty, int d)
{
	Var *v = pick_var(g, ty, 0, 1);
	if (v)
		return ex_var(v);
	Var *a = pick_arr(g, ty, -1);
	if (a)
		return read_arr(g, a, d);
	Expr x = ex_dep_f(g, d - 1);
	int n = TY_N(ty);
	if (IS_VEC(ty)) {
		COV(g, expr_vec_fill);
		return ex(S("wp.vec", ilit(g, n), "(", x.s, ")"), ty, P_ATOM, x.iv, x.dep);
	}
	COV(g, expr_mat_fill);
	return ex(S("wp.mat", ilit(g, n), ilit(g, n), "(", x.s, ")"), ty, P_ATOM, x.iv, x.dep);
}

/* E, or, when it is a composite of literals alone, a leaf of its type
 * that names a variable. */
Expr ex_no_const(G *g, Expr e, int d)
{
	if (named_ex(e) || is_lit(e.s))
		return e;
	if (e.ty == T_F)
		return ex_dep_f(g, d);
	if (e.ty == T_I)
		return ex_dep_i(g, d);
	if (IS_VEC(e.ty) || IS_MAT(e.ty))
		return ex_dep_vm(g, e.ty, d);
	return e;
}

/* An expression of type TY, at most D levels deep. */
Expr gen_ty(G *g, int ty, int d)
{
	if (ty == T_F)
		return gen_f(g, d);
	if (ty == T_I)
		return gen_i(g, d);
	if (ty == T_B)
		return gen_b(g, d);
	if (IS_VEC(ty))
		return gen_v(g, TY_N(ty), d);
	return gen_m(g, TY_N(ty), d);
}
