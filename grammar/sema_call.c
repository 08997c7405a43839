/*
 * sema_call.c: calls — float(x), int(x), bool(x) and wp.T(x) conversions,
 * the constructors of vectors, matrices, quaternions, transforms and
 * structs, the rows of the builtin table (ir/builtins.h), wp.funcs of the
 * module, len() and wp.identity() — and call(), which tells them apart.
 *
 * A builtin is resolved by ir_builtin_resolve on its arguments' types,
 * the rule the verifier uses; a refusal lists the overloads.  Keyword
 * arguments are bound by the parameter names of the table's first row (a
 * builtin) or of the callee (a wp.func, whose defaults fill the rest).
 * A random draw advances the variable it draws from, as Warp's does; a
 * builtin of several results (svd3, qr3, eig3) is one instruction that
 * defines them all, in either of Warp's forms.  A wp.func's callee was
 * lowered before its caller (sema.h), so its signature is known here.
 */
#include <string.h>

#include "sema.h"

/* Lower the positional arguments of a call into a[] and their types into
 * ty[]; keyword arguments are an error (what: the callee, for it). */
static int call_args(Sema *s, Node *e, int32_t *a, Type *ty, const char *what)
{
	int n = e->nkid - 1;
	if (n > MAXOPS)
		ERR(e, "too many arguments (%d) in one call", n);
	for (int i = 0; i < n; i++) {
		Node *x = e->kid[i + 1];
		if (x->kind == N_KWARG)
			ERR(x, "%s takes no keyword arguments; pass '%s' by position", what, x->name);
		a[i] = expr(s, x, NULL);
		ty[i] = ty_of(s, a[i]);
	}
	return n;
}

/* float(x), int(x), bool(x), wp.float64(x), wp.uint8(x), ...: a literal
 * becomes a constant of the type (exactly: wp.float64(0.1) is the double
 * nearest 0.1); a value of the type is itself (how Warp code marks a
 * variable as mutable: p = float(0.0)); any other number is converted. */
static int convert(Sema *s, Node *e, const char *what, Type want, Target *t)
{
	int32_t a[MAXOPS];
	Type ty[MAXOPS];
	int nargs = e->nkid - 1, k;
	if (nargs != 1)
		ERR(e, "%s() takes 1 argument (%d given)", what, nargs);
	if (e->kid[1]->kind == N_KWARG)
		ERR(e->kid[1], "%s() takes no keyword arguments", what);
	if ((k = typed_literal(s, e->kid[1], want)) >= 0)
		return k;
	call_args(s, e, a, ty, what);
	if (ty[0] == want)
		return a[0];
	if (ir_op_type(OP_CONV, ty, 1, want) == TY_VOID)
		ERR(e->kid[1], "%s() argument must be a number%s, not %s", what, want == TY_BOOL ? " or bool" : "",
		    uty(ty[0]));
	return emit_val(s, e, OP_CONV, want, a, 1, t);
}

/* One component of a constructor of want: a literal of its scalar type,
 * or a number converted to it. */
int component_arg(Sema *s, Node *x, Type want, const char *name)
{
	Type sc = ty_scalar(want);
	int v = typed_literal(s, x, sc);
	if (v >= 0)
		return v;
	v = expr(s, x, NULL);
	Type tv = ty_of(s, v);
	if (tv == sc)
		return v;
	if (!ty_is_scalar(tv))
		ERR(x, "wp.%s components must be numbers, not %s", name, uty(tv));
	if (ty_is_float(tv) && ty_is_float(sc))
		ERR(x, "wp.%s components must be %s, not %s (Warp does not convert them; use wp.%s(...))", name,
		    uty(sc), uty(tv), ty_info(sc)->warp);
	int32_t r = ir_temp(s->m, s->f, sc);
	emit(s, x, OP_CONV, &r, 1, (int32_t *)&v, 1);
	return r;
}

/* wp.vec3(...), wp.vec3d(...), wp.mat33(...), wp.quat(...),
 * wp.transform(p, q): no argument (zero), one number for every component,
 * every component, a value of the same shape and another scalar type
 * (converted), or a transform's position and rotation. */
