/*
 * forward.c: the forward sweep.  It runs a function's body once more,
 * giving every definition a fresh variable (vars.c), so that nothing the
 * reverse sweep needs is overwritten, and records what it ran on a Tape
 * (diff_int.h) for the reverse sweep to walk backwards.  An if keeps its
 * condition, and a variable a branch assigns gets a merge variable that
 * each branch sets at its end (a Hook); break, continue and ret set the
 * region's `exited` flag, and the rest of a block after an if that may
 * exit is guarded by "not exited", the guard recorded as an if.  A store
 * keeps the value it overwrites when the kernel reads the array again,
 * to be restored by the reverse sweep.  Loops are loop.c's.
 */
#include <stdlib.h>
#include <string.h>

#include "diff_int.h"

/* ---- the tape ---------------------------------------------------------- */

Tape *tape_new(D *d) { return salloc(d, sizeof(Tape)); }

Rec *rec(D *d, Tape *t, int kind, Loc loc)
{
	Rec *r = salloc(d, sizeof *r);
	r->kind = kind;
	r->loc = loc;
	r->old = -1;
	arena_grow(d->a, (void **)&t->v, &t->cap, t->n + 1, sizeof *t->v);
	t->v[t->n++] = r;
	return r;
}

static Rec *rec_inst(D *d, Tape *t, int op, int callee, const int32_t *res, int nres, const int32_t *arg, int narg,
		     Loc loc)
{
	Rec *r = rec(d, t, R_INST, loc);
	r->op = op;
	r->callee = callee;
	r->nres = nres;
	r->res = salloc(d, (size_t)(nres ? nres : 1) * sizeof *r->res);
	if (nres)
		memcpy(r->res, res, (size_t)nres * sizeof *res);
	r->narg = narg;
	r->arg = salloc(d, (size_t)(narg ? narg : 1) * sizeof *r->arg);
	if (narg)
		memcpy(r->arg, arg, (size_t)narg * sizeof *arg);
	return r;
}

/* ---- static facts about original code ---------------------------------- */

static int assignable(const D *d, int id)
{
	const Value *v = &d->f->val[id];
	return (v->kind == VK_VAR || v->kind == VK_PARAM) && !ty_is_array(v->ty);
}

typedef struct Assigned {
	const D *d;
	uint8_t *mark;
} Assigned;

static int mark_assigned(void *ctx, const Inst *in)
{
	Assigned *a = ctx;
	if (in->op != OP_FOR)
		for (int k = 0; k < in->nres; k++)
			if (assignable(a->d, in->res[k]))
				a->mark[in->res[k]] = 1;
	return 0;
}

/* mark the variables assigned in b (not for-loop variables) */
void assigned(const D *d, const Block *b, uint8_t *mark)
{
	Assigned a = {d, mark};
	ir_walk_const(b, mark_assigned, &a);
}

static int is_ret(void *ctx, const Inst *in)
{
	(void)ctx;
	return in->op == OP_RET;
}

int has_ret(const Block *b) { return ir_walk_const(b, is_ret, NULL); }

/* may b leave the enclosing region (break, continue, or ret)? */
static int may_exit(const Block *b)
{
	for (int i = 0; i < b->n; i++) {
		const Inst *in = &b->v[i];
		switch (in->op) {
		case OP_BREAK:
		case OP_CONTINUE:
		case OP_RET:
			return 1;
		case OP_IF:
			if (may_exit(&in->body) || may_exit(&in->els))
				return 1;
			break;
		case OP_FOR:
		case OP_LOOP:
			if (has_ret(&in->body))
				return 1;
			break;
		}
	}
	return 0;
}

/* does every path through b leave the enclosing region (break, continue
 * or ret)? */
static int always_exits(const Block *b)
{
	for (int i = 0; i < b->n; i++) {
		const Inst *in = &b->v[i];
		if (ir_op_jump(in->op))
			return 1;
		if (in->op == OP_IF && always_exits(&in->body) && always_exits(&in->els))
			return 1;
	}
	return 0;
}

static int first_def(void *ctx, const Inst *in)
{
	const Inst **def = ctx;
	for (int k = 0; k < in->nres; k++)
		if (!def[in->res[k]])
			def[in->res[k]] = in;
	return 0;
}

