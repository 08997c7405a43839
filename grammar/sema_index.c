/*
 * sema_index.c: reading through a value — a[i, j] and a[i][j] of an
 * array, v[k], m[i], m[i, j] and q[k] of a vector, matrix or quaternion,
 * the components .x .y .z .w, a struct's fields, a.shape[k] — and the
 * helpers the assignments of sema_stmt.c share to write through one.
 *
 * Arrays are never values of a variable: an array is a parameter or a
 * struct's field (array_of), and an access is a load of every dimension
 * at once (a[i][j] is a[i, j]), what is left indexing the element.  static_type gives the type of a chain of
 * fields and indices without lowering it, so that a store can tell a
 * struct's field from a vector's component before it reads anything.
 * A constant index into a vector or matrix is checked against its length.
 */
#include <string.h>

#include "sema.h"

static int index_val1(Sema *s, Node *e, int dim, Type of);

/* An index operand: an int; a constant is checked against dim (0:
 * unchecked, for arrays). */
int index_val(Sema *s, Node *e, int dim, Type of)
{
	int v = memo_get(s, e, 1);
	return v >= 0 ? v : memo_put(s, e, 1, index_val1(s, e, dim, of));
}

static int index_val1(Sema *s, Node *e, int dim, Type of)
{
	int v = expr(s, e, NULL);
	Type t = ty_of(s, v);
	if (ty_is_int(t) && t != TY_INT) {
		/* Warp indexes with any int type */
		int32_t r = ir_temp(s->m, s->f, TY_INT);
		emit(s, e, OP_CONV, &r, 1, (int32_t *)&v, 1);
		return r;
	}
	if (t != TY_INT)
		ERR(e, "index must be int, not %s%s", uty(t), ty_is_float(t) ? " (use int() to convert)" : "");
	const Value *k = &s->f->val[v];
	if (dim && k->kind == VK_CONST && (k->k.i < 0 || k->k.i >= dim))
		ERR(e, "index %d is out of range for %s", (int)k->k.i, uty(of));
	return v;
}

/* The subscripts of x[i] or x[i, j]. */
Node **subscripts(Node *e, int *n)
{
	if (e->nkid == 2 && e->kid[1]->kind == N_TUPLE && !e->kid[1]->paren) {
		*n = e->kid[1]->nkid;
		return e->kid[1]->kid;
	}
	*n = e->nkid - 1;
	return e->kid + 1;
}

/* Check the subscript count for a vector, matrix, quat or transform. */
void check_nsub(Sema *s, Node *e, Type t, int n)
{
	if ((ty_is_vec(t) || ty_is_quat(t) || ty_is_xform(t)) && n != 1)
		ERR(e, "%s takes one index", uty(t));
	if (ty_is_mat(t) && n != 1 && n != 2)
		ERR(e, "%s takes one index (a row) or two (an element)", uty(t));
}

/* The component .x/.y/.z/.w of a vector or quat of type t, as an index. */
int component(Sema *s, Node *e, Type t)
{
	const char *c = e->name;
	int k = c[0] && !c[1] && strchr("xyzw", c[0]) ? (int)(strchr("xyzw", c[0]) - "xyzw") : -1;
	if (ty_is_mat(t))
		ERR(e, "%s has no attribute '%s'; index elements as m[i, j]", uty(t), c);
	if (ty_is_array(t) && !strcmp(c, "shape"))
		ERR(e, "index the shape: %s.shape[0]", kid(e, 0)->kind == N_NAME ? kid(e, 0)->name : "a");
	if (!ty_is_vec(t) && !ty_is_quat(t))
		ERR(e, "'%s' has no attribute '%s'", uty(t), c);
	if (k < 0)
		ERR(e, "%s has no attribute '%s'; its components are .x .y .z .w", uty(t), c);
	if (k >= ty_rows(t))
		ERR(e, "%s has no component '.%s'", uty(t), c);
	return k;
}

/* The field e->name of struct type t: its index. */
int field_index(Sema *s, Node *e, Type t)
{
	int k = ty_field_find(t, e->name);
	if (k < 0)
		ERR(e, "struct %s has no field '%s'", ty_name(t), e->name);
	return k;
}

/* s.NAME of the struct value v */
static int field_value(Sema *s, Node *e, int v, Target *t)
{
	Type st = ty_of(s, v);
	int k = field_index(s, e, st);
	int32_t a[1] = {v};
	int r = emit_val(s, e, OP_FIELD, ty_field(st, k)->ty, a, 1, ty_is_array(ty_field(st, k)->ty) ? NULL : t);
	s->blk->v[s->blk->n - 1].callee = k;
	return r;
}

/* t.p (q 0) or t.q (q 1) of transform v: its translation or rotation, as
 * wp.transform_get_translation and _rotation give them. */
