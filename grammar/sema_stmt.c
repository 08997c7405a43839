/*
 * sema_stmt.c: statements — assignments of every form (x = e, a, b =
 * f(...), i, j = wp.tid(), a[i] = e, v.x = e, s.inner.v[k] = e and their
 * 'op=' forms), if, for over range(), while, break, continue, return —
 * lowered into the block being built (Sema.blk).
 *
 * A name's assignment hands a Target to expr so the value's last
 * instruction writes the variable.  An array element is stored (+= -= &=
 * |= ^= on one are Warp's atomics); a component of a vector or matrix
 * variable is an insert into it; a chain through a struct's fields is
 * read, updated and written back level by level (write_path), each of
 * its nodes evaluated once.  A loop's range() is evaluated once, before
 * the loop, as Python does; a while is a loop that breaks when its
 * condition fails.  The first return fixes a function's signature unless
 * an annotation did.
 */
#include <string.h>

#include "sema.h"

static void write_path(Sema *s, Node *st, Node *lhs, int val);

/* The statements of a suite, into b. */
static void suite(Sema *s, Block *b, Node *blk)
{
	Block *old = s->blk;
	s->blk = b;
	if (blk && blk->kind == N_BLOCK)
		for (int i = 0; i < blk->nkid; i++)
			stmt(s, blk->kid[i]);
	else if (blk)
		stmt(s, blk);
	s->blk = old;
}

/* May the name n be (re)bound here? */
static void check_target(Sema *s, Node *n)
{
	const char *name = n->name;
	if (reserved(name))
		ERR(n, "cannot assign to '%s': the name is reserved", name);
	if (def_find(s, name) >= 0)
		ERR(n, "cannot assign to function '%s'", name);
	for (int i = 0; i < s->nloopvar; i++)
		if (!strcmp(s->loopvar[i], name))
			ERR(n, "cannot assign to loop variable '%s'", name);
	int v = map_get(&s->names, name);
	if (v >= 0 && ty_is_array(ty_of(s, v)))
		ERR(n,
		    "cannot assign to array parameter '%s'; store into its elements with "
		    "%s[i] = ...",
		    name, name);
}

/* x = e, x: T = e */
static void assign_name(Sema *s, Node *st, Node *lhs, Node *rhs, Type want)
{
	check_target(s, lhs);
	Target t = {lhs, map_get(&s->names, lhs->name), want, 0};
	int32_t v = expr(s, rhs, &t);
	if (t.done)
		return;
	if (ty_is_array(ty_of(s, v)))
		ERR(rhs, "arrays cannot be copied into variables; index them or pass them to a "
			 "function");
	int32_t r = out(s, &t, ty_of(s, v));
	emit(s, st, OP_MOV, &r, 1, &v, 1);
}

/* Is target i of the tuple assignment lhs a `_` that a later target
 * rebinds (`i, _, _ = wp.tid()`)?  Its value is dropped, as Python drops
 * it. */
int dropped_target(const Node *lhs, int i)
{
	if (strcmp(lhs->kid[i]->name, "_"))
		return 0;
	for (int j = i + 1; j < lhs->nkid; j++)
		if (!strcmp(lhs->kid[j]->name, "_"))
			return 1;
	return 0;
}

/* The value target i of the tuple assignment lhs receives, of type ty:
 * a temp if it is dropped, else its variable (-1 for one not made yet). */
int tuple_target(Sema *s, Node *lhs, int i, Type ty)
{
	if (dropped_target(lhs, i))
		return ir_temp(s->m, s->f, ty);
	int v = map_get(&s->names, lhs->kid[i]->name);
	if (v >= 0 && ty_of(s, v) != ty)
		type_mismatch(s, lhs->kid[i], lhs->kid[i]->name, ty_of(s, v), ty);
	return v;
}

/* The names a tuple assignment binds: checked, and each given once (but
 * `_`). */
void tuple_targets(Sema *s, Node *lhs)
{
	for (int i = 0; i < lhs->nkid; i++) {
		Node *x = lhs->kid[i];
		if (x->kind != N_NAME)
			ERR(x, "only names can receive the values of a tuple assignment");
		check_target(s, x);
		for (int j = 0; j < i; j++)
			if (!strcmp(lhs->kid[j]->name, x->name) && !dropped_target(lhs, j))
				ERR(x, "'%s' is assigned twice in one tuple assignment", x->name);
	}
}

/* i, j = wp.tid(): the thread's indices in a launch of 2 to 4
 * dimensions */
static void assign_tid(Sema *s, Node *st, Node *lhs, Node *rhs)
{
	int n = lhs->nkid;
	int32_t res[KS_MAX_NDIM];
	if (rhs->nkid != 1)
		ERR(rhs, "wp.tid() takes no arguments");
	if (!s->cur->kernel)
		ERR(rhs, "wp.tid() can only be called in a kernel");
	if (n > KS_MAX_NDIM)
		ERR(st, "wp.tid() gives at most %d indices (a launch has 1 to %d dimensions)", KS_MAX_NDIM,
		    KS_MAX_NDIM);
	tuple_targets(s, lhs);
	for (int i = 0; i < n; i++)
		res[i] = tuple_target(s, lhs, i, TY_INT);
	for (int i = 0; i < n; i++)
		if (res[i] < 0)
			res[i] = new_var(s, lhs->kid[i]->name, TY_INT);
	emit(s, rhs, OP_BUILTIN, res, n, NULL, 0)->callee = BI_TID;
}

/* a, b = e1, e2: the values first, left to right, then each name bound
 * to its value (so a, b = b, a swaps), as Python does */
static void assign_values(Sema *s, Node *st, Node *lhs, Node *rhs)
{
	int n = lhs->nkid;
	if (rhs->nkid != n)
		ERR(st, "cannot unpack %d value%s into %d names", rhs->nkid, rhs->nkid == 1 ? "" : "s", n);
	tuple_targets(s, lhs);
	int32_t v[MAXOPS];
	for (int i = 0; i < n; i++) {
		v[i] = expr(s, rhs->kid[i], NULL);
		if (ty_is_array(ty_of(s, v[i])))
			ERR(rhs->kid[i], "arrays cannot be copied into variables; index them or pass them to a "
					 "function");
		/* a variable that a target rebinds is read before it is */
		for (int j = 0; j < n; j++)
			if (map_get(&s->names, lhs->kid[j]->name) == v[i]) {
				int32_t t = ir_temp(s->m, s->f, ty_of(s, v[i]));
				emit(s, st, OP_MOV, &t, 1, &v[i], 1);
				v[i] = t;
				break;
			}
	}
	for (int i = 0; i < n; i++) {
		Type ty = ty_of(s, v[i]);
		int32_t r = tuple_target(s, lhs, i, ty);
		if (r < 0)
			r = new_var(s, lhs->kid[i]->name, ty);
		emit(s, st, OP_MOV, &r, 1, &v[i], 1);
	}
}

