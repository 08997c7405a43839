/*
 * live.c: liveness over the structured IR, and the dead code it finds.
 *
 * The walk goes backwards through a function's body from what is live at
 * its end (nothing: the results leave by ret), one bit per value: an if
 * joins what is live in its branches, a loop iterates to a fixed point at
 * its head (what is live after a break is what is live after the loop,
 * after a continue what is live at the head; a for loop's head is also
 * reached when it exits), ret makes only its operands live.
 *
 * live_prune drops, on the way, every instruction that may go (no
 * control, no effects: ir_inst_removable, a call by the simplifier's
 * table) whose results nothing reads, so an adjoint zeroed after its last
 * use or an init overwritten before any read goes; and ifs and loops left
 * empty, or doing nothing (no effects, and nothing they assign read after
 * them).  live_scan walks the same way and only reports what is live
 * after each instruction: the simplifier finds there which variables may
 * share one (opt_share.c).
 *
 * The emitters' dead code (emit/live.c) asks the same question of an
 * instruction but is another analysis: it counts the reads of each value
 * by the live instructions anywhere in the function, so it keeps an
 * assignment overwritten before any read when the variable is read
 * elsewhere, and loops and ifs however little they do; it drops what
 * follows a ret, break or continue, which this walk keeps when it may
 * not go; and it keeps an instruction of no results that may go (a call
 * of a func that returns nothing and writes nothing), which this walk
 * drops.  They are kept apart so that what each prints stays as it is.
 */
#include <stdlib.h>
#include <string.h>

#include "live.h"
#include "ir/walk.h"

/* The walk's state: the function's calls that may write, the set size,
 * the visitor, and whether something was dropped. */
typedef struct Live {
	const Func *f;
	const IrEffects *callfx;
	int words; /* LiveWords per set */
	LiveVisit visit;
	void *ctx;
	int changed;
} Live;

/* The loop being walked: what is live at its exit and its head. */
typedef struct LLoop {
	const LiveWord *brk, *cont;
} LLoop;

static LiveWord *bnew(const Live *L)
{
	LiveWord *w = xmalloc((size_t)(L->words ? L->words : 1) * sizeof *w);
	memset(w, 0, (size_t)(L->words ? L->words : 1) * sizeof *w);
	return w;
}

static LiveWord *bdup(const Live *L, const LiveWord *s)
{
	LiveWord *w = bnew(L);
	memcpy(w, s, (size_t)L->words * sizeof *w);
	return w;
}

static void bset(LiveWord *w, int v) { w[v >> 6] |= (LiveWord)1 << (v & 63); }
static void bclr(LiveWord *w, int v) { w[v >> 6] &= ~((LiveWord)1 << (v & 63)); }

static void bor(const Live *L, LiveWord *d, const LiveWord *s)
{
	for (int i = 0; i < L->words; i++)
		d[i] |= s[i];
}

static int beq(const Live *L, const LiveWord *a, const LiveWord *b)
{
	return !memcmp(a, b, (size_t)L->words * sizeof *a);
}

static void use(const Live *L, LiveWord *live, int v)
{
	if (L->f->val[v].kind != VK_CONST)
		bset(live, v);
}

static int removable(const Live *L, const Inst *in) { return ir_inst_removable(in, L->callfx); }

/* Does in do anything but compute values or hold what may (a store, an
 * atomic, a call that writes, a ret, the tape)? */
static int effect(void *L, const Inst *in)
{
	if (ir_op_blocks(in->op) || in->op == OP_BREAK || in->op == OP_CONTINUE)
		return 0;
	return !removable(L, in);
}

static int has_effects(Live *L, const Block *b) { return ir_walk_const(b, effect, L); }

/* Does in assign a value of the set live? */
static int assigns_live(void *live, const Inst *in)
{
	for (int k = 0; k < in->nres; k++)
		if (live_has(live, in->res[k]))
			return 1;
	return 0;
}

static int any_assigned_live(const Block *b, LiveWord *live) { return ir_walk_const(b, assigns_live, live); }

static void live_block(Live *L, Block *b, LiveWord *live, int rw, const LLoop *lc);

