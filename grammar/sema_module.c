/*
 * sema_module.c: the module — its top level (imports, the docstring,
 * module constants and type aliases, @wp.struct classes, decorated defs),
 * the call graph and the order it gives, and the front end's one path,
 * for a file (ks_frontend_file) and for a text in memory (ks_frontend).
 *
 * The first pass parses the pieces of pieces.c one after another and
 * reads the top level as Python runs it, in order: a piece of the kernel
 * language (a decorated def or struct) as it is, any other as the module
 * level if it is that and as host Python, skipped, if not (sema_host.c
 * tells which, and notes what host code binds); imports, constants and
 * structs take effect at once; a def is noted — its name, where it is, the
 * names its body calls, a copy of its default values — and its syntax
 * dropped with the piece.  Then the calls that name a wp.func become the
 * call graph, whose depth-first walk rejects recursion and numbers the
 * defs callees first.  The second pass takes the defs in that order,
 * parses each one's piece again (the last piece stays parsed while its
 * defs come in a row), lowers it into the module's next IR function,
 * verifies it and hands it on.  For a file each def's body is printed and
 * freed, keeping its signature for the calls below it; in memory the
 * module keeps every body.  Errors are located in the piece at hand, and
 * show their line from the whole text wherever it is.  With keep_going
 * (kparse --keep-going) an error in a def leaves that def out, reported
 * with its name, and the others go on; with only (krun --kernel) just
 * that kernel and the funcs it calls are lowered.
 *
 * `from MODULE import ...` of a module that is a file reads that file's
 * first pass there and then, into a scope of its own (Scope: every file
 * has one, and a def is lowered in its file's), and binds the names
 * imported; `from . import mod` and `import pkg.mod as m` bind the module
 * itself, whose names M.NAME reads (module_attr); of such modules only
 * what the given file's defs call is lowered.  A generic wp.func (a
 * parameter of type Any) is not lowered in the second pass: a call lowers
 * the instance for its argument types (instance), inside the caller,
 * whose state is kept meanwhile, and the instance takes its place before
 * the outermost function being lowered.
 */
#include <setjmp.h>
#include <stddef.h>
#include <stdio.h>
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
		s->sc->math_as = arena_strdup(s->a, as);
		return;
	}
	if (n->kind == N_IMPORT && !strcmp(n->name, "numpy")) {
		s->sc->np_as = arena_strdup(s->a, as);
		return;
	}
	ERR(n, "only 'import warp as wp', 'import math' and 'import numpy' are supported");
}

enum { DEF_KERNEL = 1, DEF_NO_BACKWARD = 2 };

/* The text of string literal v (cut to cap - 1 bytes), or the error why
 * where it is something else. */
static void short_string(Sema *s, Node *v, const char *why, char *out, size_t cap)
{
	if (v->kind != N_STRING)
		ERR(v, "%s", why);
	Buf b = {0};
	py_string(s, v, &b);
	buf_putc(&b, 0);
	snprintf(out, cap, "%s", b.p);
	buf_free(&b);
}

/* An option's count: an int (a literal or a module constant) in [lo, hi]. */
static int option_int(Sema *s, Node *k, Node *v, int lo, int hi)
{
	Const c;
	if (!const_eval(s, v, &c) || c.ty != TY_INT || c.i < lo || c.i > hi)
		ERR(v, "%s must be an int from %d to %d", k->name, lo, hi);
	return (int)c.i;
}

/* The CUDA options of @wp.kernel(...) (KernelOpts): launch_bounds=N or
 * (N[, M]), cuda_max_registers=N, cluster_dim=N (1 is none),
 * grid_stride=False, enable_cuda_smem_spilling=True, entry_point_abi=
 * "warp" (the other ABI is refused).  Whether k is one of them. */
static int kernel_option(Sema *s, Node *k, KernelOpts *o)
{
	Node *v = k->kid[0];
	if (!strcmp(k->name, "launch_bounds")) {
		int n = v->kind == N_TUPLE ? v->nkid : 1;
		if (n < 1 || n > 2)
			ERR(v, "launch_bounds is an int or a tuple of 1 or 2 ints, (threads, blocks)");
		o->max_threads = option_int(s, k, n == 1 && v->kind != N_TUPLE ? v : v->kid[0], 1, 1024);
		if (n == 2)
			o->min_blocks = option_int(s, k, v->kid[1], 1, 65535);
	} else if (!strcmp(k->name, "cuda_max_registers")) {
		o->max_registers = option_int(s, k, v, 1, 255);
	} else if (!strcmp(k->name, "cluster_dim")) {
		int n = option_int(s, k, v, 1, 16);
		o->cluster_dim = n > 1 ? n : 0;
	} else if (!strcmp(k->name, "grid_stride") || !strcmp(k->name, "enable_cuda_smem_spilling")) {
		if (v->kind != N_BOOL)
			ERR(v, "%s must be True or False", k->name);
		if (k->name[0] == 'g')
			o->lean = !v->ival;
		else
			o->smem_spilling = (int)v->ival;
	} else if (!strcmp(k->name, "entry_point_abi")) {
		char abi[48];
		short_string(s, v, "entry_point_abi must be a string", abi, sizeof abi);
		if (strcmp(abi, "warp"))
			ERR(v, "entry_point_abi \"%s\" is not supported; only \"warp\", a launch's own signature",
			    abi);
	} else {
		return 0;
	}
	if (o->max_threads && o->max_registers)
		ERR(k, "cuda_max_registers cannot be combined with launch_bounds (as in Warp)");
	return 1;
}

/* What a def's decorator says: a kernel's CUDA options, and Warp's
 * max_unroll (loops of more trips are not unrolled: sema_loopconst.c). */
typedef struct DefOpts {
	KernelOpts k;
	int max_unroll;
} DefOpts;

/* module_options={"KEY": value, ...} of @wp.kernel: Warp's module options
 * for the kernel.  enable_backward=False leaves it without a backward,
 * max_unroll is the loop-constant rule's bound, default_grid_stride=False
 * drops the grid-stride loop where grid_stride does not say; the rest
 * concern how Warp builds the code (fast_math, optimization_level,
 * deterministic, lineinfo, ...) and are accepted as they are, not
 * evaluated.  The flags, with DEF_NO_BACKWARD as they say. */
static int module_options(Sema *s, Node *d, int flags, DefOpts *o)
{
	static const char *const builds[] = {"enable_mathdx_gemm",
					     "enable_mathdx_solver",
					     "enable_mathdx_fft",
					     "fast_math",
					     "fuse_fp",
					     "lineinfo",
					     "cuda_output",
					     "mode",
					     "optimization_level",
					     "cpu_compiler_flags",
					     "block_dim",
					     "compile_time_trace",
					     "strip_hash",
					     "extra_build_options",
					     "deterministic",
					     "deterministic_max_records"};
	if (d->kind != N_DICT)
		ERR(d, "module_options is a dict of Warp's module options: {\"enable_backward\": False, ...}");
	for (int i = 0; i + 1 < d->nkid; i += 2) {
		Node *k = d->kid[i], *v = d->kid[i + 1];
		char key[48];
		short_string(s, k, "a module option is named by a string", key, sizeof key);
		size_t j = 0;
		while (j < KS_NELEM(builds) && strcmp(key, builds[j]))
			j++;
		if (j < KS_NELEM(builds))
			continue; /* how Warp builds it: nothing here */
		if (!strcmp(key, "enable_backward") || !strcmp(key, "default_grid_stride")) {
			if (v->kind != N_BOOL)
				ERR(v, "module option %s must be True or False", key);
			if (key[0] == 'e')
				flags = v->ival ? flags & ~DEF_NO_BACKWARD : flags | DEF_NO_BACKWARD;
			else if (!v->ival)
				o->k.lean = 1;
		} else if (!strcmp(key, "max_unroll")) {
			Const c;
			if (!const_eval(s, v, &c) || c.ty != TY_INT || c.i < 0 || c.i > (1 << 20))
				ERR(v, "module option max_unroll must be an int from 0 to %d", 1 << 20);
			o->max_unroll = (int)c.i;
		} else {
			ERR(k, "'%s' is not one of Warp's module options", key);
		}
	}
	return flags;
}

/* @wp.kernel, @wp.kernel(enable_backward=False, module=..., launch_bounds=
 * ..., ...), @wp.func or @wp.func(module=...): DEF_* flags, and a
 * kernel's CUDA options in *o.  module names the Warp module a def is
 * built in (a string, "unique", a Module), which means nothing here and
 * is not evaluated; enable_backward=False tells kdiff to leave the kernel
 * without a backward. */
