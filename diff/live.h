/*
 * live.h: liveness over a function's structured IR (live.c).  It knows
 * nothing of the simplifier: a caller gives the function and, per
 * function of the module, whether a call to it may write memory (an
 * IrEffects table, FX_WRITE).
 *
 * A set of live values is a bit set of LiveWord, one bit per value of the
 * function (constants are never in it).
 */
#ifndef KS_LIVE_H
#define KS_LIVE_H

#include "ir/calls.h"

typedef uint64_t LiveWord;

static inline int live_has(const LiveWord *live, int v) { return (live[v >> 6] >> (v & 63)) & 1; }

/* Walk f backwards and drop every instruction that may go (no control,
 * nothing that writes memory: ir_inst_removable) whose results nothing
 * reads after it, and the ifs and loops left empty or doing nothing (no
 * effects, nothing they assign read after them).  Returns 1 when it
 * dropped something. */
int live_prune(Func *f, const IrEffects *callfx);

/* The same walk, changing nothing: visit(ctx, in, live) for each
 * instruction but an if, a loop, break, continue and ret, unless it may go
 * and nothing reads its results (live: the values live just after it),
 * and for each for loop (live: the values live at its head, where its
 * variable is assigned). */
typedef void (*LiveVisit)(void *ctx, const Inst *in, const LiveWord *live);
void live_scan(Func *f, const IrEffects *callfx, LiveVisit visit, void *ctx);

#endif
