/*
 * ir.c: the IR's tables (opcodes, builtins), its typing rules and the
 * functions that build modules.  The typing rules here are the single
 * source of truth: the front end asks ir_op_type and ir_builtin_resolve
 * what an expression's type is, and the verifier asks them again of IR it
 * reads, so the two can never disagree.
 */
#include <stdlib.h>
#include <string.h>

#include "ir.h"

const OpInfo ir_ops[OP_COUNT] = {
#define OP(e, s, na, nr) {s, na, nr},
#include "ops.h"
#undef OP
};

const BuiltinInfo ir_builtins[BI_COUNT] = {
#define B6(e, name, res, args, fl, adj) {name, res, args, fl, adj},
#include "builtins.h"
#undef B6
};

/* ---- types ------------------------------------------------------------ */

static const char *const ty_names[TY_NBASE] = {
	"void", "bool", "int", "float", "vec2", "vec3", "vec4", "mat22", "mat33", "mat44",
};
static const char *const ty_array_names[TY_NBASE] = {
	"void[]", "bool[]", "int[]", "float[]", "vec2[]", "vec3[]", "vec4[]", "mat22[]", "mat33[]", "mat44[]",
};

const char *ty_name(Type t)
{
	Type e = ty_elem(t);
	if (e >= TY_NBASE)
		return "?";
	return ty_is_array(t) ? ty_array_names[e] : ty_names[e];
}

Type ty_parse(const char *s, size_t n)
{
	int arr = n > 2 && s[n - 2] == '[' && s[n - 1] == ']';
	if (arr)
		n -= 2;
	for (int t = TY_BOOL; t < TY_NBASE; t++)
		if (strlen(ty_names[t]) == n && !memcmp(ty_names[t], s, n)) {
			if (arr && t == TY_BOOL)
				return TY_VOID;
			return (Type)(arr ? (t | TY_ARRAY) : t);
		}
	return TY_VOID;
}

int ty_ncomp(Type t)
{
	if (ty_is_vec(t))
		return ty_dim(t);
	if (ty_is_mat(t))
		return ty_dim(t) * ty_dim(t);
	return 1;
}

/* ---- builtins ------------------------------------------------------------ */

int ir_builtin_known(const char *name)
{
	for (int i = 0; i < BI_COUNT; i++)
		if (!strcmp(ir_builtins[i].name, name))
			return 1;
	return 0;
}

/* Match type code c against t, binding *n (the row's N).  Returns 1 on a
 * match. */
static int code_match(char c, Type t, int *n)
{
	Type want;
	switch (c) {
	case 'f': return t == TY_FLOAT;
	case 'i': return t == TY_INT;
	case 'b': return t == TY_BOOL;
	case '3': return t == TY_VEC3;
	case 'F': return t == (TY_ARRAY | TY_FLOAT);
	case 'I': return t == (TY_ARRAY | TY_INT);
	case 'v':
	case 'm':
	case 'V':
	case 'M':
		want = c == 'V' || c == 'M' ? ty_elem(t) : t;
		if ((c == 'V' || c == 'M') && !ty_is_array(t))
			return 0;
		if (c == 'm' || c == 'M' ? !ty_is_mat(want) : !ty_is_vec(want))
			return 0;
		if (*n && *n != ty_dim(want))
			return 0;
		*n = ty_dim(want);
		return 1;
	}
	return 0;
}

static Type code_type(char c, int n)
{
	switch (c) {
	case 'f': return TY_FLOAT;
	case 'i': return TY_INT;
	case 'b': return TY_BOOL;
	case '3': return TY_VEC3;
	case 'v': return ty_vec(n);
	case 'm': return ty_mat(n);
	case 'F': return TY_ARRAY | TY_FLOAT;
	case 'I': return TY_ARRAY | TY_INT;
	case 'V': return (Type)(TY_ARRAY | ty_vec(n));
	case 'M': return (Type)(TY_ARRAY | ty_mat(n));
	}
	return TY_VOID;
}

int ir_builtin_resolve(const char *name, const Type *args, int nargs, Type *res)
{
	for (int r = 0; r < BI_COUNT; r++) {
		const BuiltinInfo *b = &ir_builtins[r];
		if (strcmp(b->name, name) || (int)strlen(b->args) != nargs)
			continue;
		int n = 0, ok = 1;
		for (int i = 0; i < nargs && ok; i++)
			ok = code_match(b->args[i], args[i], &n);
		if (!ok)
			continue;
		*res = b->res[0] ? code_type(b->res[0], n) : TY_VOID;
		return r;
	}
	return -1;
}

