/*
 * opt.c: the simplifier kdiff runs on every function it appends, so that a
 * backward kernel reads like an adjoint a person would write (Tapenade's
 * output is the model): no dead stores, no adjoint zeroed after its last
 * use, no empty blocks or loops that do nothing, no copies, declarations
 * where values are first assigned, source names without kdiff's numbers.
 *
 * The transform (diff.c) is simple and regular: every definition gets a
 * fresh variable zeroed at the top, every adjoint is accumulated with
 * `adj = adj + g` and zeroed after each use, loops are replayed whole, a
 * value gets a variable whether or not anything reads it.  These passes
 * clean that up, each keeping the semantics exactly (but for the sign of a
 * zero, and a zero adjoint times an infinite value, which is zero here):
 *
 *   1. forward: constants, known zeros (of vectors and matrices too) and
 *      copies are propagated through the structured control flow (an if
 *      meets its branches, a loop iterates to a fixed point at its head);
 *      instructions fold: `adj + g` with adj known zero is `g`, `0 * x`
 *      of a derivative is 0, `if true` is its then-branch, an atomic add
 *      of zero is nothing, code after break, continue or ret goes;
 *   2. backward: liveness drops every assignment that nothing reads (an
 *      adjoint zeroed after its last use, an init overwritten first;
 *      live.c);
 *   3. mark and sweep from what has effects (stores, atomics, calls that
 *      write, ret): what feeds none of them goes, variables that only feed
 *      themselves round a loop included, and so do loops and ifs that do
 *      nothing and the tape checkpoints that nothing reads back;
 *   those repeat until nothing changes.  Then
 *   4. an init that opens the function moves down to just before the
 *      statement that first uses it (never into a loop): the emitters then
 *      declare the variable there;
 *   5. a variable kdiff made up (a temporary of the forward sweep, its
 *      adjoint) that is assigned once, where every use can see it, becomes
 *      a temp, which the emitters fold into the expression that reads it;
 *   6. the versions of one source variable (`acc`, `adj_acc`) and kdiff's
 *      copies of them share one variable wherever their live ranges do not
 *      meet; it takes the name without kdiff's number, the others `_2`, ...
 *
 * Tape checkpoints (diff.c, doc/autodiff.md) are kept per loop and value
 * (`tape_put %h, SLOT, %x` and `tape_get %h, SLOT, ...`): pass 3 keeps a
 * slot only if a get of it feeds something, renumbers the slots left, and
 * drops a loop's tape operations when none is left, and the whole tape
 * when no loop keeps anything.
 */
#include <stdlib.h>
#include <math.h>
#include <string.h>

#include "diff.h"
#include "live.h"

enum { F_UNK, F_CONST, F_ZERO, F_COPY };

/* What the forward pass knows of a value: a constant (val: the constant),
 * the zero of a vector or matrix, or a copy of val as of its version ver. */
typedef struct Fact {
	int32_t kind, val, ver;
} Fact;

typedef struct Log {
	int32_t v, ver;
	Fact f;
} Log;

typedef struct Chg {
	int32_t v, ver;
	Fact f;
} Chg;

/* The loop being walked by the forward pass: the values its body
 * defines (marked in Opt.inloop) and the facts at its breaks and
 * continues. */
typedef struct FLoop {
	int32_t *v;
	int n;
	Fact *brk, *cont;
	int brk_seen, cont_seen;
} FLoop;

typedef struct Opt {
	Module *m;
	Func *f;
	const DiffInfo *di;
	int changed;
	int cap;           /* size of the per-value arrays below */
	/* forward pass */
	Fact *fact;
	int32_t *ver;
	int32_t clock;
	Log *log;
	int nlog, caplog;
	int32_t *stamp, gen;
	int32_t *pos1, *pos2;
	FLoop *lp;
	int reach;
	int32_t clock0;    /* clock when the block being left began */
	uint8_t *written;  /* per array value: may the function write it? */
} Opt;

/* ---- values ------------------------------------------------------------- */

static Value *V(const Opt *O, int v) { return &O->f->val[v]; }
static Type T(const Opt *O, int v) { return O->f->val[v].ty; }
static int is_const(const Opt *O, int v) { return V(O, v)->kind == VK_CONST; }
static int is_var(const Opt *O, int v) { return V(O, v)->kind == VK_VAR; }

static int flag(const Opt *O, int v) { return v < O->di->n ? O->di->flag[v] : 0; }

static const char *base_name(const Opt *O, int v)
{
	if (v < O->di->n && O->di->base[v])
		return O->di->base[v];
	return V(O, v)->name;
}

/* Grow the per-value arrays to the function's values. */
static void ensure(Opt *O)
{
	int n = O->f->nval;
	if (n <= O->cap)
		return;
	int cap = O->cap ? O->cap : 64;
	while (cap < n)
		cap *= 2;
	O->fact = xrealloc(O->fact, (size_t)cap * sizeof *O->fact);
	O->ver = xrealloc(O->ver, (size_t)cap * sizeof *O->ver);
	O->stamp = xrealloc(O->stamp, (size_t)cap * sizeof *O->stamp);
	O->pos1 = xrealloc(O->pos1, (size_t)cap * sizeof *O->pos1);
	O->pos2 = xrealloc(O->pos2, (size_t)cap * sizeof *O->pos2);
	for (int i = O->cap; i < cap; i++) {
		O->fact[i] = (Fact){F_UNK, 0, 0};
		O->ver[i] = 0;
		O->stamp[i] = 0;
		O->pos1[i] = O->pos2[i] = -1;
	}
	O->cap = cap;
}

static int kfloat(Opt *O, float x)
{
	int k = ir_const_float(O->m, O->f, x);
	ensure(O);
	return k;
}

static int kint(Opt *O, int32_t x)
{
	int k = ir_const_int(O->m, O->f, x);
	ensure(O);
	return k;
}

static int kbool(Opt *O, int x)
{
	int k = ir_const_bool(O->m, O->f, x);
	ensure(O);
	return k;
}

/* the zero constant of scalar type t */
static int kzero(Opt *O, Type t)
{
	int k = ir_const(O->m, O->f, t, 0, 0.0);
	ensure(O);
	return k;
}

static int const_is(const Opt *O, int v, float x)
{
	const Value *c = V(O, v);
	if (c->kind != VK_CONST)
		return 0;
	if (ty_is_float(c->ty))
		return c->k.f == x;
	return c->ty != TY_BOOL && c->k.i == (int64_t)x;
}

static int const_eq(const Opt *O, int a, int b)
{
	const Value *x = V(O, a), *y = V(O, b);
	if (x->ty != y->ty)
		return 0;
	if (ty_is_float(x->ty))
		return !memcmp(&x->k.f, &y->k.f, sizeof x->k.f);
	return x->k.i == y->k.i;
}

static void *arena(Opt *O, size_t n) { return arena_alloc(&O->m->arena, n ? n : 1); }

/* ---- facts ------------------------------------------------------------------ */

static Fact unk(void) { return (Fact){F_UNK, 0, 0}; }

static Fact fact_of(const Opt *O, int v)
{
	const Value *x = V(O, v);
	if (x->kind == VK_CONST)
		return (Fact){F_CONST, v, 0};
	if (ty_is_array(x->ty))
		return unk();
	Fact f = O->fact[v];
	if (f.kind == F_COPY && O->ver[f.val] != f.ver)
		return unk();
	return f;
}

static int fact_eq(const Opt *O, Fact a, Fact b)
{
	if (a.kind != b.kind)
		return 0;
	switch (a.kind) {
	case F_CONST: return const_eq(O, a.val, b.val);
	case F_COPY: return a.val == b.val && a.ver == b.ver;
	}
	return 1;
}

static Fact meet(const Opt *O, Fact a, Fact b) { return fact_eq(O, a, b) ? a : unk(); }

/* A fact as it holds outside the block that began at clock c: a copy of a
 * temp defined there cannot be seen outside. */
static Fact leave(const Opt *O, Fact a, int32_t c)
{
	if (a.kind == F_COPY && V(O, a.val)->kind == VK_TEMP && a.ver > c)
		return unk();
	return a;
}

static void set_exact(Opt *O, int v, Fact f, int32_t ver)
{
	if (O->nlog == O->caplog) {
		O->caplog = O->caplog ? 2 * O->caplog : 256;
		O->log = xrealloc(O->log, (size_t)O->caplog * sizeof *O->log);
	}
	O->log[O->nlog++] = (Log){v, O->ver[v], O->fact[v]};
	O->fact[v] = f;
	O->ver[v] = ver;
}

static void assign(Opt *O, int v, Fact f) { set_exact(O, v, f, ++O->clock); }

static void undo_to(Opt *O, int mark)
{
	while (O->nlog > mark) {
		Log *l = &O->log[--O->nlog];
		O->fact[l->v] = l->f;
		O->ver[l->v] = l->ver;
	}
}

/* The values assigned since mark, with their facts now. */
static Chg *changes(Opt *O, int mark, int *n)
{
	Chg *c = xmalloc((size_t)(O->nlog - mark + 1) * sizeof *c);
	*n = 0;
	O->gen++;
	for (int i = mark; i < O->nlog; i++) {
		int v = O->log[i].v;
		if (O->stamp[v] == O->gen)
			continue;
		O->stamp[v] = O->gen;
		c[(*n)++] = (Chg){v, O->ver[v], O->fact[v]};
	}
	return c;
}

/* Is v known to be zero (a scalar 0, or the zero vector or matrix)? */
static int zeroish(const Opt *O, int v)
{
	Fact f = fact_of(O, v);
	if (f.kind == F_ZERO)
		return 1;
	return f.kind == F_CONST && T(O, f.val) != TY_BOOL && const_is(O, f.val, 0.0f);
}

/* ---- the forward pass: propagation and folding ------------------------------ */

enum { S_KEEP, S_MOV, S_ZERO, S_NEG, S_NOT, S_DELETE };
typedef struct Simp {
	int kind, val;
} Simp;

static Simp keep(void) { return (Simp){S_KEEP, -1}; }
static Simp smov(int v) { return (Simp){S_MOV, v}; }

/* Is in a derivative's computation, where a zero wipes out a product? */
static int deriv(const Opt *O, const Inst *in)
{
	return in->nres == 1 && (flag(O, in->res[0]) & DV_DERIV);
}

/* A value folded only when it is finite: the IR has no literal for NaN
 * or an infinity, and the run must meet them where the source does. */
static Simp fold_finite(Opt *O, float x)
{
	return isfinite(x) ? smov(kfloat(O, x)) : keep();
}

static Simp fold_float(Opt *O, int op, float x, float y)
{
	switch (op) {
	case OP_ADD: return fold_finite(O, x + y);
	case OP_SUB: return fold_finite(O, x - y);
	case OP_MUL: return fold_finite(O, x * y);
	case OP_DIV: return fold_finite(O, x / y);
	case OP_LT: return smov(kbool(O, x < y));
	case OP_LE: return smov(kbool(O, x <= y));
	case OP_GT: return smov(kbool(O, x > y));
	case OP_GE: return smov(kbool(O, x >= y));
	case OP_EQ: return smov(kbool(O, x == y));
	case OP_NE: return smov(kbool(O, x != y));
	}
	return keep();
}

static Simp fold_int(Opt *O, int op, int32_t x, int32_t y)
{
	uint32_t ux = (uint32_t)x, uy = (uint32_t)y;
	switch (op) {
	case OP_ADD: return smov(kint(O, (int32_t)(ux + uy)));
	case OP_SUB: return smov(kint(O, (int32_t)(ux - uy)));
	case OP_MUL: return smov(kint(O, (int32_t)(ux * uy)));
	case OP_LT: return smov(kbool(O, x < y));
	case OP_LE: return smov(kbool(O, x <= y));
	case OP_GT: return smov(kbool(O, x > y));
	case OP_GE: return smov(kbool(O, x >= y));
	case OP_EQ: return smov(kbool(O, x == y));
	case OP_NE: return smov(kbool(O, x != y));
	}
	return keep();
}

static Simp simp_builtin(Opt *O, const Inst *in, const int32_t *a)
{
	const BuiltinInfo *b = &ir_builtins[in->callee];
	if (b->flags & BF_ATOMIC) {
		/* adding zero changes nothing (but for the sign of a zero);
		 * the value is the last operand, after one index per axis */
		if (!in->nres && (!strcmp(b->name, "atomic_add") || !strcmp(b->name, "atomic_sub")) &&
		    zeroish(O, a[in->narg - 1]))
			return (Simp){S_DELETE, -1};
		return keep();
	}
	if (!deriv(O, in))
		return keep();
	int z = 0;
	for (int k = 0; k < in->narg; k++)
		z |= zeroish(O, a[k]);
	if (z && (!strcmp(b->name, "dot") || !strcmp(b->name, "cross") || !strcmp(b->name, "outer") ||
		  !strcmp(b->name, "transpose")))
		return (Simp){S_ZERO, -1};
	return keep();
}

