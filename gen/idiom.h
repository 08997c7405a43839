/*
 * idiom.h: the idiom families' internals, shared by their files: the
 * text kit (gen/idiom_kit.c) every family writes its kernel with, and
 * each family's entry (gen/idiom_FAMILY.c), which gen_idiom_kernel
 * (gen/idiom.c) calls by category.
 *
 * A family draws its kernel into a Kit: lines of the body (B) and of
 * its @wp.func helpers (H), text made in the scratch arena (F), and
 * parameters (kit_arr, kit_scalar) that go into the signature or the
 * kernel's @wp.struct; kit_begin() starts a kernel, kit_end() writes
 * it.  The kit's functions are named kit_*, the families' idiom_*: the
 * library is linked into every tool.
 */
#ifndef GEN_IDIOM_H
#define GEN_IDIOM_H

#include <stdarg.h>

#include "gen/gen_int.h"

typedef struct Kit {
	G *g;
	Buf body;         /* the kernel body, written after its signature */
	Buf funcs;        /* @wp.func helpers, written before the kernel */
	char sig[1024];   /* the kernel's parameters */
	char fields[512]; /* the struct's fields, one line each */
	int ind;          /* indentation of the next body line */
	int strct;        /* scalars travel in a struct */
	int struct_first; /* ... passed first rather than last */
	char sname[40];   /* its class */
	char sarg[16];    /* its parameter */
	char tid[8];      /* the thread index's name (1-D launch) */
} Kit;

/* ---- text ---------------------------------------------------------------- */

const char *kit_vfmt(Kit *k, const char *fmt, va_list ap);
/* a line of IND levels of indentation, FMT's text, to TO */
void kit_vline(Buf *to, int ind, const char *fmt, va_list ap);

/* printf into the scratch arena: the text lives until the kernel ends */
static inline const char *F(Kit *k, const char *fmt, ...) KS_PRINTF(2, 3);
static inline const char *F(Kit *k, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	const char *s = kit_vfmt(k, fmt, ap);
	va_end(ap);
	return s;
}

/* a body line at the current indentation */
static inline void B(Kit *k, const char *fmt, ...) KS_PRINTF(2, 3);
static inline void B(Kit *k, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	kit_vline(&k->body, k->ind, fmt, ap);
	va_end(ap);
}

/* a helper's line (FMT holds its indentation) */
static inline void H(Kit *k, const char *fmt, ...) KS_PRINTF(2, 3);
static inline void H(Kit *k, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	kit_vline(&k->funcs, 0, fmt, ap);
	va_end(ap);
}

/* one of the strings, drawn alike */
#define ONE(g, ...) PICK(g, ((const char *const[]){__VA_ARGS__}))

/* ---- parameters and literals --------------------------------------------- */

/* An array parameter NAME of element type ELEM ("float", "wp.vec3") and
 * NDIM dimensions, in one of the spellings Warp accepts. */
const char *kit_arr(Kit *k, const char *name, const char *elem, int ndim);
/* A scalar parameter of type TY: a field of the kernel's struct when it
 * has one, else a parameter of its own; returns how the body names it. */
const char *kit_scalar(Kit *k, const char *name, const char *ty);
const char *kit_fparam(Kit *k, const char *name);
/* A coefficient: a parameter NAME, or a literal in [LO, HI]. */
const char *kit_coef(Kit *k, const char *name, double lo, double hi);
/* A literal in [LO, HI] on a grid of twenty to two hundred steps. */
const char *kit_num(Kit *k, double lo, double hi);
/* kit_num(), but never the literal AVOID */
const char *kit_num_not(Kit *k, double lo, double hi, const char *avoid);
/* X as a literal of up to five decimals */
const char *kit_dec(Kit *k, double x);
/* F times the coefficient C, folded into one literal when C is one */
const char *kit_times(Kit *k, double f, const char *c);
/* C times E, a leading 1.0 dropped and literal factors folded */
const char *kit_prod(Kit *k, const char *c, const char *e);
/* the epsilon that softens a length where two points may coincide */
const char *kit_soft_eps(Kit *k);

/* ---- shapes -------------------------------------------------------------- */

/* a smooth scalar response of X, finite and differentiable for every X */
const char *kit_shape(Kit *k, const char *x);
/* a response of X with more to tune than kit_shape() */
const char *kit_response(Kit *k, const char *x);
/* a force field at the point P (vec3, an atom) */
const char *kit_field(Kit *k, const char *p);

/* ---- the kernel ---------------------------------------------------------- */

/* Start a kernel of G's category; its scalars travel in a struct in
 * STRUCT_PCT percent of the kernels. */
void kit_begin(Kit *k, G *g, int struct_pct);
/* `A = wp.tid()` (ND 1) or `A, B = wp.tid()` (ND 2) */
void kit_tid_line(Kit *k, int nd, const char *a, const char *b);
/* a helper's name: WORD and the kernel's index */
const char *kit_hname(Kit *k, const char *word);
/* Write the struct, the helpers and the kernel NAME to the output. */
void kit_end(Kit *k, const char *name);
/* Return early where the element at AT (of an array of ND dimensions)
 * is not active: a bit of a flags array named from NAMES, or a bool. */
void kit_active_check(Kit *k, const char *at, int nd, const char *const names[3]);
/* V scaled back to length MAX where it is longer, its length in LEN */
void kit_cap_length(Kit *k, const char *v, const char *len, const char *max);

/* ---- the families: one kernel of each, between kit_begin and kit_end ---- */

void idiom_particles(Kit *k);
void idiom_springs(Kit *k);
void idiom_stencil(Kit *k);
void idiom_reduce(Kit *k);
void idiom_rigid(Kit *k);
void idiom_fem(Kit *k);
void idiom_neighbors(Kit *k);
void idiom_raycast(Kit *k);
void idiom_sampling(Kit *k);

#endif
