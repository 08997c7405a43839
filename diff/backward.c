/*
 * backward.c: a kernel's `backward @k`.  Its parameters are the kernel's,
 * then an adjoint array for each float-valued parameter (a 1-element one
 * for a scalar, whose gradient is summed over threads; one per leaf for a
 * struct), then the tape when a loop keeps checkpoints (doc/autodiff.md,
 * "The contract of a backward kernel").  Its body is the forward sweep,
 * the exit of a measuring run (which stops there, its stores undone), the
 * reverse sweep, and the scalar parameters' adjoints added to their
 * arrays.  What it differentiates is a copy of the kernel in which an
 * array element that only its own thread touches is a local variable
 * (promote), when there is one.
 */
#include <string.h>

#include "diff_int.h"

/* ---- thread-private array elements ------------------------------------- */

/* An array that the kernel accesses only at index wp.tid() (loads, stores,
 * atomic_add/sub) holds one element per thread, private to it: kdiff
 * differentiates a copy of the kernel in which that element is a local
 * variable, loaded after the tid and stored back before every ret and at
 * the end.  A store in a loop then is just a loop-carried variable.  Not
 * done when a ret sits inside a loop (the store back would be in it). */
static void promote_block(Module *m, Func *pf, const Block *b, Block *out, const int32_t *cell, const uint8_t *ro,
			  const uint8_t *attid, int tidv, int top)
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
		if (in->op == OP_STORE_COMP && c >= 0) {
			/* a component of the element: c = insert c, k..., x */
			int nc = in->narg - 3;
			int32_t x[4] = {c, in->arg[2], in->arg[in->narg - 2], in->arg[in->narg - 1]};
			x[nc + 1] = in->arg[in->narg - 1];
			ir_emit(m, out, OP_INSERT, &c, 1, x, nc + 2, in->loc);
			continue;
		}
		if (ir_inst_atomic(in) && c >= 0) {
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
					ir_emit(m, out, OP_STORE, NULL, 0, (int32_t[]){v, tidv, cell[v]}, 3,
						in->loc);
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

typedef struct TidLoads {
	const uint8_t *tidv;
	int *n;
} TidLoads;

/* count, per array, its loads at an index holding wp.tid() (tidv) */
static int tid_load(void *ctx, const Inst *in)
{
	TidLoads *t = ctx;
	if (in->op == OP_LOAD && t->tidv[in->arg[1]])
		t->n[in->arg[0]]++;
	return 0;
}

static int ret_in_loop(const Block *b, int depth)
{
	for (int i = 0; i < b->n; i++) {
		const Inst *in = &b->v[i];
		if (in->op == OP_RET && depth)
			return 1;
		int dd = depth + (ir_op_loop(in->op) != 0);
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
	/* (on tiles, the threads of a block share their indices) */
	int one_d = ir_kernel_rank(f) == 1 && !ir_func_tiled(f);
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
	TidLoads tl = {tidv, attid};
	ir_walk_const(&f->body, tid_load, &tl);
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

/* ---- the backward kernel ----------------------------------------------- */

/* The restores of the stores the forward sweep keeps, alone: what a
 * measuring run (that stops after the forward sweep) must undo. */
static void rev_restore(D *d, Tape *tp, Block *out)
{
	for (int i = tp->n - 1; i >= 0; i--) {
		Rec *r = tp->v[i];
		if ((r->kind == R_STORE || r->kind == R_INST) && r->old >= 0) {
			/* one index per axis of the array (then a store_comp's
			 * component) */
			int32_t x[KS_MAX_NDIM + 4];
			int n = access_args(x, r->arg[0], r->arg + 1, ty_ndim(vty(d, r->arg[0])), r->old);
			if (r->op == OP_STORE_COMP) {
				n = r->narg;
				memcpy(x, r->arg, (size_t)(n - 1) * sizeof *x);
				x[n - 1] = r->old;
			}
			emit(d, out, r->op == OP_STORE_COMP ? OP_STORE_COMP : OP_STORE, NULL, 0, x, n, r->loc);
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

void diff_kernel(Module *m, const Src *src, D *d, int fi)
{
	const Func *f0 = m->fn[fi];
	Func *g = ir_func_new(m, f0->name, FN_BACKWARD, f0->loc);
	g->opts = f0->opts; /* built as its kernel is */
	g->file = f0->file;
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
			set_sorg(d, g->param[i], struct_adj_params(d, m, g, f->val[f->param[i]].name, t, 1));
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