int xform_part(Sema *s, Node *at, int v, int q, Target *t)
{
	return builtin_val(s, at, q ? "transform_get_rotation" : "transform_get_translation", &v, 1, t, 1);
}

/* v.x, t.p, t.q and wp.NAME not called */
int attr_value(Sema *s, Node *e, Target *t)
{
	if (is_wp_attr(e)) {
		double x;
		if (wp_constant(e->name, &x))
			return ir_const(s->m, s->f, TY_FLOAT, 0, x);
		if (array_spelling(e) >= 0)
			ERR(e, "wp.%s can only be used in a parameter annotation", e->name);
		if (wp_type(e->name) != TY_VOID || ir_builtin_public(e->name))
			ERR(e, "wp.%s must be called", e->name);
		ERR(e, "wp.%s is not supported in kernels", e->name);
	}
	int ma, mv;
	if ((ma = module_attr(s, e, &mv))) {
		/* M.NAME, M a module imported as a name: its constant */
		if (ma == MA_CONST)
			return const_of(s, e, mv);
		if (ma == MA_HOST)
			skipped_use(s, e, mv);
		if (ma == MA_DEF)
			ERR(e, "function '%s.%s' can only be called", e->kid[0]->name, e->name);
		if (ma == MA_TYPE)
			ERR(e, "'%s.%s' is a type; call it to make a value", e->kid[0]->name, e->name);
		ERR(e, "module '%s' has no '%s' that a kernel can use", e->kid[0]->name, e->name);
	}
	int v = expr(s, e->kid[0], NULL);
	if (ty_is_struct(ty_of(s, v)))
		return field_value(s, e, v, t);
	if (ty_is_xform(ty_of(s, v)) && (!strcmp(e->name, "p") || !strcmp(e->name, "q")))
		return xform_part(s, e, v, e->name[0] == 'q', t);
	int k = component(s, e, ty_of(s, v));
	int32_t a[2] = {v, ir_const_int(s->m, s->f, k)};
	return emit_val(s, e, OP_EXTRACT, ty_scalar(ty_of(s, v)), a, 2, t);
}

/* The type of a name, or of a chain of fields and indices on one
 * (s.a, s.inner.v, a[i].x), without emitting anything; TY_VOID where that
 * is not a simple chain. */
Type static_type(Sema *s, const Node *n)
{
	if (!n)
		return TY_VOID;
	if (n->kind == N_NAME) {
		int v = map_get(&s->names, n->name);
		return v >= 0 ? ty_of(s, v) : TY_VOID;
	}
	if (n->kind == N_ATTR && kid(n, 0)) {
		Type b = static_type(s, n->kid[0]);
		int k = ty_field_find(b, n->name);
		return k >= 0 ? ty_field(b, k)->ty : TY_VOID;
	}
	if (n->kind == N_INDEX && kid(n, 0)) {
		Type b = static_type(s, n->kid[0]);
		return ty_is_array(b) ? ty_elem(b) : TY_VOID;
	}
	return TY_VOID;
}

/* The array a name (or a.shape's a) stands for, or -1: arrays are
 * parameters, or fields of a struct (s.a). */
int array_of(Sema *s, const Node *n)
{
	if (n && n->kind == N_ATTR && ty_is_array(static_type(s, n)))
		return expr(s, (Node *)n, NULL); /* s.a: a struct's array */
	if (!n || n->kind != N_NAME)
		return -1;
	int v = map_get(&s->names, n->name);
	return v >= 0 && ty_is_array(ty_of(s, v)) ? v : -1;
}

/* The subscripts of an array access a[i, j] or a[i][j] (Warp indexes an
 * N-d array either way), from the innermost: e is the outermost N_INDEX;
 * *arr the array, the index nodes in sub[0..*n), *used how many of e's
 * chain they take (the rest index the element). */
int array_access(Sema *s, Node *e, int *arr, Node **sub, int cap)
{
	Node *chain[KS_MAX_NDIM + 8];
	int nc = 0, n = 0;
	Node *x = e;
	while (x->kind == N_INDEX && nc < (int)KS_NELEM(chain)) {
		chain[nc++] = x;
		x = x->kid[0];
	}
	if ((*arr = array_of(s, x)) < 0)
		return -1;
	for (int k = nc - 1; k >= 0; k--) {
		int m;
		Node **sb = subscripts(chain[k], &m);
		for (int j = 0; j < m; j++) {
			if (n == cap)
				ERR(chain[k], "too many indices");
			sub[n++] = sb[j];
		}
	}
	return n;
}

/* Load a[sub...] (every dimension indexed); ok to index on into the
 * element with what is left. */