static int decorator(Sema *s, Node *fn, int have_wp, DefOpts *o)
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
		} else if (!strcmp(k->name, "module")) {
			/* a name, "unique" or a Module object: nothing here */
		} else if ((flags & DEF_KERNEL) && !strcmp(k->name, "module_options")) {
			flags = module_options(s, k->kid[0], flags, o);
		} else if (!(flags & DEF_KERNEL) || !kernel_option(s, k, &o->k)) {
			ERR(k, "@wp.%s option '%s' is not supported", at->name, k->name);
		}
	}
	return flags;
}

/* The first list or dict display in e, or NULL (the module level reads
 * them for wp.overload only). */
static Node *displays(Node *e)
{
	if (!e || e->kind == N_LIST || e->kind == N_DICT)
		return e;
	for (int i = 0; i < e->nkid; i++) {
		Node *d = displays(e->kid[i]);
		if (d)
			return d;
	}
	return NULL;
}

/* What the value of a module-level assignment is: a constant, a type
 * alias, or neither (host Python, an error where a function reads it). */
typedef struct Bound {
	int kind; /* 0 neither, 1 a constant, 2 a type alias */
	Const c;
	Type t;
} Bound;

static Bound module_value(Sema *s, Node *rhs)
{
	Bound b = {0};
	const Node *d = displays(rhs);
	if (d)
		ERR(d, "%s are not supported in kernels", d->kind == N_LIST ? "lists" : "dicts and sets");
	if (const_eval(s, rhs, &b.c)) {
		b.kind = 1;
	} else if ((rhs->kind == N_ATTR && is_wp_attr(rhs) && wp_type(rhs->name) != TY_VOID) ||
		   ((rhs->kind == N_CALL || rhs->kind == N_INDEX) && array_spelling(rhs->kid[0]) >= 0) ||
		   (rhs->kind == N_CALL &&
		    (is_wp_types(rhs->kid[0], "vector") || is_wp_types(rhs->kid[0], "matrix")))) {
		b.kind = 2;
		b.t = ann_type(s, rhs);
	}
	return b;
}

static void module_target(Sema *s, Node *lhs)
{
	if (lhs->kind != N_NAME)
		ERR(lhs, "only 'NAME = value' and 'NAME, NAME = value, value' are supported at module level");
	if (reserved(lhs->name) || (s->sc->math_as && !strcmp(lhs->name, s->sc->math_as)) ||
	    (s->sc->np_as && !strcmp(lhs->name, s->sc->np_as)))
		ERR(lhs, "cannot assign to '%s' at module level", lhs->name);
}

static void module_bind(Sema *s, Node *lhs, const Bound *b)
{
	if (b->kind == 1) {
		arena_grow(s->a, (void **)&s->cval, &s->capcval, s->ncval + 1, sizeof *s->cval);
		s->cval[s->ncval] = b->c;
		map_put(s->a, &s->sc->consts, arena_strdup(s->a, lhs->name), s->ncval++);
	} else if (b->kind == 2) {
		map_put(s->a, &s->sc->typealias, arena_strdup(s->a, lhs->name), b->t);
	} else {
		skip_name(s, lhs->name, lhs->line, NULL);
	}
}

/* NAME = value at module level: a constant (kept), a type alias (kept),
 * or anything else (an error where a function reads it); NAME, NAME =
 * value, value binds each name so, the values all read first, as Python
 * does (`np_type, wp_type = np.float64, wp.float64`). */
static void module_assign(Sema *s, Node *n)
{
	Node *lhs = n->kid[0], *rhs = n->kind == N_ANNASSIGN ? kid(n, 2) : n->kid[1];
	if (!rhs)
		ERR(n, "a module-level annotation needs a value");
	if (lhs->kind == N_TUPLE && n->kind == N_ASSIGN) {
		enum { MAXT = 16 };
		Bound b[MAXT];
		if (rhs->kind != N_TUPLE || rhs->nkid != lhs->nkid)
			ERR(rhs, "a module-level assignment to %d names needs as many values, separated by commas",
			    lhs->nkid);
		if (lhs->nkid > MAXT)
			ERR(lhs, "at most %d names in one module-level assignment", MAXT);
		for (int i = 0; i < lhs->nkid; i++)
			module_target(s, lhs->kid[i]);
		for (int i = 0; i < lhs->nkid; i++)
			b[i] = module_value(s, rhs->kid[i]);
		for (int i = 0; i < lhs->nkid; i++)
			module_bind(s, lhs->kid[i], &b[i]);
		return;
	}
	module_target(s, lhs);
	Bound b = module_value(s, rhs);
	module_bind(s, lhs, &b);
}

/* A file the front end reads, the one given or a module it imports: its
 * text and pieces, and its top level. */
typedef struct SrcFile {
	Lines in;
	Pieces pc;
	Scope sc;    /* its top level */
	int have_wp; /* the first pass has read its `import warp as wp` */
	int nstmt;   /* the top-level statements it has read */
} SrcFile;

/* The front end at work: the module, the files and their pieces, and what
 * each pass keeps.  mod holds the module level and the defs for the
 * whole run; ast the piece parsed last, and with it what lowering a def
 * needs for a while. */
typedef struct Front {
	Sema s;
	Module *m;
	SrcFile **file; /* file[0]: the one given */
	int nfile;
	SrcFile *at;             /* the file whose pieces are read */
	const char *const *path; /* kparse --path: where absolute imports are found */
	int npath;
	Arena mod, ast;
	Map names; /* the names calls use, interned in name[] */
	const char **name;
	int nname, capname;
	int loaded; /* the piece whose text is in piece, or -1 */
	int parsed; /* the piece in ast, or -1 */
	Parse p;
	Src piece;
	int whole;        /* keep every body (in memory) */
	int keep_going;   /* report a def that does not compile, and go on */
	const char *only; /* in memory: the kernel wanted, or NULL for all */
	int failed;       /* how many did not */
	FILE *out;        /* else print each def there */
	Arena keep;       /* the module's own arena while a body is built */
	Call *calls;      /* collect_calls's scratch list */
	int ncalls, capcalls;
	/* the IR functions being lowered: a def's, then the instances of
	 * generics lowered inside it, innermost last */
	int open[32];
	int nopen;
} Front;

static int file_index(const Front *fr, const SrcFile *f)
{
	int i = 0;
	while (fr->file[i] != f)
		i++;
	return i;
}

/* A new file to read, its scope one of the module's. */
static SrcFile *add_file(Front *fr)
{
	SrcFile *f = xmalloc(sizeof *f);
	memset(f, 0, sizeof *f);
	fr->file = xrealloc(fr->file, (size_t)(fr->nfile + 1) * sizeof *fr->file);
	fr->file[fr->nfile++] = f;
	Sema *s = &fr->s;
	s->scope = xrealloc(s->scope, (size_t)(s->nscope + 1) * sizeof *s->scope);
	s->scope[s->nscope++] = &f->sc;
	return f;
}

/* Read the pieces of f from now on, its names in scope. */
static void use_file(Front *fr, SrcFile *f)
{
	if (fr->at != f) {
		fr->at = f;
		fr->loaded = fr->parsed = -1;
	}
	fr->s.sc = &f->sc;
}

/* The name interned: one copy of each name the calls of the module use. */
static const char *intern(Front *fr, const char *name)
{
	int k = map_get(&fr->names, name);
	if (k >= 0)
		return fr->name[k];
	arena_grow(&fr->mod, (void **)&fr->name, &fr->capname, fr->nname + 1, sizeof *fr->name);
	fr->name[fr->nname] = arena_strdup(&fr->mod, name);
	map_put(&fr->mod, &fr->names, fr->name[fr->nname], fr->nname);
	return fr->name[fr->nname++];
}

/* Note fn, the function call n names (NAME, or M.NAME where M may be a
 * module imported as a name: not wp.NAME, math's or numpy's), in
 * fr->calls, each name once (its first call). */
static void note_call(Front *fr, const Node *fn, const Node *n)
{
	const Scope *sc = &fr->at->sc;
	const char *base = fn && fn->kind == N_ATTR && fn->kid[0]->kind == N_NAME ? fn->kid[0]->name : NULL;
	if (base && (!strcmp(base, "wp") || (sc->math_as && !strcmp(base, sc->math_as)) ||
		     (sc->np_as && !strcmp(base, sc->np_as))))
		base = NULL;
	if (!fn || !(fn->kind == N_NAME || base))
		return;
	char dotted[600]; /* M.NAME: a func of a module imported as a name */
	if (fn->kind == N_ATTR)
		snprintf(dotted, sizeof dotted, "%.250s.%.250s", fn->kid[0]->name, fn->name);
	const char *name = intern(fr, fn->kind == N_NAME ? fn->name : dotted);
	for (int c = 0; c < fr->ncalls; c++)
		if (fr->calls[c].name == name)
			return;
	if (fr->ncalls == fr->capcalls) {
		fr->capcalls = fr->capcalls ? 2 * fr->capcalls : 16;
		fr->calls = xrealloc(fr->calls, (size_t)fr->capcalls * sizeof *fr->calls);
	}
	fr->calls[fr->ncalls++] = (Call){name, n->line, n->col, -1};
}

