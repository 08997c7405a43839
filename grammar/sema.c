/*
 * sema.c: what every part of the checker (sema.h) stands on: the name
 * maps, the lookup of a def by name, how messages spell types and hints,
 * and the emitting of instructions.
 *
 * A Map is a string → int hash table in the parse arena (open
 * addressing, doubled at half full): function names, the parameters and
 * variables of the function being lowered, the module's constants and
 * type aliases.  out() is where an
 * assignment's Target meets the instruction that computes its value: the
 * variable is created, or checked, there.
 */
#include <stdlib.h>
#include <string.h>

#include "sema.h"

/* ---- names --------------------------------------------------------------- */

static unsigned name_hash(const char *k) { return (unsigned)ks_hash64(k, strlen(k), 0); }

int map_get(const Map *mp, const char *k)
{
	if (!mp->cap)
		return -1;
	for (unsigned i = name_hash(k) & (mp->cap - 1);; i = (i + 1) & (mp->cap - 1)) {
		if (!mp->key[i])
			return -1;
		if (!strcmp(mp->key[i], k))
			return mp->val[i];
	}
}

void map_put(Arena *a, Map *mp, const char *k, int v)
{
	if (2 * (mp->n + 1) > mp->cap) {
		Map old = *mp;
		mp->cap = old.cap ? 2 * old.cap : 16;
		mp->key = arena_alloc(a, mp->cap * sizeof *mp->key);
		mp->val = arena_alloc(a, mp->cap * sizeof *mp->val);
		mp->n = 0;
		for (unsigned i = 0; i < old.cap; i++)
			if (old.key[i])
				map_put(a, mp, old.key[i], old.val[i]);
	}
	unsigned i = name_hash(k) & (mp->cap - 1);
	while (mp->key[i] && strcmp(mp->key[i], k))
		i = (i + 1) & (mp->cap - 1);
	if (!mp->key[i])
		mp->n++;
	mp->key[i] = k;
	mp->val[i] = v;
}

/* ---- state ----------------------------------------------------------------- */

/* The def called name: its index, or -1. */
int def_find(Sema *s, const char *name) { return map_get(&s->sc->defs, name); }

int module_attr(Sema *s, const Node *n, int *v)
{
	if (!n || n->kind != N_ATTR || n->kid[0]->kind != N_NAME || map_get(&s->names, n->kid[0]->name) >= 0)
		return 0;
	int f = map_get(&s->sc->modules, n->kid[0]->name);
	if (f < 0)
		return 0;
	const Scope *m = s->scope[f];
	if ((*v = map_get(&m->defs, n->name)) >= 0)
		return MA_DEF;
	if ((*v = map_get(&m->consts, n->name)) >= 0)
		return MA_CONST;
	if ((*v = map_get(&m->typealias, n->name)) >= 0)
		return MA_TYPE;
	if ((*v = map_get(&m->skipped, n->name)) >= 0)
		return MA_HOST;
	return MA_NONE;
}

void skip_name(Sema *s, const char *name, int line, const char *why)
{
	arena_grow(s->a, (void **)&s->host, &s->caphost, s->nhost + 1, sizeof *s->host);
	s->host[s->nhost] = (struct Skipped){line, why ? arena_strdup(s->a, why) : NULL};
	map_put(s->a, &s->sc->skipped, arena_strdup(s->a, name), s->nhost++);
}

void skipped_use(Sema *s, const Node *n, int k)
{
	const struct Skipped *h = &s->host[k];
	if (!h->why)
		ERR(n, "'%s' is not a constant Warp can capture (see its assignment at module level)", n->name);
	ERR(n, "'%s' is not something a kernel can use: %s (line %d)", n->name, h->why, h->line);
}

/* ---- messages -------------------------------------------------------------- */

/* A type as a Python user writes it: "float", "vec3d", "array(float)",
 * "array2d(vec3)". */
const char *uty(Type t)
{
	static char buf[4][64];
	static int k;
	char *b = buf[k++ & 3];
	if (ty_is_tile(t)) {
		int w = snprintf(b, sizeof buf[0], "tile(%s, shape=(", ty_name(ty_elem(t)));
		for (int i = 0; i < ty_ndim(t) && w < (int)sizeof buf[0]; i++)
			w += ty_extent(t, i) == KS_TILE_BLOCK
				     ? snprintf(b + w, sizeof buf[0] - (size_t)w, "%sblock_dim", i ? ", " : "")
				     : snprintf(b + w, sizeof buf[0] - (size_t)w, "%s%d", i ? ", " : "",
						ty_extent(t, i));
		if (w < (int)sizeof buf[0])
			snprintf(b + w, sizeof buf[0] - (size_t)w, "%s))", ty_ndim(t) == 1 ? "," : "");
		return b;
	}
	if (!ty_is_array(t))
		return ty_name(t);
	if (ty_ndim(t) == 1)
		snprintf(b, sizeof buf[0], "array(%s)", ty_name(ty_elem(t)));
	else
		snprintf(b, sizeof buf[0], "array%dd(%s)", ty_ndim(t), ty_name(ty_elem(t)));
	return b;
}

/* "float", "(float, int)" or "nothing", for return signatures. */
void fmt_types(char *out, size_t n, const Type *t, int k)
{
	size_t w = 0;
	out[0] = 0;
	if (k == 0) {
		snprintf(out, n, "nothing");
		return;
	}
	for (int i = 0; i < k && w < n; i++)
		w += (size_t)snprintf(out + w, n - w, "%s%s%s",
				      i       ? ", "
				      : k > 1 ? "("
					      : "",
				      uty(t[i]), i == k - 1 && k > 1 ? ")" : "");
}

/* The hint for an operator mixing scalar types: Warp never converts
 * implicitly. */
