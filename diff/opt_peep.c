/*
 * opt_peep.c: peepholes, once the variables kdiff made up that could be
 * temps are (opt_temps.c): rewrites of a few instructions each, so that a
 * statement of the backward pass reads as one expression.
 *
 *   - a temp copied into a variable and read nowhere else is computed
 *     into the variable (`%t = op ...; x = mov %t` is `x = op ...`);
 *   - the accumulations of one variable chain into one statement (`adj =
 *     adj + a; adj = adj + b` is `adj = adj + a + b`, the same sums in
 *     the same order);
 *   - `neg (neg x)` is x, `not (not x)` too, `a + neg b` is `a - b`;
 *   - a component of a value with that component just set is the value
 *     set;
 *   - an adjoint passed through unchanged (`x = A[j]; A[j] = 0; ...;
 *     atomic_add A, j, x`) loses the store and the add: A[j] ends as it
 *     began;
 *   - a component set twice in a row is set once;
 *   - then what these leave to fold folds (opt_fold.c, live.c): `0.0 + x`
 *     and the like;
 *   - a temp computing again what an earlier temp of its block computed,
 *     read by several instructions, gives way to that one (not for a
 *     cheap value, below: a call, a transcendental);
 *   - a cheap value (a component, a vector built of values, a negation,
 *     an operation with a constant) read in several places, or in a block
 *     nested below its own, is computed where each reads it, so that the
 *     emitters fold it into each expression.
 *
 * A temp has one definition, before its reads, and no loop carries its
 * value round; a variable may be assigned anywhere, so a rewrite that
 * moves a read of one checks that nothing assigns it in between.
 */
#include <stdlib.h>
#include <string.h>

#include "opt.h"

typedef struct Defs {
	const Inst **def;  /* per value: a temp's definition */
	const Block **blk; /* and the block holding it */
	int *uses;         /* per value: instructions reading it */
	int *ndef, *walk;  /* per value: its definitions; where in the walk the last is */
	int n, next;       /* values described; the walk's counter */
} Defs;

static void find_defs(const Opt *O, Defs *d, const Block *b)
{
	for (int i = 0; i < b->n; i++) {
		const Inst *in = &b->v[i];
		int w = d->next++;
		for (int k = 0; k < in->nres; k++) {
			d->ndef[in->res[k]]++;
			d->walk[in->res[k]] = w;
			if (V(O, in->res[k])->kind == VK_TEMP) {
				d->def[in->res[k]] = in;
				d->blk[in->res[k]] = b;
			}
		}
		for (int k = 0; k < in->narg; k++)
			d->uses[in->arg[k]]++;
		find_defs(O, d, &in->body);
		find_defs(O, d, &in->els);
	}
}

static Defs defs_new(const Opt *O)
{
	Defs d;
	int n = O->f->nval + 1;
	d.n = O->f->nval;
	d.def = xmalloc((size_t)n * sizeof *d.def);
	d.blk = xmalloc((size_t)n * sizeof *d.blk);
	d.uses = xmalloc((size_t)n * sizeof *d.uses);
	d.ndef = xmalloc((size_t)n * sizeof *d.ndef);
	d.walk = xmalloc((size_t)n * sizeof *d.walk);
	d.next = 0;
	memset(d.def, 0, (size_t)n * sizeof *d.def);
	memset(d.blk, 0, (size_t)n * sizeof *d.blk);
	memset(d.ndef, 0, (size_t)n * sizeof *d.ndef);
	memset(d.walk, 0, (size_t)n * sizeof *d.walk);
	memset(d.uses, 0, (size_t)n * sizeof *d.uses);
	find_defs(O, &d, &O->f->body);
	return d;
}

static void defs_free(Defs *d)
{
	free(d->def);
	free(d->blk);
	free(d->ndef);
	free(d->walk);
	free(d->uses);
}

/* `%t = op ...; ...; x = mov %t`, %t read there alone: `x = op ...` where
 * %t was, when nothing in between names x. */
