/*
 * read.c: reads IR text (doc/ir.md) into a Module.
 *
 * The format is line-oriented, so the reader is a small hand-written
 * tokenizer and a recursive-descent parser over lines, one function per
 * production.  It checks only what it needs to build the Module (names
 * exist, operands are well formed, types are known); ir_verify checks the
 * typing and control-flow rules.  Every error is located at the IR text.
 *
 * A module is read a piece at a time (ir/file.c): its head, then each
 * function's text.  A call names a function read before (doc/ir.md), so
 * each function is whole once its text is read.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"

enum {
	T_EOF,
	T_NL,
	T_IDENT,  /* func, kernel, if, add, sin, float, true, ... */
	T_LOCAL,  /* %name or %123 (text excludes the sigil) */
	T_GLOBAL, /* @name */
	T_INT,
	T_FLOAT,
	T_STRING,
	T_ARROW, /* -> */
	T_PUNCT, /* one of ( ) { } , : = ! [ ] */
};

#define MAX_DEPTH 200

typedef struct Tok {
	int kind;
	const char *p; /* text */
	int n;
	int line, col;
} Tok;

typedef struct Reader {
	const Src *src;
	const char *p, *end;
	int line;
	const char *line_start;
	Tok tok;
	Module *m;
	/* the function being read, and its name table */
	Func *f;
	int32_t *tab; /* open addressing: value id + 1, 0 = empty */
	int tabcap;
	int nnamed;
	int depth;
	const char *last_type; /* the type parse_type read last: its text, */
	int last_n;            /* its length */
	Type last_ty;          /* and what it is */
} Reader;

KS_PRINTF(3, 4) KS_NORETURN static void rerror(Reader *r, const Tok *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ks_verror_at(r->src, t->line, t->col, fmt, ap);
}

/* The classes of a byte the tokenizer asks about, one lookup each. */
enum { C_SPACE = 1, C_IDENT = 2, C_DIGIT = 4, C_PUNCT = 8 };

static uint8_t byte_class[256];

/* Fill byte_class, once (each read begins here). */
static void classes(void)
{
	if (byte_class['_'])
		return;
	for (int c = 0; c < 256; c++) {
		int alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
		int digit = c >= '0' && c <= '9';
		byte_class[c] = (uint8_t)((alpha || digit ? C_IDENT : 0) | (digit ? C_DIGIT : 0) |
					  (c && strchr(" \t\r", c) ? C_SPACE : 0) |
					  (c && strchr("(){},:=![]", c) ? C_PUNCT : 0));
	}
}

static int is_ident(int c) { return byte_class[c] & C_IDENT; }
static int is_digit(int c) { return byte_class[c] & C_DIGIT; }
static int is_punct_char(int c) { return byte_class[c] & C_PUNCT; }

/* Scan the next token into r->tok. */
static void next(Reader *r)
{
	const char *p = r->p;
	while (p < r->end && (byte_class[(unsigned char)*p] & C_SPACE))
		p++;
	if (p < r->end && *p == '#')
		while (p < r->end && *p != '\n')
			p++;
	Tok *t = &r->tok;
	t->p = p;
	t->line = r->line;
	t->col = (int)(p - r->line_start) + 1;
	if (p >= r->end) {
		t->kind = T_EOF;
		t->n = 0;
		r->p = p;
		return;
	}
	const char *s = p;
	int c = (unsigned char)*p;
	if (c == '\n') {
		t->kind = T_NL;
		p++;
		r->line++;
		r->line_start = p;
	} else if (c == '%' || c == '@') {
		p++;
		while (p < r->end && is_ident((unsigned char)*p))
			p++;
		if (p == s + 1)
			rerror(r, t, "expected a name after '%c'", c);
		/* a function's name is an identifier, as in C and Python */
		if (c == '@' && is_digit((unsigned char)s[1]))
			rerror(r, t, "a function name starts with a letter or '_', not '%c'", s[1]);
		t->kind = c == '%' ? T_LOCAL : T_GLOBAL;
		s++;
	} else if (is_digit(c) || (c == '-' && p + 1 < r->end && (is_digit((unsigned char)p[1]) || p[1] == '.')) ||
		   (c == '.' && p + 1 < r->end && is_digit((unsigned char)p[1]))) {
		int isfloat = 0;
		p++;
		while (p < r->end && (is_digit((unsigned char)*p) || *p == '.' || *p == 'e' || *p == 'E' ||
				      ((*p == '+' || *p == '-') && (p[-1] == 'e' || p[-1] == 'E')))) {
			if (!is_digit((unsigned char)*p))
				isfloat = 1;
			p++;
		}
		t->kind = isfloat ? T_FLOAT : T_INT;
	} else if (c == '-' && p + 1 < r->end && p[1] == '>') {
		p += 2;
		t->kind = T_ARROW;
	} else if (c == '-' && r->end - p >= 4 && !memcmp(p, "-inf", 4) &&
		   (r->end - p == 4 || !is_ident((unsigned char)p[4]))) {
		p += 4; /* the constant -inf, a word */
		t->kind = T_IDENT;
	} else if (is_ident(c)) {
		while (p < r->end && is_ident((unsigned char)*p))
			p++;
		/* the version line's keyword */
		if (p - s == 6 && !memcmp(s, "ksynth", 6) && r->end - p >= 3 && !memcmp(p, "-ir", 3))
			p += 3;
		t->kind = T_IDENT;
	} else if (c == '"') {
		p++;
		while (p < r->end && *p != '"' && *p != '\n') {
			if (*p == '\\' && p + 1 < r->end && p[1] != '\n')
				p++;
			p++;
		}
		if (p >= r->end || *p != '"')
			rerror(r, t, "unterminated string");
		p++;
		t->kind = T_STRING;
	} else if (is_punct_char(c)) {
		p++;
		t->kind = T_PUNCT;
	} else if (c >= 32 && c < 127) {
		rerror(r, t, "unexpected character '%c'", c);
	} else {
		rerror(r, t, "unexpected byte 0x%02x", c);
	}
	t->n = (int)(p - s);
	t->p = s;
	r->p = p;
}

