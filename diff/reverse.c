/*
 * reverse.c: the reverse sweep.  rev_tape walks a Tape (forward.c)
 * backwards; the reverse of an instruction adds its contributions to its
 * operands' adjoints (acc), then clears its result's adjoint, so that a
 * loop body's adjoints start from zero on every trip.  The contributions
 * are the derivative rules: a builtin's row (ir/builtins.h) or an
 * opcode's (op_rule), lowered by rule.c; array accesses and atomics,
 * vector and matrix components, conversions and struct fields are
 * written here, a store's reverse restoring the value the forward sweep
 * kept.  An if's records are reversed in an if on the same condition, a
 * loop by rev_loop (loop.c), a call by rev_call (func.c).
 */
#include <string.h>

#include "diff_int.h"

static int is_floaty(Type t) { return diff_floaty(t) && !ty_is_struct(t); }

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

/* t[i, j] = x, set by the thread that computes the element: that
 * thread's x takes the element's adjoint (every thread reads it, the
 * others add zero), and t's adjoint is the result's with the element
 * cleared. */
static void rev_tile_insert(D *d, Rec *r, int g, Block *out)
{
	DiffEmit e = de(d, out, r->loc);
	Type t = vty(d, r->arg[0]);
	int n = r->narg - 2, x = r->arg[r->narg - 1];
	int32_t ix[2 + KS_MAX_NDIM];
	memcpy(ix, r->arg, (size_t)r->narg * sizeof *ix);
	ix[0] = g;
	if (diff_floaty(vty(d, x))) {
		int k = r->arg[1];
		for (int i = 1; i < n; i++) {
			int32_t m[2] = {k, ir_const_int(d->m, d->g, ty_extent(t, i))};
			k = diff_op(&e, OP_MUL, m, 2, TY_VOID);
			k = diff_op(&e, OP_ADD, (int32_t[]){k, r->arg[1 + i]}, 2, TY_VOID);
		}
		int own = diff_builtin(&e, "lane_owns", &k, 1);
		int el = diff_op(&e, OP_EXTRACT, ix, n + 1, TY_VOID);
		int sel[3] = {own, el, diff_zero(&e, vty(d, x))};
		acc(d, out, x, diff_op(&e, OP_SELECT, sel, 3, TY_VOID), r->loc);
	}
	ix[n + 1] = diff_zero(&e, ty_elem(t));
	acc(d, out, r->arg[0], diff_op(&e, OP_INSERT, ix, n + 2, TY_VOID), r->loc);
}

