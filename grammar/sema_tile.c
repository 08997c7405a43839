/*
 * sema_tile.c: Warp's tiles in a kernel — wp.tile_load, tile_store and
 * tile_atomic_add (an array's block of elements, from an offset),
 * wp.tile_zeros, tile_ones and tile_full, the accumulating form of
 * wp.tile_matmul and its conversions of precision, wp.tile_astype,
 * wp.tile_map of a builtin or a wp.func, wp.tile_extract and t[i, j], wp.tile_fft
 * and tile_ifft (in place, a tile variable's rows), wp.tile_reduce of a
 * builtin, wp.tile_dot, wp.tile_sort (in place), wp.tile_axpy (in place,
 * as arithmetic) and tile_diag_add, wp.tile_view (a copy) and
 * tile_assign, wp.tile and wp.untile —
 * and the refusal, naming it, of each tile builtin not in yet.  A tile's
 * shape is fixed when the kernel compiles: its extents are constant ints,
 * as Warp requires, and the tile's type holds them (ty_tile), so that a
 * shape that does not fit is a type error where it is made.  The tile builtins
 * that are values of their arguments alone (tile_matmul, tile_transpose,
 * tile_sum, tile_min, tile_max, tile_argmin, tile_argmax, the scans) are
 * rows of ir/builtins.h, lowered as any builtin.
 */
#include <math.h>
#include <string.h>

#include "sema.h"

/* Is NAME one of Warp's tile builtins (tile_*, tile, untile)? */
static int is_tile_name(const char *name)
{
	return !strncmp(name, "tile_", 5) || !strcmp(name, "tile") || !strcmp(name, "untile");
}

/* An extent of a tile's shape: a constant int from 1 on. */
static int extent(Sema *s, Node *n)
{
	Const c;
	int64_t i;
	double x;
	int isf;
	if (literal(n, &i, &x, &isf) && !isf)
		c.i = i;
	else if (!const_eval(s, n, &c) || !ty_is_int(c.ty))
		ERR(n, "a tile's shape must be constant ints (Warp fixes it when the kernel compiles)");
	if (c.i < 1 || c.i > KS_MAX_TILE)
		ERR(n, "a tile's extent must be from 1 to %d, not %lld", KS_MAX_TILE, (long long)c.i);
	return (int)c.i;
}

/* The shape argument n, an int or a tuple of them, into shape: its rank. */
static int shape_of(Sema *s, Node *n, int *shape)
{
	if (n->kind != N_TUPLE) {
		shape[0] = extent(s, n);
		return 1;
	}
	if (n->nkid < 1 || n->nkid > KS_MAX_NDIM)
		ERR(n, "a tile has 1 to %d dimensions, not %d", KS_MAX_NDIM, n->nkid);
	for (int k = 0; k < n->nkid; k++)
		shape[k] = extent(s, n->kid[k]);
	return n->nkid;
}

/* The tile of elem with the shape at node n. */
static Type tile_type(Sema *s, Node *n, Type elem)
{
	int shape[KS_MAX_NDIM], nd = shape_of(s, n, shape);
	Type t = ty_tile(elem, nd, shape);
	if (t == TY_VOID)
		ERR(n, "a tile holds at most %d elements", KS_MAX_TILE);
	return t;
}

/* dtype=T: a scalar type (float when n is NULL). */
static Type dtype_of(Sema *s, Node *n, Type dflt)
{
	if (!n)
		return dflt;
	Type t = ann_type(s, n);
	if (!ty_is_scalar(t) && !ty_is_vec(t) && !ty_is_mat(t))
		ERR(n, "a tile's dtype must be a number, vector or matrix type here, not %s", uty(t));
	return t;
}

/* storage="register" or "shared": where Warp keeps the tile, which the
 * code ksynth writes decides for itself; either is accepted. */
static void storage_arg(Sema *s, Node *n)
{
	if (!n)
		return;
	Buf b = {0};
	if (n->kind != N_STRING)
		ERR(n, "storage must be \"register\" or \"shared\"");
	py_string(s, n, &b);
	int ok = !strcmp(b.p ? b.p : "", "register") || !strcmp(b.p ? b.p : "", "shared");
	buf_free(&b);
	if (!ok)
		ERR(n, "storage must be \"register\" or \"shared\"");
}

/* A flag that must be a constant bool (bounds_check, aligned). */
static void flag_arg(Sema *s, Node *n, const char *what)
{
	Const c;
	if (n && (!const_eval(s, n, &c) || c.ty != TY_BOOL))
		ERR(n, "%s must be True or False", what);
}

/* The offset argument into a[0..nd): an int, or a tuple of nd of them
 * (all 0 when n is NULL). */
static void offsets(Sema *s, Node *n, int nd, int32_t *a)
{
	if (!n) {
		for (int k = 0; k < nd; k++)
			a[k] = ir_const_int(s->m, s->f, 0);
		return;
	}
	int given = n->kind == N_TUPLE ? n->nkid : 1;
	if (given != nd)
		ERR(n, "the offset has %d value%s; the array has %d dimension%s", given, given == 1 ? "" : "s", nd,
		    nd == 1 ? "" : "s");
	for (int k = 0; k < nd; k++)
		a[k] = index_val(s, n->kind == N_TUPLE ? n->kid[k] : n, 0, TY_VOID);
}

/* The array argument of a tile load or store: its value. */
static int array_arg(Sema *s, Node *n, const char *what)
{
	int v = expr(s, n, NULL);
	Type t = ty_of(s, v);
	Type el = ty_elem(t);
	if (!ty_is_array(t) || !(ty_is_scalar(el) || ty_is_vec(el) || ty_is_mat(el)))
		ERR(n, "wp.%s() takes an array of numbers, vectors or matrices, not %s", what, uty(t));
	return v;
}

/* A tile argument: its value. */
static int tile_arg(Sema *s, Node *n, const char *what)
{
	int v = expr(s, n, NULL);
	if (!ty_is_tile(ty_of(s, v)))
		ERR(n, "wp.%s() takes a tile here, not %s", what, uty(ty_of(s, v)));
	return v;
}

/* Bind the call's arguments to Warp's parameter names. */
#define BIND(names, ndflt_from)                                 \
	do {                                                    \
		static const char *const pn[] = names;          \
		enum { NP = sizeof pn / sizeof *pn };           \
		Node *dflt[NP];                                 \
		for (int k = 0; k < NP; k++)                    \
			dflt[k] = k >= (ndflt_from) ? e : NULL; \
		bind_args(s, e, what, pn, NP, dflt, node);      \
	} while (0)
#define P(...)              \
	{                   \
		__VA_ARGS__ \
	}

/* wp.tile_load(a, shape, offset=0, storage=..., bounds_check=True, aligned=False) */
static int load(Sema *s, Node *e, const char *what, Target *t)
{
	Node *node[6];
	BIND(P("a", "shape", "offset", "storage", "bounds_check", "aligned"), 2);
	int32_t a[1 + KS_MAX_NDIM];
	a[0] = array_arg(s, node[0], "tile_load");
	Type at = ty_of(s, a[0]), tt = tile_type(s, node[1], ty_elem(at));
	if (ty_ndim(tt) != ty_ndim(at))
		ERR(node[1], "the tile's shape has %d dimension%s; the array has %d", ty_ndim(tt),
		    ty_ndim(tt) == 1 ? "" : "s", ty_ndim(at));
	offsets(s, node[2], ty_ndim(at), a + 1);
	storage_arg(s, node[3]);
	flag_arg(s, node[4], "bounds_check");
	flag_arg(s, node[5], "aligned");
	return emit_val(s, e, OP_TILE_LOAD, tt, a, 1 + ty_ndim(at), t);
}

/* wp.tile_store(a, t, offset=0, bounds_check=True) and
 * wp.tile_atomic_add(...): t's elements into a's, or added to them (the
 * tile of old values the latter returns is not kept). */
static void store(Sema *s, Node *e, const char *what, int op)
{
	Node *node[4];
	BIND(P("a", "t", "offset", "bounds_check"), 2);
	int32_t a[2 + KS_MAX_NDIM];
	a[0] = array_arg(s, node[0], what + 3);
	a[1] = tile_arg(s, node[1], what + 3);
	Type at = ty_of(s, a[0]), tt = ty_of(s, a[1]);
	if (ty_ndim(tt) != ty_ndim(at) || ty_elem(tt) != ty_elem(at))
		ERR(node[1], "a %s cannot be %s an %s", uty(tt), op == OP_TILE_STORE ? "stored into" : "added into",
		    uty(at));
	offsets(s, node[2], ty_ndim(at), a + 2);
	flag_arg(s, node[3], "bounds_check");
	emit(s, e, op, NULL, 0, a, 2 + ty_ndim(at));
}

/* The axis= of an indexed access (0 when n is NULL): a constant axis of
 * array type at, where the tile's extent is the indices' (an error at n,
 * or without one at the tile's argument tn); its constant operand. */