static Simp simp(Opt *O, const Inst *in, const int32_t *a)
{
	if (in->op == OP_BUILTIN)
		return simp_builtin(O, in, a);
	if (in->nres != 1)
		return keep();
	int r = in->res[0];
	Type rt = T(O, r);
	Fact f0 = in->narg > 0 ? fact_of(O, a[0]) : unk();
	Fact f1 = in->narg > 1 ? fact_of(O, a[1]) : unk();
	int c0 = f0.kind == F_CONST, c1 = f1.kind == F_CONST;
	const Value *k0 = c0 ? V(O, f0.val) : NULL, *k1 = c1 ? V(O, f1.val) : NULL;
	switch (in->op) {
	case OP_MOV:
		if (a[0] == r)
			return (Simp){S_DELETE, -1};
		if (f0.kind == F_ZERO)
			return (Simp){S_ZERO, -1}; /* a vector or matrix known zero */
		return smov(a[0]);
	case OP_NEG:
		if (c0 && diff_float_scalar(rt))
			return smov(kfloat(O, -k0->k.f));
		if (c0 && rt == TY_INT)
			return smov(kint(O, (int32_t)(0u - (uint32_t)k0->k.i)));
		if (f0.kind == F_ZERO)
			return (Simp){S_ZERO, -1};
		return keep();
	case OP_ADD:
		if (c0 && c1 && diff_float_scalar(rt))
			return fold_float(O, OP_ADD, k0->k.f, k1->k.f);
		if (c0 && c1 && rt == TY_INT)
			return fold_int(O, OP_ADD, k0->k.i, k1->k.i);
		if (zeroish(O, a[0]))
			return smov(a[1]);
		if (zeroish(O, a[1]))
			return smov(a[0]);
		return keep();
	case OP_SUB:
		if (c0 && c1 && diff_float_scalar(rt))
			return fold_float(O, OP_SUB, k0->k.f, k1->k.f);
		if (c0 && c1 && rt == TY_INT)
			return fold_int(O, OP_SUB, k0->k.i, k1->k.i);
		if (zeroish(O, a[1]))
			return smov(a[0]);
		if (zeroish(O, a[0]))
			return (Simp){S_NEG, a[1]};
		return keep();
	case OP_MUL: {
		Type t0 = T(O, a[0]), t1 = T(O, a[1]);
		if (c0 && c1 && diff_float_scalar(rt))
			return fold_float(O, OP_MUL, k0->k.f, k1->k.f);
		if (c0 && c1 && rt == TY_INT)
			return fold_int(O, OP_MUL, k0->k.i, k1->k.i);
		/* x * 1, 1 * x, x * -1 (a scalar factor of a scalar, vector or matrix) */
		if (!diff_composite(t0) && const_is(O, a[0], 1.0f) && t1 == rt)
			return smov(a[1]);
		if (!diff_composite(t1) && const_is(O, a[1], 1.0f) && t0 == rt)
			return smov(a[0]);
		if (!diff_composite(t0) && const_is(O, a[0], -1.0f) && t1 == rt)
			return (Simp){S_NEG, a[1]};
		if (!diff_composite(t1) && const_is(O, a[1], -1.0f) && t0 == rt)
			return (Simp){S_NEG, a[0]};
		if (rt == TY_INT && (zeroish(O, a[0]) || zeroish(O, a[1])))
			return smov(kint(O, 0));
		if (deriv(O, in) && (zeroish(O, a[0]) || zeroish(O, a[1])))
			return (Simp){S_ZERO, -1};
		return keep();
	}
	case OP_DIV:
		if (c0 && c1 && diff_float_scalar(rt))
			return fold_float(O, OP_DIV, k0->k.f, k1->k.f);
		if (diff_float_scalar(T(O, a[1])) && const_is(O, a[1], 1.0f))
			return smov(a[0]);
		if (deriv(O, in) && zeroish(O, a[0]))
			return (Simp){S_ZERO, -1};
		return keep();
	case OP_LT:
	case OP_LE:
	case OP_GT:
	case OP_GE:
	case OP_EQ:
	case OP_NE:
		if (c0 && c1 && k0->ty == TY_FLOAT && k1->ty == TY_FLOAT)
			return fold_float(O, in->op, k0->k.f, k1->k.f);
		if (c0 && c1 && k0->ty == TY_INT && k1->ty == TY_INT)
			return fold_int(O, in->op, k0->k.i, k1->k.i);
		return keep();
	case OP_NOT:
		if (c0)
			return smov(kbool(O, !k0->k.i));
		return keep();
	case OP_AND:
	case OP_OR: {
		int isand = in->op == OP_AND;
		if (c0 && c1)
			return smov(kbool(O, isand ? k0->k.i && k1->k.i : k0->k.i || k1->k.i));
		for (int k = 0; k < 2; k++) {
			Fact f = k ? f1 : f0;
			if (f.kind != F_CONST)
				continue;
			int x = V(O, f.val)->k.i;
			if (isand ? x : !x)
				return smov(a[1 - k]); /* true and y, false or y */
			return smov(kbool(O, x));  /* false and y, true or y */
		}
		return keep();
	}
	case OP_SELECT: {
		Fact f2 = fact_of(O, a[2]);
		if (c0)
			return smov(k0->k.i ? a[1] : a[2]);
		if (a[1] == a[2] || (f1.kind == F_CONST && f2.kind == F_CONST && const_eq(O, f1.val, f2.val)))
			return smov(a[1]);
		if (f1.kind == F_ZERO && f2.kind == F_ZERO)
			return (Simp){S_ZERO, -1};
		return keep();
	}
	case OP_CONV:
		if (T(O, a[0]) == rt)
			return smov(a[0]);
		if (c0 && k0->ty == TY_INT && rt == TY_FLOAT)
			return smov(kfloat(O, (float)k0->k.i));
		return keep();
	case OP_MAKE: {
		if (in->narg == 0)
			return keep();
		int allz = 1;
		for (int k = 0; k < in->narg; k++)
			allz &= zeroish(O, a[k]);
		if (allz)
			return (Simp){S_ZERO, -1};
		return keep();
	}
	case OP_EXTRACT:
		if (f0.kind == F_ZERO)
			return (Simp){S_ZERO, -1};
		return keep();
	case OP_INSERT:
		if (f0.kind == F_ZERO && zeroish(O, a[in->narg - 1]))
			return (Simp){S_ZERO, -1};
		return keep();
	}
	return keep();
}

/* Replace operand k of in by what it is known to hold. */
static int subst(const Opt *O, const Inst *in, int k)
{
	int v = in->arg[k];
	if (in->op == OP_INSERT && k == 0 && in->nres == 1 && in->res[0] == v)
		return v; /* keep `v[k] = x` in place */
	if (is_tape(in->op) && k == 0)
		return v; /* a loop handle */
	Fact f = fact_of(O, v);
	if (f.kind == F_CONST && !is_const(O, v))
		return f.val;
	if (f.kind == F_COPY)
		return f.val;
	return v;
}

static void fwd_block(Opt *O, Block *b, int rw);
static void fwd_seq(Opt *O, const Block *b, int rw, Block *out);

static Inst *append(Opt *O, Block *out, const Inst *in)
{
	arena_grow(&O->m->arena, (void **)&out->v, &out->cap, out->n + 1, sizeof *out->v);
	out->v[out->n] = *in;
	return &out->v[out->n++];
}

/* Record the facts at a break or continue of the innermost loop. */
static void capture(Opt *O, Fact *into, int *seen)
{
	FLoop *L = O->lp;
	for (int k = 0; k < L->n; k++) {
		Fact f = fact_of(O, L->v[k]);
		into[k] = *seen ? meet(O, into[k], f) : f;
	}
	*seen = 1;
}

/* The values the body of a loop defines (the loop variable included). */
static void defined_in(Opt *O, const Block *b, int32_t **v, int *n, int *cap)
{
	for (int i = 0; i < b->n; i++) {
		const Inst *in = &b->v[i];
		for (int k = 0; k < in->nres; k++) {
			int r = in->res[k];
			if (O->stamp[r] == O->gen)
				continue;
			O->stamp[r] = O->gen;
			if (*n == *cap) {
				*cap = *cap ? 2 * *cap : 16;
				*v = xrealloc(*v, (size_t)*cap * sizeof **v);
			}
			(*v)[(*n)++] = r;
		}
		defined_in(O, &in->body, v, n, cap);
		defined_in(O, &in->els, v, n, cap);
	}
}

static void fwd_loop(Opt *O, Inst *in, int rw)
{
	FLoop L = {0};
	int cap = 0;
	O->gen++;
	if (in->op == OP_FOR) {
		O->stamp[in->res[0]] = O->gen;
		L.v = xmalloc(16 * sizeof *L.v);
		cap = 16;
		L.v[L.n++] = in->res[0];
	}
	defined_in(O, &in->body, &L.v, &L.n, &cap);
	int n = L.n;
	/* H: the facts at the head, from the entry's down to the fixed point;
	 * a copy of a value the body defines does not hold there */
	Fact *H = xmalloc((size_t)(n + 1) * sizeof *H), *entry = xmalloc((size_t)(n + 1) * sizeof *entry);
	L.brk = xmalloc((size_t)(n + 1) * sizeof *L.brk);
	L.cont = xmalloc((size_t)(n + 1) * sizeof *L.cont);
	for (int k = 0; k < n; k++) {
		Fact f = fact_of(O, L.v[k]);
		if (f.kind == F_COPY && O->stamp[f.val] == O->gen)
			f = unk();
		entry[k] = H[k] = f;
	}
	if (in->op == OP_FOR)
		entry[0] = H[0] = unk();
	FLoop *outer = O->lp;
	O->lp = &L;
	int reach0 = O->reach;
	int32_t c0 = O->clock;
	for (int iter = 0;; iter++) {
		int mark = O->nlog;
		for (int k = 0; k < n; k++)
			assign(O, L.v[k], H[k]);
		L.brk_seen = L.cont_seen = 0;
		O->reach = 1;
		fwd_block(O, &in->body, 0);
		int same = 1;
		for (int k = 0; k < n; k++) {
			Fact b = unk();
			int any = 0;
			if (O->reach) {
				b = fact_of(O, L.v[k]);
				any = 1;
			}
			if (L.cont_seen) {
				b = any ? meet(O, b, L.cont[k]) : L.cont[k];
				any = 1;
			}
			Fact nh = any ? meet(O, entry[k], leave(O, b, c0)) : H[k];
			if (!fact_eq(O, nh, H[k]))
				same = 0;
			H[k] = nh;
		}
		undo_to(O, mark);
		if (same)
			break;
		if (iter == 3) {
			for (int k = 0; k < n; k++)
				H[k] = unk();
			break;
		}
	}
	/* the rewriting pass, from the fixed point */
	int mark = O->nlog;
	for (int k = 0; k < n; k++)
		assign(O, L.v[k], H[k]);
	L.brk_seen = L.cont_seen = 0;
	O->reach = 1;
	fwd_block(O, &in->body, rw);
	Fact *ex = xmalloc((size_t)(n + 1) * sizeof *ex);
	for (int k = 0; k < n; k++) {
		if (in->op == OP_FOR)
			ex[k] = L.brk_seen ? meet(O, H[k], leave(O, L.brk[k], c0)) : H[k];
		else
			ex[k] = L.brk_seen ? leave(O, L.brk[k], c0) : unk();
	}
	int seen = L.brk_seen;
	undo_to(O, mark);
	O->lp = outer;
	for (int k = 0; k < n; k++)
		assign(O, L.v[k], ex[k]);
	O->reach = in->op == OP_FOR ? reach0 : reach0 && seen;
	free(H);
	free(entry);
	free(ex);
	free(L.brk);
	free(L.cont);
	free(L.v);
}

/* A FOR whose constant bounds run no trip. */
static int no_trips(const Opt *O, const int32_t *a)
{
	for (int k = 0; k < 3; k++)
		if (!is_const(O, a[k]))
			return 0;
	int lo = V(O, a[0])->k.i, hi = V(O, a[1])->k.i, st = V(O, a[2])->k.i;
	return st == 0 || (st > 0 && lo >= hi) || (st < 0 && lo <= hi);
}

static void fwd_if(Opt *O, Inst *in, int rw, Block *out)
{
	int reach0 = O->reach;
	int32_t c0 = O->clock;
	int mark = O->nlog;
	fwd_block(O, &in->body, rw);
	int rt = O->reach, nt, ne;
	Chg *ct = changes(O, mark, &nt);
	undo_to(O, mark);
	O->reach = reach0;
	fwd_block(O, &in->els, rw);
	int re = O->reach;
	Chg *ce = changes(O, mark, &ne);
	undo_to(O, mark);
	for (int k = 0; k < nt; k++)
		O->pos1[ct[k].v] = k;
	for (int k = 0; k < ne; k++)
		O->pos2[ce[k].v] = k;
	for (int pass = 0; pass < 2; pass++) {
		Chg *c = pass ? ce : ct;
		int nc = pass ? ne : nt;
		for (int k = 0; k < nc; k++) {
			int v = c[k].v;
			if (pass && O->pos1[v] >= 0)
				continue; /* done with the then-branch's */
			Fact tf = O->fact[v], ef = O->fact[v];
			int32_t tv = O->ver[v], ev = O->ver[v];
			if (O->pos1[v] >= 0) {
				tf = ct[O->pos1[v]].f;
				tv = ct[O->pos1[v]].ver;
			}
			if (O->pos2[v] >= 0) {
				ef = ce[O->pos2[v]].f;
				ev = ce[O->pos2[v]].ver;
			}
			tf = leave(O, tf, c0);
			ef = leave(O, ef, c0);
			if (rt && !re)
				set_exact(O, v, tf, tv);
			else if (re && !rt)
				set_exact(O, v, ef, ev);
			else if (rt && re)
				assign(O, v, meet(O, tf, ef));
		}
	}
	for (int k = 0; k < nt; k++)
		O->pos1[ct[k].v] = -1;
	for (int k = 0; k < ne; k++)
		O->pos2[ce[k].v] = -1;
	free(ct);
	free(ce);
	O->reach = rt || re;
	if (!rw)
		return;
	if (!in->body.n && !in->els.n) {
		O->changed = 1;
		return;
	}
	append(O, out, in);
}

/* The fact a value instruction gives its result. */
static Fact result_fact(const Opt *O, const Inst *in)
{
	if (in->op == OP_MOV) {
		int s = in->arg[0];
		Fact f = fact_of(O, s);
		if (f.kind != F_UNK)
			return f;
		if (!ty_is_array(T(O, s)))
			return (Fact){F_COPY, s, O->ver[s]};
		return unk();
	}
	if (in->op == OP_MAKE && in->narg == 0)
		return (Fact){F_ZERO, 0, 0};
	return unk();
}