static const char *code_name(char c)
{
	switch (c) {
	case 'f': return "float";
	case 'i': return "int";
	case 'b': return "bool";
	case '3': return "vec3";
	case 'v': return "vecN";
	case 'm': return "matNN";
	case 'F': return "array(float)";
	case 'I': return "array(int)";
	case 'V': return "array(vecN)";
	case 'M': return "array(matNN)";
	}
	return "?";
}

void ir_builtin_signatures(const char *name, char *out, size_t n)
{
	Buf b = {0};
	for (int r = 0; r < BI_COUNT; r++) {
		const BuiltinInfo *bi = &ir_builtins[r];
		if (strcmp(bi->name, name))
			continue;
		if (b.n)
			buf_puts(&b, ", ");
		buf_printf(&b, "%s(", name);
		for (const char *a = bi->args; *a; a++)
			buf_printf(&b, "%s%s", a == bi->args ? "" : ", ", code_name(*a));
		buf_putc(&b, ')');
	}
	snprintf(out, n, "%s", b.n ? b.p : "");
	buf_free(&b);
}

void ir_builtin_cname(int row, const Type *args, char *out, size_t n)
{
	const BuiltinInfo *b = &ir_builtins[row];
	if (!b->args[0]) {
		snprintf(out, n, "ks_%s", b->name);
		return;
	}
	/* atomics are named after the element type, others after arg 0 */
	Type t = ty_elem(args[0]);
	snprintf(out, n, "ks_%s_%s", b->name, ty_name(t));
}

/* ---- opcode typing --------------------------------------------------------- */

Type ir_op_type(int op, const Type *a, int n, Type want)
{
	int na = ir_ops[op].nargs;
	if (na >= 0 && n != na)
		return TY_VOID;
	if (n < 1 && op != OP_MAKE && op != OP_TAPE_MEASURED)
		return TY_VOID;
	for (int i = 0; i < n; i++)
		if (a[i] == TY_VOID)
			return TY_VOID;
	switch (op) {
	case OP_MOV:
		return ty_is_array(a[0]) ? TY_VOID : a[0];
	case OP_NEG:
		return (ty_is_scalar(a[0]) || ty_is_vec(a[0]) || ty_is_mat(a[0])) ? a[0] : TY_VOID;
	case OP_ADD:
	case OP_SUB:
		if (a[0] == a[1] && (ty_is_scalar(a[0]) || ty_is_vec(a[0]) || ty_is_mat(a[0])))
			return a[0];
		return TY_VOID;
	case OP_MUL:
		if (a[0] == a[1] && (ty_is_scalar(a[0]) || ty_is_mat(a[0])))
			return a[0]; /* scalar * scalar, mat @ mat */
		if (a[0] == TY_FLOAT && (ty_is_vec(a[1]) || ty_is_mat(a[1])))
			return a[1];
		if (a[1] == TY_FLOAT && (ty_is_vec(a[0]) || ty_is_mat(a[0])))
			return a[0];
		if (ty_is_mat(a[0]) && ty_is_vec(a[1]) && ty_dim(a[0]) == ty_dim(a[1]))
			return a[1];
		return TY_VOID;
	case OP_DIV:
		if (a[0] == a[1] && ty_is_scalar(a[0]))
			return a[0];
		if (a[1] == TY_FLOAT && (ty_is_vec(a[0]) || ty_is_mat(a[0])))
			return a[0];
		return TY_VOID;
	case OP_FLOORDIV:
	case OP_MOD:
		return a[0] == a[1] && ty_is_scalar(a[0]) ? a[0] : TY_VOID;
	case OP_LT:
	case OP_LE:
	case OP_GT:
	case OP_GE:
		return a[0] == a[1] && ty_is_scalar(a[0]) ? TY_BOOL : TY_VOID;
	case OP_EQ:
	case OP_NE:
		return a[0] == a[1] && (ty_is_scalar(a[0]) || a[0] == TY_BOOL) ? TY_BOOL : TY_VOID;
	case OP_AND:
	case OP_OR:
		return a[0] == TY_BOOL && a[1] == TY_BOOL ? TY_BOOL : TY_VOID;
	case OP_NOT:
		return a[0] == TY_BOOL ? TY_BOOL : TY_VOID;
	case OP_SELECT:
		return a[0] == TY_BOOL && a[1] == a[2] && !ty_is_array(a[1]) ? a[1] : TY_VOID;
	case OP_TOFLOAT:
		return ty_is_scalar(a[0]) ? TY_FLOAT : TY_VOID;
	case OP_TOINT:
		return ty_is_scalar(a[0]) ? TY_INT : TY_VOID;
	case OP_MAKE: {
		int nc = ty_ncomp(want);
		if (!ty_is_vec(want) && !ty_is_mat(want))
			return TY_VOID;
		if (n != 0 && n != 1 && n != nc)
			return TY_VOID;
		for (int i = 0; i < n; i++)
			if (a[i] != TY_FLOAT)
				return TY_VOID;
		return want;
	}
	case OP_EXTRACT:
		if (ty_is_vec(a[0]) && n == 2 && a[1] == TY_INT)
			return TY_FLOAT;
		if (ty_is_mat(a[0]) && n == 2 && a[1] == TY_INT)
			return ty_vec(ty_dim(a[0]));
		if (ty_is_mat(a[0]) && n == 3 && a[1] == TY_INT && a[2] == TY_INT)
			return TY_FLOAT;
		return TY_VOID;
	case OP_INSERT:
		if (ty_is_vec(a[0]) && n == 3 && a[1] == TY_INT && a[2] == TY_FLOAT)
			return a[0];
		if (ty_is_mat(a[0]) && n == 3 && a[1] == TY_INT && a[2] == ty_vec(ty_dim(a[0])))
			return a[0];
		if (ty_is_mat(a[0]) && n == 4 && a[1] == TY_INT && a[2] == TY_INT && a[3] == TY_FLOAT)
			return a[0];
		return TY_VOID;
	case OP_LOAD:
		return ty_is_array(a[0]) && a[1] == TY_INT ? ty_elem(a[0]) : TY_VOID;
	case OP_TAPE_LOOP:
		return n == 1 && a[0] == TY_INT ? TY_INT : TY_VOID;
	case OP_TAPE_KEEP:
		return n == 2 && a[0] == TY_INT && a[1] == TY_INT ? TY_BOOL : TY_VOID;
	case OP_TAPE_BACK:
		return n == 2 && a[0] == TY_INT && a[1] == TY_INT ? TY_INT : TY_VOID;
	case OP_TAPE_GET:
		return n == 3 && a[0] == TY_INT && a[1] == TY_INT && a[2] != TY_VOID && !ty_is_array(a[2])
			       ? a[2] : TY_VOID;
	case OP_TAPE_MEASURED:
		return n == 0 ? TY_BOOL : TY_VOID;
	}
	return TY_VOID;
}