static int32_t axis_arg(Sema *s, Node *n, Node *tn, Type at, Type tt, Type idx, const char *what)
{
	Const c = {.ty = TY_INT};
	if (n && (!const_eval(s, n, &c) || !ty_is_int(c.ty) || c.i < 0 || c.i >= ty_ndim(at)))
		ERR(n, "axis must be a constant axis of %s", uty(at));
	if (ty_extent(tt, (int)c.i) != ty_extent(idx, 0))
		ERR(n ? n : tn, "%s(): the tile's extent along axis %d is %d, the indices' %d", what, (int)c.i,
		    ty_extent(tt, (int)c.i), ty_extent(idx, 0));
	return ir_const_int(s->m, s->f, (int)c.i);
}

/* The indices argument of an indexed access: a 1-D tile of int32. */
static int32_t indices_arg(Sema *s, Node *n, const char *what)
{
	int32_t v = tile_arg(s, n, what);
	Type t = ty_of(s, v);
	if (ty_ndim(t) != 1 || ty_elem(t) != TY_INT)
		ERR(n, "wp.%s() takes its indices as a 1-D tile of int32, not %s", what, uty(t));
	return v;
}

/* wp.tile_load_indexed(a, indices, shape, offset=0, axis=0, storage=...):
 * tile_load's elements, but along axis from offset + indices[c] */
static int load_indexed(Sema *s, Node *e, const char *what, Target *t)
{
	Node *node[6];
	BIND(P("a", "indices", "shape", "offset", "axis", "storage"), 3);
	int32_t a[3 + KS_MAX_NDIM];
	a[0] = array_arg(s, node[0], what + 3);
	a[1] = indices_arg(s, node[1], what + 3);
	Type at = ty_of(s, a[0]), tt = tile_type(s, node[2], ty_elem(at));
	if (ty_ndim(tt) != ty_ndim(at))
		ERR(node[2], "a %s cannot be loaded from an %s", uty(tt), uty(at));
	a[2] = axis_arg(s, node[4], node[2], at, tt, ty_of(s, a[1]), what);
	offsets(s, node[3], ty_ndim(at), a + 3);
	storage_arg(s, node[5]);
	return emit_val(s, e, OP_TILE_LOAD_INDEXED, tt, a, 3 + ty_ndim(at), t);
}

/* wp.tile_store_indexed(a, indices, t, offset=0, axis=0) and
 * wp.tile_atomic_add_indexed(...): t's elements into (added into) a, along
 * axis at offset + indices[c]; those outside a (an index of -1) left out */
static void store_indexed(Sema *s, Node *e, const char *what, int op)
{
	Node *node[5];
	BIND(P("a", "indices", "t", "offset", "axis"), 3);
	int32_t a[4 + KS_MAX_NDIM];
	a[0] = array_arg(s, node[0], what + 3);
	a[2] = indices_arg(s, node[1], what + 3);
	a[1] = tile_arg(s, node[2], what + 3);
	Type at = ty_of(s, a[0]), tt = ty_of(s, a[1]);
	if (ty_ndim(tt) != ty_ndim(at) || ty_elem(tt) != ty_elem(at))
		ERR(node[2], "a %s cannot be %s an %s", uty(tt),
		    op == OP_TILE_STORE_INDEXED ? "stored into" : "added into", uty(at));
	a[3] = axis_arg(s, node[4], node[2], at, tt, ty_of(s, a[2]), what);
	offsets(s, node[3], ty_ndim(at), a + 4);
	emit(s, e, op, NULL, 0, a, 4 + ty_ndim(at));
}

/* wp.tile_arange(stop), (start, stop) or (start, stop, step), dtype=float:
 * constants, the count worked out from them rounded to the element type,
 * as Warp counts it. */
static int arange(Sema *s, Node *e, Target *t)
{
	Node *pos[3], *dtype = NULL;
	int n = 0;
	for (int i = 1; i < e->nkid; i++) {
		Node *x = e->kid[i];
		if (x->kind == N_KWARG && !strcmp(x->name, "dtype"))
			dtype = x->kid[0];
		else if (x->kind == N_KWARG && !strcmp(x->name, "storage"))
			storage_arg(s, x->kid[0]);
		else if (x->kind == N_KWARG)
			ERR(x, "wp.tile_arange() has no parameter '%s'", x->name);
		else if (n == 3)
			ERR(x, "wp.tile_arange() takes a stop, a start and a stop, or a start, a stop and a step");
		else
			pos[n++] = x;
	}
	if (!n)
		ERR(e, "wp.tile_arange() takes a stop, a start and a stop, or a start, a stop and a step");
	Type el = dtype_of(s, dtype, TY_FLOAT);
	if (!ty_is_scalar(el) || el == TY_HALF)
		ERR(dtype, "wp.tile_arange() makes a tile of ints or floats (not float16) here");
	double v[3] = {0.0, 0.0, 1.0}; /* start, stop, step */
	for (int k = 0; k < n; k++) {
		Const c;
		if (!const_eval(s, pos[k], &c) || !(ty_is_int(c.ty) || ty_is_float(c.ty)))
			ERR(pos[k],
			    "wp.tile_arange()'s range must be constant numbers (Warp fixes it when the kernel compiles)");
		double x = ty_is_int(c.ty) ? (double)c.i : c.v[0];
		if (ty_is_int(el) && x != (double)(int64_t)x)
			ERR(pos[k], "wp.tile_arange() of ints takes whole numbers");
		if (el == TY_FLOAT)
			x = (double)(float)x;
		v[n == 1 ? 1 : k] = x;
	}
	if (v[2] == 0.0)
		ERR(e, "wp.tile_arange()'s step is 0");
	double count = ceil((v[1] - v[0]) / v[2]);
	if (!(count >= 1.0) || count > KS_MAX_TILE)
		ERR(e, "wp.tile_arange() spans %s elements; a tile has 1 to %d", count >= 1.0 ? "too many" : "no",
		    KS_MAX_TILE);
	int len = (int)count;
	Type tt = ty_tile(el, 1, &len);
	int32_t a[2] = {ir_const(s->m, s->f, el, (int64_t)v[0], v[0]),
			ir_const(s->m, s->f, el, (int64_t)v[2], v[2])};
	return emit_val(s, e, OP_TILE_ARANGE, tt, a, 2, t);
}

/* wp.tile_randf(shape, rng, min=, max=, storage=...) and wp.tile_randi(...):
 * a tile of float32 (int32) random draws from the state rng, which stays
 * as it was; min and max, given together, constants as Warp wants them
 * when the kernel compiles: floats with max above min once rounded to
 * float32, or ints of int32 with max above min. */
static int rand_tile(Sema *s, Node *e, const char *name, const char *what, Target *t)
{
	Node *node[5];
	BIND(P("shape", "rng", "min", "max", "storage"), 2);
	int isf = !strcmp(name, "tile_randf");
	Type el = isf ? TY_FLOAT : TY_INT;
	Type tt = tile_type(s, node[0], el);
	int32_t a[3];
	a[0] = expr(s, node[1], NULL);
	if (ty_of(s, a[0]) != TY_UINT32)
		ERR(node[1], "%s() draws from a random state (a uint32 of wp.rand_init), not %s", what,
		    uty(ty_of(s, a[0])));
	storage_arg(s, node[4]);
	if (!node[2] != !node[3])
		ERR(node[node[2] ? 2 : 3], "%s() takes min and max together", what);
	if (!node[2])
		return emit_val(s, e, OP_TILE_RAND, tt, a, 1, t);
	Const c[2];
	for (int k = 0; k < 2; k++)
		if (!const_eval(s, node[2 + k], &c[k]) || (isf ? !ty_is_float(c[k].ty) : !ty_is_int(c[k].ty)) ||
		    (!isf && (c[k].i < INT32_MIN || c[k].i > INT32_MAX)))
			ERR(node[2 + k], "%s()'s %s must be a constant %s (Warp fixes it when the kernel compiles)",
			    what, k ? "max" : "min", isf ? "float" : "int of int32");
	if (isf ? !((float)c[1].v[0] > (float)c[0].v[0]) : !(c[1].i > c[0].i))
		ERR(node[3], "%s()'s max must be greater than its min", what);
	for (int k = 0; k < 2; k++)
		a[1 + k] = isf ? ir_const(s->m, s->f, TY_FLOAT, 0, (double)(float)c[k].v[0])
			       : ir_const_int(s->m, s->f, (int)c[k].i);
	return emit_val(s, e, OP_TILE_RAND, tt, a, 3, t);
}

/* wp.tile_zeros(shape, dtype=float, storage=...), wp.tile_empty(...)
 * (zeros: what Warp leaves unset is 0 here), wp.tile_ones(...),
 * wp.tile_full(shape, value, dtype=value's type, storage=...) */