int make(Sema *s, Node *e, Type want, Target *t)
{
	const char *name = e->kid[0]->name;
	int32_t a[MAXOPS];
	Type ty[MAXOPS];
	int n = e->nkid - 1, nc = ty_ncomp(want);
	for (int i = 0; i < n; i++)
		if (e->kid[i + 1]->kind == N_KWARG)
			ERR(e->kid[i + 1], "wp.%s() takes no keyword arguments", name);
	if (n == 1 && !literal(e->kid[1], &(int64_t){0}, &(double){0}, &(int){0})) {
		/* one value: a scalar to broadcast, or a conversion */
		a[0] = expr(s, e->kid[1], NULL);
		ty[0] = ty_of(s, a[0]);
		if (ty[0] == want)
			return a[0];
		if (ty_is_composite(ty[0])) {
			if (ty_is_xform(want) && ty_is_xform(ty[0]))
				ERR(e->kid[1],
				    "cannot make %s from %s: a transform is copied only from "
				    "one of its own scalar type",
				    uty(want), uty(ty[0]));
			if (ir_op_type(OP_CONV, ty, 1, want) == TY_VOID)
				ERR(e->kid[1], "cannot make %s from %s", uty(want), uty(ty[0]));
			return emit_val(s, e, OP_CONV, want, a, 1, t);
		}
		if (ty[0] != ty_scalar(want)) {
			if (!ty_is_scalar(ty[0]))
				ERR(e->kid[1], "wp.%s components must be numbers, not %s", name, uty(ty[0]));
			int32_t r = ir_temp(s->m, s->f, ty_scalar(want));
			emit(s, e->kid[1], OP_CONV, &r, 1, a, 1);
			a[0] = r;
		}
		return emit_val(s, e, OP_MAKE, want, a, 1, t);
	}
	if (n == 2 && (ty_is_xform(want) || ty_is_quat(want) || ty_ncomp(want) == 6)) {
		/* (p, q) of a transform, (vector part, w) of a quaternion, the
		 * two halves (w, v) of a spatial vector */
		Type s3 = ty_find(TK_VEC, ty_scalar(want), 3, 1);
		Type second = ty_is_xform(want)  ? ty_find(TK_QUAT, ty_scalar(want), 4, 1)
			      : ty_is_quat(want) ? ty_scalar(want)
						 : s3;
		a[0] = expr(s, e->kid[1], NULL);
		a[1] = ty_is_quat(want) ? component_arg(s, e->kid[2], want, name) : expr(s, e->kid[2], NULL);
		ty[0] = ty_of(s, a[0]);
		ty[1] = ty_of(s, a[1]);
		if (ir_op_type(OP_MAKE, ty, 2, want) == TY_VOID)
			ERR(e, "wp.%s(%s) takes a %s and a %s, not %s and %s", name,
			    ty_is_xform(want)  ? "p, q"
			    : ty_is_quat(want) ? "v, w"
					       : "w, v",
			    uty(s3), uty(second), uty(ty[0]), uty(ty[1]));
		return emit_val(s, e, OP_MAKE, want, a, 2, t);
	}
	if (n != 0 && n != 1 && n != nc) {
		if (ty_is_mat(want) && n == ty_rows(want))
			ERR(e,
			    "wp.%s() takes its %d components, not rows; use "
			    "wp.matrix_from_rows() or wp.matrix_from_cols()",
			    name, nc);
		ERR(e, "wp.%s() takes 0, 1 or %d arguments (%d given)", name, nc, n);
	}
	for (int i = 0; i < n; i++)
		a[i] = component_arg(s, e->kid[i + 1], want, name);
	return emit_val(s, e, OP_MAKE, want, a, n, t);
}

/* The arguments of a call, in the order of the callee's parameters named
 * pname[0..np): positional ones first, then keyword ones by name; a
 * parameter not given takes dflt[i] when there is one (else it is an
 * error).  Fills node[] with the argument nodes (NULL: the default).
 * Returns the number of parameters given or defaulted. */
int bind_args(Sema *s, Node *e, const char *what, const char *const *pname, int np, Node *const *dflt, Node **node)
{
	int n = e->nkid - 1, npos = 0;
	for (int i = 0; i < np; i++)
		node[i] = NULL;
	for (int i = 0; i < n; i++) {
		Node *x = e->kid[i + 1];
		if (x->kind != N_KWARG) {
			if (npos >= np)
				ERR(e, "%s() takes %d argument%s (%d given)", what, np, np == 1 ? "" : "s", n);
			node[npos++] = x;
			continue;
		}
		int k = -1;
		for (int j = 0; j < np; j++)
			if (pname[j] && !strcmp(pname[j], x->name))
				k = j;
		if (k < 0)
			ERR(x, "%s() has no parameter '%s'", what, x->name);
		if (node[k])
			ERR(x, "%s() got two values for '%s'", what, x->name);
		node[k] = x->kid[0];
	}
	for (int i = 0; i < np; i++)
		if (!node[i] && !(dflt && dflt[i]))
			ERR(e, "%s() is missing argument '%s'", what, pname[i] ? pname[i] : "?");
	return np;
}

