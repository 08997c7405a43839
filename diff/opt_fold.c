/*
 * opt_fold.c: the forward pass: constants, known zeros (of vectors and
 * matrices too) and copies are propagated through the structured control
 * flow, and instructions fold.
 *
 * The transform (diff.c) zeroes every adjoint at the top and accumulates
 * it with `adj = adj + g`, copies every value into a variable, and keeps
 * conditions in flags; most of that is known before the kernel runs.  The
 * pass walks the body in order, knowing of each value a fact (a constant,
 * the zero of a vector or matrix, a copy of another value as of its
 * version): an if meets the facts of its branches, a loop iterates to a
 * fixed point at its head (the facts of the entry met with those at the
 * body's end and at its continues; none after four trips), each trip
 * rewriting the body afresh and the last one's rewrite standing; after
 * it hold the facts of its breaks (met, for a for loop, with those at the
 * head).  The pass rewrites as it walks: each block is made anew.
 * Each operand is replaced by what it is known to hold, and an instruction
 * folds: arithmetic on constants (a float only when the result is finite:
 * the IR has no literal for NaN or an infinity), `adj + g` with adj known
 * zero is `g`, `x * 1` is `x`, a derivative's product (DV_DERIV: `*`,
 * dot, cross, outer) with a zero factor is 0 and so are its quotient of
 * zero and its transpose of zero, `if true` is its then-branch, a for loop
 * with no trips goes, an atomic add of zero is nothing, code after break,
 * continue or ret goes.  Each rewrite keeps the semantics exactly, but
 * for the sign of a zero, and a zero adjoint times an infinite value,
 * which counts as zero here.
 */
#include <stdlib.h>
#include <math.h>
#include <string.h>

#include "opt.h"

enum { F_UNK, F_CONST, F_ZERO, F_COPY };

/* What the forward pass knows of a value: a constant (val: the constant),
 * the zero of a vector or matrix, or a copy of val as of its version ver. */
typedef struct Fact {
	int32_t kind, val, ver;
} Fact;

/* An assignment the walk made: v's version and fact before it. */
typedef struct Log {
	int32_t v, ver;
	Fact f;
} Log;

/* A value a branch assigned: its version and fact at the branch's end. */
typedef struct Chg {
	int32_t v, ver;
	Fact f;
} Chg;

/* The loop being walked: the values its body defines (the loop variable
 * included) and the facts at its breaks and continues. */
typedef struct FLoop {
	int32_t *v;
	int n;
	Fact *brk, *cont;
	int brk_seen, cont_seen;
} FLoop;

/* The pass's state, kept from one run to the next (versions only grow,
 * so a fact of an earlier run never matches a later version). */
struct Fold {
	int cap;      /* size of the per-value arrays */
	Fact *fact;   /* per value: what is known of it */
	int32_t *ver; /* per value: its version (the clock when last assigned) */
	int32_t clock;
	Log *log; /* the assignments made, to undo them */
	int nlog, caplog;
	int32_t *pos1, *pos2; /* per value: its index in an if's changes, or -1 */
	FLoop *lp;            /* the innermost loop being walked */
	int reach;            /* is the point of the walk reachable? */
};

/* ---- facts ------------------------------------------------------------------ */

static Fact unk(void) { return (Fact){F_UNK, 0, 0}; }

static Fact fact_of(const Opt *O, int v)
{
	const Value *x = V(O, v);
	if (x->kind == VK_CONST)
		return (Fact){F_CONST, v, 0};
	if (ty_is_array(x->ty))
		return unk();
	Fact f = O->fold->fact[v];
	if (f.kind == F_COPY && O->fold->ver[f.val] != f.ver)
		return unk();
	return f;
}