static int filled(Sema *s, Node *e, const char *name, const char *what, Target *t)
{
	Node *node[4];
	int32_t v;
	Type tt;
	if (!strcmp(name, "tile_full")) {
		BIND(P("shape", "value", "dtype", "storage"), 2);
		Type dt = dtype_of(s, node[2], TY_VOID);
		v = dt != TY_VOID ? typed_literal(s, node[1], dt) : -1;
		if (v < 0)
			v = expr(s, node[1], NULL);
		if (dt == TY_VOID)
			dt = ty_of(s, v);
		if (ty_of(s, v) != dt)
			ERR(node[1], "wp.tile_full() fills a tile of %s with a %s", uty(dt), uty(ty_of(s, v)));
		tt = tile_type(s, node[0], dt);
		storage_arg(s, node[3]);
		return emit_val(s, e, OP_MAKE, tt, &v, 1, t);
	}
	BIND(P("shape", "dtype", "storage"), 1);
	tt = tile_type(s, node[0], dtype_of(s, node[1], TY_FLOAT));
	storage_arg(s, node[2]);
	if (!strcmp(name, "tile_zeros") || !strcmp(name, "tile_empty"))
		return emit_val(s, e, OP_MAKE, tt, NULL, 0, t); /* an empty tile's elements are left to the code */
	Type el = ty_elem(tt);
	v = ir_const(s->m, s->f, ty_scalar(el), 1, 1.0);
	if (el != ty_scalar(el)) { /* a vector or matrix of ones */
		int32_t w = ir_temp(s->m, s->f, el);
		emit(s, e, OP_MAKE, &w, 1, &v, 1);
		v = w;
	}
	return emit_val(s, e, OP_MAKE, tt, &v, 1, t);
}

/* Tile v as a tile of elem, converted element by element where it is of
 * another type. */
static int as_elem(Sema *s, Node *at, int v, Type elem)
{
	Type t = ty_of(s, v);
	if (ty_elem(t) == elem)
		return v;
	int32_t r = ir_temp(s->m, s->f, ty_tile(elem, ty_ndim(t), ty_info(t)->shape));
	emit(s, at, OP_CONV, &r, 1, &v, 1);
	return r;
}

/* wp.tile_matmul(a, b, out, alpha=1.0, beta=1.0): out = alpha * a @ b +
 * beta * out, out a tile variable, the product computed in out's type;
 * wp.tile_matmul(a, b, alpha=1.0): the product, a row of builtins.h, in
 * a's type, scaled.  An operand of another float type is converted. */
static int matmul(Sema *s, Node *e, const char *what, Target *t, int wanted)
{
	Node *node[5];
	int n = e->nkid - 1;
	int accumulate = n >= 3 && e->kid[3]->kind != N_KWARG;
	for (int i = 1; i <= n; i++)
		accumulate |= e->kid[i]->kind == N_KWARG && !strcmp(e->kid[i]->name, "out");
	BIND(P("a", "b", "out", "alpha", "beta"), 2);
	int32_t a[2] = {tile_arg(s, node[0], "tile_matmul"), tile_arg(s, node[1], "tile_matmul")};
	Node *o = node[2];
	int acc = accumulate && o->kind == N_NAME ? map_get(&s->names, o->name) : -1;
	if (accumulate && (acc < 0 || !ty_is_tile(ty_of(s, acc))))
		ERR(o, "out must be a tile variable of the kernel");
	if (accumulate)
		tile_inplace_ok(s, o, acc);
	Type want = accumulate ? ty_elem(ty_of(s, acc)) : ty_elem(ty_of(s, a[0]));
	for (int k = 0; k < 2; k++)
		if (ty_is_float(want) && ty_is_float(ty_elem(ty_of(s, a[k]))))
			a[k] = as_elem(s, node[k], a[k], want);
	Type ta[2] = {ty_of(s, a[0]), ty_of(s, a[1])}, rt;
	if (ir_builtin_resolve("tile_matmul", ta, 2, &rt) < 0)
		ERR(e, "wp.tile_matmul() multiplies an MxK tile by a KxN tile of one float type, not %s by %s",
		    uty(ta[0]), uty(ta[1]));
	int scaled[2] = {0, 0};
	int32_t scale[2];
	for (int k = 0; k < 2; k++) {
		Node *x = node[3 + k];
		if (!x)
			continue;
		Const c;
		if (const_eval(s, x, &c) && (c.ty == TY_FLOAT || c.ty == TY_INT) && c.py &&
		    (c.ty == TY_INT ? c.i == 1 : c.v[0] == 1.0))
			continue;
		scale[k] = typed_literal(s, x, ty_elem(rt));
		if (scale[k] < 0)
			scale[k] = expr(s, x, NULL);
		if (ty_of(s, scale[k]) != ty_elem(rt))
			ERR(x, "wp.tile_matmul() scales by a %s here, not %s", uty(ty_elem(rt)),
			    uty(ty_of(s, scale[k])));
		scaled[k] = 1;
	}
	if (!accumulate) {
		if (node[4])
			ERR(node[4], "wp.tile_matmul() takes beta only with out");
		if (!wanted)
			ERR(e, "the value of wp.tile_matmul(a, b) is not used");
		int32_t p = scaled[0] ? ir_temp(s->m, s->f, rt) : out(s, t, rt);
		emit(s, e, OP_BUILTIN, &p, 1, a, 2)->callee = BI_TILE_MATMUL;
		if (!scaled[0])
			return p;
		return emit_val(s, e, OP_MUL, rt, (int32_t[]){scale[0], p}, 2, t);
	}
	if (wanted)
		ERR(e, "wp.tile_matmul(a, b, out) adds into out and has no value");
	if (ty_of(s, acc) != rt)
		ERR(o, "out is a %s; the product is a %s", uty(ty_of(s, acc)), uty(rt));
	int32_t p = ir_temp(s->m, s->f, rt);
	emit(s, e, OP_BUILTIN, &p, 1, a, 2)->callee = BI_TILE_MATMUL;
	if (scaled[0]) {
		int32_t q = ir_temp(s->m, s->f, rt);
		emit(s, e, OP_MUL, &q, 1, (int32_t[]){scale[0], p}, 2);
		p = q;
	}
	int32_t old = acc;
	if (scaled[1]) {
		old = ir_temp(s->m, s->f, rt);
		emit(s, e, OP_MUL, &old, 1, (int32_t[]){scale[1], acc}, 2);
	}
	emit(s, e, OP_ADD, &acc, 1, (int32_t[]){old, p}, 2);
	return -1;
}

/* wp.tile_fft(inout) and wp.tile_ifft(inout): each row of a tile of
 * complex numbers (vec2f, vec2d) transformed along the last axis, in
 * place: `%a = tile_fft %a`.  Warp wants 2 to 4 dimensions, the leading
 * ones a stack of rows; a row of a length other than a power of two is a
 * direct sum, at most 4096 points, as on Warp's CPU. */
static void fft(Sema *s, Node *e, const char *name, const char *what, int want)
{
	Node *node[1];
	BIND(P("inout"), 1);
	if (want)
		ERR(e, "%s() transforms its tile in place and has no value", what);
	Node *o = node[0];
	int v = o->kind == N_NAME ? map_get(&s->names, o->name) : -1;
	if (v < 0 || !ty_is_tile(ty_of(s, v)))
		ERR(o, "%s() transforms a tile variable of the kernel in place", what);
	tile_inplace_ok(s, o, v);
	Type tt = ty_of(s, v), el = ty_elem(tt);
	if (!ty_is_vec(el) || ty_rows(el) != 2 || (ty_scalar(el) != TY_FLOAT && ty_scalar(el) != TY_DOUBLE))
		ERR(o, "%s() takes a tile of complex numbers, vec2f or vec2d, not %s", what, uty(tt));
	int nd = ty_ndim(tt), n = ty_extent(tt, nd - 1);
	if (nd < 2)
		ERR(o, "%s() takes a tile of at least 2 dimensions (rows along the last), not %s", what, uty(tt));
	if ((n & (n - 1)) && n > 4096)
		ERR(o, "%s() of rows of %d points: a length that is not a power of two is at most 4096, as in Warp",
		    what, n);
	emit(s, e, OP_BUILTIN, &v, 1, &v, 1)->callee = !strcmp(name, "tile_fft") ? BI_TILE_FFT : BI_TILE_IFFT;
}

/* wp.tile_extract(a, i, ...): one element. */
static int extract(Sema *s, Node *e, Target *t)
{
	int n = e->nkid - 1;
	if (n < 1)
		ERR(e, "wp.tile_extract() takes a tile and its indices");
	for (int i = 1; i <= n; i++)
		if (e->kid[i]->kind == N_KWARG)
			ERR(e->kid[i], "wp.tile_extract() takes its arguments by position");
	int32_t a[1 + KS_MAX_NDIM];
	a[0] = tile_arg(s, e->kid[1], "tile_extract");
	Type tt = ty_of(s, a[0]);
	if (n - 1 != ty_ndim(tt))
		ERR(e, "a %s takes %d indices, not %d", uty(tt), ty_ndim(tt), n - 1);
	for (int k = 0; k < n - 1; k++)
		a[k + 1] = tile_index(s, e->kid[k + 2], tt, k);
	return emit_val(s, e, OP_EXTRACT, ty_elem(tt), a, n, t);
}

int tile_index(Sema *s, Node *n, Type tile, int k)
{
	int v = index_val(s, n, 0, TY_VOID);
	const Value *c = &s->f->val[v];
	int len = ty_extent(tile, k);
	if (c->kind == VK_CONST && (c->k.i < 0 || (len != KS_TILE_BLOCK && c->k.i >= len)))
		ERR(n, "index %lld is out of range for %s", (long long)c->k.i, uty(tile));
	return v;
}

