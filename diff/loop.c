/*
 * loop.c: loops (for, and loop for while), whose reverse needs more than
 * one record.  The forward sweep runs a loop plainly (plain_block: its
 * variables mapped to state variables, no fresh one per definition),
 * counting its trips T, and in a kernel keeps on the thread's tape, as
 * checkpoints, the state trips begin with, every trip's while there is
 * room.  The reverse, for each trip k from T-1 down to 0, goes back to
 * the nearest checkpoint, recomputes the trips from there up to k
 * plainly, then runs trip k's own forward and reverse sweep (forward.c,
 * reverse.c), the adjoint of the carried state going from trip to trip.
 * O(T) with every trip kept, O(T^2) at worst (a wp.func has no tape),
 * exact either way (doc/autodiff.md, "Loops").
 */
#include <string.h>

#include "diff_int.h"

/* What the reverse of a loop needs from its forward run (an R_LOOP
 * record's). */
struct LoopRec {
	const Inst *in;
	int32_t *entry; /* the environment at loop entry */
	int *car, ncar; /* the variables the body assigns (original ids) */
	uint8_t *kind;  /* per car[k]: C_* */
	int32_t *s;     /* their state variables (values after the loop) */
	int T;          /* trip count */
	int lo, hi, step;
	int depth; /* loop depth of the body */
	int h;     /* the tape handle (tape_loop's result), or -1 */
};

/* How a variable the body of a loop assigns goes round it: C_IN, a trip
 * reads the value the trip before left (it is restored, from a checkpoint);
 * C_OUT, the code after the loop reads it; neither: it lives in one trip. */
enum { C_IN = 1, C_OUT = 2 };

/* ---- which variables go round a loop ----------------------------------- */

static int count_mention(void *n, const Inst *in)
{
	for (int k = 0; k < in->nres; k++)
		((int *)n)[in->res[k]]++;
	for (int k = 0; k < in->narg; k++)
		((int *)n)[in->arg[k]]++;
	return 0;
}

/* count, per value, the instructions of b that name it */
void count_mentions(const Block *b, int *n) { ir_walk_const(b, count_mention, n); }

typedef struct LoopId {
	const Inst *in;
	int next; /* the loops walked before it */
} LoopId;

static int loops_before(void *ctx, const Inst *x)
{
	LoopId *l = ctx;
	if (x == l->in)
		return 1;
	if (ir_op_loop(x->op))
		l->next++;
	return 0;
}

/* The tape ID of loop in: its number in the walk of the function. */
static int loop_id(const D *d, const Inst *in)
{
	LoopId l = {in, 0};
	return ir_walk_const(&d->f->body, loops_before, &l) ? l.next : -1;
}

/* How each variable the body of loop in assigns goes round it (C_*). */
static void classify(D *d, const Inst *in, LoopRec *L)
{
	int *inside = salloc(d, (size_t)d->f->nval * sizeof *inside);
	count_mentions(&in->body, inside);
	L->kind = salloc(d, (size_t)(L->ncar + 1));
	for (int k = 0; k < L->ncar; k++) {
		int x = L->car[k], def;
		L->kind[k] = (uint8_t)((diff_exposed(&in->body, x, &def) ? C_IN : 0) |
				       (d->mentions[x] > inside[x] ? C_OUT : 0));
	}
}

/* ---- plain code (loop runs and recomputation) -------------------------- */

/* Emit b as ordinary forward code: variables map to the loop's state
 * variables in env (overwritten in place), temps get fresh temps.  Stores
 * and atomics are left out (their arrays are never loaded; see the rules
 * in check_kernel).  A ret sets done and leaves the loop being run. */
