/*
 * opt.c: the simplifier kdiff runs on every function it appends, so that a
 * backward kernel reads like an adjoint a person would write (Tapenade's
 * output is the model): no dead stores, no adjoint zeroed after its last
 * use, no empty blocks or loops that do nothing, no copies, declarations
 * where values are first assigned, source names without kdiff's numbers.
 * This file is its driver; each pass is a file of its own (opt.h).
 *
 * The transform (diff.c) is simple and regular: every definition gets a
 * fresh variable zeroed at the top, every adjoint is accumulated with
 * `adj = adj + g` and zeroed after each use, loops are replayed whole, a
 * value gets a variable whether or not anything reads it.  These passes
 * clean that up, each keeping the semantics exactly (but for the sign of a
 * zero, and a zero adjoint times an infinite value, which is zero here):
 *
 *   1. opt_fold.c: constants, known zeros (of vectors and matrices too)
 *      and copies are propagated through the structured control flow,
 *      and instructions fold: `adj + g` with adj known zero is `g`, `0 *
 *      x` of a derivative is 0, `if true` is its then-branch, an atomic
 *      add of zero is nothing, code after break, continue or ret goes;
 *   2. live.c: liveness drops every assignment that nothing reads (an
 *      adjoint zeroed after its last use, an init overwritten first);
 *   3. opt_sweep.c: mark and sweep from what has effects (stores,
 *      atomics, calls that write, ret): what feeds none of them goes,
 *      variables that only feed themselves round a loop included, and so
 *      do loops and ifs that do nothing and the tape checkpoints that
 *      nothing reads back (the whole tape when no loop keeps anything);
 *   4. opt_ifs.c: the forward sweep's guard and the reverse's replay of
 *      it, two ifs on one condition, become one if;
 *   those repeat until nothing changes.  Then
 *   5. opt_replay.c: a pure value computed in a branch and read in the
 *      replay of that branch is computed again there (and 1-3 run again
 *      if it changed something);
 *   6. opt_ifs.c: `if c {} else {E}` becomes `if not c {E}`;
 *   7. opt_sink.c: an init that opens the function moves down to just
 *      before the statement that first mentions its variable (into a
 *      branch, or a loop whose trips do not carry it): the emitters then
 *      declare the variable there;
 *   8. opt_temps.c: a variable kdiff made up (a temporary of the forward
 *      sweep, its adjoint) that is assigned once, where every use can see
 *      it, becomes a temp, which the emitters fold into the expression
 *      that reads it;
 *   9. opt_peep.c: peepholes on temps: accumulations of one variable
 *      chained into one statement, a component of a value just set is that
 *      value, values computed twice computed once, cheap values computed
 *      where each reads them (then 1 and 2 again);
 *  10. opt_share.c: the versions of one source variable (`acc`, `adj_acc`)
 *      and kdiff's copies of them share one variable wherever their live
 *      ranges do not meet; it takes the name without kdiff's number, the
 *      others `_2`, ...
 *   and last, 1, 2 and 6 again: sharing makes a variable known zero on
 *   every path, and leaves ifs that held only the copies it removed.
 *
 * opt_util.c holds what the passes share, live.c the liveness (which
 * knows nothing of the simplifier).
 */
#include <stdlib.h>
#include <string.h>

#include "opt.h"

/* Mark the arrays in may write: stored to, updated by an atomic, passed
 * to a call that writes. */
static int find_written(void *ctx, const Inst *in)
{
	Opt *O = ctx;
	if (ir_inst_store(in) || ir_inst_atomic(in))
		O->written[in->arg[0]] = 1;
	if (in->op == OP_CALL && (ir_fx_of(in, O->di->callfx) & FX_WRITE))
		for (int k = 0; k < in->narg; k++)
			O->written[in->arg[k]] = 1;
	return 0;
}

void diff_opt(Module *m, Func *f, const DiffInfo *di)
{
	Opt O;
	memset(&O, 0, sizeof O);
	O.m = m;
	O.f = f;
	O.di = di;
	O.written = xmalloc((size_t)f->nval + 1);
	memset(O.written, 0, (size_t)f->nval + 1);
	ir_walk_const(&f->body, find_written, &O);
	for (int round = 0; round < 16; round++) {
		O.changed = 0;
		fwd_pass(&O);
		live_pass(&O);
		sweep_pass(&O);
		fuse_ifs(&O);
		if (!O.changed)
			break;
	}
	remat_branches(&O);
	for (int round = 0; round < 4 && O.changed; round++) {
		O.changed = 0;
		fwd_pass(&O);
		live_pass(&O);
		sweep_pass(&O);
	}
	flip_ifs(&O);
	sink_inits(&O);
	to_temps(&O);
	peepholes(&O);
	share(&O);
	fwd_pass(&O);  /* what sharing makes known: a variable zeroed on every path */
	live_pass(&O); /* and ifs that held only copies share removed */
	flip_ifs(&O);
	fold_free(&O);
	free(O.stamp);
	free(O.written);
}