/* wp.tile_broadcast(a, shape): numpy's rule, from the right */
static int broadcast(Sema *s, Node *e, const char *what, Target *t)
{
	Node *node[2];
	BIND(P("a", "shape"), 2);
	int v = tile_arg(s, node[0], "tile_broadcast");
	Type at = ty_of(s, v), bt = tile_type(s, node[1], ty_elem(at));
	if (ir_op_type(OP_TILE_BROADCAST, &at, 1, bt) == TY_VOID)
		ERR(node[1], "a %s does not broadcast to a %s (its extents, from the right, must be equal or 1)",
		    uty(at), uty(bt));
	if (bt == at)
		return v;
	return emit_val(s, e, OP_TILE_BROADCAST, bt, &v, 1, t);
}

/* wp.tile_reshape(a, shape) and wp.tile_squeeze(a, axis=None): the
 * elements in order, another shape (a copy, where Warp's is a view) */
static int reshape(Sema *s, Node *e, const char *name, const char *what, Target *t)
{
	Node *node[2];
	int shape[KS_MAX_NDIM], nd = 0;
	Type at, rt;
	int v;
	if (!strcmp(name, "tile_reshape")) {
		BIND(P("a", "shape"), 2);
		v = tile_arg(s, node[0], "tile_reshape");
		at = ty_of(s, v);
		if (ty_has_block(at))
			ERR(node[0], "a %s has the block's extent, known at the launch: it cannot be reshaped",
			    uty(at));
		rt = tile_type(s, node[1], ty_elem(at));
		if (ty_count(rt) != ty_count(at))
			ERR(node[1], "a %s cannot take that shape: %d elements, not %d", uty(at), ty_count(at),
			    ty_count(rt));
	} else {
		BIND(P("a", "axis"), 1);
		v = tile_arg(s, node[0], "tile_squeeze");
		at = ty_of(s, v);
		if (ty_has_block(at))
			ERR(node[0], "a %s has the block's extent, known at the launch: it cannot be reshaped",
			    uty(at));
		int axis = -1;
		if (node[1]) {
			Const c;
			if (!const_eval(s, node[1], &c) || !ty_is_int(c.ty) || c.i < 0 || c.i >= ty_ndim(at) ||
			    ty_extent(at, (int)c.i) != 1)
				ERR(node[1], "axis must be a constant axis of %s whose extent is 1", uty(at));
			axis = (int)c.i;
		}
		for (int k = 0; k < ty_ndim(at); k++)
			if (ty_extent(at, k) != 1 || (axis >= 0 && k != axis))
				shape[nd++] = ty_extent(at, k);
		if (!nd)
			shape[nd++] = 1;
		rt = ty_tile(ty_elem(at), nd, shape);
	}
	if (rt == at)
		return v;
	return emit_val(s, e, OP_TILE_RESHAPE, rt, &v, 1, t);
}

/* wp.tile_sum(a, axis) (min, max): a reduced along axis, the axis gone
 * (a 1-D tile gives one of shape (1,)): the sum to the shape with that
 * extent 1, then that shape without it */
static int sum_along(Sema *s, Node *e, const char *name, const char *what, int v, Node *a, Node *axis_n, Target *t);

static int reduce_axis(Sema *s, Node *e, const char *name, const char *what, Target *t)
{
	Node *node[2];
	BIND(P("a", "axis"), 2);
	int v = tile_arg(s, node[0], name);
	return sum_along(s, e, name, what, v, node[0], node[1], t);
}

/* tile v summed along the axis at node axis_n (wp.tile_sum(a, axis),
 * wp.tile_reduce(wp.add, a, axis)) */
static int sum_along(Sema *s, Node *e, const char *name, const char *what, int v, Node *a, Node *axis_n, Target *t)
{
	Node *node[2] = {a, axis_n};
	Type at = ty_of(s, v);
	Const c;
	if (!const_eval(s, node[1], &c) || !ty_is_int(c.ty) || c.i < 0 || c.i >= ty_ndim(at))
		ERR(node[1], "axis must be a constant from 0 to %d", ty_ndim(at) - 1);
	if (strcmp(name, "tile_sum"))
		ERR(e, "%s() along an axis is not supported yet; it reduces a whole tile", what);
	if (!ty_is_scalar(ty_elem(at)))
		ERR(node[0], "%s() along an axis takes a tile of numbers here, not %s", what, uty(at));
	int shape[KS_MAX_NDIM], nd = ty_ndim(at), axis = (int)c.i;
	if (nd == 1) {
		int one = 1;
		return emit_val(s, e, OP_TILE_SUM_TO, ty_tile(ty_elem(at), 1, &one), &v, 1, t);
	}
	for (int k = 0; k < nd; k++)
		shape[k] = k == axis ? 1 : ty_extent(at, k);
	int32_t kept = ir_temp(s->m, s->f, ty_tile(ty_elem(at), nd, shape));
	emit(s, e, OP_TILE_SUM_TO, &kept, 1, &v, 1);
	for (int k = axis; k + 1 < nd; k++)
		shape[k] = shape[k + 1];
	return emit_val(s, e, OP_TILE_RESHAPE, ty_tile(ty_elem(at), nd - 1, shape), &kept, 1, t);
}

/* wp.tile(x, preserve_type=False): a tile of each thread's x, of the
 * block's extent.  A vector or matrix x is the tile's element where
 * preserve_type is True; Warp spreads its components over rows otherwise,
 * which is not in yet. */
static int of_threads(Sema *s, Node *e, const char *what, Target *t, int want)
{
	Node *node[2];
	BIND(P("x", "preserve_type"), 1);
	if (!want)
		ERR(e, "the value of wp.tile() is not used");
	Const c = {.ty = TY_BOOL};
	if (node[1] && (!const_eval(s, node[1], &c) || c.ty != TY_BOOL))
		ERR(node[1], "preserve_type must be True or False");
	int32_t v = expr(s, node[0], NULL);
	Type x = ty_of(s, v);
	if (!ty_is_scalar(x) && !ty_is_vec(x) && !ty_is_mat(x) && x != TY_BOOL)
		ERR(node[0], "wp.tile() makes a tile of numbers, vectors or matrices, not of %s", uty(x));
	if ((ty_is_vec(x) || ty_is_mat(x)) && !(node[1] && c.i))
		ERR(e,
		    "wp.tile() of a %s spreads its components over the tile's rows, which is not supported yet; "
		    "wp.tile(x, preserve_type=True), a tile of %s, is",
		    uty(x), uty(x));
	return builtin_val(s, e, "tile", &v, 1, t, 1);
}

/* wp.untile(a): the element of a tile of wp.tile's shape that is this
 * thread's */
static int untile(Sema *s, Node *e, const char *what, Target *t)
{
	Node *node[1];
	BIND(P("a"), 1);
	int32_t v = tile_arg(s, node[0], "untile");
	Type tt = ty_of(s, v);
	if (ty_ndim(tt) != 1 || ty_extent(tt, 0) != KS_TILE_BLOCK)
		ERR(node[0], "wp.untile() takes a tile of one element per thread of the block (wp.tile(x)), not %s",
		    uty(tt));
	return builtin_val(s, e, "untile", &v, 1, t, 1);
}

/* The internal builtin NAME (tile_pick) of a[0..n), into t. */
static int internal_val(Sema *s, Node *e, const char *name, const int32_t *a, int n, Target *t)
{
	Type ty[2], res;
	for (int i = 0; i < n; i++)
		ty[i] = ty_of(s, a[i]);
	int row = ir_builtin_resolve(name, ty, n, &res);
	if (row < 0)
		ERR(e, "%s of these operands has no row", name);
	int32_t r = out(s, t, res);
	emit(s, e, OP_BUILTIN, &r, 1, a, n)->callee = (int32_t)row;
	return r;
}

/* wp.tile_from_thread(shape, value, thread_idx=0, storage=...): a tile
 * of shape full of thread thread_idx's value: the one element that
 * thread sets (tile_pick), broadcast */
static int from_thread(Sema *s, Node *e, const char *what, Target *t)
{
	Node *node[4];
	BIND(P("shape", "value", "thread_idx", "storage"), 2);
	int32_t a[2];
	a[0] = expr(s, node[1], NULL);
	Type x = ty_of(s, a[0]);
	if (!ty_is_scalar(x) && !ty_is_vec(x) && !ty_is_mat(x) && x != TY_BOOL)
		ERR(node[1], "%s() fills a tile with a number, vector or matrix, not %s", what, uty(x));
	Type tt = tile_type(s, node[0], x);
	a[1] = node[2] ? index_val(s, node[2], 0, TY_VOID) : ir_const_int(s->m, s->f, 0);
	storage_arg(s, node[3]);
	if (ty_count(tt) == 1 && ty_ndim(tt) == 1)
		return internal_val(s, e, "tile_pick", a, 2, t);
	int32_t one = internal_val(s, e, "tile_pick", a, 2, NULL);
	return emit_val(s, e, OP_TILE_BROADCAST, tt, &one, 1, t);
}

/* wp.tile_scan_inclusive(a), wp.tile_scan_exclusive(a): the prefix
 * sums of a's elements, row-major, of the element types Warp scans;
 * wp.tile_scan_max_inclusive(a), tile_scan_min_inclusive: the maxima
 * and minima */
static int scan(Sema *s, Node *e, const char *name, const char *what, Target *t)
{
	Node *node[1];
	BIND(P("a"), 1);
	int32_t v = tile_arg(s, node[0], name);
	Type el = ty_elem(ty_of(s, v));
	if (el != TY_FLOAT && el != TY_INT && el != TY_UINT32)
		ERR(node[0], "%s() scans a tile of float32, int32 or uint32, not %s", what, uty(ty_of(s, v)));
	return builtin_val(s, e, name, &v, 1, t, 1);
}

