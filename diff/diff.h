/*
 * diff.h: kdiff's library interface, the reverse-mode adjoint transform
 * (doc/autodiff.md explains the method and the contract of a backward
 * kernel).
 */
#ifndef KS_DIFF_H
#define KS_DIFF_H

#include "ir/calls.h"

/* kdiff, one function at a time, for a module read by ir/file.c (every
 * function of the module made, each read in order after its callees):
 * diff_begin once, then diff_next for each function as it is read: it
 * appends to m what the function needs — a func's replay, its copy
 * without atomics, when it has any; its adjoint func `func @f_adj`; a
 * kernel's `backward @k` — and says which (-1 for none).  ksrc is the
 * kernel source, for located errors with an excerpt, or NULL (errors then
 * name m->source).  A kernel whose adjoint cannot be exact is a located
 * error, never a wrong gradient. */
typedef struct Diff Diff;
typedef struct DiffMade {
	int replay, adj, backward;
} DiffMade;
Diff *diff_begin(Module *m, const Src *ksrc);
DiffMade diff_next(Diff *d, int fi);
void diff_end(Diff *d);

/* The same for a whole module in memory: what it appends comes in the
 * order kdiff prints it, the replays, then the adjoint funcs, then the
 * backward kernels. */
void diff_module(Module *m, const Src *ksrc);

/* The type tests of kdiff, in one place: a float32 scalar (what the
 * simplifier folds); a vector, matrix, quaternion or transform (no
 * inline constant, zero is `make`); float-valued (has an adjoint: a struct
 * has one when it holds a float, its adjoint being a struct of the same
 * type whose float fields are the fields' adjoints). */
static inline int diff_float_scalar(Type t) { return t == TY_FLOAT; }
static inline int diff_composite(Type t) { return ty_is_composite(t) || ty_is_tile(t); }
static inline int diff_floaty(Type t)
{
	return ty_is_floaty(t) || (ty_is_struct(t) && ty_has_float(t)) ||
	       (ty_is_tile(t) && ty_is_float(ty_scalar(t)));
}

/* 1 (the default): simplify what kdiff appends (diff_opt); 0: leave it as
 * the transform writes it (kdiff -O0, for debugging kdiff itself). */
extern int diff_optimize;

/* ---- internal: the simplifier (opt.c) ---- */

/* What kdiff knows of the values of a function it built. */
enum {
	DV_SOURCE = 1, /* a version of a source variable or its adjoint: keeps a variable */
	DV_DERIV = 2,  /* a derivative's value: where it is zero, so is a product with it */
};
typedef struct DiffInfo {
	const char **base;       /* per value: the name before kdiff numbered it, or NULL */
	uint8_t *flag;           /* per value: DV_* */
	int n;                   /* values described; later ones have neither */
	const IrEffects *callfx; /* per function of the module: may a call write
	                          * memory (FX_WRITE: diff.c)? */
} DiffInfo;
/* Simplify f, a backward kernel or adjoint func that kdiff built, into the
 * code a person would write (opt.c explains the passes).  The semantics
 * are kept exactly, but for the sign of a zero and for a zero adjoint times
 * an infinite value, which counts as zero. */
void diff_opt(Module *m, Func *f, const DiffInfo *di);
/* May variable v be read in b before b assigns it, on some path from b's
 * start (the value it has when b begins is live)?  *def: does every path
 * through b assign it? */
int diff_exposed(const Block *b, int v, int *def);

/* ---- internal: derivative rules (rule.c) ---- */

/* Lower the adjoint contributions of a derivative rule (a row's sixth
 * column, or an opcode rule) into b.  v[0..2] are the arguments a, b, c,
 * v[3] the result r, v[4] the result's adjoint g, v[5..8] the second and
 * third results and their adjoints (r1, g1, r2, g2; -1 where there are
 * none); out[i] receives the
 * contribution to argument i, or -1.  A rule starting with '@' is applied
 * component by component to vector arguments. */
typedef struct DiffEmit {
	Module *m;
	Func *f;
	Block *b;
	Loc loc;
} DiffEmit;
/* Lower RULE (a builtin's sixth column) to IR: out[i] is the adjoint
 * contribution to argument i (-1 for none).  v holds the operands: the
 * first three arguments (a, b, c), the result (r) and its adjoint (g),
 * the second and third results and adjoints (r1 g1 r2 g2), then the
 * fourth argument (d). */
enum { DIFF_MAX_RULE_ARGS = 6 };
void diff_rule(DiffEmit *e, const char *rule, const int32_t v[12], int nargs, int32_t out[DIFF_MAX_RULE_ARGS]);
/* Emit helpers shared by the transform (diff_int.h) and rule.c */
int diff_op(DiffEmit *e, int op, const int32_t *args, int n, Type want);
int diff_builtin(DiffEmit *e, const char *name, const int32_t *args, int n);
int diff_zero(DiffEmit *e, Type t);
int diff_fdot(DiffEmit *e, int x, int y);

#endif