static int array_load(Sema *s, Node *e, int arr, Node **sub, int n, Target *t)
{
	Type ta = ty_of(s, arr);
	int nd = ty_ndim(ta);
	int32_t a[KS_MAX_NDIM + 1] = {arr};
	if (n < nd)
		ERR(e,
		    "%s needs %d indices, not %d (a sub-array is not supported: index every "
		    "dimension, a[i, j])",
		    uty(ta), nd, n);
	for (int i = 0; i < nd; i++)
		a[i + 1] = index_val(s, sub[i], 0, ta);
	int v = emit_val(s, e, OP_LOAD, ty_elem(ta), a, nd + 1, n == nd ? t : NULL);
	/* a[i][k] on an array of vectors: the component */
	for (int i = nd; i < n;) {
		Type tv = ty_of(s, v);
		int k = ty_is_mat(tv) && n - i >= 2 ? 2 : 1;
		if (!ty_is_composite(tv))
			ERR(sub[i], "'%s' object is not subscriptable", uty(tv));
		int32_t b[3] = {v};
		for (int j = 0; j < k; j++)
			b[j + 1] = index_val(s, sub[i + j], ty_is_mat(tv) ? ty_rows(tv) : ty_rows(tv), tv);
		Type tb[3] = {tv, TY_INT, TY_INT};
		v = emit_val(s, e, OP_EXTRACT, ir_op_type(OP_EXTRACT, tb, k + 1, TY_VOID), b, k + 1,
			     i + k == n ? t : NULL);
		i += k;
	}
	return v;
}

/* a.shape[k] */
static int shape_value(Sema *s, Node *e, Target *t)
{
	Node *at = e->kid[0];
	int arr = array_of(s, at->kid[0]), n;
	Node **sub = subscripts(e, &n);
	if (arr < 0) {
		int v = expr(s, at->kid[0], NULL);
		ERR(at, "'%s' has no attribute 'shape'", uty(ty_of(s, v)));
	}
	int64_t k;
	double x;
	int isf;
	Type ta = ty_of(s, arr);
	if (n != 1 || !literal(sub[0], &k, &x, &isf) || isf)
		ERR(e, "index the shape with a constant: %s.shape[0]", at->kid[0]->name);
	if (k < 0 || k >= ty_ndim(ta))
		ERR(sub[0], "%s has %d dimension%s: shape[%d] is out of range", uty(ta), ty_ndim(ta),
		    ty_ndim(ta) == 1 ? "" : "s", (int)k);
	int32_t a[2] = {arr, ir_const_int(s->m, s->f, (int32_t)k)};
	return emit_val(s, e, OP_SHAPE, TY_INT, a, 2, t);
}

/* a[i] (load), a[i, j], a[i][j], v[k], m[i] (a row), m[i, j], q[k] */
int index_value(Sema *s, Node *e, Target *t)
{
	Node *sub[KS_MAX_NDIM + 8];
	int arr, n;
	if (e->kid[0]->kind == N_ATTR && !strcmp(e->kid[0]->name, "shape") && array_of(s, e->kid[0]->kid[0]) >= 0)
		return shape_value(s, e, t);
	if ((n = array_access(s, e, &arr, sub, (int)KS_NELEM(sub))) >= 0)
		return array_load(s, e, arr, sub, n, t);
	Node **sb = subscripts(e, &n);
	int v = expr(s, e->kid[0], NULL);
	Type tv = ty_of(s, v);
	if (ty_is_tile(tv)) {
		int32_t a[1 + KS_MAX_NDIM] = {v};
		if (n < ty_ndim(tv)) { /* t[i]: Warp's view of row i */
			for (int i = 0; i < n; i++)
				a[i] = tile_index(s, sb[i], tv, i);
			Type want = ty_tile(ty_elem(tv), ty_ndim(tv) - n, ty_info(tv)->shape + n);
			return tile_view_of(s, e, v, a, n, want, t);
		}
		if (n != ty_ndim(tv))
			ERR(e, "a %s takes %d indices, not %d", uty(tv), ty_ndim(tv), n);
		for (int i = 0; i < n; i++)
			a[i + 1] = tile_index(s, sb[i], tv, i);
		return emit_val(s, e, OP_EXTRACT, ty_elem(tv), a, n + 1, t);
	}
	if (!ty_is_composite(tv))
		ERR(e, "'%s' object is not subscriptable", uty(tv));
	check_nsub(s, e, tv, n);
	int32_t a[3] = {v};
	for (int i = 0; i < n; i++)
		a[i + 1] = index_val(s, sb[i], ty_rows(tv), tv);
	Type ta[3] = {tv, TY_INT, TY_INT};
	return emit_val(s, e, OP_EXTRACT, ir_op_type(OP_EXTRACT, ta, n + 1, TY_VOID), a, n + 1, t);
}