/* fill_mode="lower" or "upper": is it "upper"?  A constant string, as
 * Warp wants it when the kernel compiles. */
static int upper_mode(Sema *s, Node *n, const char *what)
{
	if (!n)
		return 0;
	Buf b = {0};
	if (n->kind != N_STRING)
		ERR(n, "%s(): fill_mode must be \"lower\" or \"upper\", a constant string", what);
	py_string(s, n, &b);
	const char *m = b.p ? b.p : "";
	int upper = !strcmp(m, "upper"), ok = upper || !strcmp(m, "lower");
	buf_free(&b);
	if (!ok)
		ERR(n, "%s(): fill_mode must be \"lower\" or \"upper\"", what);
	return upper;
}

/* A factor's or a solve's matrix: a square 2-D tile of float32 or
 * float64. */
static int square_arg(Sema *s, Node *n, const char *what, const char *param)
{
	int v = tile_arg(s, n, what + 3);
	Type t = ty_of(s, v), el = ty_elem(t);
	if (ty_ndim(t) != 2 || ty_extent(t, 0) != ty_extent(t, 1) || (el != TY_FLOAT && el != TY_DOUBLE))
		ERR(n, "%s() takes '%s' a square 2-D tile of float32 or float64, not %s", what, param, uty(t));
	return v;
}

/* A solve's right-hand side: a column of m, or m rows of columns, of
 * the matrix's float type. */
static int rhs_arg(Sema *s, Node *n, const char *what, const char *param, int m)
{
	int v = tile_arg(s, n, what + 3);
	Type t = ty_of(s, v);
	if (ty_ndim(t) > 2 || ty_extent(t, 0) != m)
		ERR(n, "%s() takes '%s' a tile of %d elements or %d rows, not %s", what, param, m, m, uty(t));
	return v;
}

/* The transpose of tile v */
static int transposed(Sema *s, Node *e, int v)
{
	return builtin_val(s, e, "tile_transpose", (int32_t[]){v}, 1, NULL, 1);
}

/* Builtin NAME of a and b, checked for one float type, into t. */
static int solve_val(Sema *s, Node *e, const char *name, const char *what, int32_t a, int32_t b, Target *t)
{
	int v = builtin_val(s, e, name, (int32_t[]){a, b}, 2, t, 1);
	if (v == -2)
		ERR(e, "%s() solves with tiles of one float type, not %s and %s", what, uty(ty_of(s, a)),
		    uty(ty_of(s, b)));
	return v;
}

/* wp.tile_cholesky(A, fill_mode="lower"): the factor L of A's lower
 * triangle, L Lᵀ = A, zeros above; with fill_mode="upper" the factor U
 * of its upper triangle, Uᵀ U = A, zeros below: the transpose of the
 * lower factor of Aᵀ. */
static int cholesky(Sema *s, Node *e, const char *what, Target *t)
{
	Node *node[2];
	BIND(P("A", "fill_mode"), 1);
	int32_t a = square_arg(s, node[0], what, "A");
	if (!upper_mode(s, node[1], what))
		return builtin_val(s, e, "tile_cholesky", &a, 1, t, 1);
	int32_t l = builtin_val(s, e, "tile_cholesky", (int32_t[]){transposed(s, e, a)}, 1, NULL, 1);
	return builtin_val(s, e, "tile_transpose", &l, 1, t, 1);
}

/* wp.tile_cholesky_solve(L, y, fill_mode="lower"): the x of A x = y
 * given A's factor, L Lᵀ = A (L's lower triangle read): L z = y, then
 * Lᵀ x = z; with fill_mode="upper", Uᵀ U = A (U's upper triangle): Uᵀ z
 * = y, then U x = z. */
static int cholesky_solve(Sema *s, Node *e, const char *what, Target *t)
{
	Node *node[3];
	BIND(P("L", "y", "fill_mode"), 2);
	int32_t l = square_arg(s, node[0], what, "L");
	int32_t y = rhs_arg(s, node[1], what, "y", ty_extent(ty_of(s, l), 0));
	int32_t lt = transposed(s, e, l);
	if (upper_mode(s, node[2], what)) {
		int32_t z = solve_val(s, e, "tile_lower_solve", what, lt, y, NULL);
		return solve_val(s, e, "tile_upper_solve", what, l, z, t);
	}
	int32_t z = solve_val(s, e, "tile_lower_solve", what, l, y, NULL);
	return solve_val(s, e, "tile_upper_solve", what, lt, z, t);
}

/* wp.tile_lower_solve(L, y): the z of L z = y (L's lower triangle
 * read); wp.tile_upper_solve(U, z): the x of U x = z (U's upper). */
static int tri_solve(Sema *s, Node *e, const char *name, const char *what, Target *t)
{
	Node *node[2];
	int upper = !strcmp(name, "tile_upper_solve");
	if (upper)
		BIND(P("U", "z"), 2);
	else
		BIND(P("L", "y"), 2);
	int32_t m = square_arg(s, node[0], what, upper ? "U" : "L");
	int32_t y = rhs_arg(s, node[1], what, upper ? "z" : "y", ty_extent(ty_of(s, m), 0));
	return solve_val(s, e, name, what, m, y, t);
}

/* wp.tile_reduce(op, a), wp.tile_reduce(op, a, axis): a's elements
 * combined by op into a tile of one element, by the tree of tile_sum:
 * wp.add is tile_sum (along an axis too), wp.min and wp.max are
 * tile_min and tile_max, wp.mul the IR's tile_prod. */
static int reduce(Sema *s, Node *e, const char *what, Target *t, int want)
{
	Node *node[3];
	if (!want)
		ERR(e, "the value of wp.tile_reduce() is not used");
	BIND(P("op", "a", "axis"), 2);
	Node *op = node[0];
	const char *name = is_wp_attr(op) ? op->name : NULL;
	int d = -1;
	if (op->kind == N_NAME)
		d = def_find(s, op->name);
	else if (!is_wp_attr(op) && module_attr(s, op, &d) != MA_DEF)
		d = -1;
	if (d >= 0)
		ERR(op,
		    "wp.tile_reduce() of a wp.func is not supported yet; it takes wp.add, wp.mul, wp.min or wp.max");
	if (!name || (strcmp(name, "add") && strcmp(name, "mul") && strcmp(name, "min") && strcmp(name, "max")))
		ERR(op, "wp.tile_reduce() takes wp.add, wp.mul, wp.min or wp.max here");
	int v = tile_arg(s, node[1], "tile_reduce");
	Type tt = ty_of(s, v), el = ty_elem(tt);
	if (node[2] && strcmp(name, "add"))
		ERR(e, "%s(wp.%s, ...) along an axis is not supported yet; it reduces a whole tile", what, name);
	if (node[2])
		return sum_along(s, e, "tile_sum", what, v, node[1], node[2], t);
	if (!strcmp(name, "add")) {
		if (!ty_is_scalar(el) && !ty_is_vec(el) && !ty_is_mat(el))
			ERR(node[1], "%s(wp.add, ...) takes a tile of numbers, vectors or matrices, not %s", what,
			    uty(tt));
		return builtin_val(s, e, "tile_sum", &v, 1, t, 1);
	}
	if (!ty_is_scalar(el))
		ERR(node[1], "%s(wp.%s, ...) takes a tile of numbers here, not %s", what, name, uty(tt));
	if (!strcmp(name, "mul"))
		return internal_val(s, e, "tile_prod", &v, 1, t);
	return builtin_val(s, e, !strcmp(name, "min") ? "tile_min" : "tile_max", &v, 1, t, 1);
}

/* wp.tile_dot(a, b): the sum over the elements of their products (dot
 * of vectors, ddot of matrices), as Warp defines it: tile_sum of the
 * product, element by element. */
static int dot(Sema *s, Node *e, const char *what, Target *t)
{
	Node *node[2];
	BIND(P("a", "b"), 2);
	int32_t v[2] = {tile_arg(s, node[0], "tile_dot"), tile_arg(s, node[1], "tile_dot")};
	Type ta = ty_of(s, v[0]), tb = ty_of(s, v[1]), el = ty_elem(ta);
	if (!ty_same_shape(ta, tb) || el != ty_elem(tb))
		ERR(node[1], "%s() takes two tiles of one shape and element type: this is a %s, the first a %s",
		    what, uty(tb), uty(ta));
	if ((!ty_is_scalar(el) && !ty_is_vec(el) && !ty_is_mat(el)) ||
	    (ty_is_mat(el) && !ty_is_float(ty_scalar(el))))
		ERR(node[0], "%s() takes tiles of numbers, vectors or float matrices, not %s", what, uty(ta));
	int32_t p = ty_is_scalar(el) ? emit_val(s, e, OP_MUL, ta, v, 2, NULL)
				     : builtin_val(s, e, ty_is_vec(el) ? "dot" : "ddot", v, 2, NULL, 1);
	return builtin_val(s, e, "tile_sum", &p, 1, t, 1);
}

