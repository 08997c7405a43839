/*
 * fold.c: pass 2, folding.  A temp read once, in the same block, becomes
 * part of the expression that reads it (`%0 = mul %b, %c; %x = add %a, %0`
 * is `x = a + b * c;`): its definition's IInfo.root names the instruction
 * it is printed in.  Not when moving it would change what it computes: it
 * may not move past an assignment to a variable it reads, a load may not
 * move past a store, an atomic or a call that writes memory, nothing moves
 * past control flow, and one C expression holds at most one memory write
 * and then nothing that reads memory (C leaves the order of operands
 * unspecified).  Effects never go where C would skip them (the right of
 * && and ||, the arms of ?:), nor does what a loop changes go into the
 * bound of a for, read on every iteration.
 */
#include "emit/emit_int.h"

static int reads_val(const Inst *in, int val)
{
	for (int k = 0; k < in->narg; k++)
		if (in->arg[k] == val)
			return 1;
	return 0;
}

/* Would evaluating node n after instruction k, rather than before it,
 * change anything?  (fn, fk: their effects.) */
static int interferes(const Emitter *e, const Inst *n, int fn, const Inst *k, int fk)
{
	if (ir_op_control(k->op))
		return 1;
	for (int r = 0; r < k->nres; r++) {
		int kind = e->f->val[k->res[r]].kind;
		if ((kind == VK_VAR || kind == VK_PARAM) && reads_val(n, k->res[r]))
			return 1;
	}
	if ((fn & FX_READ) && (fk & FX_WRITE))
		return 1;
	if ((fn & FX_WRITE) && fk)
		return 1;
	return 0;
}

static int assigns_val(void *val, const Inst *in)
{
	for (int k = 0; k < in->nres; k++)
		if (in->res[k] == *(int *)val)
			return 1;
	return 0;
}

/* Does some instruction of b, nested ones too, assign val? */
int assigns_in(const Block *b, int val) { return ir_walk_const(b, assigns_val, &val); }

/* May operand slot p of instruction j take a folded expression, and must
 * that expression be free of effects (1) or of everything loop-variant (2)? */
static int slot_kind(const Inst *j, int p)
{
	switch (j->op) {
	case OP_TAPE_KEEP:
	case OP_TAPE_PUT:
	case OP_TAPE_BACK:
	case OP_TAPE_GET:
		return p == 0 ? -1 : 0; /* &handle needs a name */
	case OP_EXTRACT:
	case OP_INSERT:
		return p == 0 ? -1 : 0; /* v.c[k] needs a name */
	case OP_AND:
	case OP_OR:
		return p == 1 ? 1 : 0;
	case OP_SELECT:
		return p >= 1 ? 1 : 0;
	case OP_FOR:
		return p == 0 ? 0 : 2; /* the bound is read on every iteration */
	}
	return 0;
}

static int foldable_def(const Emitter *e, const Inst *d)
{
	if (ir_op_control(d->op) || d->op == OP_STORE || d->nres != 1 || d->op == OP_SETFIELD)
		return 0; /* a struct's field is set by a statement of its own */
	if (d->op == OP_CALL && e->m->fn[d->callee]->nret != 1)
		return 0;
	/* a tile is an array; an element of it read by every thread may
	 * need a barrier before the statement that reads it (tile.c) */
	if (ty_is_tile(e->f->val[d->res[0]].ty) || (d->op == OP_EXTRACT && ty_is_tile(e->f->val[d->arg[0]].ty)) ||
	    (d->op == OP_BUILTIN && (ir_builtins[d->callee].flags & BF_TILE)))
		return 0;
	return e->f->val[d->res[0]].kind == VK_TEMP;
}

/* Add the tree rooted at instruction id to e->tree, marking its nodes:
 * a node's children are the definitions of its operands folded into it. */