/* The parameter names of a builtin row ("x: Float, low: S" gives x,
 * low); NULL where the row names none. */
static int builtin_params(int row, const char **name, char (*store)[24], int cap)
{
	const char *p = ir_builtins[row].args;
	int n = 0, depth = 0;
	while (*p && n < cap) {
		while (*p == ' ')
			p++;
		const char *w = p;
		while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		       *p == '_')
			p++;
		if (*p == ':' && p - w < 24) {
			memcpy(store[n], w, (size_t)(p - w));
			store[n][p - w] = 0;
			name[n] = store[n];
		} else {
			name[n] = NULL;
		}
		n++;
		for (; *p && !(depth == 0 && *p == ','); p++)
			depth += *p == '(' ? 1 : *p == ')' ? -1 : 0;
		if (*p == ',')
			p++;
	}
	return n;
}

/* wp.randf(state) and the other draws: the value, and the state advanced.
 * As in Warp, a draw from a variable (or parameter) advances that
 * variable, so that the next draw from it differs; a draw from any other
 * expression advances a copy.  `state = wp.randu(state)` keeps the value. */
static int draw(Sema *s, Node *e, int row, Type res, const int32_t *a, int n, Target *t)
{
	if (row == BI_SAMPLE_CDF && ty_ndim(ty_of(s, a[1])) != 1)
		ERR(e->kid[2], "wp.sample_cdf() takes a 1-D array of float, not %s", uty(ty_of(s, a[1])));
	int kind = s->f->val[a[0]].kind;
	int32_t r[2];
	r[0] = out(s, t, res);
	r[1] = (kind == VK_VAR || kind == VK_PARAM) && a[0] != r[0] ? a[0] : ir_temp(s->m, s->f, TY_UINT32);
	emit(s, e, OP_BUILTIN, r, 2, a, n)->callee = (int32_t)row;
	return r[0];
}

/* A builtin with several results (svd3, qr3, eig3), row0 its first row,
 * in either of Warp's forms, lowered to one instruction that defines them:
 *
 *     U, sigma, V = wp.svd3(A)      lhs, the tuple of names it binds
 *     wp.svd3(A, U, sigma, V)       into variables assigned before
 *
 * (a statement wp.svd3(A) computes them into temps nobody reads). */
int several(Sema *s, Node *e, const char *name, int row0, Node *lhs, int want)
{
	const char *pname[16];
	char store[16][24];
	Node *node[16];
	int nin = builtin_params(row0, pname, store, 16), nout = ir_builtin_nres(row0);
	for (int k = 0; k < nout && nin + k < 16; k++) {
		ir_builtin_result_name(row0, k, store[nin + k], sizeof store[0]);
		pname[nin + k] = store[nin + k];
	}
	char what[64];
	snprintf(what, sizeof what, "wp.%s", name);
	int np = e->nkid - 1 > nin ? nin + nout : nin;
	for (int i = 1; i < e->nkid; i++)
		if (e->kid[i]->kind == N_KWARG)
			for (int k = nin; k < nin + nout; k++)
				if (!strcmp(e->kid[i]->name, pname[k]))
					np = nin + nout;
	if (lhs && np > nin)
		ERR(e, "%s() with its outputs as arguments returns nothing to assign", what);
	if (want && np == nin) {
		char names[96] = "";
		for (int k = 0; k < nout; k++) {
			size_t w = strlen(names);
			snprintf(names + w, sizeof names - w, "%s%s", k ? ", " : "", pname[nin + k]);
		}
		ERR(e, "%s() returns %d values; unpack them with '%s = %s(...)'", what, nout, names, what);
	}
	if (want)
		ERR(e, "%s() does not return a value", what);
	bind_args(s, e, what, pname, np, NULL, node);
	int32_t a[16], res[4];
	Type ty[16], rt[4];
	for (int i = 0; i < nin; i++) {
		a[i] = expr(s, node[i], NULL);
		ty[i] = ty_of(s, a[i]);
	}
	int row = ir_builtin_resolve(name, ty, nin, &rt[0]);
	if (row < 0) {
		char got[256] = "", sigs[600];
		for (int i = 0; i < nin; i++) {
			size_t w = strlen(got);
			snprintf(got + w, sizeof got - w, "%s%s", i ? ", " : "", uty(ty[i]));
		}
		ir_builtin_signatures(name, sigs, sizeof sigs);
		ERR(e, "no overload of %s for (%s); expected %s", what, got, sigs);
	}
	ir_builtin_results(row, ty, nin, rt);
	if (np > nin) {
		/* the outputs: variables of the results' types */
		for (int k = 0; k < nout; k++) {
			Node *x = node[nin + k];
			int v = x->kind == N_NAME ? map_get(&s->names, x->name) : -1;
			if (v < 0 || s->f->val[v].kind != VK_VAR)
				ERR(x,
				    "output '%s' of %s() must be a local variable assigned before the call "
				    "(%s = wp.%s())",
				    pname[nin + k], what, pname[nin + k], uty(rt[k]));
			if (ty_of(s, v) != rt[k])
				ERR(x, "output '%s' of %s() must be %s, not %s", pname[nin + k], what, uty(rt[k]),
				    uty(ty_of(s, v)));
			for (int j = 0; j < k; j++)
				if (res[j] == v)
					ERR(x, "'%s' receives two outputs of %s()", x->name, what);
			res[k] = v;
		}
	} else if (lhs) {
		if (lhs->nkid != nout)
			ERR(lhs, "cannot unpack %d values returned by %s() into %d names", nout, what, lhs->nkid);
		tuple_targets(s, lhs);
		for (int k = 0; k < nout; k++)
			res[k] = tuple_target(s, lhs, k, rt[k]);
		/* Python binds the names after evaluating the call */
		for (int k = 0; k < nout; k++)
			if (res[k] < 0)
				res[k] = new_var(s, lhs->kid[k]->name, rt[k]);
	} else {
		for (int k = 0; k < nout; k++)
			res[k] = ir_temp(s->m, s->f, rt[k]);
	}
	emit(s, e, OP_BUILTIN, res, nout, a, nin)->callee = (int32_t)row;
	return -1;
}

