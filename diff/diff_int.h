/*
 * diff_int.h: the adjoint transform's internals, shared by its files
 * (diff.c holds the design and the driver; doc/autodiff.md the method):
 *
 *   vars.c     the function being built: its new variables, the map from
 *              the original's values, adjoint variables and arrays
 *   structs.c  struct adjoints and the adjoint arrays a struct's fields
 *              come from
 *   summary.c  what a function does to its arrays, and the rules kdiff
 *              enforces on it (summarize, check_kernel)
 *   forward.c  the tape and the forward sweep
 *   loop.c     loops: run plainly, checkpointed, and their reverse
 *   reverse.c  the reverse sweep of each recorded instruction
 *   func.c     a wp.func's adjoint and replay, and calls to them
 *   backward.c a kernel's backward, its thread-private elements promoted
 *
 * D is the state of one function's transform; Summary what calls to a
 * func need to know of it.  The forward sweep records a Tape of Recs that
 * the reverse sweep walks backwards.  Only diff/ includes this header.
 */
#ifndef KS_DIFF_INT_H
#define KS_DIFF_INT_H

#include "diff.h"
#include "ir/calls.h"
#include "ir/walk.h"

/* ---- the tape ---------------------------------------------------------- */

/* What a forward sweep ran, in order, for the reverse sweep to walk
 * backwards: an instruction with its new operands (R_INST; R_STORE a store,
 * the old value kept to restore), an if with its condition and the tapes
 * of its branches, a loop (what loop.c needs of its forward run). */
enum { R_INST, R_IF, R_LOOP, R_STORE };

typedef struct Tape Tape;
typedef struct LoopRec LoopRec; /* loop.c */

typedef struct Rec {
	int kind;
	int op, callee;
	Loc loc;
	int nres, narg;
	int32_t *res, *arg;
	int old;     /* R_STORE: the saved value, or -1 (no restore) */
	int cond;    /* R_IF */
	Tape *t, *e; /* R_IF */
	LoopRec *L;  /* R_LOOP */
} Rec;

struct Tape {
	Rec **v;
	int n, cap;
};

/* ---- the state of a function's transform ------------------------------- */

/* Code that runs where a block ends normally or exits: movs from the
 * current names of orig[i] into dst[i] (recorded for the reverse). */
typedef struct Hook {
	int n;
	int *orig;
	int32_t *dst;
} Hook;

/* What a break, continue or ret leaves: the function body or a loop's
 * trip. */
typedef struct Region {
	int E;     /* exited flag of this region (bool var) */
	int iter;  /* a loop iteration (break/continue end it) */
	int depth; /* loop depth */
	Hook *out; /* iteration: movs to the carried outputs */
} Region;

/* What calls to a func need to know of it (summary.c). */
typedef struct Summary {
	int done;
	uint8_t *loads, *atomics, *kinds; /* per parameter index */
	int sideonly;                     /* no float in or out, but stores or uses an atomic's
	                                   * result: no replay, no adjoint (see has_floaty) */
} Summary;

/* The transform of one function: f, the original, into g. */
typedef struct D {
	Module *m;
	const Src *src;
	const Func *f; /* original */
	Func *g;       /* being built */
	int fi;
	int nenv;     /* size of an environment (f->nval) */
	int done_var; /* set by ret: the thread or call has returned */
	int *ret_var;
	int32_t *adj; /* per new value: adjoint variable or -1 */
	int capadj;
	int32_t *adjarr; /* per new value: adjoint array (array params) or -1 */
	int capadjarr;
	int32_t *inits; /* new variables to zero at the top */
	int ninit, capinit;
	int nname;     /* fresh-name counter */
	Arena *a;      /* scratch */
	int32_t *fadj; /* per function: index of its _adj func */
	int32_t *pure; /* per function: the function to call in a sweep */
	Summary *sum;
	uint8_t *rmw; /* per original value: array whose atomics act as stores */
	/* per new value, for diff_opt: its name before numbering, DV_* flags */
	const char **vbase;
	uint8_t *vflag;
	int capinfo;
	/* per function of the module: may a call to it write memory
	 * (FX_WRITE: diff.c decides, for the simplifier)? */
	IrEffects *callfx;
	int tape;        /* a kernel: loops keep checkpoints on the tape */
	int nloop;       /* loops taped so far */
	int *mentions;   /* per original value: the instructions that name it */
	uint8_t *iscell; /* per original value: an array element promoted (promote) */
	/* per new value of struct type: the adjoint arrays of its leaves
	 * (ty_nleaves; -1 for a leaf that is no float array), known for a
	 * parameter and what field reads from it; NULL when unknown */
	int32_t **sorg;
	int capsorg;
} D;

