/*
 * func.c: wp.funcs.  A func f gets `func @f_adj`: its parameters are f's,
 * then an adjoint array for each float array parameter (and for each
 * float array a struct parameter holds), then the adjoint of each float
 * result; it returns the adjoints of f's float non-array parameters,
 * packed into one vecN when they are a few float32 components (packed).
 * Its body is f's forward sweep, then its reverse sweep.  In a caller's
 * reverse sweep, `r = call @f args` becomes `adj_args += call @f_adj
 * args, adj_r` (rev_call).  A func that makes atomic updates or prints,
 * itself or through its callees, also gets `func @f_replay`, a copy
 * without them, which the sweeps call instead: a backward pass repeats
 * none of them.
 */
#include <string.h>

#include "diff_int.h"

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

/* ---- func @f_adj ------------------------------------------------------- */

/* Make func @f_adj, its parameters and results (above); fadj[fi] its
 * index.  Its body comes after (diff_func). */
void diff_func_sig(Module *m, int fi, int32_t *fadj)
{
	const Func *f = m->fn[fi];
	char name[200];
	snprintf(name, sizeof name, "%.180s_adj", f->name);
	for (int n = 2; ir_func_find(m, name) >= 0; n++)
		snprintf(name, sizeof name, "%.180s_adj%d", f->name, n);
	Func *g = ir_func_new(m, name, 0, f->loc);
	g->file = f->file ? arena_strdup(&m->arena, f->file) : NULL;
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

void diff_func(Module *m, const Src *src, D *d, int fi)
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

/* ---- a call's reverse -------------------------------------------------- */

/* A mapped call's (wp.tile_map of a func, doc/ir.md) first tile operand,
 * whose shape it has, or TY_VOID for a call of values. */
static Type mapped_shape(D *d, const Rec *r)
{
	for (int i = 0; i < r->narg; i++)
		if (ty_is_tile(vty(d, r->arg[i])))
			return vty(d, r->arg[i]);
	return TY_VOID;
}

/* t, or a tile of t of shape's shape where the call is mapped */
static Type per_elem(Type t, Type shape)
{
	return shape == TY_VOID ? t : ty_tile(t, ty_ndim(shape), ty_info(shape)->shape);
}

/* A mapped call's gradient g, a tile of vecN: parameter t's components,
 * from k on, of each element */
static int grad_comps(D *d, DiffEmit *e, int g, int k, Type t)
{
	Type gt = vty(d, g);
	return diff_op(e, OP_TILE_COMP, (int32_t[]){g, ir_const_int(d->m, d->g, k)}, 2,
		       ty_tile(t, ty_ndim(gt), ty_info(gt)->shape));
}

/* The reverse of r = call @f args: adj_args += call @f_adj args, adj_r.
 * A mapped call's is mapped too, each element's adjoints from f_adj of
 * its elements; an operand that every element took (a value beside the
 * tiles) gets the sum of its elements' adjoints, each thread its share. */
void rev_call(D *d, Rec *r, Block *out)
{
	const Func *f = d->m->fn[r->callee];
	int fa = d->fadj[r->callee];
	const Func *fj = d->m->fn[fa];
	int32_t args[256], res[256];
	int na = 0, nr = 0, any = 0;
	Type shape = mapped_shape(d, r);
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
		res[nr++] = ir_temp(d->m, d->g, per_elem(fj->ret[i], shape));
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
		} else if (shape != TY_VOID) {
			g = grad_comps(d, &e, res[0], q, t);
			q += ty_ncomp(t);
		} else {
			/* its components of the gradient */
			int32_t c[4];
			int nc = ty_ncomp(t);
			for (int k = 0; k < nc; k++)
				c[k] = comp(d, &e, res[0], q++);
			g = nc == 1 ? c[0] : diff_op(&e, OP_MAKE, c, nc, t);
		}
		if (shape != TY_VOID && !ty_is_tile(vty(d, r->arg[i])))
			g = diff_builtin(&e, "tile_share", &g, 1);
		acc(d, out, r->arg[i], g, r->loc);
	}
}

/* ---- func @f_replay ---------------------------------------------------- */

/* A copy of b without its atomics and prints, calls going to the replay
 * copies. */
void copy_block(Module *m, const D *d, const Block *b, Block *out)
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
void make_replay(Module *m, D *d, int fi)
{
	const Func *f = m->fn[fi];
	char name[200];
	snprintf(name, sizeof name, "%.180s_replay", f->name);
	for (int n = 2; ir_func_find(m, name) >= 0; n++)
		snprintf(name, sizeof name, "%.180s_replay%d", f->name, n);
	Func *g = ir_func_new(m, name, 0, f->loc);
	g->file = f->file ? arena_strdup(&m->arena, f->file) : NULL;
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