static void assign_tuple1(Sema *s, Node *st, Node *lhs, Node *rhs);

/* a, b = f(x): one call writing each variable (an overload's arguments
 * evaluated once, memo_open) */
static void assign_tuple(Sema *s, Node *st, Node *lhs, Node *rhs)
{
	MemoScope ms = memo_open(s);
	assign_tuple1(s, st, lhs, rhs);
	memo_close(s, ms);
}

static void assign_tuple1(Sema *s, Node *st, Node *lhs, Node *rhs)
{
	int n = lhs->nkid, d = callee_of(s, rhs);
	if (rhs->kind == N_TUPLE && !rhs->paren) {
		if (n > MAXOPS)
			ERR(st, "at most %d names in a tuple assignment", MAXOPS);
		assign_values(s, st, lhs, rhs);
		return;
	}
	if (rhs->kind == N_CALL && is_wp_attr(rhs->kid[0]) && !strcmp(rhs->kid[0]->name, "tid")) {
		assign_tid(s, st, lhs, rhs);
		return;
	}
	if (rhs->kind == N_CALL && is_wp_attr(rhs->kid[0]) && ir_builtin_public(rhs->kid[0]->name)) {
		int row0 = -1;
		for (int r = 0; r < BI_COUNT && row0 < 0; r++)
			if (!strcmp(ir_builtins[r].name, rhs->kid[0]->name))
				row0 = r;
		if (ir_builtin_nres(row0) > 1) {
			several(s, rhs, rhs->kid[0]->name, row0, lhs, 0);
			return;
		}
	}
	if (d < 0 && rhs->kind == N_CALL)
		(void)expr(s, rhs, NULL); /* reports kernels, unknown names, ... */
	if (d < 0)
		ERR(st, "tuple assignment needs a wp.func returning several values "
			"('a, b = f(...)'); assign each variable separately");
	Func *g = s->m->fn[d];
	if (g->nret != n)
		ERR(st, "cannot unpack %d value%s returned by '%s' into %d names", g->nret, g->nret == 1 ? "" : "s",
		    g->name, n);
	tuple_targets(s, lhs);
	int32_t res[MAXOPS], a[MAXOPS];
	for (int i = 0; i < n; i++)
		res[i] = tuple_target(s, lhs, i, g->ret[i]);
	int na = func_args(s, rhs, d, a);
	/* Python binds the names after evaluating the call: new variables
	 * become visible only now */
	for (int i = 0; i < n; i++)
		if (res[i] < 0)
			res[i] = new_var(s, lhs->kid[i]->name, g->ret[i]);
	func_call(s, rhs, d, res, a, na);
}

/* The name at the root of a[i].x, a[i][j]: what the user assigned into. */
static const Node *root_name(const Node *n)
{
	while ((n->kind == N_INDEX || n->kind == N_ATTR) && kid(n, 0))
		n = n->kid[0];
	return n->kind == N_NAME ? n : NULL;
}

/* The target of x[...] = e or x.c = e must be a plain name. */
static Node *component_base(Sema *s, Node *lhs)
{
	Node *b = lhs->kid[0];
	if (b->kind == N_NAME)
		return b;
	const Node *r = root_name(b);
	int v = r ? map_get(&s->names, r->name) : -1;
	if (v >= 0 && ty_is_array(ty_of(s, v)))
		ERR(lhs, "cannot assign to a component of an array element; copy it to a variable "
			 "first");
	if (v >= 0 && ty_is_mat(ty_of(s, v)) && b->kind == N_INDEX && lhs->kind == N_INDEX)
		ERR(lhs, "write m[i, j] = ... to assign a matrix element");
	ERR(lhs, "cannot assign to this expression");
}

/* v[k] = e, v.x = e, m[i] = row, m[i, j] = e and their 'op=' forms:
 * v = insert v, k, e.  Indices are nodes (sub) or one constant k. */
static void insert(Sema *s, Node *st, Node *base, Node **sub, int nsub, int k, Node *rhs, int aug)
{
	int32_t v = name_value(s, base), a[4] = {v};
	Type tv = ty_of(s, v);
	int32_t val = -1;
	check_target(s, base);
	if (aug < 0)
		val = expr(s, rhs, NULL); /* Python: the value before the target */
	if (sub)
		for (int i = 0; i < nsub; i++)
			a[i + 1] = index_val(s, sub[i], ty_rows(tv), tv);
	else
		a[1] = ir_const_int(s->m, s->f, k), nsub = 1;
	Type ta[4] = {tv, TY_INT, TY_INT};
	if (aug >= 0) {
		int old = emit_val(s, st, OP_EXTRACT, ir_op_type(OP_EXTRACT, ta, nsub + 1, TY_VOID), a, nsub + 1,
				   NULL);
		val = binop(s, st, aug, old, expr(s, rhs, NULL), NULL, 1);
	}
	a[nsub + 1] = val;
	ta[nsub + 1] = ty_of(s, val);
	if (ir_op_type(OP_INSERT, ta, nsub + 2, TY_VOID) == TY_VOID) {
		Type el = ir_op_type(OP_EXTRACT, ta, nsub + 1, TY_VOID);
		ERR(aug < 0 ? rhs : st, "cannot assign %s to %s of %s, which is %s%s", uty(ta[nsub + 1]),
		    ty_is_vec(el) ? "a row" : "a component", uty(tv), uty(el), assign_hint(el, ta[nsub + 1]));
	}
	emit(s, st, OP_INSERT, &v, 1, a, nsub + 2);
}

/* t[i, j] = e: t = insert t, i, j, e, the element set by one thread (its
 * own in CUDA); t[i, j] += e and -= e: t = tile_add_at t, i, j, e, every
 * thread's e added in (Warp's atomic add into a tile's element); t[i, j]
 * op= e for the other arithmetic ops: read, op, set.  With fewer indices
 * than dimensions, t[i] = row: t = tile_assign t, row, i, 0, a tile of the
 * extents left (Warp's view of t, assigned). */
