/*
 * opt_replay.c: recomputing in the replay of a branch.
 *
 * The reverse sweep replays the forward sweep's ifs: a value computed in
 * a branch of the forward sweep and read in the reverse's replay of that
 * branch (a later if on the same condition, the read in the same branch)
 * needs a variable declared before both, zeroed, that the emitters cannot
 * fold away.  When the value is pure (no call, atomic or tape operation,
 * no memory but an array the function never writes) and what it reads is
 * still there, the replay computes it again instead, with the temps and
 * the variables assigned once of the branch it was computed from
 * (REMAT_CHAIN definitions at most); the variable then goes.
 */
#include <stdlib.h>
#include <string.h>

#include "opt.h"

typedef struct Replace {
	Opt *O;
	int v, w;
} Replace;

/* Replace the reads of v by w (in in; walked, in what it holds too). */
static int replace_use(void *ctx, Inst *in)
{
	Replace *r = ctx;
	int any = 0;
	for (int k = 0; k < in->narg; k++)
		any |= in->arg[k] == r->v;
	if (any) {
		int32_t *na = arena(r->O, (size_t)in->narg * sizeof *na);
		for (int k = 0; k < in->narg; k++)
			na[k] = in->arg[k] == r->v ? r->w : in->arg[k];
		in->arg = na;
	}
	return 0;
}

typedef struct RNode {
	Inst *in;
	Block *b;   /* the block holding it */
	int idx;    /* its index there */
	int parent; /* enclosing if or loop node, or -1 */
	int end;    /* walk index after its subtree */
} RNode;

typedef struct Remat {
	Opt *O;
	RNode *node;
	int nn, capn;
	int *defstart, *defs; /* per value: defining nodes */
	int *usestart, *uses; /* per value: reading nodes */
} Remat;

static void rgather(Remat *R, Block *b, int parent)
{
	for (int i = 0; i < b->n; i++) {
		if (R->nn == R->capn) {
			R->capn = R->capn ? 2 * R->capn : 256;
			R->node = xrealloc(R->node, (size_t)R->capn * sizeof *R->node);
		}
		int x = R->nn++;
		R->node[x] = (RNode){&b->v[i], b, i, parent, 0};
		rgather(R, &b->v[i].body, x);
		rgather(R, &b->v[i].els, x);
		R->node[x].end = R->nn;
	}
}

static int *index_by(Remat *R, int nv, int **list, int res)
{
	int *start = xmalloc((size_t)(nv + 2) * sizeof *start);
	memset(start, 0, (size_t)(nv + 2) * sizeof *start);
	for (int x = 0; x < R->nn; x++) {
		const Inst *in = R->node[x].in;
		int n = res ? in->nres : in->narg;
		for (int k = 0; k < n; k++) {
			int v = res ? in->res[k] : in->arg[k];
			if (!k || (res ? in->res[k - 1] : in->arg[k - 1]) != v)
				start[v + 1]++;
		}
	}
	for (int v = 0; v < nv; v++)
		start[v + 1] += start[v];
	*list = xmalloc((size_t)(start[nv] + 1) * sizeof **list);
	int *fill = xmalloc((size_t)(nv + 1) * sizeof *fill);
	memcpy(fill, start, (size_t)nv * sizeof *fill);
	for (int x = 0; x < R->nn; x++) {
		const Inst *in = R->node[x].in;
		int n = res ? in->nres : in->narg;
		for (int k = 0; k < n; k++) {
			int v = res ? in->res[k] : in->arg[k];
			if (!k || (res ? in->res[k - 1] : in->arg[k - 1]) != v)
				(*list)[fill[v]++] = x;
		}
	}
	free(fill);
	return start;
}

/* Is node x inside node y's subtree? */
static int inside(const Remat *R, int x, int y) { return x > y && x < R->node[y].end; }

/* May in be computed again elsewhere: pure, one result, no memory but an
 * array the function never writes? */
static int recomputable(const Opt *O, const Inst *in)
{
	if (in->op == OP_LOAD && O->written && !O->written[in->arg[0]])
		return 1;
	return in->nres == 1 && ir_inst_pure(in);
}

/* Is value a assigned by a node walked in (from, to)? */
static int assigned_between(const Remat *R, int a, int from, int to)
{
	for (int k = R->defstart[a]; k < R->defstart[a + 1]; k++)
		if (R->defs[k] > from && R->defs[k] < to)
			return 1;
	return 0;
}

