/*
 * expr.h: the expression generator's internals, shared by its files:
 * gen/expr.c (the Expr, literals, variables and arrays, no constant
 * subterms), expr_guard.c (squashing and the domain guards), one file a
 * type (expr_float.c, expr_int.c, expr_bool.c, expr_vec.c,
 * expr_mat.c) and expr_lib.c (the wider library).  What the rest of the
 * generator calls is in gen/gen_int.h.
 *
 * The types' generators call one another (a float is the length of a
 * vector, a vector the product of a matrix and a vector ...), so what
 * one file needs of another is declared here; those functions are
 * named ex_*, as the library is linked into every tool.  The small
 * interval operations are inline.
 */
#ifndef GEN_EXPR_H
#define GEN_EXPR_H

#include <math.h>
#include <string.h>

#include "gen/gen_int.h"

/* Two operands with the same text make a trivial operation (x - x,
 * wp.max(x, x), a and a): the second is drawn again a few times. */
#define SAME(a, b) (!strcmp((a).s, (b).s))
#define REDRAW(a, b, gen)                                    \
	do {                                                 \
		for (int t_ = 0; t_ < 4 && SAME(a, b); t_++) \
			b = (gen);                           \
	} while (0)

/* Two constructors side by side (wp.vec2(a, b) - wp.vec2(a, c)) read as
 * one written out by hand: the second is drawn again a few times. */
#define NOT_BOTH_CTOR(a, b, gen)                                                 \
	do {                                                                     \
		for (int t_ = 0; t_ < 3 && ex_is_ctor(a) && ex_is_ctor(b); t_++) \
			b = (gen);                                               \
	} while (0)

#define LIM 64.0
#define ILIM 1073741824.0 /* 2^30 */
#define NMAX 16777216.0   /* the largest dim: 2^24 */
#define LIB_PCT 6         /* percent of composite terms drawn from the wider library */

/* ---- intervals ----------------------------------------------------------- */

static inline Iv iv_add(Iv a, Iv b) { return iv_mk(a.lo + b.lo, a.hi + b.hi); }
static inline Iv iv_sub(Iv a, Iv b) { return iv_mk(a.lo - b.hi, a.hi - b.lo); }
static inline Iv iv_neg(Iv a) { return iv_mk(-a.hi, -a.lo); }
static inline Iv iv_mul(Iv a, Iv b)
{
	double p[4] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
	return iv_mk(fmin(fmin(p[0], p[1]), fmin(p[2], p[3])), fmax(fmax(p[0], p[1]), fmax(p[2], p[3])));
}
static inline Iv iv_scale(Iv a, double k) { return k >= 0 ? iv_mk(a.lo * k, a.hi * k) : iv_mk(a.hi * k, a.lo * k); }

/* ---- expr.c -------------------------------------------------------------- */

/* the int parameter n (every array's length), or NULL */
static inline Var *nvar(G *g) { return g->nvar >= 0 ? &g->v[g->nvar] : NULL; }
/* the variable V as an expression */
Expr ex_var(Var *v);
/* A vector or matrix constructor: wp.vec3(...), wp.mat22(...). */
int ex_is_ctor(Expr e);
/* A vector constructor of one argument, wp.vec3(s): a splat. */
int ex_is_splat(Expr e);
/* The second operand B (depth D) of a binary operation on vectors or
 * matrices of A's type, drawn again while it repeats A or both are
 * constructors; 0 when it still does (the caller keeps A alone). */
int ex_second_vm(G *g, Expr a, int d, Expr *b);
/* A float leaf that names a variable (within LIM). */
Expr ex_dep_f(G *g, int d);
/* An int leaf that names a variable. */
Expr ex_dep_i(G *g, int d);
/* A vector or matrix of type TY that names a variable. */
Expr ex_dep_vm(G *g, int ty, int d);
/* E, or, when it is a composite of literals alone, a leaf of its type
 * that names a variable. */
Expr ex_no_const(G *g, Expr e, int d);

/* ---- expr_guard.c -------------------------------------------------------- */

/* The round scales a person writes: 0.5, 0.25, 0.1, 0.05, 0.01 ...,
 * and their text. */
extern const double ex_round_scale[];
extern const char *const ex_round_scale_text[];
/* The first round scale k with m * k <= c, or -1 when none is that small. */
int ex_round_scale_for(double m, double c);
/* E (a float, vector or matrix) times the round constant ex_round_scale[I]. */
Expr ex_scale_by(G *g, Expr e, int i);
/* Is a its own absolute value, so that wp.abs(a) would read as a
 * blemish: a call of wp.abs, or an int never negative (wp.abs(i))? */
static inline int abs_needless(Expr a) { return abs_call(a.s) || (a.ty == T_I && a.iv.lo >= 0); }
/* A value >= LO (0.25 for sqrt, 0.5 for log and pow). */
Expr ex_positive(G *g, Expr a, double lo);

/* ---- the types ----------------------------------------------------------- */

/* expr_float.c: a float leaf (a variable, an array element, a component,
 * a literal) */
Expr ex_leaf_f(G *g, int d);
/* expr_float.c: the argument of a quantizer (floor, ceil, sign ...),
 * spread over a few integers or, for a sign (SIGN), across 0 */
Expr ex_spread(G *g, Expr a, int sign);
/* expr_int.c: an int leaf */
Expr ex_leaf_i(G *g, int d);
/* expr_int.c: B as an int divisor, >= 1 */
Expr ex_int_div(G *g, Expr b);
/* expr_bool.c: a threshold in the middle third of IV that no input
 * equals */
const char *ex_thresh_in(G *g, Iv iv);
/* expr_vec.c: the leaves vectors and matrices share, by R, a draw of
 * rnd(g, 6); 0 when there is none or R asks for another kind */
int ex_leaf_vm(G *g, int ty, int r, int d, Expr *e);
/* expr_mat.c: C times the identity of size N, written out */
const char *ex_eye(G *g, int n, double c);
/* expr_mat.c: S M + D, D the diagonal of DIAG's N entries and S a
 * round scale with N S |M| <= TOL (in *SCALE unless NULL) */
const char *ex_diag_plus(G *g, Expr m, int n, const double *diag, double tol, double *scale);
/* expr_mat.c: wp.determinant of a matrix nonsingular by construction,
 * of modest size */
Expr ex_det_f(G *g, int n, Expr m, int d);

#endif
