/*
 * calls.h: the call graph and the effects on memory (calls.c).  Which
 * functions a body calls (ir_block_calls), and what a function may do to
 * memory: FX_READ, FX_WRITE, FX_ATOMIC, FX_PRINT (ir.h), the union of
 * what its instructions do, a call doing what its callee does.  A module
 * comes callees first (doc/ir.md), so a tool reading it a function at a
 * time notes each function's effects as it comes (ir_effects_note), from
 * its body and the entries of the functions above it.
 *
 * A table may also hold what its maker decides a call of a function does
 * (ir_effects_set): kdiff's simplifier asks only whether a call may write
 * memory, and answers it for the functions it makes (diff/diff.c).
 */
#ifndef KS_CALLS_H
#define KS_CALLS_H

#include "ir.h"

/* Per function of a module, by index: its effects (FX_*), 0 for one not
 * noted yet.  fx has n entries (grown as they are set); zero it to start. */
typedef struct IrEffects {
	uint8_t *fx;
	int n;
} IrEffects;

/* The effects of in: its own (ir_inst_fx), a call's its callee's entry
 * in t. */
static inline int ir_fx_of(const Inst *in, const IrEffects *t)
{
	if (in->op == OP_CALL)
		return in->callee < t->n ? t->fx[in->callee] : 0;
	return ir_inst_fx(in);
}

/* May in go when nothing reads its results: no control, nothing that
 * writes memory, itself or, a call, its callee (by t)?  The emitters'
 * dead code and kdiff's liveness both ask it (emit/live.c, diff/live.c),
 * each with its own t. */
static inline int ir_inst_removable(const Inst *in, const IrEffects *t)
{
	return !ir_op_control(in->op) && !(ir_fx_of(in, t) & FX_WRITE);
}

/* The effects of b's instructions, nested ones included, within mask: the
 * walk stops once it has found all of mask. */
int ir_block_fx(const Block *b, const IrEffects *t, int mask);

/* Note function fi of m: its effects, from its body and its callees'
 * entries, set in t and returned. */
int ir_effects_note(IrEffects *t, const Module *m, int fi);
/* Set function fi's entry. */
void ir_effects_set(IrEffects *t, int fi, int fx);
void ir_effects_free(IrEffects *t);

/* Mark called[g] for each function g that b calls. */
void ir_block_calls(const Block *b, uint8_t *called);

#endif