/* Gather the calls by name in n into fr->calls: each call's function,
 * and the function wp.tile_map(f, ...) calls on each element. */
static void gather_calls(Front *fr, Node *n)
{
	if (!n)
		return;
	if (n->kind == N_CALL) {
		Node *fn = n->kid[0];
		note_call(fr, fn, n);
		if (n->nkid > 1 && is_wp_attr(fn) && !strcmp(fn->name, "tile_map"))
			note_call(fr, n->kid[1], n);
	}
	for (int i = 0; i < n->nkid; i++)
		gather_calls(fr, n->kid[i]);
}

/* Note the calls by name in body n, each name once: the call graph's
 * edges, once the names are known (held at their size: there is one list
 * per def of the file). */
static void collect_calls(Front *fr, Def *d, Node *n)
{
	fr->ncalls = 0;
	gather_calls(fr, n);
	d->ncall = d->capcall = fr->ncalls;
	d->call = NULL;
	if (fr->ncalls)
		d->call = memcpy(arena_alloc(&fr->mod, (size_t)fr->ncalls * sizeof *d->call), fr->calls,
				 (size_t)fr->ncalls * sizeof *d->call);
}

/* The def a call by name (NAME, or M.NAME for module M imported as a
 * name) in file f names, or -1. */
static int call_def(Sema *s, int f, const char *name)
{
	const char *dot = strchr(name, '.');
	if (!dot)
		return map_get(&s->scope[f]->defs, name);
	char m[256];
	snprintf(m, sizeof m, "%.*s", (int)(dot - name), name);
	int k = map_get(&s->scope[f]->modules, m);
	return k >= 0 ? map_get(&s->scope[k]->defs, dot + 1) : -1;
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
	char *mark = arena_alloc(s->a, (size_t)n + 1);                 /* 1: on the stack, 2: done */
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
			if (v < 0 || mark[v] == 2)
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
						      i == k + 1 ? " (via " : ", ", s->def[stack[i]].name);
			if (sp - k - 1 > 4)
				w += (size_t)snprintf(via + w, sizeof via - w, " and %d more", sp - k - 5);
			if (w)
				snprintf(via + w, sizeof via - w, ")");
			const Call *at = &s->def[v].call[next[v] - 1];
			ks_error_at(s->src, at->line, at->col, "recursion is not supported: '%s' calls itself%s",
				    s->def[v].name, via);
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
	Type named = ty_parse(n->name, strlen(n->name));
	if (reserved(n->name) || wp_type(n->name) != TY_VOID || (named != TY_VOID && !ty_is_struct(named)))
		ERR(n, "'%s' cannot be used as a struct name", n->name);
	if (map_get(&s->sc->typealias, n->name) >= 0 || def_find(s, n->name) >= 0 ||
	    map_get(&s->sc->consts, n->name) >= 0)
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
	map_put(s->a, &s->sc->typealias, arena_strdup(s->a, n->name), t);
}

/* A top-level statement, the i-th of the module: an import, the
 * docstring, a constant or a struct (returns NULL), or a decorated def
 * (returns its node).  *have_wp: the import came before; *flags: the
 * def's DEF_* flags. */
static Node *top_level(Sema *s, Node *n, int i, int *have_wp, int *flags, DefOpts *o)
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
	*flags = decorator(s, n, *have_wp, o);
	if (reserved(n->name))
		ERR(n, "'%s' cannot be used as a function name", n->name);
	/* wp.funcs of one name are its overloads (pick_overload); a kernel's
	 * name is its own */
	int prev = def_find(s, n->name);
	if (prev >= 0 && ((*flags & DEF_KERNEL) || s->def[prev].kernel))
		ERR(n, "function '%s' is defined twice", n->name);
	if (s->ndef >= (1 << 24))
		ERR(n, "too many functions in one file (at most %d)", 1 << 24);
	return n;
}

/* A def's parameter defaults, copied for its callers. */
static void def_defaults(Sema *s, Def *d, Node *fn)
{
	Node *ps = kid(fn, 1);
	int np = ps ? ps->nkid : 0, first = 0;
	while (first < np && !kid(ps->kid[first], 1))
		first++;
	d->dflt = NULL; /* none: most functions */
	if (first == np)
		return;
	d->dflt = arena_alloc(s->a, (size_t)(np + 1) * sizeof *d->dflt);
	for (int i = first; i < np; i++) {
		Node *v = kid(ps->kid[i], 1);
		if (!v)
			ERR(ps->kid[i], "parameter '%s' without a default follows one with a default",
			    ps->kid[i]->name);
		d->dflt[i] = ast_copy(s->a, v);
	}
}

/* Read piece k's text into fr->piece (unless it is there already); the
 * piece parsed before, whose syntax points into the text, is gone. */
static const Src *load_piece(Front *fr, int k)
{
	if (fr->loaded == k)
		return &fr->piece;
	const Piece *pc = &fr->at->pc.v[k];
	fr->piece.name = fr->at->in.name;
	fr->piece.text = lines_range(&fr->at->in, pc->off, pc[1].off, &fr->piece.len);
	fr->piece.line0 = pc->line0;
	fr->piece.lines = &fr->at->in;
	fr->loaded = k;
	fr->parsed = -1;
	return &fr->piece;
}

/* Parse piece k into fr->ast (unless it is there already). */
static Node *parse_piece(Front *fr, int k)
{
	if (fr->parsed == k)
		return fr->p.module;
	Sema *s = &fr->s;
	arena_free(&fr->ast);
	/* what lived in the arena goes with it */
	memset(&s->names, 0, sizeof s->names);
	s->loopvar = NULL;
	s->caploopvar = 0;
	s->memo = NULL;
	s->capmemo = 0;
	s->viewed = NULL;
	s->capviewed = 0;
	load_piece(fr, k);
	fr->parsed = k;
	fr->p.displays = fr->at->pc.v[k].displays;
	ks_parse(&fr->p, &fr->piece, &fr->ast);
	return fr->p.module;
}

/* Report the kernel name defined at line, col inside a Python function. */
static void report_factory(Front *fr, int line, int col, const char *name)
{
	if (fr->only)
		return; /* a kernel the one wanted does not need */
	char what[300];
	snprintf(what, sizeof what, "kernel %s: ", name);
	jmp_buf here, *const outer = ks_recover;
	if (!setjmp(here)) {
		ks_recover = fr->keep_going ? &here : outer;
		ks_errwhat = fr->keep_going ? what : NULL;
		ks_error_at(&fr->piece, line, col,
			    "%s%s is defined inside a Python function, which builds it when it runs (a kernel "
			    "factory): kernels are compiled from the module level only",
			    fr->keep_going ? "" : "kernel ", fr->keep_going ? "it" : name);
	}
	ks_recover = outer;
	ks_errwhat = NULL;
	fr->failed++;
}

/* A kernel defined inside the Python function or class of the host
 * piece [l, e) (a kernel factory: Warp builds it when the function runs,
 * from values it captures): each is reported, as a def that does not
 * compile. */
static void factories(Front *fr, const char *l, const char *e, int line)
{
	char name[256];
	int col;
	while ((l = host_factory(l, e, &line, &col, name, sizeof name)))
		report_factory(fr, line, col, name);
}

/* Note def n, the st-th statement of piece k, with its DEF_* flags. */
static void note_def(Front *fr, Node *n, int k, int st, int flags, const DefOpts *o)
{
	Sema *s = &fr->s;
	if (s->ndef == s->capdef) {
		s->capdef = s->capdef ? 2 * s->capdef : 64;
		s->def = xrealloc(s->def, (size_t)s->capdef * sizeof *s->def);
	}
	Def *d = &s->def[s->ndef];
	memset(d, 0, sizeof *d);
	d->name = arena_strdup(s->a, n->name);
	d->line = n->line;
	d->col = n->col;
	d->kernel = (flags & DEF_KERNEL) != 0;
	d->no_backward = (flags & DEF_NO_BACKWARD) != 0;
	d->opts = o->k;
	d->max_unroll = o->max_unroll;
	d->piece = k;
	d->stmt = st;
	def_defaults(s, d, n);
	d->fn = -1;
	d->file = file_index(fr, fr->at);
	for (int i = 0, np = kid(n, 1) ? n->kid[1]->nkid : 0; i < np; i++) {
		Node *ann = kid(n->kid[1]->kid[i], 0);
		d->generic |= ann && generic_ann(s, ann);
	}
	collect_calls(fr, d, kid(n, 3));
	int first = def_find(s, d->name);
	if (first >= 0) /* an overload: the name keeps its first def */
		s->def[first].overloaded = d->overloaded = 1;
	else
		map_put(s->a, &s->sc->defs, d->name, s->ndef);
	s->ndef++;
}

