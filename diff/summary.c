/*
 * summary.c: what a function does to its array parameters, and what kdiff
 * refuses because of it.  uses() walks a body for the loads, stores and
 * atomics on each array parameter, with where each first happens (a call
 * counts as what its callee's Summary says); a func's Summary, made once
 * (summarize), keeps what its callers need.  The rules a function must
 * meet for its adjoint to be exact (doc/autodiff.md, "Rules kdiff
 * enforces") are located errors raised here: a func's by summarize, a
 * kernel's by check_kernel, which also says which arrays' atomics act as
 * a thread's own read-modify-write (D.rmw).  Last, whether a call of an
 * _adj func may write memory before its body is made (adj_writes; diff.c
 * then asks its body, ir/calls.h).
 */
#include <string.h>

#include "diff_int.h"

/* ---- uses of the array parameters -------------------------------------- */

static int param_index(const Func *f, int id)
{
	for (int i = 0; i < f->nparam; i++)
		if (f->param[i] == id)
			return i;
	return -1;
}

/* Does f take or return a float value (an array of floats, or a struct
 * holding one, included)?  One that does not has no adjoint to compute:
 * the results of its atomics may be used freely (a lock, a counter, a
 * compaction's slot). */
int has_floaty(const Func *f)
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
	derr(d, at,
	     "the value returned by %s cannot be used in a differentiated kernel "
	     "(it depends on the order of the threads)",
	     ir_builtins[row].name);
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
		derr(d, at,
		     "cannot differentiate wp.func '%s': array '%s' is updated by %s and by "
		     "another kind of atomic, so its final values do not tell which value won",
		     f->name, f->val[f->param[p]].name, (u->kinds[p] & 2) ? "atomic_min" : "atomic_max");
}