static void fwd_inst(Opt *O, const Inst *orig, int rw, Block *out)
{
	Inst in = *orig;
	int32_t a[256];
	int subs = 0;
	for (int k = 0; k < in.narg; k++) {
		a[k] = subst(O, &in, k);
		subs |= a[k] != in.arg[k];
	}
	if (rw && subs) {
		/* the operand array may be shared with the instruction read: copy */
		int32_t *na = arena(O, (size_t)in.narg * sizeof *na);
		memcpy(na, a, (size_t)in.narg * sizeof *na);
		in.arg = na;
		O->changed = 1;
	}
	switch (in.op) {
	case OP_IF: {
		Fact c = fact_of(O, a[0]);
		if (c.kind == F_CONST) {
			if (rw)
				O->changed = 1;
			fwd_seq(O, V(O, c.val)->k.i ? &in.body : &in.els, rw, out);
			return;
		}
		fwd_if(O, &in, rw, out);
		return;
	}
	case OP_FOR:
		if (no_trips(O, a)) {
			if (rw)
				O->changed = 1;
			return;
		}
		/* fall through */
	case OP_LOOP:
		fwd_loop(O, &in, rw);
		if (rw)
			append(O, out, &in);
		return;
	case OP_BREAK:
	case OP_CONTINUE:
		if (O->lp)
			capture(O, in.op == OP_BREAK ? O->lp->brk : O->lp->cont,
				in.op == OP_BREAK ? &O->lp->brk_seen : &O->lp->cont_seen);
		/* fall through */
	case OP_RET:
		if (rw)
			append(O, out, &in);
		O->reach = 0;
		return;
	}
	Simp s = simp(O, &in, a);
	Inst ni = in;
	if (s.kind != S_KEEP && !(s.kind == S_MOV && in.op == OP_MOV && s.val == a[0])) {
		int r = in.nres ? in.res[0] : -1;
		switch (s.kind) {
		case S_DELETE:
			if (rw)
				O->changed = 1;
			return;
		case S_ZERO:
			if (diff_composite(T(O, r))) {
				ni.op = OP_MAKE;
				ni.narg = 0;
			} else {
				ni.op = OP_MOV;
				ni.narg = 1;
				a[0] = kzero(O, T(O, r));
			}
			break;
		case S_MOV:
		case S_NEG:
			ni.op = s.kind == S_MOV ? OP_MOV : OP_NEG;
			ni.narg = 1;
			a[0] = s.val;
			break;
		}
		ni.callee = -1;
		ni.body = ni.els = (Block){0};
		if (rw) {
			int32_t *na = arena(O, 1 * sizeof *na);
			na[0] = a[0];
			ni.arg = na;
			O->changed = 1;
		} else {
			ni.arg = a; /* for result_fact, read only */
		}
	} else if (!rw) {
		ni.arg = a;
	}
	Fact rf = ni.nres == 1 ? result_fact(O, &ni) : unk();
	for (int k = 0; k < ni.nres; k++)
		assign(O, ni.res[k], k ? unk() : rf);
	if (rw)
		append(O, out, &ni);
}

static void fwd_seq(Opt *O, const Block *b, int rw, Block *out)
{
	for (int i = 0; i < b->n; i++) {
		if (!O->reach) {
			if (rw)
				O->changed = 1;
			return;
		}
		fwd_inst(O, &b->v[i], rw, out);
	}
}

static void fwd_block(Opt *O, Block *b, int rw)
{
	Block out = {0};
	fwd_seq(O, b, rw, &out);
	if (rw)
		*b = out;
}

static void fwd_pass(Opt *O)
{
	ensure(O);
	O->nlog = 0;
	O->reach = 1;
	O->lp = NULL;
	for (int v = 0; v < O->cap; v++)
		O->fact[v] = unk();
	fwd_block(O, &O->f->body, 1);
}

/* ---- liveness (live.c) -------------------------------------------------------- */

/* May in go when nothing reads its results? */
static int removable(const Opt *O, const Inst *in)
{
	return live_removable(in, O->di->callfx, O->di->ncallfx);
}

/* Drop what nothing reads. */
static void live_pass(Opt *O)
{
	if (live_prune(O->f, O->di->callfx, O->di->ncallfx))
		O->changed = 1;
}

/* ---- mark and sweep ------------------------------------------------------------ */

typedef struct Node {
	Inst *in;
	int parent;     /* enclosing if or loop, or -1 */
	int loop;       /* innermost enclosing loop, or -1 */
} Node;

typedef struct Sweep {
	Opt *O;
	Node *node;
	int nn, capn;
	int *defstart, *defs;   /* per value: its defining nodes */
	uint8_t *ess;
	uint8_t *need;          /* per value: are its definitions marked? */
	int *work, nwork;
	int *exits;             /* break/continue nodes, by loop (exitstart) */
	int *exitstart;
	/* the tape: per loop ID, its nodes; slots in use */
	int nid;
	int **idnodes, *nidnodes;
	uint8_t *idlive;
	uint8_t **slotlive;
	int *nslot;
	int *special, nspecial;  /* tape_open, tape_measured */
	int anylive;
} Sweep;

static int handle_id(const Sweep *S, int h);

static void gather(Sweep *S, Block *b, int parent, int loop)
{
	for (int i = 0; i < b->n; i++) {
		if (S->nn == S->capn) {
			S->capn = S->capn ? 2 * S->capn : 256;
			S->node = xrealloc(S->node, (size_t)S->capn * sizeof *S->node);
		}
		int x = S->nn++;
		Inst *in = &b->v[i];
		S->node[x] = (Node){in, parent, loop};
		int lp = in->op == OP_FOR || in->op == OP_LOOP ? x : loop;
		gather(S, &in->body, x, lp);
		gather(S, &in->els, x, lp);
	}
}

static void mark(Sweep *S, int x)
{
	if (x < 0 || S->ess[x])
		return;
	S->ess[x] = 1;
	S->work[S->nwork++] = x;
}

static void need(Sweep *S, int v)
{
	if (is_const(S->O, v) || S->need[v])
		return;
	S->need[v] = 1;
	for (int k = S->defstart[v]; k < S->defstart[v + 1]; k++)
		mark(S, S->defs[k]);
}

static int const_val(const Opt *O, int v) { return V(O, v)->k.i; }

static void id_live(Sweep *S, int id, int slot)
{
	if (id < 0 || id >= S->nid)
		return;
	if (!S->idlive[id]) {
		S->idlive[id] = 1;
		S->anylive = 1;
		for (int k = 0; k < S->nidnodes[id]; k++) {
			const Inst *in = S->node[S->idnodes[id][k]].in;
			if (in->op != OP_TAPE_PUT && in->op != OP_TAPE_GET)
				mark(S, S->idnodes[id][k]);
		}
		for (int k = 0; k < S->nspecial; k++)
			mark(S, S->special[k]);
	}
	if (slot >= 0 && slot < S->nslot[id] && !S->slotlive[id][slot]) {
		S->slotlive[id][slot] = 1;
		for (int k = 0; k < S->nidnodes[id]; k++) {
			const Inst *in = S->node[S->idnodes[id][k]].in;
			if (in->op == OP_TAPE_PUT && const_val(S->O, in->arg[1]) == slot)
				mark(S, S->idnodes[id][k]);
		}
	}
}

static int handle_id(const Sweep *S, int h)
{
	for (int k = S->defstart[h]; k < S->defstart[h + 1]; k++) {
		const Inst *d = S->node[S->defs[k]].in;
		if (d->op == OP_TAPE_LOOP)
			return const_val(S->O, d->arg[0]);
	}
	return -1;
}

static int inst_id(const Sweep *S, const Inst *in)
{
	switch (in->op) {
	case OP_TAPE_LOOP:
	case OP_TAPE_COUNT:
		return const_val(S->O, in->arg[0]);
	case OP_TAPE_KEEP:
	case OP_TAPE_PUT:
	case OP_TAPE_BACK:
	case OP_TAPE_GET:
		return handle_id(S, in->arg[0]);
	}
	return -1;
}

/* Rebuild b without the nodes not marked (first is b's first node). */
static int sweep_block(Sweep *S, Block *b, int x)
{
	int n = 0;
	for (int i = 0; i < b->n; i++) {
		Inst *in = &b->v[i];
		int me = x++;
		int sub = x;
		x = sweep_block(S, &in->body, sub);
		x = sweep_block(S, &in->els, x);
		int keep = S->ess[me];
		if (in->op == OP_TAPE_OPEN)
			keep = S->anylive;
		if (in->op == OP_TAPE_MEASURED && !S->anylive && keep) {
			/* no loop keeps anything: never a measuring run */
			in->op = OP_MOV;
			in->narg = 1;
			in->arg = arena(S->O, sizeof *in->arg);
			in->arg[0] = kbool(S->O, 0);
		}
		if (!keep) {
			S->O->changed = 1;
			continue;
		}
		b->v[n++] = *in;
	}
	b->n = n;
	return x;
}

static void renumber_slots(Sweep *S)
{
	for (int id = 0; id < S->nid; id++) {
		if (!S->idlive[id])
			continue;
		int *to = xmalloc((size_t)(S->nslot[id] + 1) * sizeof *to);
		int next = 0;
		for (int s = 0; s < S->nslot[id]; s++)
			to[s] = S->slotlive[id][s] ? next++ : -1;
		for (int k = 0; k < S->nidnodes[id]; k++) {
			Inst *in = S->node[S->idnodes[id][k]].in;
			if ((in->op != OP_TAPE_PUT && in->op != OP_TAPE_GET) || !S->ess[S->idnodes[id][k]])
				continue;
			int s = const_val(S->O, in->arg[1]);
			if (s >= 0 && s < S->nslot[id] && to[s] != s && to[s] >= 0) {
				in->arg[1] = kint(S->O, to[s]);
				S->O->changed = 1;
			}
		}
		free(to);
	}
}

static void sweep_pass(Opt *O)
{
	Sweep S = {0};
	S.O = O;
	gather(&S, &O->f->body, -1, -1);
	int nv = O->f->nval;
	S.defstart = xmalloc((size_t)(nv + 2) * sizeof *S.defstart);
	memset(S.defstart, 0, (size_t)(nv + 2) * sizeof *S.defstart);
	for (int x = 0; x < S.nn; x++)
		for (int k = 0; k < S.node[x].in->nres; k++)
			S.defstart[S.node[x].in->res[k] + 1]++;
	for (int v = 0; v < nv; v++)
		S.defstart[v + 1] += S.defstart[v];
	S.defs = xmalloc((size_t)(S.defstart[nv] + 1) * sizeof *S.defs);
	int *fill = xmalloc((size_t)(nv + 1) * sizeof *fill);
	memcpy(fill, S.defstart, (size_t)nv * sizeof *fill);
	for (int x = 0; x < S.nn; x++)
		for (int k = 0; k < S.node[x].in->nres; k++)
			S.defs[fill[S.node[x].in->res[k]]++] = x;
	free(fill);
	/* the breaks and continues of each loop */
	S.exitstart = xmalloc((size_t)(S.nn + 2) * sizeof *S.exitstart);
	memset(S.exitstart, 0, (size_t)(S.nn + 2) * sizeof *S.exitstart);
	for (int x = 0; x < S.nn; x++) {
		int op = S.node[x].in->op;
		if ((op == OP_BREAK || op == OP_CONTINUE) && S.node[x].loop >= 0)
			S.exitstart[S.node[x].loop + 1]++;
	}
	for (int x = 0; x < S.nn; x++)
		S.exitstart[x + 1] += S.exitstart[x];
	S.exits = xmalloc((size_t)(S.exitstart[S.nn] + 1) * sizeof *S.exits);
	fill = xmalloc((size_t)(S.nn + 1) * sizeof *fill);
	memcpy(fill, S.exitstart, (size_t)S.nn * sizeof *fill);
	for (int x = 0; x < S.nn; x++) {
		int op = S.node[x].in->op;
		if ((op == OP_BREAK || op == OP_CONTINUE) && S.node[x].loop >= 0)
			S.exits[fill[S.node[x].loop]++] = x;
	}
	free(fill);
	/* the tape's nodes by loop ID */
	for (int x = 0; x < S.nn; x++) {
		const Inst *in = S.node[x].in;
		if (in->op == OP_TAPE_OPEN || in->op == OP_TAPE_MEASURED) {
			S.special = xrealloc(S.special, (size_t)(S.nspecial + 1) * sizeof *S.special);
			S.special[S.nspecial++] = x;
			continue;
		}
		int id = is_tape(in->op) ? inst_id(&S, in) : -1;
		if (id < 0 || id > 1000000)
			continue;
		if (id >= S.nid) {
			int n = id + 1;
			S.idnodes = xrealloc(S.idnodes, (size_t)n * sizeof *S.idnodes);
			S.nidnodes = xrealloc(S.nidnodes, (size_t)n * sizeof *S.nidnodes);
			S.idlive = xrealloc(S.idlive, (size_t)n);
			S.slotlive = xrealloc(S.slotlive, (size_t)n * sizeof *S.slotlive);
			S.nslot = xrealloc(S.nslot, (size_t)n * sizeof *S.nslot);
			for (int k = S.nid; k < n; k++) {
				S.idnodes[k] = NULL;
				S.nidnodes[k] = 0;
				S.idlive[k] = 0;
				S.slotlive[k] = NULL;
				S.nslot[k] = 0;
			}
			S.nid = n;
		}
		S.idnodes[id] = xrealloc(S.idnodes[id], (size_t)(S.nidnodes[id] + 1) * sizeof **S.idnodes);
		S.idnodes[id][S.nidnodes[id]++] = x;
		if (in->op == OP_TAPE_PUT || in->op == OP_TAPE_GET) {
			int s = const_val(O, in->arg[1]);
			if (s >= 0 && s < 100000 && s >= S.nslot[id]) {
				S.slotlive[id] = xrealloc(S.slotlive[id], (size_t)(s + 1));
				memset(S.slotlive[id] + S.nslot[id], 0, (size_t)(s + 1 - S.nslot[id]));
				S.nslot[id] = s + 1;
			}
		}
	}
	/* mark from the roots */
	S.ess = xmalloc((size_t)S.nn + 1);
	memset(S.ess, 0, (size_t)S.nn + 1);
	S.need = xmalloc((size_t)nv + 1);
	memset(S.need, 0, (size_t)nv + 1);
	S.work = xmalloc((size_t)(S.nn + 1) * sizeof *S.work);
	for (int x = 0; x < S.nn; x++) {
		const Inst *in = S.node[x].in;
		int op = in->op;
		if (op == OP_IF || op == OP_FOR || op == OP_LOOP || op == OP_BREAK || op == OP_CONTINUE ||
		    is_tape(op))
			continue;
		if (!removable(O, in))
			mark(&S, x);
	}
	while (S.nwork) {
		int x = S.work[--S.nwork];
		const Inst *in = S.node[x].in;
		for (int k = 0; k < in->narg; k++)
			need(&S, in->arg[k]);
		mark(&S, S.node[x].parent);
		if (in->op == OP_FOR || in->op == OP_LOOP)
			for (int k = S.exitstart[x]; k < S.exitstart[x + 1]; k++)
				mark(&S, S.exits[k]);
		if (in->op == OP_TAPE_GET)
			id_live(&S, inst_id(&S, in), const_val(O, in->arg[1]));
		else if (is_tape(in->op))
			id_live(&S, inst_id(&S, in), -1);
	}
	renumber_slots(&S); /* first: the sweep moves the instructions */
	sweep_block(&S, &O->f->body, 0);
	for (int id = 0; id < S.nid; id++) {
		free(S.idnodes[id]);
		free(S.slotlive[id]);
	}
	free(S.idnodes);
	free(S.nidnodes);
	free(S.idlive);
	free(S.slotlive);
	free(S.nslot);
	free(S.special);
	free(S.node);
	free(S.defstart);
	free(S.defs);
	free(S.exits);
	free(S.exitstart);
	free(S.ess);
	free(S.need);
	free(S.work);
}

