/*
 * walk.c: the block walker (walk.h says what it is for): a recursion over
 * the nested blocks, its depth the nesting's, as the hand-written ones
 * it replaces.
 */
#include "walk.h"

int ir_walk_inst(Inst *in, IrVisit visit, void *ctx)
{
	int r = visit(ctx, in);
	if (!r && in->body.n)
		r = ir_walk(&in->body, visit, ctx);
	if (!r && in->els.n)
		r = ir_walk(&in->els, visit, ctx);
	return r;
}

int ir_walk(Block *b, IrVisit visit, void *ctx)
{
	for (int i = 0; i < b->n; i++) {
		int r = ir_walk_inst(&b->v[i], visit, ctx);
		if (r)
			return r;
	}
	return 0;
}

int ir_walk_inst_const(const Inst *in, IrVisitConst visit, void *ctx)
{
	int r = visit(ctx, in);
	if (!r && in->body.n)
		r = ir_walk_const(&in->body, visit, ctx);
	if (!r && in->els.n)
		r = ir_walk_const(&in->els, visit, ctx);
	return r;
}

int ir_walk_const(const Block *b, IrVisitConst visit, void *ctx)
{
	for (int i = 0; i < b->n; i++) {
		int r = ir_walk_inst_const(&b->v[i], visit, ctx);
		if (r)
			return r;
	}
	return 0;
}