/* ---- building ------------------------------------------------------------- */

Module *ir_module_new(void)
{
	Module *m = xmalloc(sizeof *m);
	memset(m, 0, sizeof *m);
	m->version = IR_VERSION;
	return m;
}

void ir_module_free(Module *m)
{
	if (!m)
		return;
	arena_free(&m->arena);
	free(m->index);
	free(m);
}

Func *ir_func_new(Module *m, const char *name, int is_kernel, Loc loc)
{
	Arena *a = m->fnarena ? m->fnarena : &m->arena;
	Func *f = arena_alloc(a, sizeof *f);
	f->name = arena_strdup(a, name);
	f->is_kernel = is_kernel;
	f->loc = loc;
	arena_grow(a, (void **)&m->fn, &m->capfn, m->nfn + 1, sizeof *m->fn);
	m->fn[m->nfn++] = f;
	return f;
}

/* The name index: a hash table of function indices keyed by name (a
 * kernel and its backward share a slot chain).  Lookups index the
 * functions added since the last lookup first, so that finding a name
 * costs the same in a module of ten functions as in one of a million. */
static size_t name_hash(const char *s, int cap)
{
	return (size_t)ks_hash64(s, strlen(s), 0) & (size_t)(cap - 1);
}

static void index_add(Module *m, int i)
{
	size_t h = name_hash(m->fn[i]->name, m->capindex);
	while (m->index[h])
		h = (h + 1) & (size_t)(m->capindex - 1);
	m->index[h] = i + 1;
}

static void index_update(Module *m)
{
	if (2 * (m->nfn + 1) > m->capindex) {
		int cap = m->capindex ? m->capindex : 64;
		while (2 * (m->nfn + 1) > cap)
			cap *= 2;
		free(m->index);
		m->index = xmalloc((size_t)cap * sizeof *m->index);
		memset(m->index, 0, (size_t)cap * sizeof *m->index);
		m->capindex = cap;
		m->nindexed = 0;
	}
	for (; m->nindexed < m->nfn; m->nindexed++)
		index_add(m, m->nindexed);
}