/* Chain each overloaded name's defs (Def.next) in the order of the table,
 * from the def the name maps to. */
static void link_overloads(Sema *s)
{
	for (int d = 0; d < s->ndef; d++)
		s->def[d].next = -1;
	for (int d = 0; d < s->ndef; d++) {
		int t = s->def[d].overloaded ? map_get(&s->scope[s->def[d].file]->defs, s->def[d].name) : d;
		if (t == d || t < 0)
			continue;
		while (s->def[t].next >= 0)
			t = s->def[t].next;
		s->def[t].next = d;
	}
}

/* The defs lowered: with only (a kernel named), that kernel and the
 * funcs it calls, however deep (none when the file has no such kernel);
 * else the file's own defs and what they call of the modules it imports
 * (indexed as s->def before the order); NULL for every def. */
static char *needed(Front *fr)
{
	Sema *s = &fr->s;
	if (!fr->only && fr->nfile == 1)
		return NULL;
	int k = fr->only ? map_get(&s->scope[0]->defs, fr->only) : -1, sp = 0;
	char *need = xmalloc((size_t)s->ndef + 1);
	memset(need, 0, (size_t)s->ndef + 1);
	int *stack = xmalloc(((size_t)s->ndef + 1) * sizeof *stack);
	if (k >= 0 && s->def[k].kernel && !s->def[k].file) {
		need[k] = 1;
		stack[sp++] = k;
	}
	for (int d = 0; !fr->only && d < s->ndef; d++)
		if (!s->def[d].file) { /* the file's own defs, and what they call of the modules it imports */
			need[d] = 1;
			stack[sp++] = d;
		}
	while (sp) {
		const Def *d = &s->def[stack[--sp]];
		for (int c = 0; c < d->ncall; c++)
			if (d->call[c].to >= 0 && !need[d->call[c].to]) {
				need[d->call[c].to] = 1;
				stack[sp++] = d->call[c].to;
			}
	}
	free(stack);
	return need;
}

/* Where a piece's code starts: its first line of code, the end, that
 * line's number, and whether an error in it is an error of the file (a
 * piece of the kernel language, or the rest of a file the scanner could
 * not follow) rather than host Python. */
typedef struct PieceAt {
	const char *l, *e;
	int line, strict;
	int other; /* a kernel other than the one wanted (Front.only) */
} PieceAt;

static void read_file(Front *fr);

/* Path p with each "./" dropped, and each "DIR/../" where DIR is a name
 * (not ".."), in place: ./x.py is x.py, t/host/../x.py is t/x.py, ../x.py
 * stays. */
static void tidy_path(char *p)
{
	char *out = p, *seg = p;
	while (*seg) {
		char *end = strchr(seg, '/');
		size_t n = end ? (size_t)(end - seg) : strlen(seg);
		char *last = out > p ? out - 1 : NULL; /* the '/' ending what is kept */
		char *prev = last;
		while (prev && prev > p && prev[-1] != '/')
			prev--;
		int back = n == 2 && !memcmp(seg, "..", 2) && last && !(last - prev == 2 && !memcmp(prev, "..", 2));
		if (back) {
			out = prev;
		} else if (n == 1 && *seg == '.' && end) {
			/* "./": nothing */
		} else {
			memmove(out, seg, n);
			out += n;
			if (end)
				*out++ = '/';
		}
		if (!end)
			break;
		seg = end + 1;
	}
	*out = 0;
}

/* The file of module spec (".shapes", "..pkg.util", "pkg.shapes") imported
 * by the file at hand: a relative one from that file's folder, an absolute
 * one along the --path folders, then the folder above the outermost
 * package the given file is in, then the given file's folder; NULL when no
 * such file exists (a module of Python's, or numpy's: host code). */
static char *module_file(Front *fr, const char *spec)
{
	int up = 0;
	while (spec[up] == '.')
		up++;
	if (!spec[up])
		return NULL; /* from . import mod: a module bound as a name */
	if (!strcmp(fr->file[0]->in.name, "<stdin>"))
		return NULL; /* a text with no folder imports nothing */
	const char *from = up ? fr->at->in.name : fr->file[0]->in.name;
	int ndir = up ? 1 : fr->npath + 2;
	for (int k = 0; k < ndir; k++) {
		Buf b = {0};
		if (!up && k < fr->npath) {
			buf_puts(&b, fr->path[k]);
		} else {
			const char *slash = strrchr(from, '/');
			if (slash)
				buf_put(&b, from, (size_t)(slash - from));
			else
				buf_putc(&b, '.');
			for (int i = 1; i < up; i++)
				buf_puts(&b, "/..");
			/* the folder above the outermost package the file is in,
			 * where Python finds the package */
			for (int deep = 0; !up && k == fr->npath && deep < 64; deep++) {
				size_t n = b.n;
				buf_puts(&b, "/__init__.py");
				buf_putc(&b, 0);
				FILE *f = fopen(b.p, "r");
				b.n = n;
				if (!f)
					break;
				fclose(f);
				buf_puts(&b, "/..");
			}
		}
		buf_putc(&b, '/');
		for (const char *p = spec + up; *p; p++)
			buf_putc(&b, *p == '.' ? '/' : *p);
		size_t n = b.n;
		static const char *const tail[] = {".py", "/__init__.py"};
		for (int t = 0; t < 2; t++) {
			b.n = n;
			buf_puts(&b, tail[t]);
			buf_putc(&b, 0);
			FILE *f = fopen(b.p, "r");
			if (f) {
				fclose(f);
				tidy_path(b.p);
				return b.p;
			}
		}
		buf_free(&b);
	}
	return NULL;
}

/* Bind name as in the scope at hand to what the scope of module file f
 * binds to name. */
static void bind_import(Front *fr, const SrcFile *f, const char *spec, const char *name, const char *as, int line)
{
	Sema *s = &fr->s;
	Arena *a = &fr->mod;
	as = arena_strdup(a, as);
	int v;
	if ((v = map_get(&f->sc.defs, name)) >= 0) {
		map_put(a, &s->sc->defs, as, v);
	} else if ((v = map_get(&f->sc.consts, name)) >= 0) {
		map_put(a, &s->sc->consts, as, v);
	} else if ((v = map_get(&f->sc.typealias, name)) >= 0) {
		map_put(a, &s->sc->typealias, as, v);
	} else if ((v = map_get(&f->sc.skipped, name)) >= 0) {
		map_put(a, &s->sc->skipped, as, v);
	} else {
		char why[300];
		snprintf(why, sizeof why, "module %s has no '%s' at its top level that a kernel can use", spec,
			 name);
		skip_name(s, as, line, why);
	}
}

/* module_file's path, kept in the front end's arena (NULL: none). */
static const char *module_path(Front *fr, const char *spec)
{
	char *p = module_file(fr, spec);
	const char *kept = p ? arena_strdup(&fr->mod, p) : NULL;
	free(p);
	return kept;
}

/* The module at path, read now if it is new: its first pass, in a scope
 * of its own.  What a module that imports back one being read finds is
 * what that one has read so far. */
static SrcFile *read_module(Front *fr, const char *path, const Node *at)
{
	Sema *s = &fr->s;
	for (int i = 0; i < fr->nfile; i++)
		if (!strcmp(fr->file[i]->in.name, path))
			return fr->file[i];
	if (fr->nfile >= 1024)
		ERR(at, "more than 1024 modules imported");
	SrcFile *was = fr->at, *const f = add_file(fr);
	lines_open(&f->in, path);
	/* an error that gets out of its pieces leaves the file at hand as it
	 * was */
	jmp_buf here, *const outer = ks_recover;
	if (setjmp(here)) {
		ks_recover = outer;
		use_file(fr, was);
		longjmp(*outer, 1);
	}
	if (outer)
		ks_recover = &here;
	use_file(fr, f);
	read_file(fr);
	use_file(fr, was);
	ks_recover = outer;
	return f;
}

/* from MODULE import a, b as c (or *) where MODULE is a file
 * (module_file): each name bound here as the module binds it; and from
 * PACKAGE import mod, where PACKAGE.mod is a file: the module bound to
 * the name (M.NAME then reads it: module_attr).  0 when none of it is a
 * file (the statement is read as any other). */