/* A tile variable that a builtin changes in place: its value. */
static int inout_tile(Sema *s, Node *o, const char *what)
{
	int v = o->kind == N_NAME ? map_get(&s->names, o->name) : -1;
	if (v < 0 || !ty_is_tile(ty_of(s, v)))
		ERR(o, "%s() sorts tile variables of the kernel in place", what);
	return v;
}

/* wp.tile_sort(keys, values): both tile variables put in the order of
 * the keys, ascending (equal keys in their row-major order), in place:
 * `%o = tile_sort_order %keys`, then `%keys = tile_permute %keys, %o`
 * and the same for the values. */
static void sort(Sema *s, Node *e, const char *what, int want)
{
	Node *node[2];
	BIND(P("keys", "values"), 2);
	if (want)
		ERR(e, "%s() sorts its tiles in place and has no value", what);
	int k = inout_tile(s, node[0], what), v = inout_tile(s, node[1], what);
	Type tk = ty_of(s, k), tv = ty_of(s, v), el = ty_elem(tk);
	if (el != TY_FLOAT && el != TY_INT && el != TY_UINT32 && el != TY_INT64 && el != TY_UINT64)
		ERR(node[0], "%s() sorts keys of float32, int32, uint32, int64 or uint64, not %s", what, uty(tk));
	if (!ty_same_shape(tk, tv))
		ERR(node[1], "%s() takes values of the keys' shape: this is a %s, the keys a %s", what, uty(tv),
		    uty(tk));
	if (k == v)
		ERR(node[1], "%s() takes two tiles, not one twice", what);
	int32_t order = internal_val(s, e, "tile_sort_order", &k, 1, NULL);
	int32_t a[2] = {k, order};
	emit(s, e, OP_BUILTIN, &k, 1, a, 2)->callee = BI_TILE_PERMUTE;
	a[0] = v;
	emit(s, e, OP_BUILTIN, &v, 1, a, 2)->callee = BI_TILE_PERMUTE;
}

/* wp.tile_diag_add(a, d): a square tile with d added to its diagonal */
static int diag_add(Sema *s, Node *e, const char *what, Target *t)
{
	Node *node[2];
	BIND(P("a", "d"), 2);
	int32_t a[2] = {tile_arg(s, node[0], "tile_diag_add"), tile_arg(s, node[1], "tile_diag_add")};
	Type ta = ty_of(s, a[0]), td = ty_of(s, a[1]);
	if (ty_ndim(ta) != 2 || ty_extent(ta, 0) != ty_extent(ta, 1))
		ERR(node[0], "%s() takes a square tile, not %s", what, uty(ta));
	if (ty_ndim(td) != 1 || ty_extent(td, 0) != ty_extent(ta, 0) || ty_elem(td) != ty_elem(ta))
		ERR(node[1], "%s() adds a %s to the diagonal, not %s", what,
		    uty(ty_tile(ty_elem(ta), 1, ty_info(ta)->shape)), uty(td));
	return builtin_val(s, e, "tile_diag_add", a, 2, t, 1);
}

/* wp.tile_axpy(alpha, src, dest): dest += alpha * src, dest a tile
 * variable changed in place: `%q = mul %src, %alpha`, `%dest = add %dest,
 * %q`.  alpha is the elements' scalar type. */
static void axpy(Sema *s, Node *e, const char *what)
{
	Node *node[3];
	BIND(P("alpha", "src", "dest"), 3);
	Node *o = node[2];
	int dest = o->kind == N_NAME ? map_get(&s->names, o->name) : -1;
	if (dest < 0 || !ty_is_tile(ty_of(s, dest)))
		ERR(o, "%s() adds into a tile variable of the kernel in place", what);
	tile_inplace_ok(s, o, dest);
	int src = tile_arg(s, node[1], "tile_axpy");
	Type tt = ty_of(s, dest), el = ty_elem(tt);
	if (ty_of(s, src) != tt)
		ERR(node[1], "%s() adds a %s into dest, a %s: the same shape and type", what, uty(ty_of(s, src)),
		    uty(tt));
	if (!ty_is_scalar(ty_scalar(el)) || !(ty_is_scalar(el) || ty_is_vec(el) || ty_is_mat(el)))
		ERR(o, "%s() takes tiles of numbers, vectors or matrices, not %s", what, uty(tt));
	int alpha = typed_literal(s, node[0], ty_scalar(el));
	if (alpha < 0)
		alpha = expr(s, node[0], NULL);
	if (ty_of(s, alpha) != ty_scalar(el))
		ERR(node[0], "%s() scales by a %s, the elements' scalar type, not %s", what, uty(ty_scalar(el)),
		    uty(ty_of(s, alpha)));
	int32_t q = ir_temp(s->m, s->f, tt);
	emit(s, e, OP_MUL, &q, 1, (int32_t[]){src, alpha}, 2);
	emit(s, e, OP_ADD, &dest, 1, (int32_t[]){dest, q}, 2);
}

/* wp.tile_scatter_add(a, i, [j, k, l,] value, has_value, atomic=True):
 * each thread whose has_value is true adds its value into element [i, ..]
 * of a, a tile variable changed in place, as `a[i] += value` does with
 * every thread's value; a thread with nothing to add adds a zero at
 * element 0 (its index need not be valid).  atomic is a constant: False
 * only promises that no two threads meet at an element, so the sums are
 * the same. */
static void scatter_add(Sema *s, Node *e, const char *what)
{
	static const char *const idx_name[KS_MAX_NDIM] = {"i", "j", "k", "l"};
	Node *first = e->nkid > 1 && e->kid[1]->kind != N_KWARG ? e->kid[1] : NULL;
	for (int k = 1; !first && k < e->nkid; k++)
		if (!strcmp(e->kid[k]->name, "a"))
			first = e->kid[k]->kid[0];
	if (!first)
		ERR(e, "%s() is missing argument 'a'", what);
	int dest = first->kind == N_NAME ? map_get(&s->names, first->name) : -1;
	if (dest < 0 || !ty_is_tile(ty_of(s, dest)))
		ERR(first, "%s() adds into a tile variable of the kernel in place", what);
	tile_inplace_ok(s, first, dest);
	Type tt = ty_of(s, dest), el = ty_elem(tt);
	int nd = ty_ndim(tt);
	const char *pn[KS_MAX_NDIM + 4] = {"a"};
	Node *dflt[KS_MAX_NDIM + 4] = {NULL}, *node[KS_MAX_NDIM + 4];
	for (int k = 0; k < nd; k++)
		pn[1 + k] = idx_name[k];
	pn[nd + 1] = "value";
	pn[nd + 2] = "has_value";
	pn[nd + 3] = "atomic";
	dflt[nd + 3] = e;
	int npos = 0, nkw = 0;
	for (int k = 1; k < e->nkid; k++)
		e->kid[k]->kind == N_KWARG ? nkw++ : npos++;
	if (!nkw && (npos < nd + 3 || npos > nd + 4))
		ERR(e, "%s() into a %s takes %d ind%s, then value and has_value (and atomic)", what, uty(tt), nd,
		    nd == 1 ? "ex" : "ices");
	bind_args(s, e, what, pn, nd + 4, dflt, node);
	if (!ty_is_scalar(ty_scalar(el)) || !(ty_is_scalar(el) || ty_is_vec(el) || ty_is_mat(el)) || el == TY_BOOL)
		ERR(first, "%s() adds into a tile of numbers, vectors or matrices, not %s", what, uty(tt));
	flag_arg(s, node[nd + 3], "atomic");
	int32_t a[KS_MAX_NDIM + 2] = {dest};
	int has = expr(s, node[nd + 2], NULL);
	if (ty_of(s, has) != TY_BOOL)
		ERR(node[nd + 2], "%s()'s has_value is a bool, not %s", what, uty(ty_of(s, has)));
	int32_t zero = ir_const_int(s->m, s->f, 0);
	for (int k = 0; k < nd; k++) {
		int32_t sel[3] = {has, tile_index(s, node[1 + k], tt, k), zero};
		a[1 + k] = emit_val(s, node[1 + k], OP_SELECT, TY_INT, sel, 3, NULL);
	}
	int val = typed_literal(s, node[nd + 1], el);
	if (val < 0)
		val = expr(s, node[nd + 1], NULL);
	if (ty_of(s, val) != el)
		ERR(node[nd + 1], "%s()'s value is %s; the elements of its tile are %s", what, uty(ty_of(s, val)),
		    uty(el));
	int32_t sel[3] = {has, val,
			  ty_is_scalar(el) ? ir_const(s->m, s->f, el, 0, 0.0)
					   : emit_val(s, node[nd + 1], OP_MAKE, el, NULL, 0, NULL)};
	a[nd + 1] = emit_val(s, node[nd + 1], OP_SELECT, el, sel, 3, NULL);
	emit(s, e, OP_TILE_ADD_AT, &dest, 1, a, nd + 2);
}

/* A tile variable changed in place (an element set, the dst of
 * wp.tile_assign, tile_axpy's dest, ...): not one that is a view or has
 * one, since a view is a copy here where Warp's shares the storage. */
void tile_inplace_ok(Sema *s, Node *at, int v)
{
	for (int i = 0; i < s->nviewed; i++)
		if (s->viewed[i] == v)
			ERR(at,
			    "this tile is a view (wp.tile_view, t[i]) or has one: a view is a copy here, where Warp's "
			    "shares the tile's storage, so changing either in place is not supported yet");
}

