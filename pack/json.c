/*
 * json.c: the strict JSON reader of json.h, by recursive descent:
 *
 *   value  := object | array | string | number | true | false | null
 *   object := '{' [ string ':' value { ',' string ':' value } ] '}'
 *   array  := '[' [ value { ',' value } ] ']'
 *
 * Strings must be valid UTF-8 with no raw control character; escapes are
 * decoded (a \u surrogate pair to one code point, a lone surrogate is an
 * error).  Numbers follow the grammar exactly (no leading zeros, no NaN).
 * A duplicate key is an error: a record with two "id"s is not well formed.
 * The first error stops the parse: each level frees what it gathered and
 * returns NULL, and the arena holds the rest.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "pack/json.h"

typedef struct P {
	Arena *a;
	const char *s, *e, *p;
	char *err;
	size_t errn;
	int failed, trunc;
	const char *at;
} P;

static void fail(P *p, const char *at, const char *fmt, ...) KS_PRINTF(3, 4);
static void fail(P *p, const char *at, const char *fmt, ...)
{
	if (p->failed)
		return;
	p->failed = 1;
	p->at = at;
	p->trunc = at >= p->e;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(p->err, p->errn, fmt, ap);
	va_end(ap);
}

static void ws(P *p)
{
	while (p->p < p->e && (*p->p == ' ' || *p->p == '\t' || *p->p == '\n' || *p->p == '\r'))
		p->p++;
}

/* what stands at P, for a message: "end of text" or the character */
static const char *seen(P *p, char *buf, size_t n)
{
	if (p->p >= p->e)
		return "the end of the text";
	unsigned c = (unsigned char)*p->p;
	if (c >= 0x20 && c < 0x7f)
		snprintf(buf, n, "'%c'", (int)c);
	else
		snprintf(buf, n, "byte 0x%02x", c);
	return buf;
}

static JVal *value(P *p, int depth);

static int hex4(const char *q, unsigned *v)
{
	*v = 0;
	for (int k = 0; k < 4; k++) {
		int c = (unsigned char)q[k], d;
		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return 0;
		*v = *v << 4 | (unsigned)d;
	}
	return 1;
}

static void put_utf8(Buf *b, unsigned cp)
{
	if (cp < 0x80) {
		buf_putc(b, (int)cp);
	} else if (cp < 0x800) {
		buf_putc(b, (int)(0xc0 | cp >> 6));
		buf_putc(b, (int)(0x80 | (cp & 0x3f)));
	} else if (cp < 0x10000) {
		buf_putc(b, (int)(0xe0 | cp >> 12));
		buf_putc(b, (int)(0x80 | (cp >> 6 & 0x3f)));
		buf_putc(b, (int)(0x80 | (cp & 0x3f)));
	} else {
		buf_putc(b, (int)(0xf0 | cp >> 18));
		buf_putc(b, (int)(0x80 | (cp >> 12 & 0x3f)));
		buf_putc(b, (int)(0x80 | (cp >> 6 & 0x3f)));
		buf_putc(b, (int)(0x80 | (cp & 0x3f)));
	}
}

/* The length of the valid UTF-8 sequence at Q (before E), or 0. */
static int utf8_len(const unsigned char *q, const unsigned char *e)
{
	unsigned c = q[0];
	int len = c >= 0xc2 && c < 0xe0 ? 2 : c >= 0xe0 && c < 0xf0 ? 3 : c >= 0xf0 && c < 0xf5 ? 4 : 0;
	if (!len || e - q < len)
		return 0;
	for (int k = 1; k < len; k++)
		if ((q[k] & 0xc0) != 0x80)
			return 0;
	if (len == 3 && ((c == 0xe0 && q[1] < 0xa0) || (c == 0xed && q[1] >= 0xa0)))
		return 0;
	if (len == 4 && ((c == 0xf0 && q[1] < 0x90) || (c == 0xf4 && q[1] >= 0x90)))
		return 0;
	return len;
}

