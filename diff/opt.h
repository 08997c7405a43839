/*
 * opt.h: the simplifier's internal interface: its state, the helpers its
 * passes share (opt_util.c), and the passes, in the order the driver
 * (opt.c) runs them.  Only diff/opt*.c include it; the rest of kdiff
 * calls diff_opt (diff.h).
 */
#ifndef KS_OPT_H
#define KS_OPT_H

#include "diff.h"
#include "live.h"
#include "ir/walk.h"

typedef struct Fold Fold;

/* The simplifier's state, for one function. */
typedef struct Opt {
	Module *m;
	Func *f;
	const DiffInfo *di;
	int changed;         /* a pass changed f: run the cleanup again */
	int cap;             /* size of the per-value arrays (stamp, the forward pass's) */
	int32_t *stamp, gen; /* per value: in the set at hand when stamp[v] == gen */
	uint8_t *written;    /* per array value: may the function write it? */
	Fold *fold;          /* the forward pass's facts (opt_fold.c) */
} Opt;

/* ---- values (opt_util.c) ---- */

static inline Value *V(const Opt *O, int v) { return &O->f->val[v]; }
static inline Type T(const Opt *O, int v) { return O->f->val[v].ty; }
static inline int is_const(const Opt *O, int v) { return V(O, v)->kind == VK_CONST; }
static inline int is_var(const Opt *O, int v) { return V(O, v)->kind == VK_VAR; }
/* what kdiff knows of v (DV_*) */
static inline int flag(const Opt *O, int v) { return v < O->di->n ? O->di->flag[v] : 0; }
static inline void *arena(Opt *O, size_t n) { return arena_alloc(&O->m->arena, n ? n : 1); }

/* Grow the per-value arrays to the function's values. */
void ensure(Opt *O);
/* constants: a float, an int, a bool, the zero of scalar type t */
int kfloat(Opt *O, float x);
int kint(Opt *O, int32_t x);
int kbool(Opt *O, int x);
int kzero(Opt *O, Type t);
/* Is constant v x (false for a bool)?  Are constants a and b equal (the
 * same bits for floats)? */
int const_is(const Opt *O, int v, float x);
int const_eq(const Opt *O, int a, int b);

/* ---- effects (live.c) ---- */

/* May in go when nothing reads its results? */
static inline int removable(const Opt *O, const Inst *in) { return ir_inst_removable(in, O->di->callfx); }

/* ---- instructions and blocks (opt_util.c) ---- */

/* Does in, or what it holds, assign v?  Name v as an operand?  Either? */
int assigns(const Inst *in, int v);
int names_arg(const Inst *in, int v);
int mentions(const Inst *in, int v);
/* Is in the init of a variable: a constant, or the zero of a vector or
 * matrix? */
int is_init(const Opt *O, const Inst *in);
/* Append a copy of in to out; insert one into b before index at. */
Inst *append(Opt *O, Block *out, const Inst *in);
void insert_at(Opt *O, Block *b, int at, const Inst *in);

/* ---- the passes, in the driver's order ---- */

void fwd_pass(Opt *O); /* opt_fold.c: propagate and fold */
void fold_free(Opt *O);
void live_pass(Opt *O);      /* opt_util.c: drop what nothing reads (live.c) */
void sweep_pass(Opt *O);     /* opt_sweep.c: mark and sweep from the effects */
void fuse_ifs(Opt *O);       /* opt_ifs.c: a guard and its replay, one if */
void remat_branches(Opt *O); /* opt_replay.c: recompute in a branch's replay */
void flip_ifs(Opt *O);       /* opt_ifs.c: if c {} else {E} is if not c {E} */
void sink_inits(Opt *O);     /* opt_sink.c: inits moved down to their use */
void to_temps(Opt *O);       /* opt_temps.c: variables assigned once, temps */
void peepholes(Opt *O);      /* opt_peep.c: rewrites of temps and chains */
void share(Opt *O);          /* opt_share.c: variables shared, and named */

#endif