static void copies_into_defs(Opt *O, Block *b, Defs *d)
{
	for (int i = 0; i < b->n; i++) {
		copies_into_defs(O, &b->v[i].body, d);
		copies_into_defs(O, &b->v[i].els, d);
	}
	for (int j = 0; j < b->n; j++) {
		Inst *m = &b->v[j];
		if (m->op != OP_MOV || !is_var(O, m->res[0]) || V(O, m->arg[0])->kind != VK_TEMP)
			continue;
		int t = m->arg[0], x = m->res[0];
		if (d->uses[t] != 1)
			continue;
		int i = j - 1;
		while (i >= 0 && !(b->v[i].nres == 1 && b->v[i].res[0] == t) && !mentions(&b->v[i], x))
			i--;
		if (i < 0 || b->v[i].nres != 1 || b->v[i].res[0] != t || b->v[i].op == OP_FOR)
			continue;
		int32_t *r = arena(O, sizeof *r);
		r[0] = x;
		b->v[i].res = r;
		memmove(&b->v[j], &b->v[j + 1], (size_t)(b->n - j - 1) * sizeof *b->v);
		b->n--;
		j--;
	}
}

/* x = ...; ...; x = add x, b  (nothing between naming x, nothing there
 * that the first could not move past) is %s = ...; ...; x = add %s, b:
 * one statement, the same sums in the same order; and so on along the
 * chain of a variable's accumulations. */
static void chains(Opt *O, Block *b)
{
	for (int i = 0; i < b->n; i++) {
		chains(O, &b->v[i].body);
		chains(O, &b->v[i].els);
	}
	for (int i = 0; i < b->n; i++) {
		Inst *a = &b->v[i];
		if (a->nres != 1 || !is_var(O, a->res[0]) || !ir_inst_pure(a) || a->op == OP_MAKE ||
		    a->op == OP_TILE_ADD_AT) /* it adds into its tile in place */
			continue;
		int x = a->res[0], j = i + 1, ok = 1;
		while (j < b->n && !mentions(&b->v[j], x)) {
			const Inst *m = &b->v[j];
			if (ir_op_control(m->op))
				ok = 0;
			for (int k = 0; k < m->nres && ok; k++)
				ok = !names_arg(a, m->res[k]);
			j++;
		}
		if (!ok || j >= b->n)
			continue;
		Inst *c = &b->v[j];
		if (c->op != OP_ADD || c->res[0] != x || c->arg[0] != x || c->arg[1] == x)
			continue;
		int s = ir_temp(O->m, O->f, T(O, x));
		ensure(O);
		int32_t *r = arena(O, sizeof *r);
		r[0] = s;
		a->res = r;
		int32_t *na = arena(O, 2 * sizeof *na);
		na[0] = s;
		na[1] = c->arg[1];
		c->arg = na;
	}
}

/* Does a, read where temp t is read, hold what it held where t was
 * defined?  A constant or a temp does; a variable does when the walk
 * assigns it last before t (no loop carries a temp's value around). */
static int unchanged(const Opt *O, const Defs *d, int a, int t)
{
	return !is_var(O, a) || (a < d->n && d->walk[a] < d->walk[t]);
}

/* Is e cheap enough to compute again where each of its readers is: a
 * component, a vector or matrix built of values, a negation, a conversion,
 * an operation with a constant (of numbers, vectors, matrices: never of
 * tiles)? */
static int cheap(const Opt *O, const Defs *d, int t)
{
	const Inst *e = d->def[t];
	if (ty_is_tile(T(O, t)))
		return 0; /* a loop over a tile's elements */
	for (int k = 0; k < e->narg; k++) {
		int a = e->arg[k];
		if (ty_is_array(T(O, a)) || ty_is_tile(T(O, a)))
			return 0;
		if (!unchanged(O, d, a, t))
			return 0;
	}
	switch (e->op) {
	case OP_EXTRACT:
	case OP_MAKE:
	case OP_NEG:
	case OP_NOT:
	case OP_CONV:
	case OP_SELECT:
		return 1;
	case OP_LT:
	case OP_LE:
	case OP_GT:
	case OP_GE:
		return 1;
	case OP_ADD:
	case OP_SUB:
	case OP_MUL:
	case OP_DIV:
		return is_const(O, e->arg[0]) || is_const(O, e->arg[1]);
	}
	return 0;
}

