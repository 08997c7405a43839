/*
 * diff.c: the reverse-mode adjoint transform (kdiff).  doc/autodiff.md
 * explains the method; in short, per thread:
 *
 *  - a forward sweep runs the body, giving every definition a fresh
 *    variable (SSA-like), so that the values the reverse sweep needs are
 *    never overwritten; every new variable is zeroed at the top of the
 *    function, which keeps the verifier's definite-assignment rule;
 *  - the forward sweep leaves a Tape: the instructions it ran, with their
 *    new operands, the ifs (conditions kept) and the loops;
 *  - the reverse sweep walks the tape backwards, applying the derivative
 *    rules (rule.c, ir/builtins.h);
 *  - a loop is run plainly in the forward sweep, counting its trips T; its
 *    reverse, for k = T-1 down to 0, restores the loop-entry values,
 *    recomputes k iterations plainly, and runs one iteration's own forward
 *    and reverse sweep.  O(T^2) time, no tape: exact and bounded;
 *  - break, continue and ret become flags: the rest of a block after an
 *    if that may exit is guarded by "not exited", a guard the reverse
 *    sweep replays;
 *  - an array element only its own thread touches (index wp.tid()) is
 *    promoted to a local variable first (promote);
 *  - what cannot be kept within the bound is a located error
 *    (check_kernel, summarize).
 */
#include <stdlib.h>
#include <string.h>

#include "diff.h"

enum { R_INST, R_IF, R_LOOP, R_STORE };

typedef struct Tape Tape;
typedef struct LoopRec LoopRec;

typedef struct Rec {
	int kind;
	int op, callee;
	Loc loc;
	int nres, narg;
	int32_t *res, *arg;
	int old;        /* R_STORE: the saved value, or -1 (no restore) */
	int cond;       /* R_IF */
	Tape *t, *e;    /* R_IF */
	LoopRec *L;     /* R_LOOP */
} Rec;

struct Tape {
	Rec **v;
	int n, cap;
};

/* What the reverse of a loop needs from its forward run. */
struct LoopRec {
	const Inst *in;
	int32_t *entry;  /* the environment at loop entry */
	int *car, ncar;  /* the variables the body assigns (original ids) */
	uint8_t *kind;   /* per car[k]: C_* */
	int32_t *s;      /* their state variables (values after the loop) */
	int T;           /* trip count */
	int lo, hi, step;
	int depth;       /* loop depth of the body */
	int h;           /* the tape handle (tape_loop's result), or -1 */
};

/* How a variable the body of a loop assigns goes round it: C_IN, a trip
 * reads the value the trip before left (it is restored, from a checkpoint);
 * C_OUT, the code after the loop reads it; neither: it lives in one trip. */
enum { C_IN = 1, C_OUT = 2 };

/* Code that runs where a block ends normally or exits: movs from the
 * current names of orig[i] into dst[i] (recorded for the reverse). */
typedef struct Hook {
	int n;
	int *orig;
	int32_t *dst;
} Hook;

typedef struct Region {
	int E;           /* exited flag of this region (bool var) */
	int iter;        /* a loop iteration (break/continue end it) */
	int depth;       /* loop depth */
	Hook *out;       /* iteration: movs to the carried outputs */
} Region;

typedef struct Summary {
	int done;
	uint8_t *loads, *atomics, *kinds; /* per parameter index */
	int has_atomic;
	int sideonly; /* no float in or out, but stores or uses an atomic's
	               * result: no replay, no adjoint (see has_floaty) */
} Summary;