/* ---- small rewrites --------------------------------------------------------------- */

static int mentions(const Inst *in, int v);
static int assigns(const Inst *in, int v);

/* Is v assigned by b's statements before index i, after the last
 * statement that defines... (any of them: a variable may change) */
static int assigned_after(const Opt *O, const Block *b, int i, int v)
{
	if (V(O, v)->kind != VK_VAR)
		return 0;
	for (int k = 0; k < i; k++)
		if (assigns(&b->v[k], v))
			return 1;
	return 0;
}

/* if c {} else {E} is if not c {E} (if x {E} when c is not x) */
static void flip_ifs(Opt *O, Block *b)
{
	for (int i = 0; i < b->n; i++) {
		Inst *in = &b->v[i];
		flip_ifs(O, &in->body);
		flip_ifs(O, &in->els);
		if (in->op != OP_IF || in->body.n || !in->els.n)
			continue;
		Loc loc = in->loc;
		int c = in->arg[0], nc = -1;
		for (int k = i - 1; k >= 0 && nc < 0; k--) {
			const Inst *d = &b->v[k];
			if (d->op == OP_NOT && d->nres == 1 && d->res[0] == c && V(O, c)->kind == VK_TEMP)
				nc = d->arg[0];
			else if (d->nres && mentions(d, c))
				break;
		}
		in->body = in->els;
		in->els = (Block){0};
		in->arg = arena(O, sizeof *in->arg);
		O->changed = 1;
		if (nc >= 0 && !assigned_after(O, b, i, nc)) {
			in->arg[0] = nc;
			continue;
		}
		int t = ir_temp(O->m, O->f, TY_BOOL);
		ensure(O);
		in->arg[0] = t;
		/* insert `t = not c` before it */
		Block nb = {0};
		for (int k = 0; k < b->n; k++) {
			if (k == i)
				ir_emit(O->m, &nb, OP_NOT, &t, 1, &c, 1, loc);
			append(O, &nb, &b->v[k]);
		}
		*b = nb;
		i++;
	}
}

/* ---- fusing ifs --------------------------------------------------------------------- */

/* Mark in set (stamp gen) the values assigned anywhere in b. */
static void assigned_in(Opt *O, const Block *b)
{
	for (int i = 0; i < b->n; i++) {
		const Inst *in = &b->v[i];
		for (int k = 0; k < in->nres; k++)
			O->stamp[in->res[k]] = O->gen;
		assigned_in(O, &in->body);
		assigned_in(O, &in->els);
	}
}

static int mentions(const Inst *in, int v);

/* Is in a value instruction without effects or memory, that reads nothing
 * marked (assigned by the if it would move above)? */
static int hoistable(const Opt *O, const Inst *in)
{
	if (!removable(O, in) || in->op == OP_LOAD || in->op == OP_CALL || is_tape(in->op) || !in->nres)
		return 0;
	for (int k = 0; k < in->narg; k++)
		if (O->stamp[in->arg[k]] == O->gen)
			return 0;
	return 1;
}

static void cat(Opt *O, Block *dst, const Block *src)
{
	for (int i = 0; i < src->n; i++)
		append(O, dst, &src->v[i]);
}

/* notof[t] = c for each temp t = not c */
static void nots(const Opt *O, const Block *b, int *notof)
{
	for (int i = 0; i < b->n; i++) {
		const Inst *in = &b->v[i];
		if (in->op == OP_NOT && V(O, in->res[0])->kind == VK_TEMP)
			notof[in->res[0]] = in->arg[0];
		nots(O, &in->body, notof);
		nots(O, &in->els, notof);
	}
}

/* if c {A} else {B}; S; if c {C} else {D}  is  S; if c {A; C} else {B; D}
 * (and if (not c) {C} else {D}, the other way round) when c is the same
 * value at both (a temp, or a variable assigned by neither), and S are
 * value instructions that the first if neither reads the results of nor
 * feeds.  The forward sweep's guard and the reverse's replay of it become
 * one if, so what the first computes the second reads in the same block. */
static void fuse_block(Opt *O, Block *b, const int *notof)
{
	for (int i = 0; i < b->n; i++) {
		fuse_block(O, &b->v[i].body, notof);
		fuse_block(O, &b->v[i].els, notof);
	}
	for (int i = 0; i < b->n; i++) {
		if (b->v[i].op != OP_IF)
			continue;
		for (;;) {
			Inst *a = &b->v[i];
			int c = a->arg[0];
			O->gen++;
			assigned_in(O, &a->body);
			assigned_in(O, &a->els);
			if (O->stamp[c] == O->gen)
				break;
			int j = i + 1;
			while (j < b->n && b->v[j].op != OP_IF && hoistable(O, &b->v[j])) {
				int clash = 0;
				for (int k = 0; k < b->v[j].nres && !clash; k++)
					clash = mentions(a, b->v[j].res[k]) || b->v[j].res[k] == c;
				if (clash)
					break;
				j++;
			}
			if (j >= b->n || b->v[j].op != OP_IF)
				break;
			int c2 = b->v[j].arg[0];
			int flipped = c2 != c && c2 < O->cap && notof[c2] == c;
			if (c2 != c && !flipped)
				break;
			if (flipped && O->stamp[c2] == O->gen)
				break;
			/* S above the first if, then the second if's blocks after the first's */
			Inst first = *a, second = b->v[j];
			for (int k = i + 1; k < j; k++)
				b->v[k - 1] = b->v[k];
			Block body = {0}, els = {0};
			cat(O, &body, &first.body);
			cat(O, &body, flipped ? &second.els : &second.body);
			cat(O, &els, &first.els);
			cat(O, &els, flipped ? &second.body : &second.els);
			first.body = body;
			first.els = els;
			i = j - 1;
			b->v[i] = first;
			memmove(&b->v[j], &b->v[j + 1], (size_t)(b->n - j - 1) * sizeof *b->v);
			b->n--;
			O->changed = 1;
		}
	}
}

static void fuse_ifs(Opt *O, Block *b)
{
	ensure(O);
	int *notof = xmalloc((size_t)(O->cap + 1) * sizeof *notof);
	for (int v = 0; v <= O->cap; v++)
		notof[v] = -1;
	nots(O, b, notof);
	fuse_block(O, b, notof);
	free(notof);
}

/* ---- peepholes on temps ------------------------------------------------------------ */

static int names_arg(const Inst *in, int v);

typedef struct Defs {
	const Inst **def;   /* per value: a temp's definition */
	const Block **blk;  /* and the block holding it */
	int *uses;          /* per value: instructions reading it */
	int *ndef, *walk;   /* per value: its definitions; where in the walk the last is */
	int n, next;        /* values described; the walk's counter */
} Defs;

static void find_defs(const Opt *O, Defs *d, const Block *b)
{
	for (int i = 0; i < b->n; i++) {
		const Inst *in = &b->v[i];
		int w = d->next++;
		for (int k = 0; k < in->nres; k++) {
			d->ndef[in->res[k]]++;
			d->walk[in->res[k]] = w;
			if (V(O, in->res[k])->kind == VK_TEMP) {
				d->def[in->res[k]] = in;
				d->blk[in->res[k]] = b;
			}
		}
		for (int k = 0; k < in->narg; k++)
			d->uses[in->arg[k]]++;
		find_defs(O, d, &in->body);
		find_defs(O, d, &in->els);
	}
}

static Defs defs_new(const Opt *O)
{
	Defs d;
	int n = O->f->nval + 1;
	d.n = O->f->nval;
	d.def = xmalloc((size_t)n * sizeof *d.def);
	d.blk = xmalloc((size_t)n * sizeof *d.blk);
	d.uses = xmalloc((size_t)n * sizeof *d.uses);
	d.ndef = xmalloc((size_t)n * sizeof *d.ndef);
	d.walk = xmalloc((size_t)n * sizeof *d.walk);
	d.next = 0;
	memset(d.def, 0, (size_t)n * sizeof *d.def);
	memset(d.blk, 0, (size_t)n * sizeof *d.blk);
	memset(d.ndef, 0, (size_t)n * sizeof *d.ndef);
	memset(d.walk, 0, (size_t)n * sizeof *d.walk);
	memset(d.uses, 0, (size_t)n * sizeof *d.uses);
	find_defs(O, &d, &O->f->body);
	return d;
}

static void defs_free(Defs *d)
{
	free(d->def);
	free(d->blk);
	free(d->ndef);
	free(d->walk);
	free(d->uses);
}

/* `%t = op ...; ...; x = mov %t`, %t read there alone: `x = op ...` where
 * %t was, when nothing in between names x. */
static void copies_into_defs(Opt *O, Block *b, Defs *d)
{
	for (int i = 0; i < b->n; i++) {
		copies_into_defs(O, &b->v[i].body, d);
		copies_into_defs(O, &b->v[i].els, d);
	}
	for (int j = 0; j < b->n; j++) {
		Inst *m = &b->v[j];
		if (m->op != OP_MOV || !is_var(O, m->res[0]) || V(O, m->arg[0])->kind != VK_TEMP)
			continue;
		int t = m->arg[0], x = m->res[0];
		if (d->uses[t] != 1)
			continue;
		int i = j - 1;
		while (i >= 0 && !(b->v[i].nres == 1 && b->v[i].res[0] == t) && !mentions(&b->v[i], x))
			i--;
		if (i < 0 || b->v[i].nres != 1 || b->v[i].res[0] != t || b->v[i].op == OP_FOR)
			continue;
		int32_t *r = arena(O, sizeof *r);
		r[0] = x;
		b->v[i].res = r;
		memmove(&b->v[j], &b->v[j + 1], (size_t)(b->n - j - 1) * sizeof *b->v);
		b->n--;
		j--;
	}
}

/* x = ...; ...; x = add x, b  (nothing between naming x, nothing there
 * that the first could not move past) is %s = ...; ...; x = add %s, b:
 * one statement, the same sums in the same order; and so on along the
 * chain of a variable's accumulations. */
static void chains(Opt *O, Block *b)
{
	for (int i = 0; i < b->n; i++) {
		chains(O, &b->v[i].body);
		chains(O, &b->v[i].els);
	}
	for (int i = 0; i < b->n; i++) {
		Inst *a = &b->v[i];
		if (a->nres != 1 || !is_var(O, a->res[0]) || !removable(O, a) || a->op == OP_CALL ||
		    a->op == OP_LOAD || is_tape(a->op) || a->op == OP_MAKE)
			continue;
		int x = a->res[0], j = i + 1, ok = 1;
		while (j < b->n && !mentions(&b->v[j], x)) {
			const Inst *m = &b->v[j];
			if (m->op == OP_IF || m->op == OP_FOR || m->op == OP_LOOP || m->op == OP_BREAK ||
			    m->op == OP_CONTINUE || m->op == OP_RET)
				ok = 0;
			for (int k = 0; k < m->nres && ok; k++)
				ok = !names_arg(a, m->res[k]);
			j++;
		}
		if (!ok || j >= b->n)
			continue;
		Inst *c = &b->v[j];
		if (c->op != OP_ADD || c->res[0] != x || c->arg[0] != x || c->arg[1] == x)
			continue;
		int s = ir_temp(O->m, O->f, T(O, x));
		ensure(O);
		int32_t *r = arena(O, sizeof *r);
		r[0] = s;
		a->res = r;
		int32_t *na = arena(O, 2 * sizeof *na);
		na[0] = s;
		na[1] = c->arg[1];
		c->arg = na;
	}
}

/* Does a, read where temp t is read, hold what it held where t was
 * defined?  A constant or a temp does; a variable does when the walk
 * assigns it last before t (no loop carries a temp's value around). */
static int unchanged(const Opt *O, const Defs *d, int a, int t)
{
	return !is_var(O, a) || (a < d->n && d->walk[a] < d->walk[t]);
}

/* Is e cheap enough to compute again where each of its readers is: a
 * component, a vector or matrix built of values, a negation, a conversion,
 * an operation with a constant? */
static int cheap(const Opt *O, const Defs *d, int t)
{
	const Inst *e = d->def[t];
	for (int k = 0; k < e->narg; k++) {
		int a = e->arg[k];
		if (ty_is_array(T(O, a)))
			return 0;
		if (!unchanged(O, d, a, t))
			return 0;
	}
	switch (e->op) {
	case OP_EXTRACT:
	case OP_MAKE:
	case OP_NEG:
	case OP_NOT:
	case OP_CONV:
	case OP_SELECT:
		return 1;
	case OP_LT:
	case OP_LE:
	case OP_GT:
	case OP_GE:
		return 1;
	case OP_ADD:
	case OP_SUB:
	case OP_MUL:
	case OP_DIV:
		return is_const(O, e->arg[0]) || is_const(O, e->arg[1]);
	}
	return 0;
}

/* May operand k of in take a temp computed again there? */
static int copyable(const Inst *in, int k)
{
	if ((in->op == OP_EXTRACT || in->op == OP_INSERT) && k == 0)
		return 0; /* v.c[k] needs a name */
	return !(is_tape(in->op) && k == 0) && in->op != OP_FOR;
}

/* count, per temp, its readers that may take a copy; note a block where
 * one reads it */
static void count_copyable(const Block *b, const Defs *d, int *n, const Block **ub)
{
	for (int i = 0; i < b->n; i++) {
		const Inst *in = &b->v[i];
		for (int k = 0; k < in->narg; k++)
			if (in->arg[k] < d->n && copyable(in, k)) {
				n[in->arg[k]]++;
				ub[in->arg[k]] = b;
			}
		count_copyable(&in->body, d, n, ub);
		count_copyable(&in->els, d, n, ub);
	}
}

