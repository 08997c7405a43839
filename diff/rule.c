/*
 * rule.c: derivative rules as small expressions, lowered to IR.
 *
 * Each builtin row of ir/builtins.h carries, in its sixth column, the
 * adjoint contribution to each argument, separated by ';', as an
 * expression over a, b, c, d, e, f (the arguments), r (the result) and g
 * (the result's adjoint):  atan2 is "g * b / (a * a + b * b); -g * a / (a * a
 * + b * b)".  An empty part means no contribution.  A rule starting with
 * '@' is applied to each component of vector (and quaternion) arguments
 * (abs, min, max on vectors).  The grammar, parsed by recursive descent:
 *
 *     expr  := cmp ['?' expr ':' expr]           select
 *     cmp   := sum [('<' | '>' | '<=' | '>=' | '==') sum]
 *     sum   := prod {('+' | '-') prod}
 *     prod  := unary {('*' | '/') unary}
 *     unary := '-' unary | prim
 *     prim  := NUMBER | a | b | c | d | e | f | r | g | r1 | g1 | r2 | g2
 *            | NAME '(' expr {',' expr} ')' | '(' expr ')'
 *
 * Types come from ir_op_type and ir_builtin_resolve; a float constant
 * next to a vector or matrix is broadcast, and 0.0 next to a struct is its
 * zero (so "c ? g : 0.0" works for any g).  NAME is a builtin, or
 * float(x), int(x), fdot(x, y) (the sum of component products, for
 * matrices too), at(x, i) and at(x, i, j) (a
 * component or row, the indices literal), fill(x, s) (x's type with every
 * component s), basis(x, k, s) (x's type, s at k and 0 elsewhere) or
 * vec(s, ...) (a vector of the operands' float type).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"

typedef struct P {
	DiffEmit *e;
	const char *s, *rule;
	const int32_t *v;
	Type sc; /* the float type of the operands: the rule's numbers take it */
} P;

KS_NORETURN static void bad(P *p, const char *why)
{
	ks_fatal("derivative rule \"%s\": %s at \"%s\"", p->rule, why, p->s);
}

static Type ty(DiffEmit *e, int id) { return e->f->val[id].ty; }

int diff_op(DiffEmit *e, int op, const int32_t *args, int n, Type want)
{
	Type at[8];
	for (int i = 0; i < n; i++)
		at[i] = ty(e, args[i]);
	Type t = ir_op_type(op, at, n, want);
	if (t == TY_VOID)
		ks_fatal("kdiff: ill-typed %s in a derivative", ir_ops[op].name);
	int r = ir_temp(e->m, e->f, t);
	ir_emit(e->m, e->b, op, &r, 1, args, n, e->loc);
	return r;
}

int diff_builtin(DiffEmit *e, const char *name, const int32_t *args, int n)
{
	Type at[8], t;
	for (int i = 0; i < n; i++)
		at[i] = ty(e, args[i]);
	int row = ir_builtin_resolve(name, at, n, &t);
	if (row < 0 || t == TY_VOID)
		ks_fatal("kdiff: no overload %s for a derivative", name);
	int r = ir_temp(e->m, e->f, t);
	Inst *in = ir_emit(e->m, e->b, OP_BUILTIN, &r, 1, args, n, e->loc);
	in->callee = (int32_t)row;
	return r;
}

int diff_zero(DiffEmit *e, Type t)
{
	if (ty_is_scalar(t) || t == TY_BOOL)
		return ir_const(e->m, e->f, t, 0, 0.0);
	return diff_op(e, OP_MAKE, NULL, 0, t);
}

/* sum of x[i] * y[i] over components: dot for vectors and quaternions,
 * by hand for matrices, transforms and floats */
int diff_fdot(DiffEmit *e, int x, int y)
{
	Type t = ty(e, x);
	if (ty_is_float(t))
		return diff_op(e, OP_MUL, (int32_t[]){x, y}, 2, TY_VOID);
	if (ty_is_vec(t) || ty_is_quat(t))
		return diff_builtin(e, "dot", (int32_t[]){x, y}, 2);
	int n = ty_dim(t), s = -1;
	if (ty_is_xform(t)) {
		for (int i = 0; i < ty_ncomp(t); i++) {
			int k = ir_const_int(e->m, e->f, i);
			int rx = diff_op(e, OP_EXTRACT, (int32_t[]){x, k}, 2, TY_VOID);
			int ry = diff_op(e, OP_EXTRACT, (int32_t[]){y, k}, 2, TY_VOID);
			int p = diff_op(e, OP_MUL, (int32_t[]){rx, ry}, 2, TY_VOID);
			s = s < 0 ? p : diff_op(e, OP_ADD, (int32_t[]){s, p}, 2, TY_VOID);
		}
		return s;
	}
	for (int i = 0; i < n; i++) {
		int k = ir_const_int(e->m, e->f, i);
		int rx = diff_op(e, OP_EXTRACT, (int32_t[]){x, k}, 2, TY_VOID);
		int ry = diff_op(e, OP_EXTRACT, (int32_t[]){y, k}, 2, TY_VOID);
		int d = diff_builtin(e, "dot", (int32_t[]){rx, ry}, 2);
		s = s < 0 ? d : diff_op(e, OP_ADD, (int32_t[]){s, d}, 2, TY_VOID);
	}
	return s;
}

