/*
 * sema_module.c: the module — its top level (imports, the docstring,
 * module constants and type aliases, @wp.struct classes, decorated defs),
 * the call graph and the order it gives, and the entry points: ks_lower
 * and ks_frontend (the whole module), ks_frontend_stream (one definition
 * at a time).
 *
 * The whole-module path registers every def in source order, collects the
 * calls that name a wp.func, orders the defs callees first (rejecting
 * recursion) and lowers them in that order (sema.h).  The streaming path
 * reads the pieces of pieces.c with the same top_level and lower_def: a
 * def is lowered, verified and printed as soon as it is read, which is
 * right only when every call names a def above it; anything else is an
 * error, caught quietly, and the caller falls back to the whole module.
 */
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "sema.h"

/* import warp as wp; import math, import numpy as np (for module
 * constants such as 2.0 * math.pi) */
static void import(Sema *s, Node *n, int *have_wp)
{
	const char *as = n->str2 ? n->str2 : n->name;
	if (n->kind == N_IMPORT && !strcmp(n->name, "warp") && n->str2 && !strcmp(n->str2, "wp")) {
		*have_wp = 1;
		return;
	}
	if (n->kind == N_IMPORT && !strcmp(n->name, "warp"))
		ERR(n, "write 'import warp as wp': kernels refer to Warp as 'wp'");
	if (n->kind == N_IMPORT && !strcmp(n->name, "math")) {
		s->math_as = as;
		return;
	}
	if (n->kind == N_IMPORT && !strcmp(n->name, "numpy")) {
		s->np_as = as;
		return;
	}
	ERR(n, "only 'import warp as wp', 'import math' and 'import numpy' are supported");
}

enum { DEF_KERNEL = 1, DEF_NO_BACKWARD = 2 };

/* @wp.kernel, @wp.kernel(enable_backward=False, module=...) or @wp.func:
 * DEF_* flags.  module names the Warp module the kernel is built in, which
 * means nothing here; enable_backward=False tells kdiff to leave the
 * kernel without a backward. */
static int decorator(Sema *s, Node *fn, int have_wp)
{
	Node *decs = kid(fn, 0), *dn;
	char buf[128];
	int flags = 0;
	if (!decs || decs->nkid == 0)
		ERR(fn, "function '%s' must be decorated with @wp.kernel or @wp.func", fn->name);
	if (decs->nkid > 1)
		ERR(decs->kid[1], "only one decorator is allowed: @wp.kernel or @wp.func");
	dn = decs->kid[0];
	Node *at = dn->kind == N_CALL ? dn->kid[0] : dn;
	int ok = is_wp_attr(at) && (!strcmp(at->name, "kernel") || !strcmp(at->name, "func"));
	if (ok && !have_wp)
		ERR(at, "name 'wp' is not defined; start the file with 'import warp as wp'");
	if (!ok) {
		dotted(dn, buf, sizeof buf);
		ERR(dn, "unsupported decorator '@%s'; use @wp.kernel or @wp.func", buf);
	}
	if (!strcmp(at->name, "kernel"))
		flags |= DEF_KERNEL;
	for (int i = 1; dn->kind == N_CALL && i < dn->nkid; i++) {
		Node *k = dn->kid[i];
		if (k->kind != N_KWARG)
			ERR(k, "@wp.%s takes keyword options only", at->name);
		if ((flags & DEF_KERNEL) && !strcmp(k->name, "enable_backward")) {
			if (k->kid[0]->kind != N_BOOL)
				ERR(k->kid[0], "enable_backward must be True or False");
			if (!k->kid[0]->ival)
				flags |= DEF_NO_BACKWARD;
		} else if ((flags & DEF_KERNEL) && !strcmp(k->name, "module")) {
			if (k->kid[0]->kind != N_STRING)
				ERR(k->kid[0], "module must be a string");
		} else {
			ERR(k, "@wp.%s option '%s' is not supported", at->name, k->name);
		}
	}
	return flags;
}

/* NAME = value at module level: a constant (kept), a type alias (kept),
 * or anything else (an error where a function reads it). */
