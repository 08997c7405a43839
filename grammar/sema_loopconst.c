/*
 * sema_loopconst.c: Warp's rule for constants changed in dynamic loops,
 * checked on a def's body after it is lowered (check_loop_constants).
 *
 * Warp binds a name assigned a literal (1.0, -2, True, wp.inf) to a
 * compile-time constant, unrolls a range() loop of at most 16 constant
 * steps (max_unroll, a kernel's module option; for its own body here) with
 * no break, and refuses a loop it does not unroll (a while, a range of
 * variable bounds, of more steps or with a break) that
 * changes a name bound to a constant at its start: 'acc = 0.0' then 'acc
 * += x' in such a loop, where 'acc = float(0.0)' is accepted.  A name
 * bound by 'y = x' is a copy, and a call's result is no constant.  The
 * check walks the body once, as Warp's code generator binds names:
 * where that is unclear (a name bound differently in an if's branches, a
 * loop whose steps are not known) the name is taken as no constant, and a
 * loop as unrolled, so that nothing Warp accepts is rejected.
 *
 * Each name has one binding at a time, stamped with the order it was made
 * in; a dynamic loop notes the stamp it starts at, so a name rebound in
 * it was bound to a constant at its start exactly when its binding then
 * is a constant's older than the loop.  An if undoes its first branch's
 * bindings (a trail) before it walks the second, then joins the names
 * either changed: the walk is linear in the body, however many names.
 */
#include <math.h>
#include <string.h>

#include "sema.h"

enum { CL_NONE, CL_CONST, CL_MAYBE };

typedef struct {
	int kind;       /* CL_NONE, CL_CONST or CL_MAYBE */
	const Node *at; /* the assignment that bound it */
	int known;      /* an int constant of value ival */
	int64_t ival;
	long stamp; /* when it was bound */
} ClBind;

typedef struct {
	int name;
	ClBind old;
} ClUndo;

typedef struct {
	int name;
	ClBind b;
} ClSaved;

typedef struct {
	Sema *s;
	Map index; /* name → slot */
	const char **name;
	ClBind *bind;
	unsigned char *iter; /* the target of an unrolled loop: Warp copies it before a loop changes it */
	long *seen;
	int *pos; /* where cl_fork saved its second branch's binding */
	int n, cap;
	ClUndo *trail;
	int ntrail, captrail;
	ClSaved *saved; /* the branches' bindings while an if joins them */
	int nsaved, capsaved;
	long stamp, dyn; /* the next stamp; the innermost dynamic loop's first (0: none) */
	long visit;
} ClWalk;

static int cl_slot(ClWalk *w, const char *name, int make)
{
	int k = map_get(&w->index, name);
	if (k >= 0 || !make)
		return k;
	Arena *a = w->s->a;
	if (w->n == w->cap) {
		int cap = w->cap;
		arena_grow(a, (void **)&w->name, &cap, w->n + 1, sizeof *w->name);
		cap = w->cap;
		arena_grow(a, (void **)&w->bind, &cap, w->n + 1, sizeof *w->bind);
		cap = w->cap;
		arena_grow(a, (void **)&w->iter, &cap, w->n + 1, sizeof *w->iter);
		cap = w->cap;
		arena_grow(a, (void **)&w->seen, &cap, w->n + 1, sizeof *w->seen);
		cap = w->cap;
		arena_grow(a, (void **)&w->pos, &cap, w->n + 1, sizeof *w->pos);
		w->cap = cap;
	}
	k = w->n++;
	w->name[k] = name;
	w->bind[k] = (ClBind){CL_NONE, NULL, 0, 0, 0};
	w->iter[k] = 0;
	w->seen[k] = 0;
	map_put(a, &w->index, name, k);
	return k;
}

static void cl_set(ClWalk *w, int k, ClBind b)
{
	arena_grow(w->s->a, (void **)&w->trail, &w->captrail, w->ntrail + 1, sizeof *w->trail);
	w->trail[w->ntrail++] = (ClUndo){k, w->bind[k]};
	b.stamp = ++w->stamp;
	w->bind[k] = b;
}

static void cl_bind_to(ClWalk *w, const char *name, int kind, const Node *at, int known, int64_t ival)
{
	cl_set(w, cl_slot(w, name, 1), (ClBind){kind, at, known, ival, 0});
}

/* Is e a constant to Warp's code generator (1), or maybe one (2): a
 * literal, a negated constant, wp.inf and the like; with names (a range()
 * argument), also a name bound to a constant, or one of the module's.
 * *known and *ival: an int's value. */