/* def[v]: the first instruction of b (nested blocks too) that defines v */
void first_defs(const Block *b, const Inst **def) { ir_walk_const(b, first_def, def); }

int same_array(const Inst *const *def, int x, int y)
{
	for (;;) {
		if (x == y)
			return 1;
		const Inst *dx = def[x], *dy = def[y];
		if (dx && dx->op == OP_MOV) {
			x = dx->arg[0];
		} else if (dy && dy->op == OP_MOV) {
			y = dy->arg[0];
		} else if (dx && dy && dx->op == OP_FIELD && dy->op == OP_FIELD && dx->callee == dy->callee) {
			x = dx->arg[0];
			y = dy->arg[0];
		} else {
			return 0;
		}
	}
}

typedef struct ReadAfter {
	D *d;
	const Inst *const *def; /* first_defs's */
	const Inst *st;
	int arr, seen;
} ReadAfter;

/* Walking for store `st`, then for an instruction that may read array
 * arr (a load, a call of a func that loads it, an atomic): 1 when found. */
static int reads_after(void *ctx, const Inst *in)
{
	ReadAfter *r = ctx;
	if (in == r->st) {
		r->seen = 1;
	} else if (r->seen && in->narg && same_array(r->def, in->arg[0], r->arr) &&
		   (ir_inst_load(in) || ir_inst_atomic(in))) {
		return 1;
	} else if (r->seen && in->op == OP_CALL) {
		Summary *sm = &r->d->sum[in->callee];
		for (int k = 0; k < in->narg; k++)
			if (same_array(r->def, in->arg[k], r->arr) && (!sm->done || sm->loads[k] || sm->atomics[k]))
				return 1;
	}
	return 0;
}

/* Is the value store st writes read later in the kernel (through any
 * value that names the same array)?  If not, the forward sweep need not
 * make it (nor the reverse undo it). */
static int read_after(D *d, const Inst *st)
{
	const Inst **def = xmalloc(sizeof *def * (size_t)(d->f->nval + 1));
	memset(def, 0, sizeof *def * (size_t)(d->f->nval + 1));
	first_defs(&d->f->body, def);
	ReadAfter r = {d, def, st, st->arg[0], 0};
	int found = ir_walk_const(&d->f->body, reads_after, &r);
	free(def);
	return found;
}

/* ---- the forward sweep ------------------------------------------------- */

static void run_hook(D *d, Hook *h, int32_t *cur, Block *out, Tape *tp, Loc loc)
{
	if (!h)
		return;
	for (int i = 0; i < h->n; i++) {
		int src = cur[h->orig[i]];
		if (src < 0)
			continue;
		mov(d, out, h->dst[i], src, loc);
		rec_inst(d, tp, OP_MOV, -1, &h->dst[i], 1, &src, 1, loc);
	}
}

/* Forward sweep of b[from..]: emits into out, records into tp.  cur maps
 * original values to their current new names and is updated.  hook runs
 * where the block ends normally. */
