/*
 * sema_expr.c: expressions — literals, module constants read in a body,
 * names, conditions, operators and comparisons, the conditional
 * expression — and expr(), the dispatch every other part calls to lower
 * an expression to a value id (indexing, attributes and calls are
 * sema_index.c's and sema_call.c's).
 *
 * A literal becomes a constant of the type Warp gives it (int32, float32),
 * or of the type its context asks for (typed_literal: wp.float64(0.1) is
 * the double nearest 0.1), and is refused with its own text when it does
 * not fit.  Operators ask ir_op_type which operand types they take;
 * a refusal becomes a message with a hint (Warp never converts
 * implicitly).  Comparisons of numbers of two types are made in C's
 * common type, as Warp's C++ makes them, except in a chain.
 *
 * While an assignment's target is lowered (d[f(i)].x += e), expr and
 * index_val remember each node's value (the memo of Sema), so that a node
 * read and then written back is evaluated once.
 */
#include <math.h>
#include <string.h>

#include "sema.h"

/* ---- literals and module constants -------------------------------------- */

/* A syntactic number: N_INT, N_FLOAT, N_BOOL, or one of them negated
 * (+/-).  Its value in *i or *x, and whether it is a float in *isf. */
int literal(const Node *n, int64_t *i, double *x, int *isf)
{
	int neg = 0;
	while (n->kind == N_UNARY && (n->op == '-' || n->op == '+') && !n->paren) {
		neg ^= n->op == '-';
		n = n->kid[0];
	}
	if (n->kind == N_INT || n->kind == N_BOOL) {
		*i = neg ? -n->ival : n->ival;
		*x = (double)*i;
		*isf = 0;
		return 1;
	}
	if (n->kind == N_FLOAT) {
		*x = neg ? -n->fval : n->fval;
		*i = 0;
		*isf = 1;
		return 1;
	}
	return 0;
}

/* N_INT, and -N_INT folded (so that -2147483648 is accepted). */
static int int_lit(Sema *s, Node *at, Node *lit, int neg)
{
	int64_t v = neg ? -lit->ival : lit->ival;
	if (v < INT32_MIN || v > INT32_MAX) {
		char txt[48];
		lit_text(s, lit, txt, sizeof txt);
		if (txt[0])
			ERR(at, "integer literal %s%s is out of range for int32", neg ? "-" : "", txt);
		ERR(at, "integer literal %lld is out of range for int32", (long long)v);
	}
	return ir_const_int(s->m, s->f, (int32_t)v);
}

/* N_FLOAT, and -N_FLOAT folded. */
static int float_lit(Sema *s, Node *at, Node *lit, int neg)
{
	float f = (float)lit->fval;
	if (isinf(f) || isnan(f)) {
		char txt[48];
		lit_text(s, lit, txt, sizeof txt);
		if (!txt[0])
			snprintf(txt, sizeof txt, "%g", lit->fval);
		ERR(at, "float literal %s%s is out of range for float32", neg ? "-" : "", txt);
	}
	return ir_const_float(s->m, s->f, neg ? -f : f);
}

/* Does the number fit the scalar type ty?  (Floats: finite in it.) */
static int fits(Type ty, int64_t i, double x, int isf)
{
	if (ty == TY_BOOL)
		return 1;
	if (ty_is_float(ty)) {
		double lim = ty == TY_HALF ? 65504.0 : ty == TY_FLOAT ? 3.4028234663852886e38 : INFINITY;
		return !(x > lim || x < -lim) || isinf(x) || isnan(x);
	}
	if (isf)
		return 0;
	/* clang-format off */
	switch (ty) {
	case TY_INT8: return i >= INT8_MIN && i <= INT8_MAX;
	case TY_UINT8: return i >= 0 && i <= UINT8_MAX;
	case TY_INT16: return i >= INT16_MIN && i <= INT16_MAX;
	case TY_UINT16: return i >= 0 && i <= UINT16_MAX;
	case TY_INT: return i >= INT32_MIN && i <= INT32_MAX;
	case TY_UINT32: return i >= 0 && i <= UINT32_MAX;
	case TY_UINT64: return i >= 0;
	}
	/* clang-format on */
	return 1;
}