static void rev_make(D *d, Rec *r, int g, Block *out)
{
	DiffEmit e = de(d, out, r->loc);
	Type t = vty(d, r->res[0]);
	int n = ty_cols(t), nc = ty_ncomp(t);
	if (r->narg == 0)
		return;
	if (ty_is_tile(t)) {
		/* a tile full of x: x's adjoint is the sum of the tile's (each
		 * thread's x filled the elements it computes: its share) */
		acc(d, out, r->arg[0], diff_builtin(&e, "tile_share", &g, 1), r->loc);
		return;
	}
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
			c3[c / 3][c % 3] =
				diff_op(&e, OP_EXTRACT, (int32_t[]){g, ir_const_int(d->m, d->g, c)}, 2, TY_VOID);
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
			comp = diff_op(
				&e, OP_EXTRACT,
				(int32_t[]){g, ir_const_int(d->m, d->g, c / n), ir_const_int(d->m, d->g, c % n)}, 3,
				TY_VOID);
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
	if (r->op == OP_TILE_RAND)
		return ""; /* random draws, of constant bounds: Warp's have no derivative either */
	/* clang-format off */
	if (ty_is_tile(a) || ty_is_tile(b)) {
		/* element by element; a number's adjoint sums over the tile:
		 * each thread's number over the elements it computes, its share */
		switch (r->op) {
		case OP_TILE_ARANGE: return ""; /* of constants */
		case OP_MOV: return "g";
		case OP_NEG: return "-g";
		case OP_ADD: return "g; g";
		case OP_SUB: return "g; -g";
		case OP_MUL:
			if (ty_is_composite(ty_is_tile(a) ? ty_elem(a) : ty_elem(b))) {
				/* vectors by numbers, element by element */
				if (sa && ty_is_vec(ty_elem(b))) return "tile_share(dot(g, b)); g * a";
				if (sb && ty_is_vec(ty_elem(a))) return "g * b; tile_share(dot(g, a))";
				return NULL;
			}
			if (sa) return "tile_share(g * b); g * a";
			if (sb) return "g * b; tile_share(g * a)";
			return "g * b; g * a";
		case OP_DIV:
			if (ty_is_composite(ty_elem(a)))
				return sb && ty_is_vec(ty_elem(a)) ? "g / b; -tile_share(dot(g, r)) / b" : NULL;
			if (sb) return "g / b; -tile_share(g * r) / b";
			return "g / b; -(g * r) / b";
		}
		return NULL;
	}
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
	/* clang-format on */
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
		/* clang-format off */
		int32_t v[12] = {-1, -1, -1, r->res[0], g[0], r->res[1], g[1],
				 r->nres > 2 ? r->res[2] : -1, g[2], -1, -1, -1};
		/* clang-format on */
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
	if (r->op == OP_BUILTIN && ir_builtin_atomic(r->callee)) {
		rev_atomic(d, r, out);
		if (r->old >= 0) {
			int32_t x[KS_MAX_NDIM + 2];
			emit(d, out, OP_STORE, NULL, 0, x,
			     access_args(x, r->arg[0], r->arg + 1, ty_ndim(vty(d, r->arg[0])), r->old), r->loc);
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
	if (r->op == OP_TILE_ATOMIC_ADD || r->op == OP_TILE_ATOMIC_ADD_INDEXED) {
		/* a tile added into an array: the tile's adjoint is the
		 * adjoint array's tile there (through the same indices) */
		int ga = adjarr_of(d, r->arg[0]), t = r->arg[1];
		if (ga < 0 || !diff_floaty(vty(d, t)))
			return;
		int32_t ld[3 + KS_MAX_NDIM] = {ga};
		memcpy(ld + 1, r->arg + 2, (size_t)(r->narg - 2) * sizeof *ld);
		int g = ir_temp(d->m, d->g, vty(d, t));
		emit(d, out, r->op == OP_TILE_ATOMIC_ADD ? OP_TILE_LOAD : OP_TILE_LOAD_INDEXED, &g, 1, ld,
		     r->narg - 1, r->loc);
		acc(d, out, t, g, r->loc);
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
	case OP_TILE_BROADCAST:
	case OP_TILE_SUM_TO:
	case OP_TILE_RESHAPE: {
		/* a broadcast's adjoint sums back, a sum's broadcasts, a
		 * reshape's reshapes back */
		int back = r->op == OP_TILE_BROADCAST ? OP_TILE_SUM_TO
			   : r->op == OP_TILE_SUM_TO  ? OP_TILE_BROADCAST
						      : OP_TILE_RESHAPE;
		if (diff_floaty(vty(d, r->arg[0])))
			acc(d, out, r->arg[0], diff_op(&e, back, &g, 1, vty(d, r->arg[0])), r->loc);
		break;
	}
	case OP_TILE_LOAD:
	case OP_TILE_LOAD_INDEXED: {
		/* a load's adjoint is a scatter-add (through the same indices):
		 * blocks may load one element */
		int ga = adjarr_of(d, r->arg[0]);
		if (ga < 0)
			break;
		int32_t x[4 + KS_MAX_NDIM] = {ga, g};
		memcpy(x + 2, r->arg + 1, (size_t)(r->narg - 1) * sizeof *x);
		emit(d, out, r->op == OP_TILE_LOAD ? OP_TILE_ATOMIC_ADD : OP_TILE_ATOMIC_ADD_INDEXED, NULL, 0, x,
		     r->narg + 1, r->loc);
		break;
	}
	case OP_MAKE:
		rev_make(d, r, g, out);
		break;
	case OP_EXTRACT: {
		int v = r->arg[0], av = adjof(d, v);
		if (av < 0)
			break;
		int32_t ix[1 + KS_MAX_NDIM + 1];
		memcpy(ix, r->arg, (size_t)r->narg * sizeof *ix);
		ix[0] = av;
		if (ty_is_tile(vty(d, v))) {
			/* every thread that read the element adds its adjoint */
			ix[r->narg] = g;
			emit(d, out, OP_TILE_ADD_AT, &av, 1, ix, r->narg + 1, r->loc);
			break;
		}
		int old = diff_op(&e, OP_EXTRACT, ix, r->narg, TY_VOID);
		ix[r->narg] = diff_op(&e, OP_ADD, (int32_t[]){old, g}, 2, TY_VOID);
		emit(d, out, OP_INSERT, &av, 1, ix, r->narg + 1, r->loc);
		break;
	}
	case OP_INSERT: {
		if (ty_is_tile(vty(d, r->arg[0]))) {
			rev_tile_insert(d, r, g, out);
			break;
		}
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
	case OP_TILE_ADD_AT: {
		/* t[i, j] += x, every thread's x: each x's adjoint is the
		 * element's, t's passes through */
		int x = r->arg[r->narg - 1];
		if (diff_floaty(vty(d, x))) {
			int32_t ix[1 + KS_MAX_NDIM];
			memcpy(ix, r->arg, (size_t)(r->narg - 1) * sizeof *ix);
			ix[0] = g;
			acc(d, out, x, diff_op(&e, OP_EXTRACT, ix, r->narg - 1, TY_VOID), r->loc);
		}
		acc(d, out, r->arg[0], g, r->loc);
		break;
	}
	case OP_TILE_VIEW: {
		/* a part of t: its adjoint is g there, zeros elsewhere */
		if (!diff_floaty(vty(d, r->arg[0])))
			break;
		int32_t x[2 + KS_MAX_NDIM] = {diff_zero(&e, vty(d, r->arg[0])), g};
		memcpy(x + 2, r->arg + 1, (size_t)(r->narg - 1) * sizeof *x);
		acc(d, out, r->arg[0], diff_op(&e, OP_TILE_ASSIGN, x, r->narg + 1, TY_VOID), r->loc);
		break;
	}
	case OP_TILE_ASSIGN: {
		/* s's adjoint is g's part where it went, t's is g with that
		 * part cleared */
		if (!diff_floaty(vty(d, r->arg[0])))
			break;
		int32_t x[2 + KS_MAX_NDIM] = {g};
		memcpy(x + 1, r->arg + 2, (size_t)(r->narg - 2) * sizeof *x);
		acc(d, out, r->arg[1], diff_op(&e, OP_TILE_VIEW, x, r->narg - 1, vty(d, r->arg[1])), r->loc);
		x[1] = diff_zero(&e, vty(d, r->arg[1]));
		memcpy(x + 2, r->arg + 2, (size_t)(r->narg - 2) * sizeof *x);
		acc(d, out, r->arg[0], diff_op(&e, OP_TILE_ASSIGN, x, r->narg, TY_VOID), r->loc);
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
		if (r->op == OP_BUILTIN && r->callee == BI_TILE_PROD && ty_elem(vty(d, r->res[0])) == TY_HALF)
			derr(d, r->loc, "kdiff cannot differentiate wp.tile_reduce(wp.mul, ...) of float16 yet");
		if (!rule)
			derr(d, r->loc, "kdiff cannot differentiate '%s' of %s and %s yet", ir_ops[r->op].name,
			     ty_name(vty(d, r->arg[0])), ty_name(vty(d, r->arg[r->narg > 1 ? 1 : 0])));
		if (!rule[0])
			break;
		if (r->narg > DIFF_MAX_RULE_ARGS)
			derr(d, r->loc, "kdiff cannot differentiate '%s' of %d arguments yet",
			     ir_builtins[r->callee].name, r->narg);
		/* the fourth argument on are d, e and f, after the results (diff_rule) */
		int32_t v[12] = {-1, -1, -1, r->res[0], g, -1, -1, -1, -1, -1, -1, -1}, o[DIFF_MAX_RULE_ARGS];
		for (int i = 0; i < r->narg; i++)
			v[i < 3 ? i : 9 + (i - 3)] = r->arg[i];
		diff_rule(&e, rule, v, r->narg, o);
		for (int i = 0; i < r->narg; i++)
			acc(d, out, r->arg[i], o[i], r->loc);
	}
	}
	zero_adj(d, out, r->res[0], r->loc);
}

/* The adjoint of a[i, ...][k...] = x (store_comp): x's is the
 * component's, which is zero then, the others untouched; the old
 * component comes back where the forward sweep kept it. */
static void rev_store_comp(D *d, Rec *r, Block *out)
{
	int a = r->arg[0], nd = ty_ndim(vty(d, a)), n = r->narg - 1, v = r->arg[n];
	int32_t x[KS_MAX_NDIM + 4];
	memcpy(x, r->arg, (size_t)n * sizeof *x);
	int ga = adjarr_of(d, a);
	if (ga >= 0 && ir_func_tiled(d->f))
		derr(d, r->loc,
		     "kdiff cannot differentiate a store of a component in a kernel on tiles yet (the threads of a "
		     "block may store one element)");
	if (ga >= 0) {
		DiffEmit e = de(d, out, r->loc);
		x[0] = ga;
		int32_t c[3] = {diff_op(&e, OP_LOAD, x, nd + 1, TY_VOID), x[nd + 1], x[n - 1]};
		int g = diff_op(&e, OP_EXTRACT, c, n - nd, TY_VOID);
		x[n] = diff_zero(&e, vty(d, g));
		emit(d, out, OP_STORE_COMP, NULL, 0, x, n + 1, r->loc);
		acc(d, out, v, g, r->loc);
	}
	if (r->old >= 0) {
		x[0] = a;
		x[n] = r->old;
		emit(d, out, OP_STORE_COMP, NULL, 0, x, n + 1, r->loc);
	}
}

/* The adjoint of tile_store a, t, offsets (tile_store_indexed a, t,
 * indices, axis, offsets): t's is the adjoint array's tile there, which
 * is zero then; the old tile comes back where the forward sweep kept it. */
static void rev_tile_store(D *d, Rec *r, Block *out)
{
	int a = r->arg[0], t = r->arg[1], n = r->narg - 2;
	int load = r->op == OP_TILE_STORE ? OP_TILE_LOAD : OP_TILE_LOAD_INDEXED;
	int32_t x[4 + KS_MAX_NDIM];
	memcpy(x, r->arg, (size_t)r->narg * sizeof *x);
	int ga = adjarr_of(d, a);
	if (ga >= 0) {
		DiffEmit e = de(d, out, r->loc);
		int32_t ld[3 + KS_MAX_NDIM] = {ga};
		memcpy(ld + 1, r->arg + 2, (size_t)n * sizeof *ld);
		int g = ir_temp(d->m, d->g, vty(d, t));
		emit(d, out, load, &g, 1, ld, n + 1, r->loc);
		x[0] = ga;
		x[1] = diff_zero(&e, vty(d, t));
		emit(d, out, r->op, NULL, 0, x, r->narg, r->loc);
		acc(d, out, t, g, r->loc);
	}
	if (r->old >= 0) {
		x[0] = a;
		x[1] = r->old;
		emit(d, out, r->op, NULL, 0, x, r->narg, r->loc);
	}
}

static void rev_store(D *d, Rec *r, Block *out)
{
	if (r->op == OP_STORE_COMP) {
		rev_store_comp(d, r, out);
		return;
	}
	if (r->op == OP_TILE_STORE || r->op == OP_TILE_STORE_INDEXED) {
		rev_tile_store(d, r, out);
		return;
	}
	int a = r->arg[0], n = r->narg - 2, v = r->arg[r->narg - 1];
	const int32_t *idx = r->arg + 1;
	int32_t x[KS_MAX_NDIM + 2];
	int ga = adjarr_of(d, a);
	if (ga >= 0 && ir_func_tiled(d->f)) {
		/* the threads of a block may all have stored there: one of them
		 * takes the element's adjoint, by an atomic exchange with zero */
		DiffEmit e = de(d, out, r->loc);
		Type et = ty_elem(vty(d, ga));
		if (!ty_is_scalar(et) && !ty_is_vec(et) && !ty_is_mat(et))
			derr(d, r->loc,
			     "kdiff cannot differentiate a store of a %s element in a kernel on tiles yet (the threads of "
			     "a block may store one element)",
			     ty_name(et));
		int g = diff_builtin(&e, "atomic_exch", x, access_args(x, ga, idx, n, diff_zero(&e, et)));
		acc(d, out, v, g, r->loc);
	} else if (ga >= 0) {
		DiffEmit e = de(d, out, r->loc);
		int g = diff_op(&e, OP_LOAD, x, access_args(x, ga, idx, n, -1), TY_VOID);
		emit(d, out, OP_STORE, NULL, 0, x, access_args(x, ga, idx, n, diff_zero(&e, vty(d, g))), r->loc);
		acc(d, out, v, g, r->loc);
	}
	if (r->old >= 0)
		emit(d, out, OP_STORE, NULL, 0, x, access_args(x, a, idx, n, r->old), r->loc);
}

void rev_tape(D *d, Tape *tp, Block *out)
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
		case R_LOOP:
			rev_loop(d, r->L, out, r->loc);
			break;
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
