/*
 * gen_int.h: the generator's internals, shared by its files:
 * gen.c (state, PRNG, names, coverage, categories), expr.c and
 * expr_*.c (typed expressions with value intervals; gen/expr.h holds
 * what only they share), stmt.c (statements, helpers, kernels) and the
 * idioms (gen/idiom.c, gen/idiom.h).
 *
 * Every value the generator writes is an Expr: its text, its type, its
 * precedence (to parenthesize when composing), an interval that holds
 * every component for any input under krun's law, whether it depends on
 * an input, and whether it is an index (an int in [0, n), n the length of
 * every array).  An operation is written only in a form that is finite on
 * its operands' intervals; a value that might grow too large is scaled or
 * squashed back (doc/kgen.md, "Safety").
 */
#ifndef GEN_INT_H
#define GEN_INT_H

#include "gen/gen.h"

enum { T_F, T_I, T_B, T_V2, T_V3, T_V4, T_M22, T_M33, T_M44, NTY };

#define IS_VEC(t) ((t) >= T_V2 && (t) <= T_V4)
#define IS_MAT(t) ((t) >= T_M22 && (t) <= T_M44)
/* clang-format off */
#define TY_N(t) (IS_VEC(t) ? (t) - T_V2 + 2 : IS_MAT(t) ? (t) - T_M22 + 2 : 1)
#define VEC_OF(n) (T_V2 + (n) - 2)
#define MAT_OF(n) (T_M22 + (n) - 2)
/* clang-format on */

/* precedence, lowest first (Python's) */
enum { P_IFEXP = 1, P_OR, P_AND, P_NOT, P_CMP, P_ADD, P_MUL, P_UNARY, P_ATOM };

typedef struct Iv {
	double lo, hi;
} Iv;

/* Expr.dep, Var.dep: bits.  DEP_INPUT: depends on an input (a scalar
 * parameter too); DEP_VARY: may differ from thread to thread (an array
 * element, the thread index, a loop counter, a helper's parameter);
 * DEP_SEED: may differ from one input seed to another (an array element,
 * a float parameter; not i, nor an int parameter, which is n); DEP_N:
 * its range depends on the launch (i, an int element, n, a loop counter),
 * so its interval says little of the values a launch sees. */
enum { DEP_INPUT = 1, DEP_VARY = 2, DEP_THREAD = 3, DEP_SEED = 4, DEP_ELEM = 7, DEP_N = 8 };

typedef struct Expr {
	const char *s;
	Iv iv;
	unsigned char ty, prec, dep, idx;
} Expr;

enum { GV_LOCAL, GV_PARAM, GV_LOOP, GV_ARRAY };
enum { R_IN, R_OUT, R_ACC };

typedef struct Var {
	char name[28];
	unsigned char ty, kind, role, idx, dep, alive, carried, acc, count;
	unsigned char stored; /* OUT array: stored at top level */
	unsigned char lit;    /* local bound to a bare literal: a constant to
	                       * Warp, which a dynamic loop may not change */
	unsigned char afam;   /* ACC array: atomics used so far: 0 none, 1 add/sub, 2 min, 3 max
	                       * (kdiff: a min/max target takes no other kind) */
	int loop, blk;        /* loop and block depth at declaration */
	Iv iv;
	double budget; /* accumulator: bound of what one statement adds */
	double trip;   /* accumulator: trip product where declared */
} Var;

#define MAXV 128 /* two 64-bit words of G.vmask */
#define MAXH 4
#define MAXP 6

typedef struct Helper {
	char name[64];
	int np, nret, has_arr;
	unsigned char pty[MAXP], pidx[MAXP], pcount[MAXP], parr[MAXP], prole[MAXP];
	Iv piv[MAXP];
	unsigned char rty[3], ridx[3];
	Iv riv[3];
} Helper;

/* statement kinds, for the per-category weights */
enum {
	ST_ASSIGN,
	ST_AUG,
	ST_IF,
	ST_FOR,
	ST_WHILE,
	ST_COMP,
	ST_STORE,
	ST_ATOMIC,
	ST_CALL,
	ST_RETURN,
	ST_REASSIGN,
	NST
};
/* float expression kinds */
enum { EX_LEAF, EX_ARITH, EX_MATH, EX_VEC, EX_MAT, EX_TERN, EX_CALL, EX_MINMAX, EX_CONV, NEX };

typedef struct Prof {
	int st[NST];
	int ex[NEX];
	int vec, mat, intv; /* percent chance a new local is a vec / mat / int */
} Prof;