static int is_punct(const Reader *r, char c) { return r->tok.kind == T_PUNCT && r->tok.p[0] == c; }

static inline int is_word(const Reader *r, const char *w)
{
	return r->tok.kind == T_IDENT && (size_t)r->tok.n == strlen(w) && !memcmp(r->tok.p, w, (size_t)r->tok.n);
}

static const char *tok_desc(const Tok *t, char *buf, size_t n)
{
	switch (t->kind) {
	case T_EOF:
		return "end of file";
	case T_NL:
		return "end of line";
	}
	snprintf(buf, n, "'%.*s%.*s'",
		 t->kind == T_LOCAL    ? 1
		 : t->kind == T_GLOBAL ? 1
				       : 0,
		 t->kind == T_LOCAL ? "%" : "@", t->n > 40 ? 40 : t->n, t->p);
	return buf;
}

static void expect_punct(Reader *r, char c)
{
	char buf[64];
	if (!is_punct(r, c))
		rerror(r, &r->tok, "expected '%c', found %s", c, tok_desc(&r->tok, buf, sizeof buf));
	next(r);
}

static void expect_nl(Reader *r)
{
	char buf[64];
	if (r->tok.kind != T_NL && r->tok.kind != T_EOF)
		rerror(r, &r->tok, "expected end of line, found %s", tok_desc(&r->tok, buf, sizeof buf));
	next(r);
}

static void skip_nl(Reader *r)
{
	while (r->tok.kind == T_NL)
		next(r);
}

static long parse_long(Reader *r, const Tok *t, long lo, long hi)
{
	/* the common case, -?[0-9]{1,18}, read in place */
	int neg = t->n > 0 && t->p[0] == '-', nd = t->n - neg;
	const char *d = t->p + neg;
	long u = 0;
	int k = 0;
	while (k < nd && k < 18 && is_digit((unsigned char)d[k]))
		u = 10 * u + (d[k++] - '0');
	char buf[32];
	if (t->n >= (int)sizeof buf)
		rerror(r, t, "integer out of range");
	if (nd && k == nd) {
		long v = neg ? -u : u;
		if (v >= lo && v <= hi)
			return v;
	}
	memcpy(buf, t->p, (size_t)t->n);
	buf[t->n] = 0;
	if (nd && k == nd)
		rerror(r, t, "integer %s out of range", buf);
	errno = 0;
	char *e;
	long v = strtol(buf, &e, 10);
	if (errno || *e || v < lo || v > hi)
		rerror(r, t, "integer %s out of range", buf);
	return v;
}

/* loc := '!' INT ':' INT */
static Loc parse_loc(Reader *r)
{
	Loc l;
	char buf[64];
	if (!is_punct(r, '!'))
		rerror(r, &r->tok, "expected a source location '!LINE:COL', found %s",
		       tok_desc(&r->tok, buf, sizeof buf));
	next(r);
	if (r->tok.kind != T_INT)
		rerror(r, &r->tok, "expected a line number");
	l.line = (int)parse_long(r, &r->tok, 0, 1L << 30);
	next(r);
	expect_punct(r, ':');
	if (r->tok.kind != T_INT)
		rerror(r, &r->tok, "expected a column number");
	l.col = (int)parse_long(r, &r->tok, 0, 1L << 30);
	next(r);
	return l;
}

/* 'tile' '(' NAME {',' (INT | 'block')} ')', after its 'tile' */
static Type parse_tile(Reader *r, const Tok *at)
{
	next(r);
	Tok e = r->tok;
	Type elem = e.kind == T_IDENT ? ty_parse(e.p, (size_t)e.n) : TY_VOID;
	if (!ty_is_scalar(elem) && elem != TY_BOOL && !ty_is_vec(elem) && !ty_is_mat(elem))
		rerror(r, &e, "a tile's elements are numbers, bools, vectors or matrices");
	next(r);
	int shape[KS_MAX_NDIM], ndim = 0;
	while (is_punct(r, ',')) {
		next(r);
		int block = r->tok.kind == T_IDENT && r->tok.n == 5 && !memcmp(r->tok.p, "block", 5);
		if (r->tok.kind != T_INT && !block)
			rerror(r, &r->tok, "expected a tile's extent");
		if (ndim == KS_MAX_NDIM)
			rerror(r, &r->tok, "tiles have at most %d dimensions", KS_MAX_NDIM);
		shape[ndim++] = block ? KS_TILE_BLOCK : (int)parse_long(r, &r->tok, 1, KS_MAX_TILE);
		next(r);
	}
	expect_punct(r, ')');
	Type t = ty_tile(elem, ndim, shape);
	if (t == TY_VOID)
		rerror(r, at, ndim ? "a tile has at most %d elements" : "a tile has at least one extent",
		       KS_MAX_TILE);
	return t;
}

