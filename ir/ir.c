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
#include "walk.h"

const OpInfo ir_ops[OP_COUNT] = {
#define OP(e, s, na, nr, cl) {s, na, nr, cl},
#include "ops.h"
#undef OP
};

const BuiltinInfo ir_builtins[BI_COUNT] = {
#define B6(e, name, res, args, fl, adj) {name, res, args, #e, fl, adj},
#include "builtins.h"
#undef B6
};

/* ---- builtins ------------------------------------------------------------ */

/* The rows of each name: an open-addressed table from a name to its first
 * row, each row linked to the next row of its name, made on first use. */
enum { NAME_CAP = 1024 };
static int16_t name_first[NAME_CAP]; /* row + 1, 0: empty */
static int16_t name_next[BI_COUNT];  /* the next row of the name, or -1 */

static size_t bname_hash(const char *s) { return (size_t)ks_hash64(s, strlen(s), 0) & (NAME_CAP - 1); }

static int16_t *name_slot(const char *name)
{
	size_t h = bname_hash(name);
	while (name_first[h] && strcmp(ir_builtins[name_first[h] - 1].name, name))
		h = (h + 1) & (NAME_CAP - 1);
	return &name_first[h];
}

/* The first row named name, or -1. */
static int rows_of(const char *name)
{
	static int ready;
	if (!ready) {
		_Static_assert(2 * BI_COUNT < NAME_CAP, "the builtin name table is too small");
		for (int r = BI_COUNT - 1; r >= 0; r--) {
			int16_t *slot = name_slot(ir_builtins[r].name);
			name_next[r] = (int16_t)(*slot - 1);
			*slot = (int16_t)(r + 1);
		}
		ready = 1;
	}
	return *name_slot(name) - 1;
}

int ir_builtin_known(const char *name) { return rows_of(name) >= 0; }

int ir_builtin_first(const char *name) { return rows_of(name); }

int ir_builtin_next(int row) { return name_next[row]; }

int ir_builtin_public(const char *name)
{
	for (int r = rows_of(name); r >= 0; r = name_next[r])
		if (!(ir_builtins[r].flags & BF_INTERNAL))
			return 1;
	return 0;
}

/* The pattern language of the args and result columns (builtins.h),
 * matched and built straight from the strings: a row is a few words, and
 * only the rows of one name are tried. */
typedef struct Bind {
	Type S, T;
	int len[3]; /* N, M, K; 0: unbound */
	int D;      /* an array's rank; 0: unbound */
	Type shape; /* the tile a pattern of no lengths matched first */
} Bind;

static void skip_blanks(const char **p)
{
	while (**p == ' ')
		(*p)++;
}

/* The next word ([A-Za-z0-9_]+) into w; its length. */
static size_t word(const char **p, char *w, size_t cap)
{
	size_t n = 0;
	skip_blanks(p);
	while ((**p >= 'a' && **p <= 'z') || (**p >= 'A' && **p <= 'Z') || (**p >= '0' && **p <= '9') ||
	       **p == '_') {
		if (n + 1 < cap)
			w[n++] = **p;
		(*p)++;
	}
	w[n] = 0;
	return n;
}

static void expect(const char **p, char c)
{
	skip_blanks(p);
	if (**p == c)
		(*p)++;
}

/* Past a parameter's default value ("octaves: uint32 = 1"), if it has
 * one: sema fills it in where a call leaves the parameter out, so the IR
 * and everything after it always hold every argument. */
static void skip_default(const char **p)
{
	skip_blanks(p);
	if (**p != '=')
		return;
	while (**p && **p != ',')
		(*p)++;
}

/* A length: digits, "block" (KS_TILE_BLOCK), or N, M, K bound on first
 * use. */
static int match_len(const char **p, int n, Bind *b)
{
	char w[16];
	word(p, w, sizeof w);
	if (w[0] >= '0' && w[0] <= '9')
		return atoi(w) == n;
	if (!strcmp(w, "block"))
		return n == KS_TILE_BLOCK;
	int *v = &b->len[w[0] == 'N' ? 0 : w[0] == 'M' ? 1 : 2];
	if (*v && *v != n)
		return 0;
	*v = n;
	return 1;
}

static int build_len(const char **p, const Bind *b)
{
	char w[16];
	word(p, w, sizeof w);
	if (w[0] >= '0' && w[0] <= '9')
		return atoi(w);
	if (!strcmp(w, "block"))
		return KS_TILE_BLOCK;
	return b->len[w[0] == 'N' ? 0 : w[0] == 'M' ? 1 : 2];
}

/* Bind or check S, the scalar of class cls ("Float", "Int", "Scalar"). */
static int bind_scalar(const char *cls, Type t, Bind *b)
{
	int ok = !strcmp(cls, "Float") ? ty_is_float(t) : !strcmp(cls, "Int") ? ty_is_int(t) : ty_is_scalar(t);
	if (!ok || (b->S && b->S != t))
		return 0;
	b->S = t;
	return 1;
}

static int is_class(const char *w) { return !strcmp(w, "Float") || !strcmp(w, "Int") || !strcmp(w, "Scalar"); }

/* Bind or check T. */
static int bind_t(Type t, Bind *b)
{
	if (b->T && b->T != t)
		return 0;
	b->T = t;
	return 1;
}

static int match(const char **p, Type t, Bind *b);
static Type build(const char **p, const Bind *b);

/* A tile pattern after its "tile": '(' {LENGTH ','} ELEMENT ')', no
 * lengths meaning any shape (in a result: the shape of the first tile
 * that such a pattern matched).  Its lengths (at most 4) into len, their
 * number in *n; *p is left at the element's pattern. */
static void tile_lengths(const char **p, char len[][16], int *n)
{
	expect(p, '(');
	*n = 0;
	for (;;) {
		const char *q = *p;
		char w[16];
		word(&q, w, sizeof w);
		skip_blanks(&q);
		if (*q != ',' || *n == KS_MAX_NDIM)
			return;
		memcpy(len[(*n)++], w, sizeof w);
		*p = q + 1;
	}
}

/* Match a tile pattern (after its "tile") against t. */
static int match_tile(const char **p, Type t, Bind *b)
{
	char len[KS_MAX_NDIM][16];
	int n, ok = ty_is_tile(t);
	tile_lengths(p, len, &n);
	for (int k = 0; ok && k < n; k++) {
		if (!strcmp(len[k], "D")) {
			ok = (!b->D || b->D == ty_ndim(t)) && n == 1;
			b->D = ty_ndim(t);
		} else {
			const char *q = len[k];
			ok = n == ty_ndim(t) && match_len(&q, ty_extent(t, k), b);
		}
	}
	ok = match(p, ok ? ty_elem(t) : TY_VOID, b) && ok;
	expect(p, ')');
	if (ok && !n && b->shape == TY_VOID)
		b->shape = t;
	return ok;
}

/* Build a tile pattern (after its "tile") under b: every length bound. */
static Type build_tile(const char **p, const Bind *b)
{
	char len[KS_MAX_NDIM][16];
	int n, shape[KS_MAX_NDIM];
	tile_lengths(p, len, &n);
	for (int k = 0; k < n; k++) {
		const char *q = len[k];
		shape[k] = strcmp(len[k], "D") ? build_len(&q, b) : 0;
	}
	Type e = build(p, b);
	expect(p, ')');
	if (!n && b->shape != TY_VOID)
		return ty_tile(e, ty_ndim(b->shape), ty_info(b->shape)->shape);
	return ty_tile(e, n, shape);
}