static void plain_block(D *d, const Block *b, int32_t *env, Block *out, int count)
{
	for (int i = 0; i < b->n; i++) {
		const Inst *in = &b->v[i];
		int32_t args[256], res[256];
		switch (in->op) {
		case OP_STORE:
		case OP_STORE_COMP:
		case OP_TILE_STORE:
		case OP_TILE_STORE_INDEXED:
			continue;
		case OP_BREAK:
		case OP_CONTINUE:
			emit(d, out, in->op, NULL, 0, NULL, 0, in->loc);
			return;
		case OP_RET:
			for (int k = 0; k < in->narg; k++)
				mov(d, out, d->ret_var[k], map(d, env, in->arg[k]), in->loc);
			set_bool(d, out, d->done_var, 1, in->loc);
			emit(d, out, OP_BREAK, NULL, 0, NULL, 0, in->loc);
			return;
		case OP_IF: {
			int c = map(d, env, in->arg[0]);
			Block t = {0}, e = {0};
			plain_block(d, &in->body, env, &t, count);
			plain_block(d, &in->els, env, &e, count);
			Inst *ni = emit(d, out, OP_IF, NULL, 0, &c, 1, in->loc);
			ni->body = t;
			ni->els = e;
			continue;
		}
		case OP_FOR:
		case OP_LOOP: {
			Block body = {0};
			int na = 0, j = -1;
			if (in->op == OP_FOR) {
				for (int k = 0; k < 3; k++)
					args[k] = map(d, env, in->arg[k]);
				na = 3;
				j = fresh_named(d, d->f->val[in->res[0]].name, TY_INT, 1);
				env[in->res[0]] = j;
			}
			if (count) {
				/* measuring: this loop keeps its checkpoints when its
				 * outer loop's trip is differentiated; count them */
				int id = ir_const_int(d->m, d->g, loop_id(d, in));
				emit(d, &body, OP_TAPE_COUNT, NULL, 0, &id, 1, in->loc);
			}
			plain_block(d, &in->body, env, &body, count);
			Inst *ni = emit(d, out, in->op, &j, j >= 0, args, na, in->loc);
			ni->body = body;
			if (has_ret(&in->body)) {
				Block t = {0};
				emit(d, &t, OP_BREAK, NULL, 0, NULL, 0, in->loc);
				ni = emit(d, out, OP_IF, NULL, 0, &d->done_var, 1, in->loc);
				ni->body = t;
			}
			continue;
		}
		}
		if (forward_only(in))
			continue;
		for (int k = 0; k < in->narg; k++)
			args[k] = map(d, env, in->arg[k]);
		for (int k = 0; k < in->nres; k++) {
			int r = in->res[k];
			if (d->f->val[r].kind == VK_TEMP)
				env[r] = ir_temp(d->m, d->g, d->f->val[r].ty);
			else if (env[r] < 0)
				ks_fatal("kdiff: internal error: %s is not loop state", d->f->val[r].name);
			res[k] = env[r];
		}
		Inst *ni = emit(d, out, in->op, res, in->nres, args, in->narg, in->loc);
		ni->callee = in->op == OP_CALL ? (int32_t)d->pure[in->callee] : in->callee;
	}
}

/* ---- the forward sweep of a loop --------------------------------------- */

/* Forward sweep of a loop: run it plainly on state variables, counting
 * its trips T, and in a kernel keep on the tape, as checkpoints, the state
 * that trips begin with (tape_keep says which: every one while there is
 * room, then fewer). */