/* The literal at n as a constant of scalar type ty, exactly as Warp takes
 * wp.float64(0.1) or the components of wp.vec3d(1.0, 2, 0.5): the number
 * is converted once, from its Python value.  -1 if n is no literal. */
int typed_literal(Sema *s, Node *n, Type ty)
{
	int64_t i;
	double x;
	int isf;
	if (!literal(n, &i, &x, &isf))
		return -1;
	if (ty_is_int(ty) && isf)
		return -1; /* wp.int32(2.5) truncates: a conversion */
	if (!fits(ty, i, x, isf)) {
		char txt[48];
		lit_text(s, n->kind == N_UNARY ? n->kid[0] : n, txt, sizeof txt);
		ERR(n, "%s%s does not fit in %s", n->kind == N_UNARY && n->op == '-' ? "-" : "",
		    txt[0] ? txt : "the number", uty(ty));
	}
	return ir_const(s->m, s->f, ty, i, x);
}

/* A module constant read in a function: its value as IR. */
static int const_value(Sema *s, Node *at, const Const *c)
{
	if (c->ty == TY_INT || ty_is_int(c->ty)) {
		if (!fits(c->ty, c->i, 0, 0))
			ERR(at, "the constant %lld does not fit in %s", (long long)c->i, uty(c->ty));
		return ir_const(s->m, s->f, c->ty, c->i, 0);
	}
	if (c->ty == TY_BOOL)
		return ir_const_bool(s->m, s->f, (int)c->i);
	if (ty_is_float(c->ty))
		return ir_const(s->m, s->f, c->ty, 0, c->v[0]);
	int32_t a[36];
	int n = ty_ncomp(c->ty);
	for (int k = 0; k < n; k++)
		a[k] = ty_is_int(ty_scalar(c->ty)) ? ir_const(s->m, s->f, ty_scalar(c->ty), (int64_t)c->v[k], 0)
						   : ir_const(s->m, s->f, ty_scalar(c->ty), 0, c->v[k]);
	int32_t r = ir_temp(s->m, s->f, c->ty);
	emit(s, at, OP_MAKE, &r, 1, a, n);
	return r;
}

int const_of(Sema *s, Node *at, int k) { return const_value(s, at, &s->cval[k]); }

/* The first name in e that is no module constant, or NULL. */
static Node *runtime_name(Sema *s, Node *e)
{
	if (!e)
		return NULL;
	if (e->kind == N_NAME && map_get(&s->sc->consts, e->name) < 0)
		return e;
	for (int i = e->kind == N_ATTR || e->kind == N_CALL ? 1 : 0; i < e->nkid; i++) {
		Node *n = runtime_name(s, e->kid[i]);
		if (n)
			return n;
	}
	return NULL;
}

int static_value(Sema *s, Node *e)
{
	if (e->nkid != 2 || e->kid[1]->kind == N_KWARG)
		ERR(e, "wp.static() takes 1 argument");
	Node *x = e->kid[1];
	Const c;
	if (const_eval(s, x, &c))
		return const_value(s, x, &c);
	if (x->kind == N_CALL && is_name(x->kid[0], "len")) {
		/* the length of a vector or matrix, known from its type */
		int v = expr(s, x, NULL);
		if (s->f->val[v].kind == VK_CONST)
			return v;
		ERR(x, "wp.static(len(...)) of an array: its length is known only when the kernel runs");
	}
	Node *n = runtime_name(s, x);
	int k = n ? map_get(&s->sc->skipped, n->name) : -1;
	if (k >= 0)
		skipped_use(s, n, k);
	if (n && map_get(&s->names, n->name) >= 0)
		ERR(n,
		    "wp.static() is evaluated when the kernel is compiled, and '%s' is a variable of the kernel, "
		    "known when it runs (loops are not unrolled for wp.static)",
		    n->name);
	ERR(n ? n : x, "wp.static() is evaluated when the kernel is compiled: it takes module constants, numbers "
		       "and their arithmetic, and len() of a vector or matrix");
}

/* ---- conditions and operators --------------------------------------------- */

/* A condition: bool as is, a number compared with 0 (Python truthiness);
 * what names the construct for the message. */