/* wp.NAME(...) for a row of builtins.h.  Without want the result, if any,
 * is dropped (an expression statement: atomics, mostly). */
/* The default value of parameter k of row, as a constant. */
static int32_t builtin_default(Sema *s, int row, int k)
{
	Type t;
	double v;
	ir_builtin_default(row, k, &t, &v);
	return ir_const(s->m, s->f, t, (int64_t)v, v);
}

static int builtin(Sema *s, Node *e, const char *name, Target *t, int want)
{
	int arity = -1, nrow = 0, haskw = 0, first = -1;
	for (int r = ir_builtin_first(name); r >= 0; r = ir_builtin_next(r)) {
		if ((ir_builtins[r].flags & BF_KERNEL_ONLY) && !s->cur->kernel)
			ERR(e, "wp.%s() can only be called in a kernel", name);
		int k = ir_builtin_arity(r);
		arity = nrow++ == 0 || arity == k ? k : -2;
		if (first < 0)
			first = r;
	}
	if (ir_builtin_nres(first) > 1)
		return several(s, e, name, first, NULL, want);
	for (int i = 1; i < e->nkid; i++)
		haskw |= e->kid[i]->kind == N_KWARG;
	int32_t a[MAXOPS];
	Type ty[MAXOPS];
	int n;
	if (haskw) {
		/* keyword arguments: by the names of the first row (Warp names
		 * the parameters of every overload alike) */
		const char *pname[16];
		char store[16][24];
		Node *node[16], *dflt[16];
		int np = builtin_params(first, pname, store, 16);
		char what[64];
		snprintf(what, sizeof what, "wp.%s", name);
		for (int i = 0; i < np; i++) {
			if (!pname[i])
				ERR(e, "wp.%s() takes no keyword arguments", name);
			Type dt;
			double dv;
			dflt[i] = ir_builtin_default(first, i, &dt, &dv) ? e : NULL; /* a mark: it has one */
		}
		n = bind_args(s, e, what, pname, np, dflt, node);
		for (int i = 0; i < n; i++) {
			a[i] = node[i] ? expr(s, node[i], NULL) : builtin_default(s, first, i);
			ty[i] = ty_of(s, a[i]);
		}
	} else {
		char what[64];
		snprintf(what, sizeof what, "wp.%s()", name);
		n = call_args(s, e, a, ty, what);
		/* the parameters left out, where each has a default */
		Type dt;
		double dv;
		while (n < arity && n < MAXOPS && ir_builtin_default(first, n, &dt, &dv)) {
			a[n] = builtin_default(s, first, n);
			ty[n] = ty_of(s, a[n]);
			n++;
		}
	}
	Type res;
	int row = ir_builtin_resolve(name, ty, n, &res);
	if (row >= 0 && (ir_builtins[row].flags & BF_INTERNAL))
		row = -1; /* kdiff's, not the language's */
	if (row < 0) {
		char got[256] = "", sigs[600];
		int least = arity;
		Type dt;
		double dv;
		while (least > 0 && ir_builtin_default(first, least - 1, &dt, &dv))
			least--;
		if (arity >= 0 && least < arity && (n < least || n > arity))
			ERR(e, "wp.%s() takes %d to %d arguments (%d given)", name, least, arity, n);
		if (arity >= 0 && arity != n)
			ERR(e, "wp.%s() takes %d argument%s (%d given)", name, arity, arity == 1 ? "" : "s", n);
		for (int i = 0; i < n; i++) {
			size_t w = strlen(got);
			snprintf(got + w, sizeof got - w, "%s%s", i ? ", " : "", uty(ty[i]));
		}
		ir_builtin_signatures(name, sigs, sizeof sigs);
		ERR(e, "no overload of wp.%s for (%s); expected %s%s", name, got, nrow > 1 ? "one of: " : "", sigs);
	}
	if (want && res == TY_VOID)
		ERR(e, "wp.%s() does not return a value", name);
	if (ir_builtins[row].flags & BF_STATE)
		return draw(s, e, row, res, a, n, t);
	int32_t r = want ? out(s, t, res) : -1;
	/* wp.mod and wp.invert of numbers are the operators % and ~ */
	if (row == BI_MOD_F || row == BI_MOD_I || row == BI_INVERT) {
		int32_t v = r >= 0 ? r : ir_temp(s->m, s->f, res); /* an operator has a value */
		emit(s, e, row == BI_INVERT ? OP_INVERT : OP_MOD, &v, 1, a, n);
		return r;
	}
	Inst *in = emit(s, e, OP_BUILTIN, &r, r >= 0, a, n);
	in->callee = (int32_t)row;
	return r;
}

