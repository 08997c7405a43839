/*
 * sema.c: the front end's checker — names, Warp's typing rules and the
 * lowering of the syntax tree (ast.h) to typed IR (ir.h), in one walk.
 *
 * The module is checked in two steps.  The first reads the top level
 * (the import, the decorated defs), gives every def its IR function in
 * source order and builds the call graph from the calls that name a
 * wp.func; a depth-first walk of that graph rejects recursion and yields
 * an order in which every callee is lowered before its callers, so a call
 * always finds its callee's parameter and return types.  The second step
 * lowers each body statement by statement: an expression is lowered to a
 * value id (a temp, constant, parameter or variable) and its type is read
 * back from the IR, never tracked on the side.  Which operand types an
 * operator or builtin accepts is asked of ir_op_type and
 * ir_builtin_resolve, the rules the verifier uses too; this file only turns
 * a refusal into a message a Python user understands.
 *
 * An assignment hands its target down (a Target) so that the last
 * instruction of the right-hand side writes the variable itself: no copy
 * unless the right-hand side is a bare value.  Python's scoping is
 * function-wide, so a variable is one IR value for the whole function,
 * typed by its first assignment; whether it is assigned before each use is
 * left to ir_verify's definite-assignment analysis.
 *
 * Errors longjmp out (ks.h); the module under construction is freed on the
 * way, so an error leaks nothing whether the caller exits or recovers.
 *
 * ks_frontend_stream (at the end) does the same one definition at a time,
 * on the pieces of pieces.c: each def is registered, lowered, verified
 * and printed as soon as it is parsed, then its body is freed (a func
 * keeps its signature, a kernel leaves the module and leaves its name's
 * hash behind).  That is the whole-module result only when every call
 * names a def above its caller, so any lookup that would have gone
 * differently with the later defs known — a name looked up as a function
 * and not found that a later def takes, a name of a kernel already gone,
 * a call to the def itself — is an error, and every error, quietly caught,
 * sends the caller back to the whole-module path to report it.
 */
#include <math.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "../ir/ir.h"
#include "ast.h"

#define MAXOPS 255 /* operands and results of one instruction */

#define ERR(n, ...) ks_error_at(s->src, (n)->line, (n)->col, __VA_ARGS__)

/* ---- names --------------------------------------------------------------- */

/* A string → int hash map in the parse arena: function names, and the
 * parameters and variables of the function being lowered. */
typedef struct Map {
	const char **key;
	int *val;
	unsigned n, cap;
} Map;

static unsigned name_hash(const char *k)
{
	return (unsigned)ks_hash64(k, strlen(k), 0);
}

static int map_get(const Map *mp, const char *k)
{
	if (!mp->cap)
		return -1;
	for (unsigned i = name_hash(k) & (mp->cap - 1);; i = (i + 1) & (mp->cap - 1)) {
		if (!mp->key[i])
			return -1;
		if (!strcmp(mp->key[i], k))
			return mp->val[i];
	}
}

static void map_put(Arena *a, Map *mp, const char *k, int v)
{
	if (2 * (mp->n + 1) > mp->cap) {
		Map old = *mp;
		mp->cap = old.cap ? 2 * old.cap : 16;
		mp->key = arena_alloc(a, mp->cap * sizeof *mp->key);
		mp->val = arena_alloc(a, mp->cap * sizeof *mp->val);
		mp->n = 0;
		for (unsigned i = 0; i < old.cap; i++)
			if (old.key[i])
				map_put(a, mp, old.key[i], old.val[i]);
	}
	unsigned i = name_hash(k) & (mp->cap - 1);
	while (mp->key[i] && strcmp(mp->key[i], k))
		i = (i + 1) & (mp->cap - 1);
	if (!mp->key[i])
		mp->n++;
	mp->key[i] = k;
	mp->val[i] = v;
}

/* ---- state ----------------------------------------------------------------- */

/* A call to a wp.func: an edge of the call graph. */
typedef struct Call {
	Node *at;
	int to;  /* the callee's def index */
} Call;

typedef struct Def {
	Node *node;
	int kernel;
	Call *call;  /* the calls in its body that name a wp.func */
	int ncall, capcall;
} Def;

typedef struct Sema {
	const Src *src;
	Arena *a;  /* the parse arena: maps, the def table */
	Module *m;
	Def *def;
	int ndef, capdef;  /* def index = IR function index */
	/* streaming (ks_frontend_stream): the names looked up as functions
	 * and not found, since the whole-module path would have found a later
	 * definition of one of them; else NULL */
	struct Missed *missed;
	/* streaming: the kernels done, which leave the module (and nothing
	 * may name), and the arena of what stays */
	struct Missed *kernels;
	Arena *keep;

	/* the function being lowered */
	Def *cur;
	Func *f;
	Block *blk;        /* where instructions go */
	Map names;         /* parameters and variables → value id */
	int nloop;         /* enclosing loops, for break/continue */
	const char **loopvar; /* enclosing for-loops' variables */
	int nloopvar, caploopvar;
	int nsig;          /* return values so far, -1 before the first return */
	Type *sig;
	int sig_ann;       /* the signature came from a '-> T' annotation */
} Sema;

/* A set of names kept as their 64-bit hashes (open addressing, 0 free):
 * a collision can only make a name look missed, which costs the stream,
 * never correctness. */
typedef struct Missed {
	uint64_t *h;
	size_t n, cap;
} Missed;

static uint64_t missed_hash(const char *name)
{
	uint64_t h = ks_hash64(name, strlen(name), 0);
	return h ? h : 1;
}

static int missed_has(const Missed *ms, const char *name)
{
	uint64_t h = missed_hash(name);
	for (size_t i = h & (ms->cap - 1); ms->h[i]; i = (i + 1) & (ms->cap - 1))
		if (ms->h[i] == h)
			return 1;
	return 0;
}

static void missed_add(Missed *ms, const char *name)
{
	if (missed_has(ms, name))
		return;
	if (2 * (ms->n + 1) > ms->cap) {
		Missed old = *ms;
		ms->cap *= 2;
		ms->h = xmalloc(ms->cap * sizeof *ms->h);
		memset(ms->h, 0, ms->cap * sizeof *ms->h);
		for (size_t i = 0; i < old.cap; i++) {
			size_t j = old.h[i] & (ms->cap - 1);
			if (!old.h[i])
				continue;
			while (ms->h[j])
				j = (j + 1) & (ms->cap - 1);
			ms->h[j] = old.h[i];
		}
		free(old.h);
	}
	uint64_t h = missed_hash(name);
	size_t i = h & (ms->cap - 1);
	while (ms->h[i])
		i = (i + 1) & (ms->cap - 1);
	ms->h[i] = h;
	ms->n++;
}

/* The function called name: its index, or -1. */
static int def_find(Sema *s, const char *name)
{
	int d = ir_func_find(s->m, name);
	if (d < 0 && s->missed) {
		/* a kernel that left the module: whatever names it is an error,
		 * which the whole-module path reports */
		if (missed_has(s->kernels, name))
			ks_error_at(s->src, 0, 0, "'%s' names a kernel above", name);
		missed_add(s->missed, name);
	}
	return d;
}

/* An assignment's target, handed to the expression that computes its value
 * so that the last instruction writes the variable directly. */
typedef struct Target {
	Node *at;   /* the N_NAME assigned, for its name and for errors */
	int id;     /* its value, or -1 before its first assignment */
	Type want;  /* the annotated type of a new variable, or TY_VOID */
	int done;   /* an instruction has written it */
} Target;

static Node *kid(const Node *n, int i)
{
	return n && i < n->nkid ? n->kid[i] : NULL;
}

static Loc loc_of(const Node *n)
{
	Loc l = {n->line, n->col};
	return l;
}

static int is_name(const Node *n, const char *name)
{
	return n && n->kind == N_NAME && !strcmp(n->name, name);
}

/* wp.NAME */
static int is_wp_attr(const Node *n)
{
	return n && n->kind == N_ATTR && is_name(kid(n, 0), "wp");
}

static Type ty_of(const Sema *s, int v)
{
	return s->f->val[v].ty;
}

/* A type as a Python user writes it. */
static const char *uty(Type t)
{
	static const char *const arr[TY_NBASE] = {
		"array", "array(bool)", "array(int)", "array(float)", "array(vec2)",
		"array(vec3)", "array(vec4)", "array(mat22)", "array(mat33)", "array(mat44)",
	};
	if (ty_is_array(t))
		return ty_elem(t) < TY_NBASE ? arr[ty_elem(t)] : "array";
	return ty_name(t);
}

/* "float", "(float, int)" or "nothing", for return signatures. */
static void fmt_types(char *out, size_t n, const Type *t, int k)
{
	size_t w = 0;
	out[0] = 0;
	if (k == 0) {
		snprintf(out, n, "nothing");
		return;
	}
	for (int i = 0; i < k && w < n; i++)
		w += (size_t)snprintf(out + w, n - w, "%s%s%s", i ? ", " : k > 1 ? "(" : "",
				      uty(t[i]), i == k - 1 && k > 1 ? ")" : "");
}