static void tile_insert(Sema *s, Node *st, Node *base, Node **sub, int n, Node *rhs, int aug)
{
	int32_t v = name_value(s, base), a[KS_MAX_NDIM + 2] = {v}, val = -1;
	Type tv = ty_of(s, v), el = ty_elem(tv);
	int nd = ty_ndim(tv);
	check_target(s, base);
	tile_inplace_ok(s, base, v);
	if (n < nd && aug >= 0)
		ERR(st,
		    "'%s=' on a part of a tile (fewer indices than its %d) is not supported, as in Warp; read it, "
		    "update it and assign it back",
		    binop_sym[aug], nd);
	if (n < nd) {
		val = expr(s, rhs, NULL);
		Type tr = ty_of(s, val), want = ty_tile(el, nd - n, ty_info(tv)->shape + n);
		if (!ty_is_tile(tr) || ty_ndim(tr) != nd - n ||
		    memcmp(ty_info(tr)->shape, ty_info(tv)->shape + n, (size_t)(nd - n) * sizeof(int)))
			ERR(rhs, "a part of a %s takes a %s here, not %s", uty(tv), uty(want), uty(tr));
		if (ty_elem(tr) != el) {
			Type at[1] = {tr};
			if (ir_op_type(OP_CONV, at, 1, want) == TY_VOID)
				ERR(rhs, "cannot assign a %s to a part of a %s", uty(tr), uty(tv));
			val = emit_val(s, rhs, OP_CONV, want, &val, 1, NULL);
		}
		a[1] = val;
		for (int i = 0; i < nd; i++)
			a[i + 2] = i < n ? tile_index(s, sub[i], tv, i) : ir_const_int(s->m, s->f, 0);
		emit(s, st, OP_TILE_ASSIGN, &v, 1, a, nd + 2);
		return;
	}
	if (n > nd)
		ERR(st, "a %s takes %d indices, not %d (assign a component of an element through a variable)",
		    uty(tv), nd, n);
	if (aug == B_BITAND || aug == B_BITOR || aug == B_BITXOR)
		ERR(st, "'%s=' on a tile's element is not supported yet; write t[i] = t[i] %s x", binop_sym[aug],
		    binop_sym[aug]);
	if (aug < 0)
		val = expr(s, rhs, NULL); /* Python: the value before the target */
	for (int i = 0; i < n; i++)
		a[i + 1] = tile_index(s, sub[i], tv, i);
	int add = (aug == B_ADD || aug == B_SUB) && el != TY_BOOL;
	if (aug >= 0 && !add) {
		int old = emit_val(s, st, OP_EXTRACT, el, a, n + 1, NULL);
		val = binop(s, st, aug, old, expr(s, rhs, NULL), NULL, 1);
	} else if (add) {
		val = expr(s, rhs, NULL);
	}
	if (ty_of(s, val) != el)
		ERR(aug < 0 ? rhs : st, "cannot assign %s to an element of %s, which is %s%s", uty(ty_of(s, val)),
		    uty(tv), uty(el), assign_hint(el, ty_of(s, val)));
	if (aug == B_SUB && add)
		val = emit_val(s, st, OP_NEG, el, &val, 1, NULL);
	a[n + 1] = val;
	emit(s, st, add ? OP_TILE_ADD_AT : OP_INSERT, &v, 1, a, n + 2);
}

/* a[i, j] = e (store); a[i, j] += e, -= e, and on ints &= |= ^= (atomic,
 * as in Warp);
 * a[i, j] op= e (load, op, store).  Every dimension is indexed. */
static void store(Sema *s, Node *st, Node *lhs, int32_t arr, Node **sub, int n, Node *rhs, int aug)
{
	Type ta = ty_of(s, arr), el = ty_elem(ta);
	int nd = ty_ndim(ta);
	int32_t a[KS_MAX_NDIM + 2] = {arr};
	if (n != nd)
		ERR(lhs,
		    n < nd ? "%s needs %d indices, not %d (a sub-array is not supported: index "
			     "every dimension, a[i, j] = ...)"
			   : "%s takes %d indices, not %d (assign a component of an element through "
			     "a variable)",
		    uty(ta), nd, n);
	if (aug < 0) {
		a[nd + 1] = expr(s, rhs, NULL);
		for (int i = 0; i < nd; i++)
			a[i + 1] = index_val(s, sub[i], 0, ta);
		if (ty_of(s, a[nd + 1]) != el)
			ERR(rhs, "cannot store %s in an array of %s%s", uty(ty_of(s, a[nd + 1])), uty(el),
			    assign_hint(el, ty_of(s, a[nd + 1])));
		emit(s, st, OP_STORE, NULL, 0, a, nd + 2);
		return;
	}
	for (int i = 0; i < nd; i++)
		a[i + 1] = index_val(s, sub[i], 0, ta);
	if (aug == B_ADD || aug == B_SUB ||
	    (ty_is_int(el) && (aug == B_BITAND || aug == B_BITOR || aug == B_BITXOR))) {
		/* += -= &= |= ^= on an element are Warp's atomics */
		const char *name = aug == B_ADD      ? "atomic_add"
				   : aug == B_SUB    ? "atomic_sub"
				   : aug == B_BITAND ? "atomic_and"
				   : aug == B_BITOR  ? "atomic_or"
						     : "atomic_xor";
		a[nd + 1] = expr(s, rhs, NULL);
		Type tv = ty_of(s, a[nd + 1]);
		if (builtin_val(s, st, name, a, nd + 2, NULL, 0) == -2)
			ERR(st, "unsupported operand types for %s=: '%s' and '%s'%s", binop_sym[aug], uty(el),
			    uty(tv), assign_hint(el, tv));
		return;
	}
	int32_t old = emit_val(s, st, OP_LOAD, el, a, nd + 1, NULL);
	a[nd + 1] = binop(s, st, aug, old, expr(s, rhs, NULL), NULL, 1);
	if (ty_of(s, a[nd + 1]) != el)
		ERR(st, "cannot store %s in an array of %s", uty(ty_of(s, a[nd + 1])), uty(el));
	emit(s, st, OP_STORE, NULL, 0, a, nd + 2);
}

/* a[i, ...][k] = e, a[i, ...].x = e, a[i, ...][r, c] = e: one component
 * of an array element written, the others untouched (store_comp), as
 * Warp writes it; a matrix's row, a[i][r] = v, is written element by
 * element.  k is the component an attribute names (.x), or -1 where the
 * subscripts after the array's give it.  += and -= are Warp's atomics on
 * the component: an atomic add (sub) of the element's type, zero but
 * there (exact but for the sign of a zero in the others); &=, |= and ^=
 * (atomics too) are refused; the other op= read the element, compute and
 * write the component. */