typedef struct G {
	uint64_t s;
	int cat;
	const GenKnobs *k;
	const Prof *p;
	GenCov *cov;
	int counting; /* cov is the caller's: --coverage */
	Buf *out;
	char scratch[1 << 18];
	size_t sp;
	char *top; /* the string cat() allocated last */
	size_t toplen;
	Var v[MAXV];
	int nv;
	uint64_t vmask[NTY][2]; /* v[k] of each type that is not an array (k < nv counts) */
	uint64_t amask[2];      /* v[k] that are arrays */
	Helper h[MAXH];
	int nh;
	int ind, loop, blk, in_func, in_while;
	double trip;     /* product of the enclosing loops' trip bounds */
	int nvar;        /* index of the int param n (length), or -1 */
	int vecn;        /* the vector size this kernel favours */
	char suffix[24]; /* "_INDEX" */
	char kname[64];
	const char *fnames[MAXH + 1];
	int nstmt;
	int want_add; /* pick_arr(R_ACC): only arrays open to atomic_add */
	char rng[28]; /* the kernel's random state, "" when it has none */
	int no_draw;  /* inside a branch of x if c else y, or and/or: no draw */
} G;

/* gen.c */
/* splitmix64; inline, as the generator draws a number every few bytes */
static inline uint64_t g_next(G *g)
{
	uint64_t z = (g->s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}
static inline int rnd(G *g, int n) { return (int)(((g_next(g) >> 32) * (uint64_t)n) >> 32); }
static inline int chance(G *g, int pct) { return rnd(g, 100) < pct; }
int wpick(G *g, const int *w, int n);
#define PICK(g, a) ((a)[rnd(g, (int)KS_NELEM(a))])
char *cat_grow(G *g, int grow, const char *const *piece);
#define S(...) cat_grow(g, 0, (const char *const[]){__VA_ARGS__, (const char *)0})
#define APP(...) cat_grow(g, 1, (const char *const[]){__VA_ARGS__, (const char *)0})
/* Concatenate the NULL-terminated pieces into DST of CAP bytes, cut as
 * snprintf would; returns the length. */
size_t str_cat(char *dst, size_t cap, const char *a, ...);
#define SCAT(dst, cap, ...) str_cat(dst, cap, __VA_ARGS__, (const char *)0)
/* X in decimal, written at the end of B (21 bytes). */
const char *u64_str(char *b, uint64_t x);
const char *flit(G *g, double x);
const char *ilit(G *g, long x);
void newname(G *g, char *dst, const char *const *list, int n);
int name_used(G *g, const char *name);
#define NEWNAME(g, dst, list) newname(g, dst, list, (int)KS_NELEM(list))
#define COV(g, x) ((g)->cov->c[GC_##x]++)
#define COVB(g, x) ((g)->cov->b[GB_##x]++)
void put(G *g, const char *s);
void line(G *g, const char *const *piece);
#define L(...) line(g, (const char *const[]){__VA_ARGS__, (const char *)0})
const char *ty_spell(G *g, int ty);
void cov_type(G *g, int ty);

/* expr.c and expr_*.c: typed expressions */
Iv iv_mk(double lo, double hi);
double iv_mag(Iv a);
Iv iv_hull(Iv a, Iv b);
Iv iv_sym(double m);
Expr ex(const char *s, int ty, int prec, Iv iv, int dep);
const char *par(G *g, Expr e, int prec);
Expr gen_f(G *g, int d);
Expr gen_i(G *g, int d);
Expr gen_idx(G *g, int d);
Expr gen_b(G *g, int d);
Expr gen_v(G *g, int n, int d);
Expr gen_m(G *g, int n, int d);
Expr gen_ty(G *g, int ty, int d);
/* the wider library (quaternions, transforms, spatial vectors, special
 * functions, random draws ...): an expression of one type, or the
 * plain generator's when none fits here */
Expr lib_f(G *g, int d);
Expr lib_i(G *g, int d);
Expr lib_v(G *g, int n, int d);
Expr lib_m(G *g, int n, int d);
Expr squash(G *g, Expr e, double c);
Expr tanh_arg(G *g, Expr e);
Expr squash_int(G *g, Expr e, int c);
Expr safe_div(G *g, Expr b);
Expr with_dep(G *g, Expr e);
Expr with_seed(G *g, Expr e);
Expr lit_f(G *g);
const char *near_diag(G *g, int n, int d, const double *diag, double tol, int *dep);
int has_name(const char *s);
/* S is a plain literal: 2.0, -0.5, 7, 1.0e-4 */
int is_lit(const char *s);
/* E names a variable (one that depends on an input surely does). */
static inline int named_ex(Expr e) { return e.dep || has_name(e.s); }
const char *thresh(G *g);
Var *pick_var(G *g, int ty, int want_idx, int any_kind);
Var *pick_arr(G *g, int ty, int role);
Expr read_arr(G *g, Var *a, int d);
Expr call_helper(G *g, Helper *h, int d, Iv *riv, int *dep);
int helper_ok(G *g, Helper *h);

/* prune.c */
int gen_prune(Buf *out, size_t start, int cat);

/* stmt.c */
void gen_body_kernel(G *g, uint64_t index);

/* idiom.c: kernel INDEX of an idiom category (CAT_PARTICLES ...) */
void gen_idiom_kernel(G *g, uint64_t index);

/* Is the whole of s one call of wp.abs (which needs no wp.abs around it)? */
int abs_call(const char *s);
/* "wp.abs(S)", counted as builtin row B, or S itself when it is one call
 * of wp.abs */
const char *abs_text(G *g, const char *s, int b);

#endif
