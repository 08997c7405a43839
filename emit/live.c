/*
 * live.c: the emitter's view of a function's instructions, and its first
 * pass, liveness.  Every instruction of the tree gets an id (number_insts:
 * tree order, an IInfo each, an Inst* -> id hash for inst_id, and the id
 * of the next instruction of its block for a walk along the block) and
 * the memory effects it has (inst_fx: FX_READ, FX_WRITE; a call has its
 * callee's, which emit_next notes for each function as it comes:
 * ir/calls.h), noted once in its IInfo.
 *
 * drop_dead_code marks dead what cannot run (after ret, break, continue)
 * and, repeated until nothing changes, each instruction without effects
 * whose results no live instruction reads; it leaves in VInfo.uses the
 * reads by live instructions and in VInfo.def each temp's definition.
 * C compilers warn about what would be left.  kdiff's simplifier has a
 * liveness of its own, over values and the control flow (diff/live.c,
 * which says how it differs); both ask ir_inst_removable whether an
 * instruction may go.
 */
#include <string.h>

#include "emit/emit_int.h"

/* The memory effects of an instruction, FX_READ and FX_WRITE (a print
 * writes: it stays in order with the other prints and calls); a call's
 * are its callee's. */
int inst_fx(const Emitter *e, const Inst *in) { return ir_fx_of(in, &e->fx) & (FX_READ | FX_WRITE); }

static size_t hash_ptr(const void *p, int cap)
{
	return (size_t)(((uintptr_t)p >> 4) * 2654435761u) & (size_t)(cap - 1);
}

/* The id number_insts gave in. */
int inst_id(const Emitter *e, const Inst *in)
{
	size_t h = hash_ptr(in, e->hcap);
	while (e->hkey[h] != in)
		h = (h + 1) & (size_t)(e->hcap - 1);
	return e->hval[h];
}

static void number_block(Emitter *e, const Block *b)
{
	for (int i = 0; i < b->n; i++) {
		if (e->ninst == e->capinst) {
			e->capinst = e->capinst ? 2 * e->capinst : 64;
			e->ii = xrealloc(e->ii, (size_t)e->capinst * sizeof *e->ii);
		}
		int id = e->ninst++;
		IInfo *x = &e->ii[id];
		memset(x, 0, sizeof *x);
		x->in = &b->v[i];
		x->b = b;
		x->idx = i;
		x->fx = inst_fx(e, x->in);
		x->root = -1;
		number_block(e, &b->v[i].body);
		number_block(e, &b->v[i].els);
		e->ii[id].sib = i + 1 < b->n ? e->ninst : -1;
	}
}

/* Number f's instructions in tree order and hash them for inst_id. */
void number_insts(Emitter *e, const Func *f)
{
	e->ninst = 0;
	number_block(e, &f->body);
	e->hcap = 16;
	while (e->hcap < 2 * e->ninst + 2)
		e->hcap *= 2;
	e->hkey = xmalloc((size_t)e->hcap * sizeof *e->hkey);
	e->hval = xmalloc((size_t)e->hcap * sizeof *e->hval);
	memset(e->hkey, 0, (size_t)e->hcap * sizeof *e->hkey);
	for (int id = 0; id < e->ninst; id++) {
		size_t h = hash_ptr(e->ii[id].in, e->hcap);
		while (e->hkey[h])
			h = (h + 1) & (size_t)(e->hcap - 1);
		e->hkey[h] = e->ii[id].in;
		e->hval[h] = id;
	}
}

/* The reads of each value by live instructions, and each temp's
 * definition (a dead instruction holds only dead ones). */
static int count_uses(void *ctx, const Inst *in)
{
	Emitter *e = ctx;
	int id = inst_id(e, in);
	if (e->ii[id].dead)
		return 0;
	for (int k = 0; k < in->narg; k++)
		e->v[in->arg[k]].uses++;
	for (int k = 0; k < in->nres; k++)
		if (e->f->val[in->res[k]].kind == VK_TEMP)
			e->v[in->res[k]].def = id;
	return 0;
}

/* Mark code after ret/break/continue dead (it cannot run). */
static void mark_unreachable(Emitter *e, const Block *b)
{
	int after = 0;
	for (int i = 0; i < b->n; i++) {
		const Inst *in = &b->v[i];
		if (after) {
			IInfo *x = &e->ii[inst_id(e, in)];
			x->dead = 1;
			continue;
		}
		mark_unreachable(e, &in->body);
		mark_unreachable(e, &in->els);
		if (ir_op_jump(in->op))
			after = 1;
	}
}

/* The number of results an instruction writes through pointers: a call
 * of a function with several, or a builtin with several (svd3); 0 for
 * any other.  rt, when given, gets their types. */
int multi_results(const Emitter *e, const Inst *in, Type *rt)
{
	if (in->op == OP_CALL) {
		const Func *g = e->m->fn[in->callee];
		if (g->nret < 2)
			return 0;
		for (int k = 0; rt && k < g->nret; k++)
			rt[k] = g->ret[k];
		return g->nret;
	}
	if (in->op != OP_BUILTIN || in->callee == BI_TID || ir_builtin_nres(in->callee) < 2)
		return 0;
	Type args[8], t[4];
	for (int k = 0; k < in->narg && k < 8; k++)
		args[k] = e->f->val[in->arg[k]].ty;
	int n = ir_builtin_results(in->callee, args, in->narg, rt ? rt : t);
	return n;
}

static int mark_dead(void *ctx, const Inst *in)
{
	Emitter *e = ctx;
	e->ii[inst_id(e, in)].dead = 1;
	return 0;
}

/* Drop effect-free instructions whose results nobody reads, to a fixed
 * point.  Returns 1 if anything changed. */
static int drop_dead(Emitter *e)
{
	int changed = 0;
	for (int id = e->ninst - 1; id >= 0; id--) {
		IInfo *x = &e->ii[id];
		const Inst *in = x->in;
		if (x->dead || !ir_inst_removable(in, &e->fx))
			continue;
		if (in->op == OP_CALL && !in->nres && e->m->fn[in->callee]->nret)
			; /* a pure call whose results are ignored */
		else if (!in->nres && multi_results(e, in, NULL))
			; /* svd3 and the like, their results ignored */
		else if (!in->nres)
			continue;
		int used = 0;
		for (int k = 0; k < in->nres; k++)
			used |= e->v[in->res[k]].uses > 0;
		if (used)
			continue;
		x->dead = 1;
		for (int k = 0; k < in->narg; k++)
			e->v[in->arg[k]].uses--;
		changed = 1;
	}
	return changed;
}

/* Pass 1: mark f's dead instructions (IInfo.dead), and count the reads of
 * every value by the live ones. */
void drop_dead_code(Emitter *e, const Func *f)
{
	mark_unreachable(e, &f->body);
	for (int id = 0; id < e->ninst; id++)
		if (e->ii[id].dead) {
			ir_walk_const(&e->ii[id].in->body, mark_dead, e);
			ir_walk_const(&e->ii[id].in->els, mark_dead, e);
		}
	ir_walk_const(&f->body, count_uses, e);
	while (drop_dead(e))
		;
}
