/*
 * walk.h: a visit of every instruction of a block tree, in order: a
 * block's instructions one after the other, each before what it holds,
 * an if's body before its else-block.  visit returns 0 to go on; any
 * other value stops the walk, which returns it (0 when every instruction
 * was visited).  visit may change the instruction at hand (its operands,
 * its callee, its opcode), not the blocks being walked.
 *
 * It is for the walks that do not depend on the control structure: "does
 * any instruction do P?" and "for every instruction, do X" (count the
 * definitions, mark what is mentioned, remap the calls), and those whose
 * only order is this one (the first definition of each value, a counter).
 * What depends on the structure walks the tree itself: liveness and
 * definite assignment, kdiff's forward and reverse sweeps, a rewrite of a
 * block or a copy of it, the emitters' folding and printing, and a walk
 * that keeps the block or the path at hand or the depth of the loops.
 */
#ifndef KS_WALK_H
#define KS_WALK_H

#include "ir.h"

typedef int (*IrVisit)(void *ctx, Inst *in);
typedef int (*IrVisitConst)(void *ctx, const Inst *in);

/* Every instruction of b, nested ones included. */
int ir_walk(Block *b, IrVisit visit, void *ctx);
int ir_walk_const(const Block *b, IrVisitConst visit, void *ctx);

/* in, then every instruction it holds. */
int ir_walk_inst(Inst *in, IrVisit visit, void *ctx);
int ir_walk_inst_const(const Inst *in, IrVisitConst visit, void *ctx);

#endif