/* The most definitions one value is computed again from. */
enum { REMAT_CHAIN = 32 };

/* Collect into chain (in order) the definitions to compute again at node
 * `at` for value v defined by node d inside statement p: d itself, and the
 * temps of p it reads.  0 when something it reads may differ there, or when
 * the chain would pass REMAT_CHAIN entries (the reads of d are collected
 * before d, so the bound is checked where d is added, not only on entry). */
static int collect(Remat *R, int d, int p, int at, int *chain, int *n, int depth)
{
	const Inst *in = R->node[d].in;
	if (depth > 8 || *n >= REMAT_CHAIN || !recomputable(R->O, in))
		return 0;
	for (int k = 0; k < in->narg; k++) {
		int a = in->arg[k];
		if (is_const(R->O, a))
			continue;
		if (V(R->O, a)->kind == VK_TEMP && R->defstart[a + 1] - R->defstart[a] == 1 &&
		    inside(R, R->defs[R->defstart[a]], p)) {
			if (!collect(R, R->defs[R->defstart[a]], p, at, chain, n, depth + 1))
				return 0;
			continue;
		}
		if (V(R->O, a)->kind == VK_VAR) {
			/* a variable p assigns: computed again too, if assigned once */
			int inp = 0, da = -1, nda = 0;
			for (int q = R->defstart[a]; q < R->defstart[a + 1]; q++) {
				int x = R->defs[q];
				if (R->node[x].parent < 0 && is_init(R->O, R->node[x].in))
					continue;
				inp |= inside(R, x, p);
				da = x;
				nda++;
			}
			if (inp) {
				/* assigned once, before d in its block: so on every
				 * path to d */
				if (nda != 1 || R->node[da].b != R->node[d].b ||
				    R->node[da].idx >= R->node[d].idx ||
				    !collect(R, da, p, at, chain, n, depth + 1))
					return 0;
				continue;
			}
		}
		if (V(R->O, a)->kind == VK_TEMP) {
			/* a temp from outside p: visible at `at` when its block holds p */
			int td = R->defstart[a + 1] - R->defstart[a] == 1 ? R->defs[R->defstart[a]] : -1;
			if (td < 0 || R->node[td].b != R->node[p].b)
				return 0;
			continue;
		}
		if (assigned_between(R, a, d, at))
			return 0;
	}
	for (int k = 0; k < *n; k++)
		if (chain[k] == d)
			return 1;
	if (*n >= REMAT_CHAIN)
		return 0;
	chain[(*n)++] = d;
	return 1;
}

