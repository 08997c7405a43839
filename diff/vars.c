/*
 * vars.c: the function kdiff builds, and its values.  Every definition
 * the sweeps make is a fresh variable, named after the source variable it
 * is a version of (x_12, a temp's t_12) and zeroed at the top of the
 * function (finish); an environment maps the original function's values
 * to their current new names (map).  Each new float value has an adjoint
 * variable, made on first use (adjof: adj_x), and an array its adjoint
 * array.  What kdiff knows of each value (its name before numbering,
 * DV_* flags) is noted here for the simplifier (diff_opt).
 */
#include <string.h>

#include "diff_int.h"

KS_PRINTF(3, 4) KS_NORETURN void derr(D *d, Loc at, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ks_verror_at(d->src, at.line, at.col, fmt, ap);
}

/* ---- new variables ----------------------------------------------------- */

int name_taken(const Func *g, const char *s)
{
	for (int i = 0; i < g->nparam; i++)
		if (!strcmp(g->val[g->param[i]].name, s))
			return 1;
	return 0;
}

/* Note what diff_opt needs to know of new value id. */
void note(D *d, int id, const char *base, int flags)
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
void mark_deriv(D *d, int n0)
{
	for (int id = n0; id < d->g->nval; id++)
		note(d, id, NULL, DV_DERIV);
}

/* A new variable named after base, zeroed at the top unless noinit. */
int fresh_named(D *d, const char *base, Type t, int noinit)
{
	char buf[160], head[121], num[24];
	size_t n = strnlen(base, sizeof head - 1);
	memcpy(head, base, n);
	head[n] = 0;
	num[sizeof num - 1] = 0;
	do
		ks_join(buf, sizeof buf, head, "_", ks_dec(num + sizeof num - 1, ++d->nname), NULL);
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
int fresh(D *d, int orig, Type t)
{
	const char *n = orig >= 0 && orig < d->f->nval ? d->f->val[orig].name : NULL;
	int id = fresh_named(d, n ? n : "t", t, 0);
	if (n && !(d->iscell && orig < d->f->nval && d->iscell[orig]))
		note(d, id, NULL, DV_SOURCE);
	return id;
}

int32_t *env_copy(D *d, const int32_t *cur)
{
	int32_t *e = salloc(d, (size_t)d->nenv * sizeof *e);
	memcpy(e, cur, (size_t)d->nenv * sizeof *e);
	return e;
}

/* The new value for original operand id. */
int map(D *d, const int32_t *cur, int id)
{
	const Value *v = &d->f->val[id];
	if (v->kind == VK_CONST)
		return ir_const(d->m, d->g, v->ty, v->k.i, v->k.f);
	if (cur[id] < 0)
		ks_fatal("kdiff: internal error: value %d of @%s has no new name", id, d->f->name);
	return cur[id];
}

/* ---- adjoints ---------------------------------------------------------- */

/* The adjoint variable of new value id (created on first use), or -1 when
 * the value has none (constants, ints, bools, arrays). */
int adjof(D *d, int id)
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
		ks_join(buf, sizeof "adj_" + 120, "adj_", b ? b : "t", NULL);
		d->adj[id] = fresh_named(d, buf, v->ty, 0);
		int src = (vflags(d, id) & DV_SOURCE) || v->kind == VK_PARAM;
		note(d, d->adj[id], NULL, DV_DERIV | (src ? DV_SOURCE : 0));
	}
	return d->adj[id];
}

void set_adjarr(D *d, int arr, int adjarr)
{
	if (arr >= d->capadjarr) {
		int old = d->capadjarr;
		arena_grow(d->a, (void **)&d->adjarr, &d->capadjarr, arr + 1, sizeof *d->adjarr);
		for (int i = old; i < d->capadjarr; i++)
			d->adjarr[i] = -1;
	}
	d->adjarr[arr] = adjarr;
}

/* adj(id) += e */
void acc(D *d, Block *b, int id, int e, Loc loc)
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

void zero_adj(D *d, Block *b, int id, Loc loc)
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

/* Array accesses (load, store, atomics) index an array of rank n with n
 * operands after the array; access_args builds (arr, idx..., [v]) into
 * out and returns the operand count (v < 0: none). */
int access_args(int32_t *out, int arr, const int32_t *idx, int n, int v)
{
	out[0] = arr;
	for (int k = 0; k < n; k++)
		out[1 + k] = idx[k];
	if (v >= 0)
		out[1 + n] = v;
	return 1 + n + (v >= 0);
}

/* ga[idx...] += v, atomically */
void adj_scatter(D *d, Block *b, int ga, const int32_t *idx, int v, Loc loc)
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

/* ---- a function's start and finish ------------------------------------- */

void d_init(D *d, Module *m, const Src *src, Arena *a, int fi, Func *g)
{
	int32_t *fadj = d->fadj, *pure = d->pure;
	Summary *sum = d->sum;
	IrEffects *callfx = d->callfx;
	memset(d, 0, sizeof *d);
	d->fadj = fadj;
	d->pure = pure;
	d->sum = sum;
	d->callfx = callfx;
	d->m = m;
	d->src = src;
	d->a = a;
	d->fi = fi;
	d->f = m->fn[fi];
	d->g = g;
	d->nenv = d->f->nval + 1 + d->f->nret;
}

/* cur for the body: parameters map to g's first parameters */
int32_t *d_env(D *d)
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

void finish(D *d, Block *body)
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
		DiffInfo di = {d->vbase, d->vflag, d->capinfo < d->g->nval ? d->capinfo : d->g->nval, d->callfx};
		diff_opt(d->m, d->g, &di);
	}
}