/* string := '"' chars '"', P at the opening quote; the decoded text in *LEN */
static char *string(P *p, size_t *len)
{
	Buf b = {0};
	p->p++;
	for (;;) {
		if (p->p >= p->e) {
			fail(p, p->p, "a string is not closed");
			break;
		}
		unsigned c = (unsigned char)*p->p;
		if (c == '"') {
			p->p++;
			char *s = arena_alloc(p->a, b.n + 1);
			if (b.n)
				memcpy(s, b.p, b.n);
			*len = b.n;
			buf_free(&b);
			return s;
		}
		if (c < 0x20) {
			fail(p, p->p, "a raw control character (0x%02x) in a string", c);
			break;
		}
		if (c >= 0x80) {
			int k = utf8_len((const unsigned char *)p->p, (const unsigned char *)p->e);
			if (!k) {
				fail(p, p->p, "a string is not valid UTF-8 (byte 0x%02x)", c);
				break;
			}
			buf_put(&b, p->p, (size_t)k);
			p->p += k;
			continue;
		}
		if (c != '\\') {
			buf_putc(&b, (int)c);
			p->p++;
			continue;
		}
		const char *esc = p->p++;
		if (p->p >= p->e) {
			fail(p, p->p, "a string is not closed");
			break;
		}
		const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t", *k = strchr(from, *p->p);
		if (*p->p && k) {
			buf_putc(&b, to[k - from]);
			p->p++;
			continue;
		}
		if (*p->p != 'u') {
			fail(p, esc, "a bad escape in a string");
			break;
		}
		unsigned cp, lo;
		if (p->e - p->p < 5) {
			fail(p, p->e, "a string is not closed");
			break;
		}
		if (!hex4(p->p + 1, &cp)) {
			fail(p, esc, "a bad \\u escape in a string");
			break;
		}
		p->p += 5;
		if (cp >= 0xdc00 && cp < 0xe000) {
			fail(p, esc, "a lone low surrogate (\\u%04x) in a string", cp);
			break;
		}
		if (cp >= 0xd800 && cp < 0xdc00) {
			if (p->e - p->p < 6 || p->p[0] != '\\' || p->p[1] != 'u' || !hex4(p->p + 2, &lo) ||
			    lo < 0xdc00 || lo >= 0xe000) {
				fail(p, esc, "a lone high surrogate (\\u%04x) in a string", cp);
				break;
			}
			p->p += 6;
			cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
		}
		put_utf8(&b, cp);
	}
	buf_free(&b);
	return NULL;
}

static int digits(P *p)
{
	const char *q = p->p;
	while (p->p < p->e && *p->p >= '0' && *p->p <= '9')
		p->p++;
	return p->p > q;
}

static JVal *number(P *p)
{
	const char *q = p->p;
	int integral = 1;
	if (*p->p == '-')
		p->p++;
	if (p->p < p->e && *p->p == '0')
		p->p++;
	else if (!digits(p)) {
		fail(p, p->p, "a number without digits");
		return NULL;
	}
	if (p->p < p->e && *p->p == '.') {
		p->p++;
		integral = 0;
		if (!digits(p)) {
			fail(p, p->p, "no digits after a decimal point");
			return NULL;
		}
	}
	if (p->p < p->e && (*p->p == 'e' || *p->p == 'E')) {
		p->p++;
		integral = 0;
		if (p->p < p->e && (*p->p == '+' || *p->p == '-'))
			p->p++;
		if (!digits(p)) {
			fail(p, p->p, "no digits in an exponent");
			return NULL;
		}
	}
	JVal *v = arena_alloc(p->a, sizeof *v);
	v->kind = J_NUM;
	v->text = q;
	v->len = (size_t)(p->p - q);
	char tmp[64], *t = v->len < sizeof tmp ? tmp : xmalloc(v->len + 1);
	memcpy(t, q, v->len);
	t[v->len] = 0;
	v->num = strtod(t, NULL);
	if (integral) {
		errno = 0;
		v->i = strtoll(t, NULL, 10);
		v->integral = !errno;
	}
	if (t != tmp)
		free(t);
	return v;
}

static int word(P *p, const char *w)
{
	size_t n = strlen(w);
	if ((size_t)(p->e - p->p) < n || memcmp(p->p, w, n)) {
		if ((size_t)(p->e - p->p) < n && !memcmp(p->p, w, (size_t)(p->e - p->p)))
			fail(p, p->e, "the text ends inside '%s'", w);
		else
			fail(p, p->p, "not a JSON value");
		return 0;
	}
	p->p += n;
	return 1;
}