/* May operand k of in take a temp computed again there? */
static int copyable(const Inst *in, int k)
{
	if ((in->op == OP_EXTRACT || in->op == OP_INSERT) && k == 0)
		return 0; /* v.c[k] needs a name */
	return !(ir_op_tape(in->op) && k == 0) && in->op != OP_FOR;
}

/* count, per temp, its readers that may take a copy; note a block where
 * one reads it */
static void count_copyable(const Block *b, const Defs *d, int *n, const Block **ub)
{
	for (int i = 0; i < b->n; i++) {
		const Inst *in = &b->v[i];
		for (int k = 0; k < in->narg; k++)
			if (in->arg[k] < d->n && copyable(in, k)) {
				n[in->arg[k]]++;
				ub[in->arg[k]] = b;
			}
		count_copyable(&in->body, d, n, ub);
		count_copyable(&in->els, d, n, ub);
	}
}

/* A temp of a cheap instruction read by several instructions, or in a
 * block nested below its own, is computed again where each reads it (so
 * each folds it into its expression), when every reader can take it. */
static int remat(Opt *O, Block *b, Defs *d, const uint8_t *all)
{
	Block nb = {0};
	int any = 0;
	for (int i = 0; i < b->n; i++) {
		Inst *in = &b->v[i];
		any |= remat(O, &in->body, d, all);
		any |= remat(O, &in->els, d, all);
		for (int k = 0; k < in->narg; k++) {
			int t = in->arg[k];
			if (t >= d->n || !all[t] || !copyable(in, k))
				continue;
			const Inst *e = d->def[t];
			int c = ir_temp(O->m, O->f, T(O, t));
			ensure(O);
			Inst copy = *e;
			int32_t *r = arena(O, sizeof *r);
			r[0] = c;
			copy.res = r;
			append(O, &nb, &copy);
			int32_t *na = arena(O, (size_t)in->narg * sizeof *na);
			memcpy(na, in->arg, (size_t)in->narg * sizeof *na);
			na[k] = c;
			in->arg = na;
			any = 1;
		}
		append(O, &nb, in);
	}
	if (any)
		*b = nb;
	return any;
}

/* The temps remat computes again everywhere */
static uint8_t *remat_set(const Opt *O, const Defs *d)
{
	int *n = xmalloc((size_t)(d->n + 1) * sizeof *n);
	const Block **ub = xmalloc((size_t)(d->n + 1) * sizeof *ub);
	memset(n, 0, (size_t)(d->n + 1) * sizeof *n);
	memset(ub, 0, (size_t)(d->n + 1) * sizeof *ub);
	count_copyable(&O->f->body, d, n, ub);
	uint8_t *all = xmalloc((size_t)d->n + 1);
	int any = 0;
	for (int t = 0; t < d->n; t++) {
		all[t] = d->def[t] && d->uses[t] && n[t] == d->uses[t] && cheap(O, d, t) &&
			 (d->uses[t] >= 2 || ub[t] != d->blk[t]);
		any |= all[t];
	}
	free(n);
	free(ub);
	if (!any) {
		free(all);
		return NULL;
	}
	return all;
}

/* Do values u and v (temps computed before w walk) hold the same: one
 * value, equal constants, or temps computed the same from such values by
 * pure instructions? */
static int equiv(const Opt *O, const Defs *d, int u, int v, int w, int depth)
{
	if (is_const(O, u) || is_const(O, v))
		return is_const(O, u) && is_const(O, v) && const_eq(O, u, v);
	if (u == v)
		/* a variable: last assigned before */
		return !is_var(O, u) || (u < d->n && d->walk[u] < w);
	if (depth > 6 || u >= d->n || v >= d->n)
		return 0;
	const Inst *x = d->def[u], *y = d->def[v];
	if (!x || !y || x->op != y->op || x->callee != y->callee || x->narg != y->narg || x->nres != 1 ||
	    y->nres != 1 || T(O, u) != T(O, v))
		return 0;
	/* a pure value (not a copy, not tid), a call that writes nothing, a
	 * load of an array the function never writes */
	if (x->op == OP_CALL) {
		if (ir_fx_of(x, O->di->callfx) & FX_WRITE)
			return 0;
	} else if (x->op == OP_LOAD) {
		if (!O->written || O->written[x->arg[0]])
			return 0;
	} else if (x->op == OP_MOV || !ir_inst_pure(x) || (x->op == OP_BUILTIN && x->callee == BI_TID)) {
		return 0;
	}
	for (int k = 0; k < x->narg; k++)
		if (!equiv(O, d, x->arg[k], y->arg[k], w, depth + 1))
			return 0;
	return 1;
}