static void store_component(Sema *s, Node *st, Node *lhs, int32_t arr, Node **sub, int n, int k, Node *rhs, int aug)
{
	Type ta = ty_of(s, arr), el = ty_elem(ta);
	int nd = ty_ndim(ta), nc = k >= 0 ? 1 : n - nd;
	if (k < 0)
		check_nsub(s, lhs, el, nc);
	int32_t a[KS_MAX_NDIM + 4] = {arr}, ci[2];
	int val = aug < 0 ? expr(s, rhs, NULL) : -1; /* Python: the value before the target */
	for (int i = 0; i < nd; i++)
		a[i + 1] = index_val(s, sub[i], 0, ta);
	for (int j = 0; j < nc; j++)
		ci[j] = k >= 0 ? ir_const_int(s->m, s->f, k)
			       : index_val(s, sub[nd + j], j ? ty_cols(el) : ty_rows(el), el);
	int row = ty_is_mat(el) && nc == 1;
	Type ct = row ? ty_find(TK_VEC, ty_scalar(el), ty_cols(el), 1) : ty_scalar(el);
	Type tx[4] = {el, TY_INT, TY_INT};
	if (aug == B_ADD || aug == B_SUB) {
		int v = expr(s, rhs, NULL);
		if (ty_of(s, v) != ct)
			ERR(st, "unsupported operand types for %s=: '%s' and '%s'%s", binop_sym[aug], uty(ct),
			    uty(ty_of(s, v)), assign_hint(ct, ty_of(s, v)));
		/* the element's zero with the component set to v: made so where
		 * the component is a constant, else inserted */
		int32_t z[36], ins[4];
		int at = -1;
		for (int c = 0; c < ty_ncomp(el); c++)
			z[c] = ir_const(s->m, s->f, ty_scalar(el), 0, 0);
		if (!row && s->f->val[ci[0]].kind == VK_CONST && s->f->val[ci[nc - 1]].kind == VK_CONST)
			at = (int)s->f->val[ci[0]].k.i * (nc == 2 ? ty_cols(el) : 1) +
			     (nc == 2 ? (int)s->f->val[ci[1]].k.i : 0);
		if (at >= 0) {
			z[at] = v;
			a[nd + 1] = emit_val(s, st, OP_MAKE, el, z, ty_ncomp(el), NULL);
		} else {
			ins[0] = emit_val(s, st, OP_MAKE, el, z, ty_ncomp(el), NULL);
			ins[1] = ci[0], ins[2] = ci[1 % nc];
			ins[nc + 1] = v;
			a[nd + 1] = emit_val(s, st, OP_INSERT, el, ins, nc + 2, NULL);
		}
		if (builtin_val(s, st, aug == B_ADD ? "atomic_add" : "atomic_sub", a, nd + 2, NULL, 0) == -2)
			ERR(st, "%s= on a component of an element of %s is not supported", binop_sym[aug], uty(ta));
		return;
	}
	if (aug == B_BITAND || aug == B_BITOR || aug == B_BITXOR)
		ERR(st,
		    "%s= on a component of an array element (an atomic in Warp) is not supported: atomics on "
		    "the components of int vectors are not in yet",
		    binop_sym[aug]);
	if (aug >= 0) {
		int e = emit_val(s, st, OP_LOAD, el, a, nd + 1, NULL);
		int32_t x[3] = {e, ci[0], ci[1 % nc]};
		int old = emit_val(s, st, OP_EXTRACT, ir_op_type(OP_EXTRACT, tx, nc + 1, TY_VOID), x, nc + 1, NULL);
		val = binop(s, st, aug, old, expr(s, rhs, NULL), NULL, 1);
	}
	if (ty_of(s, val) != ct)
		ERR(aug < 0 ? rhs : st, "cannot assign %s to %s of %s, which is %s%s", uty(ty_of(s, val)),
		    row ? "a row" : "a component", uty(el), uty(ct), assign_hint(ct, ty_of(s, val)));
	for (int c = 0; c < (row ? ty_cols(el) : 1); c++) {
		int32_t *p = a + nd + 1, x[2] = {val, ir_const_int(s->m, s->f, c)};
		p[0] = ci[0];
		if (row) {
			p[1] = ir_const_int(s->m, s->f, c);
			p[2] = emit_val(s, st, OP_EXTRACT, ty_scalar(el), x, 2, NULL);
		} else {
			p[1] = ci[1 % nc];
			p[nc] = val;
		}
		emit(s, st, OP_STORE_COMP, NULL, 0, a, nd + 1 + (row ? 2 : nc) + 1);
	}
}

/* Does the target's chain go through a struct's field (s.x, s.inner.v,
 * s.v[0], a[i].x)? */
static int struct_path(Sema *s, const Node *n)
{
	for (; n && (n->kind == N_ATTR || n->kind == N_INDEX); n = n->kid[0])
		if (n->kind == N_ATTR && ty_is_struct(static_type(s, n->kid[0])))
			return 1;
	return 0;
}

/* Write val to the place lhs names, a chain of fields and indices under a
 * name: a variable is updated in place (s = setfield s, k, val), an array
 * element stored, and anything in between read, updated and written back
 * (a[i].x = e: load, setfield, store). */