static void note_viewed(Sema *s, int v)
{
	arena_grow(s->a, (void **)&s->viewed, &s->capviewed, s->nviewed + 1, sizeof *s->viewed);
	s->viewed[s->nviewed++] = v;
}

/* The view of tile v of type want (its extents v's last) from the first
 * n offsets off (the others 0): `%r = tile_view %v, %i, %j`, a copy; a
 * view bound to a variable and its tile are noted (tile_inplace_ok). */
int tile_view_of(Sema *s, Node *at, int v, const int32_t *off, int n, Type want, Target *t)
{
	Type tt = ty_of(s, v);
	int nd = ty_ndim(tt);
	int32_t a[1 + KS_MAX_NDIM] = {v};
	for (int k = 0; k < nd; k++)
		a[k + 1] = k < n ? off[k] : ir_const_int(s->m, s->f, 0);
	for (int k = 0; k < nd; k++)
		if (ty_extent(tt, k) == KS_TILE_BLOCK)
			ERR(at, "a view of a tile of the block's extent (wp.tile(x)) is not supported");
	int r = emit_val(s, at, OP_TILE_VIEW, want, a, 1 + nd, t);
	if (t) { /* a variable: Warp's would share v's storage */
		note_viewed(s, v);
		note_viewed(s, r);
	}
	return r;
}

/* A tuple of ints (or one int) at n, at most max of them, into a[]: their count. */
static int int_tuple(Sema *s, Node *n, int max, int32_t *a, const char *what, Type tt)
{
	int given = n->kind == N_TUPLE ? n->nkid : 1;
	if (given > max)
		ERR(n, "%s() takes at most %d offset%s for a %s, not %d", what, max, max == 1 ? "" : "s", uty(tt),
		    given);
	for (int k = 0; k < given; k++)
		a[k] = tile_index(s, n->kind == N_TUPLE ? n->kid[k] : n, tt, k);
	return given;
}

/* wp.tile_view(t, offset, shape=None): a part of t, a copy here.  With
 * a shape (t's rank), that block from the offsets on; without, the
 * offsets select t's leading coordinates and the rest is kept whole
 * (row i of a 2-D tile). */
static int view(Sema *s, Node *e, const char *what, Target *t)
{
	Node *node[3];
	BIND(P("t", "offset", "shape"), 2);
	int v = tile_arg(s, node[0], "tile_view");
	Type tt = ty_of(s, v), want;
	int nd = ty_ndim(tt);
	int32_t off[KS_MAX_NDIM];
	int n = int_tuple(s, node[1], nd, off, what, tt);
	if (node[2]) {
		want = tile_type(s, node[2], ty_elem(tt));
		if (ty_ndim(want) != nd)
			ERR(node[2], "%s()'s shape has %d dimension%s; the tile has %d", what, ty_ndim(want),
			    ty_ndim(want) == 1 ? "" : "s", nd);
		for (int k = 0; k < nd; k++)
			if (ty_extent(want, k) > ty_extent(tt, k))
				ERR(node[2], "%s()'s shape does not fit in %s", what, uty(tt));
	} else {
		if (n == nd)
			ERR(node[1], "%s() of an offset in every dimension leaves no tile; t[i, j] is an element",
			    what);
		want = ty_tile(ty_elem(tt), nd - n, ty_info(tt)->shape + n);
	}
	return tile_view_of(s, e, v, off, n, want, t);
}

/* wp.tile_assign(dst, src, offset=None): src's elements into the tile
 * variable dst from the offset on (each converted to dst's type),
 * `%dst = tile_assign %dst, %src, %i, %j`. */
static void assign(Sema *s, Node *e, const char *what)
{
	Node *node[3];
	BIND(P("dst", "src", "offset"), 2);
	Node *o = node[0];
	int dst = o->kind == N_NAME ? map_get(&s->names, o->name) : -1;
	if (dst < 0 || !ty_is_tile(ty_of(s, dst)))
		ERR(o, "%s() copies into a tile variable of the kernel in place", what);
	tile_inplace_ok(s, o, dst);
	int src = tile_arg(s, node[1], "tile_assign");
	Type td = ty_of(s, dst), ts = ty_of(s, src);
	int nd = ty_ndim(td);
	if (ty_ndim(ts) != nd)
		ERR(node[1], "%s() copies a tile of %d dimension%s into one of %d", what, ty_ndim(ts),
		    ty_ndim(ts) == 1 ? "" : "s", nd);
	int32_t a[2 + KS_MAX_NDIM] = {dst};
	for (int k = 0; k < nd; k++)
		a[k + 2] = ir_const_int(s->m, s->f, 0);
	if (node[2] && int_tuple(s, node[2], nd, a + 2, what, td) != nd)
		ERR(node[2], "%s() takes an offset for each of dst's %d dimensions", what, nd);
	for (int k = 0; k < nd; k++) {
		const Value *c = &s->f->val[a[k + 2]];
		int at = c->kind == VK_CONST ? (int)c->k.i : 0;
		if (ty_extent(td, k) == KS_TILE_BLOCK || ty_extent(ts, k) == KS_TILE_BLOCK)
			ERR(e, "%s() of a tile of the block's extent (wp.tile(x)) is not supported", what);
		if (at + ty_extent(ts, k) > ty_extent(td, k))
			ERR(node[1], "%s(): a %s does not fit in a %s%s", what, uty(ts), uty(td),
			    at ? " at that offset" : "");
	}
	if (ty_elem(ts) != ty_elem(td)) {
		Type ct = ty_tile(ty_elem(td), nd, ty_info(ts)->shape);
		Type at2[1] = {ts};
		if (ir_op_type(OP_CONV, at2, 1, ct) == TY_VOID)
			ERR(node[1], "%s() cannot convert a %s to %s", what, uty(ts), uty(ty_elem(td)));
		src = emit_val(s, node[1], OP_CONV, ct, &src, 1, NULL);
	}
	a[1] = src;
	emit(s, e, OP_TILE_ASSIGN, &dst, 1, a, 2 + nd);
}

/* wp.tile_astype(a, dtype): each element converted */
static int astype(Sema *s, Node *e, const char *what, Target *t)
{
	Node *node[2];
	BIND(P("t", "dtype"), 2);
	int v = tile_arg(s, node[0], "tile_astype");
	Type el = dtype_of(s, node[1], TY_FLOAT), tt = ty_of(s, v);
	Type rt = ty_tile(el, ty_ndim(tt), ty_info(tt)->shape);
	if (rt == tt)
		return v;
	return emit_val(s, e, OP_CONV, rt, &v, 1, t);
}

/* wp.tile_map(f, a, ...), f a wp.func: a mapped call, `%r: tile(T, ...)
 * = call @f %a, ...` (doc/ir.md), element k of the result f of element k
 * of each tile.  As in Warp, the first operand is a tile and each other a
 * tile of its shape or a value (a number, vector or matrix) that every
 * element takes; f is the overload (the instance, f generic) for the
 * elements' types, one value of a number, vector or matrix its result. */
static int map_func(Sema *s, Node *e, int d, Target *t)
{
	Node *op = e->kid[1];
	const char *name = s->def[d].name;
	int n = e->nkid - 2;
	int32_t a[MAXOPS];
	Type el[MAXOPS], shape = TY_VOID;
	const char *an[MAXOPS] = {0};
	if (s->def[d].kernel)
		ERR(op, "wp.tile_map() takes a wp.func or a builtin, not kernel '%s'", name);
	if (s->def[d].failed)
		ERR(op, "'%s' (line %d) does not compile", name, s->def[d].line);
	if (n > 8) /* Warp's tile_map has forms of 1 to 8 operands */
		ERR(e, "wp.tile_map() maps a function of 1 to 8 operands, as Warp does; this call gives %d", n);
	for (int i = 0; i < n; i++) {
		Node *x = e->kid[i + 2];
		a[i] = expr(s, x, NULL);
		Type ti = ty_of(s, a[i]);
		if (ty_is_tile(ti)) {
			if (shape != TY_VOID && !ty_same_shape(ti, shape))
				ERR(x, "wp.tile_map() maps over tiles of one shape: this is a %s, the first a %s",
				    uty(ti), uty(shape));
			shape = ti;
			el[i] = ty_elem(ti);
		} else if (!i) {
			ERR(x, "wp.tile_map()'s first operand must be a tile, not %s", uty(ti));
		} else if (!ty_is_scalar(ti) && !ty_is_vec(ti) && !ty_is_mat(ti)) {
			ERR(x, "wp.tile_map() takes tiles and numbers, vectors or matrices, not %s", uty(ti));
		} else {
			el[i] = ti;
		}
	}
	/* the call f(a, ...) the elements make, for the overload's choice
	 * and the instance's types */
	Node call = *e;
	call.kid = e->kid + 1;
	call.nkid = e->nkid - 1;
	int c = overload_for(s, &call, d, el, an, n);
	int fn = s->def[c].generic ? instance(s, &call, c, el, an) : s->def[c].fn;
	const Func *g = s->m->fn[fn];
	if (g->nparam != n)
		ERR(e, "'%s' takes %d argument%s; wp.tile_map() gives it %d", name, g->nparam,
		    g->nparam == 1 ? "" : "s", n);
	for (int i = 0; i < n; i++) {
		Type pt = g->val[g->param[i]].ty;
		if (pt != el[i])
			ERR(e->kid[i + 2], "argument '%s' of %s() is %s, not %s (the %s of this operand)",
			    g->val[g->param[i]].name, name, uty(pt), uty(el[i]),
			    ty_is_tile(ty_of(s, a[i])) ? "elements" : "type");
	}
	if (g->nret != 1)
		ERR(op, "wp.tile_map() takes a function of one result; '%s' returns %d", name, g->nret);
	Type rt = g->ret[0], tt = TY_VOID;
	if (ty_is_scalar(rt) || ty_is_vec(rt) || ty_is_mat(rt))
		tt = ty_tile(rt, ty_ndim(shape), ty_info(shape)->shape);
	if (tt == TY_VOID)
		ERR(op, "wp.tile_map(): '%s' returns %s, which a tile does not hold here", name, uty(rt));
	int r = out(s, t, tt);
	emit(s, e, OP_CALL, &r, 1, a, n)->callee = (int32_t)fn;
	return r;
}