/* What b does to f's array parameters: loads, stores (first location in
 * a loop and anywhere), atomics. */
typedef struct Use {
	uint8_t *load, *store, *storeloop, *atomic;
	uint8_t *kinds; /* atomic kinds: 1 add/sub, 2 min, 4 max, 8 exch/cas,
	                 * 16 and/or/xor */
	uint8_t *aloop; /* an atomic in a loop or in a called func */
	Loc *aloopat;
	uint8_t *nontid;           /* an access at an index other than wp.tid() */
	uint8_t *aresult, *amixed; /* an atomic's result used; min/max mixed */
	Loc *aresultat, *amixedat;
	int *aresultrow;
	const uint8_t *tidv; /* per value: holds wp.tid() (one definition) */
	Loc *storeloc, *atomicloc, *loadloc;
} Use;

/* ---- small helpers ----------------------------------------------------- */

static inline Type vty(const D *d, int id) { return d->g->val[id].ty; }
static inline void *salloc(D *d, size_t n) { return arena_alloc(d->a, n); }

static inline Inst *emit(D *d, Block *b, int op, const int32_t *res, int nres, const int32_t *arg, int narg,
			 Loc loc)
{
	return ir_emit(d->m, b, op, res, nres, arg, narg, loc);
}

static inline void mov(D *d, Block *b, int dst, int src, Loc loc) { emit(d, b, OP_MOV, &dst, 1, &src, 1, loc); }

static inline void set_bool(D *d, Block *b, int var, int v, Loc loc)
{
	mov(d, b, var, ir_const_bool(d->m, d->g, v), loc);
}

static inline DiffEmit de(D *d, Block *b, Loc loc)
{
	DiffEmit e = {d->m, d->g, b, loc};
	return e;
}

static inline int adjpeek(D *d, int id) { return id < d->capadj ? d->adj[id] : -1; }

static inline int adjarr_of(D *d, int arr) { return arr < d->capadjarr ? d->adjarr[arr] : -1; }

static inline int32_t *sorg_of(const D *d, int id) { return id < d->capsorg ? d->sorg[id] : NULL; }

/* What the forward pass does once and no sweep of the backward repeats:
 * atomics and printf (a print in a forward stays in the forward). */
static inline int forward_only(const Inst *in) { return (ir_inst_fx(in) & (FX_ATOMIC | FX_PRINT)) != 0; }

/* ---- the function being built (vars.c) --------------------------------- */

/* A located error in the kernel source; never returns. */
KS_PRINTF(3, 4) KS_NORETURN void derr(D *d, Loc at, const char *fmt, ...);
/* Has g a parameter named s? */
int name_taken(const Func *g, const char *s);
/* Note what diff_opt needs to know of new value id (DV_* flags); every
 * value made since value n0 computes a derivative. */
void note(D *d, int id, const char *base, int flags);
void mark_deriv(D *d, int n0);
/* A new variable named after base, zeroed at the top unless noinit; a
 * new version of original value orig (a source variable's keeps its
 * name, a temp's is "t"). */
int fresh_named(D *d, const char *base, Type t, int noinit);
int fresh(D *d, int orig, Type t);
/* An environment (per original value, its current new name): a copy of
 * cur; the new value for original operand id. */
int32_t *env_copy(D *d, const int32_t *cur);
int map(D *d, const int32_t *cur, int id);
/* The adjoint variable of new value id (made on first use, -1 for none);
 * the adjoint array of array value arr; adj(id) += e; adj(id) = 0. */
int adjof(D *d, int id);
void set_adjarr(D *d, int arr, int adjarr);
void acc(D *d, Block *b, int id, int e, Loc loc);
void zero_adj(D *d, Block *b, int id, Loc loc);
/* (arr, idx..., [v]) into out, for an array access; the operand count */
int access_args(int32_t *out, int arr, const int32_t *idx, int n, int v);
/* ga[idx...] += v, atomically */
void adj_scatter(D *d, Block *b, int ga, const int32_t *idx, int v, Loc loc);
/* D for function fi, g being built; the environment of its body (made
 * after g's parameters); g's body: the zeroing of the new variables,
 * then body, simplified (diff_opt) unless -O0. */
void d_init(D *d, Module *m, const Src *src, Arena *a, int fi, Func *g);
int32_t *d_env(D *d);
void finish(D *d, Block *body);

/* ---- structs (structs.c) ----------------------------------------------- */

