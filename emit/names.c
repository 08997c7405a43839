/*
 * names.c: the C names of what the emitted code declares, pass 3 of a
 * function and the global names of the module.  Parameters and variables
 * keep their source names unless they clash with C, C++ or CUDA (then a
 * suffix; doc/emit.md, Names); temps that stay temps get a name from what
 * they hold (x_i for x[i]) or t0, t1, ...  Global names (name_globals)
 * are the kernels' entries first, whose names are the ABI krun calls
 * (emit_entry_name), then the functions in module order; local names
 * (name_params, name_locals) avoid them and each other.
 *
 * A NameSet is an open-addressed hash set of the names taken, so that
 * taking a name costs the same whatever the number already taken.
 */
#include <stdlib.h>
#include <string.h>

#include "emit/emit_int.h"

/* Words a name may not be: C11, C++ and CUDA keywords and identifiers the
 * emitted code or ksynth.h uses. */
/* clang-format off */
static const char *const reserved[] = {
	"alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool",
	"break", "case", "catch", "char", "char16_t", "char32_t", "char8_t", "class",
	"co_await", "co_return", "co_yield", "compl", "concept", "const", "const_cast",
	"consteval", "constexpr", "constinit", "continue", "decltype", "default", "delete",
	"dim", "dim3", "do", "double", "dynamic_cast", "else", "enum", "explicit", "export",
	"extern", "false", "float", "for", "friend", "goto", "if", "inline", "int", "long",
	"main", "mutable", "namespace", "new", "noexcept", "not", "not_eq", "nullptr",
	"operator", "or", "or_eq", "private", "protected", "public", "register",
	"reinterpret_cast", "requires", "restrict", "return", "short", "signed", "sizeof",
	"static", "static_assert", "static_cast", "struct", "switch", "template", "this",
	"thread_local", "throw", "true", "try", "typedef", "typeid", "typename", "union",
	"unsigned", "using", "virtual", "void", "volatile", "wchar_t", "while", "xor",
	"xor_eq", "tid", "tid0", "tid1", "tid2", "tid3", "dim0", "dim1", "dim2", "dim3",
	"threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize",
	"int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t", "uint32_t", "int64_t", "uint64_t",
	"size_t", "half",
	"NULL", "INFINITY", "NAN", "HUGE_VAL", "HUGE_VALF", "errno", "assert",
	"sinf", "cosf", "tanf", "asinf", "acosf", "atanf", "atan2f", "sinhf", "coshf",
	"tanhf", "expf", "logf", "log2f", "log10f", "sqrtf", "powf", "floorf", "ceilf",
	"fabsf", "fmodf", "isnan", "isinf", "isfinite", "signbit", "fpclassify",
	"roundf", "rintf", "truncf", "cbrtf", "erff", "erfcf", "copysignf",
	"atomicAdd", "atomicSub", "atomicMin", "atomicMax", "atomicCAS", "atomicExch", "atomicAnd",
	"atomicOr", "atomicXor",
	"__float_as_int", "__int_as_float",
};
/* clang-format on */

/* Function names also avoid the math library and CUDA's overloads
 * (a __device__ function min() would clash with CUDA's). */
/* clang-format off */
static const char *const reserved_global[] = {
	"sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh",
	"exp", "log", "log2", "log10", "sqrt", "pow", "floor", "ceil", "fabs", "abs",
	"fmod", "min", "max", "fmin", "fmax", "round", "trunc", "exit", "abort",
	"rint", "cbrt", "erf", "erfc", "copysign",
	"printf", "malloc", "free", "memcpy", "memset",
};
/* clang-format on */

static uint64_t name_hash(const char *s) { return ks_hash64(s, strlen(s), 0); }

static size_t name_slot(const NameSet *ns, const char *s, uint64_t hash)
{
	size_t h = (size_t)hash & (size_t)(ns->cap - 1);
	while (ns->slot[h] && strcmp(ns->slot[h], s))
		h = (h + 1) & (size_t)(ns->cap - 1);
	return h;
}

