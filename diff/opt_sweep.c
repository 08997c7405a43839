/*
 * opt_sweep.c: mark and sweep from what has effects, the tape included.
 *
 * Liveness (live.c) keeps an assignment when something reads it later,
 * so a variable that only feeds itself round a loop (an adjoint
 * accumulated and never used) stays live.  This pass marks instead from
 * the roots, the instructions with effects (stores, atomics, calls that
 * write, printf, ret): an instruction marked marks the definitions of what
 * it reads, the if or loop holding it, and a loop marked its breaks and
 * continues.  What is left unmarked goes: values that feed no effect,
 * loops and ifs that do nothing.
 *
 * Tape checkpoints (diff.c, doc/autodiff.md) are kept per loop ID and
 * slot (`tape_put %h, SLOT, %x` and `tape_get %h, SLOT, ...`): a slot is
 * kept only if a get of it is marked, and then its puts are; a loop's
 * tape operations are kept when one of its gets is.  The slots left are
 * renumbered from 0; the whole tape (tape_open) goes when no loop keeps
 * anything, and tape_measured is then false.
 */
#include <stdlib.h>
#include <string.h>

#include "opt.h"

typedef struct Node {
	Inst *in;
	int parent; /* enclosing if or loop, or -1 */
	int loop;   /* innermost enclosing loop, or -1 */
} Node;

typedef struct Sweep {
	Opt *O;
	Node *node;
	int nn, capn;
	int *defstart, *defs; /* per value: its defining nodes */
	uint8_t *ess;         /* per node: marked */
	uint8_t *need;        /* per value: are its definitions marked? */
	int *work, nwork;
	int *exits; /* break/continue nodes, by loop (exitstart) */
	int *exitstart;
	/* the tape: per loop ID, its nodes; slots in use */
	int nid;
	int **idnodes, *nidnodes;
	uint8_t *idlive;
	uint8_t **slotlive;
	int *nslot;
	int *special, nspecial; /* tape_open, tape_measured */
	int anylive;
} Sweep;

static int handle_id(const Sweep *S, int h);

static void gather(Sweep *S, Block *b, int parent, int loop)
{
	for (int i = 0; i < b->n; i++) {
		if (S->nn == S->capn) {
			S->capn = S->capn ? 2 * S->capn : 256;
			S->node = xrealloc(S->node, (size_t)S->capn * sizeof *S->node);
		}
		int x = S->nn++;
		Inst *in = &b->v[i];
		S->node[x] = (Node){in, parent, loop};
		int lp = ir_op_loop(in->op) ? x : loop;
		gather(S, &in->body, x, lp);
		gather(S, &in->els, x, lp);
	}
}

static void mark(Sweep *S, int x)
{
	if (x < 0 || S->ess[x])
		return;
	S->ess[x] = 1;
	S->work[S->nwork++] = x;
}

static void need(Sweep *S, int v)
{
	if (is_const(S->O, v) || S->need[v])
		return;
	S->need[v] = 1;
	for (int k = S->defstart[v]; k < S->defstart[v + 1]; k++)
		mark(S, S->defs[k]);
}

static int const_val(const Opt *O, int v) { return V(O, v)->k.i; }

static void id_live(Sweep *S, int id, int slot)
{
	if (id < 0 || id >= S->nid)
		return;
	if (!S->idlive[id]) {
		S->idlive[id] = 1;
		S->anylive = 1;
		for (int k = 0; k < S->nidnodes[id]; k++) {
			const Inst *in = S->node[S->idnodes[id][k]].in;
			if (in->op != OP_TAPE_PUT && in->op != OP_TAPE_GET)
				mark(S, S->idnodes[id][k]);
		}
		for (int k = 0; k < S->nspecial; k++)
			mark(S, S->special[k]);
	}
	if (slot >= 0 && slot < S->nslot[id] && !S->slotlive[id][slot]) {
		S->slotlive[id][slot] = 1;
		for (int k = 0; k < S->nidnodes[id]; k++) {
			const Inst *in = S->node[S->idnodes[id][k]].in;
			if (in->op == OP_TAPE_PUT && const_val(S->O, in->arg[1]) == slot)
				mark(S, S->idnodes[id][k]);
		}
	}
}

static int handle_id(const Sweep *S, int h)
{
	for (int k = S->defstart[h]; k < S->defstart[h + 1]; k++) {
		const Inst *d = S->node[S->defs[k]].in;
		if (d->op == OP_TAPE_LOOP)
			return const_val(S->O, d->arg[0]);
	}
	return -1;
}