/* type := NAME ['[' {','} ']'] | tile */
static Type parse_type(Reader *r)
{
	Tok t = r->tok;
	char buf[64];
	if (t.kind != T_IDENT)
		rerror(r, &t, "expected a type, found %s", tok_desc(&t, buf, sizeof buf));
	next(r);
	/* a function names a few types many times: the last is kept */
	Type ty;
	if (t.n == r->last_n && !memcmp(t.p, r->last_type, (size_t)t.n)) {
		ty = r->last_ty;
	} else {
		ty = ty_parse(t.p, (size_t)t.n);
		r->last_type = t.p;
		r->last_n = t.n;
		r->last_ty = ty;
	}
	if (t.n == 4 && !memcmp(t.p, "tile", 4) && is_punct(r, '('))
		return parse_tile(r, &t);
	if (ty == TY_VOID)
		rerror(r, &t, "unknown type '%.*s'", t.n > 40 ? 40 : t.n, t.p);
	if (is_punct(r, '[')) {
		int ndim = 1;
		next(r);
		for (; is_punct(r, ','); ndim++)
			next(r);
		if (!is_punct(r, ']'))
			rerror(r, &r->tok, "expected ']'");
		if (ndim > KS_MAX_NDIM)
			rerror(r, &r->tok, "arrays have at most %d dimensions", KS_MAX_NDIM);
		next(r);
		ty = ty_array(ty, ndim);
	}
	return ty;
}

/* ---- the per-function name table ------------------------------------------ */