static int is_fconst(DiffEmit *e, int id)
{
	return e->f->val[id].kind == VK_CONST && ty_is_float(e->f->val[id].ty);
}

/* broadcast a float constant to the type of the other operand */
static void unify(DiffEmit *e, int32_t *x, int32_t *y)
{
	Type tx = ty(e, *x), ty_ = ty(e, *y);
	if (tx == ty_)
		return;
	if (is_fconst(e, *x) && (ty_is_composite(ty_) || ty_is_tile(ty_)))
		*x = diff_op(e, OP_MAKE, x, 1, ty_);
	else if (is_fconst(e, *y) && (ty_is_composite(tx) || ty_is_tile(tx)))
		*y = diff_op(e, OP_MAKE, y, 1, tx);
	else if (is_fconst(e, *x) && ty_is_struct(ty_)) /* the 0.0 of a struct's adjoint */
		*x = diff_zero(e, ty_);
	else if (is_fconst(e, *y) && ty_is_struct(tx))
		*y = diff_zero(e, tx);
}

static void ws(P *p)
{
	while (*p->s == ' ')
		p->s++;
}

static int eat(P *p, const char *t)
{
	ws(p);
	size_t n = strlen(t);
	if (strncmp(p->s, t, n))
		return 0;
	p->s += n;
	return 1;
}

static int expr(P *p);

static int binop(P *p, int op, int x, int y)
{
	int32_t a[2] = {x, y};
	if (op != OP_MUL && op != OP_DIV)
		unify(p->e, &a[0], &a[1]);
	return diff_op(p->e, op, a, 2, TY_VOID);
}

/* at(x, i) and at(x, i, j): a component or row of x, the indices
 * literal ints (after "at(") */
static int at(P *p)
{
	int32_t a[3];
	int n = 1;
	a[0] = expr(p);
	while (eat(p, ",")) {
		ws(p);
		char *end;
		long k = strtol(p->s, &end, 10);
		if (end == p->s || n == 3)
			bad(p, "expected an index");
		p->s = end;
		a[n++] = ir_const_int(p->e->m, p->e->f, (int)k);
	}
	if (!eat(p, ")"))
		bad(p, "expected )");
	return diff_op(p->e, OP_EXTRACT, a, n, TY_VOID);
}

static int prim(P *p)
{
	ws(p);
	if (eat(p, "(")) {
		int x = expr(p);
		if (!eat(p, ")"))
			bad(p, "expected )");
		return x;
	}
	if (isdigit((unsigned char)*p->s)) {
		char *end;
		double x = strtod(p->s, &end);
		p->s = end;
		return ir_const(p->e->m, p->e->f, p->sc, 0, x);
	}
	const char *s0 = p->s;
	while (isalnum((unsigned char)*p->s) || *p->s == '_')
		p->s++;
	size_t n = (size_t)(p->s - s0);
	if (n == 0)
		bad(p, "expected an operand");
	if (n == 1 && strchr("abcrgdef", *s0)) {
		int id = p->v[*s0 >= 'd' && *s0 <= 'f' ? 9 + (*s0 - 'd') : strchr("abcrg", *s0) - "abcrg"];
		if (id < 0)
			bad(p, "no such operand");
		return id;
	}
	if (n == 2 && strchr("rg", s0[0]) && (s0[1] == '1' || s0[1] == '2')) {
		/* r1, g1, r2, g2: the second and third results and their adjoints */
		int id = p->v[5 + 2 * (s0[1] - '1') + (s0[0] == 'g')];
		if (id < 0)
			bad(p, "no such operand");
		return id;
	}
	char name[48];
	if (n >= sizeof name)
		bad(p, "name too long");
	memcpy(name, s0, n);
	name[n] = 0;
	if (!eat(p, "("))
		bad(p, "expected (");
	if (!strcmp(name, "at"))
		return at(p);
	int32_t args[8];
	int na = 0;
	do {
		if (na == 8)
			bad(p, "too many arguments");
		args[na++] = expr(p);
	} while (eat(p, ","));
	if (!eat(p, ")"))
		bad(p, "expected )");
	if (!strcmp(name, "float"))
		return diff_op(p->e, OP_CONV, args, 1, p->sc);
	if (!strcmp(name, "int"))
		return diff_op(p->e, OP_CONV, args, 1, TY_INT);
	if (!strcmp(name, "fdot") && na == 2)
		return diff_fdot(p->e, args[0], args[1]);
	if (!strcmp(name, "fill") && na == 2)
		return diff_op(p->e, OP_MAKE, &args[1], 1, ty(p->e, args[0]));
	if (!strcmp(name, "basis") && na == 3) {
		int32_t a[3] = {diff_zero(p->e, ty(p->e, args[0])), args[1], args[2]};
		return diff_op(p->e, OP_INSERT, a, 3, TY_VOID);
	}
	if (!strcmp(name, "vec"))
		return diff_op(p->e, OP_MAKE, args, na, ty_find(TK_VEC, p->sc, na, 1));
	return diff_builtin(p->e, name, args, na);
}