static int inst_id(const Sweep *S, const Inst *in)
{
	switch (in->op) {
	case OP_TAPE_LOOP:
	case OP_TAPE_COUNT:
		return const_val(S->O, in->arg[0]);
	case OP_TAPE_KEEP:
	case OP_TAPE_PUT:
	case OP_TAPE_BACK:
	case OP_TAPE_GET:
		return handle_id(S, in->arg[0]);
	}
	return -1;
}

/* Rebuild b without the nodes not marked (first is b's first node). */
static int sweep_block(Sweep *S, Block *b, int x)
{
	int n = 0;
	for (int i = 0; i < b->n; i++) {
		Inst *in = &b->v[i];
		int me = x++;
		int sub = x;
		x = sweep_block(S, &in->body, sub);
		x = sweep_block(S, &in->els, x);
		int keep = S->ess[me];
		if (in->op == OP_TAPE_OPEN)
			keep = S->anylive;
		if (in->op == OP_TAPE_MEASURED && !S->anylive && keep) {
			/* no loop keeps anything: never a measuring run */
			in->op = OP_MOV;
			in->narg = 1;
			in->arg = arena(S->O, sizeof *in->arg);
			in->arg[0] = kbool(S->O, 0);
		}
		if (!keep) {
			S->O->changed = 1;
			continue;
		}
		b->v[n++] = *in;
	}
	b->n = n;
	return x;
}

static void renumber_slots(Sweep *S)
{
	for (int id = 0; id < S->nid; id++) {
		if (!S->idlive[id])
			continue;
		int *to = xmalloc((size_t)(S->nslot[id] + 1) * sizeof *to);
		int next = 0;
		for (int s = 0; s < S->nslot[id]; s++)
			to[s] = S->slotlive[id][s] ? next++ : -1;
		for (int k = 0; k < S->nidnodes[id]; k++) {
			Inst *in = S->node[S->idnodes[id][k]].in;
			if ((in->op != OP_TAPE_PUT && in->op != OP_TAPE_GET) || !S->ess[S->idnodes[id][k]])
				continue;
			int s = const_val(S->O, in->arg[1]);
			if (s >= 0 && s < S->nslot[id] && to[s] != s && to[s] >= 0) {
				in->arg[1] = kint(S->O, to[s]);
				S->O->changed = 1;
			}
		}
		free(to);
	}
}