void tape_block(D *d, const Block *b, int from, int32_t *cur, Block *out, Tape *tp, Region *rg, Hook *hook)
{
	for (int i = from; i < b->n; i++) {
		const Inst *in = &b->v[i];
		int32_t args[256], res[256];
		int exits = 0;
		switch (in->op) {
		case OP_BREAK:
		case OP_CONTINUE:
		case OP_RET:
			if (in->op == OP_RET) {
				for (int k = 0; k < in->narg; k++) {
					int v = map(d, cur, in->arg[k]);
					mov(d, out, d->ret_var[k], v, in->loc);
					rec_inst(d, tp, OP_MOV, -1, &d->ret_var[k], 1, &v, 1, in->loc);
				}
				set_bool(d, out, d->done_var, 1, in->loc);
			}
			if (rg->iter)
				run_hook(d, rg->out, cur, out, tp, in->loc);
			set_bool(d, out, rg->E, 1, in->loc);
			return;
		case OP_IF: {
			int c = map(d, cur, in->arg[0]);
			if (always_exits(&in->body) && !may_exit(&in->els)) {
				/* if c { ...; break } else { ... } and the rest: the
				 * rest is the else-branch's, so no flag guards it */
				Rec *r = rec(d, tp, R_IF, in->loc);
				r->cond = c;
				r->t = tape_new(d);
				r->e = tape_new(d);
				Block t = {0}, e = {0};
				int32_t *ct = env_copy(d, cur);
				tape_block(d, &in->body, 0, ct, &t, r->t, rg, NULL);
				tape_block(d, &in->els, 0, cur, &e, r->e, rg, NULL);
				tape_block(d, b, i + 1, cur, &e, r->e, rg, hook);
				Inst *ni = emit(d, out, OP_IF, NULL, 0, &c, 1, in->loc);
				ni->body = t;
				ni->els = e;
				return;
			}
			uint8_t *mark = salloc(d, (size_t)d->f->nval);
			assigned(d, &in->body, mark);
			assigned(d, &in->els, mark);
			Hook *h = salloc(d, sizeof *h);
			h->orig = salloc(d, (size_t)d->f->nval * sizeof *h->orig);
			h->dst = salloc(d, (size_t)d->f->nval * sizeof *h->dst);
			for (int v = 0; v < d->f->nval; v++)
				if (mark[v]) {
					h->orig[h->n] = v;
					h->dst[h->n++] = fresh(d, v, d->f->val[v].ty);
				}
			Rec *r = rec(d, tp, R_IF, in->loc);
			r->cond = c;
			r->t = tape_new(d);
			r->e = tape_new(d);
			Block t = {0}, e = {0};
			int32_t *ct = env_copy(d, cur), *ce = env_copy(d, cur);
			tape_block(d, &in->body, 0, ct, &t, r->t, rg, h);
			tape_block(d, &in->els, 0, ce, &e, r->e, rg, h);
			Inst *ni = emit(d, out, OP_IF, NULL, 0, &c, 1, in->loc);
			ni->body = t;
			ni->els = e;
			for (int k = 0; k < h->n; k++)
				cur[h->orig[k]] = h->dst[k];
			exits = may_exit(&in->body) || may_exit(&in->els);
			break;
		}
		case OP_FOR:
		case OP_LOOP:
			tape_loop(d, in, cur, out, tp, rg);
			if (has_ret(&in->body)) {
				exits = 1;
				mov(d, out, rg->E, d->done_var, in->loc);
				if (rg->iter && rg->out && rg->out->n) {
					/* a ret in the inner loop ends this iteration too */
					int c = fresh_named(d, "returned", TY_BOOL, 0);
					mov(d, out, c, d->done_var, in->loc);
					Rec *r = rec(d, tp, R_IF, in->loc);
					r->cond = c;
					r->t = tape_new(d);
					Block t = {0};
					run_hook(d, rg->out, cur, &t, r->t, in->loc);
					Inst *ni = emit(d, out, OP_IF, NULL, 0, &c, 1, in->loc);
					ni->body = t;
				}
			}
			break;
		case OP_STORE:
		case OP_STORE_COMP:
		case OP_TILE_STORE:
		case OP_TILE_STORE_INDEXED: {
			for (int k = 0; k < in->narg; k++)
				args[k] = map(d, cur, in->arg[k]);
			Rec *r = rec_inst(d, tp, in->op, -1, NULL, 0, args, in->narg, in->loc);
			r->kind = R_STORE;
			if (rg->depth == 0 && read_after(d, in)) {
				/* keep the old value (the old component, the old
				 * tile), to restore it in the reverse sweep */
				Type et = ty_elem(vty(d, args[0]));
				int nd = ty_ndim(vty(d, args[0]));
				if (in->op == OP_TILE_STORE || in->op == OP_TILE_STORE_INDEXED) {
					/* the array, then the store's operands past its tile */
					int32_t x[3 + KS_MAX_NDIM] = {args[0]};
					memcpy(x + 1, args + 2, (size_t)(in->narg - 2) * sizeof *x);
					r->old = fresh_named(d, "old", vty(d, args[1]), 0);
					emit(d, out, in->op == OP_TILE_STORE ? OP_TILE_LOAD : OP_TILE_LOAD_INDEXED,
					     &r->old, 1, x, in->narg - 1, in->loc);
				} else if (in->op == OP_STORE) {
					r->old = fresh_named(d, "old", et, 0);
					emit(d, out, OP_LOAD, &r->old, 1, args, nd + 1, in->loc);
				} else {
					int32_t x[3] = {fresh_named(d, "old", et, 0), args[nd + 1],
							args[in->narg - 2]};
					emit(d, out, OP_LOAD, x, 1, args, nd + 1, in->loc);
					r->old = fresh_named(d, "old", ty_scalar(et), 0);
					emit(d, out, OP_EXTRACT, &r->old, 1, x, in->narg - nd - 1, in->loc);
				}
				emit(d, out, in->op, NULL, 0, args, in->narg, in->loc);
			}
			break;
		}
		default:
			if (in->op == OP_PRINTF)
				break; /* printed by the forward pass */
			for (int k = 0; k < in->narg; k++)
				args[k] = map(d, cur, in->arg[k]);
			for (int k = 0; k < in->nres; k++) {
				res[k] = fresh(d, in->res[k], d->f->val[in->res[k]].ty);
				cur[in->res[k]] = res[k];
			}
			if (ir_inst_atomic(in) && d->rmw && d->rmw[in->arg[0]]) {
				/* an atomic on an array the kernel also loads or
				 * stores (outside loops): keep the old value, update,
				 * and restore in the reverse sweep */
				Rec *r =
					rec_inst(d, tp, in->op, in->callee, res, in->nres, args, in->narg, in->loc);
				r->old = fresh_named(d, "old", ty_elem(vty(d, args[0])), 0);
				emit(d, out, OP_LOAD, &r->old, 1, args, 1 + ty_ndim(vty(d, args[0])), in->loc);
				Inst *ni = emit(d, out, in->op, NULL, 0, args, in->narg, in->loc);
				ni->callee = in->callee;
				break;
			}
			if (!ir_inst_atomic(in) && in->op != OP_TILE_ATOMIC_ADD &&
			    in->op != OP_TILE_ATOMIC_ADD_INDEXED) { /* the forward pass added */
				Inst *ni = emit(d, out, in->op, res, in->nres, args, in->narg, in->loc);
				ni->callee = in->op == OP_CALL ? (int32_t)d->pure[in->callee] : in->callee;
			}
			if (in->op == OP_FIELD)
				field_origin(d, args[0], in->callee, res[0], in->loc);
			if (in->op == OP_MOV && ty_is_struct(vty(d, res[0])))
				set_sorg(d, res[0], sorg_of(d, args[0]));
			if (in->op == OP_MOV && ty_is_array(vty(d, res[0])) && adjarr_of(d, args[0]) >= 0)
				set_adjarr(d, res[0], adjarr_of(d, args[0]));
			rec_inst(d, tp, in->op, in->callee, res, in->nres, args, in->narg, in->loc);
			break;
		}
		if (exits && i + 1 < b->n) {
			/* the rest of the block runs only if nothing exited */
			int g = fresh_named(d, "live", TY_BOOL, 0);
			emit(d, out, OP_NOT, &g, 1, &rg->E, 1, in->loc);
			Rec *r = rec(d, tp, R_IF, in->loc);
			r->cond = g;
			r->t = tape_new(d);
			Block t = {0};
			tape_block(d, b, i + 1, cur, &t, r->t, rg, hook);
			Inst *ni = emit(d, out, OP_IF, NULL, 0, &g, 1, in->loc);
			ni->body = t;
			return;
		}
		if (exits && hook && hook->n) {
			/* the hook (merge movs) runs only if nothing exited */
			int g = fresh_named(d, "live", TY_BOOL, 0);
			emit(d, out, OP_NOT, &g, 1, &rg->E, 1, in->loc);
			Rec *r = rec(d, tp, R_IF, in->loc);
			r->cond = g;
			r->t = tape_new(d);
			Block t = {0};
			run_hook(d, hook, cur, &t, r->t, in->loc);
			Inst *ni = emit(d, out, OP_IF, NULL, 0, &g, 1, in->loc);
			ni->body = t;
			return;
		}
	}
	run_hook(d, hook, cur, out, tp, b->n ? b->v[b->n - 1].loc : d->f->loc);
}