/* A temp of a cheap instruction read by several instructions, or in a
 * block nested below its own, is computed again where each reads it (so
 * each folds it into its expression), when every reader can take it. */
static int remat(Opt *O, Block *b, Defs *d, const uint8_t *all)
{
	Block nb = {0};
	int any = 0;
	for (int i = 0; i < b->n; i++) {
		Inst *in = &b->v[i];
		any |= remat(O, &in->body, d, all);
		any |= remat(O, &in->els, d, all);
		for (int k = 0; k < in->narg; k++) {
			int t = in->arg[k];
			if (t >= d->n || !all[t] || !copyable(in, k))
				continue;
			const Inst *e = d->def[t];
			int c = ir_temp(O->m, O->f, T(O, t));
			ensure(O);
			Inst copy = *e;
			int32_t *r = arena(O, sizeof *r);
			r[0] = c;
			copy.res = r;
			append(O, &nb, &copy);
			int32_t *na = arena(O, (size_t)in->narg * sizeof *na);
			memcpy(na, in->arg, (size_t)in->narg * sizeof *na);
			na[k] = c;
			in->arg = na;
			any = 1;
		}
		append(O, &nb, in);
	}
	if (any)
		*b = nb;
	return any;
}

/* The temps remat computes again everywhere */
static uint8_t *remat_set(const Opt *O, const Defs *d)
{
	int *n = xmalloc((size_t)(d->n + 1) * sizeof *n);
	const Block **ub = xmalloc((size_t)(d->n + 1) * sizeof *ub);
	memset(n, 0, (size_t)(d->n + 1) * sizeof *n);
	memset(ub, 0, (size_t)(d->n + 1) * sizeof *ub);
	count_copyable(&O->f->body, d, n, ub);
	uint8_t *all = xmalloc((size_t)d->n + 1);
	int any = 0;
	for (int t = 0; t < d->n; t++) {
		all[t] = d->def[t] && d->uses[t] && n[t] == d->uses[t] && cheap(O, d, t) &&
			 (d->uses[t] >= 2 || ub[t] != d->blk[t]);
		any |= all[t];
	}
	free(n);
	free(ub);
	if (!any) {
		free(all);
		return NULL;
	}
	return all;
}

/* Do values u and v (temps computed before w walk) hold the same: one
 * value, equal constants, or temps computed the same from such values by
 * pure instructions? */
static int equiv(const Opt *O, const Defs *d, int u, int v, int w, int depth)
{
	if (is_const(O, u) || is_const(O, v))
		return is_const(O, u) && is_const(O, v) && const_eq(O, u, v);
	if (u == v)
		/* a variable: last assigned before */
		return !is_var(O, u) || (u < d->n && d->walk[u] < w);
	if (depth > 6 || u >= d->n || v >= d->n)
		return 0;
	const Inst *x = d->def[u], *y = d->def[v];
	if (!x || !y || x->op != y->op || x->callee != y->callee || x->narg != y->narg || x->nres != 1 ||
	    y->nres != 1 || T(O, u) != T(O, v))
		return 0;
	switch (x->op) {
	case OP_BUILTIN:
		if (ir_builtins[x->callee].flags & BF_ATOMIC || x->callee == BI_TID)
			return 0;
		break;
	case OP_CALL:
		if (x->callee < O->di->ncallfx && O->di->callfx[x->callee])
			return 0;
		break;
	case OP_LOAD:
		if (!O->written || O->written[x->arg[0]])
			return 0;
		break;
	case OP_MOV:
	case OP_STORE:
	case OP_IF:
	case OP_FOR:
	case OP_LOOP:
		return 0;
	default:
		if (is_tape(x->op))
			return 0;
	}
	for (int k = 0; k < x->narg; k++)
		if (!equiv(O, d, x->arg[k], y->arg[k], w, depth + 1))
			return 0;
	return 1;
}

/* ... and worth computing once: no cheap instruction */
static int same_value(const Opt *O, const Defs *d, int a, int b)
{
	return d->def[a] && !cheap(O, d, a) && equiv(O, d, a, b, d->walk[a], 0);
}

/* A temp computing what an earlier temp of its block, already read by
 * several instructions, computed: its readers take that one. */
static void cse_block(Opt *O, Block *b, Defs *d, int *to)
{
	for (int i = 0; i < b->n; i++) {
		Inst *in = &b->v[i];
		cse_block(O, &in->body, d, to);
		cse_block(O, &in->els, d, to);
		for (int k = 0; k < in->narg; k++)
			if (in->arg[k] < d->n && to[in->arg[k]] >= 0) {
				int32_t *na = arena(O, (size_t)in->narg * sizeof *na);
				memcpy(na, in->arg, (size_t)in->narg * sizeof *na);
				for (int q = 0; q < in->narg; q++)
					if (na[q] < d->n && to[na[q]] >= 0)
						na[q] = to[na[q]];
				in->arg = na;
				break;
			}
		if (in->nres != 1 || V(O, in->res[0])->kind != VK_TEMP)
			continue;
		int t = in->res[0];
		for (int j = 0; j < i; j++) {
			const Inst *p = &b->v[j];
			if (p->nres != 1 || V(O, p->res[0])->kind != VK_TEMP || to[p->res[0]] >= 0)
				continue;
			int u = p->res[0];
			if (d->uses[u] < 2 || !same_value(O, d, u, t))
				continue;
			to[t] = u;
			d->uses[u] += d->uses[t];
			break;
		}
	}
}

/* A component of a value with that component just set: (insert v, k, x)[k]
 * is x, when x still holds it (a temp, a constant, a variable last set
 * before). */
static void component_of_insert(Opt *O, Block *b, Defs *d)
{
	for (int i = 0; i < b->n; i++) {
		Inst *in = &b->v[i];
		component_of_insert(O, &in->body, d);
		component_of_insert(O, &in->els, d);
		if (in->op != OP_EXTRACT || in->arg[0] >= d->n || in->nres != 1)
			continue;
		const Inst *e = d->def[in->arg[0]];
		if (!e || e->op != OP_INSERT || e->narg != in->narg + 1)
			continue;
		int same = 1;
		for (int k = 1; k < in->narg; k++)
			same &= is_const(O, in->arg[k]) && is_const(O, e->arg[k]) && const_eq(O, in->arg[k], e->arg[k]);
		int x = e->arg[e->narg - 1];
		if (!same || !unchanged(O, d, x, in->arg[0]))
			continue;
		in->op = OP_MOV;
		in->narg = 1;
		int32_t *na = arena(O, sizeof *na);
		na[0] = x;
		in->arg = na;
	}
}

static int assigns(const Inst *in, int v);

/* y = insert x, k, a; ...; z = insert y, k, b, y read there alone: the
 * first component is overwritten, z = insert x, k, b (when x is as it
 * was: nothing between assigns it). */
static void reinserts(Opt *O, Block *b, const Defs *d)
{
	for (int i = 0; i < b->n; i++) {
		reinserts(O, &b->v[i].body, d);
		reinserts(O, &b->v[i].els, d);
	}
	for (int i = 0; i < b->n; i++) {
		const Inst *a = &b->v[i];
		if (a->op != OP_INSERT || a->nres != 1)
			continue;
		int y = a->res[0], x = a->arg[0], j = i + 1;
		if (y >= d->n)
			continue;
		while (j < b->n && !mentions(&b->v[j], y) && !assigns(&b->v[j], x))
			j++;
		if (j >= b->n)
			continue;
		Inst *c = &b->v[j];
		if (c->op != OP_INSERT || c->arg[0] != y || c->narg != a->narg || c->arg[c->narg - 1] == y)
			continue;
		/* y's value read there alone: it is assigned again there, or
		 * nothing else reads it */
		if (c->res[0] != y && (d->uses[y] != 1 || d->ndef[y] != 1))
			continue;
		int same = 1;
		for (int k = 1; k + 1 < c->narg; k++)
			same &= is_const(O, c->arg[k]) && is_const(O, a->arg[k]) && const_eq(O, c->arg[k], a->arg[k]);
		if (!same)
			continue;
		int32_t *na = arena(O, (size_t)c->narg * sizeof *na);
		memcpy(na, c->arg, (size_t)c->narg * sizeof *na);
		na[0] = x;
		c->arg = na;
		memmove(&b->v[i], &b->v[i + 1], (size_t)(b->n - i - 1) * sizeof *b->v);
		b->n--;
		i--;
	}
}

/* neg (neg x) is x, not (not x) too; a + neg b is a - b (exactly: IEEE
 * subtraction is the addition of the negation); x as it was at the
 * inner neg */
static void negs(Opt *O, Block *b, Defs *d)
{
	for (int i = 0; i < b->n; i++) {
		Inst *in = &b->v[i];
		negs(O, &in->body, d);
		negs(O, &in->els, d);
		if (in->op == OP_ADD && in->narg == 2 && T(O, in->arg[0]) == T(O, in->arg[1])) {
			const Inst *e = d->def[in->arg[1]];
			if (e && e->op == OP_NEG && unchanged(O, d, e->arg[0], in->arg[1])) {
				int32_t *na = arena(O, 2 * sizeof *na);
				na[0] = in->arg[0];
				na[1] = e->arg[0];
				in->op = OP_SUB;
				in->arg = na;
			}
			continue;
		}
		if (in->op != OP_NEG && in->op != OP_NOT)
			continue;
		const Inst *e = d->def[in->arg[0]];
		if (e && e->op == in->op && unchanged(O, d, e->arg[0], in->arg[0])) {
			in->op = OP_MOV;
			int32_t *na = arena(O, sizeof *na);
			na[0] = e->arg[0];
			in->arg = na;
		}
	}
}

static int names_arg(const Inst *in, int v)
{
	for (int k = 0; k < in->narg; k++)
		if (in->arg[k] == v)
			return 1;
	for (int i = 0; i < in->body.n; i++)
		if (names_arg(&in->body.v[i], v))
			return 1;
	for (int i = 0; i < in->els.n; i++)
		if (names_arg(&in->els.v[i], v))
			return 1;
	return 0;
}

static int assigns(const Inst *in, int v)
{
	for (int k = 0; k < in->nres; k++)
		if (in->res[k] == v)
			return 1;
	for (int i = 0; i < in->body.n; i++)
		if (assigns(&in->body.v[i], v))
			return 1;
	for (int i = 0; i < in->els.n; i++)
		if (assigns(&in->els.v[i], v))
			return 1;
	return 0;
}

/* Do accesses p and q (load, store or atomic) name the same array at
 * the same indices (operands 1..n, n the array's rank)? */
static int same_place(const Opt *O, const Inst *p, const Inst *q)
{
	if (p->arg[0] != q->arg[0])
		return 0;
	int n = ty_ndim(T(O, p->arg[0]));
	if (p->narg < 1 + n || q->narg < 1 + n)
		return 0;
	for (int k = 1; k <= n; k++)
		if (p->arg[k] != q->arg[k])
			return 0;
	return 1;
}

/* x = load A, j; store A, j, 0; ... atomic_add A, j, x, with nothing in
 * between naming A or assigning x or j (j: one index per axis of A):
 * A[j] ends as it began, so the store and the atomic go (an adjoint
 * passed through unchanged). */
static void round_trips(Opt *O, Block *b, const Defs *d)
{
	for (int i = 0; i < b->n; i++) {
		round_trips(O, &b->v[i].body, d);
		round_trips(O, &b->v[i].els, d);
	}
	for (int i = 0; i + 1 < b->n; i++) {
		const Inst *ld = &b->v[i], *st = &b->v[i + 1];
		if (ld->op != OP_LOAD || st->op != OP_STORE || !same_place(O, ld, st))
			continue;
		int n = ty_ndim(T(O, ld->arg[0]));
		if (ld->narg != 1 + n || st->narg != 2 + n)
			continue;
		int z = st->arg[st->narg - 1], x = ld->res[0], a = ld->arg[0];
		const Inst *zd = V(O, z)->kind == VK_TEMP ? d->def[z] : NULL;
		if (!(is_const(O, z) && const_is(O, z, 0.0f)) && !(zd && zd->op == OP_MAKE && !zd->narg))
			continue;
		for (int k = i + 2; k < b->n; k++) {
			const Inst *in = &b->v[k];
			if (is_atomic_inst(in) && in->narg == 2 + n && same_place(O, ld, in) &&
			    in->arg[in->narg - 1] == x && !in->nres &&
			    !strcmp(ir_builtins[in->callee].name, "atomic_add")) {
				memmove(&b->v[k], &b->v[k + 1], (size_t)(b->n - k - 1) * sizeof *b->v);
				b->n--;
				memmove(&b->v[i + 1], &b->v[i + 2], (size_t)(b->n - i - 2) * sizeof *b->v);
				b->n--;
				break;
			}
			int moved = assigns(in, x);
			for (int q = 1; q <= n; q++)
				moved |= assigns(in, ld->arg[q]);
			if (names_arg(in, a) || moved)
				break;
		}
	}
}

static void peepholes(Opt *O)
{
	Defs d = defs_new(O);
	copies_into_defs(O, &O->f->body, &d);
	defs_free(&d);
	chains(O, &O->f->body);
	d = defs_new(O);
	negs(O, &O->f->body, &d);
	component_of_insert(O, &O->f->body, &d);
	defs_free(&d);
	d = defs_new(O);
	round_trips(O, &O->f->body, &d);
	defs_free(&d);
	d = defs_new(O);
	copies_into_defs(O, &O->f->body, &d);
	defs_free(&d);
	d = defs_new(O);
	reinserts(O, &O->f->body, &d);
	defs_free(&d);
	/* what those leave to fold: (0.0 + x) and the like */
	fwd_pass(O);
	live_pass(O);
	d = defs_new(O);
	int *to = xmalloc((size_t)(d.n + 1) * sizeof *to);
	for (int v = 0; v <= d.n; v++)
		to[v] = -1;
	cse_block(O, &O->f->body, &d, to);
	free(to);
	defs_free(&d);
	for (int pass = 0; pass < 4; pass++) {
		d = defs_new(O);
		uint8_t *all = remat_set(O, &d);
		int any = all && remat(O, &O->f->body, &d, all);
		free(all);
		defs_free(&d);
		if (!any)
			break;
	}
}

static void insert_at(Opt *O, Block *b, int at, const Inst *in);
static int is_init(const Opt *O, const Inst *in);