/* ... and worth computing once: no cheap instruction */
static int same_value(const Opt *O, const Defs *d, int a, int b)
{
	return d->def[a] && !cheap(O, d, a) && equiv(O, d, a, b, d->walk[a], 0);
}

/* A temp computing what an earlier temp of its block, already read by
 * several instructions (or a tile), computed: its readers take that one. */
static void cse_block(Opt *O, Block *b, Defs *d, int *to)
{
	for (int i = 0; i < b->n; i++) {
		Inst *in = &b->v[i];
		cse_block(O, &in->body, d, to);
		cse_block(O, &in->els, d, to);
		for (int k = 0; k < in->narg; k++)
			if (in->arg[k] < d->n && to[in->arg[k]] >= 0) {
				int32_t *na = arena(O, (size_t)in->narg * sizeof *na);
				memcpy(na, in->arg, (size_t)in->narg * sizeof *na);
				for (int q = 0; q < in->narg; q++)
					if (na[q] < d->n && to[na[q]] >= 0)
						na[q] = to[na[q]];
				in->arg = na;
				break;
			}
		if (in->nres != 1 || V(O, in->res[0])->kind != VK_TEMP)
			continue;
		int t = in->res[0];
		for (int j = 0; j < i; j++) {
			const Inst *p = &b->v[j];
			/* what equiv asks first, asked here at no cost */
			if (p->op != in->op || p->callee != in->callee || p->narg != in->narg)
				continue;
			if (p->nres != 1 || V(O, p->res[0])->kind != VK_TEMP || to[p->res[0]] >= 0)
				continue;
			int u = p->res[0];
			/* (a tile is always a named array, and a builtin's call may
			 * cost a loop: once is worth it) */
			if ((d->uses[u] < 2 && !ty_is_tile(T(O, u)) && p->op != OP_BUILTIN) ||
			    !same_value(O, d, u, t))
				continue;
			to[t] = u;
			d->uses[u] += d->uses[t];
			break;
		}
	}
}

/* The rewrites of a single instruction (negs, component_of_insert,
 * element_of_fill), each
 * in the order of the walk: the defining instructions they look at are
 * those Defs found, as the rewrites before have left them. */
typedef struct Peep {
	Opt *O;
	const Defs *d;
} Peep;

/* in becomes x's copy, `mov x`. */
static void become_mov(Opt *O, Inst *in, int x)
{
	in->op = OP_MOV;
	in->narg = 1;
	int32_t *na = arena(O, sizeof *na);
	na[0] = x;
	in->arg = na;
}

/* A component of a value with that component just set: (insert v, k, x)[k]
 * is x, when x still holds it (a temp, a constant, a variable last set
 * before). */
static int component_of_insert(void *ctx, Inst *in)
{
	Opt *O = ((Peep *)ctx)->O;
	const Defs *d = ((Peep *)ctx)->d;
	if (in->op != OP_EXTRACT || in->arg[0] >= d->n || in->nres != 1)
		return 0;
	const Inst *e = d->def[in->arg[0]];
	if (!e || e->op != OP_INSERT || e->narg != in->narg + 1)
		return 0;
	int same = 1;
	for (int k = 1; k < in->narg; k++)
		same &= is_const(O, in->arg[k]) && is_const(O, e->arg[k]) && const_eq(O, in->arg[k], e->arg[k]);
	int x = e->arg[e->narg - 1];
	if (!same || !unchanged(O, d, x, in->arg[0]))
		return 0;
	become_mov(O, in, x);
	return 0;
}