static int import_from(Front *fr, Node *n)
{
	/* what the statement says, kept: reading a module takes the arena
	 * that holds its syntax */
	int line = n->line, nname = n->nkid, any = 0;
	const char *spec = arena_strdup(&fr->mod, n->name);
	const char **name = arena_alloc(&fr->mod, (size_t)(2 * nname + 1) * sizeof *name);
	const char **sub = arena_alloc(&fr->mod, (size_t)(nname + 1) * sizeof *sub);
	for (int i = 0; i < nname; i++) {
		name[2 * i] = arena_strdup(&fr->mod, n->kid[i]->name);
		name[2 * i + 1] = arena_strdup(&fr->mod, n->kid[i]->str2 ? n->kid[i]->str2 : n->kid[i]->name);
		Buf b = {0};
		buf_printf(&b, "%s%s%s", spec, spec[strlen(spec) - 1] == '.' ? "" : ".", name[2 * i]);
		buf_putc(&b, 0);
		sub[i] = strcmp(name[2 * i], "*") ? module_path(fr, b.p) : NULL;
		any |= sub[i] != NULL;
		buf_free(&b);
	}
	const char *path = module_path(fr, spec);
	if (!path && !any)
		return 0;
	SrcFile *f = path ? read_module(fr, path, n) : NULL;
	for (int i = 0; i < nname; i++) {
		if (sub[i]) {
			SrcFile *m = read_module(fr, sub[i], n);
			map_put(&fr->mod, &fr->at->sc.modules, name[2 * i + 1], file_index(fr, m));
		} else if (!f) {
			char why[300];
			snprintf(why, sizeof why, "%s is no module file to read '%s' from", spec, name[2 * i]);
			skip_name(&fr->s, name[2 * i + 1], line, why);
		} else if (f == fr->at) {
			continue; /* a module importing from itself */
		} else if (strcmp(name[2 * i], "*")) {
			bind_import(fr, f, spec, name[2 * i], name[2 * i + 1], line);
		} else {
			const Map *maps[] = {&f->sc.defs, &f->sc.consts, &f->sc.typealias, &f->sc.skipped};
			for (int k = 0; k < 4; k++)
				for (unsigned j = 0; j < maps[k]->cap; j++)
					if (maps[k]->key[j] && maps[k]->key[j][0] != '_')
						bind_import(fr, f, spec, maps[k]->key[j], maps[k]->key[j], line);
		}
	}
	return 1;
}

/* import MODULE as M, import MODULE (one name), MODULE a file: the module
 * bound to the name.  0 when it is no such statement (import warp as wp,
 * a module of Python's: the statement is read as any other). */
static int import_module(Front *fr, Node *n)
{
	if (n->kind != N_IMPORT || !strcmp(n->name, "warp") || !strcmp(n->name, "math") ||
	    !strcmp(n->name, "numpy") || (!n->str2 && strchr(n->name, '.')))
		return 0;
	const char *path = module_path(fr, n->name);
	if (!path)
		return 0;
	const char *as = arena_strdup(&fr->mod, n->str2 ? n->str2 : n->name);
	SrcFile *m = read_module(fr, path, n);
	map_put(&fr->mod, &fr->at->sc.modules, as, file_index(fr, m));
	return 1;
}

/* Note overload o of the kernel named at n. */
static void add_overload(Front *fr, Node *n, const Overload *o)
{
	Sema *s = &fr->s;
	int d = def_find(s, n->name);
	if (d < 0 || !s->def[d].kernel)
		ERR(n, "wp.overload of '%s', which is no kernel above it", n->name);
	Def *k = &s->def[d];
	if (!k->generic)
		ERR(n, "wp.overload of kernel '%s', which is not generic (no parameter of type Any)", n->name);
	arena_grow(&fr->mod, (void **)&k->ovl, &k->capovl, k->novl + 1, sizeof *k->ovl);
	k->ovl[k->novl++] = *o;
}

/* wp.overload(KERNEL, [T, ...]), wp.overload(KERNEL, {"p": T, ...}) or
 * a def decorated @wp.overload whose parameters give the types (its body
 * is not read): an overload of a generic kernel above.  One of a wp.func
 * is read and has nothing to say (calls instantiate funcs).  Whether n
 * is one. */
static int overload_decl(Front *fr, Node *n)
{
	Sema *s = &fr->s;
	Node *decs = n->kind == N_DEF ? kid(n, 0) : NULL, *call = n->kind == N_EXPR ? n->kid[0] : NULL;
	int stub = decs && decs->nkid == 1 && is_wp_attr(decs->kid[0]) && !strcmp(decs->kid[0]->name, "overload");
	if (!stub &&
	    !(call && call->kind == N_CALL && is_wp_attr(call->kid[0]) && !strcmp(call->kid[0]->name, "overload")))
		return 0;
	Node *name = stub ? n : kid(call, 1), *types = stub ? kid(n, 1) : kid(call, 2);
	if (!stub && (call->nkid != 3 || name->kind != N_NAME || (types->kind != N_LIST && types->kind != N_DICT)))
		ERR(call, "write wp.overload(KERNEL, [T, ...]) or wp.overload(KERNEL, {\"PARAM\": T, ...})");
	int d = def_find(s, name->name);
	if (d >= 0 && !s->def[d].kernel)
		return 1; /* a func's: its calls say its types */
	int pairs = types && types->kind == N_DICT;
	Overload o = {types ? (pairs ? types->nkid / 2 : types->nkid) : 0, n->line, NULL, NULL};
	o.name = arena_alloc(&fr->mod, (size_t)(o.n + 1) * sizeof *o.name);
	o.ty = arena_alloc(&fr->mod, (size_t)(o.n + 1) * sizeof *o.ty);
	for (int i = 0; i < o.n; i++) {
		Node *x = types->kid[pairs ? 2 * i : i], *t = pairs ? types->kid[2 * i + 1] : x;
		if (stub) {
			if (!kid(x, 0))
				ERR(x, "parameter '%s' of an @wp.overload stub needs a type annotation", x->name);
			t = x->kid[0];
		} else if (pairs) {
			char pname[256];
			short_string(s, x, "wp.overload names a parameter by a string", pname, sizeof pname);
			o.name[i] = arena_strdup(&fr->mod, pname);
		}
		o.ty[i] = ann_type(s, t);
	}
	add_overload(fr, name, &o);
	return 1;
}

/* Read piece k of the first pass (see first_pass). */
static void read_piece(Front *fr, int k, const PieceAt *at)
{
	Sema *s = &fr->s;
	char what[300];
	const int quiet = ks_quiet;
	jmp_buf here, *const outer = ks_recover;
	if (setjmp(here)) {
		ks_recover = outer;
		ks_errwhat = NULL;
		ks_quiet = quiet;
		fr->parsed = -1; /* the piece as parsed is done with */
		s->src = NULL;
		if (at->strict || at->other) {
			fr->failed += !at->other;
			host_binds(s, at->l, at->e, at->line, "its definition does not compile");
			return;
		}
		char why[600];
		snprintf(why, sizeof why,
			 "its statement is not the kernel language (%s), so it was skipped as host Python",
			 ks_errmsg);
		host_binds(s, at->l, at->e, at->line, why);
		if (host_is_def(at->l, at->e) && fr->at == fr->file[0]) /* a module's kernels are its own */
			factories(fr, at->l, at->e, at->line);
		return;
	}
	if (!at->strict || at->other) {
		ks_recover = &here;
		ks_quiet = 1;
	} else if (fr->keep_going) {
		ks_recover = &here;
		ks_errwhat = host_what(at->l, at->e, what, sizeof what);
	}
	Node *mod = parse_piece(fr, k);
	s->src = &fr->piece;
	for (int st = 0; st < mod->nkid; st++, fr->at->nstmt++) {
		int flags = 0;
		DefOpts o = {{0}, 16};
		Node *n = mod->kid[st];
		if (overload_decl(fr, n))
			continue;
		if ((n->kind == N_FROMIMPORT && import_from(fr, n)) || import_module(fr, n)) {
			mod = parse_piece(fr, k); /* the module read has taken the arena */
			s->src = &fr->piece;
			continue;
		}
		n = top_level(s, n, fr->at->nstmt, &fr->at->have_wp, &flags, &o);
		if (n && !((flags & DEF_KERNEL) && fr->at != fr->file[0])) /* a module's kernels are its own */
			note_def(fr, n, k, st, flags, &o);
	}
	ks_recover = outer;
	ks_errwhat = NULL;
	ks_quiet = quiet;
}