/* Match the pattern at *p against t (advancing *p past it). */
static int match(const char **p, Type t, Bind *b)
{
	char w[32];
	word(p, w, sizeof w);
	if (!strcmp(w, "tile"))
		return match_tile(p, t, b);
	if (!strcmp(w, "vec") || !strcmp(w, "mat") || !strcmp(w, "quat") || !strcmp(w, "transform")) {
		int kind = w[0] == 'v' ? TK_VEC : w[0] == 'm' ? TK_MAT : w[0] == 'q' ? TK_QUAT : TK_XFORM;
		int ok = ty_kind(t) == kind;
		expect(p, '(');
		if (kind == TK_VEC || kind == TK_MAT) {
			ok = match_len(p, ty_rows(t), b) && ok;
			expect(p, ',');
		}
		if (kind == TK_MAT) {
			ok = match_len(p, ty_cols(t), b) && ok;
			expect(p, ',');
		}
		ok = match(p, ty_scalar(t), b) && ok;
		expect(p, ')');
		return ok;
	}
	if (!strcmp(w, "array")) {
		int ok = ty_is_array(t) && (!b->D || b->D == ty_ndim(t));
		if (ok)
			b->D = ty_ndim(t);
		expect(p, '(');
		ok = match(p, ty_elem(t), b) && ok;
		expect(p, ')');
		return ok;
	}
	if (is_class(w))
		return bind_scalar(w, t, b);
	if (!strcmp(w, "S"))
		return b->S && b->S == t;
	if (!strcmp(w, "T"))
		return b->T && b->T == t;
	if (!strcmp(w, "Any"))
		return t != TY_VOID && !ty_is_array(t) && !ty_is_tile(t) && bind_t(t, b);
	if (!strcmp(w, "Arith"))
		return (ty_is_scalar(t) || ty_is_vec(t) || ty_is_mat(t)) && bind_t(t, b);
	return ty_parse(w, strlen(w)) == t && t != TY_VOID;
}

/* The type the pattern at *p stands for under b, or TY_VOID. */
static Type build(const char **p, const Bind *b)
{
	char w[32];
	word(p, w, sizeof w);
	if (!strcmp(w, "tile"))
		return build_tile(p, b);
	if (!strcmp(w, "vec") || !strcmp(w, "mat") || !strcmp(w, "quat") || !strcmp(w, "transform")) {
		int kind = w[0] == 'v' ? TK_VEC : w[0] == 'm' ? TK_MAT : w[0] == 'q' ? TK_QUAT : TK_XFORM;
		int rows = kind == TK_QUAT ? 4 : kind == TK_XFORM ? 7 : 0, cols = 1;
		expect(p, '(');
		if (kind == TK_VEC || kind == TK_MAT) {
			rows = build_len(p, b);
			expect(p, ',');
		}
		if (kind == TK_MAT) {
			cols = build_len(p, b);
			expect(p, ',');
		}
		Type s = build(p, b);
		expect(p, ')');
		return ty_find(kind, s, rows, cols);
	}
	if (is_class(w) || !strcmp(w, "S"))
		return b->S;
	if (!strcmp(w, "T") || !strcmp(w, "Any") || !strcmp(w, "Arith"))
		return b->T;
	return ty_parse(w, strlen(w));
}

/* Match the argument types against the row's patterns. */
static int match_args(const BuiltinInfo *bi, const Type *args, int nargs, Bind *b)
{
	const char *p = bi->args;
	int i = 0;
	memset(b, 0, sizeof *b);
	skip_blanks(&p);
	while (*p) {
		const char *q = p;
		char w[16];
		word(&q, w, sizeof w);
		skip_blanks(&q);
		if (*q == ':') { /* a parameter name */
			p = q + 1;
			q = p;
			word(&q, w, sizeof w);
		}
		if (!strcmp(w, "index")) {
			p = q;
			for (int k = 0; k < b->D; k++, i++)
				if (i >= nargs || !ty_is_int(args[i]))
					return 0;
		} else if (i >= nargs || !match(&p, args[i++], b)) {
			return 0;
		}
		skip_default(&p);
		expect(&p, ',');
		skip_blanks(&p);
	}
	return i == nargs;
}

/* Skip a result's name ("U: "), if it has one. */
static void skip_name(const char **p)
{
	const char *q = *p;
	char w[32];
	word(&q, w, sizeof w);
	skip_blanks(&q);
	if (*q == ':')
		*p = q + 1;
}

/* The result types of a row under b (at most 4): their number, or -1
 * when one is a shape the language has no type for. */
static int build_results(const BuiltinInfo *bi, const Bind *b, Type *res)
{
	const char *p = bi->res;
	int n = 0;
	skip_blanks(&p);
	while (*p && n < 4) {
		skip_name(&p);
		if ((res[n++] = build(&p, b)) == TY_VOID)
			return -1;
		expect(&p, ',');
		skip_blanks(&p);
	}
	return n;
}

/* What resolving a name for some argument types gave, kept: a module
 * asks the same few questions over and over.  Direct-mapped on the name's
 * first row and the types. */
enum { RESOLVED_CAP = 4096, RESOLVED_ARGS = 6 };
typedef struct Resolved {
	int16_t first, nargs; /* first: the name's first row + 1, 0: empty */
	Type args[RESOLVED_ARGS];
	int16_t row;
	Type res;
} Resolved;
static Resolved resolved[RESOLVED_CAP];

static int resolve_mapped(int first, const Type *args, int nargs, Type *res);

static int resolve(int first, const Type *args, int nargs, Type *res)
{
	for (int r = first; r >= 0; r = name_next[r]) {
		const BuiltinInfo *bi = &ir_builtins[r];
		Bind b;
		Type t[4];
		if (!match_args(bi, args, nargs, &b))
			continue;
		int n = build_results(bi, &b, t);
		if (n < 0)
			continue;
		*res = n ? t[0] : TY_VOID;
		return r;
	}
	return resolve_mapped(first, args, nargs, res);
}

/* A builtin over tiles, element by element (wp.tile_map(wp.sin, t)): the
 * row for the elements' types (numbers beside the tiles stay numbers),
 * where the tiles have one shape and the row is a function of numbers
 * with one result; the result is a tile of it, of that shape. */
static int resolve_mapped(int first, const Type *args, int nargs, Type *res)
{
	Type el[16], shape = TY_VOID, r;
	if (nargs > 16)
		return -1;
	for (int i = 0; i < nargs; i++) {
		if (ty_is_tile(args[i])) {
			if (shape != TY_VOID && (ty_ndim(shape) != ty_ndim(args[i]) ||
						 memcmp(ty_info(shape)->shape, ty_info(args[i])->shape,
							(size_t)ty_ndim(shape) * sizeof(int))))
				return -1;
			shape = args[i];
			el[i] = ty_elem(args[i]);
		} else if (ty_is_scalar(args[i])) {
			el[i] = args[i];
		} else {
			return -1;
		}
	}
	if (shape == TY_VOID)
		return -1;
	int row = resolve(first, el, nargs, &r);
	if (row < 0 || (ir_builtins[row].flags & (BF_ATOMIC | BF_STATE | BF_KERNEL_ONLY | BF_TILE)) ||
	    !ty_is_scalar(r) || ir_builtin_nres(row) != 1)
		return -1;
	*res = ty_tile(r, ty_ndim(shape), ty_info(shape)->shape);
	return *res == TY_VOID ? -1 : row;
}