/* An element of a tile that holds one value everywhere: (make x)[i] and
 * untile (make x) are x, and so is untile (tile x), each thread's x, when
 * x still holds it (a sum's adjoint read back by a thread). */
static int element_of_fill(void *ctx, Inst *in)
{
	Opt *O = ((Peep *)ctx)->O;
	const Defs *d = ((Peep *)ctx)->d;
	int untile = in->op == OP_BUILTIN && in->callee == BI_UNTILE;
	if (!(untile || in->op == OP_EXTRACT) || in->nres != 1 || in->arg[0] >= d->n ||
	    !ty_is_tile(T(O, in->arg[0])))
		return 0;
	const Inst *e = d->def[in->arg[0]];
	int fill = e && e->op == OP_MAKE && e->narg == 1;
	if (!fill && !(untile && e && e->op == OP_BUILTIN && e->callee == BI_TILE))
		return 0;
	int x = e->arg[0];
	if (!unchanged(O, d, x, in->arg[0]))
		return 0;
	become_mov(O, in, x);
	return 0;
}

/* y = insert x, k, a; ...; z = insert y, k, b, y read there alone: the
 * first component is overwritten, z = insert x, k, b (when x is as it
 * was: nothing between assigns it). */
static void reinserts(Opt *O, Block *b, const Defs *d)
{
	for (int i = 0; i < b->n; i++) {
		reinserts(O, &b->v[i].body, d);
		reinserts(O, &b->v[i].els, d);
	}
	for (int i = 0; i < b->n; i++) {
		const Inst *a = &b->v[i];
		if (a->op != OP_INSERT || a->nres != 1)
			continue;
		int y = a->res[0], x = a->arg[0], j = i + 1;
		if (y >= d->n)
			continue;
		while (j < b->n && !mentions(&b->v[j], y) && !assigns(&b->v[j], x))
			j++;
		if (j >= b->n)
			continue;
		Inst *c = &b->v[j];
		if (c->op != OP_INSERT || c->arg[0] != y || c->narg != a->narg || c->arg[c->narg - 1] == y)
			continue;
		/* y's value read there alone: it is assigned again there, or
		 * nothing else reads it */
		if (c->res[0] != y && (d->uses[y] != 1 || d->ndef[y] != 1))
			continue;
		int same = 1;
		for (int k = 1; k + 1 < c->narg; k++)
			same &= is_const(O, c->arg[k]) && is_const(O, a->arg[k]) &&
				const_eq(O, c->arg[k], a->arg[k]);
		if (!same)
			continue;
		int32_t *na = arena(O, (size_t)c->narg * sizeof *na);
		memcpy(na, c->arg, (size_t)c->narg * sizeof *na);
		na[0] = x;
		c->arg = na;
		memmove(&b->v[i], &b->v[i + 1], (size_t)(b->n - i - 1) * sizeof *b->v);
		b->n--;
		i--;
	}
}

/* neg (neg x) is x, not (not x) too; a + neg b is a - b (exactly: IEEE
 * subtraction is the addition of the negation); x as it was at the
 * inner neg */
static int negs(void *ctx, Inst *in)
{
	Opt *O = ((Peep *)ctx)->O;
	const Defs *d = ((Peep *)ctx)->d;
	if (in->op == OP_ADD && in->narg == 2 && T(O, in->arg[0]) == T(O, in->arg[1])) {
		const Inst *e = d->def[in->arg[1]];
		if (e && e->op == OP_NEG && unchanged(O, d, e->arg[0], in->arg[1])) {
			int32_t *na = arena(O, 2 * sizeof *na);
			na[0] = in->arg[0];
			na[1] = e->arg[0];
			in->op = OP_SUB;
			in->arg = na;
		}
		return 0;
	}
	if (in->op != OP_NEG && in->op != OP_NOT)
		return 0;
	const Inst *e = d->def[in->arg[0]];
	if (e && e->op == in->op && unchanged(O, d, e->arg[0], in->arg[0])) {
		in->op = OP_MOV;
		int32_t *na = arena(O, sizeof *na);
		na[0] = e->arg[0];
		in->arg = na;
	}
	return 0;
}