void remat_branches(Opt *O)
{
	Remat R = {0};
	R.O = O;
	rgather(&R, &O->f->body, -1);
	int nv = O->f->nval;
	R.defstart = index_by(&R, nv, &R.defs, 1);
	R.usestart = index_by(&R, nv, &R.uses, 0);
	/* what to do, found first, done after (inserting moves nodes) */
	typedef struct Job {
		int v, at, nchain;
		int chain[REMAT_CHAIN];
		Block *b;
		int idx;
	} Job;
	Job *job = NULL;
	int njob = 0;
	for (int v = 0; v < nv; v++) {
		if (!is_var(O, v))
			continue;
		/* one definition, but for the function's init of it */
		int d = -1, nd = 0;
		for (int k = R.defstart[v]; k < R.defstart[v + 1]; k++) {
			int x = R.defs[k];
			if (R.node[x].parent < 0 && is_init(O, R.node[x].in))
				continue;
			d = x;
			nd++;
		}
		if (nd != 1)
			continue;
		if (!recomputable(O, R.node[d].in))
			continue;
		/* the statement p holding d in the block where the first use
		 * outside d's own block is a later statement r */
		int r = -1, p = -1;
		for (int k = R.usestart[v]; k < R.usestart[v + 1]; k++) {
			int u = R.uses[k];
			if (R.node[u].b == R.node[d].b && R.node[u].idx > R.node[d].idx)
				continue; /* read where d is seen */
			int pu = d, ru = u;
			while (pu >= 0 && ru >= 0 && R.node[pu].b != R.node[ru].b) {
				if (R.node[pu].parent > R.node[ru].parent || R.node[ru].parent < 0)
					pu = R.node[pu].parent;
				else
					ru = R.node[ru].parent;
			}
			if (pu < 0 || ru < 0 || pu == ru || R.node[ru].idx <= R.node[pu].idx ||
			    R.node[ru].in->op != OP_IF) {
				r = -2;
				break;
			}
			if (r == -1) {
				r = ru;
				p = pu;
			} else if (r != ru || p != pu) {
				r = -2;
				break;
			}
		}
		/* d runs whenever p's branch does, and r is the replay of p: the
		 * same condition, read in the same branch (below) */
		if (r < 0 || R.node[p].in->op != OP_IF || R.node[d].parent != p ||
		    R.node[r].in->arg[0] != R.node[p].in->arg[0])
			continue;
		int dthen = R.node[d].b == &R.node[p].in->body;
		/* where in r: before the first statement of one branch that
		 * reads v, not inside a loop of r */
		int first = -1, inthen = 0, inels = 0;
		for (int k = R.usestart[v]; k < R.usestart[v + 1]; k++) {
			int u = R.uses[k];
			if (!inside(&R, u, r))
				continue;
			if (first < 0 || u < first)
				first = u;
			int x = u;
			while (R.node[x].parent != r)
				x = R.node[x].parent;
			if (R.node[x].b == &R.node[r].in->body)
				inthen = 1;
			else
				inels = 1;
		}
		if (first < 0 || inthen == inels || inthen != dthen || R.node[r].in->arg[0] == v)
			continue;
		int at = first;
		while (R.node[at].parent != r)
			at = R.node[at].parent;
		Job j = {v, at, 0, {0}, R.node[at].b, R.node[at].idx};
		if (!collect(&R, d, p, at, j.chain, &j.nchain, 0))
			continue;
		job = xrealloc(job, (size_t)(njob + 1) * sizeof *job);
		job[njob++] = j;
	}
	/* apply them deepest first: inserting into a block rebuilds its array,
	 * which holds the blocks nested in it */
	for (int q = 0; q < njob; q++) {
		int depth = 0;
		for (int x = job[q].at; x >= 0; x = R.node[x].parent)
			depth++;
		job[q].nchain |= depth << 8;
	}
	for (int q = 1; q < njob; q++) {
		Job t = job[q];
		int k = q - 1;
		while (k >= 0 && (job[k].nchain >> 8) < (t.nchain >> 8)) {
			job[k + 1] = job[k];
			k--;
		}
		job[k + 1] = t;
	}
	for (int q = 0; q < njob; q++)
		job[q].nchain &= 0xff;
	for (int q = 0; q < njob; q++) {
		Job *j = &job[q];
		int *map = xmalloc((size_t)(O->f->nval + 64) * sizeof *map);
		for (int v = 0; v < O->f->nval; v++)
			map[v] = v;
		Block ins = {0};
		for (int k = 0; k < j->nchain; k++) {
			Inst c = *R.node[j->chain[k]].in;
			int t = ir_temp(O->m, O->f, T(O, c.res[0]));
			ensure(O);
			map = xrealloc(map, (size_t)(O->f->nval + 1) * sizeof *map);
			map[t] = t;
			int32_t *res = arena(O, sizeof *res),
				*arg = arena(O, (size_t)(c.narg ? c.narg : 1) * sizeof *arg);
			res[0] = t;
			for (int a = 0; a < c.narg; a++)
				arg[a] = map[c.arg[a]];
			map[c.res[0]] = t;
			c.res = res;
			c.arg = arg;
			append(O, &ins, &c);
		}
		/* the reads of v in r's branch (the statements from idx on) */
		Replace rp = {O, j->v, map[j->v]};
		for (int i = j->idx; i < j->b->n; i++)
			ir_walk_inst(&j->b->v[i], replace_use, &rp);
		for (int k = 0; k < ins.n; k++)
			insert_at(O, j->b, j->idx + k, &ins.v[k]);
		/* later jobs in the same block, past this point, moved */
		for (int q2 = q + 1; q2 < njob; q2++)
			if (job[q2].b == j->b && job[q2].idx >= j->idx)
				job[q2].idx += ins.n;
		free(map);
		O->changed = 1;
	}
	free(job);
	free(R.node);
	free(R.defstart);
	free(R.defs);
	free(R.usestart);
	free(R.uses);
}