/* The first pass: the module level, and the defs noted.  A piece of the
 * kernel language (a decorated def or struct) is read as it is: an error
 * in it is the file's (with keep_going, the def's: reported, and its name
 * left for what uses it to find).  Any other piece is read as the module
 * level of the kernel language if it is that (an import kernels read, a
 * constant, a type alias, a docstring) and skipped as host Python if it
 * is not, the names it binds noted with the reason. */
static void read_file(Front *fr)
{
	pieces_scan(&fr->at->pc, &fr->at->in);
	for (int k = 0; k < fr->at->pc.n; k++) {
		const Src *piece = load_piece(fr, k);
		PieceAt at = {NULL, piece->text + piece->len, 0, 0, 0};
		int skip;
		at.l = host_first_code(piece->text, at.e, &skip);
		int kind = host_piece_kind(at.l, at.e);
		if (kind == P_BLANK)
			continue;
		fr->at->pc.v[k].displays = kind != P_KERNEL;
		at.line = piece->line0 + skip;
		at.strict = kind == P_KERNEL || k == fr->at->pc.rest;
		if (fr->only && kind == P_KERNEL && k != fr->at->pc.rest) {
			char what[300], want[300];
			snprintf(want, sizeof want, "kernel %s: ", fr->only);
			/* all but the kernel wanted: a struct or func that does
			 * not compile is an error only where the kernel uses it */
			at.other = strcmp(host_what(at.l, at.e, what, sizeof what), want) != 0;
		}
		if (fr->at != fr->file[0])
			at.other = at.strict; /* an imported module's defs: errors where used */
		read_piece(fr, k, &at);
	}
}

static void first_pass(Front *fr)
{
	Sema *s = &fr->s;
	read_file(fr);
	/* the call graph (a call of an overloaded name calls each of its
	 * overloads, which come before it: all but the caller, when it is one
	 * of them), and the defs numbered callees first */
	link_overloads(s);
	for (int d = 0; d < s->ndef; d++) {
		Def *x = &s->def[d];
		for (int c = 0, nc = x->ncall; c < nc; c++) {
			int to = call_def(s, x->file, x->call[c].name);
			x->call[c].to = to >= 0 && !s->def[to].kernel ? to : -1;
			if (to == d && x->overloaded) /* an overload calling another of its name */
				x->call[c].to = -1;
			for (int o = to >= 0 ? s->def[to].next : -1; o >= 0; o = s->def[o].next) {
				if (o == d)
					continue;
				arena_grow(&fr->mod, (void **)&x->call, &x->capcall, x->ncall + 1, sizeof *x->call);
				x->call[x->ncall] = x->call[c];
				x->call[x->ncall++].to = o;
			}
		}
	}
	int *order = call_order(s);
	char *need = needed(fr);
	/* to[i]: def i's place in the new order, the defs needed first (in
	 * order), then the others; the table is permuted in place, so that it
	 * is never held twice */
	int *to = xmalloc((size_t)(s->ndef + 1) * sizeof *to);
	int n = 0, drop = 0;
	for (int j = 0; j < s->ndef; j++)
		if (!need || need[order[j]])
			n++;
	for (int j = 0, kept = 0; j < s->ndef; j++)
		to[order[j]] = !need || need[order[j]] ? kept++ : n + drop++;
	/* what each file's names map to: a def's new index (-1: left out); an
	 * overloaded name's, the first of its overloads in the new order */
	int *repr = xmalloc((size_t)(s->ndef + 1) * sizeof *repr);
	for (int j = 0; j < s->ndef; j++) {
		repr[j] = to[j] < n ? to[j] : -1;
		for (int c = s->def[j].overloaded ? s->def[j].next : -1; c >= 0; c = s->def[c].next)
			if (to[c] < n && (repr[j] < 0 || to[c] < repr[j]))
				repr[j] = to[c];
	}
	for (int f = 0; f < s->nscope; f++) {
		Map *mp = &s->scope[f]->defs;
		for (unsigned i = 0; i < mp->cap; i++)
			if (mp->key[i] && mp->val[i] >= 0)
				mp->val[i] = repr[mp->val[i]];
	}
	free(repr);
	for (int i = 0; i < s->ndef; i++)
		while (to[i] != i) {
			int k = to[i];
			Def d = s->def[k];
			s->def[k] = s->def[i];
			s->def[i] = d;
			to[i] = to[k];
			to[k] = k;
		}
	for (int i = 0; i < n; i++) {
		Def *d = &s->def[i];
		d->call = NULL; /* the graph is done with */
		d->ncall = d->capcall = 0;
	}
	free(to);
	free(need);
	s->ndef = n;
	link_overloads(s);
}

static void lower_def_of(Front *fr, int j, int k);

/* The name b holds, or the first of NAME_2, NAME_3, ... that taken(s,
 * name, j) says is free: in the arena. */
static const char *numbered(Sema *s, Buf *b, int (*taken)(Sema *s, const char *name, int j), int j)
{
	size_t n = b->n;
	for (int k = 2; taken(s, b->p, j); k++) {
		b->n = n;
		buf_putc(b, '_');
		buf_int(b, k);
	}
	const char *out = arena_strdup(s->a, b->p);
	buf_free(b);
	return out;
}

/* Does name name a def or an IR function? */
static int def_or_fn(Sema *s, const char *name, int j)
{
	(void)j;
	return def_find(s, name) >= 0 || ir_func_find(s->m, name) >= 0;
}

/* The IR name of an overload or an instance of wp.func NAME: the name
 * and its parameters' types (mix_float, mix_vec3_float; an array's
 * element type and arr), numbered where that names something else. */
static const char *typed_name(Sema *s, const char *name, const Type *ty, int np)
{
	Buf b = {0};
	buf_puts(&b, name);
	for (int i = 0; i < np; i++) {
		if (ty[i] == TY_VOID)
			continue;
		Type t = ty[i];
		buf_putc(&b, '_');
		buf_puts(&b, ty_is_struct(ty_elem(t)) || ty_is_array(t) ? ty_name(ty_elem(t)) : ty_name(t));
		if (ty_is_array(t))
			buf_puts(&b, "_arr");
	}
	return numbered(s, &b, def_or_fn, -1);
}

static const char *overload_name(Sema *s, const Def *d)
{
	/* the types first: an error there leaves nothing to free */
	Node *ps = kid(d->node, 1);
	int np = ps ? ps->nkid : 0;
	Type *ty = arena_alloc(s->a, (size_t)(np + 1) * sizeof *ty);
	for (int i = 0; i < np; i++)
		ty[i] = kid(ps->kid[i], 0) ? ann_type(s, ps->kid[i]->kid[0]) : TY_VOID; /* lower_def reports it */
	return typed_name(s, d->name, ty, np);
}

/* IR function fn is def d's. */
static void note_fn(Sema *s, int fn, int d)
{
	if (fn >= s->capfndef) {
		s->capfndef = 2 * fn + 64;
		s->fndef = xrealloc(s->fndef, (size_t)s->capfndef * sizeof *s->fndef);
	}
	s->fndef[fn] = d;
}

/* Does name name an IR function, or a def of the file given but def j? */
static int taken_in_file(Sema *s, const char *name, int j)
{
	int t = map_get(&s->scope[0]->defs, name);
	return ir_func_find(s->m, name) >= 0 || (t >= 0 && t != j);
}

/* The IR name of def j of an imported module, first named name: that,
 * unless a function or a name of the file given takes it (then name_2,
 * ...). */
static const char *module_name(Sema *s, const char *name, int j)
{
	Buf b = {0};
	buf_puts(&b, name);
	return numbered(s, &b, taken_in_file, j);
}

static void lower_one(Front *fr, int j, int k)
{
	Sema *s = &fr->s;
	Module *m = fr->m;
	Def *d = &s->def[j];
	char what[300];
	jmp_buf here, *const outer = ks_recover;
	if (fr->keep_going) {
		if (setjmp(here)) {
			ks_recover = outer;
			ks_errwhat = NULL;
			d->node = NULL;
			d->failed = 1;
			fr->failed++;
			fr->parsed = -1;
			fr->nopen = 0;
			if (d->fn >= 0)
				ir_func_forget(m, d->fn);
			if (!fr->whole) {
				arena_free(&m->arena);
				m->arena = fr->keep;
				memset(&fr->keep, 0, sizeof fr->keep);
				m->fnarena = NULL;
			}
			return;
		}
		ks_recover = &here;
		snprintf(what, sizeof what, "%s %s: ", d->kernel ? "kernel" : "function", d->name);
		ks_errwhat = what;
	}
	lower_def_of(fr, j, k);
	ks_recover = outer;
	ks_errwhat = NULL;
}