/* The first function named name whose backward flag is backward, or -1. */
static int find(const Module *cm, const char *name, int backward)
{
	Module *m = (Module *)cm; /* the index is a cache, not content */
	index_update(m);
	int best = -1;
	for (size_t h = name_hash(name, m->capindex); m->index[h]; h = (h + 1) & (size_t)(m->capindex - 1)) {
		int i = m->index[h] - 1;
		if ((best < 0 || i < best) && !m->fn[i]->backward == !backward && !strcmp(m->fn[i]->name, name))
			best = i;
	}
	return best;
}

void ir_func_pop(Module *m)
{
	int last = --m->nfn;
	if (m->nindexed <= last)
		return;
	/* unindex it: linear probing's deletion, moving back the entries
	 * whose probe went past its slot */
	size_t mask = (size_t)(m->capindex - 1);
	size_t i = name_hash(m->fn[last]->name, m->capindex);
	while (m->index[i] != last + 1)
		i = (i + 1) & mask;
	for (size_t j = (i + 1) & mask; m->index[j]; j = (j + 1) & mask) {
		size_t home = name_hash(m->fn[m->index[j] - 1]->name, m->capindex);
		/* the entry at j may move to i unless its home lies in (i, j] */
		if (((j - home) & mask) >= ((j - i) & mask)) {
			m->index[i] = m->index[j];
			i = j;
		}
	}
	m->index[i] = 0;
	m->nindexed = last;
}

int ir_func_find(const Module *m, const char *name)
{
	return find(m, name, 0);
}

int ir_backward_find(const Module *m, const char *name)
{
	return find(m, name, 1);
}

static int new_value(Module *m, Func *f, int kind, Type ty)
{
	arena_grow(&m->arena, (void **)&f->val, &f->capval, f->nval + 1, sizeof *f->val);
	Value *v = &f->val[f->nval];
	memset(v, 0, sizeof *v);
	v->kind = (uint8_t)kind;
	v->ty = ty;
	return f->nval++;
}

int ir_param(Module *m, Func *f, const char *name, Type ty)
{
	int id = new_value(m, f, VK_PARAM, ty);
	f->val[id].name = arena_strdup(&m->arena, name);
	/* parameters are few: reallocate exactly */
	int32_t *p = arena_alloc(&m->arena, (size_t)(f->nparam + 1) * sizeof *p);
	if (f->nparam)
		memcpy(p, f->param, (size_t)f->nparam * sizeof *p);
	p[f->nparam++] = id;
	f->param = p;
	return id;
}

int ir_var(Module *m, Func *f, const char *name, Type ty)
{
	int id = new_value(m, f, VK_VAR, ty);
	f->val[id].name = arena_strdup(&m->arena, name);
	return id;
}

int ir_temp(Module *m, Func *f, Type ty)
{
	int id = new_value(m, f, VK_TEMP, ty);
	f->val[id].num = id;
	return id;
}

int ir_const_int(Module *m, Func *f, int32_t v)
{
	int id = new_value(m, f, VK_CONST, TY_INT);
	f->val[id].k.i = v;
	return id;
}

int ir_const_bool(Module *m, Func *f, int v)
{
	int id = new_value(m, f, VK_CONST, TY_BOOL);
	f->val[id].k.i = v != 0;
	return id;
}

int ir_const_float(Module *m, Func *f, float v)
{
	int id = new_value(m, f, VK_CONST, TY_FLOAT);
	f->val[id].k.f = v;
	return id;
}

Inst *ir_emit(Module *m, Block *b, int op, const int32_t *res, int nres,
	      const int32_t *arg, int narg, Loc loc)
{
	if (nres > 255 || narg > 255)
		ks_fatal("instruction with too many operands");
	arena_grow(&m->arena, (void **)&b->v, &b->cap, b->n + 1, sizeof *b->v);
	Inst *in = &b->v[b->n++];
	memset(in, 0, sizeof *in);
	in->op = (uint16_t)op;
	in->callee = -1;
	in->nres = (uint8_t)nres;
	in->narg = (uint8_t)narg;
	if (nres) {
		in->res = arena_alloc(&m->arena, (size_t)nres * sizeof *in->res);
		memcpy(in->res, res, (size_t)nres * sizeof *res);
	}
	if (narg) {
		in->arg = arena_alloc(&m->arena, (size_t)narg * sizeof *in->arg);
		memcpy(in->arg, arg, (size_t)narg * sizeof *arg);
	}
	in->loc = loc;
	return in;
}

void ir_set_ret(Module *m, Func *f, const Type *ret, int nret)
{
	f->nret = nret;
	f->ret = arena_alloc(&m->arena, (size_t)(nret ? nret : 1) * sizeof *ret);
	if (nret)
		memcpy(f->ret, ret, (size_t)nret * sizeof *ret);
}
