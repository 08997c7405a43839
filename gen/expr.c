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
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gen/gen_int.h"

/* Two operands with the same text make a trivial operation (x - x,
 * wp.max(x, x), a and a): the second is drawn again a few times. */
#define SAME(a, b) (!strcmp((a).s, (b).s))
#define REDRAW(a, b, gen) \
	do { \
		for (int t_ = 0; t_ < 4 && SAME(a, b); t_++) \
			b = (gen); \
	} while (0)

#define LIM 64.0
#define ILIM 1073741824.0 /* 2^30 */
#define NMAX 16777216.0   /* the largest dim: 2^24 */
#define LIB_PCT 6         /* percent of composite terms drawn from the wider library */

Iv iv_mk(double lo, double hi)
{
	Iv r = {lo, hi};
	return r;
}
double iv_mag(Iv a) { return fmax(fabs(a.lo), fabs(a.hi)); }
Iv iv_hull(Iv a, Iv b) { return iv_mk(fmin(a.lo, b.lo), fmax(a.hi, b.hi)); }
static Iv iv_add(Iv a, Iv b) { return iv_mk(a.lo + b.lo, a.hi + b.hi); }
static Iv iv_sub(Iv a, Iv b) { return iv_mk(a.lo - b.hi, a.hi - b.lo); }
static Iv iv_neg(Iv a) { return iv_mk(-a.hi, -a.lo); }
static Iv iv_mul(Iv a, Iv b)
{
	double p[4] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
	return iv_mk(fmin(fmin(p[0], p[1]), fmin(p[2], p[3])), fmax(fmax(p[0], p[1]), fmax(p[2], p[3])));
}
Iv iv_sym(double m) { return iv_mk(-m, m); }
static Iv iv_scale(Iv a, double k) { return k >= 0 ? iv_mk(a.lo * k, a.hi * k) : iv_mk(a.hi * k, a.lo * k); }

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

static const char *const nice[] = {"0.5", "0.25", "2.0", "0.1", "1.5", "3.0", "0.75", "0.9",
				   "0.2", "4.0", "0.3", "1.25", "0.05", "0.125", "0.8", "0.6"};
static const double nicev[] = {0.5, 0.25, 2.0, 0.1, 1.5, 3.0, 0.75, 0.9,
			       0.2, 4.0, 0.3, 1.25, 0.05, 0.125, 0.8, 0.6};

Expr lit_f(G *g)
{
	int k = rnd(g, (int)KS_NELEM(nice));
	return ex(nice[k], T_F, P_ATOM, iv_mk(nicev[k], nicev[k]), 0);
}

/* Thresholds that no input equals exactly (not multiples of 2^-23), so a
 * comparison of an input never sits on its edge. */