void uses(Module *m, D *d, const Func *f, const Block *b, int depth, Use *u)
{
	for (int i = 0; i < b->n; i++) {
		const Inst *in = &b->v[i];
		int p;
		/* thread-private: a 1-D array indexed by wp.tid() only */
		if ((in->op == OP_TILE_ATOMIC_ADD || in->op == OP_TILE_ATOMIC_ADD_INDEXED) &&
		    (p = param_index(f, in->arg[0])) >= 0) {
			/* a tile added into an array: an atomic add */
			if (!u->atomic[p])
				u->atomicloc[p] = in->loc;
			u->atomic[p] = 1;
			u->kinds[p] |= 1;
			if (depth && !u->aloop[p]) {
				u->aloop[p] = 1;
				u->aloopat[p] = in->loc;
			}
			u->nontid[p] = 1;
		}
		if ((ir_inst_load(in) || ir_inst_store(in) || ir_inst_atomic(in)) &&
		    (p = param_index(f, in->arg[0])) >= 0 &&
		    !(u->tidv && u->tidv[in->arg[1]] && ty_ndim(f->val[in->arg[0]].ty) == 1))
			u->nontid[p] = 1;
		if (ir_inst_load(in) && (p = param_index(f, in->arg[0])) >= 0) {
			if (!u->load[p])
				u->loadloc[p] = in->loc;
			u->load[p] = 1;
		}
		if (ir_inst_store(in) && (p = param_index(f, in->arg[0])) >= 0) {
			if (!u->store[p])
				u->storeloc[p] = in->loc;
			u->store[p] = 1;
			if (depth && !u->storeloop[p]) {
				u->storeloop[p] = 1;
				u->storeloc[p] = in->loc;
			}
		}
		if (ir_inst_atomic(in) && (p = param_index(f, in->arg[0])) >= 0) {
			if (in->nres && !u->aresult[p]) {
				u->aresult[p] = 1;
				u->aresultat[p] = in->loc;
				u->aresultrow[p] = in->callee;
			}
			if (in->nres && !f->is_kernel && has_floaty(f))
				atomic_result_error(d, in->loc, in->callee);
			if ((atomic_kind(in->callee) & 8) && diff_floaty(ty_elem(f->val[in->arg[0]].ty)))
				derr(d, in->loc,
				     "cannot differentiate '%s': %s on float array '%s' has no "
				     "derivative (Warp defines none)",
				     f->name, ir_builtins[in->callee].name,
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
				derr(d, in->loc,
				     "cannot differentiate '%s': it calls '%s', which stores into "
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
		uses(m, d, f, &in->body, depth + (ir_op_loop(in->op) != 0), u);
		uses(m, d, f, &in->els, depth + (ir_op_loop(in->op) != 0), u);
	}
}

int atomic_kind(int row)
{
	const char *n = ir_builtins[row].name;
	if (!strcmp(n, "atomic_exch") || !strcmp(n, "atomic_cas"))
		return 8;
	if (!strcmp(n, "atomic_and") || !strcmp(n, "atomic_or") || !strcmp(n, "atomic_xor"))
		return 16;
	return !strcmp(n, "atomic_min") ? 2 : !strcmp(n, "atomic_max") ? 4 : 1;
}

Use use_new(D *d, int n)
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

/* ---- a func's summary -------------------------------------------------- */

/* Does in call a function that is side effects only (Summary.sideonly)?
 * The callees are summarized already (uses() did it). */
static int calls_sideonly(void *d, const Inst *in)
{
	return in->op == OP_CALL && ((D *)d)->sum[in->callee].sideonly;
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

typedef struct FieldStores {
	D *d;
	const Func *f;
	const Inst *const *def; /* first_defs's */
} FieldStores;

static int field_store(void *ctx, const Inst *in)
{
	FieldStores *s = ctx;
	int p;
	if (ir_inst_store(in) && (p = field_root(s->f, s->def, in->arg[0])) >= 0)
		derr(s->d, in->loc,
		     "cannot differentiate wp.func '%s': it stores to an array field of "
		     "'%s' (store in the kernel instead)",
		     s->f->name, s->f->val[s->f->param[p]].name);
	return 0;
}

/* A func that stores through a struct parameter's array field is
 * refused as one that stores to an array parameter is. */
static void field_stores(D *d, const Func *f)
{
	const Inst **def = salloc(d, sizeof *def * (size_t)(f->nval + 1)); /* derr may not return */
	memset(def, 0, sizeof *def * (size_t)(f->nval + 1));
	first_defs(&f->body, def);
	FieldStores s = {d, f, def};
	ir_walk_const(&f->body, field_store, &s);
}

void summarize(Module *m, D *d, int fi)
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
	if (!has_floaty(f) && ir_walk_const(&f->body, calls_sideonly, d))
		s->sideonly = 1;
	for (int p = 0; p < f->nparam && !s->sideonly; p++)
		if (u.store[p])
			derr(d, u.storeloc[p],
			     "cannot differentiate wp.func '%s': it stores to array '%s' "
			     "(store in the kernel instead)",
			     f->name, f->val[f->param[p]].name);
	if (!s->sideonly)
		field_stores(d, f);
	s->loads = u.load;
	s->atomics = u.atomic;
	s->kinds = u.kinds;
}

/* ---- a kernel's rules -------------------------------------------------- */

typedef struct TidDefs {
	int *ndef;
	uint8_t *istid;
} TidDefs;

static int tid_def(void *ctx, const Inst *in)
{
	TidDefs *t = ctx;
	for (int k = 0; k < in->nres; k++) {
		t->ndef[in->res[k]]++;
		if (in->op == OP_BUILTIN && !strcmp(ir_builtins[in->callee].name, "tid"))
			t->istid[in->res[k]] = 1;
	}
	return 0;
}

/* count definitions; mark values defined by tid */
void tid_defs(const Block *b, int *ndef, uint8_t *istid)
{
	TidDefs t = {ndef, istid};
	ir_walk_const(b, tid_def, &t);
}

/* The arrays reached through a struct's field that an atomic updates
 * (the first atomic on each), and the first load or store of one. */
typedef struct FieldAtomics {
	const Func *f;
	const Inst *const *def; /* first_defs's */
	const Inst **atomic;
	int n;
	const Inst *atomic_at, *access;
} FieldAtomics;

static int field_atomic(void *ctx, const Inst *in)
{
	FieldAtomics *fa = ctx;
	if (!ir_inst_atomic(in) || field_root(fa->f, fa->def, in->arg[0]) < 0)
		return 0;
	if (!fa->atomic) {
		fa->n++; /* counting */
		return 0;
	}
	for (int k = 0; k < fa->n; k++)
		if (same_array(fa->def, in->arg[0], fa->atomic[k]->arg[0]))
			return 0; /* one per array */
	fa->atomic[fa->n++] = in;
	return 0;
}

static int field_access(void *ctx, const Inst *in)
{
	FieldAtomics *fa = ctx;
	if (!ir_inst_load(in) && !ir_inst_store(in))
		return 0;
	for (int k = 0; k < fa->n; k++)
		if (same_array(fa->def, in->arg[0], fa->atomic[k]->arg[0])) {
			fa->atomic_at = fa->atomic[k];
			fa->access = in;
			return 1;
		}
	return 0;
}

/* An atomic on an array reached through a struct's field that the kernel
 * also loads or stores: the rules of check_kernel, and the read-modify-
 * write they allow, see array parameters only, so it is refused rather
 * than differentiated wrong. */
static void check_field_atomics(D *d, const Func *f)
{
	const Inst **def = salloc(d, sizeof *def * ((size_t)f->nval + 1));
	first_defs(&f->body, def);
	FieldAtomics fa = {f, def, NULL, 0, NULL, NULL};
	ir_walk_const(&f->body, field_atomic, &fa); /* counts them */
	if (!fa.n)
		return;
	fa.atomic = salloc(d, sizeof *fa.atomic * (size_t)fa.n);
	fa.n = 0;
	ir_walk_const(&f->body, field_atomic, &fa);
	if (ir_walk_const(&f->body, field_access, &fa))
		derr(d, fa.atomic_at->loc,
		     "cannot differentiate kernel '%s': an array of a struct is updated by an atomic and also %s "
		     "by the kernel (line %d); an array parameter can be, a struct's cannot yet",
		     f->name, ir_inst_load(fa.access) ? "loaded" : "stored", fa.access->loc.line);
}

void check_kernel(Module *m, D *d, const Func *f)
{
	Use u = use_new(d, f->nparam);
	int *ndef = salloc(d, ((size_t)f->nval + 1) * sizeof *ndef);
	uint8_t *tidv = salloc(d, (size_t)f->nval + 1);
	tid_defs(&f->body, ndef, tidv);
	/* a 1-D launch: the index names the thread (in an N-D one, the
	 * first index is shared by a row of threads) */
	/* (on tiles, the threads of a block share their indices) */
	int one_d = ir_kernel_rank(f) == 1 && !ir_func_tiled(f);
	for (int v = 0; v < f->nval; v++)
		tidv[v] = tidv[v] && ndef[v] == 1 && f->val[v].kind != VK_PARAM && one_d;
	u.tidv = tidv;
	uses(m, d, f, &f->body, 0, &u);
	for (int p = 0; p < f->nparam; p++) {
		const char *n = f->val[f->param[p]].name;
		if (u.aresult[p])
			atomic_result_error(d, u.aresultat[p], u.aresultrow[p]);
		if (u.amixed[p])
			derr(d, u.amixedat[p],
			     "cannot differentiate kernel '%s': array '%s' is updated by %s "
			     "and by another kind of atomic, so its final values do not tell which value won",
			     f->name, n, (u.kinds[p] & 2) ? "atomic_min" : "atomic_max");
		if (u.storeloop[p] && u.load[p])
			derr(d, u.storeloc[p],
			     "cannot differentiate kernel '%s': array '%s' is stored inside "
			     "a loop and also loaded, so its values cannot be kept for the backward pass",
			     f->name, n);
		if (u.atomic[p] && (u.load[p] || u.store[p]) && (u.kinds[p] & 6))
			derr(d, u.atomicloc[p],
			     "cannot differentiate kernel '%s': array '%s' is updated by "
			     "%s and also %s by the kernel",
			     f->name, n, (u.kinds[p] & 2) ? "atomic_min" : "atomic_max",
			     u.load[p] ? "loaded" : "stored");
		if (u.atomic[p] && (u.load[p] || u.store[p]) && u.nontid[p])
			derr(d, u.atomicloc[p],
			     "cannot differentiate kernel '%s': array '%s' is updated by "
			     "an atomic and also %s by the kernel, not only at the thread's own index "
			     "wp.tid()",
			     f->name, n, u.load[p] ? "loaded" : "stored");
		if (u.aloop[p] && (u.load[p] || u.store[p]))
			derr(d, u.aloopat[p],
			     "cannot differentiate kernel '%s': array '%s' is updated by "
			     "an atomic inside a loop or a wp.func and also %s by the kernel",
			     f->name, n, u.load[p] ? "loaded" : "stored");
		/* the other atomics on a loaded or stored array act as a
		 * thread's own read-modify-write: kept and undone like a store */
		d->rmw[f->param[p]] = u.atomic[p] && (u.load[p] || u.store[p]);
	}
	check_field_atomics(d, f);
}

/* ---- calls that write memory ------------------------------------------- */

/* Does a call to function fi (an _adj func) write memory: has it adjoint
 * arrays to accumulate into?  (Before its body is made.) */
int adj_writes(const Module *m, int fi)
{
	const Func *g = m->fn[fi];
	for (int i = 0; i < g->nparam; i++)
		if (ty_is_array(g->val[g->param[i]].ty) && diff_floaty(ty_elem(g->val[g->param[i]].ty)))
			return 1;
	return 0;
}
