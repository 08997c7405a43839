/*
 * diag.c: reading sources and reporting located errors.
 *
 * An error shows the offending line and a caret under the column.  Lines
 * can be megabytes long (generated or hostile input), so the excerpt is a
 * window of at most 120 bytes around the column; bytes that are not
 * printable ASCII are shown as '?', so the terminal never sees raw
 * control bytes.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ks.h"

const char *ks_prog = "ksynth";
jmp_buf *ks_recover;
int ks_quiet;
char ks_errmsg[512];
const char *ks_errwhat;

void src_read(Src *s, const char *path)
{
	FILE *f = stdin;
	int is_stdin = !path || !strcmp(path, "-");
	if (!is_stdin && !(f = fopen(path, "rb")))
		ks_fatal("%s:", path);
	src_read_file(s, f, is_stdin ? "<stdin>" : path);
	if (!is_stdin)
		fclose(f);
}

void src_read_file(Src *s, FILE *f, const char *name)
{
	size_t cap = 65536, n = 0;
	char *p = xmalloc(cap);
	for (;;) {
		if (cap - n < 2) {
			cap *= 2;
			p = xrealloc(p, cap);
		}
		size_t got = fread(p + n, 1, cap - n - 1, f);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f))
		ks_fatal("%s: read error", name);
	p[n] = 0;
	s->name = name;
	s->text = p;
	s->len = n;
	s->line0 = 1;
}

void src_from_mem(Src *s, const char *name, const char *text, size_t len)
{
	char *p = xmalloc(len + 1);
	memcpy(p, text, len);
	p[len] = 0;
	s->name = name;
	s->text = p;
	s->len = len;
	s->line0 = 1;
}

void src_free(Src *s)
{
	free((void *)s->text);
	s->text = NULL;
	s->len = 0;
}

/* Line LINE of the regular file NAME into b, without its newline: 1 when
 * there is one. */
static int file_line(const char *name, int line, Buf *b)
{
	struct stat st;
	if (!name || stat(name, &st) || !S_ISREG(st.st_mode))
		return 0;
	FILE *f = fopen(name, "rb");
	if (!f)
		return 0;
	int l = 1, c;
	while (l < line && (c = getc(f)) != EOF)
		l += c == '\n';
	while (l == line && (c = getc(f)) != EOF && c != '\n')
		buf_putc(b, c);
	fclose(f);
	return l == line;
}

static void show_line(const Src *s, int line, int col)
{
	if (!s || line < 1)
		return;
	int first = s->line0 > 1 ? s->line0 : 1;
	Buf other = {0};
	const char *p = NULL, *end = NULL;
	if (s->text && line >= first) {
		int l = first;
		p = s->text;
		end = s->text + s->len;
		for (; l < line && p < end; p++)
			if (*p == '\n')
				l++;
		if ((l < line || p == end) && s->lines)
			p = NULL; /* past the piece, or the empty line after its last */
	}
	if (!p) {
		/* a line outside the piece, or of a text not at hand */
		int ok = s->lines ? lines_line(s->lines, line, &other)
				  : !s->text && file_line(s->name, line, &other);
		if (!ok)
			return;
		p = other.p ? other.p : "";
		end = p + other.n;
	}
	const char *e = p;
	while (e < end && *e != '\n')
		e++;
	size_t len = (size_t)(e - p), c = col > 0 ? (size_t)col - 1 : 0;
	if (c > len)
		c = len;
	size_t from = 0;
	if (len > 120)
		from = c > 60 ? c - 60 : 0;
	size_t to = from + 120 < len ? from + 120 : len;
	fputs("    ", stderr);
	for (size_t i = from; i < to; i++) {
		unsigned char ch = (unsigned char)p[i];
		fputc(ch == '\t' ? ' ' : (ch >= 32 && ch < 127) ? ch : '?', stderr);
	}
	fputs("\n    ", stderr);
	for (size_t i = from; i < c; i++)
		fputc(' ', stderr);
	fputs("^\n", stderr);
	buf_free(&other);
}

void ks_verror_at(const Src *s, int line, int col, const char *fmt, va_list ap)
{
	vsnprintf(ks_errmsg, sizeof ks_errmsg, fmt, ap);
	if (!ks_quiet) {
		fflush(stdout);
		fprintf(stderr, "%s:%d:%d: error: %s%s\n", s ? s->name : ks_prog, line, col,
			ks_errwhat ? ks_errwhat : "", ks_errmsg);
		show_line(s, line, col);
	}
	if (ks_recover)
		longjmp(*ks_recover, 1);
	out_abort();
	exit(1);
}

void ks_error_at(const Src *s, int line, int col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ks_verror_at(s, line, col, fmt, ap);
}

void ks_fatal(const char *fmt, ...)
{
	int err = errno;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(ks_errmsg, sizeof ks_errmsg, fmt, ap);
	va_end(ap);
	size_t n = strlen(fmt);
	if (!ks_quiet) {
		fflush(stdout);
		fprintf(stderr, "%s: %s", ks_prog, ks_errmsg);
		if (n && fmt[n - 1] == ':')
			fprintf(stderr, " %s", strerror(err));
		fputc('\n', stderr);
	}
	if (ks_recover)
		longjmp(*ks_recover, 1);
	out_abort();
	exit(1);
}
