/*
 * cstr.c: strings as C writes them, "a\tb\n": the one spelling of a
 * string in IR text (a printf's format) and in emitted C and CUDA.
 * Printable ASCII stands for itself but for the backslash and the quote;
 * \n \t \r \\ \" \? are escapes; any other byte is three octal digits
 * (never ambiguous with a digit after it).  '?' after '?' is \? so that
 * no trigraph can form under -std=c11.
 */
#include "ks.h"

void buf_cstring(Buf *b, const char *s, size_t n)
{
	buf_putc(b, '"');
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '\n')
			buf_puts(b, "\\n");
		else if (c == '\t')
			buf_puts(b, "\\t");
		else if (c == '\r')
			buf_puts(b, "\\r");
		else if (c == '\\' || c == '"')
			buf_putc(b, '\\'), buf_putc(b, c);
		else if (c == '?' && i > 0 && s[i - 1] == '?')
			buf_puts(b, "\\?");
		else if (c >= 0x20 && c < 0x7f)
			buf_putc(b, c);
		else
			buf_printf(b, "\\%03o", c);
	}
	buf_putc(b, '"');
}

const char *ks_cstring_read(const char *p, const char *end, Buf *out)
{
	if (p >= end || *p != '"')
		return NULL;
	for (p++; p < end && *p != '"'; p++) {
		unsigned char c = (unsigned char)*p;
		if (c == '\n' || c < 0x20)
			return NULL;
		if (c != '\\') {
			buf_putc(out, c);
			continue;
		}
		if (++p >= end)
			return NULL;
		switch (*p) {
		/* clang-format off */
		case 'n': buf_putc(out, '\n'); break;
		case 't': buf_putc(out, '\t'); break;
		case 'r': buf_putc(out, '\r'); break;
		case '\\': case '"': case '?': buf_putc(out, *p); break;
		/* clang-format on */
		default:
			if (end - p < 3 || p[0] < '0' || p[0] > '3' || p[1] < '0' || p[1] > '7' || p[2] < '0' ||
			    p[2] > '7')
				return NULL;
			buf_putc(out, (p[0] - '0') * 64 + (p[1] - '0') * 8 + (p[2] - '0'));
			p += 2;
		}
	}
	return p < end ? p + 1 : NULL;
}