int ir_builtin_mapped(int row, const Type *args, int nargs)
{
	(void)row;
	for (int i = 0; i < nargs; i++)
		if (ty_is_tile(args[i]))
			return !(ir_builtins[row].flags & BF_TILE);
	return 0;
}

int ir_builtin_resolve(const char *name, const Type *args, int nargs, Type *res)
{
	int first = rows_of(name);
	if (first < 0)
		return -1;
	if (nargs > RESOLVED_ARGS)
		return resolve(first, args, nargs, res);
	uint64_t h = (uint64_t)first * 0x9E3779B97F4A7C15u + (uint64_t)nargs;
	for (int i = 0; i < nargs; i++)
		h = (h ^ args[i]) * 0x100000001B3u;
	Resolved *c = &resolved[(h >> 20) & (RESOLVED_CAP - 1)];
	if (c->first == first + 1 && c->nargs == nargs && !memcmp(c->args, args, (size_t)nargs * sizeof *args)) {
		if (c->row >= 0)
			*res = c->res;
		return c->row;
	}
	Type t = TY_VOID;
	int row = resolve(first, args, nargs, &t);
	c->first = (int16_t)(first + 1);
	c->nargs = (int16_t)nargs;
	memcpy(c->args, args, (size_t)nargs * sizeof *args);
	c->row = (int16_t)row;
	c->res = t;
	if (row >= 0)
		*res = t;
	return row;
}

int ir_builtin_results(int row, const Type *args, int nargs, Type *res)
{
	Bind b;
	if (!match_args(&ir_builtins[row], args, nargs, &b))
		return 0;
	int n = build_results(&ir_builtins[row], &b, res);
	return n < 0 ? 0 : n;
}

int ir_builtin_nres(int row)
{
	const char *p = ir_builtins[row].res;
	int n = 0, depth = 0;
	skip_blanks(&p);
	if (!*p)
		return 0;
	for (n = 1; *p; p++) {
		depth += *p == '(' ? 1 : *p == ')' ? -1 : 0;
		n += *p == ',' && depth == 0;
	}
	return n;
}

void ir_builtin_result_name(int row, int k, char *out, size_t n)
{
	const char *p = ir_builtins[row].res;
	int depth = 0;
	for (; *p && k; p++) {
		depth += *p == '(' ? 1 : *p == ')' ? -1 : 0;
		k -= *p == ',' && depth == 0;
	}
	word(&p, out, n);
}

int ir_builtin_resolve_ir(const char *name, const Type *args, int nargs, Type *res)
{
	int row = ir_builtin_resolve(name, args, nargs, res);
	if (row >= 0 || strcmp(name, "atomic_add") || nargs < 3 || !ty_is_array(args[0]))
		return row;
	/* the gather of an adjoint into an array of structs (kdiff) */
	Type e = ty_elem(args[0]);
	if (!ty_is_struct(e) || nargs != ty_ndim(args[0]) + 2 || args[nargs - 1] != e)
		return -1;
	for (int k = 1; k < nargs - 1; k++)
		if (!ty_is_int(args[k]))
			return -1;
	*res = e;
	return BI_ATOMIC_ADD;
}

int ir_builtin_arity(int row)
{
	const char *p = ir_builtins[row].args;
	int n = 0, depth = 0;
	skip_blanks(&p);
	if (!*p)
		return 0;
	if (strstr(p, "index"))
		return -1;
	for (n = 1; *p; p++) {
		depth += *p == '(' ? 1 : *p == ')' ? -1 : 0;
		n += *p == ',' && depth == 0;
	}
	return n;
}

int ir_builtin_default(int row, int k, Type *ty, double *value)
{
	const char *p = ir_builtins[row].args;
	for (; k > 0 && *p; p++) {
		int depth = 0;
		for (; *p && !(depth == 0 && *p == ','); p++)
			depth += *p == '(' ? 1 : *p == ')' ? -1 : 0;
		if (!*p)
			return 0;
		k--;
	}
	const char *q = p;
	char w[32];
	word(&q, w, sizeof w);
	skip_blanks(&q);
	if (*q == ':') {
		q++;
		word(&q, w, sizeof w);
	}
	skip_blanks(&q);
	if (*q != '=')
		return 0;
	*ty = ty_parse(w, strlen(w));
	*value = strtod(q + 1, NULL);
	return *ty != TY_VOID;
}

/* A pattern as a user reads it: classes and S as the number type
 * ("float", "int", "number"), vec(N, P) as vecN, mat(N, N, P) as matNN. */
static void put_pattern(Buf *b, const char **p, const char **cls)
{
	char w[32];
	word(p, w, sizeof w);
	if (!strcmp(w, "vec") || !strcmp(w, "mat")) {
		char r[16], c[16];
		expect(p, '(');
		word(p, r, sizeof r);
		expect(p, ',');
		if (w[0] == 'm') {
			word(p, c, sizeof c);
			expect(p, ',');
		}
		word(p, w + 8, sizeof w - 8);
		expect(p, ')');
		buf_printf(b, "%s%s%s", w[0] == 'v' ? "vec" : "mat", r, w[0] == 'm' ? c : "");
		return;
	}
	if (!strcmp(w, "array")) {
		expect(p, '(');
		buf_puts(b, "array(");
		put_pattern(b, p, cls);
		buf_putc(b, ')');
		expect(p, ')');
		return;
	}
	if (!strcmp(w, "quat") || !strcmp(w, "transform")) {
		char x[32];
		expect(p, '(');
		word(p, x, sizeof x);
		expect(p, ')');
		buf_puts(b, w);
		return;
	}
	if (!strcmp(w, "tile")) {
		/* tile(number, shape=(M, K)) */
		char len[KS_MAX_NDIM][16];
		int n;
		tile_lengths(p, len, &n);
		buf_puts(b, "tile(");
		put_pattern(b, p, cls);
		expect(p, ')');
		if (n)
			buf_puts(b, ", shape=(");
		for (int k = 0; k < n; k++)
			buf_cat(b, k ? ", " : "", strcmp(len[k], "block") ? len[k] : "block_dim", NULL);
		buf_puts(b, n == 1 ? ",))" : n ? "))" : ")");
		return;
	}
	if (is_class(w) && !*cls)
		*cls = !strcmp(w, "Float") ? "float" : !strcmp(w, "Int") ? "int" : "number";
	if (is_class(w) || !strcmp(w, "S"))
		buf_puts(b, *cls ? *cls : "number");
	else if (!strcmp(w, "index"))
		buf_puts(b, "int...");
	else if (!strcmp(w, "T") || !strcmp(w, "Any") || !strcmp(w, "Arith"))
		buf_puts(b, "T");
	else
		buf_puts(b, w);
}

