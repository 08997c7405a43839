/*
 * opt_sink.c: moving inits down.
 *
 * The transform zeroes every variable it makes at the top of the
 * function.  An init there, in the function's own block, that is the
 * first mention of its variable moves down to just before the first
 * statement that mentions it; into the branch of an if when that if is the
 * only such statement and one branch alone mentions it; into a loop when
 * the loop is, its bounds do not read the variable, and its trips do not
 * carry the value from one to the next (diff_exposed).  The emitters
 * declare a variable where it is first assigned, so the declaration goes
 * there too, as a person would write it.
 *
 * diff_exposed, the question of that last case, is also the transform's
 * (diff.c: which variables a loop carries).
 */
#include <stdlib.h>
#include <string.h>

#include "opt.h"

/* Mark (stamp gen) the values in mentions. */
static int mark_mentioned(void *ctx, const Inst *in)
{
	Opt *O = ctx;
	for (int k = 0; k < in->nres; k++)
		O->stamp[in->res[k]] = O->gen;
	for (int k = 0; k < in->narg; k++)
		O->stamp[in->arg[k]] = O->gen;
	return 0;
}

static int mentions_args(const Inst *in, int v)
{
	for (int k = 0; k < in->narg; k++)
		if (in->arg[k] == v)
			return 1;
	return 0;
}

static int block_mentions(const Block *b, int v)
{
	for (int i = 0; i < b->n; i++)
		if (mentions(&b->v[i], v))
			return 1;
	return 0;
}

/* May v be read in b before b assigns it, on some path from b's start?
 * *def: does every path through b assign it? */
int diff_exposed(const Block *b, int v, int *def)
{
	*def = 0;
	for (int i = 0; i < b->n; i++) {
		const Inst *in = &b->v[i];
		for (int k = 0; k < in->narg; k++)
			if (in->arg[k] == v)
				return 1;
		int dt, de;
		switch (in->op) {
		case OP_IF:
			if (diff_exposed(&in->body, v, &dt) || diff_exposed(&in->els, v, &de))
				return 1;
			if (dt && de) {
				*def = 1;
				return 0;
			}
			break;
		case OP_FOR:
		case OP_LOOP:
			if (diff_exposed(&in->body, v, &dt))
				return 1;
			break;
		case OP_BREAK:
		case OP_CONTINUE:
		case OP_RET:
			return 0;
		default:
			for (int k = 0; k < in->nres; k++)
				if (in->res[k] == v) {
					*def = 1;
					return 0;
				}
		}
	}
	return 0;
}

/* Put init into b, just before the first statement from index `from` on
 * that mentions its variable; into the branch of an if when that if is the
 * only such statement and only one branch mentions it; into a loop when
 * the loop is and its trips do not carry the value from one to the next. */
static void place(Opt *O, Block *b, int from, Inst init)
{
	int v = init.res[0], first = -1, count = 0;
	for (int i = from; i < b->n; i++)
		if (mentions(&b->v[i], v)) {
			if (first < 0)
				first = i;
			count++;
		}
	if (first < 0)
		return; /* nothing reads it */
	Inst *at = &b->v[first];
	if (count == 1 && at->op == OP_IF && at->arg[0] != v) {
		int t = block_mentions(&at->body, v), e = block_mentions(&at->els, v);
		if (t != e) {
			place(O, t ? &at->body : &at->els, 0, init);
			return;
		}
	}
	int d;
	if (count == 1 && ir_op_loop(at->op) && !mentions_args(at, v) && !diff_exposed(&at->body, v, &d)) {
		place(O, &at->body, 0, init);
		return;
	}
	init.loc = at->loc;
	insert_at(O, b, first, &init);
}

/* The inits at the top of the function (the first mention of their
 * variable) go down to where they are needed. */
void sink_inits(Opt *O)
{
	Block *b = &O->f->body;
	Inst *init = xmalloc((size_t)(b->n + 1) * sizeof *init);
	int ni = 0, n = 0;
	O->gen++;
	for (int i = 0; i < b->n; i++) {
		Inst *in = &b->v[i];
		if (is_init(O, in) && O->stamp[in->res[0]] != O->gen) {
			init[ni++] = *in;
			O->stamp[in->res[0]] = O->gen;
			continue;
		}
		/* a variable this statement mentions is not first mentioned
		 * by an init further down */
		ir_walk_inst_const(in, mark_mentioned, O);
		b->v[n++] = *in;
	}
	b->n = n;
	for (int k = 0; k < ni; k++)
		place(O, b, 0, init[k]);
	free(init);
}
