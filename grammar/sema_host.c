/*
 * sema_host.c: the kernel language and the host Python around it, told
 * apart in a module's pieces (pieces.c), for the first pass
 * (sema_module.c).
 *
 * A piece whose first decorator is @wp.kernel, @wp.func or @wp.struct is
 * the kernel language.  Any other piece is read as the module level of the
 * kernel language, and skipped as host Python when it is not that; what a
 * skipped statement binds (`NAME = ...`, `A, B = ...`, a def or class
 * after its decorators, the names an import binds) is noted with the
 * reason, so that a kernel that reads one is told what it is.  A
 * @wp.kernel indented inside a host def is a kernel factory, found here
 * and reported there.  All of it reads the text as the piece scanner
 * does: names, blanks and brackets, no grammar.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "sema.h"

/* The first line of [p, e) that holds code (not blank, not a comment):
 * its start, and in *line its number counted from 0. */
const char *host_first_code(const char *p, const char *e, int *line)
{
	for (*line = 0; p < e; ++*line) {
		const char *q = p;
		while (q < e && (*q == ' ' || *q == '\t' || *q == '\f' || *q == '\r'))
			q++;
		if (q < e && *q != '#' && *q != '\n')
			return p;
		const char *nl = memchr(p, '\n', (size_t)(e - p));
		p = nl ? nl + 1 : e;
	}
	return NULL;
}

/* Does the text at l (to e) begin with word w? */
static int starts(const char *l, const char *e, const char *w)
{
	size_t n = strlen(w);
	return (size_t)(e - l) >= n && !memcmp(l, w, n) &&
	       ((size_t)(e - l) == n || !(isalnum((unsigned char)l[n]) || l[n] == '_'));
}

/* What a piece whose first code is at l is: a def or class of the kernel
 * language (its first decorator @wp.kernel, @wp.func or @wp.struct), or
 * a statement of the module level, which may be host Python. */
int host_piece_kind(const char *l, const char *e)
{
	if (!l)
		return P_BLANK;
	if (*l == '@') {
		const char *q = l + 1;
		while (q < e && (*q == ' ' || *q == '\t'))
			q++;
		if (starts(q, e, "wp.kernel") || starts(q, e, "wp.func") || starts(q, e, "wp.struct"))
			return P_KERNEL;
	}
	return P_MODULE;
}

/* Copy the name at *p (to e) into buf, advancing *p: a dotted name when
 * dots. */
static int take_name(const char **p, const char *e, char *buf, size_t n, int dots)
{
	const char *q = *p;
	while (q < e &&
	       (isalnum((unsigned char)*q) || *q == '_' || (unsigned char)*q >= 0x80 || (dots && *q == '.')))
		q++;
	size_t k = (size_t)(q - *p);
	if (!k || k >= n || isdigit((unsigned char)**p))
		return 0;
	memcpy(buf, *p, k);
	buf[k] = 0;
	*p = q;
	return 1;
}

static const char *skip_blanks(const char *p, const char *e)
{
	while (p < e && (*p == ' ' || *p == '\t' || *p == '(' || *p == ')' || *p == '\\' || *p == '\r'))
		p++;
	return p;
}

/* Past the decorator lines from l on (each, after its blanks, starts
 * with '@') to the def or class they decorate, after its blanks; *lines
 * counts the lines passed. */
static const char *past_decorators(const char *l, const char *e, int *lines)
{
	for (;;) {
		while (l < e && (*l == ' ' || *l == '\t'))
			l++;
		if (l >= e || *l != '@')
			return l;
		const char *nl = memchr(l, '\n', (size_t)(e - l));
		l = nl ? nl + 1 : e;
		++*lines;
	}
}

/* Note the names the host statement at l binds (`NAME = ...`, `A, B =
 * ...`, a def or class after its decorators, an import), each skipped
 * with why, so that a kernel that uses one is told what it is. */
