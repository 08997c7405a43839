/*
 * run_fill.c: krun --sentinel, the arrays a kernel only stores to filled
 * with a pattern before the launch, in place of the input law's values.
 *
 * An output that a kernel's code leaves unwritten holds whatever was in
 * its buffer: under the input law, random values that no other code
 * computes, so a comparison with a reference run already fails; but an
 * evaluation (doc/eval.md) wants to name it, and a buffer of a value no
 * computation gives does.  Only the arrays of the kernel's IR (the
 * reference's signature) that are stored to and never read are filled:
 * every use of the parameter is the array of a `store` (not a load, an
 * atomic, a component store, a tile access or a call, which read it or
 * keep part of it), so the reference's own outputs do not depend on what
 * was there.  Kernels with struct parameters are left as they are (their
 * arrays are fields, flattened by run_flat).
 */
#include "run.h"

#include "../ir/walk.h"

#include <stdlib.h>

typedef struct Uses {
	int32_t v;
	int read, stored; /* a use other than a store's array; a store to it */
} Uses;

static int use_of(void *ctx, const Inst *in)
{
	Uses *u = ctx;
	for (int k = 0; k < in->narg; k++)
		if (in->arg[k] == u->v) {
			if (in->op == OP_STORE && k == 0)
				u->stored = 1;
			else
				u->read = 1;
		}
	return u->read;
}

/* Is parameter i of f an array that f stores to and never reads? */
static int store_only(const Func *f, int i)
{
	if (!ty_is_array(f->val[f->param[i]].ty))
		return 0;
	Uses u = {f->param[i], 0, 0};
	ir_walk_const(&f->body, use_of, &u);
	return u.stored && !u.read;
}

int run_sentinel_fill(const Func *f, RunArgs *a)
{
	for (int i = 0; i < f->nparam; i++)
		if (ty_is_struct(f->val[f->param[i]].ty))
			return 0;
	int filled = 0;
	for (int i = 0; i < f->nparam && i < a->n; i++) {
		if (!a->buf[i] || !store_only(f, i))
			continue;
		Type e = ty_elem(f->val[f->param[i]].ty), s = ty_scalar(e);
		if (ty_is_struct(e) || !(ty_is_float(s) || (ty_is_int(s) && run_size(s, 0) >= 2)))
			continue;
		size_t nc = a->count[i] * (size_t)ty_ncomp(e);
		for (size_t c = 0; c < nc; c++)
			run_put(s, 0, a->buf[i], c, RUN_SENTINEL);
		filled++;
	}
	return filled;
}