const char *thresh(G *g)
{
	static const char *const t[] = {"0.1", "0.2", "0.3", "0.4", "0.7", "0.8", "0.15",
					"0.35", "0.45", "-0.1", "-0.3", "-0.7", "-0.45", "-0.2"};
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

static Var *nvar(G *g) { return g->nvar >= 0 ? &g->v[g->nvar] : NULL; }

/* a[j]: inputs at any index, outputs at the thread's own. */
Expr read_arr(G *g, Var *a, int d)
{
	Expr j = a->role == R_IN ? gen_idx(g, d - 1) : ex("i", T_I, P_ATOM, iv_mk(0, NMAX), DEP_THREAD);
	COV(g, expr_array_index);
	Expr e = ex(S(a->name, "[", j.s, "]"), a->ty, P_ATOM, a->iv, a->ty == T_I ? DEP_ELEM | DEP_N : DEP_ELEM);
	e.idx = a->idx;
	return e;
}

static Expr var_ex(Var *v)
{
	Expr e = ex(v->name, v->ty, P_ATOM, v->iv, v->dep);
	e.idx = v->idx;
	return e;
}

static int is_ctor(Expr e);
static Expr det_f(G *g, int n, Expr m, int d);

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
	if (!x.dep || (is_ctor(e) && is_ctor(x)))
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
static int is_ctor(Expr e)
{
	return e.prec == P_ATOM && (!strncmp(e.s, "wp.vec", 6) || !strncmp(e.s, "wp.mat", 6)) &&
	       (IS_VEC(e.ty) || IS_MAT(e.ty));
}

/* A vector constructor of one argument, wp.vec3(s): a splat. */
static int is_splat(Expr e)
{
	if (!IS_VEC(e.ty) || !is_ctor(e))
		return 0;
	int depth = 0;
	for (const char *p = strchr(e.s, '('); p && *p; p++) {
		depth += (*p == '(' || *p == '[') - (*p == ')' || *p == ']');
		if (*p == ',' && depth == 1)
			return 0;
	}
	return 1;
}

/* Two constructors side by side (wp.vec2(a, b) - wp.vec2(a, c)) read as
 * one written out by hand: the second is drawn again a few times. */
#define NOT_BOTH_CTOR(a, b, gen) \
	do { \
		for (int t_ = 0; t_ < 3 && is_ctor(a) && is_ctor(b); t_++) \
			b = (gen); \
	} while (0)

static Expr leaf_f(G *g, int d);
static Expr leaf_i(G *g, int d);

/* The second operand B (depth D) of a binary operation on vectors or
 * matrices of A's type, drawn again while it repeats A or both are
 * constructors; 0 when it still does (the caller keeps A alone). */
static int second_vm(G *g, Expr a, int d, Expr *b)
{
	int n = TY_N(a.ty);
#define GEN_VM (IS_VEC(a.ty) ? gen_v(g, n, d) : gen_m(g, n, d))
	*b = GEN_VM;
	REDRAW(a, *b, GEN_VM);
	NOT_BOTH_CTOR(a, *b, GEN_VM);
#undef GEN_VM
	return !(SAME(a, *b) || (is_ctor(a) && is_ctor(*b)));
}

/* A float leaf that names a variable (within LIM). */
static Expr dep_f(G *g, int d)
{
	Expr e;
	for (int t = 0; t < 4; t++) {
		e = leaf_f(g, d);
		if (named_ex(e))
			return e;
	}
	Var *v;
	Var *a = pick_arr(g, T_F, -1);
	if (a)
		e = read_arr(g, a, d);
	else if ((v = pick_var(g, T_F, 0, 1)))
		e = var_ex(v);
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
static Expr dep_i(G *g, int d)
{
	Expr e;
	for (int t = 0; t < 4; t++) {
		e = leaf_i(g, d);
		if (named_ex(e))
			return e;
	}
	Var *v = pick_var(g, T_I, 0, 1);
	if (v)
		return var_ex(v);
	if (!g->in_func) {
		e = ex("i", T_I, P_ATOM, iv_mk(0, NMAX - 1), DEP_THREAD | DEP_N);
		e.idx = 1;
	}
	return e;
}

/* A vector or matrix of size N that names a variable: one, an array
 * element, or the constructor filled with a float that does. */
static Expr dep_vm(G *g, int ty, int d)
{
	Var *v = pick_var(g, ty, 0, 1);
	if (v)
		return var_ex(v);
	Var *a = pick_arr(g, ty, -1);
	if (a)
		return read_arr(g, a, d);
	Expr x = dep_f(g, d - 1);
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
static Expr no_const(G *g, Expr e, int d)
{
	if (named_ex(e) || is_lit(e.s))
		return e;
	if (e.ty == T_F)
		return dep_f(g, d);
	if (e.ty == T_I)
		return dep_i(g, d);
	if (IS_VEC(e.ty) || IS_MAT(e.ty))
		return dep_vm(g, e.ty, d);
	return e;
}

/* The float literals, in order of value, for a constant operand that a
 * guard would otherwise wrap (wp.sqrt(wp.abs(0.2) + 0.25)). */
static const char *const lit_up[] = {"0.05", "0.1", "0.125", "0.2", "0.25", "0.3", "0.5", "0.6",
				     "0.75", "0.8", "0.9", "1.25", "1.5", "2.0", "3.0", "4.0"};
static const double lit_upv[] = {0.05, 0.1, 0.125, 0.2, 0.25, 0.3, 0.5, 0.6,
				 0.75, 0.8, 0.9, 1.25, 1.5, 2.0, 3.0, 4.0};

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

/* ---- squashing and guards ----------------------------------------------- */

/* The round scales a person writes: 0.5, 0.25, 0.1, 0.05, 0.01 ... */
static const double round_scale[] = {0.5, 0.25, 0.2, 0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001, 0.0005, 0.0002, 0.0001};
static const char *const round_scale_text[] = {"0.5", "0.25", "0.2", "0.1", "0.05", "0.02", "0.01", "0.005", "0.002", "0.001", "0.0005", "0.0002", "0.0001"};

/* The first round scale k with m * k <= c, or -1 when none is that small. */
static int round_scale_for(double m, double c)
{
	for (int i = 0; i < (int)KS_NELEM(round_scale); i++)
		if (m * round_scale[i] <= c)
			return i;
	return -1;
}

/* E (a float, vector or matrix) times the round constant round_scale[I]. */
static Expr scale_by(G *g, Expr e, int i)
{
	if (e.ty == T_F)
		COV(g, expr_mul);
	else if (IS_VEC(e.ty))
		COV(g, expr_scalar_vec);
	else
		COV(g, expr_scalar_mat);
	return ex(S(round_scale_text[i], " * ", par(g, e, P_UNARY)), e.ty, P_MUL, iv_scale(e.iv, round_scale[i]), e.dep);
}

/* Float E clamped to [-c, c]. */
static Expr clamp_f(G *g, Expr e, double c)
{
	const char *ct = flit(g, c);
	COVB(g, CLAMP_F);
	return ex(S("wp.clamp(", e.s, ", -", ct, ", ", ct, ")"), T_F, P_ATOM, iv_mk(fmax(e.iv.lo, -c), fmin(e.iv.hi, c)), e.dep);
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
	int i = round_scale_for(m, 4.0);
	return i >= 0 ? scale_by(g, e, i) : clamp_f(g, e, 4.0);
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
		int i = round_scale_for(m, c);
		if (i >= 0)
			return scale_by(g, e, i);
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
	return ex(S("wp.clamp(", e.s, ", -", ct, ", ", ct, ")"), T_I, P_ATOM, iv_mk(fmax(e.iv.lo, -c), fmin(e.iv.hi, c)), e.dep);
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

/* Is a its own absolute value, so that wp.abs(a) would read as a
 * blemish: a call of wp.abs, or an int never negative (wp.abs(i))? */
static int abs_needless(Expr a) { return abs_call(a.s) || (a.ty == T_I && a.iv.lo >= 0); }

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
		return ex(S(flit(g, c), " + ", par(g, b, P_MUL)), T_F, P_ADD, iv_mk(b.iv.lo + c, b.iv.hi + c), b.dep);
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
		return ex(S(c[k], " + ", abs_text(g, b.s, GB_ABS_F)), T_F, P_ADD, iv_mk(cv[k], cv[k] + iv_mag(b.iv)),
			  b.dep);
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
static Expr positive(G *g, Expr a, double lo)
{
	if (a.iv.lo >= lo)
		return a;
	if (!named_ex(a))
		return lit_in(g, lo, 4.0, 0);
	const char *lt = lo == 0.25 ? "0.25" : "0.5";
	if (short_text(a) && chance(g, 50)) {
		COV(g, expr_mul);
		COV(g, expr_add);
		return ex(S(par(g, a, P_MUL), " * ", par(g, a, P_UNARY), " + ", lo == 0.25 ? "0.25" : "1.0"), T_F, P_ADD,
			  iv_mk(lo == 0.25 ? 0.25 : 1.0, iv_mag(a.iv) * iv_mag(a.iv) + 1.0), a.dep);
	}
	COV(g, expr_add);
	return ex(S(abs_text(g, a.s, GB_ABS_F), " + ", lt), T_F, P_ADD, iv_mk(lo, lo + iv_mag(a.iv)), a.dep);
}

/* ---- float --------------------------------------------------------------- */

static Expr leaf_f(G *g, int d)
{
	for (int t = 0; t < 6; t++) {
		switch (rnd(g, 10)) {
		case 0: case 1: case 2: case 3: {
			Var *v = pick_var(g, T_F, 0, 1);
			if (v)
				return var_ex(v);
			break;
		}
		case 4: case 5: {
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
			return ex(S(v->name, "[", ilit(g, row), ", ", ilit(g, col), "]"), T_F, P_ATOM, v->iv, v->dep);
		}
		case 8: {
			Var *v = pick_var(g, T_I, 0, 1);
			if (!v || iv_mag(v->iv) > 1e6)
				break;
			COV(g, expr_conv_float);
			return ex(S(chance(g, 10) ? "wp.float32(" : "float(", v->name, ")"), T_F, P_ATOM, v->iv, v->dep);
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

static const char *thresh_in(G *g, Iv iv);

/* The argument of a quantizer (floor, ceil, round, sign...): scaled so
 * that its range spans a few integers (the cell of a position is
 * wp.floor(8.0 * x)), or for a sign shifted to straddle 0 (wp.sign(x -
 * 0.3)); else the result is one value for every thread and seed. */
static Expr spread(G *g, Expr a, int sign)
{
	if (sign) {
		if (a.iv.lo < 0 && a.iv.hi > 0)
			return a;
		const char *t = thresh_in(g, a.iv);
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
		a = positive(g, a, 0.5);
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
		a = positive(g, a, 0.25);
		COVB(g, SQRT);
		return ex(S("wp.sqrt(", a.s, ")"), T_F, P_ATOM, iv_mk(sqrt(a.iv.lo), sqrt(a.iv.hi)), a.dep);
	case 12: {
		a = positive(g, a, 0.5);
		a = squash(g, a, 8.0);
		if (a.iv.lo < 0.5) /* squashing a positive value keeps it >= 0.5 only if scaled; redo */
			a = positive(g, squash(g, a, 4.0), 0.5);
		static const char *const et[] = {"2.0", "0.5", "1.5", "3.0", "-1.0", "0.25"};
		static const double ev[] = {2.0, 0.5, 1.5, 3.0, -1.0, 0.25};
		int k = rnd(g, 6);
		double b0 = a.iv.lo, b1 = a.iv.hi, e = ev[k];
		double p0 = pow(b0, e), p1 = pow(b1, e);
		COVB(g, POW);
		return ex(S("wp.pow(", a.s, ", ", et[k], ")"), T_F, P_ATOM, iv_mk(fmin(p0, p1), fmax(p0, p1)), a.dep);
	}
	case 13:
		a = spread(g, a, 0);
		COVB(g, FLOOR);
		return ex(S("wp.floor(", a.s, ")"), T_F, P_ATOM, iv_mk(floor(a.iv.lo), floor(a.iv.hi)), a.dep);
	case 14:
		a = spread(g, a, 0);
		COVB(g, CEIL);
		return ex(S("wp.ceil(", a.s, ")"), T_F, P_ATOM, iv_mk(ceil(a.iv.lo), ceil(a.iv.hi)), a.dep);
	case 15:
		if (abs_call(s))
			return ex(s, T_F, P_ATOM, v, a.dep);
		COVB(g, ABS_F);
		return ex(S("wp.abs(", s, ")"), T_F, P_ATOM, iv_mk(v.lo > 0 ? v.lo : v.hi < 0 ? -v.hi : 0, iv_mag(v)), a.dep);
	default:
		a = spread(g, a, 1);
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
		a = dep_f(g, d - 1);
	switch (rnd(g, 4)) {
	case 0: {
		Expr b = gen_f(g, d - 1);
		REDRAW(a, b, gen_f(g, d - 1));
		while (SAME(a, b))
			b = lit_f(g);
		COVB(g, MIN_F);
		return ex(S("wp.min(", a.s, ", ", b.s, ")"), T_F, P_ATOM, iv_mk(fmin(a.iv.lo, b.iv.lo), fmin(a.iv.hi, b.iv.hi)), a.dep | b.dep);
	}
	case 1: {
		Expr b = gen_f(g, d - 1);
		REDRAW(a, b, gen_f(g, d - 1));
		while (SAME(a, b))
			b = lit_f(g);
		COVB(g, MAX_F);
		return ex(S("wp.max(", a.s, ", ", b.s, ")"), T_F, P_ATOM, iv_mk(fmax(a.iv.lo, b.iv.lo), fmax(a.iv.hi, b.iv.hi)), a.dep | b.dep);
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
		return ex(S(par(g, a, P_ADD), " + ", par(g, b, P_MUL)), T_F, P_ADD, iv_add(a.iv, b.iv), a.dep | b.dep);
	}
	if (op < 10) {
		Expr b = gen_f(g, d - 1);
		REDRAW(a, b, gen_f(g, d - 1));
		while (SAME(a, b))
			b = lit_f(g);
		COV(g, expr_sub);
		return ex(S(par(g, a, P_ADD), " - ", par(g, b, P_MUL)), T_F, P_ADD, iv_sub(a.iv, b.iv), a.dep | b.dep);
	}
	if (op < 15) {
		Expr b = gen_f(g, d - 1);
		if (iv_mag(iv_mul(a.iv, b.iv)) > LIM)
			b = squash(g, b, LIM / fmax(iv_mag(a.iv), 1.0));
		COV(g, expr_mul);
		return ex(S(par(g, a, P_MUL), " * ", par(g, b, P_UNARY)), T_F, P_MUL, iv_mul(a.iv, b.iv), a.dep | b.dep);
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
		return leaf_f(g, d);
	if (chance(g, g->rng[0] ? 2 * LIB_PCT : LIB_PCT))
		e = lib_f(g, d);
	else switch (wpick(g, g->p->ex, NEX)) {
	case EX_LEAF:
		e = leaf_f(g, d);
		break;
	case EX_ARITH:
		e = arith_f(g, d);
		break;
	case EX_MATH: {
		Expr arg = gen_f(g, d - 1);
		for (int t = 0; t < 3 && !arg.dep; t++)
			arg = gen_f(g, d - 1);
		if (!named_ex(arg))
			arg = dep_f(g, d - 1);
		e = math1(g, arg);
		if (chance(g, 10)) {
			Expr y = gen_f(g, d - 1), x = safe_div(g, gen_f(g, d - 1));
			if (!named_ex(y) && !named_ex(x))
				y = dep_f(g, d - 1);
			if (x.iv.lo < 0) {
				COV(g, expr_neg);
				x = ex(S("-", par(g, x, P_UNARY)), T_F, P_UNARY, iv_neg(x.iv), x.dep);
			}
			COVB(g, ATAN2);
			e = ex(S("wp.atan2(", y.s, ", ", x.s, ")"), T_F, P_ATOM, iv_mk(-1.5707963267948966, 1.5707963267948966), y.dep | x.dep | e.dep);
		}
		break;
	}
	case EX_VEC: {
		int n = chance(g, 60) ? g->vecn : 2 + rnd(g, 3);
		Expr u = gen_v(g, n, d - 1);
		/* not wp.length_sq(wp.vec3(s)): n s^2 written the long way */
		for (int t = 0; t < 3 && is_splat(u); t++)
			u = gen_v(g, n, d - 1);
		int r = is_splat(u) ? 0 : rnd(g, 4);
		if (r == 3 && is_ctor(u)) /* not wp.vec3(a, b, c)[1] */
			r = rnd(g, 3);
		/* not wp.length(wp.normalize(v)): 1 up to rounding, which
		 * float and double round to either side of a later floor */
		if ((r == 1 || r == 2) && !strncmp(u.s, "wp.normalize(", 13))
			r = 3;
		switch (r) {
		case 0: {
			Expr w = gen_v(g, n, d - 1);
			NOT_BOTH_CTOR(u, w, gen_v(g, n, d - 1));
			if (is_ctor(u) && is_ctor(w)) {
				COVB(g, LENGTH);
				e = ex(S("wp.length(", u.s, ")"), T_F, P_ATOM, iv_mk(0, sqrt(n) * iv_mag(u.iv)), u.dep);
				break;
			}
			COVB(g, DOT);
			e = ex(S("wp.dot(", u.s, ", ", w.s, ")"), T_F, P_ATOM, iv_sym(n * iv_mag(u.iv) * iv_mag(w.iv)), u.dep | w.dep);
			break;
		}
		case 1:
			COVB(g, LENGTH);
			e = ex(S("wp.length(", u.s, ")"), T_F, P_ATOM, iv_mk(0, sqrt(n) * iv_mag(u.iv)), u.dep);
			break;
		case 2:
			COVB(g, LENGTH_SQ);
			e = ex(S("wp.length_sq(", u.s, ")"), T_F, P_ATOM, iv_mk(0, n * iv_mag(u.iv) * iv_mag(u.iv)), u.dep);
			break;
		default: {
			int k = rnd(g, n);
			if (u.prec == P_ATOM && chance(g, 50)) {
				static const char *const comp[] = {".x", ".y", ".z", ".w"};
				COV(g, expr_vec_attr);
				e = ex(S(u.s, comp[k]), T_F, P_ATOM, u.iv, u.dep);
			} else {
				COV(g, expr_vec_index);
				e = ex(S(par(g, u, P_ATOM), "[", ilit(g, k), "]"), T_F, P_ATOM, u.iv, u.dep);
			}
		}
		}
		break;
	}
	case EX_MAT: {
		int n = 2 + rnd(g, 3);
		Expr m = gen_m(g, n, d - 1);
		if (chance(g, 50) || is_ctor(m)) {
			e = det_f(g, n, m, d - 1);
		} else {
			COV(g, expr_mat_elem);
			int col = rnd(g, n), row = rnd(g, n); /* drawn in turn, not as two arguments */
			e = ex(S(par(g, m, P_ATOM), "[", ilit(g, row), ", ", ilit(g, col), "]"), T_F, P_ATOM, m.iv, m.dep);
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
		e = ex(S(par(g, a, P_OR), " if ", par(g, c, P_OR), " else ", par(g, b, P_IFEXP)), T_F, P_IFEXP, iv_hull(a.iv, b.iv), a.dep | b.dep | c.dep);
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
			k = dep_i(g, d - 1);
		k = squash_int(g, k, 1000);
		COV(g, expr_conv_float);
		e = ex(S("float(", k.s, ")"), T_F, P_ATOM, k.iv, k.dep);
		break;
	}
	}
	if (iv_mag(e.iv) > LIM)
		e = squash(g, e, LIM / 4);
	return no_const(g, e, d);
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

/* ---- int ------------------------------------------------------------------ */

static Expr leaf_i(G *g, int d)
{
	switch (rnd(g, 8)) {
	case 0: case 1: {
		Var *v = pick_var(g, T_I, 0, 1);
		if (v)
			return var_ex(v);
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
			return var_ex(nvar(g));
		break;
	case 4: {
		Expr f = gen_f(g, d - 1);
		if (!named_ex(f)) /* not int(0.5 * 4.0) */
			f = dep_f(g, d - 1);
		f = squash(g, f, 100.0);
		static const char *const k[] = {"4.0", "8.0", "10.0", "3.0", "16.0"};
		static const double kv[] = {4, 8, 10, 3, 16};
		int j = rnd(g, 5);
		COV(g, expr_conv_int);
		COV(g, expr_mul);
		Expr e = ex(S(chance(g, 10) ? "wp.int32(" : "int(", par(g, f, P_MUL), " * ", k[j], ")"), T_I, P_ATOM,
			    iv_mk(trunc(f.iv.lo * kv[j]), trunc(f.iv.hi * kv[j])), f.dep);
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
			return var_ex(v);
		return ex("1", T_I, P_ATOM, iv_mk(1, 1), 0);
	}
	Expr e = ex("i", T_I, P_ATOM, iv_mk(0, NMAX - 1), DEP_THREAD | DEP_N);
	e.idx = 1;
	return e;
}

static Expr int_div(G *g, Expr b)
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
		return leaf_i(g, d);
	if (chance(g, g->rng[0] ? 2 * LIB_PCT : LIB_PCT)) {
		Expr l = lib_i(g, d);
		return iv_mag(l.iv) >= ILIM ? dep_i(g, 0) : l;
	}
	Expr a = gen_i(g, d - 1), b, e;
	switch (rnd(g, 12)) {
	case 0: case 1:
		b = gen_i(g, d - 1);
		REDRAW(a, b, gen_i(g, d - 1));
		while (SAME(a, b))
		{
			int k_ = 1 + rnd(g, 9);
			b = ex(ilit(g, k_), T_I, P_ATOM, iv_mk(k_, k_), 0);
		}
		COV(g, expr_int_add);
		e = ex(S(par(g, a, P_ADD), " + ", par(g, b, P_MUL)), T_I, P_ADD, iv_add(a.iv, b.iv), a.dep | b.dep);
		break;
	case 2:
		b = gen_i(g, d - 1);
		REDRAW(a, b, gen_i(g, d - 1));
		while (SAME(a, b))
		{
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
		e = ex(S(par(g, a, P_MUL), " * ", par(g, b, P_UNARY)), T_I, P_MUL, iv_mul(a.iv, b.iv), a.dep | b.dep);
		break;
	}
	case 4: case 5: case 6: {
		/* compared before the guard: i % (i + 1) is i */
		b = gen_i(g, d - 1);
		REDRAW(a, b, gen_i(g, d - 1));
		if (SAME(a, b)) {
			int k_ = 2 + rnd(g, 6);
			b = ex(ilit(g, k_), T_I, P_ATOM, iv_mk(k_, k_), 0);
		}
		b = int_div(g, b);
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
			e = ex(S("wp.min(", a.s, ", ", b.s, ")"), T_I, P_ATOM, iv_mk(fmin(a.iv.lo, b.iv.lo), fmin(a.iv.hi, b.iv.hi)), a.dep | b.dep);
		} else {
			COVB(g, MAX_I);
			e = ex(S("wp.max(", a.s, ", ", b.s, ")"), T_I, P_ATOM, iv_mk(fmax(a.iv.lo, b.iv.lo), fmax(a.iv.hi, b.iv.hi)), a.dep | b.dep);
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
	return no_const(g, e, d);
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
		e = var_ex(v);
	}
	int r = rnd(g, 100);
	if (d <= 0 || r < 35)
		return e;
	if (r < 50) {
		Var *v = pick_var(g, T_I, 1, 1);
		if (v)
			return var_ex(v);
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
		out = ex(S("wp.min(", a.s, " + ", ilit(g, 1 + rnd(g, 3)), ", ", ns, " - 1)"), T_I, P_ATOM, iv_mk(0, NMAX - 1), a.dep);
		break;
	case 3:
		COVB(g, MAX_I);
		COV(g, expr_int_sub);
		out = ex(S("wp.max(", a.s, " - ", ilit(g, 1 + rnd(g, 3)), ", 0)"), T_I, P_ATOM, iv_mk(0, NMAX - 1), a.dep);
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
			f = dep_f(g, d - 1);
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
		out = ex(S("wp.abs(", a.s, " - ", par(g, b, P_MUL), ")"), T_I, P_ATOM, iv_mk(0, NMAX - 1), a.dep | b.dep);
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

/* ---- bool ------------------------------------------------------------------ */

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
			Expr e = var_ex(v);
			return v->iv.hi - v->iv.lo > 200 ? squash(g, e, 2.0) : e;
		}
	}
	Var *o = pick_arr(g, T_F, -1);
	if (o)
		return read_arr(g, o, 1);
	Expr e = dep_f(g, 0);
	if (e.iv.hi - e.iv.lo > 200)
		e = squash(g, e, 2.0);
	return e;
}

/* A threshold in the middle third of iv (values of sums and products
 * gather there): a round one of thresh()'s when
 * one fits, else two decimals, the last neither 0 nor 5 (never a
 * multiple of 2^-23: no input equals it). */
static const char *thresh_in(G *g, Iv iv)
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
		if (!(isalpha((unsigned char)*p) || *p == '_') || (p > a && (isalnum((unsigned char)p[-1]) ||
									    p[-1] == '_' || p[-1] == '.'))) {
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
#define REDRAW_SHARED(a, b, gen) \
	do { \
		for (int t_ = 0; t_ < 4 && shares_name((a).s, (b).s); t_++) \
			b = (gen); \
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
			return var_ex(v);
	}
	if (r < 10) {
		/* an int that varies from thread to thread on the left: no
		 * comparison of constants, nor of a value every thread shares */
		Expr a = gen_i(g, d > 0 ? d - 1 : 0);
		for (int t = 0; t < 4 && !(a.dep & DEP_VARY); t++)
			a = gen_i(g, d > 0 ? d - 1 : 0);
		if (!(a.dep & DEP_VARY))
			a = dep_i(g, 0);
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
		return ex(S(par(g, a, P_ADD), cmp_op(g, 1), par(g, b, P_ADD)), T_B, P_CMP, iv_mk(0, 1), a.dep | b.dep);
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
	const char *b = thresh_in(g, a.iv);
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

/* ---- vectors --------------------------------------------------------------------- */

static Expr vec_ctor(G *g, int n, int d)
{
	if (chance(g, 12)) {
		Expr a = gen_f(g, d - 1);
		if (!named_ex(a))
			a = dep_f(g, d - 1);
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
		c[rnd(g, n)] = dep_f(g, d - 1);
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
static int leaf_vm(G *g, int ty, int r, int d, Expr *e)
{
	Var *v = r < 2 ? pick_var(g, ty, 0, 1) : r < 4 ? pick_arr(g, ty, -1) : NULL;
	if (!v)
		return 0;
	*e = r < 2 ? var_ex(v) : read_arr(g, v, d);
	return 1;
}

static Expr leaf_v(G *g, int n, int d)
{
	int t = VEC_OF(n), r = rnd(g, 6);
	Expr e;
	if (leaf_vm(g, t, r, d, &e))
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
	else switch (rnd(g, 14)) {
	case 0: case 1:
		a = gen_v(g, n, d - 1);
		if (!second_vm(g, a, d - 1, &b)) {
			e = a;
			break;
		}
		COV(g, expr_vec_add);
		e = ex(S(par(g, a, P_ADD), " + ", par(g, b, P_MUL)), t, P_ADD, iv_add(a.iv, b.iv), a.dep | b.dep);
		break;
	case 2:
		a = gen_v(g, n, d - 1);
		if (!second_vm(g, a, d - 1, &b)) {
			e = a;
			break;
		}
		COV(g, expr_vec_sub);
		e = ex(S(par(g, a, P_ADD), " - ", par(g, b, P_MUL)), t, P_ADD, iv_sub(a.iv, b.iv), a.dep | b.dep);
		break;
	case 3: case 4: {
		Expr s = squash(g, gen_f(g, d - 1), 4.0);
		a = gen_v(g, n, d - 1);
		COV(g, expr_scalar_vec);
		if (chance(g, 70))
			e = ex(S(par(g, s, P_MUL), " * ", par(g, a, P_UNARY)), t, P_MUL, iv_mul(s.iv, a.iv), a.dep | s.dep);
		else
			e = ex(S(par(g, a, P_MUL), " * ", par(g, s, P_UNARY)), t, P_MUL, iv_mul(s.iv, a.iv), a.dep | s.dep);
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
		if (is_ctor(m) && is_ctor(a)) {
			e = a;
			break;
		}
		COV(g, expr_mat_vec);
		e = ex(S(par(g, m, P_MUL), " * ", par(g, a, P_UNARY)), t, P_MUL, iv_sym(n * iv_mag(m.iv) * iv_mag(a.iv)), a.dep | m.dep);
		break;
	}
	case 7: {
		a = gen_v(g, n, d - 1);
		for (int t_ = 0; t_ < 3 && is_ctor(a); t_++) /* not wp.vec3(x, y, z) + wp.vec3(0.0, 2.0, 0.0) */
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
			if (!second_vm(g, a, d - 1, &b)) {
				e = a;
				break;
			}
			COVB(g, CROSS);
			e = ex(S("wp.cross(", a.s, ", ", b.s, ")"), t, P_ATOM, iv_sym(2 * iv_mag(a.iv) * iv_mag(b.iv)), a.dep | b.dep);
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
			if (!second_vm(g, a, d - 1, &b)) {
				e = a;
				break;
			}
			COVB(g, MIN_V);
			e = ex(S("wp.min(", a.s, ", ", b.s, ")"), t, P_ATOM, iv_mk(fmin(a.iv.lo, b.iv.lo), fmin(a.iv.hi, b.iv.hi)), a.dep | b.dep);
			break;
		default:
			if (!second_vm(g, a, d - 1, &b)) {
				e = a;
				break;
			}
			COVB(g, MAX_V);
			e = ex(S("wp.max(", a.s, ", ", b.s, ")"), t, P_ATOM, iv_mk(fmax(a.iv.lo, b.iv.lo), fmax(a.iv.hi, b.iv.hi)), a.dep | b.dep);
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
	return no_const(g, e, d);
}

/* ---- matrices ----------------------------------------------------------------------- */

static const char *eye(G *g, int n, double c)
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
static const char *diag_plus(G *g, Expr m, int n, const double *diag, double tol, double *scale)
{
	double mm = iv_mag(m.iv), k = 1;
	const char *sm = par(g, m, P_ADD);
	if (n * mm > tol) {
		int i = round_scale_for(n * mm, tol);
		k = i >= 0 ? round_scale[i] : pow(10.0, floor(log10(tol / (n * mm))));
		sm = S(i >= 0 ? round_scale_text[i] : flit(g, k), " * ", par(g, m, P_UNARY));
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
			a = dep_f(g, d - 1);
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
			a = dep_f(g, n >= 3 ? 0 : d - 2);
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
static Expr det_f(G *g, int n, Expr m, int d)
{
	Iv iv;
	const char *arg;
	int dep;
	if (is_ctor(m)) {
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
				a[k] = dep_f(g, n >= 3 ? 0 : d - 2);
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
		arg = diag_plus(g, m, n, one, 0.5, &k);
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
	if (leaf_vm(g, t, r, d, &e))
		return e;
	switch (r) {
	case 4: {
		Expr a = gen_v(g, n, d > 0 ? d - 1 : 0), b = gen_v(g, n, d > 0 ? d - 1 : 0);
		NOT_BOTH_CTOR(a, b, gen_v(g, n, d > 0 ? d - 1 : 0));
		if (is_ctor(a) && is_ctor(b))
			break;
		COVB(g, OUTER);
		return ex(S("wp.outer(", a.s, ", ", b.s, ")"), t, P_ATOM, iv_sym(iv_mag(a.iv) * iv_mag(b.iv)), a.dep | b.dep);
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
	else switch (rnd(g, 11)) {
	case 0:
		a = gen_m(g, n, d - 1);
		if (!second_vm(g, a, d - 1, &b)) {
			e = a;
			break;
		}
		if (chance(g, 50)) {
			COV(g, expr_mat_add);
			e = ex(S(par(g, a, P_ADD), " + ", par(g, b, P_MUL)), t, P_ADD, iv_add(a.iv, b.iv), a.dep | b.dep);
		} else {
			COV(g, expr_sub);
			e = ex(S(par(g, a, P_ADD), " - ", par(g, b, P_MUL)), t, P_ADD, iv_sub(a.iv, b.iv), a.dep | b.dep);
		}
		break;
	case 1: case 2:
		a = gen_m(g, n, d - 1);
		b = gen_m(g, n, d - 1);
		NOT_BOTH_CTOR(a, b, gen_m(g, n, d - 1));
		if (is_ctor(a) && is_ctor(b)) {
			e = a;
			break;
		}
		COV(g, expr_mat_mat);
		e = ex(S(par(g, a, P_MUL), " * ", par(g, b, P_UNARY)), t, P_MUL, iv_sym(n * iv_mag(a.iv) * iv_mag(b.iv)), a.dep | b.dep);
		break;
	case 3: {
		Expr s = squash(g, gen_f(g, d - 1), 4.0);
		a = gen_m(g, n, d - 1);
		COV(g, expr_scalar_mat);
		e = ex(S(par(g, s, P_MUL), " * ", par(g, a, P_UNARY)), t, P_MUL, iv_mul(s.iv, a.iv), a.dep | s.dep);
		break;
	}
	case 4:
		a = gen_m(g, n, d - 1);
		COVB(g, TRANSPOSE);
		e = ex(S("wp.transpose(", a.s, ")"), t, P_ATOM, a.iv, a.dep);
		break;
	case 5: {
		a = gen_m(g, n, d - 1);
		for (int t_ = 0; t_ < 3 && is_ctor(a); t_++) /* not wp.mat22(a, b, c, d) + wp.mat22(5.0, ...) */
			a = gen_m(g, n, d - 1);
		double c = ceil(n * iv_mag(a.iv)) + 1.0;
		COV(g, expr_mat_add);
		COVB(g, INVERSE);
		e = ex(S("wp.inverse(", a.s, " + ", eye(g, n, c), ")"), t, P_ATOM, iv_sym(1.0), a.dep);
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
	return no_const(g, e, d);
}

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

/* ---- the wider library ------------------------------------------------------ */

/* The rows of ir/builtins.h beyond the arithmetic core: special
 * functions, component-wise and structural vector and matrix functions,
 * quaternions, transforms and spatial vectors written inline (kgen keeps
 * no local of those types), and draws from the kernel's random state.
 * Each keeps the domain rules of the top of this file:
 *   erfinv        argument within +-0.9; erfcinv 1 +- 0.9; cbrt >= 0.25
 *   mod, cw_div   divisors >= 0.5 in size (wp.abs(w) + c, c + cw_mul(b, b))
 *   quaternions   unit by construction: from an axis made non-zero and
 *                 normalized, roll/pitch/yaw, a matrix s M + I (its trace
 *                 > 0, Warp's first branch), a normalized wp.quat(v, 1.0);
 *                 slerp from the identity to an angle in [0.5, 2.5]
 *   draws         randn within +-6 (Box-Muller of 2^-24 steps); none in a
 *                 branch of x if c else y, nor in and/or */

#define SQRT3 1.7320508075688772

static Expr no_ctor(G *g, int ty, int d);

/* wp.normalize(v + wp.vec3(0.0, c, 0.0)): a unit axis. */
static Expr unit_axis(G *g, int d)
{
	Expr a = gen_v(g, 3, d);
	for (int t = 0; t < 3 && is_ctor(a); t++)
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
		a = dep_f(g, d);
	return squash(g, a, c);
}

/* diag_plus of a random matrix M: its singular values lie within TOL of
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
	return diag_plus(g, m, n, diag, tol, NULL);
}

/* s M + I for a matrix of size N: diagonally dominant (as det_f). */
static const char *near_eye(G *g, int n, int d, int *dep)
{
	static const double one[] = {1.0, 1.0, 1.0, 1.0};
	Expr m = gen_m(g, n, d);
	*dep = m.dep;
	return diag_plus(g, m, n, one, 0.5, NULL);
}

/* A unit quaternion (its text; components within +-1). */
static Expr gen_q(G *g, int d)
{
	int dep = 0;
	switch (rnd(g, d > 0 ? 8 : 4)) {
	case 0: {
		Expr ax = unit_axis(g, d - 1), an = named_f(g, d - 1, 3.0);
		COVB(g, QUAT_FROM_AXIS_ANGLE);
		return ex(S("wp.quat_from_axis_angle(", ax.s, ", ", an.s, ")"), T_V4, P_ATOM, iv_sym(1), ax.dep | an.dep);
	}
	case 1: {
		Expr r = named_f(g, d - 1, 3.0), p = named_f(g, d - 1, 1.5), y = named_f(g, d - 1, 3.0);
		COVB(g, QUAT_RPY);
		return ex(S("wp.quat_rpy(", r.s, ", ", p.s, ", ", y.s, ")"), T_V4, P_ATOM, iv_sym(1), r.dep | p.dep | y.dep);
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
		return ex(S("wp.quat_slerp(wp.quat_identity(), wp.quat_from_axis_angle(", ax.s, ", ", PICK(g, c), " + ",
			    par(g, an, P_MUL), "), ", t.s, ")"),
			  T_V4, P_ATOM, iv_sym(1), ax.dep | an.dep | t.dep);
	}
	case 6: {
		Expr tq = gen_q(g, d - 1);
		Expr p = squash(g, gen_v(g, 3, d - 1), 4.0);
		COVB(g, TRANSFORM_GET_ROTATION);
		return ex(S("wp.transform_get_rotation(wp.transform(", p.s, ", ", tq.s, "))"), T_V4, P_ATOM, iv_sym(1),
			  tq.dep | p.dep);
	}
	default: {
		/* a rotation that applies only where a condition holds */
		Expr c = gen_b(g, d - 1);
		g->no_draw++;
		Expr q = gen_q(g, d - 1);
		g->no_draw--;
		COV(g, expr_ifexp);
		COVB(g, QUAT_IDENTITY);
		return ex(S("(", q.s, " if ", par(g, c, P_OR), " else wp.quat_identity())"), T_V4, P_ATOM, iv_sym(1),
			  q.dep | c.dep);
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
		return ex(S("(", a.s, " if ", par(g, c, P_OR), " else wp.transform_identity())"), T_V4, P_ATOM, a.iv,
			  a.dep | c.dep);
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
		return ex(S(dual ? "wp.spatial_cross_dual(" : "wp.spatial_cross(", a.s, ", ", b.s, ")"), T_V4, P_ATOM,
			  iv_sym(4 * iv_mag(a.iv) * iv_mag(b.iv)), a.dep | b.dep);
	}
	case 3: {
		Expr r = squash(g, gen_m(g, 3, d - 1), 2.0), s = squash(g, gen_m(g, 3, d - 1), 2.0);
		NOT_BOTH_CTOR(r, s, squash(g, gen_m(g, 3, d - 1), 2.0));
		if (is_ctor(r) && is_ctor(s))
			s = no_ctor(g, T_M33, d - 1);
		Expr v = squash(g, gen_sv(g, d - 1), 4.0);
		COVB(g, SPATIAL_ADJOINT);
		return ex(S("wp.spatial_adjoint(", r.s, ", ", s.s, ") * ", v.s), T_V4, P_MUL,
			  iv_sym(6 * fmax(iv_mag(r.iv), iv_mag(s.iv)) * iv_mag(v.iv)), r.dep | s.dep | v.dep);
	}
	default: {
		Expr w = gen_v(g, 3, d > 0 ? d - 1 : 0), v = gen_v(g, 3, d > 0 ? d - 1 : 0);
		NOT_BOTH_CTOR(w, v, gen_v(g, 3, d > 0 ? d - 1 : 0));
		if (is_ctor(w) && is_ctor(v))
			v = no_ctor(g, T_V3, d > 0 ? d - 1 : 0);
		return ex(S("wp.spatial_vector(", w.s, ", ", v.s, ")"), T_V4, P_ATOM, iv_hull(w.iv, v.iv), w.dep | v.dep);
	}
	}
}

static int can_draw(G *g) { return g->rng[0] && !g->in_func && !g->no_draw; }

/* A vector of N that is not a splat, with its components apart. */
static Expr plain_v(G *g, int n, int d)
{
	Expr u = gen_v(g, n, d);
	for (int t = 0; t < 3 && (is_splat(u) || !named_ex(u)); t++)
		u = gen_v(g, n, d);
	if (!named_ex(u))
		u = dep_vm(g, VEC_OF(n), d);
	return u;
}

/* A vector or matrix of type TY that is no constructor (a call of two
 * constructors reads as one written out by hand): drawn again, else a
 * variable or element of the type, else a constructor scaled. */
static Expr no_ctor(G *g, int ty, int d)
{
	Expr e = gen_ty(g, ty, d);
	for (int t = 0; t < 4 && is_ctor(e); t++)
		e = gen_ty(g, ty, d);
	if (!is_ctor(e))
		return e;
	Var *v = pick_var(g, ty, 0, 1);
	if (v)
		return var_ex(v);
	Var *a = pick_arr(g, ty, -1);
	if (a)
		return read_arr(g, a, d);
	return scale_by(g, e, 0);
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
		static const char *const lo[] = {"-1.0", "-0.5", "0.0", "0.1"}, *const hi[] = {"0.5", "1.0", "2.0", "0.8"};
		const char *l = PICK(g, lo), *h = PICK(g, hi); /* drawn in turn */
		COVB(g, SMOOTHSTEP);
		return ex(S("wp.smoothstep(", l, ", ", h, ", ", a.s, ")"), T_F, P_ATOM, iv_mk(0, 1), a.dep);
	}
	case 2: {
		Expr c = squash(g, a, 2.0);
		const char *t = thresh_in(g, c.iv);
		COVB(g, STEP);
		COV(g, expr_sub);
		return ex(S("wp.step(", par(g, c, P_ADD), " - ", t, ")"), T_F, P_ATOM, iv_mk(0, 1), a.dep);
	}
	case 3:
		a = spread(g, a, 0);
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
		a = spread(g, a, 0);
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
		return ex(S("wp.mod(", a.s, ", ", b.s, ")"), T_F, P_ATOM, iv_sym(fmin(iv_mag(a.iv), iv_mag(b.iv))), a.dep | b.dep);
	}
	case 9: {
		Expr b = gen_f(g, d - 1);
		REDRAW(a, b, gen_f(g, d - 1));
		COVB(g, COPYSIGN);
		return ex(S("wp.copysign(", a.s, ", ", b.s, ")"), T_F, P_ATOM, iv_sym(iv_mag(a.iv)), a.dep | b.dep);
	}
	case 10:
		a = positive(g, a, 0.25);
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
	case 14: case 15: {
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
		if (!second_vm(g, m, d - 1, &b))
			b = no_ctor(g, m.ty, d - 1);
		if (is_ctor(m) && is_ctor(b))
			b = no_ctor(g, m.ty, d - 1);
		COVB(g, DDOT);
		return ex(S("wp.ddot(", m.s, ", ", b.s, ")"), T_F, P_ATOM, iv_sym(n * n * iv_mag(m.iv) * iv_mag(b.iv)), m.dep | b.dep);
	}
	case 17: {
		int n = 2 + rnd(g, 3);
		Expr m = gen_m(g, n, d - 1);
		if (!named_ex(m))
			m = dep_vm(g, m.ty, d - 1);
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
	case 20: case 21: {
		Expr v = squash(g, gen_v(g, 3, d - 1), 2.0);
		Expr w = named_f(g, d - 1, 2.0);
		if (r == 20) {
			COVB(g, LENGTH_Q);
			return ex(S("wp.length(wp.quat(", v.s, ", ", w.s, "))"), T_F, P_ATOM, iv_mk(0, 4), v.dep | w.dep);
		}
		COVB(g, LENGTH_SQ_Q);
		return ex(S("wp.length_sq(wp.quat(", v.s, ", ", w.s, "))"), T_F, P_ATOM, iv_mk(0, 16), v.dep | w.dep);
	}
	case 22: case 23: {
		Expr p = squash(g, gen_sv(g, d - 1), 4.0), q = squash(g, gen_sv(g, d - 1), 4.0);
		REDRAW(p, q, squash(g, gen_sv(g, d - 1), 4.0));
		COVB(g, SPATIAL_DOT);
		return ex(S("wp.spatial_dot(", p.s, ", ", q.s, ")"), T_F, P_ATOM, iv_sym(6 * iv_mag(p.iv) * iv_mag(q.iv)),
			  p.dep | q.dep);
	}
	case 24: {
		Expr p = gen_q(g, d - 1);
		int row = rnd(g, 3), col = rnd(g, 3);
		COVB(g, QUAT_TO_MATRIX);
		COV(g, expr_mat_elem);
		return ex(S("wp.quat_to_matrix(", p.s, ")[", ilit(g, row), ", ", ilit(g, col), "]"), T_F,
			  P_ATOM, iv_sym(1), p.dep);
	}
	case 25:
		return a;
	case 26:
		COVB(g, RANDF);
		return ex(S("wp.randf(", g->rng, ")"), T_F, P_ATOM, iv_mk(0, 1), DEP_VARY);
	case 27: {
		static const char *const lo[] = {"-1.0", "0.0", "0.5", "-0.25"}, *const hi[] = {"1.0", "2.0", "1.5", "0.25"};
		static const double lov[] = {-1, 0, 0.5, -0.25}, hiv[] = {1, 2, 1.5, 0.25};
		int k = rnd(g, 4);
		COVB(g, RANDF_RANGE);
		return ex(S("wp.randf(", g->rng, ", ", lo[k], ", ", hi[k], ")"), T_F, P_ATOM, iv_mk(lov[k], hiv[k]), DEP_VARY);
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
			a = dep_i(g, d - 1);
		Expr b = gen_i(g, d - 1);
		REDRAW(a, b, gen_i(g, d - 1));
		b = int_div(g, b);
		COVB(g, MOD_I);
		return ex(S("wp.mod(", a.s, ", ", b.s, ")"), T_I, P_ATOM,
			  iv_mk(a.iv.lo >= 0 ? 0 : -b.iv.hi, a.iv.hi <= 0 ? 0 : b.iv.hi), a.dep | b.dep);
	}
	case 1: {
		Expr a = dep_i(g, d - 1);
		if (!named_ex(a)) /* not wp.bit_count(7) */
			return gen_i(g, d - 1);
		COVB(g, BIT_COUNT);
		return ex(S("wp.bit_count(", a.s, ")"), T_I, P_ATOM, iv_mk(0, 32), a.dep);
	}
	case 2: {
		Expr a = dep_i(g, d - 1);
		if (!named_ex(a))
			return gen_i(g, d - 1);
		COVB(g, INVERT);
		return ex(S("wp.invert(", a.s, ")"), T_I, P_ATOM, iv_mk(-a.iv.hi - 1, -a.iv.lo - 1), a.dep);
	}
	case 3: case 4: {
		int n = 2 + rnd(g, 3);
		Expr u = plain_v(g, n, d - 1);
		if (r == 3)
			COVB(g, ARGMIN);
		else
			COVB(g, ARGMAX);
		COV(g, expr_conv_int);
		return ex(S(r == 3 ? "int(wp.argmin(" : "int(wp.argmax(", u.s, "))"), T_I, P_ATOM, iv_mk(0, n - 1), u.dep);
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
		return ex(S("wp.randi(", g->rng, ", ", ilit(g, lo), ", ", ilit(g, hi), ")"), T_I, P_ATOM, iv_mk(lo, hi - 1),
			  DEP_VARY);
	}
	case 8: {
		int k = 2 + rnd(g, 15);
		COVB(g, RANDU);
		COV(g, expr_conv_int);
		return ex(S("int(wp.randu(", g->rng, ") % wp.uint32(", ilit(g, k), "))"), T_I, P_ATOM, iv_mk(0, k - 1),
			  DEP_VARY);
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
		return ex(S("int(wp.poisson(", g->rng, ", ", lam[k], "))"), T_I, P_ATOM, iv_mk(0, lv[k] * 20 + 40), DEP_VARY);
	}
	default: {
		Var *a = pick_arr(g, T_F, R_IN);
		if (!a)
			return gen_i(g, d - 1);
		COVB(g, SAMPLE_CDF);
		Expr e = ex(S("wp.sample_cdf(", g->rng, ", ", a->name, ")"), T_I, P_ATOM, iv_mk(0, NMAX - 1), DEP_VARY | DEP_N);
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
	case 1: case 2: {
		Expr a = plain_v(g, n, d - 1), b;
		if (!second_vm(g, a, d - 1, &b) || (is_ctor(a) && is_ctor(b)))
			b = no_ctor(g, t, d - 1);
		if (r == 1) {
			COVB(g, CW_MUL_V);
			return ex(S("wp.cw_mul(", a.s, ", ", b.s, ")"), t, P_ATOM, iv_mul(a.iv, b.iv), a.dep | b.dep);
		}
		double lo;
		const char *q = off_zero_v(g, n, b, &lo);
		COVB(g, CW_DIV_V);
		return ex(S("wp.cw_div(", a.s, ", ", q, ")"), t, P_ATOM, iv_sym(iv_mag(a.iv) / lo), a.dep | b.dep);
	}
	case 3: {
		Expr m = gen_m(g, n, d - 1);
		if (!named_ex(m))
			m = dep_vm(g, MAT_OF(n), d - 1);
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
			return ex(S("wp.div_approx(", s.s, ", ", q, ")"), t, P_ATOM, iv_sym(iv_mag(s.iv) / lo), s.dep | b.dep);
		}
		Expr a = plain_v(g, n, d - 1), s = safe_div(g, gen_f(g, d - 1));
		COVB(g, DIV_APPROX_V);
		return ex(S("wp.div_approx(", a.s, ", ", s.s, ")"), t, P_ATOM,
			  iv_sym(iv_mag(a.iv) / fmin(fabs(s.iv.lo), fabs(s.iv.hi))), a.dep | s.dep);
	}
	case 5: {
		Expr a = plain_v(g, n, d - 1), b, s = named_f(g, d - 1, 1.0);
		if (!second_vm(g, a, d - 1, &b) || (is_ctor(a) && is_ctor(b)))
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
	case 8: case 9: {
		Expr q = gen_q(g, d - 1), v = plain_v(g, 3, d - 1);
		if (r == 8)
			COVB(g, QUAT_ROTATE);
		else
			COVB(g, QUAT_ROTATE_INV);
		return ex(S(r == 8 ? "wp.quat_rotate(" : "wp.quat_rotate_inv(", q.s, ", ", v.s, ")"), t, P_ATOM,
			  iv_sym(SQRT3 * iv_mag(v.iv)), q.dep | v.dep);
	}
	case 10: case 11: {
		Expr x = gen_xf(g, d - 1), v = plain_v(g, 3, d - 1);
		if (r == 10) {
			COVB(g, TRANSFORM_POINT);
			return ex(S("wp.transform_point(", x.s, ", ", v.s, ")"), t, P_ATOM,
				  iv_sym(SQRT3 * iv_mag(v.iv) + iv_mag(x.iv)), x.dep | v.dep);
		}
		COVB(g, TRANSFORM_VECTOR);
		return ex(S("wp.transform_vector(", x.s, ", ", v.s, ")"), t, P_ATOM, iv_sym(SQRT3 * iv_mag(v.iv)), x.dep | v.dep);
	}
	case 12: {
		Expr x = gen_xf(g, d - 1);
		COVB(g, TRANSFORM_GET_TRANSLATION);
		return ex(S("wp.transform_get_translation(", x.s, ")"), t, P_ATOM, x.iv, x.dep);
	}
	case 13: {
		Expr m = gen_m(g, 4, d - 1), v = plain_v(g, 3, d - 1);
		if (!named_ex(m))
			m = dep_vm(g, T_M44, d - 1);
		if (is_ctor(m) && is_ctor(v))
			v = no_ctor(g, T_V3, d - 1);
		int pt = rnd(g, 2);
		if (pt)
			COVB(g, TRANSFORM_POINT_M);
		else
			COVB(g, TRANSFORM_VECTOR_M);
		return ex(S(pt ? "wp.transform_point(" : "wp.transform_vector(", m.s, ", ", v.s, ")"), t, P_ATOM,
			  iv_sym(iv_mag(m.iv) * (3 * iv_mag(v.iv) + 1)), m.dep | v.dep);
	}
	case 14: case 15: {
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
		return ex(S("wp.skew(", a.s, ") * ", par(g, b, P_UNARY)), t, P_MUL, iv_sym(2 * iv_mag(a.iv) * iv_mag(b.iv)),
			  a.dep | b.dep);
	}
	case 17: case 18:
		return gen_v(g, n, d - 1);
	default: {
		static const char *const s2[] = {"wp.sample_triangle(", "wp.sample_unit_ring(", "wp.sample_unit_disk(",
						 "wp.sample_unit_square("};
		static const int b2[] = {GB_SAMPLE_TRIANGLE, GB_SAMPLE_UNIT_RING, GB_SAMPLE_UNIT_DISK, GB_SAMPLE_UNIT_SQUARE};
		static const char *const s3[] = {"wp.sample_unit_sphere_surface(", "wp.sample_unit_sphere(",
						 "wp.sample_unit_hemisphere_surface(", "wp.sample_unit_hemisphere(",
						 "wp.sample_unit_cube("};
		static const int b3[] = {GB_SAMPLE_UNIT_SPHERE_SURFACE, GB_SAMPLE_UNIT_SPHERE,
					 GB_SAMPLE_UNIT_HEMISPHERE_SURFACE, GB_SAMPLE_UNIT_HEMISPHERE, GB_SAMPLE_UNIT_CUBE};
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
	case 0: case 1: {
		Expr a = gen_m(g, n, d - 1), b;
		if (!named_ex(a))
			a = dep_vm(g, t, d - 1);
		if (!second_vm(g, a, d - 1, &b) || (is_ctor(a) && is_ctor(b)))
			b = no_ctor(g, t, d - 1);
		b = squash(g, b, 4.0);
		if (chance(g, 50)) {
			COVB(g, CW_MUL_M);
			return ex(S("wp.cw_mul(", a.s, ", ", b.s, ")"), t, P_ATOM, iv_mul(a.iv, b.iv), a.dep | b.dep);
		}
		if (is_ctor(b)) /* not wp.cw_mul(wp.mat22(...), wp.mat22(...)) */
			b = squash(g, no_ctor(g, t, d - 1), 4.0);
		COVB(g, CW_DIV_M);
		return ex(S("wp.cw_div(", a.s, ", ", off_zero_m(g, n, b), ")"), t, P_ATOM, a.iv, a.dep | b.dep);
	}
	case 2: {
		Expr v = plain_v(g, n, d - 1);
		COVB(g, DIAG);
		return ex(S("wp.diag(", v.s, ")"), t, P_ATOM, iv_hull(v.iv, iv_mk(0, 0)), v.dep);
	}
	case 3: case 4: {
		Expr v[4];
		const char *s = "";
		Iv iv = iv_mk(0, 0);
		int dep = 0;
		int nctor = 0; /* one constructor among the vectors at most */
		for (int k = 0; k < n; k++) {
			v[k] = gen_v(g, n, d - 1);
			for (int j = 0; j < 3 && (!named_ex(v[k]) || (nctor && is_ctor(v[k]))); j++)
				v[k] = gen_v(g, n, d - 1);
			if (nctor && is_ctor(v[k]))
				v[k] = no_ctor(g, VEC_OF(n), d - 1);
			nctor += is_ctor(v[k]);
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
		for (int k = 0; k < 3 && is_ctor(a); k++)
			a = gen_m(g, n, d - 1);
		double c = ceil(n * iv_mag(a.iv)) + 1.0;
		COV(g, expr_mat_add);
		COVB(g, INVERSE_APPROX);
		return ex(S("wp.inverse_approx(", a.s, " + ", eye(g, n, c), ")"), t, P_ATOM, iv_sym(1.0), a.dep);
	}
	case 6: {
		if (chance(g, 30)) {
			/* a float over each element, the divisor at least 1 */
			Expr s = named_f(g, d - 1, 2.0), b = gen_m(g, n, d - 1);
			if (!named_ex(b))
				b = dep_vm(g, t, d - 1);
			b = squash(g, b, 4.0);
			COVB(g, DIV_APPROX_SM);
			return ex(S("wp.div_approx(", s.s, ", ", off_zero_m(g, n, b), ")"), t, P_ATOM, iv_sym(iv_mag(s.iv)),
				  s.dep | b.dep);
		}
		Expr a = gen_m(g, n, d - 1), s = safe_div(g, gen_f(g, d - 1));
		if (!named_ex(a))
			a = dep_vm(g, t, d - 1);
		COVB(g, DIV_APPROX_M);
		return ex(S("wp.div_approx(", a.s, ", ", s.s, ")"), t, P_ATOM,
			  iv_sym(iv_mag(a.iv) / fmin(fabs(s.iv.lo), fabs(s.iv.hi))), a.dep | s.dep);
	}
	case 7: {
		Expr a = gen_m(g, n, d - 1), b, s = named_f(g, d - 1, 1.0);
		if (!named_ex(a))
			a = dep_vm(g, t, d - 1);
		if (!second_vm(g, a, d - 1, &b) || (is_ctor(a) && is_ctor(b)))
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