MemoScope memo_open(Sema *s)
{
	MemoScope m = {s->memo_blk, s->nmemo};
	s->memo_blk = s->blk;
	return m;
}

void memo_close(Sema *s, MemoScope m)
{
	s->memo_blk = m.blk;
	s->nmemo = m.n;
}

/* The types of call e's arguments, each evaluated (in the caller's memo
 * scope), and their keywords (NULL for a positional one); their count. */
static int arg_types(Sema *s, Node *e, Type *at, const char **an)
{
	int n = e->nkid - 1;
	if (n > MAXOPS)
		ERR(e, "too many arguments");
	for (int i = 0; i < n; i++) {
		Node *x = e->kid[i + 1];
		an[i] = x->kind == N_KWARG ? x->name : NULL;
		at[i] = ty_of(s, expr(s, x->kind == N_KWARG ? x->kid[0] : x, NULL));
	}
	return n;
}

/* Def c's IR function, or NULL (a generic's, or none yet). */
static const Func *def_func(const Sema *s, int c) { return s->def[c].fn >= 0 ? s->m->fn[s->def[c].fn] : NULL; }

/* Do the n arguments of a call, of types at (an: each one's keyword, or
 * NULL), fill the parameters of wp.func d: each once, of its type exactly,
 * the rest with defaults? */
static int overload_fits(Sema *s, int n, int d, const Type *at, const char *const *an)
{
	const Func *g = def_func(s, d);
	if (!g)
		return 0;
	int np = g->nparam, got[MAXOPS] = {0};
	if (n > np)
		return 0;
	for (int i = 0, pos = 0; i < n; i++) {
		int k = -1;
		if (!an[i])
			k = pos++;
		for (int j = 0; an[i] && j < np; j++)
			if (!strcmp(g->val[g->param[j]].name, an[i]))
				k = j;
		if (k < 0 || got[k] || g->val[g->param[k]].ty != at[i])
			return 0;
		got[k] = 1;
	}
	for (int j = 0; j < np; j++)
		if (!got[j] && !(s->def[d].dflt && s->def[d].dflt[j]))
			return 0;
	return 1;
}

static int same_signature(const Func *a, const Func *b)
{
	if (a->nparam != b->nparam)
		return 0;
	for (int i = 0; i < a->nparam; i++) {
		const Value *x = &a->val[a->param[i]], *y = &b->val[b->param[i]];
		if (x->ty != y->ty || strcmp(x->name, y->name))
			return 0;
	}
	return 1;
}

/* The overload of wp.func d's name that call e takes, as Warp chooses it:
 * the first, in source order, whose parameters take the arguments' types
 * exactly (defaults filling the rest), or a later one of its signature.
 * The arguments are evaluated here;
 * the caller keeps a memo scope open (memo_open) until the call is made,
 * so that they are evaluated once. */
int pick_overload(Sema *s, Node *e, int d)
{
	if (!s->def[d].overloaded)
		return d;
	Type at[MAXOPS];
	const char *an[MAXOPS];
	int n = arg_types(s, e, at, an);
	return overload_for(s, e, d, at, an, n);
}