static int cl_const(ClWalk *w, const Node *e, int names, int *known, int64_t *ival)
{
	Sema *s = w->s;
	*known = 0;
	switch (e->kind) {
	case N_INT:
		*known = 1, *ival = e->ival;
		return 1;
	case N_FLOAT:
	case N_BOOL:
		return 1;
	case N_UNARY: {
		/* a name bound to a constant, negated, is one too */
		int r = e->op == '-' ? cl_const(w, e->kid[0], 1, known, ival) : 0;
		if (*known && *ival != INT64_MIN)
			*ival = -*ival;
		else
			*known = 0;
		return r;
	}
	case N_ATTR: {
		double x;
		return (is_wp_attr(e) || is_module(e->kid[0], s->sc->math_as)) && wp_constant(e->name, &x);
	}
	case N_NAME: {
		if (!names)
			return 0;
		int k = cl_slot(w, e->name, 0);
		if (k >= 0) {
			const ClBind *b = &w->bind[k];
			*known = b->kind == CL_CONST && b->known, *ival = b->ival;
			return b->kind == CL_CONST ? 1 : b->kind == CL_MAYBE ? 2 : 0;
		}
		k = map_get(&s->sc->consts, e->name);
		if (k < 0)
			return 0;
		if (s->cval[k].ty == TY_INT && s->cval[k].py)
			*known = 1, *ival = s->cval[k].i;
		return 1;
	}
	}
	return 0;
}

/* the constant's text, for the message's hint */
static void cl_text(Sema *s, const Node *e, char *out, size_t cap)
{
	char lit[64];
	switch (e->kind) {
	case N_BOOL:
		snprintf(out, cap, "bool(%s)", e->ival ? "True" : "False");
		return;
	case N_INT:
	case N_FLOAT:
		lit_text(s, e, lit, sizeof lit);
		snprintf(out, cap, "%s(%s)", e->kind == N_INT ? "int" : "float", lit[0] ? lit : "...");
		return;
	case N_UNARY:
		cl_text(s, e->kid[0], lit, sizeof lit);
		if (strchr(lit, '('))
			snprintf(out, cap, "%.*s(-%s", (int)(strchr(lit, '(') - lit), lit, strchr(lit, '(') + 1);
		else
			snprintf(out, cap, "-%s", lit);
		return;
	case N_ATTR:
		snprintf(out, cap, "float(%s.%s)", e->kid[0]->kind == N_NAME ? e->kid[0]->name : "wp", e->name);
		return;
	}
	snprintf(out, cap, "...");
}

/* name is (re)bound at n: an error where a dynamic loop around n started
 * with name bound to a constant */
static void cl_check(ClWalk *w, const Node *n, const char *name)
{
	Sema *s = w->s;
	int k = cl_slot(w, name, 0);
	if (k < 0 || w->iter[k])
		return;
	const ClBind *b = &w->bind[k];
	if (b->kind == CL_CONST && b->stamp < w->dyn) {
		char hint[96];
		cl_text(s, b->at->kid[1], hint, sizeof hint);
		ERR(n,
		    "'%s' is a constant (assigned a literal at line %d) and this loop, which "
		    "Warp does not unroll, changes it; Warp rejects that: write '%s = %s'",
		    name, b->at->line, name, hint);
	}
}

static void cl_block(ClWalk *w, const Node *b);

/* Does the loop body b hold a break of its own (in its ifs, not in a
 * nested loop)? */
static int cl_breaks(const Node *b)
{
	if (!b)
		return 0;
	if (b->kind == N_BREAK)
		return 1;
	if (b->kind == N_BLOCK) {
		for (int i = 0; i < b->nkid; i++)
			if (cl_breaks(b->kid[i]))
				return 1;
		return 0;
	}
	if (b->kind == N_IF)
		return cl_breaks(kid(b, 1)) || cl_breaks(kid(b, 2));
	return 0;
}

/* Save the bindings made since the trail held mark (each name once, as
 * it is now) and undo them; returns how many were saved. */
static int cl_save_undo(ClWalk *w, int mark)
{
	int n0 = w->nsaved;
	w->visit++;
	for (int i = w->ntrail - 1; i >= mark; i--) {
		int k = w->trail[i].name;
		if (w->seen[k] == w->visit)
			continue;
		w->seen[k] = w->visit;
		arena_grow(w->s->a, (void **)&w->saved, &w->capsaved, w->nsaved + 1, sizeof *w->saved);
		w->saved[w->nsaved++] = (ClSaved){k, w->bind[k]};
	}
	for (; w->ntrail > mark; w->ntrail--)
		w->bind[w->trail[w->ntrail - 1].name] = w->trail[w->ntrail - 1].old;
	return w->nsaved - n0;
}

/* Walk a and b (either may be NULL: a body that may not run) from the
 * same bindings, and join them: a name that either rebinds is no longer
 * sure to be a constant (Warp joins the two values), CL_MAYBE, or
 * CL_NONE where it is a constant in neither. */
