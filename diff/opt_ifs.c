/*
 * opt_ifs.c: two rewrites of ifs.
 *
 * fuse_ifs: the transform writes the forward sweep's guard and, in the
 * reverse sweep, the replay of it as two ifs on one condition, a variable
 * for each value the first computes and the second reads.  When nothing
 * between them but pure values that neither touches, and the condition is
 * the same value at both, they become one if (`if c {A} else {B}; S; if c
 * {C} else {D}` is `S; if c {A; C} else {B; D}`, and `if not c` the other
 * way round), so what the first computes the second reads in the same
 * block and the later passes can make it a temp.
 *
 * flip_ifs: what the other passes leave as `if c {} else {E}` becomes
 * `if not c {E}` (`if x {E}` when c is `not x`), as a person writes it.
 */
#include <stdlib.h>
#include <string.h>

#include "opt.h"

/* ---- fusing ifs ---- */

/* Mark in set (stamp gen) the values in assigns. */
static int mark_assigned(void *ctx, const Inst *in)
{
	Opt *O = ctx;
	for (int k = 0; k < in->nres; k++)
		O->stamp[in->res[k]] = O->gen;
	return 0;
}

/* Is in a value instruction without effects or memory, that reads nothing
 * marked (assigned by the if it would move above)? */
static int hoistable(const Opt *O, const Inst *in)
{
	if (!ir_inst_pure(in) || !in->nres)
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

typedef struct Nots {
	const Opt *O;
	int *notof;
} Nots;

/* notof[t] = c for each temp t = not c */
static int note_not(void *ctx, const Inst *in)
{
	Nots *n = ctx;
	if (in->op == OP_NOT && V(n->O, in->res[0])->kind == VK_TEMP)
		n->notof[in->res[0]] = in->arg[0];
	return 0;
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
			ir_walk_const(&a->body, mark_assigned, O);
			ir_walk_const(&a->els, mark_assigned, O);
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

void fuse_ifs(Opt *O)
{
	Block *b = &O->f->body;
	ensure(O);
	int *notof = xmalloc((size_t)(O->cap + 1) * sizeof *notof);
	for (int v = 0; v <= O->cap; v++)
		notof[v] = -1;
	Nots n = {O, notof};
	ir_walk_const(b, note_not, &n);
	fuse_block(O, b, notof);
	free(notof);
}

/* ---- flipping ifs ---- */

/* Is v a variable that one of b's statements before index i assigns (a
 * temp has one value)? */
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
static void flip_block(Opt *O, Block *b)
{
	for (int i = 0; i < b->n; i++) {
		Inst *in = &b->v[i];
		flip_block(O, &in->body);
		flip_block(O, &in->els);
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

void flip_ifs(Opt *O) { flip_block(O, &O->f->body); }