int cond(Sema *s, Node *e, const char *what)
{
	int v = expr(s, e, NULL);
	Type t = ty_of(s, v);
	if (t == TY_BOOL)
		return v;
	if (ty_is_int(t)) {
		int32_t a[2] = {v, ir_const(s->m, s->f, t, 0, 0)};
		return emit_val(s, e, OP_NE, TY_BOOL, a, 2, NULL);
	}
	if (ty_is_float(t))
		ERR(e, "%s must be bool, not %s; compare explicitly, e.g. 'x != 0.0'", what, uty(t));
	ERR(e, "%s must be bool, not %s", what, uty(t));
}

const char *const binop_sym[] = {"+", "-", "*", "/", "//", "%", "**", "@", "&", "|", "^", "<<", ">>"};

/* a OP b for a BinOp; aug says it came from 'OP='. */
int binop(Sema *s, Node *at, int bop, int a, int b, Target *t, int aug)
{
	/* clang-format off */
	static const int irop[] = {OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_FLOORDIV, OP_MOD, -1, -1,
				   OP_BIT_AND, OP_BIT_OR, OP_BIT_XOR, OP_LSHIFT, OP_RSHIFT};
	/* clang-format on */
	Type ta[2] = {ty_of(s, a), ty_of(s, b)};
	if (bop < 0 || bop >= (int)KS_NELEM(irop))
		ERR(at, "unsupported operator");
	if (bop == B_MATMUL)
		ERR(at, "'@' is not supported; use * for matrix products");
	if (bop == B_POW) {
		/* Warp lowers ** to wp.pow, which takes floats */
		int32_t args[2] = {a, b};
		int r = builtin_val(s, at, "pow", args, 2, t, 1);
		if (r == -2)
			ERR(at,
			    "unsupported operand types for **%s: '%s' and '%s' (Warp's ** is wp.pow, "
			    "on floats of one type%s)",
			    aug ? "=" : "", uty(ta[0]), uty(ta[1]),
			    ty_is_int(ta[0]) && ty_is_int(ta[1]) ? "; multiply, or convert with float()" : "");
		return r;
	}
	Type r = ir_op_type(irop[bop], ta, 2, TY_VOID);
	if (r == TY_VOID && bop >= B_BITAND && !(ty_is_int(ta[0]) && ty_is_int(ta[1])))
		ERR(at,
		    "unsupported operand types for %s%s: '%s' and '%s' (bitwise operators take "
		    "ints%s)",
		    binop_sym[bop], aug ? "=" : "", uty(ta[0]), uty(ta[1]),
		    ta[0] == TY_BOOL || ta[1] == TY_BOOL ? "; use 'and', 'or' or '!=' on bools" : "");
	if (r == TY_VOID) {
		const char *hint = conv_hint(ta[0], ta[1]);
		if (!hint[0] && bop == B_MUL && ty_is_vec(ta[0]) && ty_is_vec(ta[1]))
			hint = " (use wp.dot() or wp.cross())";
		ERR(at, "unsupported operand types for %s%s: '%s' and '%s'%s", binop_sym[bop], aug ? "=" : "",
		    uty(ta[0]), uty(ta[1]), hint);
	}
	int32_t args[2] = {a, b};
	return emit_val(s, at, irop[bop], r, args, 2, t);
}

/* The type C compares a and b in (its usual arithmetic conversions), which
 * is how Warp compares numbers of two types (it leaves them to C++):
 * float64 over float32 over the ints; ints of rank below int as int; then
 * the wider, or the unsigned one of two of a width. */
static Type common_type(Type a, Type b)
{
	if (a == TY_DOUBLE || b == TY_DOUBLE)
		return TY_DOUBLE;
	if (a == TY_FLOAT || b == TY_FLOAT)
		return TY_FLOAT;
	Type pa = ty_info(a)->size < 4 ? TY_INT : a, pb = ty_info(b)->size < 4 ? TY_INT : b;
	if (pa == pb)
		return pa;
	int wa = ty_info(pa)->size, wb = ty_info(pb)->size;
	if (wa != wb)
		return wa > wb ? pa : pb;
	return ty_is_unsigned(pa) ? pa : pb;
}