static void cl_fork(ClWalk *w, const Node *a, const Node *b)
{
	int mark = w->ntrail, base = w->nsaved;
	cl_block(w, a);
	int na = cl_save_undo(w, mark);
	cl_block(w, b);
	int nb = cl_save_undo(w, mark);
	long vb = ++w->visit;
	for (int i = base + na; i < base + na + nb; i++) {
		w->seen[w->saved[i].name] = vb;
		w->pos[w->saved[i].name] = i;
	}
	for (int i = base; i < base + na + nb; i++) {
		int k = w->saved[i].name;
		const ClBind *x = &w->saved[i].b, *y = &w->bind[k];
		if (i < base + na && w->seen[k] == vb)
			y = &w->saved[w->pos[k]].b;
		else if (i >= base + na && w->seen[k] != vb)
			continue; /* joined from a's side */
		int kind = x->kind == CL_NONE && y->kind == CL_NONE ? CL_NONE : CL_MAYBE;
		cl_set(w, k, (ClBind){kind, x->at, 0, 0, 0});
		w->seen[k] = 0;
	}
	w->nsaved = base;
}

static void cl_loop(ClWalk *w, const Node *n)
{
	const Node *body = n->kind == N_FOR ? kid(n, 2) : kid(n, 1);
	int dynamic = 1, runs = -1; /* runs: 1 at least once, 0 never, -1 not known */
	const char *var = n->kind == N_FOR && n->kid[0]->kind == N_NAME ? n->kid[0]->name : NULL;
	if (n->kind == N_FOR) {
		const Node *it = n->kid[1];
		int na = it->kind == N_CALL ? it->nkid - 1 : 0, numeric = na >= 1 && na <= 3, maybe = 0;
		int64_t a[3] = {0, 0, 1};
		for (int i = 0; numeric && i < na; i++) {
			int known, r;
			int64_t v;
			if (!(r = cl_const(w, it->kid[i + 1], 1, &known, &v)))
				numeric = 0;
			else if (r == 2 || !known)
				maybe = 1;
			else
				a[na == 1 ? 1 : i] = v;
		}
		if (numeric && maybe) {
			dynamic = 0; /* taken as unrolled */
		} else if (numeric && a[2] != 0) {
			/* len(range(a0, a1, a2)) */
			long double span = a[2] > 0 ? (long double)a[1] - a[0] : (long double)a[0] - a[1];
			long double step = a[2] > 0 ? (long double)a[2] : -(long double)a[2];
			long double cnt = span <= 0 ? 0 : ceill(span / step);
			runs = cnt > 0;
			dynamic = cnt > w->s->cur->max_unroll || (cnt > 0 && cl_breaks(body));
		}
	}
	if (!dynamic) {
		/* unrolled: the body once, the variable a constant Warp lets a
		 * later loop change */
		if (runs == 0)
			return;
		if (var) {
			int k = cl_slot(w, var, 1);
			w->iter[k] = 1;
			cl_set(w, k, (ClBind){runs == 1 ? CL_CONST : CL_MAYBE, n, 0, 0, 0});
		}
		if (runs < 0)
			cl_fork(w, body, NULL);
		else
			cl_block(w, body);
		return;
	}
	/* the loop's variable is bound before the loop starts: Warp does
	 * not take it for a change of this loop's, but of an outer one's */
	if (var) {
		cl_check(w, n->kid[0], var);
		cl_bind_to(w, var, CL_NONE, n, 0, 0);
	}
	long outer = w->dyn;
	w->dyn = w->stamp + 1;
	cl_fork(w, body, NULL);
	w->dyn = outer;
}

static void cl_target(ClWalk *w, const Node *t)
{
	if (t->kind == N_NAME) {
		cl_check(w, t, t->name);
		cl_bind_to(w, t->name, CL_NONE, t, 0, 0);
	} else if (t->kind == N_TUPLE) {
		for (int i = 0; i < t->nkid; i++)
			cl_target(w, t->kid[i]);
	}
}

static void cl_stmt(ClWalk *w, const Node *n)
{
	switch (n->kind) {
	case N_ASSIGN: {
		const Node *t = n->kid[0];
		int known;
		int64_t v;
		int r = cl_const(w, n->kid[1], 0, &known, &v);
		cl_target(w, t);
		if (t->kind == N_NAME && r)
			cl_bind_to(w, t->name, r == 1 ? CL_CONST : CL_MAYBE, n, known, v);
		return;
	}
	case N_AUGASSIGN:
		cl_target(w, n->kid[0]);
		return;
	case N_IF:
		cl_fork(w, kid(n, 1), kid(n, 2));
		return;
	case N_FOR:
	case N_WHILE:
		cl_loop(w, n);
		return;
	case N_BLOCK:
		cl_block(w, n);
		return;
	}
}

static void cl_block(ClWalk *w, const Node *b)
{
	if (!b)
		return;
	if (b->kind != N_BLOCK) {
		cl_stmt(w, b);
		return;
	}
	for (int i = 0; i < b->nkid; i++)
		cl_stmt(w, b->kid[i]);
}

void check_loop_constants(Sema *s, const Node *params, const Node *body)
{
	ClWalk w = {.s = s};
	for (int i = 0; params && i < params->nkid; i++)
		(void)cl_slot(&w, params->kid[i]->name, 1);
	cl_block(&w, body);
}
