/*
 * pieces.c: a kernel source read one top-level definition at a time, so
 * that kparse's memory does not grow with the file (see ast.h).
 *
 * A piece starts at a line whose first byte is '@' (a decorator) that is
 * the start of a logical line — outside brackets and strings, after no
 * backslash continuation — and whose previous logical line is not itself
 * a decorator; the first piece is the head (import, docstring) up to the
 * first such line.  At such a line the lexer has closed every block, so
 * parsing the pieces one by one gives the statements the whole file
 * gives, each at its own line.  Anything this scanner does not follow
 * exactly (string prefixes, a backslash outside a string, control bytes,
 * non-ASCII text, unbalanced brackets) makes it give up, and kparse reads
 * the file whole.
 */
#define _POSIX_C_SOURCE 200809L
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "ast.h"

static int is_ident(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

void pieces_open(Pieces *pc, const char *path)
{
	memset(pc, 0, sizeof *pc);
	int is_stdin = !path || !strcmp(path, "-");
	pc->name = is_stdin ? "<stdin>" : path;
	pc->next_line = 1;
	pc->f = src_open_seekable(path, pc->name);
}

/* Follow one physical line: brackets, strings, comments, continuation.
 * Returns 0 for what the scanner does not follow. */
static int scan_line(Pieces *pc, const unsigned char *l, size_t len)
{
	pc->cont = 0;
	for (size_t i = 0; i < len;) {
		int c = l[i];
		if (c == 0 || c == '\r' || c == '\f' || c == '\v' || c >= 0x80)
			return 0;
		if (pc->str) {
			if (c == '\\') {
				i += 2;
			} else if (c == pc->str && !pc->triple) {
				pc->str = 0;
				i++;
			} else if (c == pc->str && i + 2 < len && l[i + 1] == c && l[i + 2] == c) {
				pc->str = 0;
				i += 3;
			} else if (c == '\n' && !pc->triple) {
				return 0;
			} else {
				i++;
			}
			continue;
		}
		if (c == '#')
			break;
		if (c == '"' || c == '\'') {
			if (i > 0 && is_ident(l[i - 1]))
				return 0; /* a string prefix */
			pc->str = c;
			pc->triple = i + 2 < len && l[i + 1] == c && l[i + 2] == c;
			i += pc->triple ? 3 : 1;
			continue;
		}
		if (c == '(' || c == '[' || c == '{') {
			if (++pc->depth > 100000)
				return 0;
		} else if (c == ')' || c == ']' || c == '}') {
			if (pc->depth-- == 0)
				return 0;
		} else if (c == '\\') {
			if (i + 1 >= len || l[i + 1] != '\n')
				return 0;
			pc->cont = 1;
			i += 2;
			continue;
		}
		i++;
	}
	return 1;
}

static void append(Pieces *pc, const char *l, size_t n)
{
	if (pc->len + n + 1 > pc->cap) {
		pc->cap = 2 * (pc->len + n + 1);
		pc->buf = xrealloc(pc->buf, pc->cap);
	}
	memcpy(pc->buf + pc->len, l, n);
	pc->len += n;
	pc->buf[pc->len] = 0;
}

int pieces_next(Pieces *pc, Src *piece, int *line0)
{
	if (pc->done)
		return 0;
	pc->len = 0;
	if (pc->buf)
		pc->buf[0] = 0;
	*line0 = pc->next_line;
	int first = pc->held == 0 && pc->npiece == 0;
	for (;;) {
		ssize_t n;
		if (pc->held) {
			n = pc->held;
			pc->held = 0;
		} else {
			n = getline(&pc->line, &pc->linecap, pc->f);
			if (n <= 0)
				break;
			pc->total += (size_t)n;
			if (pc->total > INT_MAX / 2)
				return -1;
			/* a decorator at the start of a logical line opens a piece */
			int start = !pc->depth && !pc->str && !pc->cont;
			if (start && pc->line[0] == '@' && !pc->prev_at && pc->len) {
				pc->held = n;
				break;
			}
		}
		int start = !pc->depth && !pc->str && !pc->cont;
		const unsigned char *l = (const unsigned char *)pc->line;
		if (start) {
			size_t k = 0;
			while (k < (size_t)n && (l[k] == ' ' || l[k] == '\t'))
				k++;
			if (k < (size_t)n && l[k] != '#' && l[k] != '\n')
				pc->prev_at = l[0] == '@';
		}
		if (!scan_line(pc, l, (size_t)n))
			return -1;
		append(pc, pc->line, (size_t)n);
		pc->next_line++;
	}
	if (ferror(pc->f))
		ks_fatal("%s: read error", pc->name);
	if (!pc->held) {
		pc->done = 1;
		if (!pc->len && !first)
			return 0;
	}
	pc->npiece++;
	piece->name = pc->name;
	piece->text = pc->buf ? pc->buf : "";
	piece->len = pc->len;
	return 1;
}

void pieces_whole(Pieces *pc, Src *whole)
{
	if (fseek(pc->f, 0, SEEK_SET))
		ks_fatal("%s: read error", pc->name);
	src_read_file(whole, pc->f, pc->name);
}

void pieces_close(Pieces *pc)
{
	if (pc->f)
		fclose(pc->f);
	free(pc->buf);
	free(pc->line);
	memset(pc, 0, sizeof *pc);
}