void ir_builtin_signatures(const char *name, char *out, size_t n)
{
	Buf b = {0};
	for (int r = 0; r < BI_COUNT; r++) {
		const BuiltinInfo *bi = &ir_builtins[r];
		const char *p = bi->args, *cls = NULL;
		if (strcmp(bi->name, name))
			continue;
		if (b.n)
			buf_puts(&b, ", ");
		buf_printf(&b, "%s(", name);
		skip_blanks(&p);
		for (int k = 0; *p; k++) {
			const char *q = p;
			char w[32];
			word(&q, w, sizeof w);
			skip_blanks(&q);
			if (*q == ':') /* a parameter name */
				p = q + 1;
			if (k)
				buf_puts(&b, ", ");
			put_pattern(&b, &p, &cls);
			skip_blanks(&p);
			if (*p == '=') {
				const char *d = p;
				skip_default(&p);
				buf_printf(&b, "%.*s", (int)(p - d), d);
			}
			expect(&p, ',');
			skip_blanks(&p);
		}
		buf_putc(&b, ')');
	}
	snprintf(out, n, "%s", b.n ? b.p : "");
	buf_free(&b);
}

void ir_builtin_cname(int row, const Type *args, char *out, size_t n)
{
	const BuiltinInfo *b = &ir_builtins[row];
	if (!b->args[0]) {
		ks_join(out, n, "ks_", b->name, NULL);
		return;
	}
	if (b->flags & BF_OWN_NAME || b->flags & BF_STATE) {
		size_t k = snprintf(out, n, "ks_");
		for (const char *c = b->ename; *c && k + 1 < n; c++)
			out[k++] = (char)(*c >= 'A' && *c <= 'Z' ? *c - 'A' + 'a' : *c);
		out[k < n ? k : n - 1] = 0;
		return;
	}
	/* atomics are named after the element type, others after arg 0;
	 * min(v) and max(v), the reductions, are not the component-wise
	 * min(a, b) of two vectors, and C has one name for both */
	Type t = ty_elem(args[0]);
	const char *name = row == BI_MIN_VS ? "min_of" : row == BI_MAX_VS ? "max_of" : b->name;
	/* a number by a vector or matrix (div_approx(s, v)) is not the
	 * number by a number: both types name it */
	if (ty_is_scalar(t) && ir_builtin_arity(row) >= 2 && ty_is_composite(args[1])) {
		ks_join(out, n, "ks_", name, "_", ty_name(t), "_", ty_name(args[1]), NULL);
		return;
	}
	ks_join(out, n, "ks_", name, "_", ty_name(t), NULL);
}

/* ---- opcode typing --------------------------------------------------------- */

/* s * x and x * s, x a composite of the scalar s */
static Type scale_type(Type s, Type x)
{
	return ty_is_scalar(s) && ty_is_composite(x) && ty_scalar(x) == s ? x : TY_VOID;
}

/* The product of two same-scalar vectors, matrices, quats or transforms:
 * m * v, v * m, m * m (sizes matching), q * q, t * t. */
static Type product_type(Type a, Type b)
{
	if (ty_scalar(a) != ty_scalar(b))
		return TY_VOID;
	if (ty_is_mat(a) && ty_is_vec(b) && ty_cols(a) == ty_rows(b))
		return ty_find(TK_VEC, ty_scalar(a), ty_rows(a), 1);
	if (ty_is_vec(a) && ty_is_mat(b) && ty_rows(a) == ty_rows(b))
		return ty_find(TK_VEC, ty_scalar(a), ty_cols(b), 1);
	if (ty_is_mat(a) && ty_is_mat(b) && ty_cols(a) == ty_rows(b))
		return ty_find(TK_MAT, ty_scalar(a), ty_rows(a), ty_cols(b));
	if (a == b && (ty_is_quat(a) || ty_is_xform(a)))
		return a;
	return TY_VOID;
}

/* Can a value of type a become one of type b (conv)?  Numbers (and bool)
 * convert to one another; a vector, matrix, quat or transform to the same
 * shape of another scalar. */
static int convertible(Type a, Type b)
{
	if (ty_is_tile(a) || ty_is_tile(b)) /* wp.tile_astype: the same shape */
		return ty_is_tile(a) && ty_is_tile(b) && ty_ndim(a) == ty_ndim(b) &&
		       !memcmp(ty_info(a)->shape, ty_info(b)->shape, (size_t)ty_ndim(a) * sizeof(int));
	if ((ty_is_scalar(a) || a == TY_BOOL) && (ty_is_scalar(b) || b == TY_BOOL))
		return 1;
	return ty_is_composite(a) && ty_kind(a) == ty_kind(b) && ty_rows(a) == ty_rows(b) &&
	       ty_cols(a) == ty_cols(b);
}

/* The types a make of want takes: none (zero), one component (every
 * component), all of them, a transform's position and rotation, a
 * quaternion's vector part and real part, or a spatial vector's two
 * halves. */
static int make_ok(const Type *a, int n, Type want)
{
	Type s = ty_scalar(want);
	int nc = ty_ncomp(want);
	if (!ty_is_composite(want))
		return 0;
	if (ty_is_xform(want) && n == 2)
		return a[0] == ty_find(TK_VEC, s, 3, 1) && a[1] == ty_find(TK_QUAT, s, 4, 1);
	if (ty_is_quat(want) && n == 2)
		return a[0] == ty_find(TK_VEC, s, 3, 1) && a[1] == s;
	if (ty_is_vec(want) && nc == 6 && n == 2)
		return a[0] == ty_find(TK_VEC, s, 3, 1) && a[1] == a[0];
	if (n != 0 && n != 1 && n != nc)
		return 0;
	for (int i = 0; i < n; i++)
		if (a[i] != s)
			return 0;
	return 1;
}

/* Is the component selector a[1..n) right for x: one index of a vector,
 * quat or transform, one (a row) or two of a matrix.  The result (a
 * component or a row) in *part. */
static int component_ok(Type x, const Type *idx, int n, Type *part)
{
	for (int i = 0; i < n; i++)
		if (idx[i] != TY_INT)
			return 0;
	if (ty_is_tile(x) && n == ty_ndim(x))
		*part = ty_elem(x);
	else if ((ty_is_vec(x) || ty_is_quat(x) || ty_is_xform(x)) && n == 1)
		*part = ty_scalar(x);
	else if (ty_is_mat(x) && n == 1)
		*part = ty_find(TK_VEC, ty_scalar(x), ty_cols(x), 1);
	else if (ty_is_mat(x) && n == 2)
		*part = ty_scalar(x);
	else
		return 0;
	return *part != TY_VOID;
}

/* Are a[0..n) ints? */
static int ints(const Type *a, int n)
{
	for (int i = 0; i < n; i++)
		if (a[i] != TY_INT)
			return 0;
	return 1;
}

/* Is small a tile of big's element type whose extents fit big's last
 * ones (tile_view's result, tile_assign's source)? */