typedef struct D {
	Module *m;
	const Src *src;
	const Func *f;   /* original */
	Func *g;         /* being built */
	int fi;
	int nenv;        /* size of an environment (f->nval) */
	int done_var;    /* set by ret: the thread or call has returned */
	int *ret_var;
	int32_t *adj;    /* per new value: adjoint variable or -1 */
	int capadj;
	int32_t *adjarr; /* per new value: adjoint array (array params) or -1 */
	int capadjarr;
	int32_t *inits;  /* new variables to zero at the top */
	int ninit, capinit;
	int nname;       /* fresh-name counter */
	Arena *a;        /* scratch */
	int32_t *fadj;   /* per function: index of its _adj func */
	int32_t *pure;   /* per function: the function to call in a sweep */
	Summary *sum;
	uint8_t *rmw;    /* per original value: array whose atomics act as stores */
	/* per new value, for diff_opt: its name before numbering, DV_* flags */
	const char **vbase;
	uint8_t *vflag;
	int capinfo;
	/* per function of the module: may a call to it write memory? */
	uint8_t **fnfx;
	int *capfnfx;
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

int diff_optimize = 1;

/* ---- small helpers ------------------------------------------------------ */

static Type vty(const D *d, int id) { return d->g->val[id].ty; }
static int is_floaty(Type t) { return ty_is_floaty(t); }

KS_PRINTF(3, 4) KS_NORETURN static void derr(D *d, Loc at, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ks_verror_at(d->src, at.line, at.col, fmt, ap);
}

static int name_taken(const Func *g, const char *s)
{
	for (int i = 0; i < g->nparam; i++)
		if (!strcmp(g->val[g->param[i]].name, s))
			return 1;
	return 0;
}

/* Note what diff_opt needs to know of new value id. */
static void note(D *d, int id, const char *base, int flags)
{
	if (id >= d->capinfo) {
		int old = d->capinfo;
		arena_grow(d->a, (void **)&d->vbase, &d->capinfo, id + 1, sizeof *d->vbase);
		int cap = old;
		arena_grow(d->a, (void **)&d->vflag, &cap, d->capinfo, 1);
		for (int i = old; i < d->capinfo; i++) {
			d->vbase[i] = NULL;
			d->vflag[i] = 0;
		}
	}
	if (base)
		d->vbase[id] = base;
	d->vflag[id] |= (uint8_t)flags;
}

static int vflags(const D *d, int id) { return id < d->capinfo ? d->vflag[id] : 0; }

/* Every value made since value n0 computes a derivative. */
static void mark_deriv(D *d, int n0)
{
	for (int id = n0; id < d->g->nval; id++)
		note(d, id, NULL, DV_DERIV);
}

/* Whether a call to function fi may write memory. */
static void set_fnfx(D *d, int fi, int fx)
{
	if (fi >= *d->capfnfx) {
		int old = *d->capfnfx, cap = old ? old : 16;
		while (cap <= fi)
			cap *= 2;
		*d->fnfx = xrealloc(*d->fnfx, (size_t)cap);
		memset(*d->fnfx + old, 0, (size_t)(cap - old));
		*d->capfnfx = cap;
	}
	(*d->fnfx)[fi] = (uint8_t)fx;
}

/* A new variable named after base, zeroed at the top unless noinit. */
static int fresh_named(D *d, const char *base, Type t, int noinit)
{
	char buf[160];
	do
		snprintf(buf, sizeof buf, "%.120s_%d", base, ++d->nname);
	while (name_taken(d->g, buf));
	int id = ir_var(d->m, d->g, buf, t);
	note(d, id, arena_strdup(d->a, base), 0);
	if (!noinit) {
		arena_grow(d->a, (void **)&d->inits, &d->capinit, d->ninit + 1, sizeof *d->inits);
		d->inits[d->ninit++] = id;
	}
	return id;
}

/* A new version of original value orig: a source variable's keeps its
 * name, a temp's is "t". */
static int fresh(D *d, int orig, Type t)
{
	const char *n = orig >= 0 && orig < d->f->nval ? d->f->val[orig].name : NULL;
	int id = fresh_named(d, n ? n : "t", t, 0);
	if (n && !(d->iscell && orig < d->f->nval && d->iscell[orig]))
		note(d, id, NULL, DV_SOURCE);
	return id;
}

static void *salloc(D *d, size_t n) { return arena_alloc(d->a, n); }

static int32_t *env_copy(D *d, const int32_t *cur)
{
	int32_t *e = salloc(d, (size_t)d->nenv * sizeof *e);
	memcpy(e, cur, (size_t)d->nenv * sizeof *e);
	return e;
}

/* The new value for original operand id. */
static int map(D *d, const int32_t *cur, int id)
{
	const Value *v = &d->f->val[id];
	if (v->kind == VK_CONST)
		return ir_const(d->m, d->g, v->ty, v->k.i, v->k.f);
	if (cur[id] < 0)
		ks_fatal("kdiff: internal error: value %d of @%s has no new name", id, d->f->name);
	return cur[id];
}

static Inst *emit(D *d, Block *b, int op, const int32_t *res, int nres, const int32_t *arg,
		  int narg, Loc loc)
{
	return ir_emit(d->m, b, op, res, nres, arg, narg, loc);
}

static void mov(D *d, Block *b, int dst, int src, Loc loc)
{
	emit(d, b, OP_MOV, &dst, 1, &src, 1, loc);
}

static void set_bool(D *d, Block *b, int var, int v, Loc loc)
{
	mov(d, b, var, ir_const_bool(d->m, d->g, v), loc);
}

static DiffEmit de(D *d, Block *b, Loc loc)
{
	DiffEmit e = {d->m, d->g, b, loc};
	return e;
}

static int adjpeek(D *d, int id)
{
	return id < d->capadj ? d->adj[id] : -1;
}

/* The adjoint variable of new value id (created on first use), or -1 when
 * the value has none (constants, ints, bools, arrays). */
static int adjof(D *d, int id)
{
	const Value *v = &d->g->val[id];
	if (v->kind == VK_CONST || !diff_floaty(v->ty))
		return -1;
	if (id >= d->capadj) {
		int old = d->capadj;
		arena_grow(d->a, (void **)&d->adj, &d->capadj, id + 1, sizeof *d->adj);
		for (int i = old; i < d->capadj; i++)
			d->adj[i] = -1;
	}
	if (d->adj[id] < 0) {
		/* adj_x for a version of x (the name x had before numbering),
		 * adj_t for a temp's */
		char buf[140];
		const char *b = id < d->capinfo && d->vbase[id] ? d->vbase[id] : v->name;
		snprintf(buf, sizeof buf, "adj_%.120s", b ? b : "t");
		d->adj[id] = fresh_named(d, buf, v->ty, 0);
		int src = (vflags(d, id) & DV_SOURCE) || v->kind == VK_PARAM;
		note(d, d->adj[id], NULL, DV_DERIV | (src ? DV_SOURCE : 0));
	}
	return d->adj[id];
}

static void set_adjarr(D *d, int arr, int adjarr)
{
	if (arr >= d->capadjarr) {
		int old = d->capadjarr;
		arena_grow(d->a, (void **)&d->adjarr, &d->capadjarr, arr + 1, sizeof *d->adjarr);
		for (int i = old; i < d->capadjarr; i++)
			d->adjarr[i] = -1;
	}
	d->adjarr[arr] = adjarr;
}

static int adjarr_of(D *d, int arr)
{
	return arr < d->capadjarr ? d->adjarr[arr] : -1;
}

/* ---- structs ---- */

/* %r = field %s, k into a new temp */
static int field_of(D *d, Block *b, int s, int k, Loc loc)
{
	int r = ir_temp(d->m, d->g, ty_field(vty(d, s), k)->ty);
	Inst *in = emit(d, b, OP_FIELD, &r, 1, &s, 1, loc);
	in->callee = k;
	return r;
}

/* %dst = setfield %s, k, %x */
static void setfield_to(D *d, Block *b, int dst, int s, int k, int x, Loc loc)
{
	Inst *in = emit(d, b, OP_SETFIELD, &dst, 1, (int32_t[]){s, x}, 2, loc);
	in->callee = k;
}

/* x + y for two adjoints of struct type: field by field, each field that
 * has an adjoint (ints and arrays have none); a new temp */
static int struct_sum(D *d, Block *b, int x, int y, Loc loc)
{
	Type t = vty(d, x);
	int r = x;
	for (int k = 0; k < ty_nfield(t); k++) {
		Type ft = ty_field(t, k)->ty;
		if (!diff_floaty(ft))
			continue;
		int fx = field_of(d, b, r, k, loc), fy = field_of(d, b, y, k, loc), sum;
		if (ty_is_struct(ft)) {
			sum = struct_sum(d, b, fx, fy, loc);
		} else {
			sum = ir_temp(d->m, d->g, ft);
			emit(d, b, OP_ADD, &sum, 1, (int32_t[]){fx, fy}, 2, loc);
		}
		int nr = ir_temp(d->m, d->g, t);
		setfield_to(d, b, nr, r, k, sum, loc);
		r = nr;
	}
	return r;
}

/* adj(id) += e */
static void acc(D *d, Block *b, int id, int e, Loc loc)
{
	if (e < 0)
		return;
	int a = adjof(d, id);
	if (a < 0)
		return;
	if (vty(d, e) != vty(d, a))
		ks_fatal("kdiff: internal error: adjoint of type %s added to %s", ty_name(vty(d, e)),
			 ty_name(vty(d, a)));
	if (ty_is_struct(vty(d, a))) {
		/* adj.f = adj.f + e.f for each field with an adjoint */
		Type t = vty(d, a);
		for (int k = 0; k < ty_nfield(t); k++) {
			Type ft = ty_field(t, k)->ty;
			if (!diff_floaty(ft))
				continue;
			int fa = field_of(d, b, a, k, loc), fe = field_of(d, b, e, k, loc), sum;
			if (ty_is_struct(ft)) {
				sum = struct_sum(d, b, fa, fe, loc);
			} else {
				sum = ir_temp(d->m, d->g, ft);
				emit(d, b, OP_ADD, &sum, 1, (int32_t[]){fa, fe}, 2, loc);
			}
			setfield_to(d, b, a, a, k, sum, loc);
		}
		return;
	}
	int32_t args[2] = {a, e};
	emit(d, b, OP_ADD, &a, 1, args, 2, loc);
}

static void set_sorg(D *d, int id, int32_t *leaves)
{
	if (id >= d->capsorg) {
		int old = d->capsorg;
		arena_grow(d->a, (void **)&d->sorg, &d->capsorg, id + 1, sizeof *d->sorg);
		for (int i = old; i < d->capsorg; i++)
			d->sorg[i] = NULL;
	}
	d->sorg[id] = leaves;
}

static int32_t *sorg_of(const D *d, int id)
{
	return id < d->capsorg ? d->sorg[id] : NULL;
}

/* The forward sweep read field k of struct s into r: r's adjoint arrays
 * are s's (a struct's arrays reached from a parameter have the adjoint
 * arrays the caller passed; kdiff follows no other). */
/* An array field's adjoint is followed from the struct parameter that holds
 * it; a struct made in the kernel or read from an array of structs has none. */
static const char no_struct_origin[] = "kdiff cannot follow the adjoint of an array held by a struct "
				       "that is not a parameter (a local, or an element of an array of structs)";

static void field_origin(D *d, int s, int k, int r, Loc loc)
{
	Type ft = ty_field(vty(d, s), k)->ty;
	int32_t *o = sorg_of(d, s);
	int off = ty_leaf_offset(vty(d, s), k);
	if (ty_is_struct(ft)) {
		if (o)
			set_sorg(d, r, o + off);
		return;
	}
	if (!ty_is_array(ft) || !diff_floaty(ty_elem(ft)))
		return;
	if (!o || o[off] < 0)
		derr(d, loc, "%s", no_struct_origin);
	set_adjarr(d, r, o[off]);
}

static void zero_adj(D *d, Block *b, int id, Loc loc)
{
	int a = adjpeek(d, id);
	if (a < 0)
		return;
	DiffEmit e = de(d, b, loc);
	if (ty_is_struct(vty(d, a))) {
		emit(d, b, OP_MAKE, &a, 1, NULL, 0, loc);
		return;
	}
	mov(d, b, a, diff_zero(&e, vty(d, a)), loc);
}

/* adj array [j] += v, atomically */
/* Array accesses (load, store, atomics) index an array of rank n with n
 * operands after the array; access_args builds (arr, idx..., [v]) into
 * out and returns the operand count (v < 0: none). */
static int access_args(int32_t *out, int arr, const int32_t *idx, int n, int v)
{
	out[0] = arr;
	for (int k = 0; k < n; k++)
		out[1 + k] = idx[k];
	if (v >= 0)
		out[1 + n] = v;
	return 1 + n + (v >= 0);
}

/* ga[idx...] += v, atomically */
static void adj_scatter(D *d, Block *b, int ga, const int32_t *idx, int v, Loc loc)
{
	int32_t a[KS_MAX_NDIM + 2];
	Type at[KS_MAX_NDIM + 2], rt;
	int n = access_args(a, ga, idx, ty_ndim(vty(d, ga)), v);
	for (int k = 0; k < n; k++)
		at[k] = vty(d, a[k]);
	int row = ir_builtin_resolve_ir("atomic_add", at, n, &rt);
	if (row < 0)
		ks_fatal("kdiff: no atomic_add for an array of %s", ty_name(ty_elem(at[0])));
	Inst *in = emit(d, b, OP_BUILTIN, NULL, 0, a, n, loc);
	in->callee = (int32_t)row;
}

/* The types of the leaves of t (ty_nleaves) in order, and their paths
 * ("p_dt", "s_body_pos") when names is not NULL. */
static void leaves_of(D *d, Type t, const char *path, Type *out, const char **names, int *n)
{
	if (!ty_is_struct(t)) {
		out[*n] = t;
		if (names)
			names[*n] = arena_strdup(d->a, path);
		(*n)++;
		return;
	}
	for (int k = 0; k < ty_nfield(t); k++) {
		char buf[160];
		snprintf(buf, sizeof buf, "%.80s_%.60s", path, ty_field(t, k)->name);
		leaves_of(d, ty_field(t, k)->ty, buf, out, names, n);
	}
}

/* Has leaf type t an adjoint parameter: a float array; in a kernel also
 * a float value (a 1-element array, like a float parameter's)? */
static int leaf_adj(Type t, int kernel)
{
	if (ty_is_array(t))
		return diff_floaty(ty_elem(t));
	return kernel && diff_floaty(t);
}

/* The adjoint parameters of g for a struct parameter of type t named
 * name: adj_NAME_FIELD for each leaf with one (leaf_adj), in order; the
 * leaves' adjoint parameters (or -1) in the array returned. */
static int32_t *struct_adj_params(D *d, Module *m, Func *g, const char *name, Type t, int kernel)
{
	int n = 0, nl = ty_nleaves(t);
	Type *lt = salloc(d, (size_t)nl * sizeof *lt);
	const char **ln = salloc(d, (size_t)nl * sizeof *ln);
	int32_t *leaves = salloc(d, (size_t)nl * sizeof *leaves);
	leaves_of(d, t, name, lt, ln, &n);
	for (int j = 0; j < nl; j++) {
		leaves[j] = -1;
		if (!leaf_adj(lt[j], kernel))
			continue;
		char buf[200];
		int u = 0;
		snprintf(buf, sizeof buf, "adj_%.160s", ln[j]);
		while (name_taken(g, buf))
			snprintf(buf, sizeof buf, "adj_%.160s_%d", ln[j], ++u);
		ir_param(m, g, buf, ir_adjoint_type(lt[j]));
		leaves[j] = g->param[g->nparam - 1];
	}
	return leaves;
}

/* The same leaves of a function whose parameters are made: its adjoint
 * parameters from *q on, in order. */
static int32_t *struct_adj_leaves(D *d, const Func *g, Type t, int kernel, int *q)
{
	int n = 0, nl = ty_nleaves(t);
	Type *lt = salloc(d, (size_t)nl * sizeof *lt);
	int32_t *leaves = salloc(d, (size_t)nl * sizeof *leaves);
	leaves_of(d, t, "", lt, NULL, &n);
	for (int j = 0; j < nl; j++)
		leaves[j] = leaf_adj(lt[j], kernel) ? g->param[(*q)++] : -1;
	return leaves;
}

/* A kernel's struct parameter: add the adjoint a of its float leaves
 * into their 1-element adjoint arrays (summed over threads). */
static void struct_scatter(D *d, Block *b, int a, Type t, const int32_t *leaves, Loc loc)
{
	for (int k = 0; k < ty_nfield(t); k++) {
		Type ft = ty_field(t, k)->ty;
		const int32_t *lk = leaves + ty_leaf_offset(t, k);
		if (!diff_floaty(ft))
			continue;
		int fa = field_of(d, b, a, k, loc);
		if (ty_is_struct(ft))
			struct_scatter(d, b, fa, ft, lk, loc);
		else if (lk[0] >= 0)
			adj_scatter(d, b, lk[0], (int32_t[]){ir_const_int(d->m, d->g, 0)}, fa, loc);
	}
}

static Tape *tape_new(D *d) { return salloc(d, sizeof(Tape)); }

static Rec *rec(D *d, Tape *t, int kind, Loc loc)
{
	Rec *r = salloc(d, sizeof *r);
	r->kind = kind;
	r->loc = loc;
	r->old = -1;
	arena_grow(d->a, (void **)&t->v, &t->cap, t->n + 1, sizeof *t->v);
	t->v[t->n++] = r;
	return r;
}

static Rec *rec_inst(D *d, Tape *t, int op, int callee, const int32_t *res, int nres,
		     const int32_t *arg, int narg, Loc loc)
{
	Rec *r = rec(d, t, R_INST, loc);
	r->op = op;
	r->callee = callee;
	r->nres = nres;
	r->res = salloc(d, (size_t)(nres ? nres : 1) * sizeof *r->res);
	if (nres)
		memcpy(r->res, res, (size_t)nres * sizeof *res);
	r->narg = narg;
	r->arg = salloc(d, (size_t)(narg ? narg : 1) * sizeof *r->arg);
	if (narg)
		memcpy(r->arg, arg, (size_t)narg * sizeof *arg);
	return r;
}

/* ---- static facts about original code --------------------------------- */

static int assignable(const D *d, int id)
{
	const Value *v = &d->f->val[id];
	return (v->kind == VK_VAR || v->kind == VK_PARAM) && !ty_is_array(v->ty);
}

/* mark the variables assigned in b (not for-loop variables) */
static void assigned(const D *d, const Block *b, uint8_t *mark)
{
	for (int i = 0; i < b->n; i++) {
		const Inst *in = &b->v[i];
		if (in->op != OP_FOR)
			for (int k = 0; k < in->nres; k++)
				if (assignable(d, in->res[k]))
					mark[in->res[k]] = 1;
		assigned(d, &in->body, mark);
		assigned(d, &in->els, mark);
	}
}

static int has_ret(const Block *b)
{
	for (int i = 0; i < b->n; i++)
		if (b->v[i].op == OP_RET || has_ret(&b->v[i].body) || has_ret(&b->v[i].els))
			return 1;
	return 0;
}

/* may b leave the enclosing region (break, continue, or ret)? */
static int may_exit(const Block *b)
{
	for (int i = 0; i < b->n; i++) {
		const Inst *in = &b->v[i];
		switch (in->op) {
		case OP_BREAK:
		case OP_CONTINUE:
		case OP_RET:
			return 1;
		case OP_IF:
			if (may_exit(&in->body) || may_exit(&in->els))
				return 1;
			break;
		case OP_FOR:
		case OP_LOOP:
			if (has_ret(&in->body))
				return 1;
			break;
		}
	}
	return 0;
}

/* does every path through b leave the enclosing region (break, continue
 * or ret)? */
static int always_exits(const Block *b)
{
	for (int i = 0; i < b->n; i++) {
		const Inst *in = &b->v[i];
		if (in->op == OP_BREAK || in->op == OP_CONTINUE || in->op == OP_RET)
			return 1;
		if (in->op == OP_IF && always_exits(&in->body) && always_exits(&in->els))
			return 1;
	}
	return 0;
}

static int is_atomic(const Inst *in)
{
	return in->op == OP_BUILTIN && (ir_builtins[in->callee].flags & BF_ATOMIC);
}

/* What the forward pass does once and no sweep of the backward repeats:
 * atomics and printf (a print in a forward stays in the forward). */
static int forward_only(const Inst *in)
{
	return is_atomic(in) || in->op == OP_PRINTF;
}

/* Walk b for store `st`; then for an instruction that may read array arr
 * (a load, a call of a func that loads it, an atomic): 1 when found. */
/* def[v]: the first instruction of b (nested blocks too) that defines v */
static void first_defs(const Block *b, const Inst **def)
{
	for (int i = 0; i < b->n; i++) {
		const Inst *in = &b->v[i];
		for (int k = 0; k < in->nres; k++)
			if (!def[in->res[k]])
				def[in->res[k]] = in;
		first_defs(&in->body, def);
		first_defs(&in->els, def);
	}
}

/* Do values x and y name the same array: the same value, or the same
 * field of the same struct (s.v twice is two field reads of one array),
 * through copies?  def: first_defs's. */
static int same_array(const Inst *const *def, int x, int y)
{
	for (;;) {
		if (x == y)
			return 1;
		const Inst *dx = def[x], *dy = def[y];
		if (dx && dx->op == OP_MOV) {
			x = dx->arg[0];
		} else if (dy && dy->op == OP_MOV) {
			y = dy->arg[0];
		} else if (dx && dy && dx->op == OP_FIELD && dy->op == OP_FIELD && dx->callee == dy->callee) {
			x = dx->arg[0];
			y = dy->arg[0];
		} else {
			return 0;
		}
	}
}

static int reads_after(D *d, const Inst *const *def, const Block *b, const Inst *st, int arr, int *seen)
{
	for (int i = 0; i < b->n; i++) {
		const Inst *in = &b->v[i];
		if (in == st) {
			*seen = 1;
		} else if (*seen && in->narg && same_array(def, in->arg[0], arr) &&
			   (in->op == OP_LOAD || is_atomic(in))) {
			return 1;
		} else if (*seen && in->op == OP_CALL) {
			Summary *sm = &d->sum[in->callee];
			for (int k = 0; k < in->narg; k++)
				if (same_array(def, in->arg[k], arr) && (!sm->done || sm->loads[k] || sm->atomics[k]))
					return 1;
		}
		if (reads_after(d, def, &in->body, st, arr, seen) || reads_after(d, def, &in->els, st, arr, seen))
			return 1;
	}
	return 0;
}

/* Is the value store st writes read later in the kernel (through any
 * value that names the same array)?  If not, the forward sweep need not
 * make it (nor the reverse undo it). */
static int read_after(D *d, const Inst *st)
{
	int seen = 0;
	const Inst **def = xmalloc(sizeof *def * (size_t)(d->f->nval + 1));
	memset(def, 0, sizeof *def * (size_t)(d->f->nval + 1));
	first_defs(&d->f->body, def);
	int r = reads_after(d, def, &d->f->body, st, st->arg[0], &seen);
	free(def);
	return r;
}

/* count, per value, the instructions of b that name it */
static void count_mentions(const Block *b, int *n)
{
	for (int i = 0; i < b->n; i++) {
		const Inst *in = &b->v[i];
		for (int k = 0; k < in->nres; k++)
			n[in->res[k]]++;
		for (int k = 0; k < in->narg; k++)
			n[in->arg[k]]++;
		count_mentions(&in->body, n);
		count_mentions(&in->els, n);
	}
}

/* The tape ID of loop in: its number in the walk of the function. */
static int loop_id_in(const Block *b, const Inst *in, int *next)
{
	for (int i = 0; i < b->n; i++) {
		const Inst *x = &b->v[i];
		if (x == in)
			return *next;
		if (x->op == OP_FOR || x->op == OP_LOOP)
			(*next)++;
		int r = loop_id_in(&x->body, in, next);
		if (r >= 0)
			return r;
		r = loop_id_in(&x->els, in, next);
		if (r >= 0)
			return r;
	}
	return -1;
}

static int loop_id(const D *d, const Inst *in)
{
	int next = 0;
	return loop_id_in(&d->f->body, in, &next);
}

/* How each variable the body of loop in assigns goes round it (C_*). */
static void classify(D *d, const Inst *in, LoopRec *L)
{
	int *inside = salloc(d, (size_t)d->f->nval * sizeof *inside);
	count_mentions(&in->body, inside);
	L->kind = salloc(d, (size_t)(L->ncar + 1));
	for (int k = 0; k < L->ncar; k++) {
		int x = L->car[k], def;
		L->kind[k] = (uint8_t)((diff_exposed(&in->body, x, &def) ? C_IN : 0) |
				       (d->mentions[x] > inside[x] ? C_OUT : 0));
	}
}

/* ---- plain code (loop runs and recomputation) --------------------------- */

/* Emit b as ordinary forward code: variables map to the loop's state
 * variables in env (overwritten in place), temps get fresh temps.  Stores
 * and atomics are left out (their arrays are never loaded; see the rules
 * in check_kernel).  A ret sets done and leaves the loop being run. */
static void plain_block(D *d, const Block *b, int32_t *env, Block *out, int count)
{
	for (int i = 0; i < b->n; i++) {
		const Inst *in = &b->v[i];
		int32_t args[256], res[256];
		switch (in->op) {
		case OP_STORE:
			continue;
		case OP_BREAK:
		case OP_CONTINUE:
			emit(d, out, in->op, NULL, 0, NULL, 0, in->loc);
			return;
		case OP_RET:
			for (int k = 0; k < in->narg; k++)
				mov(d, out, d->ret_var[k], map(d, env, in->arg[k]), in->loc);
			set_bool(d, out, d->done_var, 1, in->loc);
			emit(d, out, OP_BREAK, NULL, 0, NULL, 0, in->loc);
			return;
		case OP_IF: {
			int c = map(d, env, in->arg[0]);
			Block t = {0}, e = {0};
			plain_block(d, &in->body, env, &t, count);
			plain_block(d, &in->els, env, &e, count);
			Inst *ni = emit(d, out, OP_IF, NULL, 0, &c, 1, in->loc);
			ni->body = t;
			ni->els = e;
			continue;
		}
		case OP_FOR:
		case OP_LOOP: {
			Block body = {0};
			int na = 0, j = -1;
			if (in->op == OP_FOR) {
				for (int k = 0; k < 3; k++)
					args[k] = map(d, env, in->arg[k]);
				na = 3;
				j = fresh_named(d, d->f->val[in->res[0]].name, TY_INT, 1);
				env[in->res[0]] = j;
			}
			if (count) {
				/* measuring: this loop keeps its checkpoints when its
				 * outer loop's trip is differentiated; count them */
				int id = ir_const_int(d->m, d->g, loop_id(d, in));
				emit(d, &body, OP_TAPE_COUNT, NULL, 0, &id, 1, in->loc);
			}
			plain_block(d, &in->body, env, &body, count);
			Inst *ni = emit(d, out, in->op, &j, j >= 0, args, na, in->loc);
			ni->body = body;
			if (has_ret(&in->body)) {
				Block t = {0};
				emit(d, &t, OP_BREAK, NULL, 0, NULL, 0, in->loc);
				ni = emit(d, out, OP_IF, NULL, 0, &d->done_var, 1, in->loc);
				ni->body = t;
			}
			continue;
		}
		}
		if (forward_only(in))
			continue;
		for (int k = 0; k < in->narg; k++)
			args[k] = map(d, env, in->arg[k]);
		for (int k = 0; k < in->nres; k++) {
			int r = in->res[k];
			if (d->f->val[r].kind == VK_TEMP)
				env[r] = ir_temp(d->m, d->g, d->f->val[r].ty);
			else if (env[r] < 0)
				ks_fatal("kdiff: internal error: %s is not loop state", d->f->val[r].name);
			res[k] = env[r];
		}
		Inst *ni = emit(d, out, in->op, res, in->nres, args, in->narg, in->loc);
		ni->callee = in->op == OP_CALL ? (int32_t)d->pure[in->callee] : in->callee;
	}
}

/* ---- the forward sweep -------------------------------------------------- */

static void tape_block(D *d, const Block *b, int from, int32_t *cur, Block *out, Tape *tp,
		       Region *rg, Hook *hook);

static void run_hook(D *d, Hook *h, int32_t *cur, Block *out, Tape *tp, Loc loc)
{
	if (!h)
		return;
	for (int i = 0; i < h->n; i++) {
		int src = cur[h->orig[i]];
		if (src < 0)
			continue;
		mov(d, out, h->dst[i], src, loc);
		rec_inst(d, tp, OP_MOV, -1, &h->dst[i], 1, &src, 1, loc);
	}
}

static void tape_loop(D *d, const Inst *in, int32_t *cur, Block *out, Tape *tp, Region *rg);

/* Forward sweep of b[from..]: emits into out, records into tp.  cur maps
 * original values to their current new names and is updated.  hook runs
 * where the block ends normally. */
static void tape_block(D *d, const Block *b, int from, int32_t *cur, Block *out, Tape *tp,
		       Region *rg, Hook *hook)
{
	for (int i = from; i < b->n; i++) {
		const Inst *in = &b->v[i];
		int32_t args[256], res[256];
		int exits = 0;
		switch (in->op) {
		case OP_BREAK:
		case OP_CONTINUE:
		case OP_RET:
			if (in->op == OP_RET) {
				for (int k = 0; k < in->narg; k++) {
					int v = map(d, cur, in->arg[k]);
					mov(d, out, d->ret_var[k], v, in->loc);
					rec_inst(d, tp, OP_MOV, -1, &d->ret_var[k], 1, &v, 1, in->loc);
				}
				set_bool(d, out, d->done_var, 1, in->loc);
			}
			if (rg->iter)
				run_hook(d, rg->out, cur, out, tp, in->loc);
			set_bool(d, out, rg->E, 1, in->loc);
			return;
		case OP_IF: {
			int c = map(d, cur, in->arg[0]);
			if (always_exits(&in->body) && !may_exit(&in->els)) {
				/* if c { ...; break } else { ... } and the rest: the
				 * rest is the else-branch's, so no flag guards it */
				Rec *r = rec(d, tp, R_IF, in->loc);
				r->cond = c;
				r->t = tape_new(d);
				r->e = tape_new(d);
				Block t = {0}, e = {0};
				int32_t *ct = env_copy(d, cur);
				tape_block(d, &in->body, 0, ct, &t, r->t, rg, NULL);
				tape_block(d, &in->els, 0, cur, &e, r->e, rg, NULL);
				tape_block(d, b, i + 1, cur, &e, r->e, rg, hook);
				Inst *ni = emit(d, out, OP_IF, NULL, 0, &c, 1, in->loc);
				ni->body = t;
				ni->els = e;
				return;
			}
			uint8_t *mark = salloc(d, (size_t)d->f->nval);
			assigned(d, &in->body, mark);
			assigned(d, &in->els, mark);
			Hook *h = salloc(d, sizeof *h);
			h->orig = salloc(d, (size_t)d->f->nval * sizeof *h->orig);
			h->dst = salloc(d, (size_t)d->f->nval * sizeof *h->dst);
			for (int v = 0; v < d->f->nval; v++)
				if (mark[v]) {
					h->orig[h->n] = v;
					h->dst[h->n++] = fresh(d, v, d->f->val[v].ty);
				}
			Rec *r = rec(d, tp, R_IF, in->loc);
			r->cond = c;
			r->t = tape_new(d);
			r->e = tape_new(d);
			Block t = {0}, e = {0};
			int32_t *ct = env_copy(d, cur), *ce = env_copy(d, cur);
			tape_block(d, &in->body, 0, ct, &t, r->t, rg, h);
			tape_block(d, &in->els, 0, ce, &e, r->e, rg, h);
			Inst *ni = emit(d, out, OP_IF, NULL, 0, &c, 1, in->loc);
			ni->body = t;
			ni->els = e;
			for (int k = 0; k < h->n; k++)
				cur[h->orig[k]] = h->dst[k];
			exits = may_exit(&in->body) || may_exit(&in->els);
			break;
		}
		case OP_FOR:
		case OP_LOOP:
			tape_loop(d, in, cur, out, tp, rg);
			if (has_ret(&in->body)) {
				exits = 1;
				mov(d, out, rg->E, d->done_var, in->loc);
				if (rg->iter && rg->out && rg->out->n) {
					/* a ret in the inner loop ends this iteration too */
					int c = fresh_named(d, "returned", TY_BOOL, 0);
					mov(d, out, c, d->done_var, in->loc);
					Rec *r = rec(d, tp, R_IF, in->loc);
					r->cond = c;
					r->t = tape_new(d);
					Block t = {0};
					run_hook(d, rg->out, cur, &t, r->t, in->loc);
					Inst *ni = emit(d, out, OP_IF, NULL, 0, &c, 1, in->loc);
					ni->body = t;
				}
			}
			break;
		case OP_STORE: {
			for (int k = 0; k < in->narg; k++)
				args[k] = map(d, cur, in->arg[k]);
			Rec *r = rec_inst(d, tp, OP_STORE, -1, NULL, 0, args, in->narg, in->loc);
			r->kind = R_STORE;
			if (rg->depth == 0 && read_after(d, in)) {
				/* keep the old value, to restore it in the reverse sweep */
				r->old = fresh_named(d, "old", ty_elem(vty(d, args[0])), 0);
				emit(d, out, OP_LOAD, &r->old, 1, args, in->narg - 1, in->loc);
				emit(d, out, OP_STORE, NULL, 0, args, in->narg, in->loc);
			}
			break;
		}
		default:
			if (in->op == OP_PRINTF)
				break; /* printed by the forward pass */
			for (int k = 0; k < in->narg; k++)
				args[k] = map(d, cur, in->arg[k]);
			for (int k = 0; k < in->nres; k++) {
				res[k] = fresh(d, in->res[k], d->f->val[in->res[k]].ty);
				cur[in->res[k]] = res[k];
			}
			if (is_atomic(in) && d->rmw && d->rmw[in->arg[0]]) {
				/* an atomic on an array the kernel also loads or
				 * stores (outside loops): keep the old value, update,
				 * and restore in the reverse sweep */
				Rec *r = rec_inst(d, tp, in->op, in->callee, res, in->nres, args, in->narg, in->loc);
				r->old = fresh_named(d, "old", ty_elem(vty(d, args[0])), 0);
				emit(d, out, OP_LOAD, &r->old, 1, args, 1 + ty_ndim(vty(d, args[0])), in->loc);
				Inst *ni = emit(d, out, in->op, NULL, 0, args, in->narg, in->loc);
				ni->callee = in->callee;
				break;
			}
			if (!is_atomic(in)) {
				Inst *ni = emit(d, out, in->op, res, in->nres, args, in->narg, in->loc);
				ni->callee = in->op == OP_CALL ? (int32_t)d->pure[in->callee] : in->callee;
			}
			if (in->op == OP_FIELD)
				field_origin(d, args[0], in->callee, res[0], in->loc);
			if (in->op == OP_MOV && ty_is_struct(vty(d, res[0])))
				set_sorg(d, res[0], sorg_of(d, args[0]));
			if (in->op == OP_MOV && ty_is_array(vty(d, res[0])) && adjarr_of(d, args[0]) >= 0)
				set_adjarr(d, res[0], adjarr_of(d, args[0]));
			rec_inst(d, tp, in->op, in->callee, res, in->nres, args, in->narg, in->loc);
			break;
		}
		if (exits && i + 1 < b->n) {
			/* the rest of the block runs only if nothing exited */
			int g = fresh_named(d, "live", TY_BOOL, 0);
			emit(d, out, OP_NOT, &g, 1, &rg->E, 1, in->loc);
			Rec *r = rec(d, tp, R_IF, in->loc);
			r->cond = g;
			r->t = tape_new(d);
			Block t = {0};
			tape_block(d, b, i + 1, cur, &t, r->t, rg, hook);
			Inst *ni = emit(d, out, OP_IF, NULL, 0, &g, 1, in->loc);
			ni->body = t;
			return;
		}
		if (exits && hook && hook->n) {
			/* the hook (merge movs) runs only if nothing exited */
			int g = fresh_named(d, "live", TY_BOOL, 0);
			emit(d, out, OP_NOT, &g, 1, &rg->E, 1, in->loc);
			Rec *r = rec(d, tp, R_IF, in->loc);
			r->cond = g;
			r->t = tape_new(d);
			Block t = {0};
			run_hook(d, hook, cur, &t, r->t, in->loc);
			Inst *ni = emit(d, out, OP_IF, NULL, 0, &g, 1, in->loc);
			ni->body = t;
			return;
		}
	}
	run_hook(d, hook, cur, out, tp, b->n ? b->v[b->n - 1].loc : d->f->loc);
}

/* Forward sweep of a loop: run it plainly on state variables, counting
 * its trips T, and in a kernel keep on the tape, as checkpoints, the state
 * that trips begin with (tape_keep says which: every one while there is
 * room, then fewer). */
static void tape_loop(D *d, const Inst *in, int32_t *cur, Block *out, Tape *tp, Region *rg)
{
	LoopRec *L = salloc(d, sizeof *L);
	L->in = in;
	L->depth = rg->depth + 1;
	L->h = -1;
	uint8_t *mark = salloc(d, (size_t)d->f->nval);
	assigned(d, &in->body, mark);
	L->car = salloc(d, (size_t)d->f->nval * sizeof *L->car);
	L->s = salloc(d, (size_t)d->f->nval * sizeof *L->s);
	for (int v = 0; v < d->f->nval; v++)
		if (mark[v]) {
			L->s[L->ncar] = fresh(d, v, d->f->val[v].ty);
			L->car[L->ncar++] = v;
		}
	classify(d, in, L);
	L->entry = env_copy(d, cur);
	int32_t *env = env_copy(d, cur);
	for (int k = 0; k < L->ncar; k++) {
		int x = L->car[k];
		if (L->kind[k] && cur[x] >= 0)
			mov(d, out, L->s[k], cur[x], in->loc);
		env[x] = L->s[k];
	}
	L->T = fresh_named(d, "trips", TY_INT, 0);
	mov(d, out, L->T, ir_const_int(d->m, d->g, 0), in->loc);
	if (d->tape) {
		const char *jn = in->op == OP_FOR ? d->f->val[in->res[0]].name : NULL;
		char base[140];
		snprintf(base, sizeof base, "%.120s_loop", jn ? jn : "while");
		/* zeroed at the top like any variable of the sweeps: the
		 * reverse may use it in an if apart from the one it is set in */
		L->h = fresh_named(d, base, TY_INT, 0);
		note(d, L->h, NULL, DV_SOURCE);
		int id = ir_const_int(d->m, d->g, loop_id(d, in));
		emit(d, out, OP_TAPE_LOOP, &L->h, 1, &id, 1, in->loc);
		d->nloop++;
	}
	int32_t args[3];
	int j = -1, na = 0;
	if (in->op == OP_FOR) {
		L->lo = args[0] = map(d, cur, in->arg[0]);
		L->hi = args[1] = map(d, cur, in->arg[1]);
		L->step = args[2] = map(d, cur, in->arg[2]);
		na = 3;
		j = fresh_named(d, d->f->val[in->res[0]].name, TY_INT, 1);
		note(d, j, NULL, DV_SOURCE);
		env[in->res[0]] = j;
	}
	Block body = {0};
	if (L->h >= 0) {
		/* keep the state trip T begins with? */
		int keep = ir_temp(d->m, d->g, TY_BOOL);
		emit(d, &body, OP_TAPE_KEEP, &keep, 1, (int32_t[]){L->h, L->T}, 2, in->loc);
		Block put = {0};
		for (int k = 0, slot = 0; k < L->ncar; k++)
			if (L->kind[k] & C_IN)
				emit(d, &put, OP_TAPE_PUT, NULL, 0,
				     (int32_t[]){L->h, ir_const_int(d->m, d->g, slot++), L->s[k]}, 3, in->loc);
		Inst *ni = emit(d, &body, OP_IF, NULL, 0, &keep, 1, in->loc);
		ni->body = put;
	}
	int32_t inc[2] = {L->T, ir_const_int(d->m, d->g, 1)};
	emit(d, &body, OP_ADD, &L->T, 1, inc, 2, in->loc);
	plain_block(d, &in->body, env, &body, d->tape);
	Inst *ni = emit(d, out, in->op, &j, j >= 0, args, na, in->loc);
	ni->body = body;
	for (int k = 0; k < L->ncar; k++)
		cur[L->car[k]] = L->s[k];
	Rec *r = rec(d, tp, R_LOOP, in->loc);
	r->L = L;
}

/* ---- the reverse sweep --------------------------------------------------- */

static void rev_tape(D *d, Tape *tp, Block *out);

/* The reverse of a loop of T trips:
 *
 *     for it = T-1 down to 0:
 *         from = the trip of the checkpoint it goes back to (tape_back)
 *         r = that checkpoint's state (tape_get; the loop's entry values
 *             when from is 0)
 *         run trips from .. it-1 plainly on r (none when every trip's
 *             state was kept)
 *         run trip it's forward sweep, then its reverse sweep: its final
 *             values' adjoints are A, and A becomes the adjoints of r
 *     the loop's entry values get A
 *
 * Without a tape (a wp.func) from is 0: every trip is recomputed from the
 * loop's entry, O(T^2). */
static void rev_loop(D *d, LoopRec *L, Block *out, Loc loc)
{
	const Inst *in = L->in;
	int nf = 0;
	int *fk = salloc(d, (size_t)(L->ncar + 1) * sizeof *fk);
	for (int k = 0; k < L->ncar; k++)
		if (L->kind[k] && diff_floaty(d->f->val[L->car[k]].ty))
			fk[nf++] = k;
	/* A[x]: the adjoint of the carried state, from the end backwards */
	int32_t *A = salloc(d, (size_t)(nf + 1) * sizeof *A);
	for (int q = 0; q < nf; q++) {
		int k = fk[q];
		/* named after the state variable: adj_p */
		const char *cn = d->f->val[L->car[k]].name;
		char an[140];
		snprintf(an, sizeof an, "adj_%.120s", cn ? cn : "carry");
		A[q] = fresh_named(d, an, d->f->val[L->car[k]].ty, 0);
		note(d, A[q], NULL, DV_DERIV);
		int as = adjof(d, L->s[k]);
		mov(d, out, A[q], as, loc);
		zero_adj(d, out, L->s[k], loc);
	}
	/* the trip: its loop variable's value is lo + it * step */
	int isfor = in->op == OP_FOR;
	int simple = isfor && d->g->val[L->lo].kind == VK_CONST && d->g->val[L->lo].k.i == 0 &&
		     d->g->val[L->step].kind == VK_CONST && d->g->val[L->step].k.i == 1;
	int it = fresh_named(d, simple ? d->f->val[in->res[0]].name : "trip", TY_INT, 1);
	note(d, it, NULL, simple ? DV_SOURCE : 0);
	Block body = {0};
	int from;
	{
		DiffEmit e = de(d, &body, loc);
		if (L->h >= 0) {
			from = diff_op(&e, OP_TAPE_BACK, (int32_t[]){L->h, it}, 2, TY_INT);
		} else {
			from = ir_const_int(d->m, d->g, 0);
		}
	}
	/* the state trip `from` begins with */
	int32_t *r = salloc(d, (size_t)(L->ncar + 1) * sizeof *r);
	int32_t *env = env_copy(d, L->entry);
	for (int k = 0, slot = 0; k < L->ncar; k++) {
		int x = L->car[k];
		r[k] = fresh(d, x, d->f->val[x].ty);
		if ((L->kind[k] & C_IN) && L->entry[x] >= 0) {
			if (L->h >= 0) {
				Inst *g = emit(d, &body, OP_TAPE_GET, &r[k], 1,
					       (int32_t[]){L->h, ir_const_int(d->m, d->g, slot), L->entry[x]}, 3, loc);
				(void)g;
			} else {
				mov(d, &body, r[k], L->entry[x], loc);
			}
		}
		if (L->kind[k] & C_IN)
			slot++;
		env[x] = r[k];
	}
	/* recompute trips from .. it-1 */
	set_bool(d, &body, d->done_var, 0, loc);
	{
		Block rb = {0};
		int32_t *penv = env_copy(d, env);
		int rr = fresh_named(d, "redo", TY_INT, 1);
		if (isfor) {
			int jv;
			if (simple) {
				jv = rr;
			} else {
				DiffEmit e = de(d, &rb, in->loc);
				int t = diff_op(&e, OP_MUL, (int32_t[]){rr, L->step}, 2, TY_VOID);
				jv = diff_op(&e, OP_ADD, (int32_t[]){L->lo, t}, 2, TY_VOID);
			}
			penv[in->res[0]] = jv;
		}
		plain_block(d, &in->body, penv, &rb, 0);
		int32_t args[3] = {from, it, ir_const_int(d->m, d->g, 1)};
		Inst *ni = emit(d, &body, OP_FOR, &rr, 1, args, 3, in->loc);
		ni->body = rb;
	}
	/* trip it's forward sweep */
	set_bool(d, &body, d->done_var, 0, loc);
	Region rg = {0};
	rg.E = fresh_named(d, "exited", TY_BOOL, 0);
	rg.iter = 1;
	rg.depth = L->depth;
	set_bool(d, &body, rg.E, 0, loc);
	int32_t *ienv = env_copy(d, env);
	if (isfor) {
		int jv = it;
		if (!simple) {
			jv = fresh(d, in->res[0], TY_INT);
			DiffEmit e = de(d, &body, loc);
			int t = diff_op(&e, OP_MUL, (int32_t[]){it, L->step}, 2, TY_VOID);
			emit(d, &body, OP_ADD, &jv, 1, (int32_t[]){L->lo, t}, 2, loc);
		}
		ienv[in->res[0]] = jv;
	}
	Hook *h = salloc(d, sizeof *h);
	h->orig = salloc(d, (size_t)(nf + 1) * sizeof *h->orig);
	h->dst = salloc(d, (size_t)(nf + 1) * sizeof *h->dst);
	for (int q = 0; q < nf; q++) {
		int x = L->car[fk[q]];
		h->orig[h->n] = x;
		h->dst[h->n++] = fresh(d, x, d->f->val[x].ty);
	}
	rg.out = h;
	Tape *tape = tape_new(d);
	tape_block(d, &in->body, 0, ienv, &body, tape, &rg, h);
	/* ... and its reverse sweep */
	for (int q = 0; q < nf; q++)
		mov(d, &body, adjof(d, h->dst[q]), A[q], loc);
	rev_tape(d, tape, &body);
	for (int q = 0; q < nf; q++) {
		int k = fk[q];
		mov(d, &body, A[q], adjof(d, r[k]), loc);
		zero_adj(d, &body, r[k], loc);
	}
	/* for it = T-1 down to 0 */
	DiffEmit e = de(d, out, loc);
	int last = diff_op(&e, OP_SUB, (int32_t[]){L->T, ir_const_int(d->m, d->g, 1)}, 2, TY_VOID);
	int32_t args[3] = {last, ir_const_int(d->m, d->g, -1), ir_const_int(d->m, d->g, -1)};
	Inst *ni = emit(d, out, OP_FOR, &it, 1, args, 3, loc);
	ni->body = body;
	for (int q = 0; q < nf; q++) {
		int x = L->car[fk[q]];
		if (L->entry[x] >= 0)
			acc(d, out, L->entry[x], A[q], loc);
	}
}

static int atomic_kind(int row);

static void rev_atomic(D *d, Rec *r, Block *out)
{
	const char *name = ir_builtins[r->callee].name;
	int a = r->arg[0], n = r->narg - 2, v = r->arg[r->narg - 1];
	const int32_t *idx = r->arg + 1;
	int32_t x[KS_MAX_NDIM + 2];
	int ga = adjarr_of(d, a);
	if (ga < 0 || !diff_floaty(vty(d, v)))
		return;
	if (!(atomic_kind(r->callee) & 7))
		return; /* exch and cas: no gradient, as in Warp (check_kernel) */
	DiffEmit e = de(d, out, r->loc);
	if (!strcmp(name, "atomic_add") || !strcmp(name, "atomic_sub")) {
		int g = diff_op(&e, OP_LOAD, x, access_args(x, ga, idx, n, -1), TY_VOID);
		if (!strcmp(name, "atomic_sub"))
			g = diff_op(&e, OP_NEG, &g, 1, TY_VOID);
		acc(d, out, v, g, r->loc);
		return;
	}
	/* atomic_min/max: the gradient goes to the value that won, which the
	 * array holds after the forward pass.  Threads that tie take the
	 * element's adjoint by an atomic exchange with zero, so that one of
	 * them has it however they interleave on a GPU (a load and a store
	 * would let two of them read it before either clears it). */
	int fin = diff_op(&e, OP_LOAD, x, access_args(x, a, idx, n, -1), TY_VOID);
	int c = diff_op(&e, OP_EQ, (int32_t[]){v, fin}, 2, TY_VOID);
	Block t = {0};
	DiffEmit et = de(d, &t, r->loc);
	int z = diff_zero(&et, ty_elem(vty(d, ga)));
	int g = diff_builtin(&et, "atomic_exch", x, access_args(x, ga, idx, n, z));
	acc(d, &t, v, g, r->loc);
	Inst *ni = emit(d, out, OP_IF, NULL, 0, &c, 1, r->loc);
	ni->body = t;
}

/* The adjoints a func @f_adj returns, one per float-valued scalar or
 * vector parameter of f, come as one vecN (a gradient: their components
 * in order) when there are several, all float32, and 2 to 4 components
 * in all: a call then assigns one value.  Returns N, or 0. */
static int packed(const Func *f)
{
	int n = 0, np = 0;
	for (int i = 0; i < f->nparam; i++) {
		Type t = f->val[f->param[i]].ty;
		if (ty_is_array(t) || !diff_floaty(t))
			continue;
		if (ty_is_mat(t) || ty_is_struct(t) || ty_scalar(t) != TY_FLOAT)
			return 0; /* a gradient is a float32 vecN */
		n += ty_ncomp(t);
		np++;
	}
	return np >= 2 && n >= 2 && n <= 4 ? n : 0;
}

/* Component k of v (a float, or a vector's component) */
static int comp(D *d, DiffEmit *e, int v, int k)
{
	if (ty_is_float(vty(d, v)))
		return v;
	return diff_op(e, OP_EXTRACT, (int32_t[]){v, ir_const_int(d->m, d->g, k)}, 2, TY_VOID);
}

static void rev_call(D *d, Rec *r, Block *out)
{
	const Func *f = d->m->fn[r->callee];
	int fa = d->fadj[r->callee];
	const Func *fj = d->m->fn[fa];
	int32_t args[256], res[256];
	int na = 0, nr = 0, any = 0;
	for (int i = 0; i < r->narg; i++)
		args[na++] = r->arg[i];
	for (int i = 0; i < f->nparam; i++) {
		Type t = f->val[f->param[i]].ty;
		if (ty_is_array(t) && diff_floaty(ty_elem(t))) {
			args[na++] = adjarr_of(d, r->arg[i]);
			any = 1;
		}
		if (ty_is_struct(t)) {
			/* the adjoint arrays of the struct's float arrays */
			int nl = ty_nleaves(t), n = 0;
			Type *lt = salloc(d, (size_t)nl * sizeof *lt);
			leaves_of(d, t, "", lt, NULL, &n);
			const int32_t *o = sorg_of(d, r->arg[i]);
			for (int j = 0; j < nl; j++) {
				if (!leaf_adj(lt[j], 0))
					continue;
				if (!o || o[j] < 0)
					derr(d, r->loc, "%s", no_struct_origin);
				args[na++] = o[j];
				any = 1;
			}
		}
	}
	DiffEmit e = de(d, out, r->loc);
	for (int k = 0; k < r->nres; k++)
		if (diff_floaty(vty(d, r->res[k]))) {
			int a = adjpeek(d, r->res[k]);
			args[na++] = a >= 0 ? a : diff_zero(&e, vty(d, r->res[k]));
			any |= a >= 0;
		}
	if (!any)
		return;
	for (int i = 0; i < fj->nret; i++)
		res[nr++] = ir_temp(d->m, d->g, fj->ret[i]);
	Inst *ni = emit(d, out, OP_CALL, res, nr, args, na, r->loc);
	ni->callee = (int32_t)fa;
	int q = 0, pk = packed(f);
	for (int i = 0; i < f->nparam; i++) {
		Type t = f->val[f->param[i]].ty;
		if (ty_is_array(t) || !diff_floaty(t))
			continue;
		int g;
		if (!pk) {
			g = res[q++];
		} else {
			/* its components of the gradient */
			int32_t c[4];
			int nc = ty_ncomp(t);
			for (int k = 0; k < nc; k++)
				c[k] = comp(d, &e, res[0], q++);
			g = nc == 1 ? c[0] : diff_op(&e, OP_MAKE, c, nc, t);
		}
		acc(d, out, r->arg[i], g, r->loc);
	}
}

static void rev_make(D *d, Rec *r, int g, Block *out)
{
	DiffEmit e = de(d, out, r->loc);
	Type t = vty(d, r->res[0]);
	int n = ty_cols(t), nc = ty_ncomp(t);
	if (r->narg == 0)
		return;
	if (ty_is_xform(t) && r->narg == 2) {
		/* transform(p, q): the first three components are p's, the rest q's */
		int32_t pc[3], qc[4];
		for (int c = 0; c < 7; c++) {
			int k = ir_const_int(d->m, d->g, c);
			int comp = diff_op(&e, OP_EXTRACT, (int32_t[]){g, k}, 2, TY_VOID);
			if (c < 3)
				pc[c] = comp;
			else
				qc[c - 3] = comp;
		}
		acc(d, out, r->arg[0], diff_op(&e, OP_MAKE, pc, 3, vty(d, r->arg[0])), r->loc);
		acc(d, out, r->arg[1], diff_op(&e, OP_MAKE, qc, 4, vty(d, r->arg[1])), r->loc);
		return;
	}
	if (r->narg == 2 && (ty_is_quat(t) || nc == 6)) {
		/* a quaternion's (v, w) or a spatial vector's (w, v): the first
		 * three components to the first, the rest to the second */
		int32_t c3[2][3];
		for (int c = 0; c < nc; c++)
			c3[c / 3][c % 3] = diff_op(&e, OP_EXTRACT, (int32_t[]){g, ir_const_int(d->m, d->g, c)},
						   2, TY_VOID);
		acc(d, out, r->arg[0], diff_op(&e, OP_MAKE, c3[0], 3, vty(d, r->arg[0])), r->loc);
		acc(d, out, r->arg[1], nc == 4 ? c3[1][0] : diff_op(&e, OP_MAKE, c3[1], 3, vty(d, r->arg[1])),
		    r->loc);
		return;
	}
	for (int c = 0; c < nc; c++) {
		int comp;
		if (!ty_is_mat(t))
			comp = diff_op(&e, OP_EXTRACT, (int32_t[]){g, ir_const_int(d->m, d->g, c)}, 2, TY_VOID);
		else
			comp = diff_op(&e, OP_EXTRACT, (int32_t[]){g, ir_const_int(d->m, d->g, c / n),
							     ir_const_int(d->m, d->g, c % n)}, 3, TY_VOID);
		acc(d, out, r->arg[r->narg == 1 ? 0 : c], comp, r->loc);
	}
}

/* The opcode rules, in the notation of builtins.h (rule.c), for the
 * operand types at hand: "" where there is no adjoint (ints, floor
 * division), NULL where kdiff has no rule (it stops with a located
 * error rather than guess). */
static const char *op_rule(D *d, Rec *r)
{
	Type a = vty(d, r->arg[0]), b = r->narg > 1 ? vty(d, r->arg[1]) : TY_VOID;
	int sa = ty_is_float(a), sb = ty_is_float(b);
	switch (r->op) {
	case OP_MOV: return "g";
	case OP_NEG: return "-g";
	case OP_ADD: return "g; g";
	case OP_SUB: return "g; -g";
	case OP_MUL:
		if (sa && sb) return "g * b; g * a";
		if (sa) return "fdot(g, b); g * a";
		if (sb) return "g * b; fdot(g, a)";
		if (ty_is_mat(a) && ty_is_vec(b)) return "outer(g, b); transpose(a) * g";
		if (ty_is_vec(a) && ty_is_mat(b)) return "b * g; outer(a, g)";
		if (ty_is_mat(a) && ty_is_mat(b)) return "g * transpose(b); transpose(a) * g";
		if (ty_is_quat(a) && ty_is_quat(b)) return "g * quat_inverse(b); quat_inverse(a) * g";
		if (ty_is_xform(a) && ty_is_xform(b))
			return "adj_transform_multiply_a(a, b, g); adj_transform_multiply_b(a, b, g)";
		return NULL;
	case OP_DIV:
		if (sa && sb) return "g / b; -(g * r) / b";
		if (sb) return "g / b; -fdot(g, r) / b";
		if (sa && (ty_is_vec(b) || ty_is_quat(b))) return "@g / b; -g * r / b";
		return NULL;
	case OP_MOD: return sa ? "g; -g * float(int(a / b))" : "";
	case OP_SELECT: return "; a ? g : 0.0; a ? 0.0 : g";
	}
	return "";
}

/* A builtin with several results (svd3): its rule reads them all and
 * their adjoints, zero for a result nothing used. */
static void rev_several(D *d, Rec *r, Block *out)
{
	const char *rule = ir_builtins[r->callee].adj;
	int32_t g[3] = {-1, -1, -1}, o[DIFF_MAX_RULE_ARGS];
	int any = 0;
	for (int k = 0; k < r->nres && k < 3; k++)
		any |= (g[k] = adjpeek(d, r->res[k])) >= 0;
	if (any && rule[0] && r->narg <= 3) {
		DiffEmit e = de(d, out, r->loc);
		for (int k = 0; k < r->nres && k < 3; k++)
			if (g[k] < 0)
				g[k] = diff_zero(&e, vty(d, r->res[k]));
		int32_t v[10] = {-1, -1, -1, r->res[0], g[0], r->res[1], g[1],
				 r->nres > 2 ? r->res[2] : -1, g[2], -1};
		for (int i = 0; i < r->narg; i++)
			v[i] = r->arg[i];
		diff_rule(&e, rule, v, r->narg, o);
		for (int i = 0; i < r->narg; i++)
			acc(d, out, r->arg[i], o[i], r->loc);
	}
	for (int k = 0; k < r->nres; k++)
		zero_adj(d, out, r->res[k], r->loc);
}

static void rev_inst(D *d, Rec *r, Block *out)
{
	if (r->op == OP_BUILTIN && (ir_builtins[r->callee].flags & BF_ATOMIC)) {
		rev_atomic(d, r, out);
		if (r->old >= 0) {
			int32_t x[KS_MAX_NDIM + 2];
			emit(d, out, OP_STORE, NULL, 0, x,
			     access_args(x, r->arg[0], r->arg + 1, ty_ndim(vty(d, r->arg[0])), r->old),
			     r->loc);
		}
		return;
	}
	if (r->op == OP_CALL) {
		rev_call(d, r, out);
		for (int k = 0; k < r->nres; k++)
			zero_adj(d, out, r->res[k], r->loc);
		return;
	}
	if (r->op == OP_BUILTIN && r->nres > 1 && r->callee != BI_TID) {
		rev_several(d, r, out);
		return;
	}
	if (r->nres != 1)
		return;
	int g = adjpeek(d, r->res[0]);
	if (g < 0)
		return;
	DiffEmit e = de(d, out, r->loc);
	switch (r->op) {
	case OP_LOAD: {
		int ga = adjarr_of(d, r->arg[0]);
		if (ga >= 0)
			adj_scatter(d, out, ga, r->arg + 1, g, r->loc);
		break;
	}
	case OP_MAKE:
		rev_make(d, r, g, out);
		break;
	case OP_EXTRACT: {
		int v = r->arg[0], av = adjof(d, v);
		if (av < 0)
			break;
		int32_t ix[3] = {av, r->arg[1], r->narg > 2 ? r->arg[2] : -1};
		int old = diff_op(&e, OP_EXTRACT, ix, r->narg, TY_VOID);
		int s = diff_op(&e, OP_ADD, (int32_t[]){old, g}, 2, TY_VOID);
		int32_t ins[4] = {av, r->arg[1], r->narg > 2 ? r->arg[2] : s, s};
		emit(d, out, OP_INSERT, &av, 1, ins, r->narg + 1, r->loc);
		break;
	}
	case OP_INSERT: {
		int n = r->narg; /* v, i, [j,] x */
		int32_t ix[3] = {g, r->arg[1], n > 3 ? r->arg[2] : -1};
		int comp = diff_op(&e, OP_EXTRACT, ix, n - 1, TY_VOID);
		acc(d, out, r->arg[n - 1], comp, r->loc);
		int32_t ins[4] = {g, r->arg[1], r->arg[2], r->arg[3]};
		ins[n - 1] = diff_zero(&e, vty(d, r->arg[n - 1]));
		int cleared = diff_op(&e, OP_INSERT, ins, n, TY_VOID);
		acc(d, out, r->arg[0], cleared, r->loc);
		break;
	}
	case OP_FIELD: {
		/* x = s.f: adj(s).f += adj(x) */
		int s0 = r->arg[0], as = adjof(d, s0), k = r->callee;
		if (as < 0 || !diff_floaty(vty(d, r->res[0])))
			break;
		int old = field_of(d, out, as, k, r->loc), sum;
		if (ty_is_struct(vty(d, old))) {
			sum = struct_sum(d, out, old, g, r->loc);
		} else {
			sum = ir_temp(d->m, d->g, vty(d, old));
			emit(d, out, OP_ADD, &sum, 1, (int32_t[]){old, g}, 2, r->loc);
		}
		setfield_to(d, out, as, as, k, sum, r->loc);
		break;
	}
	case OP_SETFIELD: {
		/* t = s with s.f = x: adj(x) += adj(t).f, adj(s) += adj(t) with
		 * its f cleared */
		int k = r->callee;
		Type ft = vty(d, r->arg[1]);
		if (!diff_floaty(ft)) {
			acc(d, out, r->arg[0], g, r->loc);
			break;
		}
		acc(d, out, r->arg[1], field_of(d, out, g, k, r->loc), r->loc);
		if (adjpeek(d, r->arg[0]) < 0) {
			/* s has no adjoint yet: it is adj(t) with f cleared */
			int as = adjof(d, r->arg[0]);
			setfield_to(d, out, as, g, k, diff_zero(&e, ft), r->loc);
			break;
		}
		int cleared = ir_temp(d->m, d->g, vty(d, g));
		setfield_to(d, out, cleared, g, k, diff_zero(&e, ft), r->loc);
		acc(d, out, r->arg[0], cleared, r->loc);
		break;
	}
	case OP_CONV:
		/* between float widths (and shapes of floats): back to the
		 * operand's type */
		if (is_floaty(vty(d, r->arg[0])))
			acc(d, out, r->arg[0], diff_op(&e, OP_CONV, &g, 1, vty(d, r->arg[0])), r->loc);
		break;
	default: {
		const char *rule = r->op == OP_BUILTIN ? ir_builtins[r->callee].adj : op_rule(d, r);
		if (!rule)
			derr(d, r->loc, "kdiff cannot differentiate '%s' of %s and %s yet",
			     ir_ops[r->op].name, ty_name(vty(d, r->arg[0])),
			     ty_name(vty(d, r->arg[r->narg > 1 ? 1 : 0])));
		if (!rule[0])
			break;
		if (r->narg > DIFF_MAX_RULE_ARGS)
			derr(d, r->loc, "kdiff cannot differentiate '%s' of %d arguments yet",
			     ir_builtins[r->callee].name, r->narg);
		/* the fourth argument is d, after the results (diff_rule) */
		int32_t v[10] = {-1, -1, -1, r->res[0], g, -1, -1, -1, -1, -1}, o[DIFF_MAX_RULE_ARGS];
		for (int i = 0; i < r->narg; i++)
			v[i < 3 ? i : 9] = r->arg[i];
		diff_rule(&e, rule, v, r->narg, o);
		for (int i = 0; i < r->narg; i++)
			acc(d, out, r->arg[i], o[i], r->loc);
	}
	}
	zero_adj(d, out, r->res[0], r->loc);
}

static void rev_store(D *d, Rec *r, Block *out)
{
	int a = r->arg[0], n = r->narg - 2, v = r->arg[r->narg - 1];
	const int32_t *idx = r->arg + 1;
	int32_t x[KS_MAX_NDIM + 2];
	int ga = adjarr_of(d, a);
	if (ga >= 0) {
		DiffEmit e = de(d, out, r->loc);
		int g = diff_op(&e, OP_LOAD, x, access_args(x, ga, idx, n, -1), TY_VOID);
		emit(d, out, OP_STORE, NULL, 0, x, access_args(x, ga, idx, n, diff_zero(&e, vty(d, g))),
		     r->loc);
		acc(d, out, v, g, r->loc);
	}
	if (r->old >= 0)
		emit(d, out, OP_STORE, NULL, 0, x, access_args(x, a, idx, n, r->old), r->loc);
}

static void rev_tape(D *d, Tape *tp, Block *out)
{
	for (int i = tp->n - 1; i >= 0; i--) {
		Rec *r = tp->v[i];
		int n0 = d->g->nval;
		switch (r->kind) {
		case R_INST:
			rev_inst(d, r, out);
			mark_deriv(d, n0);
			break;
		case R_STORE:
			rev_store(d, r, out);
			mark_deriv(d, n0);
			break;
		case R_LOOP: rev_loop(d, r->L, out, r->loc); break;
		case R_IF: {
			Block t = {0}, e = {0};
			rev_tape(d, r->t, &t);
			if (r->e)
				rev_tape(d, r->e, &e);
			if (!t.n && !e.n)
				break;
			Inst *ni = emit(d, out, OP_IF, NULL, 0, &r->cond, 1, r->loc);
			ni->body = t;
			ni->els = e;
			break;
		}
		}
	}
}

/* ---- rules kdiff enforces ---------------------------------------------- */

static int param_index(const Func *f, int id)
{
	for (int i = 0; i < f->nparam; i++)
		if (f->param[i] == id)
			return i;
	return -1;
}

static void summarize(Module *m, D *d, int fi);
static int has_atomic(Module *m, D *d, const Block *b);

/* What b does to f's array parameters: loads, stores (first location in
 * a loop and anywhere), atomics. */
typedef struct Use {
	uint8_t *load, *store, *storeloop, *atomic;
	uint8_t *kinds; /* atomic kinds: 1 add/sub, 2 min, 4 max, 8 exch/cas,
	                 * 16 and/or/xor */
	uint8_t *aloop; /* an atomic in a loop or in a called func */
	Loc *aloopat;
	uint8_t *nontid; /* an access at an index other than wp.tid() */
	uint8_t *aresult, *amixed; /* an atomic's result used; min/max mixed */
	Loc *aresultat, *amixedat;
	int *aresultrow;
	const uint8_t *tidv; /* per value: holds wp.tid() (one definition) */
	Loc *storeloc, *atomicloc, *loadloc;
} Use;

static int atomic_kind(int row);

/* Does a kernel's struct of type T have a leaf that takes an adjoint (a
 * float field, an array of floats), at any depth? */
static int struct_has_adj(Type t)
{
	for (int k = 0; k < ty_nfield(t); k++) {
		Type ft = ty_field(t, k)->ty;
		if (ty_is_struct(ft) ? struct_has_adj(ft) : leaf_adj(ft, 1))
			return 1;
	}
	return 0;
}

/* Does f take or return a float value (an array of floats, or a struct
 * holding one, included)?  One that does not has no adjoint to compute:
 * the results of its atomics may be used freely (a lock, a counter, a
 * compaction's slot). */
static int has_floaty(const Func *f)
{
	for (int i = 0; i < f->nparam; i++) {
		Type t = f->val[f->param[i]].ty;
		if (diff_floaty(ty_elem(t)) || (ty_is_struct(t) && struct_has_adj(t)))
			return 1;
	}
	for (int i = 0; i < f->nret; i++)
		if (diff_floaty(f->ret[i]))
			return 1;
	return 0;
}

KS_NORETURN static void atomic_result_error(D *d, Loc at, int row)
{
	derr(d, at, "the value returned by %s cannot be used in a differentiated kernel "
	     "(it depends on the order of the threads)", ir_builtins[row].name);
}

/* min/max mixed with another kind of atomic on a float array */
static int mixed(const Func *f, const Use *u, int p)
{
	return (u->kinds[p] & 6) && (u->kinds[p] & (u->kinds[p] - 1)) &&
	       diff_floaty(ty_elem(f->val[f->param[p]].ty));
}

/* Record that array parameter p is updated by atomic_min or atomic_max and
 * by another kind of atomic: the kernel's error is reported later, where
 * all its uses are known; in a wp.func it is an error at once. */
static void note_mixed(D *d, const Func *f, Use *u, int p, Loc at)
{
	if (!mixed(f, u, p))
		return;
	if (!u->amixed[p]) {
		u->amixed[p] = 1;
		u->amixedat[p] = at;
	}
	if (!f->is_kernel)
		derr(d, at, "cannot differentiate wp.func '%s': array '%s' is updated by %s and by "
		     "another kind of atomic, so its final values do not tell which value won",
		     f->name, f->val[f->param[p]].name, (u->kinds[p] & 2) ? "atomic_min" : "atomic_max");
}

static void uses(Module *m, D *d, const Func *f, const Block *b, int depth, Use *u)
{
	for (int i = 0; i < b->n; i++) {
		const Inst *in = &b->v[i];
		int p;
		/* thread-private: a 1-D array indexed by wp.tid() only */
		if ((in->op == OP_LOAD || in->op == OP_STORE || is_atomic(in)) &&
		    (p = param_index(f, in->arg[0])) >= 0 &&
		    !(u->tidv && u->tidv[in->arg[1]] && ty_ndim(f->val[in->arg[0]].ty) == 1))
			u->nontid[p] = 1;
		if (in->op == OP_LOAD && (p = param_index(f, in->arg[0])) >= 0) {
			if (!u->load[p])
				u->loadloc[p] = in->loc;
			u->load[p] = 1;
		}
		if (in->op == OP_STORE && (p = param_index(f, in->arg[0])) >= 0) {
			if (!u->store[p])
				u->storeloc[p] = in->loc;
			u->store[p] = 1;
			if (depth && !u->storeloop[p]) {
				u->storeloop[p] = 1;
				u->storeloc[p] = in->loc;
			}
		}
		if (is_atomic(in) && (p = param_index(f, in->arg[0])) >= 0) {
			if (in->nres && !u->aresult[p]) {
				u->aresult[p] = 1;
				u->aresultat[p] = in->loc;
				u->aresultrow[p] = in->callee;
			}
			if (in->nres && !f->is_kernel && has_floaty(f))
				atomic_result_error(d, in->loc, in->callee);
			if ((atomic_kind(in->callee) & 8) && diff_floaty(ty_elem(f->val[in->arg[0]].ty)))
				derr(d, in->loc, "cannot differentiate '%s': %s on float array '%s' has no "
				     "derivative (Warp defines none)", f->name, ir_builtins[in->callee].name,
				     f->val[in->arg[0]].name ? f->val[in->arg[0]].name : "?");
			if (!u->atomic[p])
				u->atomicloc[p] = in->loc;
			u->atomic[p] = 1;
			u->kinds[p] |= atomic_kind(in->callee);
			if (depth && !u->aloop[p]) {
				u->aloop[p] = 1;
				u->aloopat[p] = in->loc;
			}
			note_mixed(d, f, u, p, in->loc);
		}
		if (in->op == OP_CALL) {
			summarize(m, d, in->callee);
			Summary *s = &d->sum[in->callee];
			if (s->sideonly && has_floaty(f))
				derr(d, in->loc, "cannot differentiate '%s': it calls '%s', which stores into "
				     "arrays or uses the value an atomic returns and has no adjoint",
				     f->name, m->fn[in->callee]->name);
			for (int k = 0; k < in->narg; k++)
				if ((p = param_index(f, in->arg[k])) >= 0) {
					if (s->loads[k] && !u->load[p]) {
						u->load[p] = 1;
						u->loadloc[p] = in->loc;
					}
					if (s->atomics[k] && !u->atomic[p]) {
						u->atomic[p] = 1;
						u->atomicloc[p] = in->loc;
					}
					u->kinds[p] |= s->kinds[k];
					if (s->atomics[k] || s->loads[k])
						u->nontid[p] = 1;
					if (s->atomics[k] && !u->aloop[p]) {
						u->aloop[p] = 1;
						u->aloopat[p] = in->loc;
					}
					note_mixed(d, f, u, p, in->loc);
				}
		}
		uses(m, d, f, &in->body, depth + (in->op == OP_FOR || in->op == OP_LOOP), u);
		uses(m, d, f, &in->els, depth + (in->op == OP_FOR || in->op == OP_LOOP), u);
	}
}

static int atomic_kind(int row)
{
	const char *n = ir_builtins[row].name;
	if (!strcmp(n, "atomic_exch") || !strcmp(n, "atomic_cas"))
		return 8;
	if (!strcmp(n, "atomic_and") || !strcmp(n, "atomic_or") || !strcmp(n, "atomic_xor"))
		return 16;
	return !strcmp(n, "atomic_min") ? 2 : !strcmp(n, "atomic_max") ? 4 : 1;
}

static Use use_new(D *d, int n)
{
	Use u;
	u.load = salloc(d, (size_t)n + 1);
	u.store = salloc(d, (size_t)n + 1);
	u.storeloop = salloc(d, (size_t)n + 1);
	u.atomic = salloc(d, (size_t)n + 1);
	u.kinds = salloc(d, (size_t)n + 1);
	u.aloop = salloc(d, (size_t)n + 1);
	u.nontid = salloc(d, (size_t)n + 1);
	u.aresult = salloc(d, (size_t)n + 1);
	u.amixed = salloc(d, (size_t)n + 1);
	u.aresultat = salloc(d, ((size_t)n + 1) * sizeof(Loc));
	u.amixedat = salloc(d, ((size_t)n + 1) * sizeof(Loc));
	u.aresultrow = salloc(d, ((size_t)n + 1) * sizeof(int));
	u.tidv = NULL;
	u.aloopat = salloc(d, ((size_t)n + 1) * sizeof(Loc));
	u.storeloc = salloc(d, ((size_t)n + 1) * sizeof(Loc));
	u.atomicloc = salloc(d, ((size_t)n + 1) * sizeof(Loc));
	u.loadloc = salloc(d, ((size_t)n + 1) * sizeof(Loc));
	return u;
}

/* does b make atomic updates or print, itself or through the funcs it
 * calls (what a replay leaves out)? */
static int has_atomic(Module *m, D *d, const Block *b)
{
	for (int i = 0; i < b->n; i++) {
		const Inst *in = &b->v[i];
		if (forward_only(in))
			return 1;
		if (in->op == OP_CALL) {
			summarize(m, d, in->callee);
			if (d->sum[in->callee].has_atomic)
				return 1;
		}
		if (has_atomic(m, d, &in->body) || has_atomic(m, d, &in->els))
			return 1;
	}
	return 0;
}

/* Does b call a function that is side effects only (Summary.sideonly)?
 * The callees are summarized already (uses() did it). */
static int calls_sideonly(D *d, const Block *b)
{
	for (int i = 0; i < b->n; i++) {
		const Inst *in = &b->v[i];
		if (in->op == OP_CALL && d->sum[in->callee].sideonly)
			return 1;
		if (calls_sideonly(d, &in->body) || calls_sideonly(d, &in->els))
			return 1;
	}
	return 0;
}

/* The struct parameter whose array field (through fields and copies) v
 * names, or -1. */
static int field_root(const Func *f, const Inst *const *def, int v)
{
	int via = 0;
	for (const Inst *dv; (dv = def[v]) && (dv->op == OP_FIELD || dv->op == OP_MOV); v = dv->arg[0])
		via |= dv->op == OP_FIELD;
	return via ? param_index(f, v) : -1;
}

static void field_stores_in(D *d, const Func *f, const Inst *const *def, const Block *b)
{
	for (int i = 0; i < b->n; i++) {
		const Inst *in = &b->v[i];
		int p;
		if (in->op == OP_STORE && (p = field_root(f, def, in->arg[0])) >= 0)
			derr(d, in->loc, "cannot differentiate wp.func '%s': it stores to an array field of "
			     "'%s' (store in the kernel instead)", f->name, f->val[f->param[p]].name);
		field_stores_in(d, f, def, &in->body);
		field_stores_in(d, f, def, &in->els);
	}
}

/* A func that stores through a struct parameter's array field is
 * refused as one that stores to an array parameter is. */
static void field_stores(D *d, const Func *f)
{
	const Inst **def = salloc(d, sizeof *def * (size_t)(f->nval + 1)); /* derr may not return */
	memset(def, 0, sizeof *def * (size_t)(f->nval + 1));
	first_defs(&f->body, def);
	field_stores_in(d, f, def, &f->body);
}

static void summarize(Module *m, D *d, int fi)
{
	Summary *s = &d->sum[fi];
	if (s->done)
		return;
	s->done = 1;
	const Func *f = m->fn[fi];
	Use u = use_new(d, f->nparam);
	uses(m, d, f, &f->body, 0, &u);
	for (int p = 0; p < f->nparam; p++)
		if (!has_floaty(f) && (u.store[p] || u.aresult[p]))
			s->sideonly = 1;
	if (!has_floaty(f) && calls_sideonly(d, &f->body))
		s->sideonly = 1;
	for (int p = 0; p < f->nparam && !s->sideonly; p++)
		if (u.store[p])
			derr(d, u.storeloc[p], "cannot differentiate wp.func '%s': it stores to array '%s' "
			     "(store in the kernel instead)", f->name, f->val[f->param[p]].name);
	if (!s->sideonly)
		field_stores(d, f);
	s->loads = u.load;
	s->atomics = u.atomic;
	s->kinds = u.kinds;
	s->has_atomic = has_atomic(m, d, &f->body);
}

/* count definitions; mark values defined by tid */
static void tid_defs(const Block *b, int *ndef, uint8_t *istid)
{
	for (int i = 0; i < b->n; i++) {
		const Inst *in = &b->v[i];
		for (int k = 0; k < in->nres; k++) {
			ndef[in->res[k]]++;
			if (in->op == OP_BUILTIN && !strcmp(ir_builtins[in->callee].name, "tid"))
				istid[in->res[k]] = 1;
		}
		tid_defs(&in->body, ndef, istid);
		tid_defs(&in->els, ndef, istid);
	}
}

static void check_kernel(Module *m, D *d, const Func *f)
{
	Use u = use_new(d, f->nparam);
	int *ndef = salloc(d, ((size_t)f->nval + 1) * sizeof *ndef);
	uint8_t *tidv = salloc(d, (size_t)f->nval + 1);
	tid_defs(&f->body, ndef, tidv);
	/* a 1-D launch: the index names the thread (in an N-D one, the
	 * first index is shared by a row of threads) */
	int one_d = ir_kernel_rank(f) == 1;
	for (int v = 0; v < f->nval; v++)
		tidv[v] = tidv[v] && ndef[v] == 1 && f->val[v].kind != VK_PARAM && one_d;
	u.tidv = tidv;
	uses(m, d, f, &f->body, 0, &u);
	for (int p = 0; p < f->nparam; p++) {
		const char *n = f->val[f->param[p]].name;
		if (u.aresult[p])
			atomic_result_error(d, u.aresultat[p], u.aresultrow[p]);
		if (u.amixed[p])
			derr(d, u.amixedat[p], "cannot differentiate kernel '%s': array '%s' is updated by %s "
			     "and by another kind of atomic, so its final values do not tell which value won",
			     f->name, n, (u.kinds[p] & 2) ? "atomic_min" : "atomic_max");
		if (u.storeloop[p] && u.load[p])
			derr(d, u.storeloc[p], "cannot differentiate kernel '%s': array '%s' is stored inside "
			     "a loop and also loaded, so its values cannot be kept for the backward pass",
			     f->name, n);
		if (u.atomic[p] && (u.load[p] || u.store[p]) && (u.kinds[p] & 6))
			derr(d, u.atomicloc[p], "cannot differentiate kernel '%s': array '%s' is updated by "
			     "%s and also %s by the kernel", f->name, n,
			     (u.kinds[p] & 2) ? "atomic_min" : "atomic_max", u.load[p] ? "loaded" : "stored");
		if (u.atomic[p] && (u.load[p] || u.store[p]) && u.nontid[p])
			derr(d, u.atomicloc[p], "cannot differentiate kernel '%s': array '%s' is updated by "
			     "an atomic and also %s by the kernel, not only at the thread's own index "
			     "wp.tid()", f->name, n, u.load[p] ? "loaded" : "stored");
		if (u.aloop[p] && (u.load[p] || u.store[p]))
			derr(d, u.aloopat[p], "cannot differentiate kernel '%s': array '%s' is updated by "
			     "an atomic inside a loop or a wp.func and also %s by the kernel", f->name, n,
			     u.load[p] ? "loaded" : "stored");
		/* the other atomics on a loaded or stored array act as a
		 * thread's own read-modify-write: kept and undone like a store */
		d->rmw[f->param[p]] = u.atomic[p] && (u.load[p] || u.store[p]);
	}
}

/* ---- functions ------------------------------------------------------------ */

static void finish(D *d, Block *body)
{
	Block all = {0};
	for (int i = 0; i < d->ninit; i++) {
		int v = d->inits[i];
		DiffEmit e = de(d, &all, d->f->loc);
		Type t = vty(d, v);
		if (ty_is_array(t))
			continue; /* a struct's array, set where it is read */
		if (ty_is_composite(t) || ty_is_struct(t))
			emit(d, &all, OP_MAKE, &v, 1, NULL, 0, d->f->loc);
		else
			mov(d, &all, v, diff_zero(&e, t), d->f->loc);
	}
	for (int i = 0; i < body->n; i++) {
		arena_grow(&d->m->arena, (void **)&all.v, &all.cap, all.n + 1, sizeof *all.v);
		all.v[all.n++] = body->v[i];
	}
	d->g->body = all;
	if (diff_optimize) {
		DiffInfo di = {d->vbase, d->vflag, d->capinfo < d->g->nval ? d->capinfo : d->g->nval,
			       *d->fnfx, *d->capfnfx};
		diff_opt(d->m, d->g, &di);
	}
}

/* Does a call to function fi (an _adj func) write memory: has it adjoint
 * arrays to accumulate into?  (Before its body is made.) */
static int adj_writes(const Module *m, int fi)
{
	const Func *g = m->fn[fi];
	for (int i = 0; i < g->nparam; i++)
		if (ty_is_array(g->val[g->param[i]].ty) && diff_floaty(ty_elem(g->val[g->param[i]].ty)))
			return 1;
	return 0;
}

/* Does b write memory (a store, an atomic, a call that writes)?  Once an
 * _adj func's body is made and simplified, this says it exactly. */
static int writes(const D *d, const Block *b)
{
	for (int i = 0; i < b->n; i++) {
		const Inst *in = &b->v[i];
		if (in->op == OP_STORE || forward_only(in))
			return 1;
		if (in->op == OP_CALL && in->callee < *d->capfnfx && (*d->fnfx)[in->callee])
			return 1;
		if (writes(d, &in->body) || writes(d, &in->els))
			return 1;
	}
	return 0;
}

static void d_init(D *d, Module *m, const Src *src, Arena *a, int fi, Func *g)
{
	int32_t *fadj = d->fadj, *pure = d->pure;
	Summary *sum = d->sum;
	uint8_t **fnfx = d->fnfx;
	int *capfnfx = d->capfnfx;
	memset(d, 0, sizeof *d);
	d->fadj = fadj;
	d->pure = pure;
	d->sum = sum;
	d->fnfx = fnfx;
	d->capfnfx = capfnfx;
	d->m = m;
	d->src = src;
	d->a = a;
	d->fi = fi;
	d->f = m->fn[fi];
	d->g = g;
	d->nenv = d->f->nval + 1 + d->f->nret;
}

/* cur for the body: parameters map to g's first parameters */
static int32_t *d_env(D *d)
{
	int32_t *cur = salloc(d, (size_t)d->nenv * sizeof *cur);
	for (int i = 0; i < d->nenv; i++)
		cur[i] = -1;
	for (int i = 0; i < d->f->nparam; i++)
		cur[d->f->param[i]] = d->g->param[i];
	d->done_var = fresh_named(d, "done", TY_BOOL, 0);
	d->ret_var = salloc(d, (size_t)(d->f->nret + 1) * sizeof *d->ret_var);
	for (int k = 0; k < d->f->nret; k++)
		d->ret_var[k] = fresh_named(d, "result", d->f->ret[k], 0);
	return cur;
}

/* ---- thread-private array elements --------------------------------------- */

/* An array that the kernel accesses only at index wp.tid() (loads, stores,
 * atomic_add/sub) holds one element per thread, private to it: kdiff
 * differentiates a copy of the kernel in which that element is a local
 * variable, loaded after the tid and stored back before every ret and at
 * the end.  A store in a loop then is just a loop-carried variable.  Not
 * done when a ret sits inside a loop (the store back would be in it). */
static void promote_block(Module *m, Func *pf, const Block *b, Block *out, const int32_t *cell,
			  const uint8_t *ro, const uint8_t *attid, int tidv, int top)
{
	for (int i = 0; i < b->n; i++) {
		const Inst *in = &b->v[i];
		int c = in->narg ? cell[in->arg[0]] : -1;
		if (in->op == OP_LOAD && c >= 0 && attid[in->arg[1]]) {
			ir_emit(m, out, OP_MOV, in->res, 1, &c, 1, in->loc);
			continue;
		}
		if (in->op == OP_STORE && c >= 0) {
			ir_emit(m, out, OP_MOV, &c, 1, &in->arg[2], 1, in->loc);
			continue;
		}
		if (is_atomic(in) && c >= 0) {
			/* atomic_add/sub: the old value is the element's */
			if (in->nres)
				ir_emit(m, out, OP_MOV, in->res, 1, &c, 1, in->loc);
			int op = !strcmp(ir_builtins[in->callee].name, "atomic_sub") ? OP_SUB : OP_ADD;
			ir_emit(m, out, op, &c, 1, (int32_t[]){c, in->arg[2]}, 2, in->loc);
			continue;
		}
		if (in->op == OP_RET)
			for (int v = 0; v < pf->nval; v++)
				if (cell[v] >= 0 && !ro[v])
					ir_emit(m, out, OP_STORE, NULL, 0, (int32_t[]){v, tidv, cell[v]}, 3, in->loc);
		Inst *ni = ir_emit(m, out, in->op, in->res, in->nres, in->arg, in->narg, in->loc);
		ni->callee = in->callee;
		Block t = {0}, e = {0};
		promote_block(m, pf, &in->body, &t, cell, ro, attid, tidv, 0);
		promote_block(m, pf, &in->els, &e, cell, ro, attid, tidv, 0);
		ni = &out->v[out->n - 1];
		ni->body = t;
		ni->els = e;
		if (top && in->nres == 1 && in->res[0] == tidv)
			for (int v = 0; v < pf->nval; v++)
				if (cell[v] >= 0)
					ir_emit(m, out, OP_LOAD, &cell[v], 1, (int32_t[]){v, tidv}, 2, in->loc);
	}
	if (top && (!b->n || b->v[b->n - 1].op != OP_RET)) {
		Loc at = b->n ? b->v[b->n - 1].loc : pf->loc;
		for (int v = 0; v < pf->nval; v++)
			if (cell[v] >= 0 && !ro[v])
				ir_emit(m, out, OP_STORE, NULL, 0, (int32_t[]){v, tidv, cell[v]}, 3, at);
	}
}

/* count, per array, its loads at an index holding wp.tid() (tidv) */
static void tid_loads(const Block *b, const uint8_t *tidv, int *n)
{
	for (int i = 0; i < b->n; i++) {
		const Inst *in = &b->v[i];
		if (in->op == OP_LOAD && tidv[in->arg[1]])
			n[in->arg[0]]++;
		tid_loads(&in->body, tidv, n);
		tid_loads(&in->els, tidv, n);
	}
}

static int ret_in_loop(const Block *b, int depth)
{
	for (int i = 0; i < b->n; i++) {
		const Inst *in = &b->v[i];
		if (in->op == OP_RET && depth)
			return 1;
		int dd = depth + (in->op == OP_FOR || in->op == OP_LOOP);
		if (ret_in_loop(&in->body, dd) || ret_in_loop(&in->els, dd))
			return 1;
	}
	return 0;
}

static int name_in_func(const Func *f, const char *s)
{
	for (int v = 0; v < f->nval; v++)
		if (f->val[v].name && !strcmp(f->val[v].name, s))
			return 1;
	return 0;
}

static const Func *promote(Module *m, D *d, const Func *f)
{
	Use u = use_new(d, f->nparam);
	int *ndef = salloc(d, ((size_t)f->nval + 1) * sizeof *ndef);
	uint8_t *tidv = salloc(d, (size_t)f->nval + 1);
	tid_defs(&f->body, ndef, tidv);
	/* a 1-D launch: the index names the thread (in an N-D one, the
	 * first index is shared by a row of threads) */
	int one_d = ir_kernel_rank(f) == 1;
	for (int v = 0; v < f->nval; v++)
		tidv[v] = tidv[v] && ndef[v] == 1 && f->val[v].kind != VK_PARAM && one_d;
	u.tidv = tidv;
	uses(m, d, f, &f->body, 0, &u);
	/* the tid variable, defined in the body's top-level block */
	int tv = -1;
	for (int i = 0; i < f->body.n && tv < 0; i++)
		if (f->body.v[i].nres == 1 && tidv[f->body.v[i].res[0]] && f->body.v[i].op == OP_BUILTIN)
			tv = f->body.v[i].res[0];
	if (tv < 0)
		return f;
	int writable = !ret_in_loop(&f->body, 0);
	int *attid = salloc(d, ((size_t)f->nval + 1) * sizeof *attid);
	tid_loads(&f->body, tidv, attid);
	Func *pf = salloc(d, sizeof *pf);
	*pf = *f;
	d->iscell = salloc(d, (size_t)f->nval + f->nparam + 1);
	pf->val = arena_alloc(&m->arena, (size_t)(f->nval + f->nparam + 1) * sizeof *pf->val);
	if (f->nval)
		memcpy(pf->val, f->val, (size_t)f->nval * sizeof *pf->val);
	pf->capval = f->nval + f->nparam + 1;
	/* indexed by value, the cells included */
	int32_t *cell = salloc(d, ((size_t)f->nval + f->nparam + 1) * sizeof *cell);
	uint8_t *ro = salloc(d, (size_t)f->nval + f->nparam + 1);
	for (int v = 0; v < f->nval + f->nparam + 1; v++)
		cell[v] = -1;
	int any = 0;
	for (int p = 0; p < f->nparam; p++) {
		int id = f->param[p];
		if (!ty_is_array(f->val[id].ty))
			continue;
		/* a 1-D array the kernel never writes and loads at the
		 * thread's index: read once, its adjoint added once (in an
		 * array of more dimensions, wp.tid() indexes a row) */
		int readonly = !u.store[p] && !u.atomic[p] && attid[id] > 1 && ty_ndim(f->val[id].ty) == 1;
		/* atomic_min/max targets are passed to the backward kernel in
		 * their final state (doc/autodiff.md): never promoted */
		if (!readonly && (!writable || u.nontid[p] || (u.kinds[p] & 6) || !(u.store[p] || u.atomic[p])))
			continue;
		char buf[200];
		snprintf(buf, sizeof buf, "%.100s_%.50s", f->val[id].name, f->val[tv].name);
		for (int n = 2; name_in_func(pf, buf); n++)
			snprintf(buf, sizeof buf, "%.100s_%.50s%d", f->val[id].name, f->val[tv].name, n);
		cell[id] = ir_var(m, pf, buf, ty_elem(f->val[id].ty));
		d->iscell[cell[id]] = 1;
		ro[id] = (uint8_t)readonly;
		any = 1;
	}
	if (!any)
		return f;
	pf->body = (Block){0};
	promote_block(m, pf, &f->body, &pf->body, cell, ro, tidv, tv, 1);
	return pf;
}

/* The restores of the stores the forward sweep keeps, alone: what a
 * measuring run (that stops after the forward sweep) must undo. */
static void rev_restore(D *d, Tape *tp, Block *out)
{
	for (int i = tp->n - 1; i >= 0; i--) {
		Rec *r = tp->v[i];
		if ((r->kind == R_STORE || r->kind == R_INST) && r->old >= 0) {
			/* one index per axis of the array */
			int32_t x[KS_MAX_NDIM + 2];
			int n = access_args(x, r->arg[0], r->arg + 1, ty_ndim(vty(d, r->arg[0])), r->old);
			emit(d, out, OP_STORE, NULL, 0, x, n, r->loc);
		} else if (r->kind == R_IF) {
			Block t = {0}, e = {0};
			rev_restore(d, r->t, &t);
			if (r->e)
				rev_restore(d, r->e, &e);
			if (!t.n && !e.n)
				continue;
			Inst *ni = emit(d, out, OP_IF, NULL, 0, &r->cond, 1, r->loc);
			ni->body = t;
			ni->els = e;
		}
	}
}

static void diff_kernel(Module *m, const Src *src, D *d, int fi)
{
	const Func *f0 = m->fn[fi];
	Func *g = ir_func_new(m, f0->name, 1, f0->loc);
	g->backward = 1;
	d_init(d, m, src, d->a, fi, g);
	const Func *f = promote(m, d, f0);
	d->f = f;
	d->nenv = f->nval + 1 + f->nret;
	d->rmw = salloc(d, (size_t)f->nval + 1);
	d->tape = 1;
	d->mentions = salloc(d, ((size_t)f->nval + 1) * sizeof *d->mentions);
	count_mentions(&f->body, d->mentions);
	for (int i = 0; i < f->nparam; i++)
		ir_param(m, g, f->val[f->param[i]].name, f->val[f->param[i]].ty);
	if (!has_floaty(f)) {
		/* no float parameter: no gradient, an empty backward */
		Block body = {0};
		finish(d, &body);
		return;
	}
	check_kernel(m, d, f);
	int32_t *padj = salloc(d, ((size_t)f->nparam + 1) * sizeof *padj);
	for (int i = 0; i < f->nparam; i++) {
		Type t = f->val[f->param[i]].ty;
		padj[i] = -1;
		if (ty_is_struct(t)) {
			/* one adjoint parameter per leaf, as krun sees the struct */
			set_sorg(d, g->param[i],
				 struct_adj_params(d, m, g, f->val[f->param[i]].name, t, 1));
			continue;
		}
		if (!diff_floaty(ty_elem(t)))
			continue;
		char buf[160];
		int n = 0;
		snprintf(buf, sizeof buf, "adj_%.120s", f->val[f->param[i]].name);
		while (name_taken(g, buf))
			snprintf(buf, sizeof buf, "adj_%.120s_%d", f->val[f->param[i]].name, ++n);
		ir_param(m, g, buf, ir_adjoint_type(t));
		padj[i] = g->param[g->nparam - 1];
		if (ty_is_array(t))
			set_adjarr(d, g->param[i], padj[i]);
	}
	/* the tape, the last parameter: dropped again if no loop keeps a
	 * checkpoint */
	char tname[64];
	snprintf(tname, sizeof tname, "tape");
	for (int n = 2; name_taken(g, tname); n++)
		snprintf(tname, sizeof tname, "tape_%d", n);
	int tapep = ir_param(m, g, tname, ty_array(TY_INT, 1));
	int32_t *cur = d_env(d);
	Block body = {0};
	emit(d, &body, OP_TAPE_OPEN, NULL, 0, &tapep, 1, f->loc);
	Tape *tp = tape_new(d);
	Region rg = {0};
	rg.E = fresh_named(d, "exited", TY_BOOL, 0);
	tape_block(d, &f->body, 0, cur, &body, tp, &rg, NULL);
	if (!d->nloop) {
		memmove(&body.v[0], &body.v[1], (size_t)(body.n - 1) * sizeof *body.v);
		body.n--;
	}
	if (d->nloop) {
		/* a measuring run stops here, undoing its stores */
		int mres = ir_temp(m, g, TY_BOOL);
		emit(d, &body, OP_TAPE_MEASURED, &mres, 1, NULL, 0, f->loc);
		Block mb = {0};
		rev_restore(d, tp, &mb);
		emit(d, &mb, OP_RET, NULL, 0, NULL, 0, f->loc);
		Inst *ni = emit(d, &body, OP_IF, NULL, 0, &mres, 1, f->loc);
		ni->body = mb;
	}
	rev_tape(d, tp, &body);
	/* scalar parameters and a struct's float fields: sum over threads */
	for (int i = 0; i < f->nparam; i++) {
		Type t = f->val[f->param[i]].ty;
		int a = adjpeek(d, g->param[i]);
		if (a < 0)
			continue;
		if (ty_is_struct(t))
			struct_scatter(d, &body, a, t, sorg_of(d, g->param[i]), f->loc);
		else if (!ty_is_array(t) && padj[i] >= 0)
			adj_scatter(d, &body, padj[i], (int32_t[]){ir_const_int(m, g, 0)}, a, f->loc);
	}
	finish(d, &body);
	if (!ir_opens_tape(g))
		g->nparam--;
}

static void diff_func_sig(Module *m, int fi, int32_t *fadj)
{
	const Func *f = m->fn[fi];
	char name[200];
	snprintf(name, sizeof name, "%.180s_adj", f->name);
	for (int n = 2; ir_func_find(m, name) >= 0; n++)
		snprintf(name, sizeof name, "%.180s_adj%d", f->name, n);
	Func *g = ir_func_new(m, name, 0, f->loc);
	fadj[fi] = m->nfn - 1;
	for (int i = 0; i < f->nparam; i++)
		ir_param(m, g, f->val[f->param[i]].name, f->val[f->param[i]].ty);
	for (int i = 0; i < f->nparam; i++) {
		Type t = f->val[f->param[i]].ty;
		if (ty_is_struct(t)) {
			/* the struct's float arrays (its floats are in its adjoint) */
			D tmp = {0};
			Arena a = {0};
			tmp.a = &a;
			struct_adj_params(&tmp, m, g, f->val[f->param[i]].name, t, 0);
			arena_free(&a);
			continue;
		}
		if (!ty_is_array(t) || !diff_floaty(ty_elem(t)))
			continue;
		char buf[160];
		int n = 0;
		snprintf(buf, sizeof buf, "adj_%.120s", f->val[f->param[i]].name);
		while (name_taken(g, buf))
			snprintf(buf, sizeof buf, "adj_%.120s_%d", f->val[f->param[i]].name, ++n);
		ir_param(m, g, buf, t);
	}
	for (int k = 0; k < f->nret; k++) {
		if (!diff_floaty(f->ret[k]))
			continue;
		char buf[64];
		int n = 0;
		snprintf(buf, sizeof buf, "adj_ret%d", k);
		while (name_taken(g, buf))
			snprintf(buf, sizeof buf, "adj_ret%d_%d", k, ++n);
		ir_param(m, g, buf, f->ret[k]);
	}
	Type rt[256];
	int nr = 0;
	for (int i = 0; i < f->nparam; i++) {
		Type t = f->val[f->param[i]].ty;
		if (!ty_is_array(t) && diff_floaty(t))
			rt[nr++] = t;
	}
	if (packed(f)) {
		rt[0] = ty_vec(packed(f));
		nr = 1;
	}
	ir_set_ret(m, g, rt, nr);
}

static void diff_func(Module *m, const Src *src, D *d, int fi)
{
	const Func *f = m->fn[fi];
	Func *g = m->fn[d->fadj[fi]];
	d_init(d, m, src, d->a, fi, g);
	if (d->sum[fi].sideonly) {
		/* no float in or out: nothing to differentiate */
		Block body = {0};
		emit(d, &body, OP_RET, NULL, 0, NULL, 0, f->loc);
		finish(d, &body);
		return;
	}
	d->mentions = salloc(d, ((size_t)f->nval + 1) * sizeof *d->mentions);
	count_mentions(&f->body, d->mentions);
	int q = f->nparam;
	for (int i = 0; i < f->nparam; i++) {
		Type t = f->val[f->param[i]].ty;
		if (ty_is_struct(t))
			set_sorg(d, g->param[i], struct_adj_leaves(d, g, t, 0, &q));
		else if (ty_is_array(t) && diff_floaty(ty_elem(t)))
			set_adjarr(d, g->param[i], g->param[q++]);
	}
	int32_t *cur = d_env(d);
	Block body = {0};
	Tape *tp = tape_new(d);
	Region rg = {0};
	rg.E = fresh_named(d, "exited", TY_BOOL, 0);
	tape_block(d, &f->body, 0, cur, &body, tp, &rg, NULL);
	for (int k = 0; k < f->nret; k++)
		if (diff_floaty(f->ret[k]))
			mov(d, &body, adjof(d, d->ret_var[k]), g->param[q++], f->loc);
	rev_tape(d, tp, &body);
	int32_t rv[256];
	int nr = 0;
	for (int i = 0; i < f->nparam; i++) {
		Type t = f->val[f->param[i]].ty;
		if (!ty_is_array(t) && diff_floaty(t))
			rv[nr++] = adjof(d, g->param[i]);
	}
	if (packed(f)) {
		/* the gradient: every component of every adjoint, in order */
		DiffEmit e = de(d, &body, f->loc);
		int32_t c[4];
		int n = 0;
		for (int k = 0; k < nr; k++)
			for (int j = 0; j < ty_ncomp(vty(d, rv[k])); j++)
				c[n++] = comp(d, &e, rv[k], j);
		rv[0] = diff_op(&e, OP_MAKE, c, n, ty_vec(n));
		nr = 1;
	}
	emit(d, &body, OP_RET, NULL, 0, rv, nr, f->loc);
	finish(d, &body);
}

/* A copy of b without its atomics and prints, calls going to the replay
 * copies. */
static void copy_block(Module *m, const D *d, const Block *b, Block *out)
{
	for (int i = 0; i < b->n; i++) {
		const Inst *in = &b->v[i];
		if (forward_only(in))
			continue;
		Inst *ni = ir_emit(m, out, in->op, in->res, in->nres, in->arg, in->narg, in->loc);
		ni->callee = in->op == OP_CALL ? (int32_t)d->pure[in->callee] : in->callee;
		Block t = {0}, e = {0};
		copy_block(m, d, &in->body, &t);
		copy_block(m, d, &in->els, &e);
		ni = &out->v[out->n - 1];
		ni->body = t;
		ni->els = e;
	}
}

/* The sweeps of a backward pass must not repeat a func's atomic updates:
 * such a func is called through `func @f_replay`, its copy without them. */
static void make_replay(Module *m, D *d, int fi)
{
	const Func *f = m->fn[fi];
	char name[200];
	snprintf(name, sizeof name, "%.180s_replay", f->name);
	for (int n = 2; ir_func_find(m, name) >= 0; n++)
		snprintf(name, sizeof name, "%.180s_replay%d", f->name, n);
	Func *g = ir_func_new(m, name, 0, f->loc);
	d->pure[fi] = m->nfn - 1;
	g->val = arena_alloc(&m->arena, (size_t)(f->nval ? f->nval : 1) * sizeof *g->val);
	if (f->nval)
		memcpy(g->val, f->val, (size_t)f->nval * sizeof *g->val);
	g->nval = g->capval = f->nval;
	g->param = arena_alloc(&m->arena, (size_t)(f->nparam ? f->nparam : 1) * sizeof *g->param);
	if (f->nparam)
		memcpy(g->param, f->param, (size_t)f->nparam * sizeof *g->param);
	g->nparam = f->nparam;
	ir_set_ret(m, g, f->ret, f->nret);
}

/* ---- a module, function by function ---------------------------------------- */

/* The state of one module's differentiation: the summaries of the
 * functions above, which calls need; the rest of a function's work lives
 * in the arena fa and is freed when it is done.  fadj, pure and sum are
 * indexed by the module's functions, which ir/file.c's first pass (or
 * the module in memory) has all made by the time diff_begin runs. */
struct Diff {
	Module *m;
	Src nosrc;
	Arena a;         /* summaries */
	Arena fa;        /* the function at hand */
	D d;
	int n;           /* the module's functions before any was appended */
	uint8_t *fnfx;
	int capfnfx;
};

Diff *diff_begin(Module *m, const Src *ksrc)
{
	Diff *df = xmalloc(sizeof *df);
	memset(df, 0, sizeof *df);
	df->m = m;
	df->nosrc.name = m->source ? m->source : "<ir>";
	int n = df->n = m->nfn;
	D *d = &df->d;
	d->a = &df->a;
	d->m = m;
	d->src = ksrc ? ksrc : &df->nosrc;
	d->fadj = arena_alloc(&df->a, (size_t)(n + 1) * sizeof *d->fadj);
	d->sum = arena_alloc(&df->a, (size_t)(n + 1) * sizeof *d->sum);
	d->pure = arena_alloc(&df->a, (size_t)(n + 1) * sizeof *d->pure);
	d->fnfx = &df->fnfx;
	d->capfnfx = &df->capfnfx;
	return df;
}

DiffMade diff_next(Diff *df, int fi)
{
	Module *m = df->m;
	D *d = &df->d;
	const Func *f = m->fn[fi];
	DiffMade made = {-1, -1, -1};
	d->pure[fi] = fi;
	if (!f->is_kernel) {
		d->a = &df->a;
		summarize(m, d, fi);
		d->a = &df->fa;
		set_fnfx(d, fi, d->sum[fi].has_atomic);
		/* a func that only reads an atomic's result has nothing to
		 * replay: no float flows through it (sideonly) */
		if (d->sum[fi].has_atomic && !d->sum[fi].sideonly) {
			make_replay(m, d, fi);
			set_fnfx(d, d->pure[fi], 0);
			copy_block(m, d, &f->body, &m->fn[d->pure[fi]]->body);
			made.replay = d->pure[fi];
		}
		diff_func_sig(m, fi, d->fadj);
		set_fnfx(d, d->fadj[fi], adj_writes(m, d->fadj[fi]));
		diff_func(m, d->src, d, fi);
		set_fnfx(d, d->fadj[fi], writes(d, &m->fn[d->fadj[fi]]->body));
		made.adj = d->fadj[fi];
	} else {
		d->a = &df->fa;
		diff_kernel(m, d->src, d, fi);
		made.backward = m->nfn - 1;
	}
	d->a = &df->a;
	arena_free(&df->fa);
	return made;
}

void diff_end(Diff *df)
{
	if (!df)
		return;
	arena_free(&df->fa);
	arena_free(&df->a);
	free(df->fnfx);
	free(df);
}

/* The module's functions from n on in the order kdiff prints them:
 * replays, adjoint funcs, backward kernels, each in the order of the
 * functions they were made for. */
static void reorder(Module *m, int n, const DiffMade *made)
{
	int extra = m->nfn - n, k = 0;
	Func **fn = xmalloc((size_t)(extra ? extra : 1) * sizeof *fn);
	int32_t *to = xmalloc((size_t)(m->nfn ? m->nfn : 1) * sizeof *to);
	for (int i = 0; i < n; i++)
		to[i] = i;
	for (int pass = 0; pass < 3; pass++)
		for (int i = 0; i < n; i++) {
			int g = pass == 0 ? made[i].replay : pass == 1 ? made[i].adj : made[i].backward;
			if (g >= 0) {
				to[g] = n + k;
				fn[k++] = m->fn[g];
			}
		}
	memcpy(m->fn + n, fn, (size_t)extra * sizeof *fn);
	for (int i = n; i < m->nfn; i++)
		ir_remap_calls(&m->fn[i]->body, to);
	ir_index_reset(m);
	free(to);
	free(fn);
}

void diff_module(Module *m, const Src *ksrc)
{
	/* a caller that recovers from errors (ks_recover) gets the state
	 * freed on the way back */
	jmp_buf jb, *outer = ks_recover;
	int n = m->nfn;
	Diff *df = diff_begin(m, ksrc);
	DiffMade *made = xmalloc((size_t)(n ? n : 1) * sizeof *made);
	if (outer) {
		if (setjmp(jb)) {
			ks_recover = outer;
			diff_end(df);
			free(made);
			longjmp(*outer, 1);
		}
		ks_recover = &jb;
	}
	for (int i = 0; i < n; i++)
		made[i] = diff_next(df, i);
	ks_recover = outer;
	reorder(m, n, made);
	diff_end(df);
	free(made);
}
