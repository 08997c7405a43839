/*
 * calls.c: the call graph and the effects on memory (calls.h says what
 * they are): each a walk of a body (ir/walk.h), a call looked up in the
 * table of the functions above.
 */
#include <stdlib.h>
#include <string.h>

#include "calls.h"
#include "walk.h"

typedef struct FxWalk {
	const IrEffects *t;
	int mask, fx;
} FxWalk;

static int add_fx(void *ctx, const Inst *in)
{
	FxWalk *w = ctx;
	w->fx |= ir_fx_of(in, w->t) & w->mask;
	return w->fx == w->mask;
}

int ir_block_fx(const Block *b, const IrEffects *t, int mask)
{
	FxWalk w = {t, mask, 0};
	ir_walk_const(b, add_fx, &w);
	return w.fx;
}

void ir_effects_set(IrEffects *t, int fi, int fx)
{
	if (fi >= t->n) {
		int cap = t->n ? t->n : 16;
		while (cap <= fi)
			cap *= 2;
		t->fx = xrealloc(t->fx, (size_t)cap);
		memset(t->fx + t->n, 0, (size_t)(cap - t->n));
		t->n = cap;
	}
	t->fx[fi] = (uint8_t)fx;
}

int ir_effects_note(IrEffects *t, const Module *m, int fi)
{
	int fx = ir_block_fx(&m->fn[fi]->body, t, FX_READ | FX_WRITE | FX_ATOMIC | FX_PRINT);
	ir_effects_set(t, fi, fx);
	return fx;
}

void ir_effects_free(IrEffects *t)
{
	free(t->fx);
	t->fx = NULL;
	t->n = 0;
}

static int mark_call(void *called, const Inst *in)
{
	if (in->op == OP_CALL)
		((uint8_t *)called)[in->callee] = 1;
	return 0;
}

void ir_block_calls(const Block *b, uint8_t *called) { ir_walk_const(b, mark_call, called); }