/* Is s, whose name_hash is hash, in the set? */
static int name_in(const NameSet *ns, const char *s, uint64_t hash)
{
	return ns->cap && ns->slot[name_slot(ns, s, hash)];
}

/* Take s: a copy goes into the set (unless s, a name of the module,
 * lives as long as the set: keep), which returns it. */
static const char *take_name(NameSet *ns, const char *s, int keep)
{
	if (4 * (ns->n + 1) > 3 * ns->cap) { /* three quarters full */
		NameSet g = {NULL, 0, ns->cap ? 2 * ns->cap : 64, ns->text};
		g.slot = xmalloc((size_t)g.cap * sizeof *g.slot);
		memset(g.slot, 0, (size_t)g.cap * sizeof *g.slot);
		for (int i = 0; i < ns->cap; i++)
			if (ns->slot[i])
				g.slot[name_slot(&g, ns->slot[i], name_hash(ns->slot[i]))] = ns->slot[i];
		g.n = ns->n;
		free(ns->slot);
		*ns = g;
	}
	size_t h = name_slot(ns, s, name_hash(s));
	if (!ns->slot[h]) {
		ns->slot[h] = keep ? s : arena_strdup(&ns->text, s);
		ns->n++;
	}
	return ns->slot[h];
}

static const char *add_name(NameSet *ns, const char *s) { return take_name(ns, s, 0); }

/* Forget every name, keeping the table. */
void clear_names(NameSet *ns)
{
	if (ns->cap)
		memset(ns->slot, 0, (size_t)ns->cap * sizeof *ns->slot);
	ns->n = 0;
	arena_free(&ns->text);
}

void free_names(NameSet *ns)
{
	clear_names(ns);
	free(ns->slot);
	memset(ns, 0, sizeof *ns);
}

/* Does s start with a prefix C, C++ or ksynth.h keeps for itself? */
static int reserved_prefix(const char *s) { return s[0] == '_' || !strncmp(s, "ks_", 3) || !strncmp(s, "KS_", 3); }

/* Is s an entry's name: BASE and a suffix of entry_sfx, BASE a base taken? */
static int is_entry(const NameSet *bases, const char *s);

/* Is s a kernel's per-thread function named as it comes, NAME_thread or
 * NAME_backward_thread (fname NULL: not kept in gnames), by one named
 * already? */
static int is_thread(const Emitter *e, const char *s)
{
	static const char tail[] = "_thread", bw[] = "_backward";
	size_t n = strlen(s), t = sizeof tail - 1, b = sizeof bw - 1;
	char base[512];
	if (n <= t || n - t >= sizeof base || strcmp(s + n - t, tail))
		return 0;
	for (int back = 0; back < 2; back++) {
		size_t k = n - t - (back ? b : 0);
		if (back && (n - t <= b || memcmp(s + k, bw, b)))
			break;
		memcpy(base, s, k);
		base[k] = 0;
		int fi = (back ? ir_backward_find : ir_func_find)(e->m, base);
		if (fi >= 0 && fi < e->named && e->m->fnkind[fi] == (back ? FN_BACKWARD : FN_KERNEL) &&
		    !e->fname[fi])
			return 1;
	}
	return 0;
}

/* Is s free to be a name of the kind asked (global or local)? */
static int name_ok(const Emitter *e, const char *s, int global)
{
	if (reserved_prefix(s) || strstr(s, "__"))
		return 0;
	uint64_t h = name_hash(s);
	if (name_in(&e->reserved, s, h) || name_in(&e->gnames, s, h) || is_entry(&e->bases, s) || is_thread(e, s))
		return 0;
	if (global ? name_in(&e->reserved_global, s, h) : name_in(&e->lnames, s, h))
		return 0;
	return 1;
}

/* The C spelling of source name s before clashes are settled: s with its
 * leading underscores dropped and every run of underscores made one, after
 * "v_" when s has a reserved prefix ("_y" -> "v_y", "__k" -> "v_k",
 * "a__b" -> "a_b", "ks_t" -> "v_ks_t"; "_" -> "v").  No spelling starts
 * with '_' or holds "__", which C and C++ reserve. */
