/*
 * decl.c: pass 4, declarations.  Each variable is declared once, in the
 * innermost block holding all its uses, at its first assignment when that
 * assignment is a plain statement of that block (`float y = ...;`,
 * decl_inline), else just before the statement that first mentions it,
 * initialized to zero so that no compiler suspects a use before
 * assignment (an Emitter.decl, which emit_block prints).
 *
 * scan_block walks the live statements keeping the path from the body
 * down to each (a block and an index per level); a variable's first
 * occurrence keeps its path, and each later one moves its anchor (the
 * depth of the declaring block on that path) out to the deepest block
 * both paths share.
 */
#include <stdlib.h>
#include <string.h>

#include "emit/emit_int.h"

typedef struct Path {
	const Block *b[256];
	int i[256];
	int n;
} Path;

static void occur(Emitter *e, int val, const Path *p)
{
	VInfo *v = &e->v[val];
	if (e->f->val[val].kind != VK_VAR)
		return;
	if (!v->nfirst) {
		v->nfirst = p->n;
		v->fb = xmalloc((size_t)p->n * sizeof *v->fb);
		v->fi = xmalloc((size_t)p->n * sizeof *v->fi);
		memcpy(v->fb, p->b, (size_t)p->n * sizeof *v->fb);
		memcpy(v->fi, p->i, (size_t)p->n * sizeof *v->fi);
		v->anchor = p->n - 1;
		v->in_for = 1;
		return;
	}
	int c = 0;
	while (c < v->nfirst && c < p->n && v->fb[c] == p->b[c] && v->fi[c] == p->i[c])
		c++;
	if (c < v->nfirst)
		v->in_for = 0;
	int a = (c < v->nfirst && c < p->n && v->fb[c] == p->b[c]) ? c : c - 1;
	if (a >= v->nfirst)
		a = v->nfirst - 1;
	if (a < v->anchor)
		v->anchor = a;
}

static void scan_block(Emitter *e, const Block *b, Path *p)
{
	if (p->n >= 256)
		ks_fatal("blocks nested too deep");
	for (int i = 0; i < b->n; i++) {
		const Inst *in = &b->v[i];
		if (e->ii[inst_id(e, in)].dead)
			continue;
		p->b[p->n] = b;
		p->i[p->n] = i;
		p->n++;
		for (int k = 0; k < in->nres; k++)
			occur(e, in->res[k], p);
		for (int k = 0; k < in->narg; k++)
			occur(e, in->arg[k], p);
		scan_block(e, &in->body, p);
		scan_block(e, &in->els, p);
		p->n--;
	}
}

/* The statement of the variable's first occurrence. */
const Inst *first_occ(const Emitter *e, int val)
{
	const VInfo *v = &e->v[val];
	return &v->fb[v->nfirst - 1]->v[v->fi[v->nfirst - 1]];
}

/* A random draw: its results are the value and the new state. */
int is_draw(const Inst *in) { return in->op == OP_BUILTIN && (ir_builtins[in->callee].flags & BF_STATE); }

/* Is the variable declared by the statement that first assigns it? */
int decl_inline(const Emitter *e, int val)
{
	const VInfo *v = &e->v[val];
	if (v->anchor != v->nfirst - 1)
		return 0;
	const Inst *in = &v->fb[v->anchor]->v[v->fi[v->anchor]];
	if (in->op == OP_FOR)
		return v->in_for;
	if (in->op == OP_BUILTIN && in->callee == BI_TID)
		return 1; /* int i = tid0; each on its own line */
	if (is_draw(in))  /* its value, or a state copied first (emit_draw) */
		return in->res[0] == val || (in->res[1] == val && in->arg[0] != val);
	if (ir_op_control(in->op) || in->nres != 1 || in->res[0] != val)
		return 0;
	return !(in->op == OP_CALL && e->m->fn[in->callee]->nret > 1);
}

/* Pass 4: where each variable of f is declared; those not declared by
 * their first assignment go to e->decl. */
void place_decls(Emitter *e, const Func *f)
{
	Path *p = xmalloc(sizeof *p);
	p->n = 0;
	scan_block(e, &f->body, p);
	free(p);
	e->ndecl = 0;
	for (int i = 0; i < f->nval; i++) {
		if (f->val[i].kind != VK_VAR || !e->v[i].nfirst || decl_inline(e, i))
			continue;
		if (e->ndecl == e->capdecl) {
			e->capdecl = e->capdecl ? 2 * e->capdecl : 16;
			e->decl = xrealloc(e->decl, (size_t)e->capdecl * sizeof *e->decl);
		}
		const VInfo *v = &e->v[i];
		const Inst *first = &v->fb[v->nfirst - 1]->v[v->fi[v->nfirst - 1]];
		e->decl[e->ndecl++] = (Decl){v->fb[v->anchor], v->fi[v->anchor], i, first->loc.line};
	}
}
