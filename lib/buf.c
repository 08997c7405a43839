/* buf.c: a growable byte buffer, kept NUL-terminated. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ks.h"

void buf_reserve(Buf *b, size_t extra)
{
	if (b->n + extra + 1 <= b->cap)
		return;
	size_t cap = b->cap ? b->cap : 256;
	while (cap < b->n + extra + 1)
		cap *= 2;
	b->p = xrealloc(b->p, cap);
	b->cap = cap;
}

void buf_printf(Buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	buf_reserve(b, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(b->p + b->n, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->n += (size_t)n;
}

void buf_cat(Buf *b, ...)
{
	va_list ap;
	va_start(ap, b);
	for (const char *s = va_arg(ap, const char *); s; s = va_arg(ap, const char *))
		buf_put(b, s, strlen(s));
	va_end(ap);
}

void buf_free(Buf *b)
{
	free(b->p);
	b->p = NULL;
	b->n = b->cap = 0;
}

void buf_int(Buf *b, long long v)
{
	char s[24], *p = ks_dec(s + sizeof s, v);
	buf_put(b, p, (size_t)(s + sizeof s - p));
}

void buf_first_line(Buf *b, const char *p, size_t n)
{
	const char *end = p + n;
	while (p < end) {
		const char *e = memchr(p, '\n', (size_t)(end - p));
		if (!e)
			e = end;
		int blank = 1;
		for (const char *q = p; q < e; q++)
			blank &= *q == ' ' || *q == '\t' || *q == '\r';
		if (!blank) {
			for (const char *q = p; q < e; q++)
				buf_putc(b, (unsigned char)*q < 32 ? ' ' : *q);
			return;
		}
		p = e + 1;
	}
	buf_puts(b, "failed");
}
