/*
 * structs.c: the adjoints of structs.  A struct value's adjoint is a
 * struct of the same type whose float fields hold the fields' adjoints
 * (int, bool and array fields have none); it is read, added and cleared
 * field by field.  An array a struct holds has its adjoint array outside
 * it, followed from the struct parameter that holds it (D.sorg: per
 * struct value, the adjoint arrays of its leaves): a kernel's struct
 * parameter has an adjoint parameter for each leaf that takes one, a
 * func's for each leaf that is a float array (doc/autodiff.md, "The
 * contract of a backward kernel").
 */
#include "diff_int.h"

/* ---- values ------------------------------------------------------------ */

/* %r = field %s, k into a new temp */
int field_of(D *d, Block *b, int s, int k, Loc loc)
{
	int r = ir_temp(d->m, d->g, ty_field(vty(d, s), k)->ty);
	Inst *in = emit(d, b, OP_FIELD, &r, 1, &s, 1, loc);
	in->callee = k;
	return r;
}

/* %dst = setfield %s, k, %x */
void setfield_to(D *d, Block *b, int dst, int s, int k, int x, Loc loc)
{
	Inst *in = emit(d, b, OP_SETFIELD, &dst, 1, (int32_t[]){s, x}, 2, loc);
	in->callee = k;
}

/* x + y for two adjoints of struct type: field by field, each field that
 * has an adjoint (ints and arrays have none); a new temp */
int struct_sum(D *d, Block *b, int x, int y, Loc loc)
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

/* ---- where a struct's arrays come from --------------------------------- */

void set_sorg(D *d, int id, int32_t *leaves)
{
	if (id >= d->capsorg) {
		int old = d->capsorg;
		arena_grow(d->a, (void **)&d->sorg, &d->capsorg, id + 1, sizeof *d->sorg);
		for (int i = old; i < d->capsorg; i++)
			d->sorg[i] = NULL;
	}
	d->sorg[id] = leaves;
}

/* An array field's adjoint is followed from the struct parameter that holds
 * it; a struct made in the kernel or read from an array of structs has none. */
const char no_struct_origin[] = "kdiff cannot follow the adjoint of an array held by a struct "
				"that is not a parameter (a local, or an element of an array of structs)";

/* The forward sweep read field k of struct s into r: r's adjoint arrays
 * are s's (a struct's arrays reached from a parameter have the adjoint
 * arrays the caller passed; kdiff follows no other). */
void field_origin(D *d, int s, int k, int r, Loc loc)
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

/* ---- the leaves, and their adjoint parameters -------------------------- */

/* The types of the leaves of t (ty_nleaves) in order, and their paths
 * ("p_dt", "s_body_pos") when names is not NULL. */
void leaves_of(D *d, Type t, const char *path, Type *out, const char **names, int *n)
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
int leaf_adj(Type t, int kernel)
{
	if (ty_is_array(t))
		return diff_floaty(ty_elem(t));
	return kernel && diff_floaty(t);
}

/* The adjoint parameters of g for a struct parameter of type t named
 * name: adj_NAME_FIELD for each leaf with one (leaf_adj), in order; the
 * leaves' adjoint parameters (or -1) in the array returned. */
int32_t *struct_adj_params(D *d, Module *m, Func *g, const char *name, Type t, int kernel)
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
int32_t *struct_adj_leaves(D *d, const Func *g, Type t, int kernel, int *q)
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
void struct_scatter(D *d, Block *b, int a, Type t, const int32_t *leaves, Loc loc)
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

/* Does a kernel's struct of type T have a leaf that takes an adjoint (a
 * float field, an array of floats), at any depth? */
int struct_has_adj(Type t)
{
	for (int k = 0; k < ty_nfield(t); k++) {
		Type ft = ty_field(t, k)->ty;
		if (ty_is_struct(ft) ? struct_has_adj(ft) : leaf_adj(ft, 1))
			return 1;
	}
	return 0;
}
