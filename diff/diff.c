/*
 * diff.c: the reverse-mode adjoint transform (kdiff).  doc/autodiff.md
 * explains the method; in short, per thread:
 *
 *  - a forward sweep runs the body, giving every definition a fresh
 *    variable (SSA-like), so that the values the reverse sweep needs are
 *    never overwritten; every new variable is zeroed at the top of the
 *    function, which keeps the verifier's definite-assignment rule;
 *  - the forward sweep leaves a Tape: the instructions it ran, with their
 *    new operands, the ifs (conditions kept) and the loops;
 *  - the reverse sweep walks the tape backwards, applying the derivative
 *    rules (rule.c, ir/builtins.h);
 *  - a loop is run plainly in the forward sweep, counting its trips T,
 *    and in a kernel keeps the state trips begin with on a per-thread
 *    tape, as checkpoints (fewer when room runs short); its reverse, for
 *    k = T-1 down to 0, restores the nearest checkpoint (the loop-entry
 *    values when there is none), recomputes the trips from it up to k
 *    plainly, and runs trip k's own forward and reverse sweep.  O(T) with
 *    every trip kept, O(T^2) with none (a wp.func): exact and bounded;
 *  - break, continue and ret become flags: the rest of a block after an
 *    if that may exit is guarded by "not exited", a guard the reverse
 *    sweep replays;
 *  - an array element only its own thread touches (index wp.tid()) is
 *    promoted to a local variable first (promote);
 *  - what cannot be kept within the bound is a located error
 *    (check_kernel, summarize).
 *
 * The parts are files of their own, which diff_int.h lists; this one
 * holds the driver: diff_begin, then diff_next for each function as it is
 * read, then diff_end; diff_module for a module in memory.
 */
#include <stdlib.h>
#include <string.h>

#include "diff_int.h"

int diff_optimize = 1;

/* ---- a module, function by function ------------------------------------ */

/* The state of one module's differentiation: the summaries of the
 * functions above, which calls need; the rest of a function's work lives
 * in the arena fa and is freed when it is done.  fadj, pure and sum are
 * indexed by the module's functions, which ir/file.c's first pass (or
 * the module in memory) has all made by the time diff_begin runs.
 *
 * fx holds the effects of the module's own functions, each noted as it
 * comes (ir/calls.h).  callfx says, for the simplifier, whether a call
 * may write memory (FX_WRITE or 0), and it is a question of its own: for
 * a func of the module, whether it uses atomics or prints (what its
 * replay leaves out), not whether it stores (a func that stores is side
 * effects only, or refused: summary.c); for a replay, never; for an _adj
 * func, whether it has adjoint arrays to accumulate into until its body
 * is made, then whether that body writes (its calls by their entries
 * here; it holds no tape operation). */
struct Diff {
	Module *m;
	Src nosrc;
	Arena a;  /* summaries */
	Arena fa; /* the function at hand */
	D d;
	int n; /* the module's functions before any was appended */
	IrEffects fx, callfx;
};

Diff *diff_begin(Module *m, const Src *ksrc)
{
	Diff *df = xmalloc(sizeof *df);
	memset(df, 0, sizeof *df);
	df->m = m;
	df->nosrc.name = m->source ? m->source : "<ir>";
	int n = df->n = m->nfn;
	D *d = &df->d;
	d->a = &df->a;
	d->m = m;
	d->src = ksrc ? ksrc : &df->nosrc;
	d->fadj = arena_alloc(&df->a, (size_t)(n + 1) * sizeof *d->fadj);
	d->sum = arena_alloc(&df->a, (size_t)(n + 1) * sizeof *d->sum);
	d->pure = arena_alloc(&df->a, (size_t)(n + 1) * sizeof *d->pure);
	d->callfx = &df->callfx;
	return df;
}

DiffMade diff_next(Diff *df, int fi)
{
	Module *m = df->m;
	D *d = &df->d;
	const Func *f = m->fn[fi];
	DiffMade made = {-1, -1, -1};
	d->pure[fi] = fi;
	int fx = ir_effects_note(&df->fx, m, fi);
	if (!f->is_kernel) {
		d->a = &df->a;
		summarize(m, d, fi);
		d->a = &df->fa;
		/* atomics or prints, its own or its callees' */
		int fwd_only = (fx & (FX_ATOMIC | FX_PRINT)) != 0;
		ir_effects_set(&df->callfx, fi, fwd_only ? FX_WRITE : 0);
		/* a func that only reads an atomic's result has nothing to
		 * replay: no float flows through it (sideonly) */
		if (fwd_only && !d->sum[fi].sideonly) {
			make_replay(m, d, fi);
			ir_effects_set(&df->callfx, d->pure[fi], 0);
			copy_block(m, d, &f->body, &m->fn[d->pure[fi]]->body);
			made.replay = d->pure[fi];
		}
		diff_func_sig(m, fi, d->fadj);
		ir_effects_set(&df->callfx, d->fadj[fi], adj_writes(m, d->fadj[fi]) ? FX_WRITE : 0);
		diff_func(m, d->src, d, fi);
		ir_effects_set(&df->callfx, d->fadj[fi],
			       ir_block_fx(&m->fn[d->fadj[fi]]->body, &df->callfx, FX_WRITE));
		made.adj = d->fadj[fi];
	} else {
		d->a = &df->fa;
		diff_kernel(m, d->src, d, fi);
		made.backward = m->nfn - 1;
	}
	d->a = &df->a;
	arena_free(&df->fa);
	return made;
}

void diff_end(Diff *df)
{
	if (!df)
		return;
	arena_free(&df->fa);
	arena_free(&df->a);
	ir_effects_free(&df->fx);
	ir_effects_free(&df->callfx);
	free(df);
}

/* The module's functions from n on in the order kdiff prints them:
 * replays, adjoint funcs, backward kernels, each in the order of the
 * functions they were made for. */
static void reorder(Module *m, int n, const DiffMade *made)
{
	int32_t *to = xmalloc((size_t)(m->nfn ? m->nfn : 1) * sizeof *to);
	int k = n;
	for (int i = 0; i < n; i++)
		to[i] = i;
	for (int pass = 0; pass < 3; pass++)
		for (int i = 0; i < n; i++) {
			int g = pass == 0 ? made[i].replay : pass == 1 ? made[i].adj : made[i].backward;
			if (g >= 0)
				to[g] = k++;
		}
	ir_reorder(m, to);
	free(to);
}

void diff_module(Module *m, const Src *ksrc)
{
	/* a caller that recovers from errors (ks_recover) gets the state
	 * freed on the way back */
	jmp_buf jb, *outer = ks_recover;
	int n = m->nfn;
	Diff *df = diff_begin(m, ksrc);
	DiffMade *made = xmalloc((size_t)(n ? n : 1) * sizeof *made);
	if (outer) {
		if (setjmp(jb)) {
			ks_recover = outer;
			diff_end(df);
			free(made);
			longjmp(*outer, 1);
		}
		ks_recover = &jb;
	}
	for (int i = 0; i < n; i++)
		made[i] = diff_next(df, i);
	ks_recover = outer;
	reorder(m, n, made);
	diff_end(df);
	free(made);
}
