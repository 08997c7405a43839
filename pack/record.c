/*
 * record.c: the rules a dataset's records follow that kpack and kverify
 * share (record.h).
 */
#include <string.h>

#include "gen/gen.h"
#include "pack/record.h"

const char *const split_name[SPLITS] = {"train", "validation", "test"};

void json_str(Buf *b, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s, *e = p + n;
	buf_putc(b, '"');
	while (p < e) {
		unsigned c = *p;
		if (c == '"' || c == '\\') {
			buf_putc(b, '\\');
			buf_putc(b, (int)c);
			p++;
		} else if (c == '\n') {
			buf_puts(b, "\\n");
			p++;
		} else if (c == '\t') {
			buf_puts(b, "\\t");
			p++;
		} else if (c < 0x20 || c == 0x7f) {
			buf_printf(b, "\\u%04x", c);
			p++;
		} else if (c < 0x80) {
			buf_putc(b, (int)c);
			p++;
		} else {
			int len = c >= 0xf0 && c < 0xf5 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 0;
			int okay = len && p + len <= e;
			for (int k = 1; okay && k < len; k++)
				okay = (p[k] & 0xc0) == 0x80;
			if (okay && len == 3 && ((c == 0xe0 && p[1] < 0xa0) || (c == 0xed && p[1] >= 0xa0)))
				okay = 0;
			if (okay && len == 4 && ((c == 0xf0 && p[1] < 0x90) || (c == 0xf4 && p[1] >= 0x90)))
				okay = 0;
			if (okay) {
				buf_put(b, (const char *)p, (size_t)len);
				p += len;
			} else {
				buf_puts(b, "\\ufffd");
				p++;
			}
		}
	}
	buf_putc(b, '"');
}

void json_cstr(Buf *b, const char *s) { json_str(b, s, strlen(s)); }

long count_lines(const char *s, size_t n)
{
	long k = 0;
	for (size_t i = 0; i < n; i++)
		k += s[i] == '\n';
	if (n && s[n - 1] != '\n')
		k++;
	return k;
}

int split_of(const char *ir_hash)
{
	uint64_t h = ks_hash64(ir_hash, strlen(ir_hash), 0x5eed);
	unsigned p = (unsigned)(h % 100);
	return p < 90 ? 0 : p < 95 ? 1 : 2;
}

unsigned cat_mix(const char *s)
{
	if (!strcmp(s, "all"))
		return (1u << NCAT) - 1;
	unsigned m = 0;
	while (*s) {
		size_t n = strcspn(s, ",");
		int c;
		for (c = 0; c < NCAT; c++)
			if (strlen(gen_cat_name[c]) == n && !strncmp(gen_cat_name[c], s, n))
				break;
		if (c == NCAT)
			return 0;
		m |= 1u << c;
		s += n;
		if (*s == ',')
			s++;
	}
	return m;
}