static int sub_tile_ok(Type big, Type small)
{
	if (!ty_is_tile(small) || ty_elem(small) != ty_elem(big) || ty_ndim(small) > ty_ndim(big))
		return 0;
	int lead = ty_ndim(big) - ty_ndim(small);
	for (int k = 0; k < ty_ndim(big); k++)
		if (ty_extent(big, k) == KS_TILE_BLOCK)
			return 0;
	for (int k = 0; k < ty_ndim(small); k++)
		if (ty_extent(small, k) == KS_TILE_BLOCK || ty_extent(small, k) > ty_extent(big, lead + k))
			return 0;
	return 1;
}

/* Is a[1..n) the offsets of a tile of array a[0]: one int per dimension? */
static int offsets_ok(const Type *a, int n)
{
	if (!ty_is_array(a[0]) || n != 1 + ty_ndim(a[0]))
		return 0;
	for (int i = 1; i < n; i++)
		if (a[i] != TY_INT)
			return 0;
	return 1;
}

/* Are a[0..n) ints? */
static int ints_ok(const Type *a, int n)
{
	for (int i = 0; i < n; i++)
		if (a[i] != TY_INT)
			return 0;
	return 1;
}

/* Is t a tile of indices: a 1-D tile of ints? */
static int indices_ok(Type t) { return ty_is_tile(t) && ty_ndim(t) == 1 && ty_elem(t) == TY_INT; }

int ir_tile_indexed_ok(Type arr, Type t, Type idx, const Type *off, int noff)
{
	return ty_is_array(arr) && ty_is_tile(t) && indices_ok(idx) && noff == ty_ndim(arr) &&
	       ty_ndim(t) == ty_ndim(arr) && ty_elem(t) == ty_elem(arr) && ints_ok(off, noff);
}

/* Arithmetic on tiles, element by element: two tiles of one type, or a
 * tile and a number of its element type (either side for mul, a divisor
 * for div); div of float tiles only (ints divide as Warp's scalars do,
 * by zero giving zero, which an element's C division would not). */
static Type tile_arith(int op, const Type *a)
{
	Type t = ty_is_tile(a[0]) ? a[0] : a[1];
	if (op == OP_DIV && !ty_is_float(ty_scalar(t)))
		return TY_VOID;
	Type e[2];
	for (int k = 0; k < 2; k++) {
		if (ty_is_tile(a[k]))
			e[k] = ty_elem(a[k]);
		else if (ty_is_scalar(a[k]) && (op == OP_MUL || (op == OP_DIV && k == 1)))
			e[k] = a[k];
		else
			return TY_VOID;
	}
	if (ty_is_tile(a[0]) && ty_is_tile(a[1]) && !ty_same_shape(a[0], a[1]))
		return TY_VOID;
	Type r = ir_op_type(op, e, 2, TY_VOID);
	return r == TY_VOID ? TY_VOID : ty_tile(r, ty_ndim(t), ty_info(t)->shape);
}

/* Does tile a broadcast to tile b (numpy's rule: their extents from the
 * right equal, or a's 1; b has at least a's rank), their elements one? */
static int broadcasts(Type a, Type b)
{
	int na = ty_ndim(a), nb = ty_ndim(b);
	if (!ty_is_tile(a) || !ty_is_tile(b) || ty_elem(a) != ty_elem(b) || na > nb)
		return 0;
	for (int i = 1; i <= na; i++)
		if (ty_extent(a, na - i) != 1 && ty_extent(a, na - i) != ty_extent(b, nb - i))
			return 0;
	return 1;
}

/* A comparison of tiles, element by element (kdiff's rules of mapped
 * builtins): two tiles of one type, or a tile and a number of its type,
 * give a tile of bools. */
static Type tile_cmp(const Type *a)
{
	Type t = ty_is_tile(a[0]) ? a[0] : a[1];
	if (!ty_is_scalar(ty_elem(t)) ||
	    !(a[0] == a[1] || (a[0] == t && a[1] == ty_elem(t)) || (a[1] == t && a[0] == ty_elem(t))))
		return TY_VOID;
	return ty_tile(TY_BOOL, ty_ndim(t), ty_info(t)->shape);
}