static void module_assign(Sema *s, Node *n)
{
	Node *lhs = n->kid[0], *rhs = n->kind == N_ANNASSIGN ? kid(n, 2) : n->kid[1];
	if (lhs->kind != N_NAME)
		ERR(lhs, "only 'NAME = value' is supported at module level");
	if (!rhs)
		ERR(n, "a module-level annotation needs a value");
	if (s->keep)
		ERR(n, "module constants are read with the whole file"); /* not streamed */
	if (reserved(lhs->name) || (s->math_as && !strcmp(lhs->name, s->math_as)) ||
	    (s->np_as && !strcmp(lhs->name, s->np_as)))
		ERR(lhs, "cannot assign to '%s' at module level", lhs->name);
	Const c;
	if (const_eval(s, rhs, &c)) {
		arena_grow(s->a, (void **)&s->cval, &s->capcval, s->ncval + 1, sizeof *s->cval);
		s->cval[s->ncval] = c;
		map_put(s->a, &s->consts, lhs->name, s->ncval++);
		return;
	}
	if ((rhs->kind == N_ATTR && is_wp_attr(rhs) && wp_type(rhs->name) != TY_VOID) ||
	    ((rhs->kind == N_CALL || rhs->kind == N_INDEX) && array_spelling(rhs->kid[0]) >= 0) ||
	    (rhs->kind == N_CALL && (is_wp_types(rhs->kid[0], "vector") ||
				     is_wp_types(rhs->kid[0], "matrix")))) {
		map_put(s->a, &s->typealias, lhs->name, ann_type(s, rhs));
		return;
	}
	map_put(s->a, &s->skipped, lhs->name, 1);
}

/* Record the calls in n that name a wp.func: the call graph's edges. */
static void collect_calls(Sema *s, Def *d, Node *n)
{
	if (!n)
		return;
	if (n->kind == N_CALL) {
		int to = callee_of(s, n);
		if (to >= 0) {
			arena_grow(s->a, (void **)&d->call, &d->capcall, d->ncall + 1, sizeof *d->call);
			d->call[d->ncall++] = (Call){n, to};
		}
	}
	for (int i = 0; i < n->nkid; i++)
		collect_calls(s, d, n->kid[i]);
}

/* Order the defs so that callees come before callers (depth-first,
 * post-order, from each def in source order), rejecting cycles.  The walk
 * keeps its own stack: call chains may be as long as the file. */
static int *call_order(Sema *s)
{
	int n = s->ndef, no = 0;
	int *order = arena_alloc(s->a, (size_t)(n + 1) * sizeof *order);
	int *stack = arena_alloc(s->a, (size_t)(n + 1) * sizeof *stack);
	int *next = arena_alloc(s->a, (size_t)(n + 1) * sizeof *next); /* next edge */
	char *mark = arena_alloc(s->a, (size_t)n + 1); /* 1: on the stack, 2: done */
	for (int r = 0; r < n; r++) {
		if (mark[r])
			continue;
		int sp = 0;
		stack[sp++] = r;
		mark[r] = 1;
		while (sp) {
			int u = stack[sp - 1];
			if (next[u] == s->def[u].ncall) {
				mark[u] = 2;
				order[no++] = u;
				sp--;
				continue;
			}
			int v = s->def[u].call[next[u]++].to;
			if (mark[v] == 2)
				continue;
			if (mark[v] == 0) {
				mark[v] = 1;
				stack[sp++] = v;
				continue;
			}
			/* v is on the stack: v → ... → u → v */
			char via[400] = "";
			size_t w = 0;
			int k = sp - 1;
			while (stack[k] != v)
				k--;
			for (int i = k + 1; i < sp && i <= k + 4; i++)
				w += (size_t)snprintf(via + w, sizeof via - w, "%s'%.60s'",
						      i == k + 1 ? " (via " : ", ",
						      s->def[stack[i]].node->name);
			if (sp - k - 1 > 4)
				w += (size_t)snprintf(via + w, sizeof via - w, " and %d more",
						      sp - k - 5);
			if (w)
				snprintf(via + w, sizeof via - w, ")");
			Node *at = s->def[v].call[next[v] - 1].at;
			ERR(at, "recursion is not supported: '%s' calls itself%s",
			    s->def[v].node->name, via);
		}
	}
	return order;
}