/* Replace the reads of v by w in in and what it holds. */
static void replace_use(Inst *in, int v, int w, Opt *O)
{
	int any = 0;
	for (int k = 0; k < in->narg; k++)
		any |= in->arg[k] == v;
	if (any) {
		int32_t *na = arena(O, (size_t)in->narg * sizeof *na);
		for (int k = 0; k < in->narg; k++)
			na[k] = in->arg[k] == v ? w : in->arg[k];
		in->arg = na;
	}
	for (int i = 0; i < in->body.n; i++)
		replace_use(&in->body.v[i], v, w, O);
	for (int i = 0; i < in->els.n; i++)
		replace_use(&in->els.v[i], v, w, O);
}

/* ---- recomputing in the replay of a branch ------------------------------------------ */

/* A value computed in a branch of the forward sweep and read in the
 * reverse's replay of that branch (a later if on the same condition) needs
 * a variable declared before both, zeroed.  When it is cheap and pure and
 * what it reads is still there, the replay computes it again instead. */

typedef struct RNode {
	Inst *in;
	Block *b;       /* the block holding it */
	int idx;        /* its index there */
	int parent;     /* enclosing if or loop node, or -1 */
	int end;        /* walk index after its subtree */
} RNode;

typedef struct Remat {
	Opt *O;
	RNode *node;
	int nn, capn;
	int *defstart, *defs;  /* per value: defining nodes */
	int *usestart, *uses;  /* per value: reading nodes */
} Remat;

static void rgather(Remat *R, Block *b, int parent)
{
	for (int i = 0; i < b->n; i++) {
		if (R->nn == R->capn) {
			R->capn = R->capn ? 2 * R->capn : 256;
			R->node = xrealloc(R->node, (size_t)R->capn * sizeof *R->node);
		}
		int x = R->nn++;
		R->node[x] = (RNode){&b->v[i], b, i, parent, 0};
		rgather(R, &b->v[i].body, x);
		rgather(R, &b->v[i].els, x);
		R->node[x].end = R->nn;
	}
}

static int *index_by(Remat *R, int nv, int **list, int res)
{
	int *start = xmalloc((size_t)(nv + 2) * sizeof *start);
	memset(start, 0, (size_t)(nv + 2) * sizeof *start);
	for (int x = 0; x < R->nn; x++) {
		const Inst *in = R->node[x].in;
		int n = res ? in->nres : in->narg;
		for (int k = 0; k < n; k++) {
			int v = res ? in->res[k] : in->arg[k];
			if (!k || (res ? in->res[k - 1] : in->arg[k - 1]) != v)
				start[v + 1]++;
		}
	}
	for (int v = 0; v < nv; v++)
		start[v + 1] += start[v];
	*list = xmalloc((size_t)(start[nv] + 1) * sizeof **list);
	int *fill = xmalloc((size_t)(nv + 1) * sizeof *fill);
	memcpy(fill, start, (size_t)nv * sizeof *fill);
	for (int x = 0; x < R->nn; x++) {
		const Inst *in = R->node[x].in;
		int n = res ? in->nres : in->narg;
		for (int k = 0; k < n; k++) {
			int v = res ? in->res[k] : in->arg[k];
			if (!k || (res ? in->res[k - 1] : in->arg[k - 1]) != v)
				(*list)[fill[v]++] = x;
		}
	}
	free(fill);
	return start;
}

/* Is node x inside node y's subtree? */
static int inside(const Remat *R, int x, int y) { return x > y && x < R->node[y].end; }

/* May in be computed again elsewhere: pure, one result, no memory but an
 * array the function never writes? */
static int recomputable(const Opt *O, const Inst *in)
{
	if (in->op == OP_LOAD && O->written && !O->written[in->arg[0]])
		return 1;
	if (in->nres != 1 || !removable(O, in) || in->op == OP_LOAD || in->op == OP_CALL || is_tape(in->op) ||
	    in->op == OP_IF || in->op == OP_FOR || in->op == OP_LOOP)
		return 0;
	return in->op != OP_BUILTIN || !(ir_builtins[in->callee].flags & BF_ATOMIC);
}

/* Is value a assigned by a node walked in (from, to)? */
static int assigned_between(const Remat *R, int a, int from, int to)
{
	for (int k = R->defstart[a]; k < R->defstart[a + 1]; k++)
		if (R->defs[k] > from && R->defs[k] < to)
			return 1;
	return 0;
}

/* The most definitions one value is computed again from. */
enum { REMAT_CHAIN = 32 };

/* Collect into chain (in order) the definitions to compute again at node
 * `at` for value v defined by node d inside statement p: d itself, and the
 * temps of p it reads.  0 when something it reads may differ there, or when
 * the chain would pass REMAT_CHAIN entries (the reads of d are collected
 * before d, so the bound is checked where d is added, not only on entry). */
static int collect(Remat *R, int d, int p, int at, int *chain, int *n, int depth)
{
	const Inst *in = R->node[d].in;
	if (depth > 8 || *n >= REMAT_CHAIN || !recomputable(R->O, in))
		return 0;
	for (int k = 0; k < in->narg; k++) {
		int a = in->arg[k];
		if (is_const(R->O, a))
			continue;
		if (V(R->O, a)->kind == VK_TEMP && R->defstart[a + 1] - R->defstart[a] == 1 &&
		    inside(R, R->defs[R->defstart[a]], p)) {
			if (!collect(R, R->defs[R->defstart[a]], p, at, chain, n, depth + 1))
				return 0;
			continue;
		}
		if (V(R->O, a)->kind == VK_VAR) {
			/* a variable p assigns: computed again too, if assigned once */
			int inp = 0, da = -1, nda = 0;
			for (int q = R->defstart[a]; q < R->defstart[a + 1]; q++) {
				int x = R->defs[q];
				if (R->node[x].parent < 0 && is_init(R->O, R->node[x].in))
					continue;
				inp |= inside(R, x, p);
				da = x;
				nda++;
			}
			if (inp) {
				/* assigned once, before d in its block: so on every
				 * path to d */
				if (nda != 1 || R->node[da].b != R->node[d].b || R->node[da].idx >= R->node[d].idx ||
				    !collect(R, da, p, at, chain, n, depth + 1))
					return 0;
				continue;
			}
		}
		if (V(R->O, a)->kind == VK_TEMP) {
			/* a temp from outside p: visible at `at` when its block holds p */
			int td = R->defstart[a + 1] - R->defstart[a] == 1 ? R->defs[R->defstart[a]] : -1;
			if (td < 0 || R->node[td].b != R->node[p].b)
				return 0;
			continue;
		}
		if (assigned_between(R, a, d, at))
			return 0;
	}
	for (int k = 0; k < *n; k++)
		if (chain[k] == d)
			return 1;
	if (*n >= REMAT_CHAIN)
		return 0;
	chain[(*n)++] = d;
	return 1;
}

static void remat_branches(Opt *O)
{
	Remat R = {0};
	R.O = O;
	rgather(&R, &O->f->body, -1);
	int nv = O->f->nval;
	R.defstart = index_by(&R, nv, &R.defs, 1);
	R.usestart = index_by(&R, nv, &R.uses, 0);
	/* what to do, found first, done after (inserting moves nodes) */
	typedef struct Job {
		int v, at, nchain;
		int chain[REMAT_CHAIN];
		Block *b;
		int idx;
	} Job;
	Job *job = NULL;
	int njob = 0;
	for (int v = 0; v < nv; v++) {
		if (!is_var(O, v))
			continue;
		/* one definition, but for the function's init of it */
		int d = -1, nd = 0;
		for (int k = R.defstart[v]; k < R.defstart[v + 1]; k++) {
			int x = R.defs[k];
			if (R.node[x].parent < 0 && is_init(O, R.node[x].in))
				continue;
			d = x;
			nd++;
		}
		if (nd != 1)
			continue;
		if (!recomputable(O, R.node[d].in))
			continue;
		/* the statement p holding d in the block where the first use
		 * outside d's own block is a later statement r */
		int r = -1, p = -1;
		for (int k = R.usestart[v]; k < R.usestart[v + 1]; k++) {
			int u = R.uses[k];
			if (R.node[u].b == R.node[d].b && R.node[u].idx > R.node[d].idx)
				continue; /* read where d is seen */
			int pu = d, ru = u;
			while (pu >= 0 && ru >= 0 && R.node[pu].b != R.node[ru].b) {
				if (R.node[pu].parent > R.node[ru].parent || R.node[ru].parent < 0)
					pu = R.node[pu].parent;
				else
					ru = R.node[ru].parent;
			}
			if (pu < 0 || ru < 0 || pu == ru || R.node[ru].idx <= R.node[pu].idx || R.node[ru].in->op != OP_IF) {
				r = -2;
				break;
			}
			if (r == -1) {
				r = ru;
				p = pu;
			} else if (r != ru || p != pu) {
				r = -2;
				break;
			}
		}
		/* d runs whenever p's branch does, and r is the replay of p: the
		 * same condition, read in the same branch (below) */
		if (r < 0 || R.node[p].in->op != OP_IF || R.node[d].parent != p ||
		    R.node[r].in->arg[0] != R.node[p].in->arg[0])
			continue;
		int dthen = R.node[d].b == &R.node[p].in->body;
		/* where in r: before the first statement of one branch that
		 * reads v, not inside a loop of r */
		int first = -1, inthen = 0, inels = 0;
		for (int k = R.usestart[v]; k < R.usestart[v + 1]; k++) {
			int u = R.uses[k];
			if (!inside(&R, u, r))
				continue;
			if (first < 0 || u < first)
				first = u;
			int x = u;
			while (R.node[x].parent != r)
				x = R.node[x].parent;
			if (R.node[x].b == &R.node[r].in->body)
				inthen = 1;
			else
				inels = 1;
		}
		if (first < 0 || inthen == inels || inthen != dthen || R.node[r].in->arg[0] == v)
			continue;
		int at = first;
		while (R.node[at].parent != r)
			at = R.node[at].parent;
		Job j = {v, at, 0, {0}, R.node[at].b, R.node[at].idx};
		if (!collect(&R, d, p, at, j.chain, &j.nchain, 0))
			continue;
		job = xrealloc(job, (size_t)(njob + 1) * sizeof *job);
		job[njob++] = j;
	}
	/* apply them deepest first: inserting into a block rebuilds its array,
	 * which holds the blocks nested in it */
	for (int q = 0; q < njob; q++) {
		int depth = 0;
		for (int x = job[q].at; x >= 0; x = R.node[x].parent)
			depth++;
		job[q].nchain |= depth << 8;
	}
	for (int q = 1; q < njob; q++) {
		Job t = job[q];
		int k = q - 1;
		while (k >= 0 && (job[k].nchain >> 8) < (t.nchain >> 8)) {
			job[k + 1] = job[k];
			k--;
		}
		job[k + 1] = t;
	}
	for (int q = 0; q < njob; q++)
		job[q].nchain &= 0xff;
	for (int q = 0; q < njob; q++) {
		Job *j = &job[q];
		int *map = xmalloc((size_t)(O->f->nval + 64) * sizeof *map);
		for (int v = 0; v < O->f->nval; v++)
			map[v] = v;
		Block ins = {0};
		for (int k = 0; k < j->nchain; k++) {
			Inst c = *R.node[j->chain[k]].in;
			int t = ir_temp(O->m, O->f, T(O, c.res[0]));
			ensure(O);
			map = xrealloc(map, (size_t)(O->f->nval + 1) * sizeof *map);
			map[t] = t;
			int32_t *res = arena(O, sizeof *res), *arg = arena(O, (size_t)(c.narg ? c.narg : 1) * sizeof *arg);
			res[0] = t;
			for (int a = 0; a < c.narg; a++)
				arg[a] = map[c.arg[a]];
			map[c.res[0]] = t;
			c.res = res;
			c.arg = arg;
			append(O, &ins, &c);
		}
		/* the reads of v in r's branch (the statements from idx on) */
		int nt = map[j->v];
		for (int i = j->idx; i < j->b->n; i++)
			replace_use(&j->b->v[i], j->v, nt, O);
		for (int k = 0; k < ins.n; k++)
			insert_at(O, j->b, j->idx + k, &ins.v[k]);
		/* later jobs in the same block, past this point, moved */
		for (int q2 = q + 1; q2 < njob; q2++)
			if (job[q2].b == j->b && job[q2].idx >= j->idx)
				job[q2].idx += ins.n;
		free(map);
		O->changed = 1;
	}
	free(job);
	free(R.node);
	free(R.defstart);
	free(R.defs);
	free(R.usestart);
	free(R.uses);
}

/* ---- moving inits down -------------------------------------------------------------- */

static int mentions(const Inst *in, int v)
{
	for (int k = 0; k < in->nres; k++)
		if (in->res[k] == v)
			return 1;
	for (int k = 0; k < in->narg; k++)
		if (in->arg[k] == v)
			return 1;
	for (int i = 0; i < in->body.n; i++)
		if (mentions(&in->body.v[i], v))
			return 1;
	for (int i = 0; i < in->els.n; i++)
		if (mentions(&in->els.v[i], v))
			return 1;
	return 0;
}

static int is_init(const Opt *O, const Inst *in)
{
	if (in->nres != 1 || !is_var(O, in->res[0]))
		return 0;
	if (in->op == OP_MAKE && in->narg == 0)
		return 1;
	return in->op == OP_MOV && is_const(O, in->arg[0]);
}

static void mark_mentioned(Opt *O, const Block *b)
{
	for (int i = 0; i < b->n; i++) {
		const Inst *in = &b->v[i];
		for (int k = 0; k < in->nres; k++)
			O->stamp[in->res[k]] = O->gen;
		for (int k = 0; k < in->narg; k++)
			O->stamp[in->arg[k]] = O->gen;
		mark_mentioned(O, &in->body);
		mark_mentioned(O, &in->els);
	}
}

static void insert_at(Opt *O, Block *b, int at, const Inst *in)
{
	Block nb = {0};
	for (int k = 0; k <= b->n; k++) {
		if (k == at)
			append(O, &nb, in);
		if (k < b->n)
			append(O, &nb, &b->v[k]);
	}
	*b = nb;
}

static int mentions_args(const Inst *in, int v)
{
	for (int k = 0; k < in->narg; k++)
		if (in->arg[k] == v)
			return 1;
	return 0;
}

