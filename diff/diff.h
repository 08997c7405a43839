/*
 * diff.h: kdiff's library interface, the reverse-mode adjoint transform
 * (doc/autodiff.md explains the method and the contract of a backward
 * kernel).
 */
#ifndef KS_DIFF_H
#define KS_DIFF_H

#include "ir/ir.h"

/* Append to m, for every `kernel @k`, its `backward @k`, and for every
 * `func @f`, a `func @f_adj`.  src is the kernel source, for located
 * errors with an excerpt, or NULL (errors then name m->source).  A kernel
 * whose adjoint cannot be exact is a located error, never a wrong
 * gradient. */
void diff_module(Module *m, const Src *src);

/* The same, one function at a time, for a module read by ir/stream.c
 * (every call to a function above): new() once the function names are
 * known, func() for each function in order (it verifies and prints it
 * to out, and keeps what it appends for end()), end() prints what
 * diff_module would have appended.  Errors are reported against the IR
 * only: kdiff reads the module whole to report them. */
typedef struct DiffStream DiffStream;
DiffStream *diff_stream_new(Module *m);
void diff_stream_func(DiffStream *ds, int fi, const Src *irsrc, FILE *out);
void diff_stream_end(DiffStream *ds, FILE *out);
void diff_stream_free(DiffStream *ds);

/* ---- internal: derivative rules (rule.c) ---- */

/* Lower the adjoint contributions of a derivative rule (a row's sixth
 * column, or an opcode rule) into b.  v[0..2] are the arguments a, b, c,
 * v[3] the result r, v[4] the result's adjoint g; out[i] receives the
 * contribution to argument i, or -1.  A rule starting with '@' is applied
 * component by component to vector arguments. */
typedef struct DiffEmit {
	Module *m;
	Func *f;
	Block *b;
	Loc loc;
} DiffEmit;
void diff_rule(DiffEmit *e, const char *rule, const int32_t v[5], int nargs, int32_t out[3]);
/* Emit helpers shared by diff.c and rule.c */
int diff_op(DiffEmit *e, int op, const int32_t *args, int n, Type want);
int diff_builtin(DiffEmit *e, const char *name, const int32_t *args, int n);
int diff_zero(DiffEmit *e, Type t);
int diff_fdot(DiffEmit *e, int x, int y);

#endif
