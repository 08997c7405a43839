/*
 * run_sim.c: CUDA code made ready for sim's cooperating blocks.
 *
 * sim compiles CUDA code as C++ through runtime/ksynth_sim.h.  Code that
 * declares shared memory or calls __syncthreads() needs a block's
 * threads to run together, and its shared arrays checked for races
 * (ksynth_sim_block.h): each declaration
 *
 *     __shared__ float s[64];          __shared__ float t[16][17];
 *
 * becomes, on the same line, so that the compiler's lines stay the code's,
 *
 *     KS_SIM_SHARED(float, s, 64);     KS_SIM_SHARED(float, t, 16, 17);
 *
 * A shared declaration of another form (a scalar, `extern __shared__`)
 * is left as it is: the shim makes it static, and it is not checked.
 * Comments, strings and character constants are skipped.
 */
#include <ctype.h>
#include <string.h>

#include "run.h"

static int ident_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* Is the word at p (ending before e) `w`, standing alone? */
static int word_at(const char *s, const char *p, const char *e, const char *w)
{
	size_t n = strlen(w);
	return (size_t)(e - p) >= n && !memcmp(p, w, n) && (p == s || !ident_char(p[-1])) &&
	       (p + n == e || !ident_char(p[n]));
}

static const char *skip_space(const char *p, const char *e)
{
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

/* Is [a, b) an extent a declaration is rewritten with: names, numbers
 * and arithmetic, nothing that opens a comment, a string or a bracket
 * (the text is scanned again as it is rewritten)? */
static int plain(const char *a, const char *b)
{
	for (const char *q = a; q < b; q++)
		if (!ident_char(*q) && !strchr(" +-*/%()<>", *q))
			return 0;
		else if (*q == '/' && q + 1 < b && (q[1] == '/' || q[1] == '*'))
			return 0;
	return 1;
}

/* The bracketed extent at p ("[...]"): its text in [*a, *b), the end. */
static const char *extent(const char *p, const char *e, const char **a, const char **b)
{
	if (p >= e || *p != '[')
		return NULL;
	const char *q = p + 1;
	while (q < e && *q != ']' && *q != '\n')
		q++;
	if (q >= e || *q != ']' || q == p + 1 || !plain(p + 1, q))
		return NULL;
	*a = p + 1;
	*b = q;
	return q + 1;
}

/* The declaration after `__shared__` (at p) on one line: its type, name
 * and one or two extents; the end (after its `;`), or NULL when it is not
 * of that form. */
static const char *declaration(const char *p, const char *e, Buf *out)
{
	const char *t0 = skip_space(p, e), *q = t0, *name = NULL, *name_end = NULL;
	while (q < e && ident_char(*q)) {
		if (word_at(t0, q, e, "__shared__"))
			return NULL;
		name = q;
		while (q < e && ident_char(*q))
			q++;
		name_end = q;
		q = skip_space(q, e);
	}
	if (!name || name == t0 || q >= e || *q != '[' || isdigit((unsigned char)*name))
		return NULL;
	const char *a1, *b1, *a2 = NULL, *b2 = NULL;
	q = extent(q, e, &a1, &b1);
	if (q && skip_space(q, e) < e && *skip_space(q, e) == '[')
		q = extent(skip_space(q, e), e, &a2, &b2);
	if (!q)
		return NULL;
	q = skip_space(q, e);
	if (q >= e || *q != ';')
		return NULL;
	const char *t1 = name;
	while (t1 > t0 && (t1[-1] == ' ' || t1[-1] == '\t'))
		t1--;
	buf_printf(out, "KS_SIM_SHARED(%.*s, %.*s, %.*s", (int)(t1 - t0), t0, (int)(name_end - name), name,
		   (int)(b1 - a1), a1);
	if (a2)
		buf_printf(out, ", %.*s", (int)(b2 - a2), a2);
	buf_puts(out, ");");
	return q + 1;
}

int run_sim_prepare(Buf *code, size_t from)
{
	Buf out = {0};
	const char *s = code->p, *e = code->p + code->n, *p = s + from, *copied = s;
	int coop = 0;
	while (p < e) {
		if (p + 1 < e && p[0] == '/' && p[1] == '/') {
			while (p < e && *p != '\n')
				p++;
		} else if (p + 1 < e && p[0] == '/' && p[1] == '*') {
			const char *q = p + 2;
			while (q + 1 < e && !(q[0] == '*' && q[1] == '/'))
				q++;
			p = q + 1 < e ? q + 2 : e;
		} else if (*p == '"' || *p == '\'') {
			char quote = *p++;
			while (p < e && *p != quote && *p != '\n')
				p += *p == '\\' && p + 1 < e ? 2 : 1;
			p += p < e && *p == quote;
		} else if (word_at(s, p, e, "__syncthreads")) {
			coop = 1;
			p += strlen("__syncthreads");
		} else if (word_at(s, p, e, "__shared__")) {
			coop = 1;
			const char *q = p + strlen("__shared__");
			size_t mark = out.n;
			buf_put(&out, copied, (size_t)(p - copied));
			const char *end = declaration(q, e, &out);
			if (end) {
				copied = p = end;
			} else {
				out.n = mark;
				p = q;
			}
		} else if (ident_char(*p)) {
			while (p < e && ident_char(*p))
				p++;
		} else {
			p++;
		}
	}
	if (copied != s) {
		buf_put(&out, copied, (size_t)(e - copied));
		buf_free(code);
		*code = out;
	} else {
		buf_free(&out);
	}
	return coop;
}