/* The table's hash of a variable's name, and of a temp's number. */
static uint32_t name_hash(const char *s, int n)
{
	uint32_t h = 2166136261u;
	for (int i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h ^ (h >> 15);
}

static uint32_t num_hash(long num)
{
	uint32_t h = (uint32_t)num * 0x9E3779B1u;
	return h ^ (h >> 16);
}

/* Find %NAME in the current function: value id, or -1.  A temp's name
 * is its number. */
static int lookup(Reader *r, const char *s, int n)
{
	if (!r->tabcap)
		return -1;
	long num = -1;
	if (is_digit((unsigned char)s[0]) && n <= 9) {
		num = 0;
		for (int i = 0; i < n && num >= 0; i++)
			num = is_digit((unsigned char)s[i]) ? num * 10 + (s[i] - '0') : -1;
		if (n > 1 && s[0] == '0')
			num = -1; /* "007" is no temp's name */
	}
	for (uint32_t h = is_digit((unsigned char)s[0]) ? num_hash(num) : name_hash(s, n);; h++) {
		int32_t e = r->tab[h & (uint32_t)(r->tabcap - 1)];
		if (!e)
			return -1;
		const Value *v = &r->f->val[e - 1];
		if (v->name ? !strncmp(v->name, s, (size_t)n) && !v->name[n] : v->num == num)
			return e - 1;
	}
}

static void tab_insert(Reader *r, int id);

static void tab_rehash(Reader *r)
{
	int32_t *old = r->tab;
	int oldcap = r->tabcap;
	r->tabcap = oldcap ? oldcap * 2 : 512;
	r->tab = arena_alloc(&r->m->arena, (size_t)r->tabcap * sizeof *r->tab);
	for (int i = 0; i < oldcap; i++)
		if (old[i])
			tab_insert(r, old[i] - 1);
}

static void tab_insert(Reader *r, int id)
{
	const Value *v = &r->f->val[id];
	for (uint32_t h = v->name ? name_hash(v->name, (int)strlen(v->name)) : num_hash(v->num);; h++) {
		int32_t *e = &r->tab[h & (uint32_t)(r->tabcap - 1)];
		if (!*e) {
			*e = id + 1;
			return;
		}
	}
}

static void add_name(Reader *r, int id)
{
	if (++r->nnamed * 2 > r->tabcap)
		tab_rehash(r);
	tab_insert(r, id);
}

/* ---- operands and definitions ---------------------------------------------- */

/* The number t as a constant of type ty (a scalar). */
static int number(Reader *r, const Tok *t, Type ty)
{
	char num[64], *e;
	if (t->n >= (int)sizeof num)
		rerror(r, t, "number too long");
	memcpy(num, t->p, (size_t)t->n);
	num[t->n] = 0;
	errno = 0;
	if (ty_is_int(ty)) {
		if (t->kind != T_INT)
			rerror(r, t, "%s is not a constant of type %s", num, ty_name(ty));
		int64_t lo = 0, hi = 0;
		int64_t v;
		/* clang-format off */
		switch (ty) {
		case TY_INT8: lo = INT8_MIN, hi = INT8_MAX; break;
		case TY_UINT8: hi = UINT8_MAX; break;
		case TY_INT16: lo = INT16_MIN, hi = INT16_MAX; break;
		case TY_UINT16: hi = UINT16_MAX; break;
		case TY_INT: lo = INT32_MIN, hi = INT32_MAX; break;
		case TY_UINT32: hi = UINT32_MAX; break;
		case TY_INT64: lo = INT64_MIN, hi = INT64_MAX; break;
		}
		/* clang-format on */
		if (ty == TY_UINT64) {
			unsigned long long u = strtoull(num, &e, 10);
			if (*e || num[0] == '-' || errno == ERANGE)
				rerror(r, t, "integer %s out of range for uint64", num);
			v = (int64_t)u;
		} else {
			long long x = strtoll(num, &e, 10);
			if (*e || errno == ERANGE || x < lo || x > hi)
				rerror(r, t, "integer %s out of range for %s", num, ty_info(ty)->warp);
			v = x;
		}
		return ir_const(r->m, r->f, ty, v, 0);
	}
	if (!ty_is_float(ty))
		rerror(r, t, "a number cannot be a constant of type %s", ty_name(ty));
	if (t->kind != T_FLOAT)
		rerror(r, t, "a %s constant is written with a '.' or an exponent", ty_name(ty));
	double v = ty == TY_DOUBLE ? strtod(num, &e) : strtof(num, &e);
	if (*e || e == num)
		rerror(r, t, "malformed number '%s'", num);
	if (errno == ERANGE && (v > 1.0 || v < -1.0))
		rerror(r, t, "float %s out of range for %s", num, ty_info(ty)->warp);
	if (ty == TY_HALF && (v > 65504.0 || v < -65504.0))
		rerror(r, t, "float %s out of range for float16", num);
	return ir_const(r->m, r->f, ty, 0, v);
}

/* ['-'] 'inf' | 'nan', then [':' type] (a float type): the constants
 * wp.inf and wp.nan, as ks_fmt_float writes them. */
static int special_float(Reader *r)
{
	Tok t = r->tok;
	double x = is_word(r, "nan") ? NAN : is_word(r, "inf") ? INFINITY : -INFINITY;
	Type ty = TY_FLOAT;
	next(r);
	if (is_punct(r, ':')) {
		next(r);
		Tok tt = r->tok;
		ty = parse_type(r);
		if (!ty_is_float(ty))
			rerror(r, &tt, "%.*s is a float constant, not %s", t.n, t.p, ty_name(ty));
	}
	return ir_const(r->m, r->f, ty, 0, x);
}

/* operand := LOCAL | (INT | FLOAT) [':' type] | ['-'] ('inf' | 'nan')
 *            [':' type] | 'true' | 'false'
 * A number without a type is an int or a float (float32). */
static int parse_operand(Reader *r)
{
	Tok t = r->tok;
	char buf[64];
	int id;
	switch (t.kind) {
	case T_LOCAL:
		id = lookup(r, t.p, t.n);
		if (id < 0)
			rerror(r, &t, "undefined value %%%.*s", t.n > 40 ? 40 : t.n, t.p);
		next(r);
		return id;
	case T_INT:
	case T_FLOAT: {
		Type ty = t.kind == T_INT ? TY_INT : TY_FLOAT;
		next(r);
		if (is_punct(r, ':')) {
			next(r);
			Tok tt = r->tok;
			ty = parse_type(r);
			if (!ty_is_scalar(ty))
				rerror(r, &tt, "a constant must be a number, not %s", ty_name(ty));
		}
		return number(r, &t, ty);
	}
	case T_IDENT:
		if (is_word(r, "true") || is_word(r, "false")) {
			id = ir_const_bool(r->m, r->f, is_word(r, "true"));
			next(r);
			return id;
		}
		if (is_word(r, "inf") || is_word(r, "-inf") || is_word(r, "nan"))
			return special_float(r);
		break;
	}
	rerror(r, &t, "expected an operand, found %s", tok_desc(&t, buf, sizeof buf));
}

/* def := LOCAL ':' type.  Defines a temp, or (re)assigns a variable. */
static int parse_def(Reader *r)
{
	Tok t = r->tok;
	char buf[64];
	if (t.kind != T_LOCAL)
		rerror(r, &t, "expected a value name, found %s", tok_desc(&t, buf, sizeof buf));
	next(r);
	expect_punct(r, ':');
	Tok tt = r->tok;
	Type ty = parse_type(r);
	int id = lookup(r, t.p, t.n);
	int is_temp = is_digit((unsigned char)t.p[0]);
	if (id >= 0) {
		if (is_temp)
			rerror(r, &t, "temp %%%.*s is defined twice", t.n > 40 ? 40 : t.n, t.p);
		if (r->f->val[id].ty != ty)
			rerror(r, &tt, "%%%s has type %s, not %s", r->f->val[id].name, ty_name(r->f->val[id].ty),
			       ty_name(ty));
		return id;
	}
	if (is_temp) {
		if (t.n > 9)
			rerror(r, &t, "temp number too large");
		id = ir_temp(r->m, r->f, ty);
		r->f->val[id].num = (int32_t)parse_long(r, &t, 0, 999999999);
	} else {
		char *name = arena_strndup(&r->m->arena, t.p, (size_t)t.n);
		id = ir_var(r->m, r->f, name, ty);
		r->f->val[id].ty = ty;
	}
	add_name(r, id);
	return id;
}

/* ---- instructions ---------------------------------------------------------------- */

static void parse_block(Reader *r, Block *b);

static void set_at(Inst *in, const Tok *t)
{
	in->at.line = t->line;
	in->at.col = t->col;
}

/* '{' NL block '}' */
static void parse_body(Reader *r, Block *b)
{
	Tok open = r->tok;
	expect_punct(r, '{');
	if (++r->depth > MAX_DEPTH)
		rerror(r, &open, "blocks nested more than %d deep", MAX_DEPTH);
	expect_nl(r);
	parse_block(r, b);
	if (!is_punct(r, '}'))
		rerror(r, &open, "'{' is never closed");
	next(r);
	r->depth--;
}

/* if := 'if' operand loc '{' block '}' ['else' '{' block '}'] */
static void parse_if(Reader *r, Block *b)
{
	Tok kw = r->tok;
	next(r);
	int32_t c = parse_operand(r);
	Loc loc = parse_loc(r);
	Inst *in = ir_emit(r->m, b, OP_IF, NULL, 0, &c, 1, loc);
	set_at(in, &kw);
	Block then = {0}, els = {0};
	parse_body(r, &then);
	if (is_word(r, "else")) {
		next(r);
		parse_body(r, &els);
	}
	/* the block may have grown while the bodies were read */
	in = &b->v[b->n - 1];
	in->body = then;
	in->els = els;
	expect_nl(r);
}

/* for := 'for' def '=' operand ',' operand ',' operand loc '{' block '}' */
static void parse_for(Reader *r, Block *b)
{
	Tok kw = r->tok;
	next(r);
	int32_t var = parse_def(r), a[3];
	expect_punct(r, '=');
	for (int i = 0; i < 3; i++) {
		if (i)
			expect_punct(r, ',');
		a[i] = parse_operand(r);
	}
	Loc loc = parse_loc(r);
	Inst *in = ir_emit(r->m, b, OP_FOR, &var, 1, a, 3, loc);
	set_at(in, &kw);
	Block body = {0};
	parse_body(r, &body);
	b->v[b->n - 1].body = body;
	expect_nl(r);
}

/* loop := 'loop' loc '{' block '}' */
static void parse_loop(Reader *r, Block *b)
{
	Tok kw = r->tok;
	next(r);
	Loc loc = parse_loc(r);
	Inst *in = ir_emit(r->m, b, OP_LOOP, NULL, 0, NULL, 0, loc);
	set_at(in, &kw);
	Block body = {0};
	parse_body(r, &body);
	b->v[b->n - 1].body = body;
	expect_nl(r);
}

/* The opcode spelled t, or -1: an open-addressed table of the spellings,
 * made on first use. */
static int find_op(const Tok *t)
{
	enum { CAP = 256 };
	static int16_t slot[CAP]; /* op + 1, 0: empty */
	static int ready;
	_Static_assert(2 * OP_COUNT < CAP, "the opcode table is too small");
	if (!ready) {
		for (int op = 0; op < OP_COUNT; op++) {
			const char *s = ir_ops[op].name;
			if (!*s)
				continue;
			size_t h = (size_t)ks_hash64(s, strlen(s), 0) & (CAP - 1);
			while (slot[h])
				h = (h + 1) & (CAP - 1);
			slot[h] = (int16_t)(op + 1);
		}
		ready = 1;
	}
	for (size_t h = (size_t)ks_hash64(t->p, (size_t)t->n, 0) & (CAP - 1); slot[h]; h = (h + 1) & (CAP - 1)) {
		const char *s = ir_ops[slot[h] - 1].name;
		if (!strncmp(s, t->p, (size_t)t->n) && !s[t->n])
			return slot[h] - 1;
	}
	return -1;
}

/* Is opcode op's spelling a builtin's name too (mod, invert)?  A table
 * made on first use. */
static int op_is_builtin_name(int op)
{
	static uint8_t known[OP_COUNT];
	static int ready;
	if (!ready) {
		for (int k = 0; k < OP_COUNT; k++)
			known[k] = *ir_ops[k].name && ir_builtin_known(ir_ops[k].name);
		ready = 1;
	}
	return known[op];
}

/* simple := [def {',' def} '='] OP [operand {',' operand}] loc
 * OP is an opcode, a builtin name, or 'call' '@' NAME. */
static void parse_simple(Reader *r, Block *b)
{
	Tok first = r->tok;
	int32_t res[256], arg[256];
	int nres = 0, narg = 0;
	char buf[64];
	if (r->tok.kind == T_LOCAL) {
		for (;;) {
			if (nres == 255)
				rerror(r, &r->tok, "too many results");
			res[nres++] = parse_def(r);
			if (!is_punct(r, ','))
				break;
			next(r);
		}
		expect_punct(r, '=');
	}
	Tok opt = r->tok;
	if (opt.kind != T_IDENT)
		rerror(r, &opt, "expected an operation, found %s", tok_desc(&opt, buf, sizeof buf));
	next(r);
	int op = find_op(&opt), callee = -1;
	if (op >= 0 && ir_op_blocks(op))
		rerror(r, &opt, "'%.*s' cannot have results", opt.n, opt.p);
	if (op == OP_CALL) {
		Tok g = r->tok;
		if (g.kind != T_GLOBAL)
			rerror(r, &g, "expected '@function' after call");
		char name[256];
		snprintf(name, sizeof name, "%.*s", g.n > 200 ? 200 : g.n, g.p);
		callee = ir_func_find(r->m, name);
		if (callee < 0)
			rerror(r, &g, "call to undefined function @%s", name);
		/* a function not read yet is below this one; a kernel done with
		 * is gone */
		if (!r->m->fn[callee] && r->m->fnkind[callee] != FN_FUNC)
			rerror(r, &first, "kernel @%s cannot be called", name);
		if (!r->m->fn[callee])
			rerror(r, &first, "'%s' calls '%s', which is defined below it", r->f->name, name);
		next(r);
	}
	/* the operation's name, cut to 40 bytes for the messages below */
	char name[41];
	int nlen = opt.n > 40 ? 40 : opt.n;
	memcpy(name, opt.p, (size_t)nlen);
	name[nlen] = 0;
	if (op < 0) {
		if (!ir_builtin_known(name))
			rerror(r, &opt, "unknown operation '%s'", name);
		op = OP_BUILTIN;
	}
	if (op == OP_PRINTF) {
		/* printf "fmt" {',' operand} */
		Buf fmt = {0};
		if (r->tok.kind != T_STRING ||
		    ks_cstring_read(r->tok.p, r->tok.p + r->tok.n, &fmt) != r->tok.p + r->tok.n ||
		    memchr(fmt.p ? fmt.p : "", 0, fmt.n)) {
			buf_free(&fmt);
			rerror(r, &r->tok, "expected a format string after printf");
		}
		buf_putc(&fmt, 0);
		callee = ir_string(r->m, fmt.p);
		buf_free(&fmt);
		next(r);
		if (!is_punct(r, '!'))
			expect_punct(r, ',');
	}
	if (op == OP_FIELD || op == OP_SETFIELD) {
		/* OP %s, NAME [, %x]: the field by its name in the struct's type */
		arg[narg++] = parse_operand(r);
		expect_punct(r, ',');
		Tok ft = r->tok;
		Type st = r->f->val[arg[0]].ty;
		if (ft.kind != T_IDENT)
			rerror(r, &ft, "expected a field name, found %s", tok_desc(&ft, buf, sizeof buf));
		if (!ty_is_struct(st))
			rerror(r, &ft, "'%s' of %s, which is not a struct", ir_ops[op].name, ty_name(st));
		char fname[64];
		snprintf(fname, sizeof fname, "%.*s", ft.n > 60 ? 60 : ft.n, ft.p);
		callee = ty_field_find(st, fname);
		if (callee < 0)
			rerror(r, &ft, "struct %s has no field '%s'", ty_name(st), fname);
		next(r);
		if (is_punct(r, ',')) {
			next(r);
			arg[narg++] = parse_operand(r);
		}
	} else if (!is_punct(r, '!')) {
		for (;;) {
			if (narg == 255)
				rerror(r, &r->tok, "too many operands");
			arg[narg++] = parse_operand(r);
			if (!is_punct(r, ','))
				break;
			next(r);
		}
	}
	Type ty[256], rt;
	for (int i = 0; i < narg; i++)
		ty[i] = r->f->val[arg[i]].ty;
	/* mod and invert are opcodes on numbers and builtins (wp.mod,
	 * wp.invert) on vectors: the name is the opcode where it types */
	if (op != OP_BUILTIN && op_is_builtin_name(op) && ir_op_type(op, ty, narg, TY_VOID) == TY_VOID)
		op = OP_BUILTIN;
	if (op == OP_BUILTIN) {
		callee = ir_builtin_resolve_ir(name, ty, narg, &rt);
		if (callee < 0) {
			Buf b2 = {0};
			for (int i = 0; i < narg; i++)
				buf_printf(&b2, "%s%s", i ? ", " : "", ty_name(ty[i]));
			char sigs[512];
			ir_builtin_signatures(name, sigs, sizeof sigs);
			char msg[256];
			snprintf(msg, sizeof msg, "%s", b2.p ? b2.p : "");
			buf_free(&b2);
			rerror(r, &opt, "no overload %s(%s); expected one of: %s", name, msg, sigs);
		}
	}
	Loc loc = parse_loc(r);
	Inst *in = ir_emit(r->m, b, op, res, nres, arg, narg, loc);
	in->callee = (int32_t)callee;
	set_at(in, &first);
	expect_nl(r);
}

/* block := {inst NL} ; ends at '}' */
static void parse_block(Reader *r, Block *b)
{
	for (;;) {
		skip_nl(r);
		if (is_punct(r, '}') || r->tok.kind == T_EOF)
			return;
		if (is_word(r, "if"))
			parse_if(r, b);
		else if (is_word(r, "for"))
			parse_for(r, b);
		else if (is_word(r, "loop"))
			parse_loop(r, b);
		else
			parse_simple(r, b);
	}
}

/* ---- functions and the module ------------------------------------------------ */

static char *parse_string(Reader *r, const Tok *t);

/* option := 'launch_bounds' '(' INT [',' INT] ')' | 'max_registers' '(' INT ')'
 *         | 'cluster_dim' '(' INT ')' | 'no_grid_stride' | 'smem_spilling'
 * A kernel's CUDA options, each at most once; 0 when it is none. */
static int parse_option(Reader *r, KernelOpts *o)
{
	static const char *const word[] = {"launch_bounds", "max_registers", "cluster_dim", "no_grid_stride",
					   "smem_spilling"};
	int k = 0;
	while (k < 5 && !is_word(r, word[k]))
		k++;
	if (k == 5)
		return 0;
	Tok t = r->tok;
	int *slot[] = {&o->max_threads, &o->max_registers, &o->cluster_dim, &o->lean, &o->smem_spilling};
	if (*slot[k])
		rerror(r, &t, "option %s given twice", word[k]);
	next(r);
	if (k >= 3) {
		*slot[k] = 1;
		return 1;
	}
	/* the counts: threads to 1024 and blocks to 65535, registers to 255
	 * (CUDA's bounds), a cluster of 2 to 16 blocks */
	static const long lo[] = {1, 1, 2}, hi[] = {1024, 255, 16};
	expect_punct(r, '(');
	if (r->tok.kind != T_INT)
		rerror(r, &r->tok, "expected a number in %s(...)", word[k]);
	long n = parse_long(r, &r->tok, 0, 1L << 30);
	if (n < lo[k] || n > hi[k])
		rerror(r, &r->tok, "%s(%ld): the count is from %ld to %ld", word[k], n, lo[k], hi[k]);
	*slot[k] = (int)n;
	next(r);
	if (k == 0 && is_punct(r, ',')) {
		next(r);
		if (r->tok.kind != T_INT)
			rerror(r, &r->tok, "expected a number of blocks in launch_bounds(...)");
		n = parse_long(r, &r->tok, 0, 1L << 30);
		if (n < 1 || n > 65535)
			rerror(r, &r->tok, "launch_bounds(..., %ld): the blocks are from 1 to 65535", n);
		o->min_blocks = (int)n;
		next(r);
	}
	expect_punct(r, ')');
	if (o->max_threads && o->max_registers)
		rerror(r, &t, "launch_bounds and max_registers cannot both be given (as in CUDA)");
	return 1;
}

/* func := ('func'|'kernel'|'backward') GLOBAL '(' [param {',' param}] ')' ['->' type {',' type}]
 *         ['no_backward'] {option} loc ['file' STRING] '{' NL block '}' */
static void parse_func(Reader *r, int index)
{
	Tok kw = r->tok;
	int backward = is_word(r, "backward");
	int is_kernel = backward || is_word(r, "kernel");
	next(r);
	if (r->tok.kind != T_GLOBAL)
		rerror(r, &r->tok, "expected '@name' after '%.*s'", kw.n, kw.p);
	/* the first pass made the function under this name; an earlier one
	 * of the name is a second definition */
	const char *fname = r->m->fnname[index];
	if ((backward ? ir_backward_find : ir_func_find)(r->m, fname) != index)
		rerror(r, &r->tok, "%s @%s is defined twice", backward ? "backward" : "function", fname);
	Func *f = r->m->fn[index] ? r->m->fn[index] : ir_func_make(r->m, index);
	f->is_kernel = is_kernel;
	f->backward = backward;
	f->at.line = kw.line;
	f->at.col = kw.col;
	r->f = f;
	r->tab = NULL;
	r->tabcap = 0;
	r->nnamed = 0;
	next(r);
	expect_punct(r, '(');
	while (!is_punct(r, ')')) {
		if (f->nparam)
			expect_punct(r, ',');
		Tok t = r->tok;
		if (t.kind != T_LOCAL || is_digit((unsigned char)t.p[0]))
			rerror(r, &t, "expected a parameter name");
		if (lookup(r, t.p, t.n) >= 0)
			rerror(r, &t, "duplicate parameter %%%.*s", t.n > 40 ? 40 : t.n, t.p);
		next(r);
		expect_punct(r, ':');
		Type ty = parse_type(r);
		char *name = arena_strndup(&r->m->arena, t.p, (size_t)t.n);
		if (f->nparam >= 255)
			rerror(r, &t, "too many parameters");
		add_name(r, ir_param(r->m, f, name, ty));
	}
	next(r);
	if (r->tok.kind == T_ARROW) {
		Type rt[256];
		int n = 0;
		next(r);
		for (;;) {
			if (n == 255)
				rerror(r, &r->tok, "too many results");
			rt[n++] = parse_type(r);
			if (!is_punct(r, ','))
				break;
			next(r);
		}
		ir_set_ret(r->m, f, rt, n);
	}
	if (is_word(r, "no_backward")) {
		if (!is_kernel || backward)
			rerror(r, &r->tok, "only a kernel can be marked no_backward");
		f->no_backward = 1;
		next(r);
	}
	Tok ot = r->tok;
	while (parse_option(r, &f->opts))
		if (!is_kernel)
			rerror(r, &ot, "only a kernel has launch options");
	f->loc = parse_loc(r);
	if (is_word(r, "file")) {
		next(r);
		if (r->tok.kind != T_STRING)
			rerror(r, &r->tok, "expected the file's name as a string after 'file'");
		f->file = parse_string(r, &r->tok);
		next(r);
	}
	parse_body(r, &f->body);
	expect_nl(r);
}

static void rewind_reader(Reader *r)
{
	r->p = r->src->text;
	r->end = r->src->text + r->src->len;
	r->line = 1;
	r->line_start = r->p;
}

static char *parse_string(Reader *r, const Tok *t)
{
	Buf b = {0};
	if (ks_cstring_read(t->p, t->p + t->n, &b) != t->p + t->n || memchr(b.p ? b.p : "", 0, b.n)) {
		buf_free(&b);
		rerror(r, t, "malformed string (one is written as C writes it, without NUL)");
	}
	char *s = arena_strndup(&r->m->arena, b.p ? b.p : "", b.n);
	buf_free(&b);
	return s;
}

/* The null byte check: the tokenizer would stop at one. */
static void check_nul(const Src *s, int line0)
{
	const char *c = memchr(s->text, 0, s->len);
	if (c) {
		Tok t = {0};
		t.line = line0;
		for (const char *d = s->text; d < c; d++)
			t.line += *d == '\n';
		const char *ls = c;
		while (ls > s->text && ls[-1] != '\n')
			ls--;
		t.col = (int)(c - ls) + 1;
		ks_error_at(s, t.line, t.col, "null byte in IR");
	}
}

/* struct := 'struct' NAME '{' [field {',' field}] '}' NL
 * field  := NAME ':' type */
static void read_struct(Reader *r)
{
	char buf[64];
	next(r);
	Tok nt = r->tok;
	if (nt.kind != T_IDENT)
		rerror(r, &nt, "expected the struct's name, found %s", tok_desc(&nt, buf, sizeof buf));
	char *name = arena_strndup(&r->m->arena, nt.p, (size_t)nt.n);
	if (ty_parse(nt.p, (size_t)nt.n) != TY_VOID) {
		Type old = ty_parse(nt.p, (size_t)nt.n);
		if (!ty_is_struct(old) || ir_struct_index(r->m, old) >= 0)
			rerror(r, &nt, "type '%s' is defined already", name);
	}
	next(r);
	expect_punct(r, '{');
	Field fs[255];
	int n = 0;
	if (!is_punct(r, '}'))
		do {
			Tok ft = r->tok;
			if (ft.kind != T_IDENT)
				rerror(r, &ft, "expected a field name, found %s", tok_desc(&ft, buf, sizeof buf));
			char *fname = arena_strndup(&r->m->arena, ft.p, (size_t)ft.n);
			for (int k = 0; k < n; k++)
				if (!strcmp(fs[k].name, fname))
					rerror(r, &ft, "field '%s' appears twice", fname);
			next(r);
			expect_punct(r, ':');
			Tok tt = r->tok;
			Type ty = parse_type(r);
			if (ty_is_struct(ty_elem(ty)) && ir_struct_index(r->m, ty_elem(ty)) < 0)
				rerror(r, &tt, "struct '%s' is not declared above", ty_name(ty_elem(ty)));
			if (n == 255)
				rerror(r, &ft, "a struct has at most 255 fields");
			fs[n++] = (Field){fname, ty};
		} while (is_punct(r, ',') && (next(r), 1));
	expect_punct(r, '}');
	expect_nl(r);
	ir_struct_add(r->m, ty_struct(name, fs, n));
}

/* head := 'ksynth-ir' INT NL ['source' STRING NL] {struct} */
static void read_head(Reader *r)
{
	next(r);
	skip_nl(r);
	if (!is_word(r, "ksynth-ir"))
		rerror(r, &r->tok, "expected 'ksynth-ir VERSION' on the first line");
	next(r);
	if (r->tok.kind != T_INT)
		rerror(r, &r->tok, "expected the IR version");
	r->m->version = (int)parse_long(r, &r->tok, 0, 1000000);
	if (r->m->version != IR_VERSION)
		rerror(r, &r->tok, "unsupported IR version %d (this reader knows %d)", r->m->version, IR_VERSION);
	next(r);
	expect_nl(r);
	skip_nl(r);
	if (is_word(r, "source")) {
		next(r);
		if (r->tok.kind != T_STRING)
			rerror(r, &r->tok, "expected a quoted file name after 'source'");
		r->m->source = parse_string(r, &r->tok);
		next(r);
		expect_nl(r);
	}
	for (skip_nl(r); is_word(r, "struct"); skip_nl(r))
		read_struct(r);
}

static void expect_func(Reader *r)
{
	if (!is_word(r, "func") && !is_word(r, "kernel") && !is_word(r, "backward")) {
		char buf[64];
		rerror(r, &r->tok, "expected 'func', 'kernel' or 'backward', found %s",
		       tok_desc(&r->tok, buf, sizeof buf));
	}
}

void ir_read_head(Module *m, const Src *s)
{
	classes();
	Reader r = {0};
	r.src = s;
	r.m = m;
	rewind_reader(&r);
	check_nul(s, 1);
	read_head(&r);
	skip_nl(&r);
	if (r.tok.kind != T_EOF)
		expect_func(&r);
}

void ir_read_func(Module *m, const Src *s, int index)
{
	classes();
	Reader r = {0};
	r.src = s;
	r.m = m;
	rewind_reader(&r);
	r.line = s->line0 > 1 ? s->line0 : 1;
	check_nul(s, r.line);
	next(&r);
	skip_nl(&r);
	expect_func(&r);
	if (index < 0) {
		Tok kw = r.tok;
		next(&r);
		rerror(&r, &r.tok, "expected '@name' after '%.*s'", kw.n, kw.p);
	}
	parse_func(&r, index);
	skip_nl(&r);
	if (r.tok.kind != T_EOF)
		expect_func(&r);
}