static void c_spelling(Buf *b, const char *s)
{
	int prefix = reserved_prefix(s);
	while (*s == '_')
		s++;
	if (prefix)
		buf_puts(b, *s ? "v_" : "v");
	for (; *s; s++)
		if (!(s[0] == '_' && s[1] == '_'))
			buf_putc(b, *s);
	if (!b->n)
		buf_putc(b, 'v');
}

/* Suffix k of a spelling that clashes: "_", "_1", "_2", ...; after a
 * spelling that ends in '_', "1", "2", ... (so that no "__" appears).
 * Every suffix gives a new name, so a search through them ends. */
static void clash_suffix(Buf *b, size_t base, int k)
{
	b->n = base;
	int under = base && b->p[base - 1] == '_';
	if (k == 0 && !under)
		buf_putc(b, '_');
	else
		buf_printf(b, under ? "%d" : "_%d", k + under);
}

/* A C name for source name s: its spelling when free, else the first free
 * spelling with a clash suffix (doc/emit.md, Names). */
const char *make_name(Emitter *e, const char *s, int global)
{
	Buf *b = &e->spelling;
	b->n = 0;
	c_spelling(b, s);
	size_t base = b->n;
	for (int k = 0; !name_ok(e, b->p, global); k++)
		clash_suffix(b, base, k);
	return add_name(global ? &e->gnames : &e->lnames, b->p);
}

/* A kernel's entries are BASE_cpu_forward, BASE_cuda_forward,
 * BASE_cpu_backward and BASE_cuda_backward: the ABI krun calls.  BASE is
 * the kernel's name when C reserves nothing in those names (no leading
 * '_', no "__", no ks_ or KS_, no trailing '_'); such names never clash.
 * Any other kernel takes its spelling without trailing underscores, with
 * the first clash suffix that gives four names no kernel took before it
 * (the plain ones first, then these in module order). */
static const char *const entry_sfx[] = {"_cpu_forward", "_cuda_forward", "_cpu_backward", "_cuda_backward"};

static int plain_entry(const char *name)
{
	size_t n = strlen(name);
	return n && !reserved_prefix(name) && !strstr(name, "__") && name[n - 1] != '_';
}

static int is_entry(const NameSet *bases, const char *s)
{
	size_t n = strlen(s);
	char base[512];
	/* every suffix ends in "_forward" or "_backward" */
	if (!bases->n || n < 8 || s[n - 1] != 'd' || s[n - 2] != 'r')
		return 0;
	for (size_t i = 0; i < KS_NELEM(entry_sfx); i++) {
		size_t k = strlen(entry_sfx[i]);
		if (n <= k || n - k >= sizeof base || strcmp(s + n - k, entry_sfx[i]))
			continue;
		memcpy(base, s, n - k);
		base[n - k] = 0;
		if (name_in(bases, base, name_hash(base)))
			return 1;
	}
	return 0;
}

/* BASE for name, taken in bases (which returns its copy) */
static const char *entry_base(NameSet *bases, const char *name)
{
	Buf b = {0}, full = {0};
	if (plain_entry(name)) {
		buf_puts(&b, name);
	} else {
		c_spelling(&b, name);
		while (b.n > 1 && b.p[b.n - 1] == '_')
			b.p[--b.n] = 0;
	}
	size_t base = b.n;
	for (int k = 0;; k++) {
		size_t i = 0;
		for (; i < KS_NELEM(entry_sfx); i++) {
			full.n = 0;
			buf_cat(&full, b.p, entry_sfx[i], NULL);
			if (strstr(full.p, "__") || is_entry(bases, full.p))
				break;
		}
		if (i == KS_NELEM(entry_sfx))
			break;
		clash_suffix(&b, base, k);
	}
	int same = !strcmp(b.p, name); /* kept as the module's */
	const char *s = take_name(bases, same ? name : b.p, same);
	buf_free(&full);
	buf_free(&b);
	return s;
}

/* base[i]: BASE of kernel i and of its backward (NULL for funcs); the
 * bases go into bases. */