/* v converted to type ty (a new temp), or v itself when it has it. */
static int converted(Sema *s, Node *at, int v, Type ty)
{
	if (ty_of(s, v) == ty)
		return v;
	int32_t r = ir_temp(s->m, s->f, ty);
	emit(s, at, OP_CONV, &r, 1, (int32_t *)&v, 1);
	return r;
}

/* One comparison a OP b of values.  Numbers of two types (but float16)
 * are compared in their common type, as Warp's C++ does, except in a
 * chain (mixed: 0), which Warp refuses. */
static int compare1(Sema *s, Node *at, int op, int a, int b, Target *t, int mixed)
{
	static const char *const sym[] = {"<", "<=", ">", ">=", "==", "!="};
	static const int irop[] = {OP_LT, OP_LE, OP_GT, OP_GE, OP_EQ, OP_NE};
	Type ta[2] = {ty_of(s, a), ty_of(s, b)};
	if (mixed && ta[0] != ta[1] && ty_is_scalar(ta[0]) && ty_is_scalar(ta[1]) && ta[0] != TY_HALF &&
	    ta[1] != TY_HALF) {
		Type c = common_type(ta[0], ta[1]);
		a = converted(s, at, a, c);
		b = converted(s, at, b, c);
		ta[0] = ta[1] = c;
	}
	Type ty = ir_op_type(irop[op], ta, 2, TY_VOID);
	if (ty == TY_VOID || ty_is_tile(ty)) /* the IR compares tiles for kdiff's rules; Warp does not */
		ERR(at, "unsupported operand types for %s: '%s' and '%s'%s", sym[op], uty(ta[0]), uty(ta[1]),
		    conv_hint(ta[0], ta[1]));
	int32_t args[2] = {a, b};
	return emit_val(s, at, irop[op], ty, args, 2, t);
}

/* a < b, a == b, and chains a < b <= c: (a < b) and (b <= c), each operand
 * evaluated once, left to right. */
static int compare(Sema *s, Node *e, Target *t)
{
	Node *chain[64];
	int n = 0;
	for (Node *x = e; x->kind == N_COMPARE && (x == e || !x->paren); x = x->kid[0]) {
		if (n == (int)KS_NELEM(chain))
			ERR(e, "too many comparisons in one chain");
		chain[n++] = x;
	}
	/* chain[n-1] is the leftmost comparison */
	for (int k = 0; k < n; k++) {
		if (chain[k]->op == C_IS || chain[k]->op == C_ISNOT)
			ERR(chain[k], "'is' is not supported; use == or !=");
		if (chain[k]->op > C_NE)
			ERR(chain[k], "'in' is not supported in kernels");
	}
	int left = expr(s, chain[n - 1]->kid[0], NULL), acc = -1;
	for (int k = n - 1; k >= 0; k--) {
		int right = expr(s, chain[k]->kid[1], NULL);
		if (n > 1 && ty_of(s, left) != ty_of(s, right))
			ERR(chain[k],
			    "cannot chain comparisons of %s and %s (Warp compares a chain in "
			    "one type)",
			    uty(ty_of(s, left)), uty(ty_of(s, right)));
		int c = compare1(s, chain[k], chain[k]->op, left, right, n == 1 ? t : NULL, n == 1);
		if (acc < 0) {
			acc = c;
		} else {
			int32_t args[2] = {acc, c};
			acc = emit_val(s, chain[k], OP_AND, TY_BOOL, args, 2, k == 0 ? t : NULL);
		}
		left = right;
	}
	return acc;
}