static void write_path(Sema *s, Node *st, Node *lhs, int val)
{
	Type tv = ty_of(s, val);
	if (lhs->kind == N_NAME) {
		check_target(s, lhs);
		int v = map_get(&s->names, lhs->name);
		if (v < 0)
			ERR(lhs, "name '%s' is not defined", lhs->name);
		if (ty_of(s, v) != tv)
			type_mismatch(s, lhs, lhs->name, ty_of(s, v), tv);
		if (v != val)
			emit(s, st, OP_MOV, (int32_t *)&v, 1, (int32_t *)&val, 1);
		return;
	}
	if (lhs->kind == N_INDEX) {
		Node *sub[KS_MAX_NDIM + 8];
		int arr, n;
		if ((n = array_access(s, lhs, &arr, sub, (int)KS_NELEM(sub))) >= 0) {
			Type ta = ty_of(s, arr);
			int nd = ty_ndim(ta);
			int32_t a[KS_MAX_NDIM + 2] = {arr};
			if (n != nd)
				ERR(lhs, "%s takes %d indices, not %d", uty(ta), nd, n);
			for (int i = 0; i < nd; i++)
				a[i + 1] = index_val(s, sub[i], 0, ta);
			a[nd + 1] = val;
			if (tv != ty_elem(ta))
				ERR(st, "cannot store %s in an array of %s%s", uty(tv), uty(ty_elem(ta)),
				    assign_hint(ty_elem(ta), tv));
			emit(s, st, OP_STORE, NULL, 0, a, nd + 2);
			return;
		}
		int b = expr(s, lhs->kid[0], NULL);
		Type tb = ty_of(s, b);
		Node **sb = subscripts(lhs, &n);
		if (!ty_is_composite(tb))
			ERR(lhs, "'%s' object does not support item assignment", uty(tb));
		check_nsub(s, lhs, tb, n);
		int32_t a[4] = {b};
		for (int i = 0; i < n; i++)
			a[i + 1] = index_val(s, sb[i], ty_rows(tb), tb);
		a[n + 1] = val;
		Type ta[4] = {tb, TY_INT, TY_INT};
		ta[n + 1] = tv; /* the container, n indices, the value */
		if (ir_op_type(OP_INSERT, ta, n + 2, TY_VOID) == TY_VOID)
			ERR(st, "cannot assign %s to a component of %s", uty(tv), uty(tb));
		int nb = emit_val(s, st, OP_INSERT, tb, a, n + 2, NULL);
		write_path(s, st, lhs->kid[0], nb);
		return;
	}
	if (lhs->kind != N_ATTR)
		ERR(lhs, "cannot assign to this expression");
	Node *base = lhs->kid[0];
	Type bt = static_type(s, base);
	int b = bt != TY_VOID ? -1 : expr(s, base, NULL);
	if (b >= 0)
		bt = ty_of(s, b);
	if (ty_is_struct(bt)) {
		int k = field_index(s, lhs, bt);
		Type ft = ty_field(bt, k)->ty;
		if (ft != tv)
			ERR(st, "field '%s' of %s is %s; cannot assign %s%s", lhs->name, ty_name(bt), uty(ft),
			    uty(tv), assign_hint(ft, tv));
		if (base->kind == N_NAME) {
			/* a variable or parameter: in place */
			check_target(s, base);
			int v = name_value(s, base);
			int32_t a[2] = {v, val};
			emit(s, st, OP_SETFIELD, (int32_t *)&v, 1, a, 2)->callee = k;
			return;
		}
		if (b < 0)
			b = expr(s, base, NULL);
		int32_t a[2] = {b, val};
		int nb = emit_val(s, st, OP_SETFIELD, bt, a, 2, NULL);
		s->blk->v[s->blk->n - 1].callee = k;
		write_path(s, st, base, nb);
		return;
	}
	if (b < 0)
		b = expr(s, base, NULL);
	int k = component(s, lhs, bt);
	int32_t a[3] = {b, ir_const_int(s->m, s->f, k), val};
	if (ty_scalar(bt) != tv)
		ERR(st, "cannot assign %s to a component of %s%s", uty(tv), uty(bt),
		    assign_hint(ty_scalar(bt), tv));
	int nb = emit_val(s, st, OP_INSERT, bt, a, 3, NULL);
	write_path(s, st, base, nb);
}

/* t.p = v, t.q = r and their op= forms, on a transform variable or an
 * array element: the translation or the rotation written, the rest
 * untouched.  On an array element they are its components (store_comp;
 * += and -= an atomic add of the transform with the rest zero, as for a
 * component). */
static void assign_xform_part(Sema *s, Node *st, Node *lhs, Node *rhs, int aug)
{
	Node *base = lhs->kid[0], *sub[KS_MAX_NDIM + 8];
	int q = lhs->name[0] == 'q', arr = -1, n = 0;
	Type tx = static_type(s, base), sc = ty_scalar(tx);
	Type part = q ? ty_find(TK_QUAT, sc, 4, 1) : ty_find(TK_VEC, sc, 3, 1);
	if (base->kind == N_INDEX &&
	    (n = array_access(s, base, &arr, sub, (int)KS_NELEM(sub))) != ty_ndim(ty_of(s, arr)))
		ERR(lhs, "cannot assign to this expression");
	if (base->kind != N_INDEX && base->kind != N_NAME)
		ERR(lhs, "cannot assign to this expression");
	int v = -1;
	if (arr < 0) {
		check_target(s, base);
		v = name_value(s, base);
	}
	int val = aug < 0 ? expr(s, rhs, NULL) : -1; /* Python: the value before the target */
	int32_t a[KS_MAX_NDIM + 4] = {arr};
	for (int i = 0; arr >= 0 && i < n; i++)
		a[i + 1] = index_val(s, sub[i], 0, ty_of(s, arr));
	if (arr >= 0 && (aug == B_ADD || aug == B_SUB)) {
		/* the transform of this part, the rest zero */
		int x = expr(s, rhs, NULL), z[4];
		if (ty_of(s, x) != part)
			ERR(st, "unsupported operand types for %s=: '%s' and '%s'", binop_sym[aug], uty(part),
			    uty(ty_of(s, x)));
		for (int k = 0; k < 4; k++)
			z[k] = ir_const(s->m, s->f, sc, 0, 0);
		int32_t pq[2] = {q ? emit_val(s, st, OP_MAKE, ty_find(TK_VEC, sc, 3, 1), z, 3, NULL) : x,
				 q ? x : emit_val(s, st, OP_MAKE, ty_find(TK_QUAT, sc, 4, 1), z, 4, NULL)};
		a[n + 1] = emit_val(s, st, OP_MAKE, tx, pq, 2, NULL);
		if (builtin_val(s, st, aug == B_ADD ? "atomic_add" : "atomic_sub", a, n + 2, NULL, 0) == -2)
			ERR(st, "%s= on the %s of an element of %s is not supported", binop_sym[aug],
			    q ? "rotation" : "translation", uty(ty_of(s, arr)));
		return;
	}
	int whole = arr >= 0 ? -1 : v;
	if (aug >= 0) {
		if (arr >= 0)
			whole = emit_val(s, st, OP_LOAD, tx, a, n + 1, NULL);
		val = binop(s, st, aug, xform_part(s, st, whole, q, NULL), expr(s, rhs, NULL), NULL, 1);
	}
	if (ty_of(s, val) != part)
		ERR(aug < 0 ? rhs : st, "cannot assign %s to the %s of %s, which is %s%s", uty(ty_of(s, val)),
		    q ? "rotation" : "translation", uty(tx), uty(part), assign_hint(part, ty_of(s, val)));
	if (arr < 0) {
		int other = xform_part(s, st, v, !q, NULL);
		int32_t pq[2] = {q ? other : val, q ? val : other};
		emit(s, st, OP_MAKE, &v, 1, pq, 2);
		return;
	}
	for (int k = 0; k < (q ? 4 : 3); k++) {
		int32_t x[2] = {val, ir_const_int(s->m, s->f, k)};
		a[n + 1] = ir_const_int(s->m, s->f, (q ? 3 : 0) + k);
		a[n + 2] = emit_val(s, st, OP_EXTRACT, sc, x, 2, NULL);
		emit(s, st, OP_STORE_COMP, NULL, 0, a, n + 3);
	}
}