void host_binds(Sema *s, const char *l, const char *e, int line, const char *why)
{
	char name[256];
	const char *q = past_decorators(l, e, &line);
	if (starts(q, e, "async"))
		q = skip_blanks(q + 5, e);
	if (starts(q, e, "def") || starts(q, e, "class")) {
		q = skip_blanks(q + (*q == 'd' ? 3 : 5), e);
		if (take_name(&q, e, name, sizeof name, 0))
			skip_name(s, name, line, why);
		return;
	}
	if (starts(q, e, "import") || starts(q, e, "from")) {
		int from = *q == 'f';
		if (from) { /* from X import ... */
			const char *imp = q;
			while (imp < e && *imp != '\n' && !starts(imp, e, "import"))
				imp++;
			if (imp >= e || *imp == '\n' || !(imp[-1] == ' ' || imp[-1] == '\t'))
				return;
			q = imp;
		}
		q = skip_blanks(q + 6, e);
		for (;;) {
			if (!take_name(&q, e, name, sizeof name, !from))
				return;
			q = skip_blanks(q, e);
			if (starts(q, e, "as")) {
				q = skip_blanks(q + 2, e);
				if (!take_name(&q, e, name, sizeof name, 0))
					return;
				q = skip_blanks(q, e);
			}
			char *dot = strchr(name, '.');
			if (dot)
				*dot = 0; /* import a.b binds a */
			skip_name(s, name, line, why);
			if (q >= e || *q != ',')
				return;
			q = skip_blanks(q + 1, e);
		}
	}
	/* NAME [, NAME]... [: T] = ... (or an augmented assignment) */
	for (int k = 0; k < 64; k++) {
		if (!take_name(&q, e, name, sizeof name, 0))
			return;
		const char *t = skip_blanks(q, e);
		if (t < e && *t == ',') {
			skip_name(s, name, line, why);
			q = skip_blanks(t + 1, e);
			continue;
		}
		if (t < e && (*t == '=' || *t == ':' || (t + 1 < e && strchr("+-*/%|&^@", *t) && t[1] == '=')))
			skip_name(s, name, line, why);
		return;
	}
}

/* "kernel NAME: ", "function NAME: " or "struct NAME: " for the def or
 * class at l (after its decorators), into buf. */
const char *host_what(const char *l, const char *e, char *buf, size_t n)
{
	int kernel = *l == '@' && starts(l + 1, e, "wp.kernel"), lines = 0;
	l = past_decorators(l, e, &lines);
	char name[256] = "?";
	int cls = starts(l, e, "class");
	if (starts(l, e, "def") || cls) {
		l = skip_blanks(l + (cls ? 5 : 3), e);
		take_name(&l, e, name, sizeof name, 0);
	}
	snprintf(buf, n, "%s %s: ", kernel ? "kernel" : cls ? "struct" : "function", name);
	return buf;
}

/* The next kernel defined inside a Python function or class, from p on
 * in the host piece that ends at e (*line: p's line): where its decorator
 * is (*line, *col), its name; the text after it, or NULL when there is
 * none. */
const char *host_factory(const char *p, const char *e, int *line, int *col, char *name, size_t n)
{
	for (; p < e; ++*line) {
		const char *nl = memchr(p, '\n', (size_t)(e - p)), *end = nl ? nl : e, *q = p;
		while (q < end && (*q == ' ' || *q == '\t'))
			q++;
		if (q > p && q < end && *q == '@' && starts(q + 1, end, "wp.kernel")) {
			*col = (int)(q - p) + 1;
			int lines = 0;
			const char *d = past_decorators(nl ? nl + 1 : e, e, &lines);
			snprintf(name, n, "?");
			if (starts(d, e, "def")) {
				d = skip_blanks(d + 3, e);
				take_name(&d, e, name, n, 0);
			}
			return nl ? nl + 1 : e;
		}
		p = nl ? nl + 1 : e;
	}
	return NULL;
}

/* Does the piece at l define something (a def or class, async or
 * decorated), in which a kernel factory may hide? */
int host_is_def(const char *l, const char *e)
{
	return *l == '@' || starts(l, e, "def") || starts(l, e, "class") || starts(l, e, "async");
}
