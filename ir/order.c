/*
 * order.c: which of a kernel's arrays end up depending on the order in
 * which its threads run.
 *
 * Threads run in no set order: the cpu device runs them one after the
 * other, a GPU in whatever order its blocks and warps are scheduled.
 * Most kernels give the same answer either way (a float atomic_add sums
 * in another order, which only rounds differently).  A kernel that uses
 * the old value an atomic returns does not: the thread that sees 0 from
 * atomic_or, the slot atomic_add hands out, the winner of atomic_cas.
 *
 * The analysis is a taint: an atomic's result is tainted, and so is every
 * value computed from a tainted one, every value assigned under a branch
 * or loop a tainted value decides, and everything after a branch that
 * leaves a loop or the function on a tainted condition.  An array is
 * order-dependent when it is stored to with a tainted index or value or
 * under tainted control, when a tainted value reaches it through an
 * atomic, when atomic_exch or atomic_cas writes it (the last or the first
 * thread wins), and when a function it is passed to does so.  Loading
 * from such an array gives a tainted value.  It is conservative: it may
 * name an array whose final contents happen not to depend on the order
 * (a counter a compare-and-swap loop bumps), never miss one of the cases
 * above.  Plain races (two threads storing to one element) are not seen.
 *
 * An array a kernel touches only at its own thread's element (below) is
 * taken to share no element with the kernel's other arrays: the same
 * array passed for two parameters, or overlapping views, are outside it.
 */
#include "ir.h"
#include "walk.h"

#include <stdlib.h>
#include <string.h>

typedef struct Taint {
	const Module *m;
	const Func *f;
	uint8_t *t;      /* per value: tainted */
	uint8_t *own;    /* per value: an array each thread touches only at its own element */
	int32_t *origin; /* per value: the struct an array field came from, or -1 */
	int after;       /* a tainted branch left the loop or function */
	int changed;
	int ret; /* a tainted value or control reached a ret */
	int depth;
} Taint;

static void order_func(const Module *m, const Func *f, const uint8_t *in, uint8_t *out, int *ret, int depth);

/* ---- arrays of the thread's own ----------------------------------------- */

/* A kernel's 1-D array parameter every use of which is a load, a store or
 * an atomic at index wp.tid() of a 1-D launch (a value nothing else
 * defines) is one element per thread, which no other thread touches: its
 * atomics are a load and a store, in the thread's own order, and
 * atomic_exch or atomic_cas there depend on no other thread. */
typedef struct Own {
	int32_t *defs; /* per value: its definitions */
	int tid;       /* the value of the one tid, -1 none, -2 several */
	uint8_t *own;
} Own;

static int count_defs(void *ctx, const Inst *in)
{
	Own *o = ctx;
	for (int r = 0; r < in->nres; r++)
		o->defs[in->res[r]]++;
	if (in->op == OP_BUILTIN && in->callee == BI_TID)
		o->tid = in->nres == 1 && o->tid == -1 ? in->res[0] : -2;
	return 0;
}

/* Another use of an array than at index tid: not the thread's own. */
static int drop_shared(void *ctx, const Inst *in)
{
	Own *o = ctx;
	int at_tid = in->narg >= 2 && in->arg[1] == o->tid;
	int from = (in->op == OP_LOAD && in->narg == 2 && at_tid) ||
				   (in->op == OP_STORE && in->narg == 3 && at_tid) ||
				   (ir_inst_atomic(in) && at_tid && in->narg <= 4)
			   ? 1
			   : 0;
	for (int k = from; k < in->narg; k++)
		o->own[in->arg[k]] = 0;
	return 0;
}

static void own_arrays(const Func *f, uint8_t *own)
{
	Own o = {xmalloc(((size_t)f->nval + 1) * sizeof *o.defs), -1, own};
	memset(o.defs, 0, ((size_t)f->nval + 1) * sizeof *o.defs);
	ir_walk_const(&f->body, count_defs, &o);
	if (o.tid >= 0 && o.defs[o.tid] == 1) {
		for (int i = 0; i < f->nparam; i++) {
			Type t = f->val[f->param[i]].ty;
			own[f->param[i]] = ty_is_array(t) && ty_ndim(t) == 1;
		}
		ir_walk_const(&f->body, drop_shared, &o);
	}
	free(o.defs);
}

static void taint(Taint *s, int v)
{
	while (v >= 0 && !s->t[v]) {
		s->t[v] = 1;
		s->changed = 1;
		v = s->origin[v];
	}
}

static int any_arg(const Taint *s, const Inst *in, int from)
{
	for (int k = from; k < in->narg; k++)
		if (s->t[in->arg[k]])
			return 1;
	return 0;
}

/* Does b leave its loop or function (break, continue, ret) anywhere? */
static int is_jump(void *ctx, const Inst *in)
{
	(void)ctx;
	return ir_op_jump(in->op) != 0;
}

static int leaves(const Block *b) { return ir_walk_const(b, is_jump, NULL); }

static int holds_arrays(Type t) { return ty_is_array(t) || ty_is_struct(t); }