/* wp.tile_map(op, a, ...): a builtin of numbers (wp.sin, wp.max, ...)
 * applied to each element of tiles of one shape; a call of the builtin
 * on the tiles.  A wp.func: map_func. */
static int map(Sema *s, Node *e, Target *t, int want)
{
	if (!want)
		ERR(e, "the value of wp.tile_map() is not used");
	if (e->nkid < 3)
		ERR(e, "wp.tile_map() takes a function and one or more tiles");
	for (int i = 1; i < e->nkid; i++)
		if (e->kid[i]->kind == N_KWARG)
			ERR(e->kid[i], "wp.tile_map() takes its arguments by position");
	Node *op = e->kid[1];
	const char *name = op->kind == N_NAME ? op->name : is_wp_attr(op) ? op->name : NULL;
	int d = -1;
	if (op->kind == N_NAME)
		d = def_find(s, name);
	else if (!is_wp_attr(op) && module_attr(s, op, &d) != MA_DEF)
		d = -1;
	if (d >= 0)
		return map_func(s, e, d, t);
	if (!name || !ir_builtin_public(name))
		ERR(op, "wp.tile_map() takes a builtin of numbers (wp.sin, wp.max, ...) here");
	int32_t a[MAXOPS];
	int n = e->nkid - 2;
	if (n > MAXOPS)
		ERR(e, "too many arguments (%d) in one call", n);
	for (int i = 0; i < n; i++) {
		a[i] = expr(s, e->kid[i + 2], NULL);
		if (!ty_is_tile(ty_of(s, a[i])))
			ERR(e->kid[i + 2], "wp.tile_map() maps over tiles, not %s", uty(ty_of(s, a[i])));
	}
	int v = builtin_val(s, e, name, a, n, t, 1);
	if (v == -2) {
		Type ty[MAXOPS];
		for (int i = 0; i < n; i++)
			ty[i] = ty_elem(ty_of(s, a[i]));
		char got[256], sigs[600];
		fmt_types(got, sizeof got, ty, n);
		ir_builtin_signatures(name, sigs, sizeof sigs);
		ERR(e, "wp.tile_map(wp.%s, ...): no overload for elements %s of tiles of one shape; expected %s",
		    name, got, sigs);
	}
	(void)want;
	return v;
}

int tile_call(Sema *s, Node *e, const char *name, Target *t, int want)
{
	if (!is_tile_name(name))
		return -2;
	char what[48];
	snprintf(what, sizeof what, "wp.%s", name);
	if (!s->cur->kernel)
		ERR(e, "tiles are supported in kernels only, not in a wp.func (%s)", what);
	if (!strcmp(name, "tile_load")) {
		if (!want)
			ERR(e, "the value of wp.tile_load() is not used");
		return load(s, e, what, t);
	}
	if (!strcmp(name, "tile_store")) {
		if (want)
			ERR(e, "wp.tile_store() does not return a value");
		store(s, e, what, OP_TILE_STORE);
		return -1;
	}
	if (!strcmp(name, "tile_arange")) {
		if (!want)
			ERR(e, "the value of wp.tile_arange() is not used");
		return arange(s, e, t);
	}
	if (!strcmp(name, "tile_atomic_add")) {
		if (want)
			ERR(e, "the old values wp.tile_atomic_add() returns are not supported yet");
		store(s, e, what, OP_TILE_ATOMIC_ADD);
		return -1;
	}
	if (!strcmp(name, "tile_zeros") || !strcmp(name, "tile_ones") || !strcmp(name, "tile_full") ||
	    !strcmp(name, "tile_empty"))
		return filled(s, e, name, what, t);
	if (!strcmp(name, "tile_randf") || !strcmp(name, "tile_randi")) {
		if (!want)
			ERR(e, "the value of %s() is not used", what);
		return rand_tile(s, e, name, what, t);
	}
	if (!strcmp(name, "tile_matmul"))
		return matmul(s, e, what, t, want);
	if (!strcmp(name, "tile_extract"))
		return extract(s, e, t);
	if (!strcmp(name, "tile_fft") || !strcmp(name, "tile_ifft")) {
		fft(s, e, name, what, want);
		return -1;
	}
	if (!strcmp(name, "tile_astype"))
		return astype(s, e, what, t);
	if (!strcmp(name, "tile_map"))
		return map(s, e, t, want);
	if (!strcmp(name, "tile_reduce"))
		return reduce(s, e, what, t, want);
	if (!strcmp(name, "tile_sort")) {
		sort(s, e, what, want);
		return -1;
	}
	if (!strcmp(name, "tile_dot")) {
		if (!want)
			ERR(e, "the value of %s() is not used", what);
		return dot(s, e, what, t);
	}
	if ((!strcmp(name, "tile_sum") || !strcmp(name, "tile_min") || !strcmp(name, "tile_max")) &&
	    (e->nkid > 2 || (e->nkid == 2 && e->kid[1]->kind == N_KWARG)))
		return reduce_axis(s, e, name, what, t);
	if (!strcmp(name, "tile_broadcast"))
		return broadcast(s, e, what, t);
	if (!strcmp(name, "tile"))
		return of_threads(s, e, what, t, want);
	if (!strcmp(name, "tile_load_indexed")) {
		if (!want)
			ERR(e, "the value of %s() is not used", what);
		return load_indexed(s, e, what, t);
	}
	if (!strcmp(name, "tile_store_indexed") || !strcmp(name, "tile_atomic_add_indexed")) {
		if (want)
			ERR(e, "%s() does not return a value here", what);
		store_indexed(s, e, what,
			      !strcmp(name, "tile_store_indexed") ? OP_TILE_STORE_INDEXED
								  : OP_TILE_ATOMIC_ADD_INDEXED);
		return -1;
	}
	if (!strcmp(name, "tile_from_thread")) {
		if (!want)
			ERR(e, "the value of %s() is not used", what);
		return from_thread(s, e, what, t);
	}
	if (!strcmp(name, "tile_scan_inclusive") || !strcmp(name, "tile_scan_exclusive") ||
	    !strcmp(name, "tile_scan_max_inclusive") || !strcmp(name, "tile_scan_min_inclusive")) {
		if (!want)
			ERR(e, "the value of %s() is not used", what);
		return scan(s, e, name, what, t);
	}
	if (!strcmp(name, "tile_cholesky") || !strcmp(name, "tile_cholesky_solve") ||
	    !strcmp(name, "tile_lower_solve") || !strcmp(name, "tile_upper_solve")) {
		if (!want)
			ERR(e, "the value of %s() is not used", what);
		if (!strcmp(name, "tile_cholesky"))
			return cholesky(s, e, what, t);
		if (!strcmp(name, "tile_cholesky_solve"))
			return cholesky_solve(s, e, what, t);
		return tri_solve(s, e, name, what, t);
	}
	if (!strcmp(name, "untile")) {
		if (!want)
			ERR(e, "the value of wp.untile() is not used");
		return untile(s, e, what, t);
	}
	if (!strcmp(name, "tile_reshape") || !strcmp(name, "tile_squeeze"))
		return reshape(s, e, name, what, t);
	if (!strcmp(name, "tile_diag_add")) {
		if (!want)
			ERR(e, "the value of %s() is not used", what);
		return diag_add(s, e, what, t);
	}
	if (!strcmp(name, "tile_view")) {
		if (!want)
			ERR(e, "the value of %s() is not used", what);
		return view(s, e, what, t);
	}
	if (!strcmp(name, "tile_assign")) {
		if (want)
			ERR(e, "%s() copies into dst in place and has no value", what);
		assign(s, e, what);
		return -1;
	}
	if (!strcmp(name, "tile_scatter_add")) {
		if (want)
			ERR(e, "%s() adds into a in place and has no value", what);
		scatter_add(s, e, what);
		return -1;
	}
	if (!strcmp(name, "tile_axpy")) {
		if (want)
			ERR(e, "%s() adds into dest in place and has no value", what);
		axpy(s, e, what);
		return -1;
	}
	if (ir_builtin_public(name))
		return -2; /* a row of builtins.h */
	ERR(e, "%s() is not supported yet (doc/language.md lists the tile operations that are)", what);
}
