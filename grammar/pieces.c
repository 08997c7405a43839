/*
 * pieces.c: where a Warp module's top-level statements start, so that the
 * front end can read the file one statement at a time — the kernels in
 * it, and the host Python around them, which it skips — and its memory
 * does not grow with the file (see ast.h).
 *
 * A piece starts at the start of a logical line (outside brackets and
 * strings, after no backslash continuation) whose first byte is neither
 * a blank nor a comment, unless that line continues the statement before
 * it: a decorator's def or class, or the else, elif, except or finally of
 * a compound statement.  At such a line the lexer has closed every block,
 * so parsing the pieces one by one gives the statements the whole file
 * gives, each at its own line.  Strings may carry a prefix (r, b, f, u,
 * rb, ...) and any bytes; a byte past ASCII elsewhere is part of a name.
 * Where the scanner cannot follow the text exactly (a NUL or other
 * control byte, a backslash outside a string that does not end its line,
 * a closing bracket that closes nothing or another kind), it stops
 * cutting: the rest of the file is one piece, which the lexer reads as it
 * would the whole, and refuses where it is not Python.  So is the last
 * piece when a bracket, a string or a continuation is still open at the
 * end of the file.
 */
#include <string.h>

#include "ast.h"

/* The scanner's state between lines: the open brackets (the kinds of the
 * outermost 64, to tell a closing one that does not match), a string
 * open, a backslash continuation. */
typedef struct Scan {
	int depth, str, triple, cont;
	char open[64];
} Scan;

static int is_ident(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c >= 0x80;
}

/* Do the name bytes l[from, to) make a string prefix (r, b, f, u, rb,
 * br, fr, rf, in either case)? */
static int string_prefix(const unsigned char *l, size_t from, size_t to)
{
	if (to - from > 2)
		return 0;
	int r = 0, b = 0, f = 0, u = 0;
	for (size_t i = from; i < to; i++) {
		int c = l[i] | 0x20;
		r += c == 'r', b += c == 'b', f += c == 'f', u += c == 'u';
	}
	size_t n = to - from;
	return r + b + f + u == (int)n && r <= 1 && b <= 1 && f <= 1 && u <= 1 && !(b && f) && (!u || n == 1);
}

/* Follow one physical line: brackets, strings, comments, continuation.
 * Returns 0 for what the scanner does not follow. */
static int scan_line(Scan *sc, const unsigned char *l, size_t len)
{
	sc->cont = 0;
	for (size_t i = 0; i < len;) {
		int c = l[i];
		if (c == 0 || (c < 32 && c != '\t' && c != '\n' && c != '\r' && c != '\f'))
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
			size_t from = i;
			while (from > 0 && is_ident(l[from - 1]))
				from--;
			if (from < i && !string_prefix(l, from, i))
				return 0;
			sc->str = c;
			sc->triple = i + 2 < len && l[i + 1] == c && l[i + 2] == c;
			i += sc->triple ? 3 : 1;
			continue;
		}
		if (c == '(' || c == '[' || c == '{') {
			if (sc->depth >= 100000)
				return 0;
			if (sc->depth < 64)
				sc->open[sc->depth] = (char)c;
			sc->depth++;
		} else if (c == ')' || c == ']' || c == '}') {
			if (sc->depth == 0 || (--sc->depth < 64 && sc->open[sc->depth] != (c == ')' ? '(' : c - 2)))
				return 0;
		} else if (c == '\\') {
			size_t k = i + 1 < len && l[i + 1] == '\r' ? i + 2 : i + 1;
			if (k >= len || l[k] != '\n')
				return 0;
			sc->cont = 1;
			i = k + 1;
			continue;
		}
		i++;
	}
	return 1;
}

static void add(Pieces *pc, long off, int line0)
{
	if (pc->n + 2 > pc->cap) {
		pc->cap = 2 * (pc->n + 2);
		pc->v = xrealloc(pc->v, (size_t)pc->cap * sizeof *pc->v);
	}
	pc->v[pc->n++] = (Piece){off, line0, 0};
}

/* Does the logical line l (at a statement's start) continue the
 * compound statement above it: else, elif, except, finally? */
static int continues(const unsigned char *l, size_t n)
{
	static const char *const kw[] = {"else", "elif", "except", "finally"};
	for (int k = 0; k < 4; k++) {
		size_t m = strlen(kw[k]);
		if (n >= m && !memcmp(l, kw[k], m) && (n == m || !is_ident(l[m])))
			return 1;
	}
	return 0;
}

void pieces_scan(Pieces *pc, Lines *in)
{
	memset(pc, 0, sizeof *pc);
	Scan sc = {0};
	int line = 0, follow = 1, prev_at = 0;
	long len = 0; /* of the piece at hand */
	pc->rest = -1;
	add(pc, 0, 1);
	while (lines_next(in)) {
		const unsigned char *l = (const unsigned char *)in->p;
		size_t n = in->n;
		line++;
		if (follow) {
			int start = !sc.depth && !sc.str && !sc.cont;
			int code = n && l[0] != ' ' && l[0] != '\t' && l[0] != '#' && l[0] != '\n' &&
				   l[0] != '\r' && l[0] != '\f';
			if (start && code && !prev_at && !continues(l, n) && len) {
				add(pc, in->off, line);
				len = 0;
			}
			if (start) {
				size_t k = 0;
				while (k < n && (l[k] == ' ' || l[k] == '\t' || l[k] == '\f'))
					k++;
				if (k < n && l[k] != '#' && l[k] != '\n' && l[k] != '\r')
					prev_at = l[0] == '@';
			}
			follow = scan_line(&sc, l, n);
			if (!follow)
				pc->rest = pc->n - 1;
		}
		len += (long)n;
	}
	/* a bracket, a string or a continuation still open at the end: the
	 * last piece is the rest, read (and refused) as the lexer reads it */
	if (follow && (sc.depth || sc.str || sc.cont))
		pc->rest = pc->n - 1;
	pc->v[pc->n] = (Piece){in->off, line + 1, 0};
}