void tape_loop(D *d, const Inst *in, int32_t *cur, Block *out, Tape *tp, Region *rg)
{
	LoopRec *L = salloc(d, sizeof *L);
	L->in = in;
	L->depth = rg->depth + 1;
	L->h = -1;
	uint8_t *mark = salloc(d, (size_t)d->f->nval);
	assigned(d, &in->body, mark);
	L->car = salloc(d, (size_t)d->f->nval * sizeof *L->car);
	L->s = salloc(d, (size_t)d->f->nval * sizeof *L->s);
	for (int v = 0; v < d->f->nval; v++)
		if (mark[v]) {
			L->s[L->ncar] = fresh(d, v, d->f->val[v].ty);
			L->car[L->ncar++] = v;
		}
	classify(d, in, L);
	L->entry = env_copy(d, cur);
	int32_t *env = env_copy(d, cur);
	for (int k = 0; k < L->ncar; k++) {
		int x = L->car[k];
		if (L->kind[k] && cur[x] >= 0)
			mov(d, out, L->s[k], cur[x], in->loc);
		env[x] = L->s[k];
	}
	L->T = fresh_named(d, "trips", TY_INT, 0);
	mov(d, out, L->T, ir_const_int(d->m, d->g, 0), in->loc);
	if (d->tape) {
		const char *jn = in->op == OP_FOR ? d->f->val[in->res[0]].name : NULL;
		char base[140];
		snprintf(base, sizeof base, "%.120s_loop", jn ? jn : "while");
		/* zeroed at the top like any variable of the sweeps: the
		 * reverse may use it in an if apart from the one it is set in */
		L->h = fresh_named(d, base, TY_INT, 0);
		note(d, L->h, NULL, DV_SOURCE);
		int id = ir_const_int(d->m, d->g, loop_id(d, in));
		emit(d, out, OP_TAPE_LOOP, &L->h, 1, &id, 1, in->loc);
		d->nloop++;
	}
	int32_t args[3];
	int j = -1, na = 0;
	if (in->op == OP_FOR) {
		L->lo = args[0] = map(d, cur, in->arg[0]);
		L->hi = args[1] = map(d, cur, in->arg[1]);
		L->step = args[2] = map(d, cur, in->arg[2]);
		na = 3;
		j = fresh_named(d, d->f->val[in->res[0]].name, TY_INT, 1);
		note(d, j, NULL, DV_SOURCE);
		env[in->res[0]] = j;
	}
	Block body = {0};
	if (L->h >= 0) {
		/* keep the state trip T begins with? */
		int keep = ir_temp(d->m, d->g, TY_BOOL);
		emit(d, &body, OP_TAPE_KEEP, &keep, 1, (int32_t[]){L->h, L->T}, 2, in->loc);
		Block put = {0};
		for (int k = 0, slot = 0; k < L->ncar; k++)
			if (L->kind[k] & C_IN)
				emit(d, &put, OP_TAPE_PUT, NULL, 0,
				     (int32_t[]){L->h, ir_const_int(d->m, d->g, slot++), L->s[k]}, 3, in->loc);
		Inst *ni = emit(d, &body, OP_IF, NULL, 0, &keep, 1, in->loc);
		ni->body = put;
	}
	int32_t inc[2] = {L->T, ir_const_int(d->m, d->g, 1)};
	emit(d, &body, OP_ADD, &L->T, 1, inc, 2, in->loc);
	plain_block(d, &in->body, env, &body, d->tape);
	Inst *ni = emit(d, out, in->op, &j, j >= 0, args, na, in->loc);
	ni->body = body;
	for (int k = 0; k < L->ncar; k++)
		cur[L->car[k]] = L->s[k];
	Rec *r = rec(d, tp, R_LOOP, in->loc);
	r->L = L;
}

/* ---- the reverse of a loop --------------------------------------------- */

/* The reverse of a loop of T trips:
 *
 *     for it = T-1 down to 0:
 *         from = the trip of the checkpoint it goes back to (tape_back)
 *         r = that checkpoint's state (tape_get; the loop's entry values
 *             when from is 0)
 *         run trips from .. it-1 plainly on r (none when every trip's
 *             state was kept)
 *         run trip it's forward sweep, then its reverse sweep: its final
 *             values' adjoints are A, and A becomes the adjoints of r
 *     the loop's entry values get A
 *
 * Without a tape (a wp.func) from is 0: every trip is recomputed from the
 * loop's entry, O(T^2). */