/* The hint for an operator mixing int with float-based operands: Warp
 * never converts implicitly. */
static const char *conv_hint(Type a, Type b)
{
	int af = a == TY_FLOAT || ty_is_vec(a) || ty_is_mat(a);
	int bf = b == TY_FLOAT || ty_is_vec(b) || ty_is_mat(b);
	return (a == TY_INT && bf) || (b == TY_INT && af) ? " (use float() to convert)" : "";
}

/* The hint for storing a src value where a dst one is wanted. */
static const char *assign_hint(Type dst, Type src)
{
	if (dst == TY_FLOAT && src == TY_INT)
		return " (use float() to convert)";
	if (dst == TY_INT && src == TY_FLOAT)
		return " (use int() to convert)";
	return "";
}

/* Copy the source text of the literal at n (for messages about literals
 * whose value the parser may have saturated); "" if it cannot be found. */
static void lit_text(const Sema *s, const Node *n, char *out, size_t cap)
{
	const char *p = s->src->text, *end = p + s->src->len;
	out[0] = 0;
	for (int l = 1; l < n->line && p < end; p++)
		if (*p == '\n')
			l++;
	if (n->col < 1 || (size_t)(n->col - 1) >= (size_t)(end - p))
		return;
	p += n->col - 1;
	if (!((*p >= '0' && *p <= '9') || *p == '.'))
		return;
	int hex = p + 1 < end && p[0] == '0' && (p[1] == 'x' || p[1] == 'X');
	size_t k = 0;
	for (const char *q = p; q < end && k + 4 < cap; q++) {
		char c = *q;
		int sign = (c == '+' || c == '-') && !hex && q > p && (q[-1] == 'e' || q[-1] == 'E');
		if (!(sign || c == '_' || c == '.' || (c >= '0' && c <= '9') ||
		      (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')))
			break;
		out[k++] = c;
	}
	out[k] = 0;
}

/* Names a body may not assign: the language's own. */
static int reserved(const char *name)
{
	static const char *const r[] = {"wp", "float", "int", "bool", "range"};
	for (size_t i = 0; i < KS_NELEM(r); i++)
		if (!strcmp(r[i], name))
			return 1;
	return 0;
}

/* The scalar, vector and matrix types spelled wp.NAME. */
static Type wp_type(const char *name)
{
	static const struct {
		const char *name;
		Type ty;
	} t[] = {
		{"float32", TY_FLOAT}, {"int32", TY_INT}, {"bool", TY_BOOL},
		{"vec2", TY_VEC2}, {"vec3", TY_VEC3}, {"vec4", TY_VEC4},
		{"vec2f", TY_VEC2}, {"vec3f", TY_VEC3}, {"vec4f", TY_VEC4},
		{"mat22", TY_MAT22}, {"mat33", TY_MAT33}, {"mat44", TY_MAT44},
		{"mat22f", TY_MAT22}, {"mat33f", TY_MAT33}, {"mat44f", TY_MAT44},
	};
	for (size_t i = 0; i < KS_NELEM(t); i++)
		if (!strcmp(t[i].name, name))
			return t[i].ty;
	return TY_VOID;
}

/* ---- emitting ---------------------------------------------------------- */

static Inst *emit(Sema *s, const Node *at, int op, const int32_t *res, int nres,
		  const int32_t *arg, int narg)
{
	return ir_emit(s->m, s->blk, op, res, nres, arg, narg, loc_of(at));
}

static int new_var(Sema *s, const char *name, Type ty)
{
	int id = ir_var(s->m, s->f, name, ty);
	map_put(s->a, &s->names, name, id);
	return id;
}

static void type_mismatch(Sema *s, const Node *at, const char *name, Type has, Type ty)
{
	int v = map_get(&s->names, name);
	int param = v >= 0 && s->f->val[v].kind == VK_PARAM;
	ERR(at, "%s '%s' has type %s; cannot assign %s%s", param ? "parameter" : "variable",
	    name, uty(has), uty(ty), assign_hint(has, ty));
}

/* The value an instruction producing ty writes: the target, checked and
 * created on its first assignment, or a fresh temp. */
static int out(Sema *s, Target *t, Type ty)
{
	if (!t || t->done)
		return ir_temp(s->m, s->f, ty);
	if (t->id < 0) {
		if (t->want != TY_VOID && ty != t->want)
			type_mismatch(s, t->at, t->at->name, t->want, ty);
		t->id = new_var(s, t->at->name, ty);
	} else if (ty_of(s, t->id) != ty) {
		type_mismatch(s, t->at, t->at->name, ty_of(s, t->id), ty);
	}
	t->done = 1;
	return t->id;
}

/* One instruction with one result of type ty. */
static int emit_val(Sema *s, const Node *at, int op, Type ty, const int32_t *arg, int narg,
		    Target *t)
{
	int32_t r = out(s, t, ty);
	emit(s, at, op, &r, 1, arg, narg);
	return r;
}

/* ---- types written in the source --------------------------------------- */

/* Render a decorator or annotation for a message: "wp.kernel", "foo(...)". */
static void dotted(const Node *n, char *out, size_t cap)
{
	if (n->kind == N_NAME) {
		snprintf(out, cap, "%s", n->name);
	} else if (n->kind == N_ATTR && kid(n, 0)) {
		dotted(n->kid[0], out, cap);
		size_t w = strlen(out);
		snprintf(out + w, cap - w, ".%s", n->name);
	} else if (n->kind == N_CALL && kid(n, 0)) {
		dotted(n->kid[0], out, cap);
		size_t w = strlen(out);
		snprintf(out + w, cap - w, "(...)");
	} else {
		snprintf(out, cap, "...");
	}
}

static Type ann_type(Sema *s, Node *a);

/* wp.array(dtype=T), wp.array(dtype=T, ndim=1) */
static Type array_type(Sema *s, Node *a)
{
	Type el = TY_VOID;
	for (int i = 1; i < a->nkid; i++) {
		Node *k = a->kid[i];
		if (k->kind != N_KWARG)
			ERR(k, "write the element type as wp.array(dtype=T)");
		if (!strcmp(k->name, "dtype")) {
			el = ann_type(s, k->kid[0]);
			if (el == TY_BOOL || ty_is_array(el))
				ERR(k->kid[0], "arrays of %s are not supported", uty(el));
		} else if (!strcmp(k->name, "ndim")) {
			Node *d = k->kid[0];
			if (d->kind != N_INT || d->ival != 1)
				ERR(d, "only 1-D arrays are supported (ndim=1)");
		} else {
			ERR(k, "unsupported wp.array() argument '%s'", k->name);
		}
	}
	if (el == TY_VOID)
		ERR(a, "wp.array() needs an element type: wp.array(dtype=float)");
	return (Type)(TY_ARRAY | el);
}

/* A type annotation: float, int, bool, wp.float32, wp.vec3, wp.mat33,
 * wp.array(dtype=T).  Callers reject what their position does not allow. */
static Type ann_type(Sema *s, Node *a)
{
	char buf[128];
	Type t = TY_VOID;
	if (a->kind == N_NAME) {
		if (!strcmp(a->name, "float"))
			return TY_FLOAT;
		if (!strcmp(a->name, "int"))
			return TY_INT;
		if (!strcmp(a->name, "bool"))
			return TY_BOOL;
	} else if (is_wp_attr(a)) {
		if ((t = wp_type(a->name)) != TY_VOID)
			return t;
		if (!strcmp(a->name, "array") || !strcmp(a->name, "array1d"))
			ERR(a, "wp.%s needs an element type: wp.array(dtype=float)", a->name);
	} else if (a->kind == N_CALL && is_wp_attr(a->kid[0]) &&
		   (!strcmp(a->kid[0]->name, "array") || !strcmp(a->kid[0]->name, "array1d"))) {
		return array_type(s, a);
	} else if (a->kind == N_STRING) {
		ERR(a, "string annotations are not supported");
	}
	dotted(a, buf, sizeof buf);
	ERR(a, "unsupported type '%s'; use float, int, wp.vec2/3/4, wp.mat22/33/44 or "
	    "wp.array(dtype=...)", buf);
}

/* ---- expressions --------------------------------------------------------- */

static int expr(Sema *s, Node *e, Target *t);
static int call(Sema *s, Node *e, Target *t, int want);

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

/* A condition: bool as is, int compared with 0 (Python truthiness); what
 * names the construct for the message. */
static int cond(Sema *s, Node *e, const char *what)
{
	int v = expr(s, e, NULL);
	Type t = ty_of(s, v);
	if (t == TY_BOOL)
		return v;
	if (t == TY_INT) {
		int32_t a[2] = {v, ir_const_int(s->m, s->f, 0)};
		return emit_val(s, e, OP_NE, TY_BOOL, a, 2, NULL);
	}
	if (t == TY_FLOAT)
		ERR(e, "%s must be bool, not float; compare explicitly, e.g. 'x != 0.0'", what);
	ERR(e, "%s must be bool, not %s", what, uty(t));
}

static const char *const binop_sym[] = {"+", "-", "*", "/", "//", "%", "**", "@",
					"&", "|", "^", "<<", ">>"};

/* a OP b for an arithmetic BinOp; aug says it came from 'OP='. */
static int binop(Sema *s, Node *at, int bop, int a, int b, Target *t, int aug)
{
	static const int irop[] = {OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_FLOORDIV, OP_MOD};
	if (bop == B_POW)
		ERR(at, "'**' is not supported; use wp.pow(a, b)");
	if (bop == B_MATMUL)
		ERR(at, "'@' is not supported; use * for matrix products");
	if (bop >= (int)KS_NELEM(binop_sym))
		ERR(at, "unsupported operator");
	if (bop >= (int)KS_NELEM(irop))
		ERR(at, "bitwise operator '%s' is not supported", binop_sym[bop]);
	Type ta[2] = {ty_of(s, a), ty_of(s, b)};
	Type r = ir_op_type(irop[bop], ta, 2, TY_VOID);
	if (r == TY_VOID) {
		const char *hint = conv_hint(ta[0], ta[1]);
		if (!hint[0] && bop == B_MUL && ty_is_vec(ta[0]) && ty_is_vec(ta[1]))
			hint = " (use wp.dot() or wp.cross())";
		ERR(at, "unsupported operand types for %s%s: '%s' and '%s'%s", binop_sym[bop],
		    aug ? "=" : "", uty(ta[0]), uty(ta[1]), hint);
	}
	int32_t args[2] = {a, b};
	return emit_val(s, at, irop[bop], r, args, 2, t);
}

/* a < b, a == b, ... */
static int compare(Sema *s, Node *e, Target *t)
{
	static const char *const sym[] = {"<", "<=", ">", ">=", "==", "!="};
	static const int irop[] = {OP_LT, OP_LE, OP_GT, OP_GE, OP_EQ, OP_NE};
	Node *l = e->kid[0], *r = e->kid[1];
	if ((l->kind == N_COMPARE && !l->paren) || (r->kind == N_COMPARE && !r->paren))
		ERR(e, "chained comparisons are not supported; write 'a < b and b < c'");
	if (e->op == C_IS || e->op == C_ISNOT)
		ERR(e, "'is' is not supported; use == or !=");
	if (e->op >= (int)KS_NELEM(irop))
		ERR(e, "'in' is not supported in kernels");
	int a = expr(s, l, NULL), b = expr(s, r, NULL);
	Type ta[2] = {ty_of(s, a), ty_of(s, b)};
	Type ty = ir_op_type(irop[e->op], ta, 2, TY_VOID);
	if (ty == TY_VOID)
		ERR(e, "unsupported operand types for %s: '%s' and '%s'%s", sym[e->op],
		    uty(ta[0]), uty(ta[1]), conv_hint(ta[0], ta[1]));
	int32_t args[2] = {a, b};
	return emit_val(s, e, irop[e->op], ty, args, 2, t);
}

/* -x, +x */
static int unary(Sema *s, Node *e, Target *t)
{
	Node *x = e->kid[0];
	if (e->op != '-' && e->op != '+')
		ERR(e, "bitwise operator '%c' is not supported", e->op);
	if (e->op == '-' && x->kind == N_INT)
		return int_lit(s, e, x, 1);
	if (e->op == '-' && x->kind == N_FLOAT)
		return float_lit(s, e, x, 1);
	/* unary + is the operand itself, but only on what '-' would accept */
	int v = expr(s, x, e->op == '+' ? t : NULL);
	Type tv = ty_of(s, v);
	Type r = ir_op_type(OP_NEG, &tv, 1, TY_VOID);
	if (r == TY_VOID)
		ERR(e, "bad operand type for unary %c: '%s'", e->op, uty(tv));
	if (e->op == '+')
		return v;
	int32_t a[1] = {v};
	return emit_val(s, e, OP_NEG, r, a, 1, t);
}

/* A name read as a value: a parameter or variable. */
static int name_value(Sema *s, Node *e)
{
	int v = map_get(&s->names, e->name);
	if (v >= 0)
		return v;
	if (def_find(s, e->name) >= 0)
		ERR(e, "function '%s' can only be called", e->name);
	if (!strcmp(e->name, "wp"))
		ERR(e, "'wp' can only be used as wp.NAME");
	ERR(e, "name '%s' is not defined", e->name);
}

/* An index operand: int; a constant is checked against dim (0: unchecked,
 * for arrays). */
static int index_val(Sema *s, Node *e, int dim, Type of)
{
	int v = expr(s, e, NULL);
	Type t = ty_of(s, v);
	if (t != TY_INT)
		ERR(e, "index must be int, not %s%s", uty(t), t == TY_FLOAT ? " (use int() to convert)" : "");
	const Value *k = &s->f->val[v];
	if (dim && k->kind == VK_CONST && (k->k.i < 0 || k->k.i >= dim))
		ERR(e, "index %d is out of range for %s", (int)k->k.i, uty(of));
	return v;
}

/* The subscripts of x[i] or x[i, j]. */
static Node **subscripts(Node *e, int *n)
{
	if (e->nkid == 2 && e->kid[1]->kind == N_TUPLE) {
		*n = e->kid[1]->nkid;
		return e->kid[1]->kid;
	}
	*n = e->nkid - 1;
	return e->kid + 1;
}

/* Check the subscript count for a vec/mat/array of type t. */
static void check_nsub(Sema *s, Node *e, Type t, int n)
{
	if (ty_is_array(t) && n != 1)
		ERR(e, "arrays are 1-D: index them as a[i]");
	if (ty_is_vec(t) && n != 1)
		ERR(e, "%s takes one index", uty(t));
	if (ty_is_mat(t) && n != 1 && n != 2)
		ERR(e, "%s takes one index (a row) or two (an element)", uty(t));
}

/* The component .x/.y/.z/.w of a vector of type t, as an index. */
static int component(Sema *s, Node *e, Type t)
{
	const char *c = e->name;
	int k = c[0] && !c[1] && strchr("xyzw", c[0]) ? (int)(strchr("xyzw", c[0]) - "xyzw") : -1;
	if (ty_is_mat(t))
		ERR(e, "%s has no attribute '%s'; index elements as m[i, j]", uty(t), c);
	if (!ty_is_vec(t))
		ERR(e, "'%s' has no attribute '%s'", uty(t), c);
	if (k < 0)
		ERR(e, "%s has no attribute '%s'; its components are .x .y .z .w", uty(t), c);
	if (k >= ty_dim(t))
		ERR(e, "%s has no component '.%s'", uty(t), c);
	return k;
}

/* v.x and wp.NAME not called */
static int attr_value(Sema *s, Node *e, Target *t)
{
	if (is_wp_attr(e)) {
		if (!strcmp(e->name, "array"))
			ERR(e, "wp.array can only be used in a parameter annotation");
		if (wp_type(e->name) != TY_VOID || ir_builtin_known(e->name))
			ERR(e, "wp.%s must be called", e->name);
		ERR(e, "wp.%s is not supported in kernels", e->name);
	}
	int v = expr(s, e->kid[0], NULL);
	int k = component(s, e, ty_of(s, v));
	int32_t a[2] = {v, ir_const_int(s->m, s->f, k)};
	return emit_val(s, e, OP_EXTRACT, TY_FLOAT, a, 2, t);
}

/* a[i] (load), v[k], m[i] (a row), m[i, j] */
static int index_value(Sema *s, Node *e, Target *t)
{
	int n;
	Node **sub = subscripts(e, &n);
	int v = expr(s, e->kid[0], NULL);
	Type tv = ty_of(s, v);
	if (!ty_is_array(tv) && !ty_is_vec(tv) && !ty_is_mat(tv))
		ERR(e, "'%s' object is not subscriptable", uty(tv));
	check_nsub(s, e, tv, n);
	int32_t a[3] = {v};
	for (int i = 0; i < n; i++)
		a[i + 1] = index_val(s, sub[i], ty_is_array(tv) ? 0 : ty_dim(tv), tv);
	Type ta[3] = {tv, TY_INT, TY_INT};
	int op = ty_is_array(tv) ? OP_LOAD : OP_EXTRACT;
	return emit_val(s, e, op, ir_op_type(op, ta, n + 1, TY_VOID), a, n + 1, t);
}

/* a if c else b: both sides evaluated, as Warp does */
static int ifexp(Sema *s, Node *e, Target *t)
{
	int c = cond(s, e->kid[1], "the condition of a conditional expression");
	int a = expr(s, e->kid[0], NULL), b = expr(s, e->kid[2], NULL);
	Type ta[3] = {TY_BOOL, ty_of(s, a), ty_of(s, b)};
	Type r = ir_op_type(OP_SELECT, ta, 3, TY_VOID);
	if (r == TY_VOID && ta[1] != ta[2])
		ERR(e, "the branches of a conditional expression have different types: '%s' and "
		    "'%s'%s", uty(ta[1]), uty(ta[2]), conv_hint(ta[1], ta[2]));
	if (r == TY_VOID)
		ERR(e, "a conditional expression cannot choose between arrays");
	int32_t args[3] = {c, a, b};
	return emit_val(s, e, OP_SELECT, r, args, 3, t);
}

/* Lower an expression to a value id.  With a target, the instruction that
 * computes the value writes it (t->done), unless the value is a bare name,
 * constant or conversion to its own type. */
static int expr(Sema *s, Node *e, Target *t)
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
	}
	ERR(e, "this expression is not supported in kernels");
}

/* ---- calls ------------------------------------------------------------------ */

/* Lower the arguments of a call into a[] and their types into ty[]. */
static int call_args(Sema *s, Node *e, int32_t *a, Type *ty)
{
	int n = e->nkid - 1;
	if (n > MAXOPS)
		ERR(e, "too many arguments (%d) in one call", n);
	for (int i = 0; i < n; i++) {
		Node *x = e->kid[i + 1];
		if (x->kind == N_KWARG)
			ERR(x, "keyword arguments are not supported; pass '%s' by position", x->name);
		a[i] = expr(s, x, NULL);
		ty[i] = ty_of(s, a[i]);
	}
	return n;
}

/* float(x), int(x), wp.float32(x), wp.int32(x); bool(b) and wp.bool(b) of
 * a bool (how Warp spells a flag that a dynamic loop may change) */
static int convert(Sema *s, Node *e, const char *what, Type want, Target *t)
{
	int32_t a[MAXOPS];
	Type ty[MAXOPS];
	int n = call_args(s, e, a, ty);
	int op = want == TY_FLOAT ? OP_TOFLOAT : OP_TOINT;
	if (n != 1)
		ERR(e, "%s() takes 1 argument (%d given)", what, n);
	if (ty[0] == want)
		return a[0];
	if (want == TY_BOOL)
		ERR(e->kid[1], "%s() argument must be a bool, not %s; compare explicitly, e.g. 'x != 0'",
		    what, uty(ty[0]));
	if (ir_op_type(op, ty, 1, TY_VOID) == TY_VOID)
		ERR(e->kid[1], "%s() argument must be int or float, not %s", what, uty(ty[0]));
	return emit_val(s, e, op, want, a, 1, t);
}

/* wp.vec3(...), wp.mat33(...): no argument, one to broadcast or every
 * component, all float. */
static int make(Sema *s, Node *e, Type want, Target *t)
{
	const char *name = e->kid[0]->name;
	int32_t a[MAXOPS];
	Type ty[MAXOPS];
	int n = call_args(s, e, a, ty), nc = ty_ncomp(want);
	if (ir_op_type(OP_MAKE, ty, n, want) == TY_VOID) {
		if (n != 0 && n != 1 && n != nc)
			ERR(e, "wp.%s() takes 0, 1 or %d arguments (%d given)", name, nc, n);
		for (int i = 0; i < n; i++) {
			Node *x = e->kid[i + 1];
			if (ty[i] == TY_FLOAT)
				continue;
			if (ty[i] == TY_INT && x->kind == N_INT)
				ERR(x, "wp.%s components must be float; write %lld.0, not %lld", name,
				    (long long)x->ival, (long long)x->ival);
			if (ty[i] == TY_INT && x->kind == N_NAME)
				ERR(x, "wp.%s components must be float; use float(%s)", name, x->name);
			if (ty[i] == TY_INT)
				ERR(x, "wp.%s components must be float; use float(...)", name);
			ERR(x, "wp.%s components must be float, not %s", name, uty(ty[i]));
		}
	}
	return emit_val(s, e, OP_MAKE, want, a, n, t);
}

/* wp.NAME(...) for a row of builtins.h.  Without want the result, if any,
 * is dropped (an expression statement: atomics, mostly). */
static int builtin(Sema *s, Node *e, const char *name, Target *t, int want)
{
	int arity = -1, nrow = 0;
	for (int r = 0; r < BI_COUNT; r++) {
		if (strcmp(ir_builtins[r].name, name))
			continue;
		if ((ir_builtins[r].flags & BF_KERNEL_ONLY) && !s->cur->kernel)
			ERR(e, "wp.%s() can only be called in a kernel", name);
		int k = (int)strlen(ir_builtins[r].args);
		arity = nrow++ == 0 || arity == k ? k : -2;
	}
	int32_t a[MAXOPS];
	Type ty[MAXOPS];
	int n = call_args(s, e, a, ty);
	Type res;
	int row = ir_builtin_resolve(name, ty, n, &res);
	if (row < 0) {
		char got[256] = "", sigs[400];
		if (arity >= 0 && arity != n)
			ERR(e, "wp.%s() takes %d argument%s (%d given)", name, arity,
			    arity == 1 ? "" : "s", n);
		for (int i = 0; i < n; i++) {
			size_t w = strlen(got);
			snprintf(got + w, sizeof got - w, "%s%s", i ? ", " : "", uty(ty[i]));
		}
		ir_builtin_signatures(name, sigs, sizeof sigs);
		ERR(e, "no overload of wp.%s for (%s); expected %s%s", name, got,
		    nrow > 1 ? "one of: " : "", sigs);
	}
	if (want && res == TY_VOID)
		ERR(e, "wp.%s() does not return a value", name);
	int32_t r = want ? out(s, t, res) : -1;
	Inst *in = emit(s, e, OP_BUILTIN, &r, r >= 0, a, n);
	in->callee = (int32_t)row;
	return r;
}

/* The def index of a call to a wp.func (not a kernel), else -1. */
static int callee_of(Sema *s, const Node *e)
{
	if (e->kind != N_CALL || e->kid[0]->kind != N_NAME)
		return -1;
	int d = def_find(s, e->kid[0]->name);
	return d >= 0 && !s->m->fn[d]->is_kernel ? d : -1;
}

/* The arguments of a call to the wp.func d, checked against its
 * parameters. */
static int func_args(Sema *s, Node *e, int d, int32_t *a)
{
	Func *g = s->m->fn[d];
	Type ty[MAXOPS];
	int n = call_args(s, e, a, ty);
	if (n != g->nparam)
		ERR(e, "%s() takes %d argument%s (%d given)", g->name, g->nparam,
		    g->nparam == 1 ? "" : "s", n);
	for (int i = 0; i < n; i++) {
		Type pt = g->val[g->param[i]].ty;
		if (ty[i] != pt)
			ERR(e->kid[i + 1], "argument '%s' of %s() must be %s, not %s%s",
			    g->val[g->param[i]].name, g->name, uty(pt), uty(ty[i]),
			    assign_hint(pt, ty[i]));
	}
	return n;
}

/* The call to d, its results written to res[] (one per returned value). */
static void func_call(Sema *s, Node *e, int d, const int32_t *res, const int32_t *a, int n)
{
	emit(s, e, OP_CALL, res, s->m->fn[d]->nret, a, n)->callee = (int32_t)d;
}

/* A call returning several values into fresh temps (return f(x)). */
static void func_call_temps(Sema *s, Node *e, int d, int32_t *res)
{
	Func *g = s->m->fn[d];
	int32_t a[MAXOPS];
	int n = func_args(s, e, d, a);
	for (int i = 0; i < g->nret; i++)
		res[i] = ir_temp(s->m, s->f, g->ret[i]);
	func_call(s, e, d, res, a, n);
}

/* A call: conversions, constructors, builtins and wp.funcs.  want: the
 * call must produce one value (else it is a statement). */
static int call(Sema *s, Node *e, Target *t, int want)
{
	Node *fn = e->kid[0];
	if (fn->kind == N_NAME) {
		const char *name = fn->name;
		int d = def_find(s, name);
		if (map_get(&s->names, name) >= 0)
			ERR(fn, "'%s' is a variable, not a function", name);
		if (d >= 0 && s->m->fn[d]->is_kernel)
			ERR(e, "kernels cannot be called from kernels or functions; use a wp.func");
		if (d >= 0) {
			Func *g = s->m->fn[d];
			int32_t res[MAXOPS];
			if (want && g->nret == 0)
				ERR(e, "'%s' does not return a value", name);
			if (want && g->nret > 1)
				ERR(e, "'%s' returns %d values; unpack them with 'a, b = %s(...)'", name,
				    g->nret, name);
			if (!want) {
				func_call_temps(s, e, d, res);
				return -1;
			}
			int32_t a[MAXOPS];
			int n = func_args(s, e, d, a);
			res[0] = out(s, t, g->ret[0]);
			func_call(s, e, d, res, a, n);
			return res[0];
		}
		if (!strcmp(name, "float"))
			return convert(s, e, "float", TY_FLOAT, t);
		if (!strcmp(name, "int"))
			return convert(s, e, "int", TY_INT, t);
		if (!strcmp(name, "range"))
			ERR(e, "range() can only be used in 'for ... in range(...)'");
		if (!strcmp(name, "bool"))
			return convert(s, e, "bool", TY_BOOL, t);
		if (ir_builtin_known(name))
			ERR(fn, "use wp.%s() instead of %s()", name, name);
		if (!strcmp(name, "print") || !strcmp(name, "len"))
			ERR(fn, "%s() is not supported in kernels", name);
		ERR(fn, "name '%s' is not defined", name);
	}
	if (is_wp_attr(fn)) {
		const char *name = fn->name;
		Type ty = wp_type(name);
		if (ty == TY_FLOAT || ty == TY_INT) {
			char what[32];
			snprintf(what, sizeof what, "wp.%s", name);
			return convert(s, e, what, ty, t);
		}
		if (ty_is_vec(ty) || ty_is_mat(ty))
			return make(s, e, ty, t);
		if (ty == TY_BOOL)
			return convert(s, e, "wp.bool", TY_BOOL, t);
		if (ir_builtin_known(name))
			return builtin(s, e, name, t, want);
		if (!strcmp(name, "array"))
			ERR(e, "wp.array() can only be used in a parameter annotation");
		ERR(fn, "wp.%s() is not supported in kernels", name);
	}
	if (fn->kind == N_ATTR)
		ERR(fn, "method calls are not supported");
	ERR(e, "this expression cannot be called");
}

/* ---- statements ----------------------------------------------------------- */

static void stmt(Sema *s, Node *n);

/* The statements of a suite, into b. */
static void suite(Sema *s, Block *b, Node *blk)
{
	Block *old = s->blk;
	s->blk = b;
	if (blk && blk->kind == N_BLOCK)
		for (int i = 0; i < blk->nkid; i++)
			stmt(s, blk->kid[i]);
	else if (blk)
		stmt(s, blk);
	s->blk = old;
}

/* May the name n be (re)bound here? */
static void check_target(Sema *s, Node *n)
{
	const char *name = n->name;
	if (reserved(name))
		ERR(n, "cannot assign to '%s': the name is reserved", name);
	if (def_find(s, name) >= 0)
		ERR(n, "cannot assign to function '%s'", name);
	for (int i = 0; i < s->nloopvar; i++)
		if (!strcmp(s->loopvar[i], name))
			ERR(n, "cannot assign to loop variable '%s'", name);
	int v = map_get(&s->names, name);
	if (v >= 0 && ty_is_array(ty_of(s, v)))
		ERR(n, "cannot assign to array parameter '%s'; store into its elements with "
		    "%s[i] = ...", name, name);
}

/* x = e, x: T = e */
static void assign_name(Sema *s, Node *st, Node *lhs, Node *rhs, Type want)
{
	check_target(s, lhs);
	Target t = {lhs, map_get(&s->names, lhs->name), want, 0};
	int32_t v = expr(s, rhs, &t);
	if (t.done)
		return;
	if (ty_is_array(ty_of(s, v)))
		ERR(rhs, "arrays cannot be copied into variables; index them or pass them to a "
		    "function");
	int32_t r = out(s, &t, ty_of(s, v));
	emit(s, st, OP_MOV, &r, 1, &v, 1);
}

/* a, b = f(x): one call writing each variable */
static void assign_tuple(Sema *s, Node *st, Node *lhs, Node *rhs)
{
	int n = lhs->nkid, d = callee_of(s, rhs);
	if (rhs->kind == N_CALL && is_wp_attr(rhs->kid[0]) && !strcmp(rhs->kid[0]->name, "tid"))
		ERR(rhs, "only 1-D launches are supported; use 'i = wp.tid()'");
	if (d < 0 && rhs->kind == N_CALL)
		(void)expr(s, rhs, NULL); /* reports kernels, unknown names, ... */
	if (d < 0)
		ERR(st, "tuple assignment needs a wp.func returning several values "
		    "('a, b = f(...)'); assign each variable separately");
	Func *g = s->m->fn[d];
	if (g->nret != n)
		ERR(st, "cannot unpack %d value%s returned by '%s' into %d names", g->nret,
		    g->nret == 1 ? "" : "s", g->name, n);
	for (int i = 0; i < n; i++) {
		Node *x = lhs->kid[i];
		if (x->kind != N_NAME)
			ERR(x, "only names can receive the values of a tuple assignment");
		check_target(s, x);
		for (int j = 0; j < i; j++)
			if (!strcmp(lhs->kid[j]->name, x->name))
				ERR(x, "'%s' is assigned twice in one tuple assignment", x->name);
	}
	int32_t res[MAXOPS], a[MAXOPS];
	for (int i = 0; i < n; i++) {
		res[i] = map_get(&s->names, lhs->kid[i]->name);
		if (res[i] >= 0 && ty_of(s, res[i]) != g->ret[i])
			type_mismatch(s, lhs->kid[i], lhs->kid[i]->name, ty_of(s, res[i]), g->ret[i]);
	}
	int na = func_args(s, rhs, d, a);
	/* Python binds the names after evaluating the call: new variables
	 * become visible only now */
	for (int i = 0; i < n; i++)
		if (res[i] < 0)
			res[i] = new_var(s, lhs->kid[i]->name, g->ret[i]);
	func_call(s, rhs, d, res, a, na);
}

/* The name at the root of a[i].x, a[i][j]: what the user assigned into. */
static const Node *root_name(const Node *n)
{
	while ((n->kind == N_INDEX || n->kind == N_ATTR) && kid(n, 0))
		n = n->kid[0];
	return n->kind == N_NAME ? n : NULL;
}

/* The target of x[...] = e or x.c = e must be a plain name. */
static Node *component_base(Sema *s, Node *lhs)
{
	Node *b = lhs->kid[0];
	if (b->kind == N_NAME)
		return b;
	const Node *r = root_name(b);
	int v = r ? map_get(&s->names, r->name) : -1;
	if (v >= 0 && ty_is_array(ty_of(s, v)))
		ERR(lhs, "cannot assign to a component of an array element; copy it to a variable "
		    "first");
	if (v >= 0 && ty_is_mat(ty_of(s, v)) && b->kind == N_INDEX && lhs->kind == N_INDEX)
		ERR(lhs, "write m[i, j] = ... to assign a matrix element");
	ERR(lhs, "cannot assign to this expression");
}

/* v[k] = e, v.x = e, m[i] = row, m[i, j] = e and their 'op=' forms:
 * v = insert v, k, e.  Indices are nodes (sub) or one constant k. */
static void insert(Sema *s, Node *st, Node *base, Node **sub, int nsub, int k, Node *rhs, int aug)
{
	int32_t v = name_value(s, base), a[4] = {v};
	Type tv = ty_of(s, v);
	int32_t val = -1;
	check_target(s, base);
	if (aug < 0)
		val = expr(s, rhs, NULL); /* Python: the value before the target */
	if (sub)
		for (int i = 0; i < nsub; i++)
			a[i + 1] = index_val(s, sub[i], ty_dim(tv), tv);
	else
		a[1] = ir_const_int(s->m, s->f, k), nsub = 1;
	Type ta[4] = {tv, TY_INT, TY_INT};
	if (aug >= 0) {
		int old = emit_val(s, st, OP_EXTRACT, ir_op_type(OP_EXTRACT, ta, nsub + 1, TY_VOID),
				   a, nsub + 1, NULL);
		val = binop(s, st, aug, old, expr(s, rhs, NULL), NULL, 1);
	}
	a[nsub + 1] = val;
	ta[nsub + 1] = ty_of(s, val);
	if (ir_op_type(OP_INSERT, ta, nsub + 2, TY_VOID) == TY_VOID) {
		Type el = ir_op_type(OP_EXTRACT, ta, nsub + 1, TY_VOID);
		ERR(aug < 0 ? rhs : st, "cannot assign %s to %s of %s, which is %s%s",
		    uty(ta[nsub + 1]), ty_is_vec(el) ? "a row" : "a component", uty(tv), uty(el),
		    assign_hint(el, ta[nsub + 1]));
	}
	emit(s, st, OP_INSERT, &v, 1, a, nsub + 2);
}

/* a[i] = e (store); a[i] += e, -= e (atomic); a[i] op= e (load, op, store) */
static void store(Sema *s, Node *st, Node *lhs, int32_t arr, Node *rhs, int aug)
{
	int n;
	Node **sub = subscripts(lhs, &n);
	Type ta = ty_of(s, arr), el = ty_elem(ta);
	check_nsub(s, lhs, ta, n);
	int32_t a[3] = {arr};
	if (aug < 0) {
		a[2] = expr(s, rhs, NULL);
		a[1] = index_val(s, sub[0], 0, ta);
		if (ty_of(s, a[2]) != el)
			ERR(rhs, "cannot store %s in an array of %s%s", uty(ty_of(s, a[2])), uty(el),
			    assign_hint(el, ty_of(s, a[2])));
		emit(s, st, OP_STORE, NULL, 0, a, 3);
		return;
	}
	a[1] = index_val(s, sub[0], 0, ta);
	if (aug == B_ADD || aug == B_SUB) {
		const char *name = aug == B_ADD ? "atomic_add" : "atomic_sub";
		a[2] = expr(s, rhs, NULL);
		Type ty[3] = {ta, TY_INT, ty_of(s, a[2])}, res;
		int row = ir_builtin_resolve(name, ty, 3, &res);
		if (row < 0)
			ERR(st, "unsupported operand types for %s=: '%s' and '%s'%s", binop_sym[aug],
			    uty(el), uty(ty[2]), assign_hint(el, ty[2]));
		emit(s, st, OP_BUILTIN, NULL, 0, a, 3)->callee = (int32_t)row;
		return;
	}
	int32_t old = emit_val(s, st, OP_LOAD, el, a, 2, NULL);
	a[2] = binop(s, st, aug, old, expr(s, rhs, NULL), NULL, 1);
	if (ty_of(s, a[2]) != el)
		ERR(st, "cannot store %s in an array of %s", uty(ty_of(s, a[2])), uty(el));
	emit(s, st, OP_STORE, NULL, 0, a, 3);
}

/* x[...] = e, x.c = e and their 'op=' forms (aug: the BinOp or -1) */
static void assign_component(Sema *s, Node *st, Node *lhs, Node *rhs, int aug)
{
	Node *base = component_base(s, lhs);
	int v = name_value(s, base);
	Type tv = ty_of(s, v);
	if (lhs->kind == N_ATTR) {
		insert(s, st, base, NULL, 0, component(s, lhs, tv), rhs, aug);
	} else if (ty_is_array(tv)) {
		store(s, st, lhs, v, rhs, aug);
	} else if (ty_is_vec(tv) || ty_is_mat(tv)) {
		int n;
		Node **sub = subscripts(lhs, &n);
		check_nsub(s, lhs, tv, n);
		insert(s, st, base, sub, n, 0, rhs, aug);
	} else {
		ERR(lhs, "'%s' object does not support item assignment", uty(tv));
	}
}

/* x = e, a, b = f(...), a[i] = e, v[k] = e, v.x = e */
static void assign(Sema *s, Node *n)
{
	Node *lhs = n->kid[0], *rhs = n->kid[1];
	if (n->nkid != 2)
		ERR(n, "chained assignment is not supported");
	switch (lhs->kind) {
	case N_NAME:
		assign_name(s, n, lhs, rhs, TY_VOID);
		return;
	case N_TUPLE:
		assign_tuple(s, n, lhs, rhs);
		return;
	case N_INDEX:
	case N_ATTR:
		assign_component(s, n, lhs, rhs, -1);
		return;
	}
	ERR(lhs, "cannot assign to this expression");
}

/* x op= e, a[i] op= e, v[k] op= e, v.x op= e */
static void augassign(Sema *s, Node *n)
{
	Node *lhs = n->kid[0], *rhs = n->kid[1];
	if (lhs->kind == N_INDEX || lhs->kind == N_ATTR) {
		assign_component(s, n, lhs, rhs, n->op);
		return;
	}
	if (lhs->kind != N_NAME)
		ERR(lhs, "cannot assign to this expression");
	check_target(s, lhs);
	Target t = {lhs, name_value(s, lhs), TY_VOID, 0};
	binop(s, n, n->op, t.id, expr(s, rhs, NULL), &t, 1);
}

/* x: T = e, x: T: Warp does not accept variable annotations in kernels
 * or functions, so neither does ksynth. */
static KS_NORETURN void annassign(Sema *s, Node *n)
{
	ERR(n, "variable annotations are not supported (Warp rejects them); "
	       "write 'x = T(e)' to give a variable a type");
}

/* Does the statement n (re)bind name?  Range bounds read from such a name
 * are copied before the loop, since Python evaluates range() once. */
static int binds(const Node *n, const char *name)
{
	if (!n)
		return 0;
	switch (n->kind) {
	case N_ASSIGN:
	case N_AUGASSIGN:
	case N_ANNASSIGN:
	case N_FOR: {
		const Node *t = n->kid[0], *r = root_name(t);
		if (t->kind == N_TUPLE) {
			for (int i = 0; i < t->nkid; i++)
				if (is_name(t->kid[i], name))
					return 1;
		} else if (r && !strcmp(r->name, name)) {
			return 1;
		}
		return n->kind == N_FOR && binds(kid(n, 2), name);
	}
	case N_IF:
		return binds(kid(n, 1), name) || binds(kid(n, 2), name);
	case N_WHILE:
		return binds(kid(n, 1), name);
	case N_BLOCK:
		for (int i = 0; i < n->nkid; i++)
			if (binds(n->kid[i], name))
				return 1;
		return 0;
	}
	return 0;
}

/* for j in range(hi), range(lo, hi), range(lo, hi, step) */
static void for_stmt(Sema *s, Node *n)
{
	Node *var = n->kid[0], *it = n->kid[1];
	if (n->nkid > 3 && n->kid[3])
		ERR(n, "'for ... else' is not supported");
	if (var->kind != N_NAME)
		ERR(var, "the loop variable must be a single name");
	if (it->kind != N_CALL || !is_name(it->kid[0], "range"))
		ERR(it, "only 'for i in range(...)' loops are supported");
	int na = it->nkid - 1;
	if (na < 1 || na > 3)
		ERR(it, "range() takes 1 to 3 arguments (%d given)", na);
	int32_t r[3];
	for (int i = 0; i < na; i++) {
		Node *x = it->kid[i + 1];
		if (x->kind == N_KWARG)
			ERR(x, "range() takes no keyword arguments");
		r[i] = expr(s, x, NULL);
		Type t = ty_of(s, r[i]);
		if (t != TY_INT)
			ERR(x, "range() arguments must be int, not %s%s", uty(t),
			    t == TY_FLOAT ? " (use int() to convert)" : "");
		const Value *v = &s->f->val[r[i]];
		if (i == 2 && v->kind == VK_CONST && v->k.i == 0)
			ERR(x, "range() step must not be zero");
		if ((v->kind == VK_VAR || v->kind == VK_PARAM) && binds(n->kid[2], v->name)) {
			int32_t c = ir_temp(s->m, s->f, TY_INT);
			emit(s, x, OP_MOV, &c, 1, &r[i], 1);
			r[i] = c;
		}
	}
	int32_t a[3] = {na == 1 ? ir_const_int(s->m, s->f, 0) : r[0], na == 1 ? r[0] : r[1],
			na == 3 ? r[2] : ir_const_int(s->m, s->f, 1)};
	check_target(s, var);
	int32_t j = map_get(&s->names, var->name);
	if (j >= 0 && s->f->val[j].kind == VK_PARAM)
		ERR(var, "parameter '%s' cannot be a loop variable; use another name", var->name);
	if (j >= 0 && ty_of(s, j) != TY_INT)
		ERR(var, "'%s' has type %s, but a loop variable is int; use another name", var->name,
		    uty(ty_of(s, j)));
	if (j < 0)
		j = new_var(s, var->name, TY_INT);
	Inst *in = emit(s, n, OP_FOR, &j, 1, a, 3);
	arena_grow(s->a, (void **)&s->loopvar, &s->caploopvar, s->nloopvar + 1, sizeof *s->loopvar);
	s->loopvar[s->nloopvar++] = var->name;
	s->nloop++;
	suite(s, &in->body, n->kid[2]);
	s->nloop--;
	s->nloopvar--;
}

/* while c: body  →  loop { c; if not c { break }; body } */
static void while_stmt(Sema *s, Node *n)
{
	Node *c = n->kid[0];
	if (n->nkid > 2 && n->kid[2])
		ERR(n, "'while ... else' is not supported");
	Inst *in = emit(s, n, OP_LOOP, NULL, 0, NULL, 0);
	Block *old = s->blk;
	s->blk = &in->body;
	if (!(c->kind == N_BOOL && c->ival)) {
		int32_t v = cond(s, c, "the condition of 'while'");
		int32_t nv = emit_val(s, c, OP_NOT, TY_BOOL, &v, 1, NULL);
		Inst *br = emit(s, c, OP_IF, NULL, 0, &nv, 1);
		ir_emit(s->m, &br->body, OP_BREAK, NULL, 0, NULL, 0, loc_of(c));
	}
	s->blk = old;
	s->nloop++;
	suite(s, &in->body, n->kid[1]);
	s->nloop--;
}

static void check_ret_type(Sema *s, Node *at, Type t)
{
	if (ty_is_array(t))
		ERR(at, "functions cannot return arrays");
	if (t == TY_BOOL)
		ERR(at, "functions cannot return bool; return an int (1 if c else 0)");
}

/* return, return e, return a, b, return f(...) of a multi-value func */
static void return_stmt(Sema *s, Node *n)
{
	Node *e = kid(n, 0);
	int32_t v[MAXOPS];
	Type ty[MAXOPS];
	int nv = 0, d;
	if (s->cur->kernel) {
		if (e)
			ERR(e, "kernels cannot return a value");
		emit(s, n, OP_RET, NULL, 0, NULL, 0);
		return;
	}
	if (e && e->kind == N_TUPLE) {
		if (e->nkid > MAXOPS)
			ERR(e, "too many return values");
		for (nv = 0; nv < e->nkid; nv++)
			v[nv] = expr(s, e->kid[nv], NULL);
	} else if (e && (d = callee_of(s, e)) >= 0 && s->m->fn[d]->nret > 1) {
		nv = s->m->fn[d]->nret;
		func_call_temps(s, e, d, v);
	} else if (e) {
		v[nv++] = expr(s, e, NULL);
	}
	for (int i = 0; i < nv; i++)
		check_ret_type(s, e, ty[i] = ty_of(s, v[i]));
	if (s->nsig < 0) {
		s->nsig = nv;
		s->sig = arena_alloc(s->a, (size_t)(nv + 1) * sizeof *s->sig);
		memcpy(s->sig, ty, (size_t)nv * sizeof *ty);
	} else if (s->nsig != nv || memcmp(s->sig, ty, (size_t)nv * sizeof *ty)) {
		char here[200], before[200];
		fmt_types(here, sizeof here, ty, nv);
		fmt_types(before, sizeof before, s->sig, s->nsig);
		if (s->sig_ann)
			ERR(n, "'%s' returns %s but is annotated to return %s", s->f->name, here, before);
		ERR(n, "inconsistent return types in '%s': %s here, %s in an earlier return",
		    s->f->name, here, before);
	}
	emit(s, n, OP_RET, NULL, 0, v, nv);
}

static void stmt(Sema *s, Node *n)
{
	switch (n->kind) {
	case N_EXPR:
		if (n->kid[0]->kind == N_CALL)
			(void)call(s, n->kid[0], NULL, 0);
		else if (n->kid[0]->kind == N_STRING)
			ERR(n, "strings are not supported in kernels");
		else
			ERR(n, "statement has no effect");
		return;
	case N_ASSIGN:
		assign(s, n);
		return;
	case N_ANNASSIGN:
		annassign(s, n);
		return;
	case N_AUGASSIGN:
		augassign(s, n);
		return;
	case N_IF: {
		int32_t c = cond(s, n->kid[0], "the condition of 'if'");
		Inst *in = emit(s, n, OP_IF, NULL, 0, &c, 1);
		/* lowering the branches emits only into in's own blocks, so in
		 * stays valid */
		suite(s, &in->body, n->kid[1]);
		suite(s, &in->els, kid(n, 2));
		return;
	}
	case N_FOR:
		for_stmt(s, n);
		return;
	case N_WHILE:
		while_stmt(s, n);
		return;
	case N_BREAK:
	case N_CONTINUE:
		if (!s->nloop)
			ERR(n, "'%s' outside loop", n->kind == N_BREAK ? "break" : "continue");
		emit(s, n, n->kind == N_BREAK ? OP_BREAK : OP_CONTINUE, NULL, 0, NULL, 0);
		return;
	case N_RETURN:
		return_stmt(s, n);
		return;
	case N_PASS:
		return;
	case N_BLOCK:
		suite(s, s->blk, n);
		return;
	case N_DEF:
		ERR(n, "nested functions are not supported");
	case N_IMPORT:
	case N_FROMIMPORT:
		ERR(n, "imports are only allowed at module level");
	}
	ERR(n, "this statement is not supported in kernels");
}

/* ---- functions ----------------------------------------------------------- */

/* -> T, -> tuple[T, U] (a bare -> tuple is not checked) */
static void return_annotation(Sema *s, Node *a)
{
	Type t[MAXOPS];
	int n = 0;
	if (!a)
		return;
	if (s->cur->kernel) {
		ERR(a, "kernels cannot return a value");
	} else if (is_name(a, "tuple") || is_name(a, "Tuple")) {
		return;
	} else if (a->kind == N_INDEX && (is_name(a->kid[0], "tuple") || is_name(a->kid[0], "Tuple"))) {
		Node **sub = subscripts(a, &n);
		if (n > MAXOPS)
			ERR(a, "too many return values");
		for (int i = 0; i < n; i++)
			t[i] = ann_type(s, sub[i]);
	} else {
		t[n++] = ann_type(s, a);
	}
	for (int i = 0; i < n; i++)
		check_ret_type(s, a, t[i]);
	s->nsig = n;
	s->sig = arena_alloc(s->a, (size_t)(n + 1) * sizeof *s->sig);
	memcpy(s->sig, t, (size_t)n * sizeof *t);
	s->sig_ann = 1;
}

/* def name(params) -> T: body, decorated @wp.kernel or @wp.func */
static void lower_def(Sema *s, Def *d, int di)
{
	Node *fn = d->node, *ps = kid(fn, 1), *body = kid(fn, 3);
	const char *what = d->kernel ? "kernel" : "function";
	s->cur = d;
	s->f = s->m->fn[di];
	memset(&s->names, 0, sizeof s->names);
	s->nloop = s->nloopvar = 0;
	s->nsig = -1;
	s->sig_ann = 0;
	for (int i = 0; ps && i < ps->nkid; i++) {
		Node *p = ps->kid[i];
		if (!kid(p, 0))
			ERR(p, "parameter '%s' of %s '%s' needs a type annotation", p->name, what,
			    fn->name);
		if (reserved(p->name))
			ERR(p, "'%s' cannot be used as a parameter name", p->name);
		if (def_find(s, p->name) >= 0)
			ERR(p, "parameter '%s' has the name of a function", p->name);
		if (map_get(&s->names, p->name) >= 0)
			ERR(p, "duplicate parameter '%s' in function definition", p->name);
		Type t = ann_type(s, p->kid[0]);
		if (t == TY_BOOL)
			ERR(p->kid[0], "bool parameters are not supported; use int");
		map_put(s->a, &s->names, p->name, ir_param(s->m, s->f, p->name, t));
	}
	if (s->f->nparam > MAXOPS)
		ERR(fn, "'%s' has more than %d parameters", fn->name, MAXOPS);
	return_annotation(s, kid(fn, 2));
	s->blk = &s->f->body;
	for (int i = 0; body && i < body->nkid; i++) {
		Node *st = body->kid[i];
		if (i == 0 && st->kind == N_EXPR && st->kid[0]->kind == N_STRING)
			continue; /* docstring */
		stmt(s, st);
	}
	ir_set_ret(s->m, s->f, s->sig, s->nsig > 0 ? s->nsig : 0);
}

/* ---- the module ------------------------------------------------------------- */

/* import warp as wp */
static void import(Sema *s, Node *n)
{
	if (n->kind == N_IMPORT && !strcmp(n->name, "warp") && n->str2 && !strcmp(n->str2, "wp"))
		return;
	if (n->kind == N_IMPORT && !strcmp(n->name, "warp"))
		ERR(n, "write 'import warp as wp': kernels refer to Warp as 'wp'");
	ERR(n, "only 'import warp as wp' is supported");
}

/* @wp.kernel or @wp.func: returns 1 for a kernel */
static int decorator(Sema *s, Node *fn, int have_wp)
{
	Node *decs = kid(fn, 0), *dn;
	char buf[128];
	if (!decs || decs->nkid == 0)
		ERR(fn, "function '%s' must be decorated with @wp.kernel or @wp.func", fn->name);
	if (decs->nkid > 1)
		ERR(decs->kid[1], "only one decorator is allowed: @wp.kernel or @wp.func");
	dn = decs->kid[0];
	Node *at = dn->kind == N_CALL ? dn->kid[0] : dn;
	int ok = is_wp_attr(at) && (!strcmp(at->name, "kernel") || !strcmp(at->name, "func"));
	if (ok && !have_wp)
		ERR(at, "name 'wp' is not defined; start the file with 'import warp as wp'");
	if (ok && dn->kind == N_CALL)
		ERR(dn, "@wp.%s takes no arguments", at->name);
	if (!ok) {
		dotted(dn, buf, sizeof buf);
		ERR(dn, "unsupported decorator '@%s'; use @wp.kernel or @wp.func", buf);
	}
	return !strcmp(at->name, "kernel");
}

/* Record the calls in n that name a wp.func: the call graph's edges. */
static void collect_calls(Sema *s, Def *d, Node *n)
{
	if (!n)
		return;
	if (n->kind == N_CALL) {
		int to = callee_of(s, n);
		if (to >= 0) {
			arena_grow(s->a, (void **)&d->call, &d->capcall, d->ncall + 1, sizeof *d->call);
			d->call[d->ncall++] = (Call){n, to};
		}
	}
	for (int i = 0; i < n->nkid; i++)
		collect_calls(s, d, n->kid[i]);
}

/* Order the defs so that callees come before callers (depth-first,
 * post-order, from each def in source order), rejecting cycles.  The walk
 * keeps its own stack: call chains may be as long as the file. */
static int *call_order(Sema *s)
{
	int n = s->ndef, no = 0;
	int *order = arena_alloc(s->a, (size_t)(n + 1) * sizeof *order);
	int *stack = arena_alloc(s->a, (size_t)(n + 1) * sizeof *stack);
	int *next = arena_alloc(s->a, (size_t)(n + 1) * sizeof *next); /* next edge */
	char *mark = arena_alloc(s->a, (size_t)n + 1); /* 1: on the stack, 2: done */
	for (int r = 0; r < n; r++) {
		if (mark[r])
			continue;
		int sp = 0;
		stack[sp++] = r;
		mark[r] = 1;
		while (sp) {
			int u = stack[sp - 1];
			if (next[u] == s->def[u].ncall) {
				mark[u] = 2;
				order[no++] = u;
				sp--;
				continue;
			}
			int v = s->def[u].call[next[u]++].to;
			if (mark[v] == 2)
				continue;
			if (mark[v] == 0) {
				mark[v] = 1;
				stack[sp++] = v;
				continue;
			}
			/* v is on the stack: v → ... → u → v */
			char via[400] = "";
			size_t w = 0;
			int k = sp - 1;
			while (stack[k] != v)
				k--;
			for (int i = k + 1; i < sp && i <= k + 4; i++)
				w += (size_t)snprintf(via + w, sizeof via - w, "%s'%.60s'",
						      i == k + 1 ? " (via " : ", ",
						      s->def[stack[i]].node->name);
			if (sp - k - 1 > 4)
				w += (size_t)snprintf(via + w, sizeof via - w, " and %d more",
						      sp - k - 5);
			if (w)
				snprintf(via + w, sizeof via - w, ")");
			Node *at = s->def[v].call[next[v] - 1].at;
			ERR(at, "recursion is not supported: '%s' calls itself%s",
			    s->def[v].node->name, via);
		}
	}
	return order;
}

/* A top-level statement, the i-th of the module: the import or docstring
 * (returns NULL), or a decorated def, which gets its IR function (returns
 * its node).  *have_wp: the import came before. */
static Node *top_level(Sema *s, Node *n, int i, int *have_wp, int *kernel)
{
	if (n->kind == N_IMPORT || n->kind == N_FROMIMPORT) {
		import(s, n);
		*have_wp = 1;
		return NULL;
	}
	if (i == 0 && n->kind == N_EXPR && n->kid[0]->kind == N_STRING)
		return NULL; /* docstring */
	if (n->kind != N_DEF)
		ERR(n, "only @wp.kernel and @wp.func definitions are supported at module level");
	*kernel = decorator(s, n, *have_wp);
	if (reserved(n->name))
		ERR(n, "'%s' cannot be used as a function name", n->name);
	if (ir_func_find(s->m, n->name) >= 0)
		ERR(n, "function '%s' is defined twice", n->name);
	if (s->ndef >= (1 << 24))
		ERR(n, "too many functions in one file (at most %d)", 1 << 24);
	if (s->missed && (missed_has(s->missed, n->name) || missed_has(s->kernels, n->name)))
		ERR(n, "'%s' was looked up above its definition", n->name);
	s->ndef++;
	if (s->keep) {
		/* a func stays, for the calls below it; a kernel goes */
		arena_grow(s->keep, (void **)&s->m->fn, &s->m->capfn, s->m->nfn + 1,
			   sizeof *s->m->fn);
		s->m->fnarena = *kernel ? NULL : s->keep;
	}
	ir_func_new(s->m, n->name, *kernel, loc_of(n));
	return n;
}

/* The top level: the import, docstring and decorated defs. */
static void module(Sema *s, Node *mod)
{
	int have_wp = 0, kernel = 0, ndef = 0;
	for (int i = 0; i < mod->nkid; i++) {
		Node *n = top_level(s, mod->kid[i], i, &have_wp, &kernel);
		if (!n)
			continue;
		arena_grow(s->a, (void **)&s->def, &s->capdef, ndef + 1, sizeof *s->def);
		Def *d = &s->def[ndef++];
		memset(d, 0, sizeof *d);
		d->node = n;
		d->kernel = kernel;
	}
	for (int i = 0; i < s->ndef; i++)
		collect_calls(s, &s->def[i], kid(s->def[i].node, 3));
	int *order = call_order(s);
	for (int i = 0; i < s->ndef; i++)
		lower_def(s, &s->def[order[i]], order[i]);
}

Module *ks_lower(const Parse *p)
{
	Module *const m = ir_module_new();
	jmp_buf here, *const outer = ks_recover;
	/* free the half-built module on an error, then pass the error on */
	if (setjmp(here)) {
		ks_recover = outer;
		ir_module_free(m);
		if (outer)
			longjmp(*outer, 1);
		out_abort();
		exit(1);
	}
	ks_recover = &here;
	Sema s = {.src = p->src, .a = p->arena, .m = m};
	if (p->src && p->src->name)
		m->source = arena_strdup(&m->arena, p->src->name);
	module(&s, p->module);
	ir_verify(m, p->src, 1);
	ks_recover = outer;
	return m;
}

Module *ks_frontend(const Src *src, Arena *scratch)
{
	Parse p;
	ks_parse(&p, src, scratch);
	return ks_lower(&p);
}

/* ---- streaming ------------------------------------------------------------ */

/* The state a longjmp must find intact lives here, not in locals. */
static Pieces st_pc;
static Module *st_m;
static Arena st_ast, st_keep;
static Missed st_missed, st_kernels;
static int st_reading;

static void missed_init(Missed *ms)
{
	ms->n = 0;
	ms->cap = 256;
	ms->h = xmalloc(ms->cap * sizeof *ms->h);
	memset(ms->h, 0, ms->cap * sizeof *ms->h);
}

/* Back to the module's own arena after a top-level statement; a def that
 * is done keeps its signature (a func) or leaves the module (a kernel). */
static void st_drop(int done)
{
	if (!st_reading)
		return;
	st_m->fnarena = &st_keep;
	if (done && st_m->fn[st_m->nfn - 1]->is_kernel) {
		missed_add(&st_kernels, st_m->fn[st_m->nfn - 1]->name);
		ir_func_pop(st_m);
	} else if (done) {
		ir_keep_signature(st_m, st_m->fn[st_m->nfn - 1]);
	}
	arena_free(&st_m->arena);
	st_m->arena = st_keep;
	memset(&st_keep, 0, sizeof st_keep);
	st_m->fnarena = NULL;
	st_reading = 0;
}

int ks_frontend_stream(const char *path, const char *outpath, Src *whole)
{
	jmp_buf jb;
	jmp_buf *saved = ks_recover;
	int quiet = ks_quiet;
	volatile int ok = 0;
	pieces_open(&st_pc, path);
	st_m = ir_module_new();
	missed_init(&st_missed);
	missed_init(&st_kernels);
	memset(&st_ast, 0, sizeof st_ast);
	st_reading = 0;
	ks_recover = &jb;
	ks_quiet = 1;
	if (!setjmp(jb)) {
		Sema s = {.src = NULL, .m = st_m, .missed = &st_missed,
			  .kernels = &st_kernels, .keep = &st_keep};
		st_m->source = arena_strdup(&st_m->arena, st_pc.name);
		FILE *out = out_open_spool(outpath);
		ir_print_head(out, st_m);
		int have_wp = 0, kernel = 0, line0, r, i = 0;
		Src piece;
		while ((r = pieces_next(&st_pc, &piece, &line0)) > 0) {
			Parse p;
			ks_parse_at(&p, &piece, &st_ast, line0);
			s.src = &piece;
			s.a = &st_ast;
			s.loopvar = NULL;
			s.caploopvar = 0;
			for (int k = 0; k < p.module->nkid; k++, i++) {
				st_keep = st_m->arena;
				memset(&st_m->arena, 0, sizeof st_m->arena);
				st_m->fnarena = &st_keep;
				st_reading = 1;
				Node *n = top_level(&s, p.module->kid[k], i, &have_wp, &kernel);
				if (n) {
					int fi = st_m->nfn - 1;
					Def d = {.node = n, .kernel = kernel};
					collect_calls(&s, &d, kid(n, 3));
					for (int c = 0; c < d.ncall; c++)
						if (d.call[c].to >= fi)
							ks_error_at(&piece, d.call[c].at->line,
								    d.call[c].at->col, "recursion");
					lower_def(&s, &d, fi);
					ir_verify_func(st_m, &piece, 1, fi);
					ir_print_func(out, st_m, st_m->fn[fi]);
				}
				st_drop(n != NULL);
			}
			arena_free(&st_ast);
		}
		if (r == 0) {
			ks_recover = saved;
			ks_quiet = quiet;
			if (fflush(out) || ferror(out))
				ks_fatal("write error:");
			out_commit();
			ok = 1;
		}
	}
	/* done; or the file cannot stream, or an error came up */
	ks_recover = saved;
	ks_quiet = quiet;
	st_drop(0);
	arena_free(&st_ast);
	if (!ok) {
		out_abort();
		pieces_whole(&st_pc, whole);
	}
	pieces_close(&st_pc);
	ir_module_free(st_m);
	st_m = NULL;
	free(st_missed.h);
	memset(&st_missed, 0, sizeof st_missed);
	free(st_kernels.h);
	memset(&st_kernels, 0, sizeof st_kernels);
	return ok;
}