void sweep_pass(Opt *O)
{
	Sweep S = {0};
	S.O = O;
	gather(&S, &O->f->body, -1, -1);
	int nv = O->f->nval;
	S.defstart = xmalloc((size_t)(nv + 2) * sizeof *S.defstart);
	memset(S.defstart, 0, (size_t)(nv + 2) * sizeof *S.defstart);
	for (int x = 0; x < S.nn; x++)
		for (int k = 0; k < S.node[x].in->nres; k++)
			S.defstart[S.node[x].in->res[k] + 1]++;
	for (int v = 0; v < nv; v++)
		S.defstart[v + 1] += S.defstart[v];
	S.defs = xmalloc((size_t)(S.defstart[nv] + 1) * sizeof *S.defs);
	int *fill = xmalloc((size_t)(nv + 1) * sizeof *fill);
	memcpy(fill, S.defstart, (size_t)nv * sizeof *fill);
	for (int x = 0; x < S.nn; x++)
		for (int k = 0; k < S.node[x].in->nres; k++)
			S.defs[fill[S.node[x].in->res[k]]++] = x;
	free(fill);
	/* the breaks and continues of each loop */
	S.exitstart = xmalloc((size_t)(S.nn + 2) * sizeof *S.exitstart);
	memset(S.exitstart, 0, (size_t)(S.nn + 2) * sizeof *S.exitstart);
	for (int x = 0; x < S.nn; x++) {
		int op = S.node[x].in->op;
		if ((op == OP_BREAK || op == OP_CONTINUE) && S.node[x].loop >= 0)
			S.exitstart[S.node[x].loop + 1]++;
	}
	for (int x = 0; x < S.nn; x++)
		S.exitstart[x + 1] += S.exitstart[x];
	S.exits = xmalloc((size_t)(S.exitstart[S.nn] + 1) * sizeof *S.exits);
	fill = xmalloc((size_t)(S.nn + 1) * sizeof *fill);
	memcpy(fill, S.exitstart, (size_t)S.nn * sizeof *fill);
	for (int x = 0; x < S.nn; x++) {
		int op = S.node[x].in->op;
		if ((op == OP_BREAK || op == OP_CONTINUE) && S.node[x].loop >= 0)
			S.exits[fill[S.node[x].loop]++] = x;
	}
	free(fill);
	/* the tape's nodes by loop ID */
	for (int x = 0; x < S.nn; x++) {
		const Inst *in = S.node[x].in;
		if (in->op == OP_TAPE_OPEN || in->op == OP_TAPE_MEASURED) {
			S.special = xrealloc(S.special, (size_t)(S.nspecial + 1) * sizeof *S.special);
			S.special[S.nspecial++] = x;
			continue;
		}
		int id = ir_op_tape(in->op) ? inst_id(&S, in) : -1;
		if (id < 0 || id > 1000000)
			continue;
		if (id >= S.nid) {
			int n = id + 1;
			S.idnodes = xrealloc(S.idnodes, (size_t)n * sizeof *S.idnodes);
			S.nidnodes = xrealloc(S.nidnodes, (size_t)n * sizeof *S.nidnodes);
			S.idlive = xrealloc(S.idlive, (size_t)n);
			S.slotlive = xrealloc(S.slotlive, (size_t)n * sizeof *S.slotlive);
			S.nslot = xrealloc(S.nslot, (size_t)n * sizeof *S.nslot);
			for (int k = S.nid; k < n; k++) {
				S.idnodes[k] = NULL;
				S.nidnodes[k] = 0;
				S.idlive[k] = 0;
				S.slotlive[k] = NULL;
				S.nslot[k] = 0;
			}
			S.nid = n;
		}
		S.idnodes[id] = xrealloc(S.idnodes[id], (size_t)(S.nidnodes[id] + 1) * sizeof **S.idnodes);
		S.idnodes[id][S.nidnodes[id]++] = x;
		if (in->op == OP_TAPE_PUT || in->op == OP_TAPE_GET) {
			int s = const_val(O, in->arg[1]);
			if (s >= 0 && s < 100000 && s >= S.nslot[id]) {
				S.slotlive[id] = xrealloc(S.slotlive[id], (size_t)(s + 1));
				memset(S.slotlive[id] + S.nslot[id], 0, (size_t)(s + 1 - S.nslot[id]));
				S.nslot[id] = s + 1;
			}
		}
	}
	/* mark from the roots */
	S.ess = xmalloc((size_t)S.nn + 1);
	memset(S.ess, 0, (size_t)S.nn + 1);
	S.need = xmalloc((size_t)nv + 1);
	memset(S.need, 0, (size_t)nv + 1);
	S.work = xmalloc((size_t)(S.nn + 1) * sizeof *S.work);
	for (int x = 0; x < S.nn; x++) {
		const Inst *in = S.node[x].in;
		int op = in->op;
		if ((ir_op_control(op) && op != OP_RET) || ir_op_tape(op))
			continue; /* ret is a root; the tape is kept per loop (id_live) */
		if (!removable(O, in))
			mark(&S, x);
	}
	while (S.nwork) {
		int x = S.work[--S.nwork];
		const Inst *in = S.node[x].in;
		for (int k = 0; k < in->narg; k++)
			need(&S, in->arg[k]);
		mark(&S, S.node[x].parent);
		if (ir_op_loop(in->op))
			for (int k = S.exitstart[x]; k < S.exitstart[x + 1]; k++)
				mark(&S, S.exits[k]);
		if (in->op == OP_TAPE_GET)
			id_live(&S, inst_id(&S, in), const_val(O, in->arg[1]));
		else if (ir_op_tape(in->op))
			id_live(&S, inst_id(&S, in), -1);
	}
	renumber_slots(&S); /* first: the sweep moves the instructions */
	sweep_block(&S, &O->f->body, 0);
	for (int id = 0; id < S.nid; id++) {
		free(S.idnodes[id]);
		free(S.slotlive[id]);
	}
	free(S.idnodes);
	free(S.nidnodes);
	free(S.idlive);
	free(S.slotlive);
	free(S.nslot);
	free(S.special);
	free(S.node);
	free(S.defstart);
	free(S.defs);
	free(S.exits);
	free(S.exitstart);
	free(S.ess);
	free(S.need);
	free(S.work);
}