static int unary(P *p)
{
	if (eat(p, "-")) {
		int x = unary(p);
		return diff_op(p->e, OP_NEG, (int32_t[]){x}, 1, TY_VOID);
	}
	return prim(p);
}

static int prod(P *p)
{
	int x = unary(p);
	for (;;) {
		if (eat(p, "*"))
			x = binop(p, OP_MUL, x, unary(p));
		else if (eat(p, "/"))
			x = binop(p, OP_DIV, x, unary(p));
		else
			return x;
	}
}

static int sum(P *p)
{
	int x = prod(p);
	for (;;) {
		if (eat(p, "+"))
			x = binop(p, OP_ADD, x, prod(p));
		else if (eat(p, "-"))
			x = binop(p, OP_SUB, x, prod(p));
		else
			return x;
	}
}

static int cmp(P *p)
{
	int x = sum(p);
	static const struct {
		const char *s;
		int op;
	} ops[] = {
		{"<=", OP_LE}, {">=", OP_GE}, {"==", OP_EQ}, {"<", OP_LT}, {">", OP_GT},
	};
	for (size_t i = 0; i < KS_NELEM(ops); i++)
		if (eat(p, ops[i].s))
			return binop(p, ops[i].op, x, sum(p));
	return x;
}

static int expr(P *p)
{
	int c = cmp(p);
	if (!eat(p, "?"))
		return c;
	int x = expr(p);
	if (!eat(p, ":"))
		bad(p, "expected :");
	int y = expr(p);
	int32_t a[3] = {c, x, y};
	unify(p->e, &a[1], &a[2]);
	return diff_op(p->e, OP_SELECT, a, 3, TY_VOID);
}

/* Lower parts of rule (one per argument) with operands v. */
static void lower(DiffEmit *e, const char *rule, const int32_t v[12], int nargs, int32_t out[DIFF_MAX_RULE_ARGS])
{
	P p = {e, rule, rule, v, TY_FLOAT};
	for (int i = 4; i >= 0; i--)
		if (v[i] >= 0 && ty_is_floaty(ty(e, v[i])))
			p.sc = ty_scalar(ty(e, v[i]));
	for (int i = 0; i < nargs; i++) {
		out[i] = -1;
		ws(&p);
		if (*p.s && *p.s != ';')
			out[i] = expr(&p);
		ws(&p);
		if (*p.s == ';')
			p.s++;
		else if (*p.s)
			bad(&p, "expected ;");
	}
}

/* a vector or quaternion: what '@' takes apart */
static int is_vq(Type t) { return ty_is_vec(t) || ty_is_quat(t); }

void diff_rule(DiffEmit *e, const char *rule, const int32_t v[12], int nargs, int32_t out[DIFF_MAX_RULE_ARGS])
{
	if (nargs > DIFF_MAX_RULE_ARGS)
		ks_fatal("kdiff: a rule for a builtin of %d arguments", nargs);
	if (rule[0] != '@') {
		lower(e, rule, v, nargs, out);
		return;
	}
	if (nargs > 3)
		ks_fatal("kdiff: a component-wise rule for a builtin of %d arguments", nargs);
	/* component-wise: the vector operands are taken apart, the rule
	 * applied to each component, and vector contributions rebuilt */
	int n = 0;
	for (int i = 0; i < 5; i++)
		if (v[i] >= 0 && is_vq(ty(e, v[i])))
			n = ty_ncomp(ty(e, v[i]));
	int32_t comp[3][6], acc[3] = {-1, -1, -1};
	for (int k = 0; k < n; k++) {
		int32_t w[12] = {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1};
		int kc = ir_const_int(e->m, e->f, k);
		for (int i = 0; i < 5; i++) {
			w[i] = v[i];
			if (v[i] >= 0 && is_vq(ty(e, v[i])))
				w[i] = diff_op(e, OP_EXTRACT, (int32_t[]){v[i], kc}, 2, TY_VOID);
		}
		int32_t o[DIFF_MAX_RULE_ARGS];
		lower(e, rule + 1, w, nargs, o);
		for (int i = 0; i < nargs; i++) {
			if (o[i] < 0)
				o[i] = diff_zero(e, ty_scalar(ty(e, v[i])));
			if (is_vq(ty(e, v[i])))
				comp[i][k] = o[i];
			else
				acc[i] = acc[i] < 0 ? o[i]
						    : diff_op(e, OP_ADD, (int32_t[]){acc[i], o[i]}, 2, TY_VOID);
		}
	}
	for (int i = 0; i < nargs; i++)
		out[i] = is_vq(ty(e, v[i])) ? diff_op(e, OP_MAKE, comp[i], n, ty(e, v[i])) : acc[i];
}