/* Returns 1 when the loop does nothing and goes (rw). */
static int live_loop(Live *L, Inst *in, LiveWord *live, int rw)
{
	int isfor = in->op == OP_FOR;
	LiveWord *out = bdup(L, live), *H = bnew(L);
	if (isfor)
		bor(L, H, out);
	for (;;) {
		LLoop lc = {out, H};
		LiveWord *x = bdup(L, H);
		live_block(L, &in->body, x, 0, &lc);
		if (isfor)
			bor(L, x, out);
		int same = beq(L, x, H);
		free(H);
		H = x;
		if (same)
			break;
	}
	if (rw == 1 && !has_effects(L, &in->body) && !any_assigned_live(&in->body, out)) {
		L->changed = 1;
		free(out);
		free(H);
		return 1;
	}
	LLoop lc = {out, H};
	LiveWord *x = bdup(L, H);
	if (L->visit && isfor && rw)
		L->visit(L->ctx, in, H);
	live_block(L, &in->body, x, rw, &lc);
	free(x);
	if (rw == 1 && !in->body.n) {
		L->changed = 1;
		free(out);
		free(H);
		return 1;
	}
	memcpy(live, H, (size_t)L->words * sizeof *live);
	if (isfor) {
		bclr(live, in->res[0]);
		for (int k = 0; k < 3; k++)
			use(L, live, in->arg[k]);
	}
	free(out);
	free(H);
	return 0;
}

/* Walk b backwards from what is live after it (live, updated to what is
 * live before it).  rw 1: drop what nothing reads (live_prune); 2: visit
 * (live_scan); 0: neither (a trip towards a loop's fixed point). */
static void live_block(Live *L, Block *b, LiveWord *live, int rw, const LLoop *lc)
{
	uint8_t *del = rw && b->n ? xmalloc((size_t)b->n) : NULL;
	if (del)
		memset(del, 0, (size_t)b->n);
	for (int i = b->n - 1; i >= 0; i--) {
		Inst *in = &b->v[i];
		switch (in->op) {
		case OP_IF: {
			LiveWord *t = bdup(L, live), *e = bdup(L, live);
			live_block(L, &in->body, t, rw, lc);
			live_block(L, &in->els, e, rw, lc);
			if (rw == 1 && !in->body.n && !in->els.n) {
				del[i] = 1;
				L->changed = 1;
			} else {
				memcpy(live, t, (size_t)L->words * sizeof *live);
				bor(L, live, e);
				use(L, live, in->arg[0]);
			}
			free(t);
			free(e);
			continue;
		}
		case OP_FOR:
		case OP_LOOP:
			if (live_loop(L, in, live, rw))
				del[i] = 1;
			continue;
		case OP_BREAK:
			if (lc)
				memcpy(live, lc->brk, (size_t)L->words * sizeof *live);
			continue;
		case OP_CONTINUE:
			if (lc)
				memcpy(live, lc->cont, (size_t)L->words * sizeof *live);
			continue;
		case OP_RET:
			memset(live, 0, (size_t)L->words * sizeof *live);
			for (int k = 0; k < in->narg; k++)
				use(L, live, in->arg[k]);
			continue;
		}
		if (removable(L, in)) {
			int any = 0;
			for (int k = 0; k < in->nres; k++)
				any |= live_has(live, in->res[k]);
			if (!any) {
				if (rw == 1) {
					del[i] = 1;
					L->changed = 1;
				}
				continue;
			}
		}
		if (L->visit && rw)
			L->visit(L->ctx, in, live);
		for (int k = 0; k < in->nres; k++)
			bclr(live, in->res[k]);
		for (int k = 0; k < in->narg; k++)
			use(L, live, in->arg[k]);
	}
	if (del) {
		int n = 0;
		for (int i = 0; i < b->n; i++)
			if (!del[i])
				b->v[n++] = b->v[i];
		b->n = n;
		free(del);
	}
}

static int walk(Func *f, const IrEffects *callfx, int rw, LiveVisit visit, void *ctx)
{
	Live L = {f, callfx, (f->nval + 63) / 64, visit, ctx, 0};
	LiveWord *live = bnew(&L);
	live_block(&L, &f->body, live, rw, NULL);
	free(live);
	return L.changed;
}

int live_prune(Func *f, const IrEffects *callfx) { return walk(f, callfx, 1, NULL, NULL); }

void live_scan(Func *f, const IrEffects *callfx, LiveVisit visit, void *ctx) { walk(f, callfx, 2, visit, ctx); }