static void call(Taint *s, const Inst *in, int ctx)
{
	const Func *g = s->m->fn[in->callee];
	uint8_t argt[256] = {0}, out[256] = {0};
	int ret = 0, n = in->narg; /* at most 255 */
	for (int k = 0; k < n; k++)
		argt[k] = s->t[in->arg[k]] || ctx;
	if (g->body.n && s->depth < 64 && g->nparam == in->narg) {
		order_func(s->m, g, argt, out, &ret, s->depth + 1);
	} else {
		/* no body to look into: whatever it is given taints what it gives */
		ret = any_arg(s, in, 0);
	}
	for (int k = 0; k < n; k++)
		if (out[k] && holds_arrays(s->f->val[in->arg[k]].ty))
			taint(s, in->arg[k]);
	if (ret || ctx)
		for (int r = 0; r < in->nres; r++)
			taint(s, in->res[r]);
}

static void walk(Taint *s, const Block *b, int ctx)
{
	for (int i = 0; i < b->n; i++) {
		const Inst *in = &b->v[i];
		int c = ctx || s->after;
		switch (in->op) {
		case OP_IF: {
			int tc = c || s->t[in->arg[0]];
			walk(s, &in->body, tc);
			walk(s, &in->els, tc);
			if (tc && !c && (leaves(&in->body) || leaves(&in->els)))
				s->after = 1;
			continue;
		}
		case OP_FOR: {
			int tc = c || any_arg(s, in, 0);
			if (tc)
				for (int r = 0; r < in->nres; r++)
					taint(s, in->res[r]);
			walk(s, &in->body, tc);
			if (s->after && !tc)
				walk(s, &in->body, 1); /* the later trips, after a tainted exit */
			continue;
		}
		case OP_LOOP:
			walk(s, &in->body, c);
			if (s->after && !c)
				walk(s, &in->body, 1);
			continue;
		case OP_RET:
			if (c || any_arg(s, in, 0))
				s->ret = 1;
			continue;
		case OP_STORE:
		case OP_STORE_COMP:
			if (c || any_arg(s, in, 1))
				taint(s, in->arg[0]);
			continue;
		case OP_FIELD:
			if (in->nres && ty_is_array(s->f->val[in->res[0]].ty))
				s->origin[in->res[0]] = in->arg[0];
			break;
		case OP_CALL:
			call(s, in, c);
			continue;
		case OP_BUILTIN:
			if (ir_builtin_atomic(in->callee) && s->own[in->arg[0]]) {
				/* a load and a store of the thread's own element */
				if (c || any_arg(s, in, 1))
					taint(s, in->arg[0]);
				if (c || s->t[in->arg[0]])
					for (int r = 0; r < in->nres; r++)
						taint(s, in->res[r]);
				continue;
			}
			if (ir_builtin_atomic(in->callee)) {
				int e = in->callee;
				if (c || any_arg(s, in, 1) || e == BI_ATOMIC_EXCH || e == BI_ATOMIC_CAS)
					taint(s, in->arg[0]);
				for (int r = 0; r < in->nres; r++)
					taint(s, in->res[r]);
				continue;
			}
			break;
		default:
			break;
		}
		/* a value: tainted by a tainted operand (a load by its array) or
		 * by the control it is computed under */
		if (c || any_arg(s, in, 0))
			for (int r = 0; r < in->nres; r++)
				taint(s, in->res[r]);
	}
}

static void order_func(const Module *m, const Func *f, const uint8_t *in, uint8_t *out, int *ret, int depth)
{
	Taint s = {m,
		   f,
		   xmalloc((size_t)f->nval + 1),
		   xmalloc((size_t)f->nval + 1),
		   xmalloc(((size_t)f->nval + 1) * sizeof(int32_t)),
		   0,
		   0,
		   0,
		   depth};
	memset(s.t, 0, (size_t)f->nval + 1);
	memset(s.own, 0, (size_t)f->nval + 1);
	if (f->is_kernel && !f->backward)
		own_arrays(f, s.own);
	for (int v = 0; v < f->nval; v++)
		s.origin[v] = -1;
	for (int i = 0; i < f->nparam; i++)
		if (in && in[i])
			s.t[f->param[i]] = 1;
	/* to a fixed point: a loop's later trips see what its earlier ones
	 * tainted; taints only grow, so this ends */
	do {
		s.changed = 0;
		s.after = 0;
		walk(&s, &f->body, 0);
	} while (s.changed);
	for (int i = 0; i < f->nparam; i++)
		out[i] = s.t[f->param[i]] && !(in && in[i]);
	*ret = s.ret;
	free(s.t);
	free(s.own);
	free(s.origin);
}

int ir_order_dependent(const Module *m, const Func *f, uint8_t *dep)
{
	int ret = 0, n = 0;
	order_func(m, f, NULL, dep, &ret, 0);
	for (int i = 0; i < f->nparam; i++) {
		dep[i] = dep[i] && holds_arrays(f->val[f->param[i]].ty);
		n += dep[i];
	}
	return n;
}
