/*
 * sema_func.c: a def, lowered into the IR function the module gave it —
 * its parameters (annotated, each a name of its own), its return
 * annotation, its body statement by statement, then Warp's rule for
 * constants changed in dynamic loops — and its signature set.
 *
 * The return types are those of the '-> T' annotation, or else of the
 * first return statement; every later return must agree (sema_stmt.c).
 * The state of the function being lowered lives in Sema (cur, f, blk,
 * names, ...) and is reset here, so the module lowers its defs one after
 * another with one Sema.
 */
#include <string.h>

#include "sema.h"

/* -> T, -> tuple[T, U] (a bare -> tuple is not checked) */
static void return_annotation(Sema *s, Node *a)
{
	Type t[MAXOPS];
	int n = 0;
	if (!a)
		return;
	if (s->cur->kernel) {
		ERR(a, "kernels cannot return a value");
	} else if (is_name(a, "tuple") || is_name(a, "Tuple")) {
		return;
	} else if (a->kind == N_INDEX && (is_name(a->kid[0], "tuple") || is_name(a->kid[0], "Tuple"))) {
		Node **sub = subscripts(a, &n);
		if (n > MAXOPS)
			ERR(a, "too many return values");
		for (int i = 0; i < n; i++)
			t[i] = ann_type(s, sub[i]);
	} else {
		t[n++] = ann_type(s, a);
	}
	for (int i = 0; i < n; i++)
		check_ret_type(s, a, t[i]);
	s->nsig = n;
	s->sig = arena_alloc(s->a, (size_t)(n + 1) * sizeof *s->sig);
	memcpy(s->sig, t, (size_t)n * sizeof *t);
	s->sig_ann = 1;
}

/* def name(params) -> T: body, decorated @wp.kernel or @wp.func, into IR
 * function di (an instance's: its parameters of type Any take the types
 * of s->inst_ty) */
void lower_def(Sema *s, Def *d, int di)
{
	Node *fn = d->node, *ps = kid(fn, 1), *body = kid(fn, 3);
	const char *what = d->kernel ? "kernel" : "function";
	s->cur = d;
	s->f = s->m->fn[di];
	memset(&s->names, 0, sizeof s->names);
	/* no memo scope open, nor entries of one (a def left by an error may
	 * have left them; the array itself goes with its piece's arena,
	 * parse_piece) */
	s->nmemo = 0;
	s->memo_blk = NULL;
	s->nloop = s->nloopvar = 0;
	s->nviewed = 0;
	s->nsig = -1;
	s->sig_ann = 0;
	for (int i = 0; ps && i < ps->nkid; i++) {
		Node *p = ps->kid[i];
		if (!kid(p, 0))
			ERR(p, "parameter '%s' of %s '%s' needs a type annotation", p->name, what, fn->name);
		if (reserved(p->name))
			ERR(p, "'%s' cannot be used as a parameter name", p->name);
		if (def_find(s, p->name) >= 0)
			ERR(p, "parameter '%s' has the name of a function", p->name);
		if (map_get(&s->names, p->name) >= 0)
			ERR(p, "duplicate parameter '%s' in function definition", p->name);
		Type t = s->inst_ty && generic_ann(s, p->kid[0]) ? s->inst_ty[i] : ann_type(s, p->kid[0]);
		if (kid(p, 1) && d->kernel)
			ERR(kid(p, 1), "kernel parameters cannot have default values");
		map_put(s->a, &s->names, p->name, ir_param(s->m, s->f, p->name, t));
	}
	if (s->f->nparam > MAXOPS)
		ERR(fn, "'%s' has more than %d parameters", fn->name, MAXOPS);
	return_annotation(s, kid(fn, 2));
	s->blk = &s->f->body;
	for (int i = 0; body && i < body->nkid; i++) {
		Node *st = body->kid[i];
		if (i == 0 && st->kind == N_EXPR && st->kid[0]->kind == N_STRING)
			continue; /* docstring */
		stmt(s, st);
	}
	check_loop_constants(s, ps, body);
	ir_set_ret(s->m, s->f, s->sig, s->nsig > 0 ? s->nsig : 0);
}