/* @wp.struct
 * class NAME:
 *     FIELD: TYPE
 *     ...
 * A struct type of those fields, declared in the module; its name is a
 * type from then on (annotations, NAME() in a body). */
static void struct_def(Sema *s, Node *n, int have_wp)
{
	Node *decs = kid(n, 0), *body = kid(n, 1);
	char buf[128];
	if (!decs || decs->nkid == 0)
		ERR(n, "class '%s' must be decorated with @wp.struct", n->name);
	if (decs->nkid > 1)
		ERR(decs->kid[1], "only one decorator is allowed: @wp.struct");
	Node *dn = decs->kid[0];
	if (!is_wp_attr(dn) || strcmp(dn->name, "struct")) {
		dotted(dn, buf, sizeof buf);
		ERR(dn, "unsupported decorator '@%s' on a class; use @wp.struct", buf);
	}
	if (!have_wp)
		ERR(dn, "name 'wp' is not defined; start the file with 'import warp as wp'");
	if (s->keep)
		ERR(n, "a struct is read with the whole file"); /* its type goes in the head */
	Type named = ty_parse(n->name, strlen(n->name));
	if (reserved(n->name) || wp_type(n->name) != TY_VOID || (named != TY_VOID && !ty_is_struct(named)))
		ERR(n, "'%s' cannot be used as a struct name", n->name);
	if (map_get(&s->typealias, n->name) >= 0 || ir_func_find(s->m, n->name) >= 0 ||
	    map_get(&s->consts, n->name) >= 0)
		ERR(n, "'%s' is defined twice", n->name);
	Field fs[255];
	int nf = 0;
	for (int i = 0; body && i < body->nkid; i++) {
		Node *st = body->kid[i];
		if (st->kind == N_EXPR && st->kid[0]->kind == N_STRING && i == 0)
			continue; /* docstring */
		if (st->kind == N_PASS)
			continue;
		if (st->kind != N_ANNASSIGN || kid(st, 0)->kind != N_NAME)
			ERR(st, "a struct's body holds its fields, 'name: type', and nothing else");
		if (kid(st, 2))
			ERR(st->kid[2], "struct fields have no default values in kernels");
		Node *fn = st->kid[0], *an = st->kid[1];
		for (int k = 0; k < nf; k++)
			if (!strcmp(fs[k].name, fn->name))
				ERR(fn, "field '%s' is defined twice", fn->name);
		if (nf == 255)
			ERR(fn, "a struct has at most 255 fields");
		if (an->kind == N_NAME && !strcmp(an->name, n->name))
			ERR(an, "struct %s cannot hold itself", n->name);
		for (const Node *x = an; x; x = x->kind == N_CALL || x->kind == N_INDEX ? kid(x, 1) : NULL)
			if (x->kind == N_KWARG ? is_name(kid(x, 0), n->name) : is_name(x, n->name))
				ERR(x, "struct %s cannot hold an array of itself", n->name);
		Type ft = ann_type(s, an);
		fs[nf++] = (Field){fn->name, ft};
	}
	Type t = ty_struct(n->name, fs, nf); /* `pass`: a struct of no fields, as in Warp */
	ir_struct_add(s->m, t);
	map_put(s->a, &s->typealias, n->name, t);
}

/* A top-level statement, the i-th of the module: an import, the
 * docstring or a constant (returns NULL), or a decorated def, which gets
 * its IR function (returns its node).  *have_wp: the import came before;
 * *flags: the def's DEF_* flags. */