static void entry_bases(NameSet *bases, const Module *m, const char **base)
{
	for (int i = 0; i < m->nfn; i++)
		base[i] = NULL;
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < m->nfn; i++)
			if (m->fnkind[i] == FN_KERNEL && plain_entry(m->fnname[i]) == !pass)
				base[i] = entry_base(bases, m->fnname[i]);
	for (int i = 0; i < m->nfn; i++)
		if (m->fnkind[i] == FN_BACKWARD) {
			int k = ir_func_find(m, m->fnname[i]);
			base[i] = k >= 0 && base[k] ? base[k] : take_name(bases, m->fnname[i], 1);
		}
}

void emit_entry_name(Buf *out, const Module *m, const char *kernel, int target, int backward)
{
	NameSet bases = {0};
	int n = m->nfn;
	const char **base = xmalloc((size_t)(n ? n : 1) * sizeof *base);
	entry_bases(&bases, m, base);
	int k = ir_func_find(m, kernel);
	buf_printf(out, "%s%s", k >= 0 && base[k] ? base[k] : kernel,
		   entry_sfx[2 * !!backward + (target == EMIT_CUDA)]);
	free(base);
	free_names(&bases);
}

/* The module's names: the reserved words, then the entries' names and
 * the functions', e->ebase and e->fname. */
void name_globals(Emitter *e)
{
	const Module *m = e->m;
	for (size_t i = 0; i < KS_NELEM(reserved); i++)
		add_name(&e->reserved, reserved[i]);
	for (size_t i = 0; i < KS_NELEM(reserved_global); i++)
		add_name(&e->reserved_global, reserved_global[i]);
	int n = m->nfn ? m->nfn : 1;
	e->fname = xmalloc((size_t)n * sizeof *e->fname);
	/* global names: the entries first (their names are the ABI), then
	 * functions in module order */
	e->ebase = xmalloc((size_t)n * sizeof *e->ebase);
	entry_bases(&e->bases, m, e->ebase);
	/* a kernel's fname is its per-thread function, NAME_thread, and a
	 * backward kernel's NAME_backward_thread: NULL, and no copy kept,
	 * when that is its C name (fn_name makes it, is_thread knows it); a
	 * func's name is the module's when that is its C name */
	Buf t = {0};
	for (e->named = 0; e->named < m->nfn; e->named++) {
		int i = e->named;
		t.n = 0;
		buf_cat(&t, m->fnname[i],
			m->fnkind[i] == FN_FUNC       ? ""
			: m->fnkind[i] == FN_BACKWARD ? "_backward_thread"
						      : "_thread",
			NULL);
		Buf sp = {0};
		c_spelling(&sp, t.p);
		buf_putc(&sp, 0);
		int plain = !strcmp(sp.p, t.p) && name_ok(e, t.p, 1);
		buf_free(&sp);
		if (plain && m->fnkind[i] != FN_FUNC)
			e->fname[i] = NULL;
		else if (plain)
			e->fname[i] = take_name(&e->gnames, m->fnname[i], 1);
		else
			e->fname[i] = make_name(e, t.p, 1);
	}
	buf_free(&t);
}

const char *fn_name(Emitter *e, int fi)
{
	if (e->fname[fi])
		return e->fname[fi];
	e->scratch.n = 0;
	buf_cat(&e->scratch, e->m->fnname[fi], e->m->fnkind[fi] == FN_BACKWARD ? "_backward_thread" : "_thread",
		NULL);
	return e->scratch.p;
}

static void local_name(Emitter *e, int val, const char *base) { e->v[val].name = make_name(e, base, 0); }

