/*
 * pieces.c: where a kernel source's top-level definitions start, so that
 * the front end can read the file one definition at a time and its memory
 * does not grow with the file (see ast.h).
 *
 * A piece starts at a line whose first byte is '@' (a decorator) that is
 * the start of a logical line — outside brackets and strings, after no
 * backslash continuation — and whose previous logical line is not itself
 * a decorator; the first piece is the head (imports, docstring) up to the
 * first such line.  At such a line the lexer has closed every block, so
 * parsing the pieces one by one gives the statements the whole file
 * gives, each at its own line.  Where the scanner cannot follow the text
 * exactly (a string prefix, a backslash outside a string, a control byte,
 * non-ASCII text, unbalanced brackets), it stops cutting: the rest of the
 * file is one piece, which the lexer reads as it would the whole.
 */
#include <string.h>

#include "ast.h"

/* The scanner's state between lines. */
typedef struct Scan {
	int depth, str, triple, cont;
} Scan;

static int is_ident(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* Follow one physical line: brackets, strings, comments, continuation.
 * Returns 0 for what the scanner does not follow. */
static int scan_line(Scan *sc, const unsigned char *l, size_t len)
{
	sc->cont = 0;
	for (size_t i = 0; i < len;) {
		int c = l[i];
		if (c == 0 || c == '\r' || c == '\f' || c == '\v' || c >= 0x80)
			return 0;
		if (sc->str) {
			if (c == '\\') {
				i += 2;
			} else if (c == sc->str && !sc->triple) {
				sc->str = 0;
				i++;
			} else if (c == sc->str && i + 2 < len && l[i + 1] == c && l[i + 2] == c) {
				sc->str = 0;
				i += 3;
			} else if (c == '\n' && !sc->triple) {
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
			sc->str = c;
			sc->triple = i + 2 < len && l[i + 1] == c && l[i + 2] == c;
			i += sc->triple ? 3 : 1;
			continue;
		}
		if (c == '(' || c == '[' || c == '{') {
			if (++sc->depth > 100000)
				return 0;
		} else if (c == ')' || c == ']' || c == '}') {
			if (sc->depth-- == 0)
				return 0;
		} else if (c == '\\') {
			if (i + 1 >= len || l[i + 1] != '\n')
				return 0;
			sc->cont = 1;
			i += 2;
			continue;
		}
		i++;
	}
	return 1;
}

static void add(Pieces *pc, Arena *a, long off, int line0)
{
	arena_grow(a, (void **)&pc->v, &pc->cap, pc->n + 2, sizeof *pc->v);
	pc->v[pc->n++] = (Piece){off, line0};
}

void pieces_scan(Pieces *pc, Lines *in, Arena *a)
{
	memset(pc, 0, sizeof *pc);
	Scan sc = {0};
	int line = 0, follow = 1, prev_at = 0;
	long len = 0; /* of the piece at hand */
	add(pc, a, 0, 1);
	while (lines_next(in)) {
		const unsigned char *l = (const unsigned char *)in->p;
		size_t n = in->n;
		line++;
		if (follow) {
			int start = !sc.depth && !sc.str && !sc.cont;
			if (start && l[0] == '@' && !prev_at && len) {
				add(pc, a, in->off, line);
				len = 0;
			}
			if (start) {
				size_t k = 0;
				while (k < n && (l[k] == ' ' || l[k] == '\t'))
					k++;
				if (k < n && l[k] != '#' && l[k] != '\n')
					prev_at = l[0] == '@';
			}
			follow = scan_line(&sc, l, n);
		}
		len += (long)n;
	}
	pc->v[pc->n] = (Piece){in->off, line + 1};
}