static Node *top_level(Sema *s, Node *n, int i, int *have_wp, int *flags)
{
	if (n->kind == N_IMPORT || n->kind == N_FROMIMPORT) {
		import(s, n, have_wp);
		return NULL;
	}
	if (i == 0 && n->kind == N_EXPR && n->kid[0]->kind == N_STRING)
		return NULL; /* docstring */
	if (n->kind == N_ASSIGN || n->kind == N_ANNASSIGN) {
		module_assign(s, n);
		return NULL;
	}
	if (n->kind == N_CLASS) {
		struct_def(s, n, *have_wp);
		return NULL;
	}
	if (n->kind != N_DEF)
		ERR(n, "only @wp.kernel and @wp.func definitions, imports and constants are supported "
		       "at module level");
	*flags = decorator(s, n, *have_wp);
	if (reserved(n->name))
		ERR(n, "'%s' cannot be used as a function name", n->name);
	if (ir_func_find(s->m, n->name) >= 0)
		ERR(n, "function '%s' is defined twice", n->name);
	if (s->ndef >= (1 << 24))
		ERR(n, "too many functions in one file (at most %d)", 1 << 24);
	if (s->missed && (missed_has(s->missed, n->name) || missed_has(s->kernels, n->name)))
		ERR(n, "'%s' was looked up above its definition", n->name);
	s->ndef++;
	if (s->keep) {
		/* a func stays, for the calls below it; a kernel goes */
		arena_grow(s->keep, (void **)&s->m->fn, &s->m->capfn, s->m->nfn + 1,
			   sizeof *s->m->fn);
		s->m->fnarena = (*flags & DEF_KERNEL) ? NULL : s->keep;
	}
	Func *f = ir_func_new(s->m, n->name, *flags & DEF_KERNEL, loc_of(n));
	f->no_backward = (*flags & DEF_NO_BACKWARD) != 0;
	return n;
}

/* A def's parameter defaults, for its callers. */
static void def_defaults(Sema *s, Def *d)
{
	Node *ps = kid(d->node, 1);
	int np = ps ? ps->nkid : 0;
	d->dflt = arena_alloc(s->a, (size_t)(np + 1) * sizeof *d->dflt);
	for (int i = 0; i < np; i++) {
		d->dflt[i] = kid(ps->kid[i], 1);
		if (d->dflt[i] && s->keep)
			ERR(d->dflt[i], "default values are read with the whole file"); /* not streamed */
		if (!d->dflt[i] && i > 0 && d->dflt[i - 1])
			ERR(ps->kid[i], "parameter '%s' without a default follows one with a default",
			    ps->kid[i]->name);
	}
}

/* The top level: imports, the docstring, constants and decorated defs. */
static void module(Sema *s, Node *mod)
{
	int have_wp = 0, flags = 0, ndef = 0;
	for (int i = 0; i < mod->nkid; i++) {
		Node *n = top_level(s, mod->kid[i], i, &have_wp, &flags);
		if (!n)
			continue;
		arena_grow(s->a, (void **)&s->def, &s->capdef, ndef + 1, sizeof *s->def);
		Def *d = &s->def[ndef++];
		memset(d, 0, sizeof *d);
		d->node = n;
		d->kernel = flags & DEF_KERNEL;
		def_defaults(s, d);
	}
	for (int i = 0; i < s->ndef; i++)
		collect_calls(s, &s->def[i], kid(s->def[i].node, 3));
	int *order = call_order(s);
	for (int i = 0; i < s->ndef; i++)
		lower_def(s, &s->def[order[i]], order[i]);
}

Module *ks_lower(const Parse *p)
{
	Module *const m = ir_module_new();
	jmp_buf here, *const outer = ks_recover;
	/* free the half-built module on an error, then pass the error on */
	if (setjmp(here)) {
		ks_recover = outer;
		ir_module_free(m);
		if (outer)
			longjmp(*outer, 1);
		out_abort();
		exit(1);
	}
	ks_recover = &here;
	Sema s = {.src = p->src, .a = p->arena, .m = m};
	if (p->src && p->src->name)
		m->source = arena_strdup(&m->arena, p->src->name);
	module(&s, p->module);
	ir_verify(m, p->src, 1);
	ks_recover = outer;
	return m;
}

Module *ks_frontend(const Src *src, Arena *scratch)
{
	Parse p;
	ks_parse(&p, src, scratch);
	return ks_lower(&p);
}

/* ---- streaming ------------------------------------------------------------ */

/* The state a longjmp must find intact lives here, not in locals. */
static Pieces st_pc;
static Module *st_m;
static Arena st_ast, st_keep;
static Missed st_missed, st_kernels;
static int st_reading;