const char *conv_hint(Type a, Type b)
{
	static char buf[64];
	int af = ty_is_floaty(a), bf = ty_is_floaty(b);
	if ((a == TY_INT && bf && ty_scalar(b) == TY_FLOAT) || (b == TY_INT && af && ty_scalar(a) == TY_FLOAT))
		return " (use float() to convert)";
	Type sa = ty_scalar(a), sb = ty_scalar(b);
	if (ty_is_scalar(sa) && ty_is_scalar(sb) && sa != sb && (ty_is_scalar(a) || ty_is_scalar(b))) {
		Type want = ty_is_scalar(a) && !ty_is_scalar(b) ? sb : sa;
		snprintf(buf, sizeof buf, " (Warp does not convert implicitly: use wp.%s(...))",
			 ty_info(want)->warp);
		return buf;
	}
	return "";
}

/* The hint for storing a src value where a dst one is wanted. */
const char *assign_hint(Type dst, Type src)
{
	static char buf[64];
	if (dst == TY_FLOAT && src == TY_INT)
		return " (use float() to convert)";
	if (dst == TY_INT && src == TY_FLOAT)
		return " (use int() to convert)";
	if (ty_is_scalar(dst) && ty_is_scalar(src)) {
		snprintf(buf, sizeof buf, " (use wp.%s() to convert)", ty_info(dst)->warp);
		return buf;
	}
	return "";
}

/* Copy the source text of the literal at n (for messages about literals
 * whose value the parser may have saturated); "" if it cannot be found. */
void lit_text(const Sema *s, const Node *n, char *out, size_t cap)
{
	const char *p = s->src->text, *end = p + s->src->len;
	int l = s->src->line0 > 1 ? s->src->line0 : 1;
	out[0] = 0;
	if (n->line < l)
		return; /* outside the piece at hand (a default value) */
	for (; l < n->line && p < end; p++)
		if (*p == '\n')
			l++;
	if (n->col < 1 || (size_t)(n->col - 1) >= (size_t)(end - p))
		return;
	p += n->col - 1;
	if (!((*p >= '0' && *p <= '9') || *p == '.'))
		return;
	int hex = p + 1 < end && p[0] == '0' && (p[1] == 'x' || p[1] == 'X');
	size_t k = 0;
	for (const char *q = p; q < end && k + 4 < cap; q++) {
		char c = *q;
		int sign = (c == '+' || c == '-') && !hex && q > p && (q[-1] == 'e' || q[-1] == 'E');
		if (!(sign || c == '_' || c == '.' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
		      (c >= 'A' && c <= 'Z')))
			break;
		out[k++] = c;
	}
	out[k] = 0;
}

/* Names a body may not assign: the language's own. */
int reserved(const char *name)
{
	static const char *const r[] = {"wp", "float", "int", "bool", "range"};
	for (size_t i = 0; i < KS_NELEM(r); i++)
		if (!strcmp(r[i], name))
			return 1;
	return 0;
}

/* The named types spelled wp.NAME: every scalar, vector, matrix,
 * quaternion and transform of ir/types.h. */
Type wp_type(const char *name) { return ty_from_warp(name); }

/* ---- emitting ---------------------------------------------------------- */

Inst *emit(Sema *s, const Node *at, int op, const int32_t *res, int nres, const int32_t *arg, int narg)
{
	return ir_emit(s->m, s->blk, op, res, nres, arg, narg, loc_of(at));
}

int new_var(Sema *s, const char *name, Type ty)
{
	int id = ir_var(s->m, s->f, name, ty);
	map_put(s->a, &s->names, name, id);
	return id;
}

void type_mismatch(Sema *s, const Node *at, const char *name, Type has, Type ty)
{
	int v = map_get(&s->names, name);
	int param = v >= 0 && s->f->val[v].kind == VK_PARAM;
	ERR(at, "%s '%s' has type %s; cannot assign %s%s", param ? "parameter" : "variable", name, uty(has),
	    uty(ty), assign_hint(has, ty));
}

/* The value an instruction producing ty writes: the target, checked and
 * created on its first assignment, or a fresh temp. */
int out(Sema *s, Target *t, Type ty)
{
	if (!t || t->done)
		return ir_temp(s->m, s->f, ty);
	if (t->id < 0) {
		if (t->want != TY_VOID && ty != t->want)
			type_mismatch(s, t->at, t->at->name, t->want, ty);
		t->id = new_var(s, t->at->name, ty);
	} else if (ty_of(s, t->id) != ty) {
		type_mismatch(s, t->at, t->at->name, ty_of(s, t->id), ty);
	}
	t->done = 1;
	return t->id;
}

/* Builtin NAME of the values a[0..n), emitted: with want, its result
 * (into t), else none (an atomic's old value left unused: -1); -2, and
 * nothing emitted, when no overload takes their types (the caller says
 * why). */
int builtin_val(Sema *s, const Node *at, const char *name, const int32_t *a, int n, Target *t, int want)
{
	Type ty[MAXOPS], res;
	for (int i = 0; i < n; i++)
		ty[i] = ty_of(s, a[i]);
	int row = ir_builtin_resolve(name, ty, n, &res);
	if (row < 0 || (ir_builtins[row].flags & BF_INTERNAL))
		return -2;
	int32_t r = want ? out(s, t, res) : -1;
	emit(s, at, OP_BUILTIN, &r, want, a, n)->callee = (int32_t)row;
	return r;
}

/* One instruction with one result of type ty. */
int emit_val(Sema *s, const Node *at, int op, Type ty, const int32_t *arg, int narg, Target *t)
{
	int32_t r = out(s, t, ty);
	emit(s, at, op, &r, 1, arg, narg);
	return r;
}
