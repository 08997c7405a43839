/*
 * lines.c: a text read twice — line by line once, then by byte ranges — the
 * way the front end (grammar/pieces.c) and every IR tool (ir/file.c) read
 * their input: a first pass notes where each definition starts, then each
 * one is read again when its turn comes, so that nothing holds the whole
 * text.
 *
 * The text is a file, standard input or a buffer in memory.  What cannot
 * be read again (a pipe, a terminal) is copied to a temporary file during
 * the first pass, and the second reads the copy.  A range is handed out
 * NUL-terminated, as a Src wants it, in a buffer reused by the next call.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ks.h"

void lines_open(Lines *l, const char *path)
{
	memset(l, 0, sizeof *l);
	int is_stdin = !path || !strcmp(path, "-");
	struct stat st;
	l->name = is_stdin ? "<stdin>" : path;
	l->f = stdin;
	if (!is_stdin && !(l->f = fopen(path, "rb")))
		ks_fatal("%s:", path);
	if (is_stdin || fstat(fileno(l->f), &st) || !S_ISREG(st.st_mode))
		if (!(l->copy = tmpfile()))
			ks_fatal("temporary file:");
}

void lines_mem(Lines *l, const char *name, const char *text, size_t len)
{
	memset(l, 0, sizeof *l);
	l->name = name;
	l->mem = text;
	l->mlen = len;
}

int lines_next(Lines *l)
{
	l->off += (long)l->n;
	if (!l->f) {
		if (l->mpos >= l->mlen)
			return 0;
		const char *p = l->mem + l->mpos;
		const char *nl = memchr(p, '\n', l->mlen - l->mpos);
		l->n = nl ? (size_t)(nl - p) + 1 : l->mlen - l->mpos;
		l->p = p;
		l->mpos += l->n;
		return 1;
	}
	ssize_t n = getline(&l->lbuf, &l->lcap, l->f);
	if (n < 0) {
		if (ferror(l->f))
			ks_fatal("%s: read error", l->name);
		l->n = 0;
		return 0;
	}
	if (l->copy && fwrite(l->lbuf, 1, (size_t)n, l->copy) != (size_t)n)
		ks_fatal("temporary file: write error");
	l->p = l->lbuf;
	l->n = (size_t)n;
	return 1;
}

const char *lines_range(Lines *l, long from, long to, size_t *len)
{
	if (l->copy) {
		/* the first pass is over: from now on the copy is the text */
		if (fflush(l->copy) || ferror(l->copy))
			ks_fatal("temporary file: write error");
		if (l->f != stdin)
			fclose(l->f);
		l->f = l->copy;
		l->copy = NULL;
	}
	size_t n = (size_t)(to - from);
	if (n + 1 > l->range.cap) {
		l->range.cap = 2 * (n + 1);
		l->range.p = xrealloc(l->range.p, l->range.cap);
	}
	if (!l->f)
		memcpy(l->range.p, l->mem + from, n);
	else if (fseek(l->f, from, SEEK_SET) || fread(l->range.p, 1, n, l->f) != n)
		ks_fatal("%s: read error", l->name);
	l->range.p[n] = 0;
	*len = n;
	return l->range.p;
}

int lines_line(Lines *l, int line, Buf *b)
{
	int at = 1, c;
	if (!l->f) {
		const char *p = l->mem, *end = l->mem + l->mlen;
		for (; at < line && p < end; p++)
			at += *p == '\n';
		for (; at == line && p < end && *p != '\n'; p++)
			buf_putc(b, *p);
		return at == line;
	}
	FILE *f = l->copy ? l->copy : l->f;
	if (fflush(f) || fseek(f, 0, SEEK_SET))
		return 0;
	while (at < line && (c = getc(f)) != EOF)
		at += c == '\n';
	while (at == line && (c = getc(f)) != EOF && c != '\n')
		buf_putc(b, c);
	return at == line;
}

void lines_close(Lines *l)
{
	if (l->copy)
		fclose(l->copy);
	if (l->f && l->f != stdin)
		fclose(l->f);
	free(l->lbuf);
	buf_free(&l->range);
	memset(l, 0, sizeof *l);
}