static int block_mentions(const Block *b, int v)
{
	for (int i = 0; i < b->n; i++)
		if (mentions(&b->v[i], v))
			return 1;
	return 0;
}

/* May v be read in b before b assigns it, on some path from b's start?
 * *def: does every path through b assign it? */
int diff_exposed(const Block *b, int v, int *def)
{
	*def = 0;
	for (int i = 0; i < b->n; i++) {
		const Inst *in = &b->v[i];
		for (int k = 0; k < in->narg; k++)
			if (in->arg[k] == v)
				return 1;
		int dt, de;
		switch (in->op) {
		case OP_IF:
			if (diff_exposed(&in->body, v, &dt) || diff_exposed(&in->els, v, &de))
				return 1;
			if (dt && de) {
				*def = 1;
				return 0;
			}
			break;
		case OP_FOR:
		case OP_LOOP:
			if (diff_exposed(&in->body, v, &dt))
				return 1;
			break;
		case OP_BREAK:
		case OP_CONTINUE:
		case OP_RET:
			return 0;
		default:
			for (int k = 0; k < in->nres; k++)
				if (in->res[k] == v) {
					*def = 1;
					return 0;
				}
		}
	}
	return 0;
}

/* Put init into b, just before the first statement from index `from` on
 * that mentions its variable; into the branch of an if when that if is the
 * only such statement and only one branch mentions it; into a loop when
 * the loop is and its trips do not carry the value from one to the next. */
static void place(Opt *O, Block *b, int from, Inst init)
{
	int v = init.res[0], first = -1, count = 0;
	for (int i = from; i < b->n; i++)
		if (mentions(&b->v[i], v)) {
			if (first < 0)
				first = i;
			count++;
		}
	if (first < 0)
		return; /* nothing reads it */
	Inst *at = &b->v[first];
	if (count == 1 && at->op == OP_IF && at->arg[0] != v) {
		int t = block_mentions(&at->body, v), e = block_mentions(&at->els, v);
		if (t != e) {
			place(O, t ? &at->body : &at->els, 0, init);
			return;
		}
	}
	int d;
	if (count == 1 && (at->op == OP_FOR || at->op == OP_LOOP) && !mentions_args(at, v) &&
	    !diff_exposed(&at->body, v, &d)) {
		place(O, &at->body, 0, init);
		return;
	}
	init.loc = at->loc;
	insert_at(O, b, first, &init);
}

/* The inits at the top of the function (the first mention of their
 * variable) go down to where they are needed. */
static void sink_inits(Opt *O)
{
	Block *b = &O->f->body;
	Inst *init = xmalloc((size_t)(b->n + 1) * sizeof *init);
	int ni = 0, n = 0;
	O->gen++;
	for (int i = 0; i < b->n; i++) {
		Inst *in = &b->v[i];
		if (is_init(O, in) && O->stamp[in->res[0]] != O->gen) {
			init[ni++] = *in;
			O->stamp[in->res[0]] = O->gen;
			continue;
		}
		/* a variable this statement mentions is not first mentioned
		 * by an init further down */
		for (int k = 0; k < in->nres; k++)
			O->stamp[in->res[k]] = O->gen;
		for (int k = 0; k < in->narg; k++)
			O->stamp[in->arg[k]] = O->gen;
		mark_mentioned(O, &in->body);
		mark_mentioned(O, &in->els);
		b->v[n++] = *in;
	}
	b->n = n;
	for (int k = 0; k < ni; k++)
		place(O, b, 0, init[k]);
	free(init);
}

/* ---- variables that become temps ---------------------------------------------------- */

typedef struct TPath {
	const Block *b[256];
	int i[256];
	int n;
} TPath;

typedef struct Temps {
	int *ndef;
	const Block **db;
	int *di;
	uint8_t *bad;
} Temps;

static void count_defs(const Opt *O, Temps *t, const Block *b)
{
	for (int i = 0; i < b->n; i++) {
		const Inst *in = &b->v[i];
		for (int k = 0; k < in->nres; k++) {
			int r = in->res[k];
			if (!is_var(O, r))
				continue;
			if (t->ndef[r]++ == 0) {
				t->db[r] = b;
				t->di[r] = i;
			}
			if (in->op == OP_FOR)
				t->bad[r] = 1;
		}
		count_defs(O, t, &in->body);
		count_defs(O, t, &in->els);
	}
}

static void check_uses(const Opt *O, Temps *t, const Block *b, TPath *p)
{
	if (p->n >= 256)
		ks_fatal("kdiff: blocks nested too deep");
	for (int i = 0; i < b->n; i++) {
		const Inst *in = &b->v[i];
		p->b[p->n] = b;
		p->i[p->n] = i;
		p->n++;
		for (int k = 0; k < in->narg; k++) {
			int v = in->arg[k];
			if (!is_var(O, v) || t->ndef[v] != 1 || t->bad[v])
				continue;
			int ok = 0;
			for (int d = 0; d < p->n && !ok; d++)
				ok = p->b[d] == t->db[v] && p->i[d] > t->di[v];
			if (!ok)
				t->bad[v] = 1;
		}
		check_uses(O, t, &in->body, p);
		check_uses(O, t, &in->els, p);
		p->n--;
	}
}

static void to_temps(Opt *O)
{
	int nv = O->f->nval;
	Temps t;
	t.ndef = xmalloc((size_t)(nv + 1) * sizeof *t.ndef);
	t.db = xmalloc((size_t)(nv + 1) * sizeof *t.db);
	t.di = xmalloc((size_t)(nv + 1) * sizeof *t.di);
	t.bad = xmalloc((size_t)nv + 1);
	memset(t.ndef, 0, (size_t)(nv + 1) * sizeof *t.ndef);
	memset(t.bad, 0, (size_t)nv + 1);
	count_defs(O, &t, &O->f->body);
	TPath *p = xmalloc(sizeof *p);
	p->n = 0;
	check_uses(O, &t, &O->f->body, p);
	free(p);
	for (int v = 0; v < nv; v++) {
		Value *x = V(O, v);
		if (x->kind != VK_VAR || t.ndef[v] != 1 || t.bad[v] || (flag(O, v) & DV_SOURCE))
			continue;
		x->kind = VK_TEMP;
		x->name = NULL;
		x->num = v;
	}
	free(t.ndef);
	free(t.db);
	free(t.di);
	free(t.bad);
}

/* ---- sharing variables, and their names ---------------------------------------------- */

typedef struct Share {
	int *grp;        /* per value: its group (union-find), or -1 */
	int *order;      /* per value: walk order of its first definition */
	int *loopbeg, *loopend; /* for-loop variables: the walk interval of their loop */
	uint8_t *forvar;
	int *loopid;     /* loop handles of the tape: the loop ID of their tape_loop, else -1 */
	const char **src;       /* per group root: the source name it holds, or NULL */
	int *members, *mstart;  /* group members, in order */
	/* interference between members of a group: a hash set of pairs */
	uint64_t *edge;
	int capedge, nedge;
	int walk;
	/* where a variable's occurrences are: the path from the body to the
	 * innermost block holding them all (Scope), and the walk's path */
	struct Scope *sc;
	const Block *pb[256];
	int pi[256], plen;
} Share;

/* The innermost block holding a variable's occurrences: b[len-1], between
 * its statements lo and hi; b[k], i[k] for k < len-1 the path to it. */
typedef struct Scope {
	const Block **b;
	int *i;
	int len, lo, hi;
} Scope;

/* Widen scope x to hold the occurrences of scope y too. */
static void scope_join(Scope *x, const Scope *y)
{
	if (!y->len)
		return;
	if (!x->len) {
		x->b = xrealloc(x->b, (size_t)y->len * sizeof *x->b);
		x->i = xrealloc(x->i, (size_t)y->len * sizeof *x->i);
		memcpy(x->b, y->b, (size_t)y->len * sizeof *x->b);
		memcpy(x->i, y->i, (size_t)y->len * sizeof *x->i);
		x->len = y->len;
		x->lo = y->lo;
		x->hi = y->hi;
		return;
	}
	int c = 0;
	while (c < x->len && c < y->len && x->b[c] == y->b[c]) {
		int xl = c == x->len - 1, yl = c == y->len - 1;
		if (xl || yl || x->i[c] != y->i[c])
			break;
		c++;
	}
	if (c < x->len && c < y->len && x->b[c] == y->b[c]) {
		/* the same block: from the first of their statements to the last */
		int xlo = c == x->len - 1 ? x->lo : x->i[c], xhi = c == x->len - 1 ? x->hi : x->i[c];
		int ylo = c == y->len - 1 ? y->lo : y->i[c], yhi = c == y->len - 1 ? y->hi : y->i[c];
		x->len = c + 1;
		x->lo = xlo < ylo ? xlo : ylo;
		x->hi = xhi > yhi ? xhi : yhi;
		return;
	}
	/* different blocks under the statement at c - 1 */
	x->len = c;
	x->lo = x->hi = x->i[c - 1];
}

static void occurs(Opt *O, Share *s, int v)
{
	if (!is_var(O, v))
		return;
	Scope y = {s->pb, s->pi, s->plen, s->pi[s->plen - 1], s->pi[s->plen - 1]};
	scope_join(&s->sc[v], &y);
}

static int find(int *p, int x)
{
	while (p[x] != x) {
		p[x] = p[p[x]];
		x = p[x];
	}
	return x;
}

static uint64_t pair(int a, int b)
{
	if (a > b) {
		int t = a;
		a = b;
		b = t;
	}
	return ((uint64_t)(uint32_t)a << 32 | (uint32_t)b) + 1;
}

static size_t phash(uint64_t k, int cap) { return (size_t)((k * 0x9e3779b97f4a7c15ull) >> 17) & (size_t)(cap - 1); }

static void edge_add(Share *s, int a, int b)
{
	if (2 * (s->nedge + 1) > s->capedge) {
		int cap = s->capedge ? 2 * s->capedge : 256;
		uint64_t *e = xmalloc((size_t)cap * sizeof *e);
		memset(e, 0, (size_t)cap * sizeof *e);
		for (int i = 0; i < s->capedge; i++)
			if (s->edge[i]) {
				size_t h = phash(s->edge[i], cap);
				while (e[h])
					h = (h + 1) & (size_t)(cap - 1);
				e[h] = s->edge[i];
			}
		free(s->edge);
		s->edge = e;
		s->capedge = cap;
	}
	uint64_t k = pair(a, b);
	size_t h = phash(k, s->capedge);
	while (s->edge[h] && s->edge[h] != k)
		h = (h + 1) & (size_t)(s->capedge - 1);
	if (!s->edge[h]) {
		s->edge[h] = k;
		s->nedge++;
	}
}

static int edge_has(const Share *s, int a, int b)
{
	if (!s->capedge)
		return 0;
	uint64_t k = pair(a, b);
	size_t h = phash(k, s->capedge);
	while (s->edge[h]) {
		if (s->edge[h] == k)
			return 1;
		h = (h + 1) & (size_t)(s->capedge - 1);
	}
	return 0;
}

/* the interference of a definition with what is live after it */
static void interfere(void *ctx, const Inst *in, const LiveWord *live)
{
	Share *s = ctx;
	for (int k = 0; k < in->nres; k++) {
		int r = in->res[k];
		if (s->grp[r] < 0)
			continue;
		int g = s->grp[r];
		for (int j = s->mstart[g]; j < s->mstart[g + 1]; j++) {
			int u = s->members[j];
			if (u == r || !live_has(live, u))
				continue;
			if (in->op == OP_MOV && in->arg[0] == u)
				continue;
			edge_add(s, r, u);
		}
	}
}

static void walk_order(Opt *O, Share *s, const Block *b)
{
	if (s->plen >= 256)
		ks_fatal("kdiff: blocks nested too deep");
	for (int i = 0; i < b->n; i++) {
		const Inst *in = &b->v[i];
		int me = s->walk++;
		for (int k = 0; k < in->nres; k++)
			if (s->order[in->res[k]] < 0)
				s->order[in->res[k]] = me;
		if (in->op == OP_TAPE_LOOP)
			s->loopid[in->res[0]] = V(O, in->arg[0])->k.i;
		s->pb[s->plen] = b;
		s->pi[s->plen++] = i;
		for (int k = 0; k < in->nres; k++)
			occurs(O, s, in->res[k]);
		for (int k = 0; k < in->narg; k++)
			occurs(O, s, in->arg[k]);
		walk_order(O, s, &in->body);
		walk_order(O, s, &in->els);
		s->plen--;
		if (in->op == OP_FOR) {
			s->forvar[in->res[0]] = 1;
			if (s->loopbeg[in->res[0]] < 0)
				s->loopbeg[in->res[0]] = me;
			s->loopend[in->res[0]] = s->walk;
		}
	}
}

/* Can the emitters declare a variable of scope x, whose members have
 * representative cls (rep[]), where it is first assigned: is the first
 * statement of its block a plain assignment of it (or the for loop of its
 * variable, holding all its uses)? */
static int declarable(const Opt *O, const Scope *x, const int *rep, int cls)
{
	if (!x->len)
		return 1;
	const Inst *in = &x->b[x->len - 1]->v[x->lo];
	if (in->op == OP_FOR)
		return x->lo == x->hi && rep[in->res[0]] == cls;
	if (in->op == OP_IF || in->op == OP_LOOP)
		return 0;
	for (int k = 0; k < in->nres; k++)
		if (is_var(O, in->res[k]) && rep[in->res[k]] == cls)
			return 1;
	return 0;
}

static void copies(Opt *O, Share *s, int *uf, const Block *b)
{
	for (int i = 0; i < b->n; i++) {
		const Inst *in = &b->v[i];
		if (in->op == OP_MOV && is_var(O, in->res[0]) && is_var(O, in->arg[0])) {
			int a = in->res[0], c = in->arg[0];
			int internal = !(flag(O, a) & DV_SOURCE) || !(flag(O, c) & DV_SOURCE);
			int ra = find(uf, a), rc = find(uf, c);
			/* never two source names in one group: adj_err is
			 * not to be named adj_energy where it is copied */
			int clash = s->src[ra] && s->src[rc] && strcmp(s->src[ra], s->src[rc]);
			if (T(O, a) == T(O, c) && internal && !clash && !s->forvar[a] && !s->forvar[c]) {
				uf[ra] = rc;
				if (!s->src[rc])
					s->src[rc] = s->src[ra];
			}
		}
		copies(O, s, uf, &in->body);
		copies(O, s, uf, &in->els);
	}
}