Type ir_op_type(int op, const Type *a, int n, Type want)
{
	int na = ir_ops[op].nargs;
	Type part;
	if (na >= 0 && n != na)
		return TY_VOID;
	if (n < 1 && op != OP_MAKE && op != OP_TAPE_MEASURED)
		return TY_VOID;
	for (int i = 0; i < n; i++)
		if (a[i] == TY_VOID)
			return TY_VOID;
	int same = n >= 2 && a[0] == a[1];
	if (n == 2 && (ty_is_tile(a[0]) || ty_is_tile(a[1])) &&
	    (op == OP_ADD || op == OP_SUB || op == OP_MUL || op == OP_DIV))
		return tile_arith(op, a);
	if (n == 2 && (ty_is_tile(a[0]) || ty_is_tile(a[1])) && op >= OP_LT && op <= OP_NE)
		return tile_cmp(a);
	if (op == OP_SELECT && n == 3 && ty_is_tile(a[0]))
		return ty_elem(a[0]) == TY_BOOL && a[1] == a[2] && ty_is_tile(a[1]) &&
				       ty_ndim(a[0]) == ty_ndim(a[1]) &&
				       !memcmp(ty_info(a[0])->shape, ty_info(a[1])->shape,
					       (size_t)ty_ndim(a[1]) * sizeof(int))
			       ? a[1]
			       : TY_VOID;
	switch (op) {
	case OP_MOV:
		return ty_is_array(a[0]) ? TY_VOID : a[0];
	case OP_NEG:
		return ty_is_scalar(a[0]) || ty_is_composite(a[0]) || ty_is_tile(a[0]) ? a[0] : TY_VOID;
	case OP_ADD:
	case OP_SUB:
		return same && (ty_is_scalar(a[0]) || ty_is_composite(a[0])) ? a[0] : TY_VOID;
	case OP_MUL:
		if (same && ty_is_scalar(a[0]))
			return a[0];
		if (scale_type(a[0], a[1]))
			return a[1];
		if (scale_type(a[1], a[0]))
			return a[0];
		return product_type(a[0], a[1]);
	case OP_DIV:
		if (same && ty_is_scalar(a[0]))
			return a[0];
		if (scale_type(a[1], a[0]) && !ty_is_xform(a[0]))
			return a[0];
		if (scale_type(a[0], a[1]) && (ty_is_vec(a[1]) || ty_is_mat(a[1]) || ty_is_quat(a[1])))
			return a[1];
		return TY_VOID;
	case OP_FLOORDIV:
	case OP_MOD:
		return same && ty_is_scalar(a[0]) ? a[0] : TY_VOID;
	case OP_LT:
	case OP_LE:
	case OP_GT:
	case OP_GE:
		return same && ty_is_scalar(a[0]) ? TY_BOOL : TY_VOID;
	case OP_EQ:
	case OP_NE:
		return same && (ty_is_scalar(a[0]) || a[0] == TY_BOOL || ty_is_composite(a[0])) ? TY_BOOL : TY_VOID;
	case OP_AND:
	case OP_OR:
		return a[0] == TY_BOOL && a[1] == TY_BOOL ? TY_BOOL : TY_VOID;
	case OP_NOT:
		return a[0] == TY_BOOL ? TY_BOOL : TY_VOID;
	case OP_BIT_AND:
	case OP_BIT_OR:
	case OP_BIT_XOR:
	case OP_LSHIFT:
	case OP_RSHIFT:
		return same && ty_is_int(a[0]) ? a[0] : TY_VOID;
	case OP_INVERT:
		return ty_is_int(a[0]) ? a[0] : TY_VOID;
	case OP_SELECT:
		return a[0] == TY_BOOL && a[1] == a[2] && !ty_is_array(a[1]) && !ty_is_tile(a[1]) ? a[1] : TY_VOID;
	case OP_CONV:
		return want != TY_VOID && convertible(a[0], want) ? want : TY_VOID;
	case OP_BITCAST:
		return want != TY_VOID && !ty_is_array(want) && !ty_is_array(a[0]) && !ty_is_tile(want) &&
				       !ty_is_tile(a[0]) && ty_info(a[0])->size == ty_info(want)->size
			       ? want
			       : TY_VOID;
	case OP_MAKE:
		if (ty_is_tile(want)) /* zeros, or every element one number */
			return n == 0 || (n == 1 && a[0] == ty_elem(want)) ? want : TY_VOID;
		if (ty_is_struct(want))
			return n == 0 ? want : TY_VOID; /* a struct's zero */
		return make_ok(a, n, want) ? want : TY_VOID;
	case OP_EXTRACT:
		return component_ok(a[0], a + 1, n - 1, &part) ? part : TY_VOID;
	case OP_INSERT:
		if (n >= 3 && component_ok(a[0], a + 1, n - 2, &part) && a[n - 1] == part)
			return a[0];
		return TY_VOID;
	case OP_LOAD:
		if (!ty_is_array(a[0]) || n != 1 + ty_ndim(a[0]))
			return TY_VOID;
		for (int i = 1; i < n; i++)
			if (a[i] != TY_INT)
				return TY_VOID;
		return ty_elem(a[0]);
	case OP_SHAPE:
		return ty_is_array(a[0]) && a[1] == TY_INT ? TY_INT : TY_VOID;
	case OP_TILE_BROADCAST:
		return broadcasts(a[0], want) ? want : TY_VOID;
	case OP_TILE_SUM_TO:
		return broadcasts(want, a[0]) && (ty_is_scalar(ty_elem(want)) || ty_is_vec(ty_elem(want)) ||
						  ty_is_mat(ty_elem(want)))
			       ? want
			       : TY_VOID;
	case OP_TILE_RESHAPE:
		return ty_is_tile(a[0]) && ty_is_tile(want) && ty_elem(a[0]) == ty_elem(want) &&
				       ty_count(a[0]) == ty_count(want)
			       ? want
			       : TY_VOID;
	case OP_TILE_ARANGE:
		return ty_is_tile(want) && ty_ndim(want) == 1 && ty_is_scalar(ty_elem(want)) &&
				       a[0] == ty_elem(want) && a[1] == ty_elem(want)
			       ? want
			       : TY_VOID;
	case OP_TILE_RAND:
		return ty_is_tile(want) && (ty_elem(want) == TY_FLOAT || ty_elem(want) == TY_INT) &&
				       a[0] == TY_UINT32 &&
				       (n == 1 || (n == 3 && a[1] == ty_elem(want) && a[2] == ty_elem(want)))
			       ? want
			       : TY_VOID;
	case OP_TILE_COMP:
		return ty_is_tile(a[0]) && ty_is_vec(ty_elem(a[0])) && a[1] == TY_INT && ty_is_tile(want) &&
				       ty_same_shape(a[0], want) &&
				       (ty_is_scalar(ty_elem(want)) || ty_is_vec(ty_elem(want))) &&
				       ty_scalar(ty_elem(want)) == ty_scalar(ty_elem(a[0])) &&
				       ty_ncomp(ty_elem(want)) <= ty_ncomp(ty_elem(a[0]))
			       ? want
			       : TY_VOID;
	case OP_TILE_ADD_AT: {
		Type el;
		if (n >= 3 && ty_is_tile(a[0]) && component_ok(a[0], a + 1, n - 2, &el) && a[n - 1] == el &&
		    ty_elem(a[0]) != TY_BOOL)
			return a[0];
		return TY_VOID;
	}
	case OP_TILE_VIEW:
		/* the tile, one offset per extent */
		return n >= 2 && ty_is_tile(a[0]) && n == 1 + ty_ndim(a[0]) && ints(a + 1, n - 1) &&
				       sub_tile_ok(a[0], want)
			       ? want
			       : TY_VOID;
	case OP_TILE_ASSIGN:
		return n >= 3 && ty_is_tile(a[0]) && n == 2 + ty_ndim(a[0]) && ints(a + 2, n - 2) &&
				       sub_tile_ok(a[0], a[1])
			       ? a[0]
			       : TY_VOID;
	case OP_TILE_LOAD_INDEXED:
		/* the array, the indices, the axis, the offsets */
		return n >= 4 && a[2] == TY_INT && ir_tile_indexed_ok(a[0], want, a[1], a + 3, n - 3) ? want
												      : TY_VOID;
	case OP_TILE_LOAD:
		return ty_is_tile(want) && offsets_ok(a, n) && ty_ndim(want) == ty_ndim(a[0]) &&
				       ty_elem(want) == ty_elem(a[0])
			       ? want
			       : TY_VOID;
	case OP_TAPE_LOOP:
		return n == 1 && a[0] == TY_INT ? TY_INT : TY_VOID;
	case OP_TAPE_KEEP:
		return n == 2 && a[0] == TY_INT && a[1] == TY_INT ? TY_BOOL : TY_VOID;
	case OP_TAPE_BACK:
		return n == 2 && a[0] == TY_INT && a[1] == TY_INT ? TY_INT : TY_VOID;
	case OP_TAPE_GET:
		return n == 3 && a[0] == TY_INT && a[1] == TY_INT && a[2] != TY_VOID && !ty_is_array(a[2]) &&
				       !ty_is_tile(a[2])
			       ? a[2]
			       : TY_VOID;
	case OP_TAPE_MEASURED:
		return n == 0 ? TY_BOOL : TY_VOID;
	}
	return TY_VOID;
}

Type ir_inst_type(int op, int k, const Type *a, int n, Type want)
{
	if (op != OP_FIELD && op != OP_SETFIELD)
		return ir_op_type(op, a, n, want);
	if (n != ir_ops[op].nargs || !ty_is_struct(a[0]) || k < 0 || k >= ty_nfield(a[0]))
		return TY_VOID;
	Type ft = ty_field(a[0], k)->ty;
	if (op == OP_FIELD)
		return ft;
	return a[1] == ft ? a[0] : TY_VOID;
}

/* ---- constants -------------------------------------------------------- */

void ir_const_text(char *out, size_t n, const Value *v)
{
	char num[64], *p = num + sizeof num;
	*--p = 0;
	if (v->ty == TY_BOOL) {
		ks_join(out, n, v->k.i ? "true" : "false", NULL);
		return;
	}
	if (ty_is_float(v->ty)) {
		if (v->ty == TY_DOUBLE)
			ks_fmt_double(num, sizeof num, v->k.f);
		else
			ks_fmt_float(num, sizeof num, (float)v->k.f);
		p = num;
	} else if (ty_is_unsigned(v->ty)) {
		p = ks_udec(p, (unsigned long long)v->k.i);
	} else {
		p = ks_udec(p, v->k.i < 0 ? 0 - (unsigned long long)v->k.i : (unsigned long long)v->k.i);
		if (v->k.i < 0)
			*--p = '-';
	}
	if (v->ty == TY_INT || v->ty == TY_FLOAT)
		ks_join(out, n, p, NULL);
	else
		ks_join(out, n, p, ":", ty_name(v->ty), NULL);
}