static void missed_init(Missed *ms)
{
	ms->n = 0;
	ms->cap = 256;
	ms->h = xmalloc(ms->cap * sizeof *ms->h);
	memset(ms->h, 0, ms->cap * sizeof *ms->h);
}

/* Back to the module's own arena after a top-level statement; a def that
 * is done keeps its signature (a func) or leaves the module (a kernel). */
static void st_drop(int done)
{
	if (!st_reading)
		return;
	st_m->fnarena = &st_keep;
	if (done && st_m->fn[st_m->nfn - 1]->is_kernel) {
		missed_add(&st_kernels, st_m->fn[st_m->nfn - 1]->name);
		ir_func_pop(st_m);
	} else if (done) {
		ir_keep_signature(st_m, st_m->fn[st_m->nfn - 1]);
	}
	arena_free(&st_m->arena);
	st_m->arena = st_keep;
	memset(&st_keep, 0, sizeof st_keep);
	st_m->fnarena = NULL;
	st_reading = 0;
}

int ks_frontend_stream(const char *path, const char *outpath, Src *whole)
{
	jmp_buf jb;
	jmp_buf *saved = ks_recover;
	int quiet = ks_quiet;
	volatile int ok = 0;
	pieces_open(&st_pc, path);
	st_m = ir_module_new();
	missed_init(&st_missed);
	missed_init(&st_kernels);
	memset(&st_ast, 0, sizeof st_ast);
	st_reading = 0;
	ks_recover = &jb;
	ks_quiet = 1;
	if (!setjmp(jb)) {
		Sema s = {.src = NULL, .m = st_m, .missed = &st_missed,
			  .kernels = &st_kernels, .keep = &st_keep};
		st_m->source = arena_strdup(&st_m->arena, st_pc.name);
		FILE *out = out_open_spool(outpath);
		ir_print_head(out, st_m);
		int have_wp = 0, flags = 0, line0, r, i = 0;
		Src piece;
		while ((r = pieces_next(&st_pc, &piece, &line0)) > 0) {
			Parse p;
			ks_parse_at(&p, &piece, &st_ast, line0);
			s.src = &piece;
			s.a = &st_ast;
			s.loopvar = NULL;
			s.caploopvar = 0;
			s.memo = NULL;
			s.capmemo = 0;
			for (int k = 0; k < p.module->nkid; k++, i++) {
				/* a struct belongs in the IR's head, which is
				 * written before the first piece: such a module
				 * is read whole */
				if (p.module->kid[k]->kind == N_CLASS)
					longjmp(jb, 1);
				st_keep = st_m->arena;
				memset(&st_m->arena, 0, sizeof st_m->arena);
				st_m->fnarena = &st_keep;
				st_reading = 1;
				Node *n = top_level(&s, p.module->kid[k], i, &have_wp, &flags);
				if (n) {
					int fi = st_m->nfn - 1;
					Def d = {.node = n, .kernel = flags & DEF_KERNEL};
					def_defaults(&s, &d);
					collect_calls(&s, &d, kid(n, 3));
					for (int c = 0; c < d.ncall; c++)
						if (d.call[c].to >= fi)
							ks_error_at(&piece, d.call[c].at->line,
								    d.call[c].at->col, "recursion");
					lower_def(&s, &d, fi);
					ir_verify_func(st_m, &piece, 1, fi);
					ir_print_func(out, st_m, st_m->fn[fi]);
				}
				st_drop(n != NULL);
			}
			arena_free(&st_ast);
		}
		if (r == 0) {
			ks_recover = saved;
			ks_quiet = quiet;
			if (fflush(out) || ferror(out))
				ks_fatal("write error:");
			out_commit();
			ok = 1;
		}
	}
	/* done; or the file cannot stream, or an error came up */
	ks_recover = saved;
	ks_quiet = quiet;
	st_drop(0);
	arena_free(&st_ast);
	if (!ok) {
		out_abort();
		pieces_whole(&st_pc, whole);
	}
	pieces_close(&st_pc);
	ir_module_free(st_m);
	st_m = NULL;
	free(st_missed.h);
	memset(&st_missed, 0, sizeof st_missed);
	free(st_kernels.h);
	memset(&st_kernels, 0, sizeof st_kernels);
	return ok;
}