/* %r = field %s, k; %dst = setfield %s, k, %x; the sum of two struct
 * adjoints, field by field */
int field_of(D *d, Block *b, int s, int k, Loc loc);
void setfield_to(D *d, Block *b, int dst, int s, int k, int x, Loc loc);
int struct_sum(D *d, Block *b, int x, int y, Loc loc);
/* The adjoint arrays of the leaves of struct value id (sorg_of reads
 * them); the field read r = s.k gets its share. */
void set_sorg(D *d, int id, int32_t *leaves);
void field_origin(D *d, int s, int k, int r, Loc loc);
extern const char no_struct_origin[];
/* The leaves of struct type t, and which take an adjoint parameter. */
void leaves_of(D *d, Type t, const char *path, Type *out, const char **names, int *n);
int leaf_adj(Type t, int kernel);
int struct_has_adj(Type t);
/* A struct parameter's adjoint parameters: made in g, or found in a g
 * whose parameters are made (from *q on); a kernel's scatter of its
 * float leaves' adjoints. */
int32_t *struct_adj_params(D *d, Module *m, Func *g, const char *name, Type t, int kernel);
int32_t *struct_adj_leaves(D *d, const Func *g, Type t, int kernel, int *q);
void struct_scatter(D *d, Block *b, int a, Type t, const int32_t *leaves, Loc loc);

/* ---- what a function does (summary.c) ---------------------------------- */

/* Does f take or return a float value? */
int has_floaty(const Func *f);
/* An atomic's kind (Use.kinds) by its builtin row. */
int atomic_kind(int row);
/* What b does to f's array parameters, into u (use_new's). */
Use use_new(D *d, int n);
void uses(Module *m, D *d, const Func *f, const Block *b, int depth, Use *u);
/* count definitions; mark values defined by tid */
void tid_defs(const Block *b, int *ndef, uint8_t *istid);
/* d->sum[fi], made once; the rules on a kernel (located errors), and
 * d->rmw. */
void summarize(Module *m, D *d, int fi);
void check_kernel(Module *m, D *d, const Func *f);
/* May a call to _adj func fi write memory (before its body is made)? */
int adj_writes(const Module *m, int fi);

/* ---- the forward sweep (forward.c) ------------------------------------- */

/* A new tape; a new record at the end of t. */
Tape *tape_new(D *d);
Rec *rec(D *d, Tape *t, int kind, Loc loc);
/* mark the variables assigned in b (not for-loop variables) */
void assigned(const D *d, const Block *b, uint8_t *mark);
/* has b a ret (nested blocks too)? */
int has_ret(const Block *b);
/* def[v]: the first instruction of b (nested blocks too) that defines v */
void first_defs(const Block *b, const Inst **def);
/* Do values x and y name the same array: the same value, or the same
 * field of the same struct (s.v twice is two field reads of one array),
 * through copies?  def: first_defs's. */
int same_array(const Inst *const *def, int x, int y);
/* Forward sweep of b[from..] into out, recorded into tp. */
void tape_block(D *d, const Block *b, int from, int32_t *cur, Block *out, Tape *tp, Region *rg, Hook *hook);

/* ---- loops (loop.c) ---------------------------------------------------- */

/* count, per value, the instructions of b that name it */
void count_mentions(const Block *b, int *n);
/* A loop's forward sweep (recorded as R_LOOP), and its reverse. */
void tape_loop(D *d, const Inst *in, int32_t *cur, Block *out, Tape *tp, Region *rg);
void rev_loop(D *d, LoopRec *L, Block *out, Loc loc);

/* ---- the reverse sweep (reverse.c) ------------------------------------- */

/* The reverse sweep of tp, into out. */
void rev_tape(D *d, Tape *tp, Block *out);

/* ---- wp.funcs (func.c) ------------------------------------------------- */

/* The reverse of a call: a call of the callee's _adj func. */
void rev_call(D *d, Rec *r, Block *out);
/* func @f_adj: its signature (fadj[fi] its index), then its body. */
void diff_func_sig(Module *m, int fi, int32_t *fadj);
void diff_func(Module *m, const Src *src, D *d, int fi);
/* func @f_replay (d->pure[fi]), and its body: b without its atomics. */
void make_replay(Module *m, D *d, int fi);
void copy_block(Module *m, const D *d, const Block *b, Block *out);

/* ---- kernels (backward.c) ---------------------------------------------- */

/* backward @k for kernel fi */
void diff_kernel(Module *m, const Src *src, D *d, int fi);

#endif