/* ---- building ------------------------------------------------------------- */

int ir_struct_index(const Module *m, Type t) { return t < m->capstidx ? m->stidx[t] - 1 : -1; }

void ir_struct_add(Module *m, Type t)
{
	if (ir_struct_index(m, t) >= 0)
		return;
	if (t >= m->capstidx) {
		int cap = m->capstidx ? m->capstidx : 256;
		while (cap <= t)
			cap *= 2;
		m->stidx = xrealloc(m->stidx, (size_t)cap * sizeof *m->stidx);
		memset(m->stidx + m->capstidx, 0, (size_t)(cap - m->capstidx) * sizeof *m->stidx);
		m->capstidx = cap;
	}
	m->stidx[t] = m->nst + 1;
	if (m->nst == m->capst) {
		m->capst = m->capst ? 2 * m->capst : 8;
		m->st = xrealloc(m->st, (size_t)m->capst * sizeof *m->st);
	}
	m->st[m->nst++] = t;
}

Module *ir_module_new(void)
{
	Module *m = xmalloc(sizeof *m);
	memset(m, 0, sizeof *m);
	m->version = IR_VERSION;
	return m;
}

int ir_printf_convs(const char *fmt, IrConv *cv, int max, int *bad)
{
	int n = 0;
	for (const char *p = fmt; *p; p++) {
		if (*p != '%')
			continue;
		const char *at = p++;
		if (*p == '%')
			continue;
		while (*p && strchr("-+ #0", *p))
			p++;
		while (*p >= '0' && *p <= '9')
			p++;
		if (*p == '.')
			for (p++; *p >= '0' && *p <= '9'; p++)
				;
		IrConv c = {0, ""};
		for (int k = 0; k < 2 && (*p == 'h' || *p == 'l') && (k == 0 || *p == p[-1]); k++)
			c.len[k] = *p++;
		if (*p && strchr("di", *p))
			c.cls = 'i';
		else if (*p && strchr("uoxX", *p))
			c.cls = 'u';
		else if (*p == 'c' && !c.len[0])
			c.cls = 'c';
		else if (*p && strchr("fFeEgGaA", *p) && (!c.len[0] || !strcmp(c.len, "l")))
			c.cls = 'f';
		if (!c.cls || n == max) {
			*bad = (int)(at - fmt);
			return -1;
		}
		cv[n++] = c;
	}
	return n;
}

/* The slot of string s in m's string index (index + 1, or 0: free). */
static size_t str_slot(const Module *m, const char *s)
{
	size_t mask = (size_t)m->capstrindex - 1;
	size_t h = (size_t)ks_hash64(s, strlen(s), 0) & mask;
	while (m->strindex[h] && strcmp(m->str[m->strindex[h] - 1], s))
		h = (h + 1) & mask;
	return h;
}

int ir_string(Module *m, const char *s)
{
	if (2 * (m->nstr + 1) > m->capstrindex) {
		free(m->strindex);
		m->capstrindex = m->capstrindex ? 2 * m->capstrindex : 64;
		m->strindex = xmalloc((size_t)m->capstrindex * sizeof *m->strindex);
		memset(m->strindex, 0, (size_t)m->capstrindex * sizeof *m->strindex);
		for (int i = 0; i < m->nstr; i++)
			m->strindex[str_slot(m, m->str[i])] = i + 1;
	}
	size_t h = str_slot(m, s);
	if (m->strindex[h])
		return m->strindex[h] - 1;
	m->strindex[h] = m->nstr + 1;
	if (m->nstr == m->capstr) {
		m->capstr = m->capstr ? 2 * m->capstr : 8;
		m->str = xrealloc(m->str, (size_t)m->capstr * sizeof *m->str);
	}
	size_t n = strlen(s) + 1;
	m->str[m->nstr] = xmalloc(n);
	memcpy(m->str[m->nstr], s, n);
	return m->nstr++;
}

void ir_module_free(Module *m)
{
	if (!m)
		return;
	arena_free(&m->arena);
	for (int i = 0; i < m->nfn; i++)
		free(m->fn[i]);
	free(m->fn);
	free(m->fnname);
	free(m->fnkind);
	free(m->index);
	for (int i = 0; i < m->nstr; i++)
		free(m->str[i]);
	free(m->str);
	free(m->strindex);
	free(m->st);
	free(m->stidx);
	free(m);
}

void ir_func_declare(Module *m, const char *name, int kind)
{
	Arena *a = m->fnarena ? m->fnarena : &m->arena;
	if (m->nfn == m->capfn) {
		m->capfn = m->capfn ? 2 * m->capfn : 16;
		m->fn = xrealloc(m->fn, (size_t)m->capfn * sizeof *m->fn);
		m->fnname = xrealloc(m->fnname, (size_t)m->capfn * sizeof *m->fnname);
		m->fnkind = xrealloc(m->fnkind, (size_t)m->capfn * sizeof *m->fnkind);
	}
	m->fn[m->nfn] = NULL;
	m->fnname[m->nfn] = arena_strdup(a, name);
	m->fnkind[m->nfn] = (uint8_t)kind;
	m->nfn++;
}

Func *ir_func_make(Module *m, int i)
{
	Func *f = xmalloc(sizeof *f);
	memset(f, 0, sizeof *f);
	f->name = m->fnname[i];
	f->is_kernel = m->fnkind[i] != FN_FUNC;
	f->backward = m->fnkind[i] == FN_BACKWARD;
	m->fn[i] = f;
	return f;
}

Func *ir_func_new(Module *m, const char *name, int kind, Loc loc)
{
	ir_func_declare(m, name, kind);
	Func *f = ir_func_make(m, m->nfn - 1);
	f->loc = loc;
	return f;
}

void ir_func_forget(Module *m, int i)
{
	free(m->fn[i]);
	m->fn[i] = NULL;
}

/* The name index: a hash table of function indices keyed by name (a
 * kernel and its backward share a slot chain).  Lookups index the
 * functions added since the last lookup first, so that finding a name
 * costs the same in a module of ten functions as in one of a million. */
static size_t name_hash(const char *s, int cap) { return (size_t)ks_hash64(s, strlen(s), 0) & (size_t)(cap - 1); }

static void index_add(Module *m, int i)
{
	size_t h = name_hash(m->fnname[i], m->capindex);
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
		if ((best < 0 || i < best) && (m->fnkind[i] == FN_BACKWARD) == !!backward &&
		    !strcmp(m->fnname[i], name))
			best = i;
	}
	return best;
}