int overload_for(Sema *s, Node *e, int d, const Type *at, const char *const *an, int n)
{
	if (!s->def[d].overloaded)
		return d;
	int failed = -1;
	for (int c = d; c >= 0; c = s->def[c].next) {
		if (s->def[c].failed) {
			failed = c;
			continue;
		}
		if (!overload_fits(s, n, c, at, an))
			continue;
		/* a later def of the same signature (parameter names and
		 * types) replaces it, as in Warp */
		for (int r = s->def[c].next; r >= 0; r = s->def[r].next)
			if (!s->def[r].failed && def_func(s, r) && same_signature(def_func(s, c), def_func(s, r)))
				c = r;
		if (s->def + c == s->cur)
			ERR(e, "recursion is not supported: '%s' calls itself", s->def[c].name);
		return c;
	}
	if (failed >= 0)
		ERR(e, "'%s' (line %d) does not compile", s->def[failed].name, s->def[failed].line);
	char got[256], sigs[600] = "";
	fmt_types(got, sizeof got, at, n);
	for (int c = d; c >= 0; c = s->def[c].next) {
		const Func *g = def_func(s, c);
		Type pt[MAXOPS];
		char one[256];
		if (!g) {
			size_t w = strlen(sigs);
			snprintf(sigs + w, sizeof sigs - w, "%s(Any, ...)", w ? ", " : "");
			continue;
		}
		for (int j = 0; j < g->nparam; j++)
			pt[j] = g->val[g->param[j]].ty;
		fmt_types(one, sizeof one, pt, g->nparam);
		size_t w = strlen(sigs);
		snprintf(sigs + w, sizeof sigs - w, "%s(%s)", w ? ", " : "", one);
	}
	ERR(e, "no overload of '%s' takes (%s); its overloads take %s", s->def[d].name, got, sigs);
}

int call_target(Sema *s, Node *e, int d)
{
	if (!s->def[d].generic)
		return s->def[d].fn;
	Type at[MAXOPS];
	const char *an[MAXOPS];
	arg_types(s, e, at, an);
	return instance(s, e, d, at, an);
}

int callee_of(Sema *s, Node *e)
{
	int d = -1;
	if (e->kind != N_CALL)
		return -1;
	if (e->kid[0]->kind == N_NAME)
		d = def_find(s, e->kid[0]->name);
	else if (module_attr(s, e->kid[0], &d) != MA_DEF)
		return -1;
	if (d >= 0 && s->def[d].failed)
		ERR(e, "'%s' (line %d) does not compile", s->def[d].name, s->def[d].line);
	if (d < 0 || s->def[d].kernel)
		return -1;
	return call_target(s, e, pick_overload(s, e, d));
}

/* The arguments of a call to IR function fn, checked against its
 * parameters; defaults fill what is not given. */
int func_args(Sema *s, Node *e, int fn, int32_t *a)
{
	Func *g = s->m->fn[fn];
	Node *const *dflt = s->def[s->fndef[fn]].dflt;
	const char *pname[MAXOPS];
	Node *node[MAXOPS];
	for (int i = 0; i < g->nparam; i++)
		pname[i] = g->val[g->param[i]].name;
	int n = bind_args(s, e, g->name, pname, g->nparam, dflt, node);
	for (int i = 0; i < n; i++) {
		Type pt = g->val[g->param[i]].ty;
		Node *x = node[i] ? node[i] : dflt[i];
		int k = node[i] ? -1 : typed_literal(s, x, pt); /* a default is converted */
		a[i] = k >= 0 ? k : expr(s, x, NULL);
		Type at = ty_of(s, a[i]);
		if (at != pt)
			ERR(x, "argument '%s' of %s() must be %s, not %s%s", pname[i], g->name, uty(pt), uty(at),
			    assign_hint(pt, at));
	}
	return n;
}

/* The call to fn, its results written to res[] (one per returned value). */
void func_call(Sema *s, Node *e, int fn, const int32_t *res, const int32_t *a, int n)
{
	emit(s, e, OP_CALL, res, s->m->fn[fn]->nret, a, n)->callee = (int32_t)fn;
}

/* A call returning several values into fresh temps (return f(x)). */
void func_call_temps(Sema *s, Node *e, int fn, int32_t *res)
{
	Func *g = s->m->fn[fn];
	int32_t a[MAXOPS];
	int n = func_args(s, e, fn, a);
	for (int i = 0; i < g->nret; i++)
		res[i] = ir_temp(s->m, s->f, g->ret[i]);
	func_call(s, e, fn, res, a, n);
}