void rev_loop(D *d, LoopRec *L, Block *out, Loc loc)
{
	const Inst *in = L->in;
	int nf = 0;
	int *fk = salloc(d, (size_t)(L->ncar + 1) * sizeof *fk);
	for (int k = 0; k < L->ncar; k++)
		if (L->kind[k] && diff_floaty(d->f->val[L->car[k]].ty))
			fk[nf++] = k;
	/* A[x]: the adjoint of the carried state, from the end backwards */
	int32_t *A = salloc(d, (size_t)(nf + 1) * sizeof *A);
	for (int q = 0; q < nf; q++) {
		int k = fk[q];
		/* named after the state variable: adj_p */
		const char *cn = d->f->val[L->car[k]].name;
		char an[140];
		snprintf(an, sizeof an, "adj_%.120s", cn ? cn : "carry");
		A[q] = fresh_named(d, an, d->f->val[L->car[k]].ty, 0);
		note(d, A[q], NULL, DV_DERIV);
		int as = adjof(d, L->s[k]);
		mov(d, out, A[q], as, loc);
		zero_adj(d, out, L->s[k], loc);
	}
	/* the trip: its loop variable's value is lo + it * step */
	int isfor = in->op == OP_FOR;
	int simple = isfor && d->g->val[L->lo].kind == VK_CONST && d->g->val[L->lo].k.i == 0 &&
		     d->g->val[L->step].kind == VK_CONST && d->g->val[L->step].k.i == 1;
	int it = fresh_named(d, simple ? d->f->val[in->res[0]].name : "trip", TY_INT, 1);
	note(d, it, NULL, simple ? DV_SOURCE : 0);
	Block body = {0};
	int from;
	{
		DiffEmit e = de(d, &body, loc);
		if (L->h >= 0) {
			from = diff_op(&e, OP_TAPE_BACK, (int32_t[]){L->h, it}, 2, TY_INT);
		} else {
			from = ir_const_int(d->m, d->g, 0);
		}
	}
	/* the state trip `from` begins with */
	int32_t *r = salloc(d, (size_t)(L->ncar + 1) * sizeof *r);
	int32_t *env = env_copy(d, L->entry);
	for (int k = 0, slot = 0; k < L->ncar; k++) {
		int x = L->car[k];
		r[k] = fresh(d, x, d->f->val[x].ty);
		if ((L->kind[k] & C_IN) && L->entry[x] >= 0) {
			if (L->h >= 0) {
				Inst *g = emit(d, &body, OP_TAPE_GET, &r[k], 1,
					       (int32_t[]){L->h, ir_const_int(d->m, d->g, slot), L->entry[x]}, 3,
					       loc);
				(void)g;
			} else {
				mov(d, &body, r[k], L->entry[x], loc);
			}
		}
		if (L->kind[k] & C_IN)
			slot++;
		env[x] = r[k];
	}
	/* recompute trips from .. it-1 */
	set_bool(d, &body, d->done_var, 0, loc);
	{
		Block rb = {0};
		int32_t *penv = env_copy(d, env);
		int rr = fresh_named(d, "redo", TY_INT, 1);
		if (isfor) {
			int jv;
			if (simple) {
				jv = rr;
			} else {
				DiffEmit e = de(d, &rb, in->loc);
				int t = diff_op(&e, OP_MUL, (int32_t[]){rr, L->step}, 2, TY_VOID);
				jv = diff_op(&e, OP_ADD, (int32_t[]){L->lo, t}, 2, TY_VOID);
			}
			penv[in->res[0]] = jv;
		}
		plain_block(d, &in->body, penv, &rb, 0);
		int32_t args[3] = {from, it, ir_const_int(d->m, d->g, 1)};
		Inst *ni = emit(d, &body, OP_FOR, &rr, 1, args, 3, in->loc);
		ni->body = rb;
	}
	/* trip it's forward sweep */
	set_bool(d, &body, d->done_var, 0, loc);
	Region rg = {0};
	rg.E = fresh_named(d, "exited", TY_BOOL, 0);
	rg.iter = 1;
	rg.depth = L->depth;
	set_bool(d, &body, rg.E, 0, loc);
	int32_t *ienv = env_copy(d, env);
	if (isfor) {
		int jv = it;
		if (!simple) {
			jv = fresh(d, in->res[0], TY_INT);
			DiffEmit e = de(d, &body, loc);
			int t = diff_op(&e, OP_MUL, (int32_t[]){it, L->step}, 2, TY_VOID);
			emit(d, &body, OP_ADD, &jv, 1, (int32_t[]){L->lo, t}, 2, loc);
		}
		ienv[in->res[0]] = jv;
	}
	Hook *h = salloc(d, sizeof *h);
	h->orig = salloc(d, (size_t)(nf + 1) * sizeof *h->orig);
	h->dst = salloc(d, (size_t)(nf + 1) * sizeof *h->dst);
	for (int q = 0; q < nf; q++) {
		int x = L->car[fk[q]];
		h->orig[h->n] = x;
		h->dst[h->n++] = fresh(d, x, d->f->val[x].ty);
	}
	rg.out = h;
	Tape *tape = tape_new(d);
	tape_block(d, &in->body, 0, ienv, &body, tape, &rg, h);
	/* ... and its reverse sweep */
	for (int q = 0; q < nf; q++)
		mov(d, &body, adjof(d, h->dst[q]), A[q], loc);
	rev_tape(d, tape, &body);
	for (int q = 0; q < nf; q++) {
		int k = fk[q];
		mov(d, &body, A[q], adjof(d, r[k]), loc);
		zero_adj(d, &body, r[k], loc);
	}
	/* for it = T-1 down to 0 */
	DiffEmit e = de(d, out, loc);
	int last = diff_op(&e, OP_SUB, (int32_t[]){L->T, ir_const_int(d->m, d->g, 1)}, 2, TY_VOID);
	int32_t args[3] = {last, ir_const_int(d->m, d->g, -1), ir_const_int(d->m, d->g, -1)};
	Inst *ni = emit(d, out, OP_FOR, &it, 1, args, 3, loc);
	ni->body = body;
	for (int q = 0; q < nf; q++) {
		int x = L->car[fk[q]];
		if (L->entry[x] >= 0)
			acc(d, out, L->entry[x], A[q], loc);
	}
}
