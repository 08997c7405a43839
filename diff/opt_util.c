/*
 * opt_util.c: what the simplifier's passes share: the per-value arrays
 * and the constants a pass makes (each new value grows the arrays), tests
 * of constants, the questions a pass asks of an instruction and what it
 * holds (does it assign v, read v, mention v; is it a variable's init),
 * the insertion of instructions into a block, and the liveness pass, over
 * live.c.
 */
#include <stdlib.h>
#include <string.h>

#include "opt.h"

/* ---- values ---- */

void ensure(Opt *O)
{
	int n = O->f->nval;
	if (n <= O->cap)
		return;
	int cap = O->cap ? O->cap : 64;
	while (cap < n)
		cap *= 2;
	O->stamp = xrealloc(O->stamp, (size_t)cap * sizeof *O->stamp);
	for (int i = O->cap; i < cap; i++)
		O->stamp[i] = 0;
	O->cap = cap;
}

int kfloat(Opt *O, float x)
{
	int k = ir_const_float(O->m, O->f, x);
	ensure(O);
	return k;
}

int kint(Opt *O, int32_t x)
{
	int k = ir_const_int(O->m, O->f, x);
	ensure(O);
	return k;
}

int kbool(Opt *O, int x)
{
	int k = ir_const_bool(O->m, O->f, x);
	ensure(O);
	return k;
}

int kzero(Opt *O, Type t)
{
	int k = ir_const(O->m, O->f, t, 0, 0.0);
	ensure(O);
	return k;
}

int const_is(const Opt *O, int v, float x)
{
	const Value *c = V(O, v);
	if (c->kind != VK_CONST)
		return 0;
	if (ty_is_float(c->ty))
		return c->k.f == x;
	return c->ty != TY_BOOL && c->k.i == (int64_t)x;
}

int const_eq(const Opt *O, int a, int b)
{
	const Value *x = V(O, a), *y = V(O, b);
	if (x->ty != y->ty)
		return 0;
	if (ty_is_float(x->ty))
		return !memcmp(&x->k.f, &y->k.f, sizeof x->k.f);
	return x->k.i == y->k.i;
}

/* ---- instructions and blocks ---- */

/* Does one instruction (not what it holds) name *v as an operand, as a
 * result, either? */
static int arg_is(void *v, const Inst *in)
{
	for (int k = 0; k < in->narg; k++)
		if (in->arg[k] == *(int *)v)
			return 1;
	return 0;
}

static int res_is(void *v, const Inst *in)
{
	for (int k = 0; k < in->nres; k++)
		if (in->res[k] == *(int *)v)
			return 1;
	return 0;
}

static int names(void *v, const Inst *in) { return res_is(v, in) || arg_is(v, in); }

int names_arg(const Inst *in, int v) { return ir_walk_inst_const(in, arg_is, &v); }

int assigns(const Inst *in, int v) { return ir_walk_inst_const(in, res_is, &v); }

int mentions(const Inst *in, int v) { return ir_walk_inst_const(in, names, &v); }

int is_init(const Opt *O, const Inst *in)
{
	if (in->nres != 1 || !is_var(O, in->res[0]))
		return 0;
	if (in->op == OP_MAKE && in->narg == 0)
		return 1;
	return in->op == OP_MOV && is_const(O, in->arg[0]);
}

Inst *append(Opt *O, Block *out, const Inst *in)
{
	arena_extend(&O->m->arena, (void **)&out->v, &out->cap, out->n + 1, sizeof *out->v);
	out->v[out->n] = *in;
	return &out->v[out->n++];
}

void insert_at(Opt *O, Block *b, int at, const Inst *in)
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

/* ---- the liveness pass ---- */

void live_pass(Opt *O)
{
	if (live_prune(O->f, O->di->callfx))
		O->changed = 1;
}