/* -x, +x, ~x */
static int unary(Sema *s, Node *e, Target *t)
{
	Node *x = e->kid[0];
	if (e->op == '-' && x->kind == N_INT)
		return int_lit(s, e, x, 1);
	if (e->op == '-' && x->kind == N_FLOAT)
		return float_lit(s, e, x, 1);
	/* unary + is the operand itself, but only on what '-' would accept */
	int v = expr(s, x, e->op == '+' ? t : NULL);
	Type tv = ty_of(s, v);
	int op = e->op == '~' ? OP_INVERT : OP_NEG;
	if (op == OP_INVERT && ty_is_vec(tv) && ty_is_int(ty_scalar(tv))) {
		/* ~v of an int vector: wp.invert's vector overload, as Warp has it */
		int32_t a[1] = {v}, r = out(s, t, tv);
		Inst *in = emit(s, e, OP_BUILTIN, &r, 1, a, 1);
		in->callee = BI_INVERT_V;
		return r;
	}
	Type r = ir_op_type(op, &tv, 1, TY_VOID);
	if (r == TY_VOID || ty_is_xform(tv)) /* Warp has no -t (kdiff's rules do) */
		ERR(e, "bad operand type for unary %c: '%s'", e->op, uty(tv));
	if (e->op == '+')
		return v;
	int32_t a[1] = {v};
	return emit_val(s, e, op, r, a, 1, t);
}

/* The constants Warp defines (wp.pi, ...), as float32. */
int wp_constant(const char *name, double *x)
{
	/* clang-format off */
	static const struct {
		const char *name;
		double v;
	} k[] = {
		{"pi", 3.14159265358979323846}, {"PI", 3.14159265358979323846},
		{"tau", 6.28318530717958647692}, {"TAU", 6.28318530717958647692},
		{"e", 2.71828182845904523536}, {"E", 2.71828182845904523536},
		{"half_pi", 1.57079632679489661923}, {"HALF_PI", 1.57079632679489661923},
		{"inf", INFINITY}, {"INF", INFINITY}, {"nan", NAN}, {"NAN", NAN},
		{"phi", 1.61803398874989484820}, {"PHI", 1.61803398874989484820},
		{"ln2", 0.69314718055994530942}, {"LN2", 0.69314718055994530942},
		{"ln10", 2.30258509299404568402}, {"LN10", 2.30258509299404568402},
		{"log2e", 1.44269504088896340736}, {"LOG2E", 1.44269504088896340736},
		{"log10e", 0.43429448190325182765}, {"LOG10E", 0.43429448190325182765},
		/* clang-format on */
	};
	for (size_t i = 0; i < KS_NELEM(k); i++)
		if (!strcmp(k[i].name, name)) {
			*x = k[i].v;
			return 1;
		}
	return 0;
}

/* A name read as a value: a parameter or variable, else a module
 * constant. */
int name_value(Sema *s, Node *e)
{
	int v = map_get(&s->names, e->name);
	if (v >= 0)
		return v;
	int c = map_get(&s->sc->consts, e->name);
	if (c >= 0)
		return const_value(s, e, &s->cval[c]);
	if (def_find(s, e->name) >= 0)
		ERR(e, "function '%s' can only be called", e->name);
	if (!strcmp(e->name, "wp"))
		ERR(e, "'wp' can only be used as wp.NAME");
	int k = map_get(&s->sc->skipped, e->name);
	if (k >= 0)
		skipped_use(s, e, k);
	ERR(e, "name '%s' is not defined", e->name);
}

/* The value computed for e while the target is lowered, or -1. */
int memo_get(Sema *s, const Node *e, int idx)
{
	if (!s->memo_blk || s->blk != s->memo_blk)
		return -1;
	for (int i = s->nmemo - 1; i >= 0; i--)
		if (s->memo[i].n == e && s->memo[i].idx == idx)
			return s->memo[i].v;
	return -1;
}

int memo_put(Sema *s, const Node *e, int idx, int v)
{
	if (s->memo_blk && s->blk == s->memo_blk) {
		arena_grow(s->a, (void **)&s->memo, &s->capmemo, s->nmemo + 1, sizeof *s->memo);
		s->memo[s->nmemo++] = (Memo){e, idx, v};
	}
	return v;
}

/* The first random draw (wp.randf(state), ...) in expression e, or NULL. */
static const Node *find_draw(const Node *e)
{
	if (e->kind == N_CALL && is_wp_attr(e->kid[0]))
		for (int r = 0; r < BI_COUNT; r++)
			if ((ir_builtins[r].flags & BF_STATE) && !strcmp(ir_builtins[r].name, e->kid[0]->name))
				return e;
	for (int i = 0; i < e->nkid; i++) {
		const Node *d = e->kid[i] ? find_draw(e->kid[i]) : NULL;
		if (d)
			return d;
	}
	return NULL;
}

