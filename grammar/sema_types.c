/*
 * sema_types.c: the types written in the source — parameter and return
 * annotations, a module's type aliases (Vec = wp.vec3d), the dtype of an
 * array, of wp.identity or wp.cast — read into the IR's Type.
 *
 * ann_type takes every spelling Warp accepts and no more: the Python
 * names float, int and bool, wp.NAME of a scalar, vector, matrix,
 * quaternion or transform (ty_from_warp, the table of ir/types.h), a
 * struct or alias declared above, each array spelling (wp.array(dtype=T,
 * ndim=N), wp.array[T], wp.array2d(dtype=T), ...) and wp.types.vector /
 * wp.types.matrix of a shape, which name the type of that shape ksynth
 * has or are refused.  What a position does not allow (an array as a
 * field's element, a kernel's return) is its caller's to refuse.
 */
#include <string.h>

#include "sema.h"

/* Render a decorator or annotation for a message: "wp.kernel", "foo(...)". */
void dotted(const Node *n, char *out, size_t cap)
{
	if (n->kind == N_NAME) {
		snprintf(out, cap, "%s", n->name);
	} else if (n->kind == N_ATTR && kid(n, 0)) {
		dotted(n->kid[0], out, cap);
		size_t w = strlen(out);
		snprintf(out + w, cap - w, ".%s", n->name);
	} else if (n->kind == N_CALL && kid(n, 0)) {
		dotted(n->kid[0], out, cap);
		size_t w = strlen(out);
		snprintf(out + w, cap - w, "(...)");
	} else {
		snprintf(out, cap, "...");
	}
}

/* The rank wp.NAME fixes for an array type: 0 for wp.array (any, from
 * ndim), N for wp.arrayNd, -1 for anything else. */
int array_spelling(const Node *n)
{
	if (!is_wp_attr(n) || strncmp(n->name, "array", 5))
		return -1;
	const char *r = n->name + 5;
	if (!*r)
		return 0;
	if (r[0] >= '1' && r[0] <= '4' && r[1] == 'd' && !r[2])
		return r[0] - '0';
	return -1;
}

/* wp.array(dtype=T), wp.array(dtype=T, ndim=N), wp.array[T], and the same
 * with wp.array1d .. wp.array4d, whose rank is in the name. */
static Type array_type(Sema *s, Node *a)
{
	Node *head = a->kid[0], *eln = NULL;
	int fixed = array_spelling(head), ndim = fixed ? fixed : 1;
	if (a->kind == N_INDEX) {
		if (a->nkid != 2 || a->kid[1]->kind == N_TUPLE)
			ERR(a, "write the element type as wp.%s[T]", head->name);
		eln = a->kid[1];
	}
	for (int i = 1; a->kind == N_CALL && i < a->nkid; i++) {
		Node *k = a->kid[i];
		if (k->kind != N_KWARG)
			ERR(k, "write the element type as wp.%s(dtype=T)", head->name);
		if (!strcmp(k->name, "dtype")) {
			eln = k->kid[0];
		} else if (!strcmp(k->name, "ndim")) {
			Node *d = k->kid[0];
			if (fixed)
				ERR(k, "wp.%s has %d dimensions; ndim is for wp.array", head->name, fixed);
			if (d->kind != N_INT || d->ival < 1 || d->ival > KS_MAX_NDIM)
				ERR(d, "ndim must be 1, 2, 3 or 4");
			ndim = (int)d->ival;
		} else {
			ERR(k, "unsupported wp.%s() argument '%s'", head->name, k->name);
		}
	}
	if (!eln)
		ERR(a, "wp.%s() needs an element type: wp.%s(dtype=float)", head->name, head->name);
	Type el = ann_type(s, eln);
	if (ty_is_array(el))
		ERR(eln, "arrays of arrays are not supported");
	return ty_array(el, ndim);
}

/* typing.Any, or Any where the module binds it to nothing a kernel reads
 * (from typing import Any is host Python, skipped) */
static int is_any(Sema *s, const Node *a)
{
	if (a->kind == N_ATTR)
		return !strcmp(a->name, "Any") && is_name(kid(a, 0), "typing");
	return is_name(a, "Any") && map_get(&s->sc->consts, "Any") < 0 && map_get(&s->sc->typealias, "Any") < 0 &&
	       def_find(s, "Any") < 0;
}

/* The element type node of array annotation a, or NULL. */
static const Node *array_elem(const Node *a)
{
	if ((a->kind != N_CALL && a->kind != N_INDEX) || array_spelling(a->kid[0]) < 0)
		return NULL;
	if (a->kind == N_INDEX)
		return a->nkid == 2 ? a->kid[1] : NULL;
	for (int i = 1; i < a->nkid; i++)
		if (a->kid[i]->kind == N_KWARG && !strcmp(a->kid[i]->name, "dtype"))
			return a->kid[i]->kid[0];
	return NULL;
}

int generic_ann(Sema *s, const Node *a)
{
	const Node *el = array_elem(a);
	return is_any(s, el ? el : a);
}

Type generic_type(Sema *s, const Node *a, const Node *x, Type at)
{
	if (is_any(s, a))
		return at;
	int fixed = array_spelling(a->kid[0]), ndim = fixed ? fixed : 1;
	for (int i = 1; a->kind == N_CALL && i < a->nkid; i++)
		if (a->kid[i]->kind == N_KWARG && !strcmp(a->kid[i]->name, "ndim"))
			ndim = a->kid[i]->kid[0]->kind == N_INT ? (int)a->kid[i]->kid[0]->ival : 0;
	if (!ty_is_array(at) || ty_ndim(at) != ndim)
		ERR(x, "this argument is %s, where the generic parameter takes an array of %d dimension%s", uty(at),
		    ndim, ndim == 1 ? "" : "s");
	return at;
}