void ir_reorder(Module *m, const int32_t *to)
{
	if (!m->nfn)
		return; /* a module of no function: nothing to move (and no arrays) */
	size_t n = (size_t)m->nfn;
	Func **fn = xmalloc(n * sizeof *fn);
	const char **name = xmalloc(n * sizeof *name);
	uint8_t *kind = xmalloc(n);
	for (int i = 0; i < m->nfn; i++) {
		fn[to[i]] = m->fn[i];
		name[to[i]] = m->fnname[i];
		kind[to[i]] = m->fnkind[i];
	}
	memcpy(m->fn, fn, (size_t)m->nfn * sizeof *fn);
	memcpy(m->fnname, name, (size_t)m->nfn * sizeof *name);
	memcpy(m->fnkind, kind, (size_t)m->nfn);
	free(fn);
	free((void *)name);
	free(kind);
	for (int i = 0; i < m->nfn; i++)
		if (m->fn[i])
			ir_remap_calls(&m->fn[i]->body, to);
	/* the name index, made again by the next lookup */
	if (m->index)
		memset(m->index, 0, (size_t)m->capindex * sizeof *m->index);
	m->nindexed = 0;
}

typedef struct Remap {
	const int32_t *to;
} Remap;

static int remap_call(void *ctx, Inst *in)
{
	if (in->op == OP_CALL)
		in->callee = ((Remap *)ctx)->to[in->callee];
	return 0;
}

void ir_remap_calls(Block *b, const int32_t *to)
{
	Remap r = {to};
	ir_walk(b, remap_call, &r);
}

int ir_func_find(const Module *m, const char *name) { return find(m, name, 0); }

int ir_backward_find(const Module *m, const char *name) { return find(m, name, 1); }

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

int ir_const(Module *m, Func *f, Type ty, int64_t i, double x)
{
	int id = new_value(m, f, VK_CONST, ty);
	Value *v = &f->val[id];
	/* clang-format off */
	switch (ty) {
	case TY_BOOL: v->k.i = i != 0; break;
	case TY_INT8: v->k.i = (int8_t)i; break;
	case TY_UINT8: v->k.i = (uint8_t)i; break;
	case TY_INT16: v->k.i = (int16_t)i; break;
	case TY_UINT16: v->k.i = (uint16_t)i; break;
	case TY_INT: v->k.i = (int32_t)i; break;
	case TY_UINT32: v->k.i = (uint32_t)i; break;
	case TY_INT64: case TY_UINT64: v->k.i = i; break;
	case TY_HALF: v->k.f = ks_half_to_float(ks_half_from_float((float)x)); break;
	case TY_FLOAT: v->k.f = (float)x; break;
	default: v->k.f = x; break;
	}
	/* clang-format on */
	return id;
}

Inst *ir_emit(Module *m, Block *b, int op, const int32_t *res, int nres, const int32_t *arg, int narg, Loc loc)
{
	if (nres > 255 || narg > 255)
		ks_fatal("instruction with too many operands");
	arena_extend(&m->arena, (void **)&b->v, &b->cap, b->n + 1, sizeof *b->v);
	Inst *in = &b->v[b->n++];
	memset(in, 0, sizeof *in);
	in->op = (uint16_t)op;
	in->callee = -1;
	in->nres = (uint8_t)nres;
	in->narg = (uint8_t)narg;
	if (nres)
		in->res = arena_dup(&m->arena, res, (size_t)nres * sizeof *res);
	if (narg)
		in->arg = arena_dup(&m->arena, arg, (size_t)narg * sizeof *arg);
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

/* *rank: the most indices a tid gives */
static int tid_rank(void *rank, const Inst *in)
{
	if (in->op == OP_BUILTIN && in->callee == BI_TID && in->nres > *(int *)rank)
		*(int *)rank = in->nres;
	return 0;
}

int ir_kernel_rank(const Func *f)
{
	int r = 1;
	ir_walk_const(&f->body, tid_rank, &r);
	return r;
}

int ir_func_tiled(const Func *f)
{
	for (int i = 0; i < f->nval; i++)
		if (ty_is_tile(f->val[i].ty))
			return 1;
	return 0;
}

Type *ir_func_at_block(Func *f, int block)
{
	int i = 0;
	while (i < f->nval && !ty_has_block(f->val[i].ty))
		i++;
	if (i == f->nval)
		return NULL;
	Type *kept = xmalloc((size_t)f->nval * sizeof *kept);
	for (i = 0; i < f->nval; i++) {
		kept[i] = f->val[i].ty;
		f->val[i].ty = ty_at_block(f->val[i].ty, block);
		if (f->val[i].ty == TY_VOID && kept[i] != TY_VOID)
			ks_fatal("%s %s (line %d): its %s would hold more than %d elements in blocks of %d threads",
				 f->is_kernel ? "kernel" : "function", f->name, f->loc.line, ty_name(kept[i]),
				 KS_MAX_TILE, block);
	}
	return kept;
}

void ir_func_types_back(Func *f, Type *kept)
{
	for (int i = 0; kept && i < f->nval; i++)
		f->val[i].ty = kept[i];
	free(kept);
}

int ir_call_mapped(const Func *f, const Inst *in)
{
	if (in->op != OP_CALL)
		return 0;
	for (int k = 0; k < in->narg; k++)
		if (ty_is_tile(f->val[in->arg[k]].ty))
			return 1;
	return 0;
}

int ir_opens_tape(const Func *f)
{
	for (int i = 0; i < f->body.n; i++)
		if (f->body.v[i].op == OP_TAPE_OPEN)
			return 1;
	return 0;
}

Type ir_adjoint_type(Type t) { return ty_is_array(t) ? t : ty_array(t, 1); }

typedef struct ShapeRead {
	const Module *m;
	int v;
} ShapeRead;

/* Does in read the shape of value v, or pass v to a function parameter
 * that is a view? */
static int reads_shape(void *ctx, const Inst *in)
{
	const ShapeRead *s = ctx;
	if ((in->op == OP_SHAPE || in->op == OP_TILE_LOAD || in->op == OP_TILE_STORE ||
	     in->op == OP_TILE_ATOMIC_ADD || ir_op_indexed(in->op)) &&
	    in->arg[0] == s->v)
		return 1; /* a tile's access is bounded by the array's extents */
	if (in->op == OP_BUILTIN && (ir_builtins[in->callee].flags & BF_VIEW))
		for (int k = 0; k < in->narg; k++)
			if (in->arg[k] == s->v)
				return 1;
	if (in->op == OP_CALL)
		for (int k = 0; k < in->narg; k++)
			if (in->arg[k] == s->v && ir_param_view(s->m, s->m->fn[in->callee], k))
				return 1;
	return 0;
}

int ir_param_view(const Module *m, const Func *f, int i)
{
	Value *v = (Value *)&f->val[f->param[i]]; /* the answer is a cache */
	if (!ty_is_array(v->ty))
		return 0;
	if (ty_ndim(v->ty) > 1)
		return 1;
	if (!v->view) {
		if (!m)
			ks_fatal("internal error: @%s's array %%%s: its views were not marked", f->name, v->name);
		ShapeRead s = {m, f->param[i]};
		v->view = ir_walk_const(&f->body, reads_shape, &s) ? 2 : 1;
	}
	return v->view == 2;
}

void ir_mark_views(const Module *m)
{
	for (int k = 0; k < m->nfn; k++)
		for (int i = 0; i < m->fn[k]->nparam; i++)
			ir_param_view(m, m->fn[k], i);
}