/* a if c else b: both sides evaluated, as Warp does */
static int ifexp(Sema *s, Node *e, Target *t)
{
	const Node *d = find_draw(e->kid[0]);
	if (!d)
		d = find_draw(e->kid[2]);
	if (d)
		ERR(d, "a random draw in a branch of a conditional expression is not supported: "
		       "use an if statement");
	int c = cond(s, e->kid[1], "the condition of a conditional expression");
	int a = expr(s, e->kid[0], NULL), b = expr(s, e->kid[2], NULL);
	Type ta[3] = {TY_BOOL, ty_of(s, a), ty_of(s, b)};
	Type r = ir_op_type(OP_SELECT, ta, 3, TY_VOID);
	if (r == TY_VOID && ta[1] != ta[2])
		ERR(e,
		    "the branches of a conditional expression have different types: '%s' and "
		    "'%s'%s",
		    uty(ta[1]), uty(ta[2]), conv_hint(ta[1], ta[2]));
	if (r == TY_VOID)
		ERR(e, "a conditional expression cannot choose between arrays");
	int32_t args[3] = {c, a, b};
	return emit_val(s, e, OP_SELECT, r, args, 3, t);
}

/* Lower an expression to a value id.  With a target, the instruction that
 * computes the value writes it (t->done), unless the value is a bare name,
 * constant or conversion to its own type. */
static int expr1(Sema *s, Node *e, Target *t);

int expr(Sema *s, Node *e, Target *t)
{
	if (t || !s->memo_blk)
		return expr1(s, e, t);
	int v = memo_get(s, e, 0);
	return v >= 0 ? v : memo_put(s, e, 0, expr1(s, e, NULL));
}

static int expr1(Sema *s, Node *e, Target *t)
{
	int a, b;
	switch (e->kind) {
	case N_INT:
		return int_lit(s, e, e, 0);
	case N_FLOAT:
		return float_lit(s, e, e, 0);
	case N_BOOL:
		return ir_const_bool(s->m, s->f, (int)e->ival);
	case N_NAME:
		return name_value(s, e);
	case N_ATTR:
		return attr_value(s, e, t);
	case N_CALL:
		return call(s, e, t, 1);
	case N_INDEX:
		return index_value(s, e, t);
	case N_UNARY:
		return unary(s, e, t);
	case N_NOT: {
		int32_t v = cond(s, e->kid[0], "the operand of 'not'");
		return emit_val(s, e, OP_NOT, TY_BOOL, &v, 1, t);
	}
	case N_BINARY:
		a = expr(s, e->kid[0], NULL);
		b = expr(s, e->kid[1], NULL);
		return binop(s, e, e->op, a, b, t, 0);
	case N_COMPARE:
		return compare(s, e, t);
	case N_AND:
	case N_OR: {
		const char *what = e->kind == N_AND ? "an operand of 'and'" : "an operand of 'or'";
		const Node *d = find_draw(e->kid[1]);
		if (d)
			ERR(d,
			    "a random draw in the right operand of '%s' is not supported (it draws only "
			    "when the left one does not decide): use an if statement",
			    e->kind == N_AND ? "and" : "or");
		int32_t args[2];
		args[0] = cond(s, e->kid[0], what);
		args[1] = cond(s, e->kid[1], what);
		return emit_val(s, e, e->kind == N_AND ? OP_AND : OP_OR, TY_BOOL, args, 2, t);
	}
	case N_IFEXP:
		return ifexp(s, e, t);
	case N_TUPLE:
		ERR(e, "tuples are only supported as 'return a, b' and 'a, b = f(...)'");
	case N_STRING:
		ERR(e, "strings are not supported in kernels");
	case N_KWARG:
		ERR(e, "keyword arguments are only allowed in calls");
	case N_DICT:
		ERR(e, "dicts and sets are not supported in kernels");
	case N_LIST:
		ERR(e, "lists are not supported in kernels");
	case N_ELLIPSIS:
		ERR(e, "'...' (Ellipsis) is not supported");
	}
	ERR(e, "this expression is not supported in kernels");
}