/* array or object, P at its opening bracket */
static JVal *aggregate(P *p, int depth)
{
	int obj = *p->p == '{';
	char close = obj ? '}' : ']', sbuf[32];
	const char *open = p->p++;
	JVal **items = NULL;
	char **keys = NULL;
	int n = 0, cap = 0;
	ws(p);
	if (p->p < p->e && *p->p == close) {
		p->p++;
		goto done;
	}
	for (;;) {
		char *key = NULL;
		if (obj) {
			ws(p);
			if (p->p >= p->e || *p->p != '"') {
				fail(p, p->p, "%s where an object's key should be", seen(p, sbuf, sizeof sbuf));
				break;
			}
			const char *kat = p->p;
			size_t kl;
			key = string(p, &kl);
			if (!key)
				break;
			if (strlen(key) != kl) {
				fail(p, kat, "a NUL in an object's key");
				break;
			}
			for (int k = 0; k < n; k++)
				if (!strcmp(keys[k], key)) {
					fail(p, kat, "the key \"%.40s\" twice in an object", key);
					break;
				}
			if (p->failed)
				break;
			ws(p);
			if (p->p >= p->e || *p->p != ':') {
				fail(p, p->p, "%s where ':' should follow a key", seen(p, sbuf, sizeof sbuf));
				break;
			}
			p->p++;
		}
		JVal *v = value(p, depth + 1);
		if (!v)
			break;
		if (n == cap) {
			cap = cap ? 2 * cap : 8;
			items = xrealloc(items, sizeof *items * (size_t)cap);
			keys = xrealloc(keys, sizeof *keys * (size_t)cap);
		}
		items[n] = v;
		keys[n++] = key;
		ws(p);
		if (p->p < p->e && *p->p == ',') {
			p->p++;
			continue;
		}
		if (p->p < p->e && *p->p == close) {
			p->p++;
			goto done;
		}
		if (p->p >= p->e)
			fail(p, p->p, "the text ends inside %s opened at offset %zu",
			     obj ? "an object" : "an array", (size_t)(open - p->s));
		else
			fail(p, p->p, "%s where ',' or '%c' should be", seen(p, sbuf, sizeof sbuf), close);
		break;
	}
	free(items);
	free(keys);
	return NULL;
done:;
	JVal *v = arena_alloc(p->a, sizeof *v);
	v->kind = obj ? J_OBJ : J_ARR;
	v->n = n;
	if (n) {
		v->item = arena_alloc(p->a, sizeof *v->item * (size_t)n);
		memcpy(v->item, items, sizeof *items * (size_t)n);
		if (obj) {
			v->key = arena_alloc(p->a, sizeof *v->key * (size_t)n);
			memcpy(v->key, keys, sizeof *keys * (size_t)n);
		}
	}
	free(items);
	free(keys);
	return v;
}

static JVal *value(P *p, int depth)
{
	char sbuf[32];
	ws(p);
	if (p->p >= p->e) {
		fail(p, p->p, "the text ends where a value should be");
		return NULL;
	}
	if (depth > JSON_DEPTH) {
		fail(p, p->p, "values nested more than %d deep", JSON_DEPTH);
		return NULL;
	}
	JVal *v;
	switch (*p->p) {
	case '{':
	case '[':
		return aggregate(p, depth);
	case '"': {
		size_t len;
		char *s = string(p, &len);
		if (!s)
			return NULL;
		v = arena_alloc(p->a, sizeof *v);
		v->kind = J_STR;
		v->s = s;
		v->len = len;
		return v;
	}
	case 't':
	case 'f':
	case 'n': {
		const char *w = *p->p == 't' ? "true" : *p->p == 'f' ? "false" : "null";
		if (!word(p, w))
			return NULL;
		v = arena_alloc(p->a, sizeof *v);
		v->kind = *w == 'n' ? J_NULL : J_BOOL;
		v->b = *w == 't';
		return v;
	}
	default:
		if (*p->p == '-' || (*p->p >= '0' && *p->p <= '9'))
			return number(p);
		fail(p, p->p, "%s where a value should be", seen(p, sbuf, sizeof sbuf));
		return NULL;
	}
}

JVal *json_parse(Arena *a, const char *s, size_t n, char *err, size_t errn, size_t *at, int *trunc)
{
	P p = {.a = a, .s = s, .e = s + n, .p = s, .err = err, .errn = errn};
	JVal *v = value(&p, 0);
	if (v) {
		ws(&p);
		if (p.p < p.e)
			fail(&p, p.p, "more after the value");
	}
	if (p.failed) {
		if (at)
			*at = (size_t)(p.at - s);
		if (trunc)
			*trunc = p.trunc;
		return NULL;
	}
	return v;
}

JVal *json_get(const JVal *obj, const char *key)
{
	if (!obj || obj->kind != J_OBJ)
		return NULL;
	for (int k = 0; k < obj->n; k++)
		if (!strcmp(obj->key[k], key))
			return obj->item[k];
	return NULL;
}

int json_equal(const JVal *a, const JVal *b)
{
	if (!a || !b || a->kind != b->kind)
		return a == b;
	switch (a->kind) {
	case J_NULL:
		return 1;
	case J_BOOL:
		return a->b == b->b;
	case J_NUM:
		return a->len == b->len && !memcmp(a->text, b->text, a->len);
	case J_STR:
		return a->len == b->len && !memcmp(a->s, b->s, a->len);
	case J_ARR:
	case J_OBJ:
		if (a->n != b->n)
			return 0;
		for (int k = 0; k < a->n; k++)
			if ((a->kind == J_OBJ && strcmp(a->key[k], b->key[k])) ||
			    !json_equal(a->item[k], b->item[k]))
				return 0;
		return 1;
	}
	return 0;
}