static int same_base(const Opt *O, int a, int b)
{
	const char *x = base_name(O, a), *y = base_name(O, b);
	return x && y && !strcmp(x, y);
}

static void rename_block(Opt *O, Block *b, const int *to)
{
	int n = 0;
	for (int i = 0; i < b->n; i++) {
		Inst *in = &b->v[i];
		for (int k = 0; k < in->nres; k++)
			in->res[k] = to[in->res[k]];
		for (int k = 0; k < in->narg; k++)
			in->arg[k] = to[in->arg[k]];
		rename_block(O, &in->body, to);
		rename_block(O, &in->els, to);
		if (in->op == OP_MOV && in->res[0] == in->arg[0])
			continue;
		b->v[n++] = *in;
	}
	b->n = n;
}

/* A set of names, hashed: take(s) adds s and says whether it was free. */
typedef struct Names {
	const char **slot;
	int cap;
} Names;

static int take(Names *ns, const char *s, int add)
{
	size_t h = (size_t)ks_hash64(s, strlen(s), 0) & (size_t)(ns->cap - 1);
	while (ns->slot[h]) {
		if (!strcmp(ns->slot[h], s))
			return 0;
		h = (h + 1) & (size_t)(ns->cap - 1);
	}
	if (add)
		ns->slot[h] = s;
	return 1;
}

/* Join the variables of one base name and type (both for-loop variables
 * or neither): with src, those whose name is a source name (in names);
 * else those of a group that holds no source name, by the base name of
 * each. */
static void by_name(Opt *O, Share *s, int *uf, Names *names, int src)
{
	int nv = O->f->nval, hcap = 64;
	while (hcap < 2 * nv + 2)
		hcap *= 2;
	int *slot = xmalloc((size_t)hcap * sizeof *slot);
	for (int i = 0; i < hcap; i++)
		slot[i] = -1;
	for (int v = 0; v < nv; v++) {
		const char *bn = base_name(O, v);
		if (!is_var(O, v) || s->order[v] < 0 || !bn)
			continue;
		if (src ? take(names, bn, 0) : s->src[find(uf, v)] != NULL)
			continue;
		size_t h = (size_t)ks_hash64(bn, strlen(bn), (uint64_t)T(O, v) * 2 + s->forvar[v]) & (size_t)(hcap - 1);
		for (;; h = (h + 1) & (size_t)(hcap - 1)) {
			int u = slot[h];
			if (u < 0) {
				slot[h] = v;
				break;
			}
			if (T(O, u) == T(O, v) && s->forvar[u] == s->forvar[v] && same_base(O, u, v)) {
				uf[find(uf, v)] = find(uf, u);
				break;
			}
		}
	}
	free(slot);
}

static void share(Opt *O)
{
	Func *f = O->f;
	int nv = f->nval;
	Share s = {0};
	s.grp = xmalloc((size_t)(nv + 1) * sizeof *s.grp);
	s.order = xmalloc((size_t)(nv + 1) * sizeof *s.order);
	s.loopbeg = xmalloc((size_t)(nv + 1) * sizeof *s.loopbeg);
	s.loopend = xmalloc((size_t)(nv + 1) * sizeof *s.loopend);
	s.forvar = xmalloc((size_t)nv + 1);
	memset(s.forvar, 0, (size_t)nv + 1);
	s.loopid = xmalloc((size_t)(nv + 1) * sizeof *s.loopid);
	s.sc = xmalloc((size_t)(nv + 1) * sizeof *s.sc);
	memset(s.sc, 0, (size_t)(nv + 1) * sizeof *s.sc);
	for (int v = 0; v < nv; v++)
		s.order[v] = s.loopbeg[v] = s.loopend[v] = s.loopid[v] = -1;
	live_pass(O); /* what the peepholes left unread goes first */
	walk_order(O, &s, &f->body);
	/* groups: the versions of a source variable (the same base name and
	 * type, and both for-loop variables or neither), joined by copies
	 * that involve a name kdiff made up, but never two source names in
	 * one group; then the variables of one name kdiff made up (adj_carry,
	 * trips) that no copy joined to a source name */
	int *uf = xmalloc((size_t)(nv + 1) * sizeof *uf);
	for (int v = 0; v < nv; v++)
		uf[v] = v;
	Names srcnames = {NULL, 64};
	while (srcnames.cap < 2 * nv + 2)
		srcnames.cap *= 2;
	srcnames.slot = xmalloc((size_t)srcnames.cap * sizeof *srcnames.slot);
	memset(srcnames.slot, 0, (size_t)srcnames.cap * sizeof *srcnames.slot);
	for (int v = 0; v < nv; v++)
		if (is_var(O, v) && (flag(O, v) & DV_SOURCE) && base_name(O, v))
			take(&srcnames, base_name(O, v), 1);
	s.src = xmalloc((size_t)(nv + 1) * sizeof *s.src);
	for (int v = 0; v < nv; v++)
		s.src[v] = NULL;
	by_name(O, &s, uf, &srcnames, 1);
	for (int v = 0; v < nv; v++)
		if (is_var(O, v) && s.order[v] >= 0 && base_name(O, v) && !take(&srcnames, base_name(O, v), 0))
			s.src[find(uf, v)] = base_name(O, v);
	copies(O, &s, uf, &f->body);
	by_name(O, &s, uf, &srcnames, 0);
	free(srcnames.slot);
	free(s.src);
	int ng = 0;
	int *gid = xmalloc((size_t)(nv + 1) * sizeof *gid);
	for (int v = 0; v < nv; v++)
		gid[v] = -1;
	for (int v = 0; v < nv; v++) {
		s.grp[v] = -1;
		if (!is_var(O, v) || s.order[v] < 0)
			continue;
		int r = find(uf, v);
		if (gid[r] < 0)
			gid[r] = ng++;
		s.grp[v] = gid[r];
	}
	free(gid);
	free(uf);
	s.mstart = xmalloc((size_t)(ng + 2) * sizeof *s.mstart);
	memset(s.mstart, 0, (size_t)(ng + 2) * sizeof *s.mstart);
	for (int v = 0; v < nv; v++)
		if (s.grp[v] >= 0)
			s.mstart[s.grp[v] + 1]++;
	for (int g = 0; g < ng; g++)
		s.mstart[g + 1] += s.mstart[g];
	s.members = xmalloc((size_t)(s.mstart[ng] + 1) * sizeof *s.members);
	int *fill = xmalloc((size_t)(ng + 1) * sizeof *fill);
	memcpy(fill, s.mstart, (size_t)ng * sizeof *fill);
	/* members in order of first definition */
	int *byorder = xmalloc((size_t)(nv + 1) * sizeof *byorder);
	int nb = 0;
	for (int v = 0; v < nv; v++)
		if (s.grp[v] >= 0)
			byorder[nb++] = v;
	for (int i = 1; i < nb; i++) {
		int x = byorder[i], j = i - 1;
		while (j >= 0 && s.order[byorder[j]] > s.order[x]) {
			byorder[j + 1] = byorder[j];
			j--;
		}
		byorder[j + 1] = x;
	}
	for (int i = 0; i < nb; i++)
		s.members[fill[s.grp[byorder[i]]]++] = byorder[i];
	free(fill);
	/* interference, from liveness (which must not move a statement now) */
	live_scan(f, O->di->callfx, O->di->ncallfx, interfere, &s);
	/* classes: greedily, each member into the first class it can share */
	int *to = xmalloc((size_t)(nv + 1) * sizeof *to);
	for (int v = 0; v < nv; v++)
		to[v] = v;
	int *cls = xmalloc((size_t)(nb + 1) * sizeof *cls); /* class reps of the group at hand */
	Scope *csc = xmalloc((size_t)(nb + 1) * sizeof *csc);  /* and their scopes */
	int *rep = xmalloc((size_t)(nv + 1) * sizeof *rep);
	for (int v = 0; v < nv; v++)
		rep[v] = v;
	Scope tmp = {0};
	for (int g = 0; g < ng; g++) {
		int nc = 0;
		for (int j = s.mstart[g]; j < s.mstart[g + 1]; j++) {
			int v = s.members[j], c;
			for (c = 0; c < nc; c++) {
				int ok = 1;
				for (int q = s.mstart[g]; q < j && ok; q++) {
					int u = s.members[q];
					if (rep[u] != cls[c])
						continue;
					if (edge_has(&s, u, v))
						ok = 0;
					/* a loop handle of the tape belongs to one loop */
					if (s.loopid[u] != s.loopid[v])
						ok = 0;
					/* loop variables of nested loops cannot share */
					if (s.forvar[v] && s.loopbeg[u] <= s.loopbeg[v] && s.loopend[v] <= s.loopend[u])
						ok = 0;
					if (s.forvar[v] && s.loopbeg[v] <= s.loopbeg[u] && s.loopend[u] <= s.loopend[v])
						ok = 0;
				}
				if (!ok)
					continue;
				/* not when the variable shared would have to be
				 * declared apart from where it is first assigned,
				 * and the two need not */
				tmp.len = 0;
				scope_join(&tmp, &csc[c]);
				scope_join(&tmp, &s.sc[v]);
				rep[v] = cls[c];
				int joint = declarable(O, &tmp, rep, cls[c]);
				rep[v] = v;
				int alone = declarable(O, &csc[c], rep, cls[c]) || declarable(O, &s.sc[v], rep, v);
				if (joint || !alone)
					break;
			}
			if (c == nc) {
				cls[nc] = v;
				csc[nc] = (Scope){0};
				scope_join(&csc[nc], &s.sc[v]);
				nc++;
			} else {
				scope_join(&csc[c], &s.sc[v]);
			}
			rep[v] = cls[c];
			to[v] = cls[c];
		}
		for (int c = 0; c < nc; c++) {
			free(csc[c].b);
			free(csc[c].i);
		}
	}
	free(tmp.b);
	free(tmp.i);
	free(csc);
	/* names: the class's best base (a source name over one kdiff made
	 * up), plain for the first class of that name, then _2, _3 */
	Names names = {NULL, 64};
	while (names.cap < 2 * (nb + f->nparam) + 2)
		names.cap *= 2;
	names.slot = xmalloc((size_t)names.cap * sizeof *names.slot);
	memset(names.slot, 0, (size_t)names.cap * sizeof *names.slot);
	for (int i = 0; i < f->nparam; i++)
		take(&names, f->val[f->param[i]].name, 1);
	for (int i = 0; i < nb; i++) {
		int v = byorder[i];
		if (to[v] != v)
			continue;
		/* the best name among the class */
		const char *best = NULL;
		for (int j = 0; j < nb; j++) {
			int u = byorder[j];
			if (to[u] != v)
				continue;
			const char *bn = base_name(O, u);
			if (!bn)
				continue;
			if (!best || ((flag(O, u) & DV_SOURCE) && !(flag(O, v) & DV_SOURCE) && best == base_name(O, v)))
				best = bn;
			if (flag(O, u) & DV_SOURCE) {
				best = bn;
				break;
			}
		}
		if (!best)
			best = "v";
		char buf[200];
		snprintf(buf, sizeof buf, "%.150s", best);
		for (int k = 2; !take(&names, buf, 0); k++)
			snprintf(buf, sizeof buf, "%.150s_%d", best, k);
		char *nm = arena(O, strlen(buf) + 1);
		memcpy(nm, buf, strlen(buf) + 1);
		take(&names, nm, 1);
		V(O, v)->name = nm;
	}
	rename_block(O, &f->body, to);
	/* the variables left unused are no longer named */
	for (int v = 0; v < nv; v++)
		if (is_var(O, v) && (to[v] != v || s.order[v] < 0)) {
			V(O, v)->kind = VK_TEMP;
			V(O, v)->name = NULL;
			V(O, v)->num = v;
		}
	free(names.slot);
	free(to);
	free(cls);
	free(rep);
	free(byorder);
	free(s.grp);
	free(s.order);
	free(s.loopbeg);
	free(s.loopend);
	free(s.forvar);
	free(s.loopid);
	for (int v = 0; v < nv; v++) {
		free(s.sc[v].b);
		free(s.sc[v].i);
	}
	free(s.sc);
	free(s.members);
	free(s.mstart);
	free(s.edge);
}

/* ---- the driver ------------------------------------------------------------------ */

/* Mark the arrays b may write: stored to, updated by an atomic, passed
 * to a call that writes. */
static void find_written(Opt *O, const Block *b)
{
	for (int i = 0; i < b->n; i++) {
		const Inst *in = &b->v[i];
		if (in->op == OP_STORE || is_atomic_inst(in))
			O->written[in->arg[0]] = 1;
		if (in->op == OP_CALL && in->callee < O->di->ncallfx && O->di->callfx[in->callee])
			for (int k = 0; k < in->narg; k++)
				O->written[in->arg[k]] = 1;
		find_written(O, &in->body);
		find_written(O, &in->els);
	}
}

void diff_opt(Module *m, Func *f, const DiffInfo *di)
{
	Opt O;
	memset(&O, 0, sizeof O);
	O.m = m;
	O.f = f;
	O.di = di;
	O.written = xmalloc((size_t)f->nval + 1);
	memset(O.written, 0, (size_t)f->nval + 1);
	find_written(&O, &f->body);
	for (int round = 0; round < 16; round++) {
		O.changed = 0;
		fwd_pass(&O);
		live_pass(&O);
		sweep_pass(&O);
		fuse_ifs(&O, &f->body);
		if (!O.changed)
			break;
	}
	remat_branches(&O);
	for (int round = 0; round < 4 && O.changed; round++) {
		O.changed = 0;
		fwd_pass(&O);
		live_pass(&O);
		sweep_pass(&O);
	}
	flip_ifs(&O, &f->body);
	sink_inits(&O);
	to_temps(&O);
	peepholes(&O);
	share(&O);
	fwd_pass(&O); /* what sharing makes known: a variable zeroed on every path */
	live_pass(&O); /* and ifs that held only copies share removed */
	flip_ifs(&O, &f->body);
	free(O.fact);
	free(O.ver);
	free(O.stamp);
	free(O.pos1);
	free(O.pos2);
	free(O.log);
	free(O.written);
}