/* wp.transform_set_translation(t, p), wp.transform_set_rotation(t, q):
 * Warp's setters, which change a variable t in place: t.p = p, t.q = q.
 * Of an array element Warp changes a copy, which is refused. */
void set_xform_part(Sema *s, Node *call, const char *name, int q)
{
	static const char *const pname[] = {"xform", "p"}, *const qname[] = {"xform", "q"};
	Node *node[2];
	char what[48];
	snprintf(what, sizeof what, "wp.%s", name);
	bind_args(s, call, what, q ? qname : pname, 2, NULL, node);
	if (!ty_is_xform(static_type(s, node[0])))
		ERR(node[0], "%s() changes a transform variable in place", what);
	if (node[0]->kind != N_NAME)
		ERR(node[0],
		    "%s() of an array element changes a copy of it in Warp (the array keeps its value); "
		    "assign the element's .%s instead",
		    what, q ? "q" : "p");
	Node *lhs = ast_new(s->a, N_ATTR, node[0]->line, node[0]->col);
	lhs->name = q ? "q" : "p";
	ast_add(s->a, lhs, node[0]);
	assign_xform_part(s, call, lhs, node[1], -1);
}

/* Is lhs a component of an array element: a[i].x, a[i][k], m[i][r, c]? */
static int array_component(Sema *s, Node *lhs)
{
	Node *el = lhs->kind == N_ATTR ? lhs->kid[0] : lhs;
	while (lhs->kind == N_INDEX && el->kind == N_INDEX && !ty_is_array(static_type(s, el->kid[0])))
		el = el->kid[0];
	return el != lhs && el->kind == N_INDEX && ty_is_array(static_type(s, el->kid[0])) &&
	       ty_is_composite(static_type(s, el));
}

/* x[...] = e, x.c = e and their 'op=' forms (aug: the BinOp or -1) */
static void assign_component(Sema *s, Node *st, Node *lhs, Node *rhs, int aug)
{
	Node *sub[KS_MAX_NDIM + 8];
	int arr, n, via_struct = struct_path(s, lhs);
	if (lhs->kind == N_ATTR && (!strcmp(lhs->name, "p") || !strcmp(lhs->name, "q")) &&
	    ty_is_xform(static_type(s, lhs->kid[0])) && !via_struct) {
		assign_xform_part(s, st, lhs, rhs, aug);
		return;
	}
	/* through a struct's field (s.v.x = e, s.a[i].field = e): read,
	 * updated and written back level by level, below; so is s.a[i].x +=
	 * e, which kdiff cannot yet take as an atomic on a struct's array
	 * that the kernel also reads */
	int sp = via_struct && (aug == B_ADD || aug == B_SUB || !array_component(s, lhs));
	if (lhs->kind == N_INDEX && (n = array_access(s, lhs, &arr, sub, (int)KS_NELEM(sub))) >= 0 &&
	    !(sp && n > ty_ndim(ty_of(s, arr)))) {
		Type ta = ty_of(s, arr);
		if (n > ty_ndim(ta) && ty_is_composite(ty_elem(ta)))
			store_component(s, st, lhs, arr, sub, n, -1, rhs, aug);
		else
			store(s, st, lhs, arr, sub, n, rhs, aug);
		return;
	}
	if (!sp && lhs->kind == N_ATTR && lhs->kid[0]->kind == N_INDEX &&
	    ty_is_composite(static_type(s, lhs->kid[0])) &&
	    (n = array_access(s, lhs->kid[0], &arr, sub, (int)KS_NELEM(sub))) == ty_ndim(ty_of(s, arr))) {
		store_component(s, st, lhs, arr, sub, n, component(s, lhs, ty_elem(ty_of(s, arr))), rhs, aug);
		return;
	}
	if (sp) {
		int val = expr(s, rhs, NULL); /* Python: the value before the target */
		/* the target is read, updated and written back level by level:
		 * each of its nodes is evaluated once (d[f(i)].x += e calls f once) */
		Block *oblk = s->memo_blk;
		int on = s->nmemo;
		s->memo_blk = s->blk;
		if (aug >= 0)
			val = binop(s, st, aug, expr(s, lhs, NULL), val, NULL, 1);
		write_path(s, st, lhs, val);
		s->memo_blk = oblk;
		s->nmemo = on;
		return;
	}
	Node *base = component_base(s, lhs);
	int v = name_value(s, base);
	Type tv = ty_of(s, v);
	if (lhs->kind == N_ATTR) {
		insert(s, st, base, NULL, 0, component(s, lhs, tv), rhs, aug);
	} else if (ty_is_tile(tv)) {
		Node **sb = subscripts(lhs, &n);
		tile_insert(s, st, base, sb, n, rhs, aug);
	} else if (ty_is_composite(tv)) {
		Node **sb = subscripts(lhs, &n);
		check_nsub(s, lhs, tv, n);
		insert(s, st, base, sb, n, 0, rhs, aug);
	} else {
		ERR(lhs, "'%s' object does not support item assignment", uty(tv));
	}
}

/* x = e, a, b = f(...), a[i] = e, v[k] = e, v.x = e */
static void assign(Sema *s, Node *n)
{
	Node *lhs = n->kid[0], *rhs = n->kid[1];
	if (n->nkid != 2)
		ERR(n, "chained assignment is not supported");
	switch (lhs->kind) {
	case N_NAME:
		assign_name(s, n, lhs, rhs, TY_VOID);
		return;
	case N_TUPLE:
		assign_tuple(s, n, lhs, rhs);
		return;
	case N_INDEX:
	case N_ATTR:
		assign_component(s, n, lhs, rhs, -1);
		return;
	}
	ERR(lhs, "cannot assign to this expression");
}

/* x op= e, a[i] op= e, v[k] op= e, v.x op= e */
static void augassign(Sema *s, Node *n)
{
	Node *lhs = n->kid[0], *rhs = n->kid[1];
	if (lhs->kind == N_INDEX || lhs->kind == N_ATTR) {
		assign_component(s, n, lhs, rhs, n->op);
		return;
	}
	if (lhs->kind != N_NAME)
		ERR(lhs, "cannot assign to this expression");
	check_target(s, lhs);
	Target t = {lhs, name_value(s, lhs), TY_VOID, 0};
	if (ty_is_tile(ty_of(s, t.id)))
		tile_inplace_ok(s, lhs, t.id); /* Warp's t += u changes t in place */
	binop(s, n, n->op, t.id, expr(s, rhs, NULL), &t, 1);
}

/* x: T = e, x: T: Warp does not accept variable annotations in kernels
 * or functions, so neither does ksynth. */