/* Do accesses p and q (load, store or atomic) name the same array at
 * the same indices (operands 1..n, n the array's rank)? */
static int same_place(const Opt *O, const Inst *p, const Inst *q)
{
	if (p->arg[0] != q->arg[0])
		return 0;
	int n = ty_ndim(T(O, p->arg[0]));
	if (p->narg < 1 + n || q->narg < 1 + n)
		return 0;
	for (int k = 1; k <= n; k++)
		if (p->arg[k] != q->arg[k])
			return 0;
	return 1;
}

/* x = load A, j; store A, j, 0; ... atomic_add A, j, x, with nothing in
 * between naming A or assigning x or j (j: one index per axis of A):
 * A[j] ends as it began, so the store and the atomic go (an adjoint
 * passed through unchanged). */
static void round_trips(Opt *O, Block *b, const Defs *d)
{
	for (int i = 0; i < b->n; i++) {
		round_trips(O, &b->v[i].body, d);
		round_trips(O, &b->v[i].els, d);
	}
	for (int i = 0; i + 1 < b->n; i++) {
		const Inst *ld = &b->v[i], *st = &b->v[i + 1];
		if (ld->op != OP_LOAD || st->op != OP_STORE || !same_place(O, ld, st))
			continue;
		int n = ty_ndim(T(O, ld->arg[0]));
		if (ld->narg != 1 + n || st->narg != 2 + n)
			continue;
		int z = st->arg[st->narg - 1], x = ld->res[0], a = ld->arg[0];
		const Inst *zd = V(O, z)->kind == VK_TEMP ? d->def[z] : NULL;
		if (!(is_const(O, z) && const_is(O, z, 0.0f)) && !(zd && zd->op == OP_MAKE && !zd->narg))
			continue;
		for (int k = i + 2; k < b->n; k++) {
			const Inst *in = &b->v[k];
			if (ir_inst_atomic(in) && in->narg == 2 + n && same_place(O, ld, in) &&
			    in->arg[in->narg - 1] == x && !in->nres &&
			    !strcmp(ir_builtins[in->callee].name, "atomic_add")) {
				memmove(&b->v[k], &b->v[k + 1], (size_t)(b->n - k - 1) * sizeof *b->v);
				b->n--;
				memmove(&b->v[i + 1], &b->v[i + 2], (size_t)(b->n - i - 2) * sizeof *b->v);
				b->n--;
				break;
			}
			int moved = assigns(in, x);
			for (int q = 1; q <= n; q++)
				moved |= assigns(in, ld->arg[q]);
			if (names_arg(in, a) || moved)
				break;
		}
	}
}

void peepholes(Opt *O)
{
	Defs d = defs_new(O);
	copies_into_defs(O, &O->f->body, &d);
	defs_free(&d);
	chains(O, &O->f->body);
	d = defs_new(O);
	Peep pp = {O, &d};
	ir_walk(&O->f->body, negs, &pp);
	ir_walk(&O->f->body, component_of_insert, &pp);
	ir_walk(&O->f->body, element_of_fill, &pp);
	defs_free(&d);
	d = defs_new(O);
	round_trips(O, &O->f->body, &d);
	defs_free(&d);
	d = defs_new(O);
	copies_into_defs(O, &O->f->body, &d);
	defs_free(&d);
	d = defs_new(O);
	reinserts(O, &O->f->body, &d);
	defs_free(&d);
	/* what those leave to fold: (0.0 + x) and the like */
	fwd_pass(O);
	live_pass(O);
	d = defs_new(O);
	int *to = xmalloc((size_t)(d.n + 1) * sizeof *to);
	for (int v = 0; v <= d.n; v++)
		to[v] = -1;
	cse_block(O, &O->f->body, &d, to);
	free(to);
	defs_free(&d);
	for (int pass = 0; pass < 4; pass++) {
		d = defs_new(O);
		uint8_t *all = remat_set(O, &d);
		int any = all && remat(O, &O->f->body, &d, all);
		free(all);
		defs_free(&d);
		if (!any)
			break;
	}
}