/* The second pass, def j: its IR function, lowered and verified (a
 * generic kernel's, one for each of its overloads; for krun --kernel,
 * that of the first, under the kernel's name).  With keep_going, an
 * error leaves it out: reported, its function forgotten and marked
 * failed, for the calls below it to find. */
static void lower(Front *fr, int j)
{
	const Def *d = &fr->s.def[j];
	if (d->generic && !d->kernel)
		return; /* lowered for the types of each call (instance) */
	int n = d->generic && d->novl ? (fr->only ? 1 : d->novl) : 1;
	for (int k = 0; k < n; k++)
		lower_one(fr, j, d->generic && d->novl ? k : -1);
}

/* The parameter types of generic kernel d's overload k, from its syntax
 * fn (TY_VOID for a parameter that is not generic). */
static void overload_types(Sema *s, const Def *d, Node *fn, int k, Type *ty)
{
	Node *ps = kid(fn, 1);
	int np = ps ? ps->nkid : 0;
	const Overload *o = &d->ovl[k];
	if (o->n && !o->name[0] && o->n != np)
		ERR(fn, "wp.overload (line %d) gives %d type%s for the %d parameters of '%s'", o->line, o->n,
		    o->n == 1 ? "" : "s", np, d->name);
	for (int j = 0; j < o->n; j++) {
		int i = 0;
		while (o->name[j] && i < np && strcmp(o->name[j], ps->kid[i]->name))
			i++;
		if (o->name[j] && i == np)
			ERR(fn, "wp.overload (line %d) names '%s', which is no parameter of '%s'", o->line,
			    o->name[j], d->name);
	}
	for (int i = 0; i < np; i++) {
		Node *ann = kid(ps->kid[i], 0);
		ty[i] = TY_VOID;
		if (!ann || !generic_ann(s, ann))
			continue;
		int at = -1;
		for (int j = 0; j < o->n && at < 0; j++)
			if (o->name[j] ? !strcmp(o->name[j], ps->kid[i]->name) : j == i)
				at = j;
		if (at < 0)
			ERR(ps->kid[i], "wp.overload (line %d) gives no type for '%s', whose type is generic",
			    o->line, ps->kid[i]->name);
		ty[i] = o->ty[at];
	}
}

static void lower_def_of(Front *fr, int j, int k)
{
	Sema *s = &fr->s;
	Module *m = fr->m;
	Def *d = &s->def[j];
	use_file(fr, fr->file[d->file]);
	d->node = parse_piece(fr, d->piece)->kid[d->stmt];
	s->src = &fr->piece;
	s->a = &fr->ast;
	/* its annotations are read at the module level: no local of the
	 * function lowered before is in sight */
	memset(&s->names, 0, sizeof s->names);
	d->fn = -1;
	if (!fr->whole) {
		/* the body in an arena of its own; the name and signature stay
		 * (an error from here on frees it: lower_one) */
		fr->keep = m->arena;
		memset(&m->arena, 0, sizeof m->arena);
		m->fnarena = &fr->keep;
	}
	Type ty[MAXOPS];
	int np = kid(d->node, 1) ? d->node->kid[1]->nkid : 0;
	if (d->generic && !d->novl)
		ERR(d->node,
		    "kernel '%s' is generic (a parameter of type Any) and no wp.overload gives its types (Warp "
		    "would take them from a launch)",
		    d->name);
	if (k >= 0) {
		if (np > MAXOPS)
			ERR(d->node, "'%s' has more than %d parameters", d->name, MAXOPS);
		overload_types(s, d, d->node, k, ty);
	}
	const char *name = d->overloaded ? overload_name(s, d) : d->name;
	if (k >= 0 && !fr->only)
		name = typed_name(s, d->name, ty, np);
	if (d->file)
		name = module_name(s, name, j);
	Func *f = ir_func_new(m, name, d->kernel, loc_of(d->node));
	if (d->file)
		f->file = arena_strdup(&m->arena, fr->file[d->file]->in.name);
	d->fn = m->nfn - 1;
	note_fn(s, d->fn, j);
	fr->open[0] = d->fn;
	fr->nopen = 1;
	f->no_backward = d->no_backward;
	f->opts = d->opts;
	s->inst_ty = k >= 0 ? ty : NULL;
	lower_def(s, d, d->fn); /* instances it calls come before it: d->fn moves */
	fr->nopen = 0;
	d->node = NULL;
	ir_verify_func(m, &fr->piece, 1, d->fn);
	if (fr->whole)
		return;
	ir_print_func(fr->out, m, f);
	if (d->kernel)
		ir_func_forget(m, d->fn); /* nothing calls a kernel */
	else
		ir_keep_signature(m, f);
	arena_free(&m->arena);
	m->arena = fr->keep;
	memset(&fr->keep, 0, sizeof fr->keep);
	m->fnarena = NULL;
}

/* The parameter types of the instance of generic def g that call e takes
 * (at, an: its arguments' types and keywords), from g's syntax fn: each
 * of its annotation, or for Any, of its argument. */
static void instance_types(Sema *s, Node *e, const Def *g, Node *fn, const Type *at, const char *const *an,
			   Type *ty)
{
	Node *ps = kid(fn, 1);
	int np = ps ? ps->nkid : 0, n = e->nkid - 1;
	int arg[MAXOPS];
	for (int i = 0; i < np; i++)
		arg[i] = -1;
	if (n > np)
		ERR(e, "%s() takes %d argument%s, not %d", g->name, np, np == 1 ? "" : "s", n);
	for (int i = 0, pos = 0; i < n; i++) {
		int k = an[i] ? -1 : pos++;
		for (int j = 0; an[i] && j < np; j++)
			if (!strcmp(ps->kid[j]->name, an[i]))
				k = j;
		if (k < 0)
			ERR(e->kid[i + 1], "%s() has no parameter '%s'", g->name, an[i]);
		if (arg[k] >= 0)
			ERR(e->kid[i + 1], "argument '%s' of %s() is given twice", ps->kid[k]->name, g->name);
		arg[k] = i;
	}
	for (int i = 0; i < np; i++) {
		Node *ann = kid(ps->kid[i], 0);
		ty[i] = TY_VOID; /* not generic: lower_def reads its annotation */
		if (!ann || !generic_ann(s, ann))
			continue;
		int64_t iv;
		double fv;
		int isf;
		if (arg[i] < 0 && g->dflt && g->dflt[i] && literal(g->dflt[i], &iv, &fv, &isf)) {
			ty[i] = isf ? TY_FLOAT : TY_INT; /* a default's type: a Python number's */
			continue;
		}
		if (arg[i] < 0)
			ERR(e,
			    "%s() needs an argument for '%s', whose type is generic (or a number as its default)",
			    g->name, ps->kid[i]->name);
		Node *x = e->kid[arg[i] + 1];
		ty[i] = generic_type(s, ann, x->kind == N_KWARG ? x->kid[0] : x, at[arg[i]]);
	}
}

/* The Sema state of the function being lowered, and where its body
 * lives, kept while an instance is lowered inside it. */
typedef struct Outer {
	Sema s;
	Arena body;
	const char *piece_text; /* the instance's own copy of its piece */
	Arena ast;              /* and its syntax, when not the piece at hand */
} Outer;

/* Back to the caller's state; what the instance added to the module's
 * tables (functions, instances) stays. */
static void instance_done(Front *fr, Outer *o)
{
	Sema *s = &fr->s;
	Sema in = *s;
	*s = o->s;
	s->fndef = in.fndef;
	s->capfndef = in.capfndef;
	s->inst = in.inst;
	s->ninst = in.ninst;
	s->capinst = in.capinst;
	if (!fr->whole) {
		arena_free(&fr->m->arena);
		fr->m->arena = o->body;
	}
	arena_free(&o->ast);
	free((char *)o->piece_text);
}

/* The instance just lowered, the module's last function, moves to just
 * before the outermost function being lowered (which calls it, and a
 * call names a function above it); those being lowered move down one.
 * Its place. */
static int place_instance(Front *fr)
{
	Module *m = fr->m;
	Sema *s = &fr->s;
	int made = m->nfn - 1, p = fr->open[0];
	int32_t *to = xmalloc((size_t)m->nfn * sizeof *to);
	for (int i = 0; i < m->nfn; i++)
		to[i] = i < p ? i : i == made ? p : i + 1;
	ir_reorder(m, to);
	int d = s->fndef[made];
	memmove(&s->fndef[p + 1], &s->fndef[p], (size_t)(made - p) * sizeof *s->fndef);
	s->fndef[p] = d;
	for (int k = 0; k < fr->nopen; k++)
		fr->open[k] = to[fr->open[k]];
	s->def[s->fndef[fr->open[0]]].fn = fr->open[0];
	free(to);
	return p;
}