/* A readable name for a temp that stays a temp. */
static void temp_name(Emitter *e, int val, int *counter)
{
	const Inst *in = e->v[val].def >= 0 ? e->ii[e->v[val].def].in : NULL;
	char base[300], num[24];
	base[0] = 0;
	num[sizeof num - 1] = 0;
	if (in && in->op == OP_LOAD && e->v[in->arg[0]].name) {
		const Value *iv = &e->f->val[in->arg[1]];
		if (iv->kind == VK_PARAM || iv->kind == VK_VAR)
			ks_join(base, sizeof base, e->v[in->arg[0]].name, "_", e->v[in->arg[1]].name, NULL);
		else if (iv->kind == VK_CONST)
			ks_join(base, sizeof base, e->v[in->arg[0]].name, "_",
				ks_dec(num + sizeof num - 1, (int)iv->k.i), NULL);
	} else if (in && in->op == OP_EXTRACT && in->narg == 2 && ty_is_vec(vty(e, in->arg[0])) &&
		   e->f->val[in->arg[1]].kind == VK_CONST && e->v[in->arg[0]].name) {
		int k = e->f->val[in->arg[1]].k.i;
		if (k >= 0 && k < 4)
			ks_join(base, sizeof base, e->v[in->arg[0]].name,
				(const char *[]){"_x", "_y", "_z", "_w"}[k], NULL);
	}
	if (in && is_draw(in) && val == in->res[1])
		snprintf(base, sizeof base, "state");
	else if (in && in->op == OP_TAPE_BACK)
		snprintf(base, sizeof base, "from");
	else if (in && in->op == OP_TAPE_KEEP)
		snprintf(base, sizeof base, "keep");
	if (base[0] && !strstr(base, "__")) {
		local_name(e, val, base);
		return;
	}
	do
		ks_join(base, sizeof base, "t", ks_dec(num + sizeof num - 1, (*counter)++), NULL);
	while (!name_ok(e, base, 0));
	local_name(e, val, base);
}

typedef struct TempNames {
	Emitter *e;
	int counter; /* the next tN */
} TempNames;

/* A name for each temp a live instruction that is not folded defines. */
static int name_temps(void *ctx, const Inst *in)
{
	TempNames *tn = ctx;
	Emitter *e = tn->e;
	const IInfo *x = &e->ii[inst_id(e, in)];
	if (!x->dead && x->root < 0)
		for (int k = 0; k < in->nres; k++)
			if (is_named_temp(e, in->res[k]) && !e->v[in->res[k]].name)
				temp_name(e, in->res[k], &tn->counter);
	return 0;
}

/* The first local names: emit_effect's scratch results of a call whose
 * results are ignored, then the parameters in order.  They depend on
 * nothing else, so the kernel's entry can name its parameters without
 * analysing the body. */
void name_params(Emitter *e)
{
	clear_names(&e->lnames);
	static const char *const ignored[] = {"ignored0", "ignored1", "ignored2", "ignored3",
					      "ignored4", "ignored5", "ignored6", "ignored7"};
	for (int k = 0; k < 8; k++)
		add_name(&e->lnames, ignored[k]);
	for (int i = 0; i < e->f->nparam; i++)
		local_name(e, e->f->param[i], e->f->val[e->f->param[i]].name);
}

/* Pass 3: the local names of f: parameters, then variables in order, then
 * the tape's and the results' locals, then the temps that stay temps. */
void name_locals(Emitter *e, const Func *f)
{
	name_params(e);
	for (int i = 0; i < f->nval; i++)
		if (f->val[i].kind == VK_VAR)
			local_name(e, i, f->val[i].name);
	e->retname = NULL;
	e->tapename = e->threadname = NULL;
	if (ir_opens_tape(f)) {
		e->tapename = make_name(e, "tp", 0);
		/* an N-D launch's thread, or one of a block on tiles (whose
		 * indices its block's threads share): its row-major index */
		if (e->rank > 1 || ir_func_tiled(f))
			e->threadname = make_name(e, "thread", 0);
	}
	if (f->nret > 1) {
		e->retname = xmalloc((size_t)f->nret * sizeof *e->retname);
		for (int k = 0; k < f->nret; k++) {
			char base[32];
			snprintf(base, sizeof base, "ret%d", k);
			e->retname[k] = make_name(e, base, 0);
		}
	}
	TempNames tn = {e, 0};
	ir_walk_const(&f->body, name_temps, &tn);
}