static int fact_eq(const Opt *O, Fact a, Fact b)
{
	if (a.kind != b.kind)
		return 0;
	switch (a.kind) {
	case F_CONST:
		return const_eq(O, a.val, b.val);
	case F_COPY:
		return a.val == b.val && a.ver == b.ver;
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
	if (O->fold->nlog == O->fold->caplog) {
		O->fold->caplog = O->fold->caplog ? 2 * O->fold->caplog : 256;
		O->fold->log = xrealloc(O->fold->log, (size_t)O->fold->caplog * sizeof *O->fold->log);
	}
	O->fold->log[O->fold->nlog++] = (Log){v, O->fold->ver[v], O->fold->fact[v]};
	O->fold->fact[v] = f;
	O->fold->ver[v] = ver;
}

static void assign(Opt *O, int v, Fact f) { set_exact(O, v, f, ++O->fold->clock); }

static void undo_to(Opt *O, int mark)
{
	while (O->fold->nlog > mark) {
		Log *l = &O->fold->log[--O->fold->nlog];
		O->fold->fact[l->v] = l->f;
		O->fold->ver[l->v] = l->ver;
	}
}

/* The values assigned since mark, with their facts now. */
static Chg *changes(Opt *O, int mark, int *n)
{
	Chg *c = xmalloc((size_t)(O->fold->nlog - mark + 1) * sizeof *c);
	*n = 0;
	O->gen++;
	for (int i = mark; i < O->fold->nlog; i++) {
		int v = O->fold->log[i].v;
		if (O->stamp[v] == O->gen)
			continue;
		O->stamp[v] = O->gen;
		c[(*n)++] = (Chg){v, O->fold->ver[v], O->fold->fact[v]};
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
static int deriv(const Opt *O, const Inst *in) { return in->nres == 1 && (flag(O, in->res[0]) & DV_DERIV); }

/* A value folded only when it is finite: the IR has no literal for NaN
 * or an infinity, and the run must meet them where the source does. */
static Simp fold_finite(Opt *O, float x) { return isfinite(x) ? smov(kfloat(O, x)) : keep(); }

static Simp fold_float(Opt *O, int op, float x, float y)
{
	/* clang-format off */
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
	/* clang-format on */
	return keep();
}

static Simp fold_int(Opt *O, int op, int32_t x, int32_t y)
{
	uint32_t ux = (uint32_t)x, uy = (uint32_t)y;
	/* clang-format off */
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
	/* clang-format on */
	return keep();
}

static Simp simp_builtin(Opt *O, const Inst *in, const int32_t *a)
{
	const BuiltinInfo *b = &ir_builtins[in->callee];
	if (ir_builtin_atomic(in->callee)) {
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
			return smov(kbool(O, x));      /* false and y, true or y */
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
	if (in->op == OP_TILE_ADD_AT && k == 0)
		return v; /* it adds into its tile variable in place */
	if (ir_op_tape(in->op) && k == 0)
		return v; /* a loop handle */
	Fact f = fact_of(O, v);
	if (f.kind == F_CONST && !is_const(O, v))
		return f.val;
	if (f.kind == F_COPY)
		return f.val;
	return v;
}

static void fwd_block(Opt *O, Block *b);
static void fwd_seq(Opt *O, const Block *b, Block *out);

/* Record the facts at a break or continue of the innermost loop. */
static void capture(Opt *O, Fact *into, int *seen)
{
	FLoop *L = O->fold->lp;
	for (int k = 0; k < L->n; k++) {
		Fact f = fact_of(O, L->v[k]);
		into[k] = *seen ? meet(O, into[k], f) : f;
	}
	*seen = 1;
}

typedef struct Defined {
	Opt *O;
	FLoop *L;
	int cap;
} Defined;

/* The values the body of a loop defines (the loop variable included):
 * each once, in L->v, marked (stamp gen). */
static int defined_in(void *ctx, const Inst *in)
{
	Defined *d = ctx;
	Opt *O = d->O;
	FLoop *L = d->L;
	for (int k = 0; k < in->nres; k++) {
		int r = in->res[k];
		if (O->stamp[r] == O->gen)
			continue;
		O->stamp[r] = O->gen;
		if (L->n == d->cap) {
			d->cap = d->cap ? 2 * d->cap : 16;
			L->v = xrealloc(L->v, (size_t)d->cap * sizeof *L->v);
		}
		L->v[L->n++] = r;
	}
	return 0;
}

static void fwd_loop(Opt *O, Inst *in)
{
	FLoop L = {0};
	Defined dv = {O, &L, 0};
	O->gen++;
	if (in->op == OP_FOR) {
		O->stamp[in->res[0]] = O->gen;
		L.v = xmalloc(16 * sizeof *L.v);
		dv.cap = 16;
		L.v[L.n++] = in->res[0];
	}
	ir_walk_const(&in->body, defined_in, &dv);
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
	FLoop *outer = O->fold->lp;
	O->fold->lp = &L;
	int reach0 = O->fold->reach;
	int32_t c0 = O->fold->clock;
	/* Each trip rewrites the body as it came from the facts at the head;
	 * the trip whose facts at the end give those it began from is the
	 * fixed point, and its rewrite stands.  After four trips without one,
	 * a last trip from nothing known stands. */
	const Block body = in->body;
	int changed = O->changed, mark = O->fold->nlog;
	for (int iter = 0;; iter++) {
		in->body = body;
		O->changed = changed;
		for (int k = 0; k < n; k++)
			assign(O, L.v[k], H[k]);
		L.brk_seen = L.cont_seen = 0;
		O->fold->reach = 1;
		fwd_block(O, &in->body);
		if (iter == 4)
			break;
		int same = 1;
		for (int k = 0; k < n; k++) {
			Fact b = unk();
			int any = 0;
			if (O->fold->reach) {
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
		if (same)
			break;
		undo_to(O, mark);
		if (iter == 3)
			for (int k = 0; k < n; k++)
				H[k] = unk();
	}
	Fact *ex = xmalloc((size_t)(n + 1) * sizeof *ex);
	for (int k = 0; k < n; k++) {
		if (in->op == OP_FOR)
			ex[k] = L.brk_seen ? meet(O, H[k], leave(O, L.brk[k], c0)) : H[k];
		else
			ex[k] = L.brk_seen ? leave(O, L.brk[k], c0) : unk();
	}
	int seen = L.brk_seen;
	undo_to(O, mark);
	O->fold->lp = outer;
	for (int k = 0; k < n; k++)
		assign(O, L.v[k], ex[k]);
	O->fold->reach = in->op == OP_FOR ? reach0 : reach0 && seen;
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

static void fwd_if(Opt *O, Inst *in, Block *out)
{
	int reach0 = O->fold->reach;
	int32_t c0 = O->fold->clock;
	int mark = O->fold->nlog;
	fwd_block(O, &in->body);
	int rt = O->fold->reach, nt, ne;
	Chg *ct = changes(O, mark, &nt);
	undo_to(O, mark);
	O->fold->reach = reach0;
	fwd_block(O, &in->els);
	int re = O->fold->reach;
	Chg *ce = changes(O, mark, &ne);
	undo_to(O, mark);
	for (int k = 0; k < nt; k++)
		O->fold->pos1[ct[k].v] = k;
	for (int k = 0; k < ne; k++)
		O->fold->pos2[ce[k].v] = k;
	for (int pass = 0; pass < 2; pass++) {
		Chg *c = pass ? ce : ct;
		int nc = pass ? ne : nt;
		for (int k = 0; k < nc; k++) {
			int v = c[k].v;
			if (pass && O->fold->pos1[v] >= 0)
				continue; /* done with the then-branch's */
			Fact tf = O->fold->fact[v], ef = O->fold->fact[v];
			int32_t tv = O->fold->ver[v], ev = O->fold->ver[v];
			if (O->fold->pos1[v] >= 0) {
				tf = ct[O->fold->pos1[v]].f;
				tv = ct[O->fold->pos1[v]].ver;
			}
			if (O->fold->pos2[v] >= 0) {
				ef = ce[O->fold->pos2[v]].f;
				ev = ce[O->fold->pos2[v]].ver;
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
		O->fold->pos1[ct[k].v] = -1;
	for (int k = 0; k < ne; k++)
		O->fold->pos2[ce[k].v] = -1;
	free(ct);
	free(ce);
	O->fold->reach = rt || re;
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
			return (Fact){F_COPY, s, O->fold->ver[s]};
		return unk();
	}
	if (in->op == OP_MAKE && in->narg == 0)
		return (Fact){F_ZERO, 0, 0};
	return unk();
}

static void fwd_inst(Opt *O, const Inst *orig, Block *out)
{
	Inst in = *orig;
	int32_t a[256];
	int subs = 0;
	for (int k = 0; k < in.narg; k++) {
		a[k] = subst(O, &in, k);
		subs |= a[k] != in.arg[k];
	}
	if (subs) {
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
			O->changed = 1;
			fwd_seq(O, V(O, c.val)->k.i ? &in.body : &in.els, out);
			return;
		}
		fwd_if(O, &in, out);
		return;
	}
	case OP_FOR:
		if (no_trips(O, a)) {
			O->changed = 1;
			return;
		}
		/* fall through */
	case OP_LOOP:
		fwd_loop(O, &in);
		append(O, out, &in);
		return;
	case OP_BREAK:
	case OP_CONTINUE:
		if (O->fold->lp)
			capture(O, in.op == OP_BREAK ? O->fold->lp->brk : O->fold->lp->cont,
				in.op == OP_BREAK ? &O->fold->lp->brk_seen : &O->fold->lp->cont_seen);
		/* fall through */
	case OP_RET:
		append(O, out, &in);
		O->fold->reach = 0;
		return;
	}
	Simp s = simp(O, &in, a);
	Inst ni = in;
	if (s.kind != S_KEEP && !(s.kind == S_MOV && in.op == OP_MOV && s.val == a[0])) {
		int r = in.nres ? in.res[0] : -1;
		switch (s.kind) {
		case S_DELETE:
			O->changed = 1;
			return;
		case S_ZERO:
			/* a struct's zero, like a vector's, is made: the IR has no
			 * literal for it */
			if (diff_composite(T(O, r)) || ty_is_struct(T(O, r))) {
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
		int32_t *na = arena(O, 1 * sizeof *na);
		na[0] = a[0];
		ni.arg = na;
		O->changed = 1;
	}
	Fact rf = ni.nres == 1 ? result_fact(O, &ni) : unk();
	for (int k = 0; k < ni.nres; k++)
		assign(O, ni.res[k], k ? unk() : rf);
	append(O, out, &ni);
}

static void fwd_seq(Opt *O, const Block *b, Block *out)
{
	for (int i = 0; i < b->n; i++) {
		if (!O->fold->reach) {
			O->changed = 1;
			return;
		}
		fwd_inst(O, &b->v[i], out);
	}
}

/* Rewrite block b in place (a new array). */
static void fwd_block(Opt *O, Block *b)
{
	Block out = {0};
	/* room for what is usually there after */
	arena_extend(&O->m->arena, (void **)&out.v, &out.cap, b->n, sizeof *out.v);
	fwd_seq(O, b, &out);
	*b = out;
}

/* Grow the pass's arrays to the simplifier's (ensure). */
static void fold_grow(Opt *O)
{
	Fold *F = O->fold;
	if (!F) {
		F = O->fold = xmalloc(sizeof *F);
		memset(F, 0, sizeof *F);
	}
	if (F->cap >= O->cap)
		return;
	int cap = O->cap;
	F->fact = xrealloc(F->fact, (size_t)cap * sizeof *F->fact);
	F->ver = xrealloc(F->ver, (size_t)cap * sizeof *F->ver);
	F->pos1 = xrealloc(F->pos1, (size_t)cap * sizeof *F->pos1);
	F->pos2 = xrealloc(F->pos2, (size_t)cap * sizeof *F->pos2);
	for (int i = F->cap; i < cap; i++) {
		F->fact[i] = (Fact){F_UNK, 0, 0};
		F->ver[i] = 0;
		F->pos1[i] = F->pos2[i] = -1;
	}
	F->cap = cap;
}

void fwd_pass(Opt *O)
{
	ensure(O);
	fold_grow(O);
	O->fold->nlog = 0;
	O->fold->reach = 1;
	O->fold->lp = NULL;
	for (int v = 0; v < O->fold->cap; v++)
		O->fold->fact[v] = unk();
	fwd_block(O, &O->f->body);
}

void fold_free(Opt *O)
{
	Fold *F = O->fold;
	if (!F)
		return;
	free(F->fact);
	free(F->ver);
	free(F->pos1);
	free(F->pos2);
	free(F->log);
	free(F);
	O->fold = NULL;
}