/* A constant int argument (a literal or a module constant), for a
 * length or a shape. */
int const_int(Sema *s, Node *n, const char *what)
{
	int64_t i;
	double x;
	int isf;
	Const c;
	if (literal(n, &i, &x, &isf) && !isf)
		return (int)(i < 0 || i > 255 ? -1 : i);
	if (const_eval(s, n, &c) && c.ty == TY_INT)
		return (int)(c.i < 0 || c.i > 255 ? -1 : c.i);
	ERR(n, "%s must be a constant int", what);
}

/* Is n wp.types.NAME? */
int is_wp_types(const Node *n, const char *name)
{
	return n->kind == N_ATTR && !strcmp(n->name, name) && n->kid[0]->kind == N_ATTR &&
	       !strcmp(n->kid[0]->name, "types") && is_name(n->kid[0]->kid[0], "wp");
}

/* The named type of a shape Warp builds on demand: a vector of length
 * rows (cols 0) or a rows x cols matrix of scalar sc.  The lengths
 * ksynth has types for are those of types.h. */
Type shaped_type(Sema *s, Node *at, int rows, int cols, Type sc)
{
	Type t = cols ? ty_find(TK_MAT, sc, rows, cols) : ty_find(TK_VEC, sc, rows, 1);
	if (t != TY_VOID)
		return t;
	if (cols)
		ERR(at,
		    "a %dx%d matrix of %s has no type here (matrices are 2x2, 3x3, 4x4 and 6x6 "
		    "of float16, float32 or float64)",
		    rows, cols, uty(sc));
	ERR(at,
	    "a vector of %d %s has no type here (vectors have 2, 3 or 4 components of any "
	    "number type, or 6 of a float type)",
	    rows, uty(sc));
}

/* wp.types.vector(length=N, dtype=T), wp.types.matrix(shape=(N, M),
 * dtype=T), the arguments by name or position: the named type of that
 * shape (a type alias at module level, or an annotation). */
static Type types_ctor(Sema *s, Node *a)
{
	int mat = is_wp_types(a->kid[0], "matrix");
	static const char *const vname[] = {"length", "dtype"}, *const mname[] = {"shape", "dtype"};
	Node *node[2], *dflt[2] = {NULL, a}; /* dtype: float32 when not given */
	bind_args(s, a, mat ? "wp.types.matrix" : "wp.types.vector", mat ? mname : vname, 2, dflt, node);
	int rows, cols = 0;
	Type sc = TY_FLOAT;
	if (node[1]) {
		sc = ann_type(s, node[1]);
		if (!ty_is_scalar(sc))
			ERR(node[1], "dtype must be a number type, not %s", uty(sc));
	}
	if (!mat) {
		rows = const_int(s, node[0], "length");
	} else {
		Node *sh = node[0];
		if (sh->kind != N_TUPLE || sh->nkid != 2)
			ERR(sh, "shape must be a tuple of two ints, (rows, cols)");
		rows = const_int(s, sh->kid[0], "shape");
		cols = const_int(s, sh->kid[1], "shape");
		if (cols < 1)
			ERR(sh, "a matrix needs at least one column");
	}
	if (rows < 1)
		ERR(node[0], "wp.types.%s(): %s must be at least 1", mat ? "matrix" : "vector",
		    mat ? "shape" : "length");
	return shaped_type(s, a, rows, cols, sc);
}

/* A type annotation: float, int, bool, wp.float64, wp.uint8, wp.vec3d,
 * wp.mat33, wp.quat, every array spelling.  Callers reject what their
 * position does not allow. */
Type ann_type(Sema *s, Node *a)
{
	char buf[128];
	Type t = TY_VOID;
	if (generic_ann(s, a))
		ERR(a,
		    "a generic type (Any) is supported for parameters only: of a wp.func (compiled for the types of "
		    "each call) and of a kernel (for those of each wp.overload)");
	if (a->kind == N_NAME) {
		int k = map_get(&s->sc->typealias, a->name);
		if (!strcmp(a->name, "float"))
			return TY_FLOAT;
		if (!strcmp(a->name, "int"))
			return TY_INT;
		if (!strcmp(a->name, "bool"))
			return TY_BOOL;
		if (k >= 0)
			return (Type)k;
	} else if (is_wp_attr(a)) {
		if ((t = wp_type(a->name)) != TY_VOID)
			return t;
		if (array_spelling(a) >= 0)
			ERR(a, "wp.%s needs an element type: wp.%s(dtype=float) or wp.%s[float]", a->name, a->name,
			    a->name);
	} else if ((a->kind == N_CALL || a->kind == N_INDEX) && array_spelling(a->kid[0]) >= 0) {
		return array_type(s, a);
	} else if (a->kind == N_CALL && (is_wp_types(a->kid[0], "vector") || is_wp_types(a->kid[0], "matrix"))) {
		return types_ctor(s, a);
	} else if (a->kind == N_STRING) {
		ERR(a, "string annotations are not supported");
	} else {
		int mv, ma = module_attr(s, a, &mv);
		if (ma == MA_TYPE)
			return (Type)mv;
		if (ma == MA_HOST)
			skipped_use(s, a, mv);
	}
	if (a->kind == N_NAME && map_get(&s->sc->skipped, a->name) >= 0)
		skipped_use(s, a, map_get(&s->sc->skipped, a->name));
	dotted(a, buf, sizeof buf);
	ERR(a,
	    "unsupported type '%s'; use float, int, bool, a wp scalar, vector or matrix type "
	    "(wp.float64, wp.vec3, wp.mat33, ...) or an array (wp.array(dtype=...), wp.array2d[...])",
	    buf);
}