static KS_NORETURN void annassign(Sema *s, Node *n)
{
	ERR(n, "variable annotations are not supported (Warp rejects them); "
	       "write 'x = T(e)' to give a variable a type");
}

/* Does the statement n (re)bind name?  Range bounds read from such a name
 * are copied before the loop, since Python evaluates range() once. */
static int binds(const Node *n, const char *name)
{
	if (!n)
		return 0;
	switch (n->kind) {
	case N_ASSIGN:
	case N_AUGASSIGN:
	case N_ANNASSIGN:
	case N_FOR: {
		const Node *t = n->kid[0], *r = root_name(t);
		if (t->kind == N_TUPLE) {
			for (int i = 0; i < t->nkid; i++)
				if (is_name(t->kid[i], name))
					return 1;
		} else if (r && !strcmp(r->name, name)) {
			return 1;
		}
		return n->kind == N_FOR && binds(kid(n, 2), name);
	}
	case N_IF:
		return binds(kid(n, 1), name) || binds(kid(n, 2), name);
	case N_WHILE:
		return binds(kid(n, 1), name);
	case N_BLOCK:
		for (int i = 0; i < n->nkid; i++)
			if (binds(n->kid[i], name))
				return 1;
		return 0;
	}
	return 0;
}

/* x OP y on ints (add, sub, mul, floordiv; neg of x), folded when both
 * are constants. */
static int32_t iop(Sema *s, Node *at, int op, int32_t x, int32_t y)
{
	const Value *a = &s->f->val[x], *b = y >= 0 ? &s->f->val[y] : NULL;
	if (a->kind == VK_CONST && (!b || b->kind == VK_CONST)) {
		int64_t p = a->k.i, q = b ? b->k.i : 0,
			r = op == OP_NEG   ? -p
			    : op == OP_ADD ? p + q
			    : op == OP_SUB ? p - q
			    : op == OP_MUL ? p * q
			    : !q           ? 0
					   : p / q - (p % q && (p < 0) != (q < 0));
		if (r >= INT32_MIN && r <= INT32_MAX)
			return ir_const_int(s->m, s->f, (int)r);
	}
	int32_t args[2] = {x, y};
	return emit_val(s, at, op, TY_INT, args, op == OP_NEG ? 1 : 2, NULL);
}

/* The bounds of reversed(range(start, end, step)) from a[]'s (start, end,
 * step), in place: the same values, last first, as Python and Warp give
 * them: from start + (end - start - sign) // step * step down to start -
 * step by -step (end - step for a step of 1 or -1).  The floor division
 * leaves an empty range empty; a step of 0 runs none (x // 0 is 0).
 * Folded to constants where its arguments are. */
static void reverse_range(Sema *s, Node *at, int32_t *a)
{
	int32_t start = a[0], end = a[1], step = a[2];
	const Value *k = &s->f->val[step];
	int32_t rend = iop(s, at, OP_SUB, start, step), neg = iop(s, at, OP_NEG, step, -1);
	if (k->kind == VK_CONST && (k->k.i == 1 || k->k.i == -1)) {
		a[0] = iop(s, at, OP_SUB, end, step);
		a[1] = rend;
		a[2] = neg;
		return;
	}
	int32_t sign;
	if (k->kind == VK_CONST) {
		sign = ir_const_int(s->m, s->f, k->k.i > 0 ? 1 : -1);
	} else {
		int32_t up =
			emit_val(s, at, OP_GT, TY_BOOL, (int32_t[]){step, ir_const_int(s->m, s->f, 0)}, 2, NULL);
		sign = emit_val(s, at, OP_SELECT, TY_INT,
				(int32_t[]){up, ir_const_int(s->m, s->f, 1), ir_const_int(s->m, s->f, -1)}, 3,
				NULL);
	}
	int32_t q = iop(s, at, OP_FLOORDIV, iop(s, at, OP_SUB, iop(s, at, OP_SUB, end, start), sign), step);
	a[0] = iop(s, at, OP_ADD, start, iop(s, at, OP_MUL, q, step));
	a[1] = rend;
	a[2] = neg;
}

/* for j in range(hi), range(lo, hi), range(lo, hi, step), and in
 * reversed(range(...)) */
static void for_stmt(Sema *s, Node *n)
{
	Node *var = n->kid[0], *it = n->kid[1];
	if (n->nkid > 3 && n->kid[3])
		ERR(n, "'for ... else' is not supported");
	if (var->kind != N_NAME)
		ERR(var, "the loop variable must be a single name");
	Node *rev = NULL;
	if (it->kind == N_CALL && is_name(it->kid[0], "reversed")) {
		if (it->nkid != 2 || it->kid[1]->kind != N_CALL || !is_name(it->kid[1]->kid[0], "range"))
			ERR(it, "reversed() in a for loop takes one range(...)");
		rev = it;
		it = it->kid[1];
	}
	if (it->kind != N_CALL || !is_name(it->kid[0], "range"))
		ERR(it, "only 'for i in range(...)' and 'for i in reversed(range(...))' loops are supported");
	int na = it->nkid - 1;
	if (na < 1 || na > 3)
		ERR(it, "range() takes 1 to 3 arguments (%d given)", na);
	int32_t r[3];
	for (int i = 0; i < na; i++) {
		Node *x = it->kid[i + 1];
		if (x->kind == N_KWARG)
			ERR(x, "range() takes no keyword arguments");
		r[i] = expr(s, x, NULL);
		Type t = ty_of(s, r[i]);
		if (t != TY_INT)
			ERR(x, "range() arguments must be int, not %s%s", uty(t),
			    t == TY_FLOAT ? " (use int() to convert)" : "");
		const Value *v = &s->f->val[r[i]];
		if (i == 2 && v->kind == VK_CONST && v->k.i == 0)
			ERR(x, "range() step must not be zero");
		if ((v->kind == VK_VAR || v->kind == VK_PARAM) && binds(n->kid[2], v->name)) {
			int32_t c = ir_temp(s->m, s->f, TY_INT);
			emit(s, x, OP_MOV, &c, 1, &r[i], 1);
			r[i] = c;
		}
	}
	int32_t a[3] = {na == 1 ? ir_const_int(s->m, s->f, 0) : r[0], na == 1 ? r[0] : r[1],
			na == 3 ? r[2] : ir_const_int(s->m, s->f, 1)};
	if (rev)
		reverse_range(s, rev, a);
	check_target(s, var);
	int32_t j = map_get(&s->names, var->name);
	if (j >= 0 && s->f->val[j].kind == VK_PARAM)
		ERR(var, "parameter '%s' cannot be a loop variable; use another name", var->name);
	if (j >= 0 && ty_of(s, j) != TY_INT)
		ERR(var, "'%s' has type %s, but a loop variable is int; use another name", var->name,
		    uty(ty_of(s, j)));
	if (j < 0)
		j = new_var(s, var->name, TY_INT);
	Inst *in = emit(s, n, OP_FOR, &j, 1, a, 3);
	arena_grow(s->a, (void **)&s->loopvar, &s->caploopvar, s->nloopvar + 1, sizeof *s->loopvar);
	s->loopvar[s->nloopvar++] = var->name;
	s->nloop++;
	suite(s, &in->body, n->kid[2]);
	s->nloop--;
	s->nloopvar--;
}