/* len(a): an array's first dimension, a vector's or matrix's length */
static int len_value(Sema *s, Node *e, Target *t)
{
	if (e->nkid != 2 || e->kid[1]->kind == N_KWARG)
		ERR(e, "len() takes 1 argument");
	int arr = array_of(s, e->kid[1]);
	if (arr >= 0) {
		int32_t a[2] = {arr, ir_const_int(s->m, s->f, 0)};
		return emit_val(s, e, OP_SHAPE, TY_INT, a, 2, t);
	}
	int v = expr(s, e->kid[1], NULL);
	Type tv = ty_of(s, v);
	if (!ty_is_composite(tv))
		ERR(e->kid[1], "len() of %s is not supported", uty(tv));
	return ir_const_int(s->m, s->f, ty_rows(tv));
}

/* wp.identity(n=N, dtype=T): the N x N identity matrix of the float T, N
 * a literal; a make of its components. */
static int identity(Sema *s, Node *e, Target *t)
{
	static const char *const pname[2] = {"n", "dtype"};
	Node *node[2];
	int64_t n;
	double x;
	int isf;
	bind_args(s, e, "wp.identity", pname, 2, NULL, node);
	if (!literal(node[0], &n, &x, &isf) || isf)
		ERR(node[0], "wp.identity() needs its size n as an int literal");
	Type dt = ann_type(s, node[1]);
	Type mt = ty_is_float(dt) && n > 0 && n <= 6 ? ty_find(TK_MAT, dt, (int)n, (int)n) : TY_VOID;
	if (mt == TY_VOID)
		ERR(e, "no %lldx%lld matrix of %s: wp.identity() takes n = 2, 3, 4 or 6 and a float dtype",
		    (long long)n, (long long)n, uty(dt));
	int32_t a[36];
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			a[i * n + j] = ir_const(s->m, s->f, dt, 0, i == j ? 1.0 : 0.0);
	return emit_val(s, e, OP_MAKE, mt, a, (int)(n * n), t);
}

/* S() and S(field=value, ...): a struct, zero but for the fields named. */
static int struct_make(Sema *s, Node *e, Type ty, Target *t)
{
	int32_t v[MAXOPS];
	int fk[MAXOPS], n = 0;
	for (int i = 1; i < e->nkid; i++) {
		Node *k = e->kid[i];
		if (k->kind != N_KWARG)
			ERR(k, "struct %s takes its fields by name: %s(%s=...)", ty_name(ty), ty_name(ty),
			    ty_nfield(ty) ? ty_field(ty, 0)->name : "x");
		int f = ty_field_find(ty, k->name);
		if (f < 0)
			ERR(k, "struct %s has no field '%s'", ty_name(ty), k->name);
		for (int j = 0; j < n; j++)
			if (fk[j] == f)
				ERR(k, "field '%s' is given twice", k->name);
		v[n] = expr(s, k->kid[0], NULL);
		Type ft = ty_field(ty, f)->ty;
		if (ty_of(s, v[n]) != ft)
			ERR(k->kid[0], "field '%s' of %s is %s, not %s%s", k->name, ty_name(ty), uty(ft),
			    uty(ty_of(s, v[n])), assign_hint(ft, ty_of(s, v[n])));
		fk[n++] = f;
	}
	int r = emit_val(s, e, OP_MAKE, ty, NULL, 0, n ? NULL : t);
	for (int i = 0; i < n; i++) {
		int32_t a[2] = {r, v[i]};
		r = emit_val(s, e, OP_SETFIELD, ty, a, 2, i == n - 1 ? t : NULL);
		s->blk->v[s->blk->n - 1].callee = fk[i];
	}
	return r;
}

/* A call of IR function d (want: of one value, else a statement). */
static int user_call(Sema *s, Node *e, int d, Target *t, int want)
{
	Func *g = s->m->fn[d];
	const char *name = s->def[s->fndef[d]].name;
	int32_t res[MAXOPS];
	if (want && g->nret == 0)
		ERR(e, "'%s' does not return a value", name);
	if (want && g->nret > 1)
		ERR(e, "'%s' returns %d values; unpack them with 'a, b = %s(...)'", name, g->nret, name);
	if (!want) {
		func_call_temps(s, e, d, res);
		return -1;
	}
	int32_t a[MAXOPS];
	int n = func_args(s, e, d, a);
	res[0] = out(s, t, g->ret[0]);
	func_call(s, e, d, res, a, n);
	return res[0];
}

/* A call of Warp's NAME (wp.NAME(...), or NAME(...) where the module
 * binds no NAME): a conversion, a constructor, the language's or a
 * builtin; -2 when Warp has no such NAME. */