int instance(Sema *s, Node *e, int d, const Type *at, const char *const *an)
{
	Front *fr = (Front *)(void *)((char *)s - offsetof(Front, s));
	Module *m = fr->m;
	Def *g = &s->def[d];
	/* its syntax: in the piece at hand, or parsed on its own (the
	 * caller's syntax and text stay where they are) */
	Outer o;
	memset(&o, 0, sizeof o);
	o.s = *s;
	o.body = m->arena;
	SrcFile *gf = fr->file[g->file];
	Src src = fr->piece;
	Node *const here_fn = fr->at == gf && fr->parsed == g->piece ? fr->p.module->kid[g->stmt] : NULL;
	if (!here_fn) {
		const Piece *pc = &gf->pc.v[g->piece];
		Buf keep = gf->in.range;
		memset(&gf->in.range, 0, sizeof keep);
		src.name = gf->in.name;
		src.text = lines_range(&gf->in, pc->off, pc[1].off, &src.len);
		src.lines = &gf->in;
		o.piece_text = src.text;
		gf->in.range = keep;
		src.line0 = pc->line0;
	}
	/* an error below: the caller's state back, and on to its handler */
	jmp_buf here, *const outer = ks_recover;
	const char *const what0 = ks_errwhat;
	char what[512];
	volatile int k = -1, made = 0, placed = -1, inside = 0;
	if (setjmp(here)) {
		ks_recover = outer;
		ks_errwhat = what0;
		g->node = NULL;
		if (made) /* being lowered */
			ir_func_forget(m, fr->open[--fr->nopen]);
		if (placed >= 0) /* lowered, placed, and not verified */
			ir_func_forget(m, placed);
		if (inside) {
			instance_done(fr, &o);
		} else {
			arena_free(&o.ast);
			free((char *)o.piece_text);
		}
		if (k >= 0)
			s->ninst = k; /* each caller that wants it meets its error */
		longjmp(*outer, 1);
	}
	if (outer)
		ks_recover = &here;
	Node *fn = here_fn;
	if (!fn) {
		Parse p = {0};
		ks_parse(&p, &src, &o.ast);
		fn = p.module->kid[g->stmt];
	}
	Node *ps = kid(fn, 1);
	int np = ps ? ps->nkid : 0;
	Type ty[MAXOPS];
	instance_types(s, e, g, fn, at, an, ty);
	for (int i = 0; i < s->ninst; i++) {
		const Instance *x = &s->inst[i];
		if (x->def != d || memcmp(x->ty, ty, (size_t)np * sizeof *ty))
			continue;
		if (x->fn < 0)
			ERR(e, "recursion is not supported: '%s' calls itself", g->name);
		ks_recover = outer;
		arena_free(&o.ast);
		free((char *)o.piece_text);
		return x->fn;
	}
	if (s->ninst == s->capinst) {
		s->capinst = s->capinst ? 2 * s->capinst : 16;
		s->inst = xrealloc(s->inst, (size_t)s->capinst * sizeof *s->inst);
	}
	k = s->ninst++;
	s->inst[k] = (Instance){d, np, arena_alloc(&fr->mod, (size_t)(np + 1) * sizeof *ty), -1};
	memcpy(s->inst[k].ty, ty, (size_t)np * sizeof *ty);
	/* lowered as a def is (lower_def_of), inside the caller */
	o.s = *s;
	inside = 1;
	s->src = o.piece_text ? &src : &fr->piece;
	s->sc = &gf->sc;
	if (o.piece_text)
		s->a = &o.ast;
	s->memo = NULL;
	s->capmemo = 0;
	s->viewed = NULL;
	s->capviewed = 0;
	s->loopvar = NULL;
	s->caploopvar = 0;
	if (!fr->whole)
		memset(&m->arena, 0, sizeof m->arena);
	const char *name = typed_name(s, g->name, ty, np);
	if (fr->nopen == (int)KS_NELEM(fr->open))
		ERR(e, "generic functions nested more than %d deep", (int)KS_NELEM(fr->open) - 1);
	Func *f = ir_func_new(m, name, 0, loc_of(fn));
	if (g->file)
		f->file = arena_strdup(&m->arena, gf->in.name);
	note_fn(s, m->nfn - 1, d);
	fr->open[fr->nopen++] = m->nfn - 1;
	made = 1;
	g->node = fn;
	s->inst_ty = ty;
	/* an error in its body names the instance (the generic parameters'
	 * types) and the call */
	int w = snprintf(what, sizeof what, "%sin %s(", what0 ? what0 : "", g->name), first = 1;
	for (int i = 0; i < np && w < (int)sizeof what; i++)
		if (ty[i] != TY_VOID) {
			w += snprintf(what + w, sizeof what - (size_t)w, "%s%s: %s", first ? "" : ", ",
				      ps->kid[i]->name, uty(ty[i]));
			first = 0;
		}
	if (w < (int)sizeof what)
		snprintf(what + w, sizeof what - (size_t)w, ") called at %s:%d: ", o.s.src->name, e->line);
	ks_errwhat = what;
	lower_def(s, g, m->nfn - 1);
	ks_errwhat = what0;
	g->node = NULL;
	fr->nopen--;
	made = 0;
	int at_fn = place_instance(fr);
	placed = at_fn;
	ir_verify_func(m, s->src, 1, at_fn);
	if (!fr->whole) {
		ir_print_func(fr->out, m, f);
		ir_keep_signature(m, f);
	}
	ks_recover = outer;
	instance_done(fr, &o);
	s->inst[k].fn = at_fn;
	return at_fn;
}

static void front_init(Front *fr, Module *m)
{
	memset(fr, 0, sizeof *fr);
	fr->m = m;
	fr->loaded = fr->parsed = -1;
	fr->s.m = m;
	fr->s.a = &fr->mod;
}

static void front_free(Front *fr)
{
	free(fr->s.def);
	fr->s.def = NULL;
	for (int i = 0; i < fr->nfile; i++) {
		lines_close(&fr->file[i]->in);
		free(fr->file[i]->pc.v);
		free(fr->file[i]);
	}
	free(fr->file);
	fr->file = NULL;
	fr->nfile = 0;
	fr->at = NULL;
	free(fr->s.scope);
	fr->s.scope = NULL;
	free(fr->calls);
	fr->calls = NULL;
	free(fr->s.fndef);
	fr->s.fndef = NULL;
	free(fr->s.inst);
	fr->s.inst = NULL;
	arena_free(&fr->ast);
	arena_free(&fr->mod);
}

int ks_frontend_file(const char *path, const char *outpath, int keep_going, const char *const *dirs, int ndirs)
{
	Front fr;
	Module *m = ir_module_new();
	front_init(&fr, m);
	fr.keep_going = keep_going;
	fr.path = dirs;
	fr.npath = ndirs;
	SrcFile *f0 = add_file(&fr);
	lines_open(&f0->in, path);
	use_file(&fr, f0);
	m->source = arena_strdup(&m->arena, f0->in.name);
	first_pass(&fr);
	fr.out = out_open_spool(outpath);
	ir_print_head(fr.out, m);
	for (int j = 0; j < fr.s.ndef; j++)
		lower(&fr, j);
	if (fflush(fr.out) || ferror(fr.out))
		ks_fatal("write error:");
	out_commit();
	int failed = fr.failed;
	front_free(&fr);
	ir_module_free(m);
	return failed;
}

Module *ks_frontend(const Src *src, const char *kernel)
{
	/* static: a longjmp out (ks_recover) leaves what it holds reachable,
	 * and the next call frees it; the module is freed on the way */
	static Front fr;
	front_free(&fr);
	Module *const m = ir_module_new();
	jmp_buf here, *const outer = ks_recover;
	if (setjmp(here)) {
		ks_recover = outer;
		ir_module_free(m);
		front_free(&fr);
		if (outer)
			longjmp(*outer, 1);
		out_abort();
		exit(1);
	}
	ks_recover = &here;
	front_init(&fr, m);
	fr.whole = 1;
	fr.only = kernel;
	SrcFile *f0 = add_file(&fr);
	lines_mem(&f0->in, src->name ? src->name : "<stdin>", src->text, src->len);
	use_file(&fr, f0);
	if (src->name)
		m->source = arena_strdup(&m->arena, src->name);
	first_pass(&fr);
	for (int j = 0; j < fr.s.ndef; j++)
		lower(&fr, j);
	front_free(&fr);
	ks_recover = outer;
	return m;
}