static void add_tree(Emitter *e, int id)
{
	int from = e->ntree;
	e->tree[e->ntree++] = id;
	e->ii[id].mark = e->gen;
	for (int i = from; i < e->ntree; i++) {
		int x = e->tree[i];
		const Inst *in = e->ii[x].in;
		for (int k = 0; k < in->narg; k++) {
			int c = e->v[in->arg[k]].def;
			if (c >= 0 && e->ii[c].root == x && e->ii[c].mark != e->gen) {
				e->ii[c].mark = e->gen;
				e->tree[e->ntree++] = c;
			}
		}
	}
}

/* Fold in block b, whose first instruction has id first. */
static void fold_block(Emitter *e, const Block *b, int first)
{
	for (int j = 0, J = first; j < b->n; j++, J = e->ii[J].sib) {
		const Inst *jn = &b->v[j];
		/* the first instruction of a block nested in jn comes right
		 * after jn, those of its else after the last of its body */
		fold_block(e, &jn->body, J + 1);
		if (jn->els.n)
			fold_block(e, &jn->els, jn->body.n ? inst_id(e, &jn->els.v[0]) : J + 1);
		if (e->ii[J].dead)
			continue;
		for (int p = 0; p < jn->narg; p++) {
			int t = jn->arg[p], sk = slot_kind(jn, p);
			const VInfo *vt = &e->v[t];
			if (sk < 0 || e->f->val[t].kind != VK_TEMP || vt->uses != 1 || vt->def < 0)
				continue;
			int D = vt->def;
			if (e->ii[D].b != b || e->ii[D].dead || !foldable_def(e, e->ii[D].in))
				continue;
			if (jn->op == OP_FOR && p == 2)
				continue; /* a dynamic step is read twice per iteration */
			if (jn->op == OP_FOR && p == 1 && e->f->val[jn->arg[2]].kind != VK_CONST)
				continue;
			/* the nodes of D's tree (D and what is folded into it), then
			 * those of J's; instructions of b in either are marked */
			e->gen++;
			e->ntree = 0;
			add_tree(e, D);
			int nd = e->ntree;
			add_tree(e, J);
			int i0 = e->ii[D].idx, ok = 1, nw = 0, nr = 0;
			for (int x = 0; x < nd && ok; x++) {
				int A = e->tree[x], a = e->ii[A].idx;
				if (e->ii[A].b != b || a > i0)
					continue;
				const Inst *an = &b->v[a];
				int fx = e->ii[A].fx;
				if (sk == 1 && (fx & FX_WRITE))
					ok = 0;
				if (sk == 2) {
					if (fx)
						ok = 0;
					for (int k = 0; k < an->narg && ok; k++) {
						int kind = e->f->val[an->arg[k]].kind;
						if ((kind == VK_VAR || kind == VK_PARAM) &&
						    assigns_in(&jn->body, an->arg[k]))
							ok = 0;
					}
				}
				for (int k = a + 1, K = e->ii[A].sib; k < j && ok; k++, K = e->ii[K].sib) {
					const IInfo *kx = &e->ii[K];
					if (kx->dead || kx->mark == e->gen)
						continue;
					if (interferes(e, an, fx, kx->in, kx->fx))
						ok = 0;
				}
			}
			if (!ok)
				continue;
			/* at most one memory write per expression, then no reads */
			for (int x = 0; x < e->ntree; x++) {
				int A = e->tree[x];
				const IInfo *ax = &e->ii[A];
				if (ax->b != b || ax->idx >= j || ax->dead || A == J)
					continue;
				int fx = ax->fx;
				nw += (fx & FX_WRITE) != 0;
				nr += fx == FX_READ;
			}
			if (nw && nw + nr > 1)
				continue;
			e->ii[D].root = J;
		}
	}
}

/* Pass 2: fold what may be folded in f. */
void fold_temps(Emitter *e, const Func *f)
{
	e->tree = xrealloc(e->tree, (size_t)(e->ninst + 1) * sizeof *e->tree);
	if (f->body.n)
		fold_block(e, &f->body, 0);
}