static int wp_call(Sema *s, Node *e, const char *name, Target *t, int want)
{
	Type ty = wp_type(name);
	if (ty_is_scalar(ty) || ty == TY_BOOL) {
		char what[32];
		snprintf(what, sizeof what, "wp.%s", name);
		return convert(s, e, what, ty, t);
	}
	if (ty_is_composite(ty))
		return make(s, e, ty, t);
	int v = lang_call(s, e, name, t, want);
	if (v != -2 || (v = tile_call(s, e, name, t, want)) != -2)
		return v;
	if (ir_builtin_public(name))
		return builtin(s, e, name, t, want);
	if (!strcmp(name, "identity"))
		return identity(s, e, t);
	return -2;
}

/* A call of def d, named name at the call (a wp.func: its overload for
 * the arguments, or its instance; a kernel is an error). */
static int def_call(Sema *s, Node *e, int d, const char *name, Target *t, int want)
{
	if (s->def[d].kernel)
		ERR(e, "kernels cannot be called from kernels or functions; use a wp.func");
	if (s->def[d].failed)
		ERR(e, "'%s' (line %d) does not compile", name, s->def[d].line);
	MemoScope ms = memo_open(s);
	int v = user_call(s, e, call_target(s, e, pick_overload(s, e, d)), t, want);
	memo_close(s, ms);
	return v;
}

/* A call of type ty, named name at the call (an alias or a struct): a
 * conversion or a constructor; -2 for a type that cannot be called. */
static int type_call(Sema *s, Node *e, const char *name, Type ty, Target *t)
{
	if (ty_is_scalar(ty) || ty == TY_BOOL)
		return convert(s, e, name, ty, t);
	if (ty_is_composite(ty))
		return make(s, e, ty, t);
	if (ty_is_struct(ty))
		return struct_make(s, e, ty, t);
	return -2;
}

/* A call: conversions, constructors, builtins and wp.funcs.  want: the
 * call must produce one value (else it is a statement). */
int call(Sema *s, Node *e, Target *t, int want)
{
	Node *fn = e->kid[0];
	if (fn->kind == N_NAME) {
		const char *name = fn->name;
		int d = def_find(s, name);
		if (map_get(&s->names, name) >= 0)
			ERR(fn, "'%s' is a variable, not a function", name);
		if (d >= 0)
			return def_call(s, e, d, name, t, want);
		int alias = map_get(&s->sc->typealias, name), v;
		if (alias >= 0 && (v = type_call(s, e, name, (Type)alias, t)) != -2)
			return v;
		if (!strcmp(name, "float"))
			return convert(s, e, "float", TY_FLOAT, t);
		if (!strcmp(name, "int"))
			return convert(s, e, "int", TY_INT, t);
		if (!strcmp(name, "bool"))
			return convert(s, e, "bool", TY_BOOL, t);
		if (!strcmp(name, "len"))
			return len_value(s, e, t);
		if (!strcmp(name, "range"))
			ERR(e, "range() can only be used in 'for ... in range(...)'");
		if (!strcmp(name, "print")) {
			if (want)
				ERR(e, "print() does not return a value");
			print_call(s, e);
			return -1;
		}
		int k = map_get(&s->sc->skipped, name);
		if (k >= 0)
			skipped_use(s, fn, k);
		/* a name the module does not bind is Warp's, as Warp looks it up:
		 * min(a, b) is wp.min(a, b), vec3(x, y, z) is wp.vec3(...) */
		v = wp_call(s, e, name, t, want);
		if (v != -2)
			return v;
		ERR(fn, "name '%s' is not defined", name);
	}
	int ma, mv;
	if ((ma = module_attr(s, fn, &mv))) {
		/* M.NAME(...): a func or a type of module M */
		int v;
		if (ma == MA_DEF)
			return def_call(s, e, mv, fn->name, t, want);
		if (ma == MA_TYPE && (v = type_call(s, e, fn->name, (Type)mv, t)) != -2)
			return v;
		if (ma == MA_HOST)
			skipped_use(s, fn, mv);
		if (ma == MA_NONE)
			ERR(fn, "module '%s' has no '%s' that a kernel can use", fn->kid[0]->name, fn->name);
		ERR(e, "'%s.%s' cannot be called", fn->kid[0]->name, fn->name);
	}
	if (is_wp_attr(fn)) {
		int v = wp_call(s, e, fn->name, t, want);
		if (v != -2)
			return v;
		if (array_spelling(fn) >= 0)
			ERR(e, "wp.%s() can only be used in a parameter annotation", fn->name);
		ERR(fn, "wp.%s() is not supported in kernels", fn->name);
	}
	if (fn->kind == N_ATTR)
		ERR(fn, "method calls are not supported");
	ERR(e, "this expression cannot be called");
}