/* while c: body  →  loop { c; if not c { break }; body } */
static void while_stmt(Sema *s, Node *n)
{
	Node *c = n->kid[0];
	if (n->nkid > 2 && n->kid[2])
		ERR(n, "'while ... else' is not supported");
	Inst *in = emit(s, n, OP_LOOP, NULL, 0, NULL, 0);
	Block *old = s->blk;
	s->blk = &in->body;
	if (!(c->kind == N_BOOL && c->ival)) {
		int32_t v = cond(s, c, "the condition of 'while'");
		int32_t nv = emit_val(s, c, OP_NOT, TY_BOOL, &v, 1, NULL);
		Inst *br = emit(s, c, OP_IF, NULL, 0, &nv, 1);
		ir_emit(s->m, &br->body, OP_BREAK, NULL, 0, NULL, 0, loc_of(c));
	}
	s->blk = old;
	s->nloop++;
	suite(s, &in->body, n->kid[1]);
	s->nloop--;
}

void check_ret_type(Sema *s, Node *at, Type t)
{
	if (ty_is_array(t))
		ERR(at, "functions cannot return arrays");
}

/* return, return e, return a, b, return f(...) of a multi-value func */
static void return_stmt(Sema *s, Node *n)
{
	Node *e = kid(n, 0);
	int32_t v[MAXOPS];
	Type ty[MAXOPS];
	int nv = 0, d;
	if (s->cur->kernel) {
		if (e)
			ERR(e, "kernels cannot return a value");
		emit(s, n, OP_RET, NULL, 0, NULL, 0);
		return;
	}
	if (e && e->kind == N_TUPLE) {
		if (e->nkid > MAXOPS)
			ERR(e, "too many return values");
		for (nv = 0; nv < e->nkid; nv++)
			v[nv] = expr(s, e->kid[nv], NULL);
	} else if (e && e->kind == N_CALL) {
		/* a call, maybe of several values (an overload's arguments
		 * evaluated once) */
		MemoScope ms = memo_open(s);
		if ((d = callee_of(s, e)) >= 0 && s->m->fn[d]->nret > 1) {
			nv = s->m->fn[d]->nret;
			func_call_temps(s, e, d, v);
		} else {
			v[nv++] = expr(s, e, NULL);
		}
		memo_close(s, ms);
	} else if (e) {
		v[nv++] = expr(s, e, NULL);
	}
	for (int i = 0; i < nv; i++)
		check_ret_type(s, e, ty[i] = ty_of(s, v[i]));
	if (s->nsig < 0) {
		s->nsig = nv;
		s->sig = arena_alloc(s->a, (size_t)(nv + 1) * sizeof *s->sig);
		memcpy(s->sig, ty, (size_t)nv * sizeof *ty);
	} else if (s->nsig != nv || memcmp(s->sig, ty, (size_t)nv * sizeof *ty)) {
		char here[200], before[200];
		fmt_types(here, sizeof here, ty, nv);
		fmt_types(before, sizeof before, s->sig, s->nsig);
		if (s->sig_ann)
			ERR(n, "'%s' returns %s but is annotated to return %s", s->f->name, here, before);
		ERR(n, "inconsistent return types in '%s': %s here, %s in an earlier return", s->f->name, here,
		    before);
	}
	emit(s, n, OP_RET, NULL, 0, v, nv);
}

/* assert c[, msg]: as Warp compiles it, a C assert that its release
 * builds (and so every launch) leave out.  The condition is evaluated,
 * as Warp evaluates it before the assert (a call in it still runs), and
 * must be a number or a bool; the message is only source text. */
static void assert_stmt(Sema *s, Node *n)
{
	int v = expr(s, n->kid[0], NULL);
	Type t = ty_of(s, v);
	if (t != TY_BOOL && !ty_is_scalar(t))
		ERR(n->kid[0], "the condition of assert must be a bool or a number, not %s", uty(t));
}

void stmt(Sema *s, Node *n)
{
	switch (n->kind) {
	case N_EXPR:
		if (n->kid[0]->kind == N_CALL)
			(void)call(s, n->kid[0], NULL, 0);
		else if (n->kid[0]->kind == N_STRING)
			ERR(n, "strings are not supported in kernels");
		else if (n->kid[0]->kind == N_ELLIPSIS)
			ERR(n, "'...' (Ellipsis) is not supported");
		else
			ERR(n, "statement has no effect");
		return;
	case N_ASSIGN:
		assign(s, n);
		return;
	case N_ANNASSIGN:
		annassign(s, n);
		return;
	case N_AUGASSIGN:
		augassign(s, n);
		return;
	case N_IF: {
		int32_t c = cond(s, n->kid[0], "the condition of 'if'");
		Inst *in = emit(s, n, OP_IF, NULL, 0, &c, 1);
		/* lowering the branches emits only into in's own blocks, so in
		 * stays valid */
		suite(s, &in->body, n->kid[1]);
		suite(s, &in->els, kid(n, 2));
		return;
	}
	case N_FOR:
		for_stmt(s, n);
		return;
	case N_WHILE:
		while_stmt(s, n);
		return;
	case N_BREAK:
	case N_CONTINUE:
		if (!s->nloop)
			ERR(n, "'%s' outside loop", n->kind == N_BREAK ? "break" : "continue");
		emit(s, n, n->kind == N_BREAK ? OP_BREAK : OP_CONTINUE, NULL, 0, NULL, 0);
		return;
	case N_RETURN:
		return_stmt(s, n);
		return;
	case N_PASS:
		return;
	case N_ASSERT:
		assert_stmt(s, n);
		return;
	case N_BLOCK:
		suite(s, s->blk, n);
		return;
	case N_DEF:
		ERR(n, "nested functions are not supported");
	case N_IMPORT:
	case N_FROMIMPORT:
		ERR(n, "imports are only allowed at module level");
	}
	ERR(n, "this statement is not supported in kernels");
}
