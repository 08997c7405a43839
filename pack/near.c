/*
 * near.c: near-duplicate kernels by MinHash over normalised token
 * shingles, with a locality-sensitive index to find them (near.h).
 *
 * The tokens are Python's, as far as a kernel's text needs: names,
 * numbers, strings, operators; comments and layout are dropped, so two
 * kernels that differ in their names, their constants or their spacing
 * have one signature.  The index keeps, for each band of values, the
 * kernels that had it (newest first); a kernel is compared
 * with those sharing a band with it, at most NEAR_SCAN of each band, so
 * that a template repeated thousands of times costs no more than a few.
 */
#include "pack/near.h"

#include <stdlib.h>
#include <string.h>

#include "lib/ks.h"

enum { SHINGLE = 5, NEAR_SCAN = 64 };

static uint64_t mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

static uint64_t fnv(const char *s, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
	return h;
}

/* ---- tokens ---------------------------------------------------------- */

/* Names a kernel's meaning rests on: Python's keywords and the builtins
 * kernels call; every other name (but an attribute's) is renamed. */
static const char *const kept_names[] = {
	"False",    "None",  "True",   "and",  "as",    "assert", "break", "class",  "continue", "def",   "del",
	"elif",     "else",  "except", "for",  "from",  "global", "if",    "import", "in",       "is",    "lambda",
	"nonlocal", "not",   "or",     "pass", "raise", "return", "try",   "while",  "with",     "yield", "range",
	"int",      "float", "bool",   "len",  "min",   "max",    "abs",   "print",  "tuple",    "wp",    "warp",
};

static int kept(const char *s, size_t n)
{
	for (size_t i = 0; i < KS_NELEM(kept_names); i++)
		if (strlen(kept_names[i]) == n && !memcmp(kept_names[i], s, n))
			return 1;
	return 0;
}

static int name_start(int c) { return c == '_' || ((c | 32) >= 'a' && (c | 32) <= 'z') || c >= 0x80; }
static int name_char(int c) { return name_start(c) || (c >= '0' && c <= '9'); }

/* The names renamed so far in one text, in order of first appearance. */
typedef struct Names {
	const char **s;
	size_t *n;
	int len, cap;
} Names;

static int rename_of(Names *nm, const char *s, size_t n)
{
	for (int i = 0; i < nm->len; i++)
		if (nm->n[i] == n && !memcmp(nm->s[i], s, n))
			return i;
	if (nm->len == nm->cap) {
		nm->cap = nm->cap ? 2 * nm->cap : 32;
		nm->s = xrealloc(nm->s, sizeof *nm->s * (size_t)nm->cap);
		nm->n = xrealloc(nm->n, sizeof *nm->n * (size_t)nm->cap);
	}
	nm->s[nm->len] = s;
	nm->n[nm->len] = n;
	return nm->len++;
}

/* The length of the string literal at s (a prefix such as r or f
 * included), or 0 when there is none. */
static size_t string_at(const char *s, const char *end)
{
	const char *p = s;
	while (p < end && p - s < 2 && strchr("rRbBfFuU", *p) && *p)
		p++;
	if (p >= end || (*p != '\'' && *p != '"'))
		return 0;
	char q = *p;
	int triple = end - p >= 3 && p[1] == q && p[2] == q;
	p += triple ? 3 : 1;
	while (p < end) {
		if (*p == '\\' && p + 1 < end) {
			p += 2;
			continue;
		}
		if (*p == q && (!triple || (end - p >= 3 && p[1] == q && p[2] == q)))
			return (size_t)(p + (triple ? 3 : 1) - s);
		if (*p == '\n' && !triple)
			break;
		p++;
	}
	return (size_t)(p - s);
}

static const char *const ops3[] = {"**=", "//=", ">>=", "<<=", "..."};
static const char *const ops2[] = {"==", "!=", "<=", ">=", "**", "//", "->", "+=", "-=", "*=",
				   "/=", "%=", "&=", "|=", "^=", "<<", ">>", ":=", "@="};

/* The normalised tokens of s[0 .. n), as hashes, appended to *t. */
static void tokens(const char *s, size_t n, uint64_t **t, size_t *len, size_t *cap)
{
	static const uint64_t number = 0x6e756d626572ull, string = 0x737472696e67ull;
	const char *p = s, *end = s + n;
	Names nm = {0};
	int attribute = 0;
	while (p < end) {
		int c = (unsigned char)*p;
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\\') {
			p++;
			continue;
		}
		if (c == '#') {
			while (p < end && *p != '\n')
				p++;
			continue;
		}
		uint64_t h;
		size_t k;
		if ((k = string_at(p, end)) > 0) {
			h = string;
			p += k;
		} else if (name_start(c)) {
			const char *q = p;
			while (p < end && name_char((unsigned char)*p))
				p++;
			k = (size_t)(p - q);
			h = attribute || kept(q, k) ? fnv(q, k)
						    : mix64(0x6e616d65ull + (uint64_t)rename_of(&nm, q, k));
		} else if ((c >= '0' && c <= '9') || (c == '.' && end - p > 1 && p[1] >= '0' && p[1] <= '9')) {
			while (p < end && (name_char((unsigned char)*p) || *p == '.' ||
					   ((*p == '+' || *p == '-') && (p[-1] | 32) == 'e')))
				p++;
			h = number;
		} else {
			k = 1;
			for (size_t i = 0; i < KS_NELEM(ops3) && k == 1; i++)
				if (end - p >= 3 && !memcmp(p, ops3[i], 3))
					k = 3;
			for (size_t i = 0; i < KS_NELEM(ops2) && k == 1; i++)
				if (end - p >= 2 && !memcmp(p, ops2[i], 2))
					k = 2;
			h = fnv(p, k);
			attribute = k == 1 && c == '.';
			p += k;
			goto put;
		}
		attribute = 0;
	put:
		if (*len == *cap) {
			*cap = *cap ? 2 * *cap : 256;
			*t = xrealloc(*t, sizeof **t * *cap);
		}
		(*t)[(*len)++] = h;
	}
	free(nm.s);
	free(nm.n);
}

/* ---- signatures ------------------------------------------------------ */

void near_sig(NearSig *sig, const char *src, size_t n)
{
	uint64_t *t = NULL, min[NEAR_K];
	size_t len = 0, cap = 0;
	tokens(src, n, &t, &len, &cap);
	for (int k = 0; k < NEAR_K; k++)
		min[k] = UINT64_MAX;
	size_t nsh = len < SHINGLE ? 1 : len - SHINGLE + 1;
	for (size_t i = 0; i < nsh; i++) {
		uint64_t h = 0x73686e676cull;
		for (size_t j = i; j < i + SHINGLE && j < len; j++)
			h = mix64(h ^ t[j]);
		for (int k = 0; k < NEAR_K; k++) {
			uint64_t v = mix64(h + 0x9e3779b97f4a7c15ull * (uint64_t)(k + 1));
			if (v < min[k])
				min[k] = v;
		}
	}
	for (int k = 0; k < NEAR_K; k++)
		sig->v[k] = (uint16_t)min[k];
	free(t);
}

void near_hex(char *out, const NearSig *sig)
{
	static const char hx[] = "0123456789abcdef";
	for (int k = 0; k < NEAR_K; k++)
		for (int d = 0; d < 4; d++)
			*out++ = hx[sig->v[k] >> (12 - 4 * d) & 15];
	*out = 0;
}

int near_unhex(NearSig *sig, const char *s, size_t n)
{
	if (n != 4 * NEAR_K)
		return 0;
	for (int k = 0; k < NEAR_K; k++) {
		unsigned v = 0;
		for (int d = 0; d < 4; d++) {
			int c = (unsigned char)*s++, x = c >= '0' && c <= '9'   ? c - '0'
							 : c >= 'a' && c <= 'f' ? c - 'a' + 10
										: -1;
			if (x < 0)
				return 0;
			v = v << 4 | (unsigned)x;
		}
		sig->v[k] = (uint16_t)v;
	}
	return 1;
}

double near_similarity(const NearSig *a, const NearSig *b)
{
	int same = 0;
	for (int k = 0; k < NEAR_K; k++)
		same += a->v[k] == b->v[k];
	return (double)same / NEAR_K;
}

/* ---- kernels of a module ------------------------------------------------ */

static const char *line_end(const char *p, const char *end)
{
	const char *q = memchr(p, '\n', (size_t)(end - p));
	return q ? q + 1 : end;
}

/* The indent of the line at p, or -1 when it holds nothing but a comment
 * or blanks. */
static int indent_of(const char *p, const char *end)
{
	int d = 0;
	for (; p < end && (*p == ' ' || *p == '\t'); p++)
		d += *p == '\t' ? 8 - d % 8 : 1;
	return p == end || *p == '\n' || *p == '\r' || *p == '#' ? -1 : d;
}

/* Whether the line at p (indent skipped) is @wp.kernel or @warp.kernel,
 * with arguments or not. */
static int kernel_decorator(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	size_t n = (size_t)(end - p);
	const char *rest = n >= 10 && !memcmp(p, "@wp.kernel", 10)     ? p + 10
			   : n >= 12 && !memcmp(p, "@warp.kernel", 12) ? p + 12
								       : NULL;
	return rest && (rest == end || !name_char((unsigned char)*rest));
}

/* The brackets a line leaves open (strings and comments aside). */
static int bracket_depth(const char *p, const char *end, int depth)
{
	while (p < end && *p != '\n') {
		if (*p == '\'' || *p == '"') {
			p += string_at(p, end);
			continue;
		}
		if (*p == '#')
			break;
		depth += (*p == '(' || *p == '[' || *p == '{') - (*p == ')' || *p == ']' || *p == '}');
		p++;
	}
	return depth < 0 ? 0 : depth;
}

int near_kernels(const char *src, size_t n, NearKernelFn *fn, void *ctx)
{
	const char *end = src + n, *p = src;
	int count = 0, line = 1;
	while (p < end) {
		if (!kernel_decorator(p, line_end(p, end))) {
			p = line_end(p, end);
			line++;
			continue;
		}
		/* the decorators and the def, then every line indented further
		 * or inside the def's brackets */
		int d = indent_of(p, end), depth = 0, first = line;
		const char *start = p, *stop = p, *name = NULL, *q = p;
		size_t namel = 0;
		for (; q < end; q = line_end(q, end), line++) {
			const char *qe = line_end(q, end);
			int qd = indent_of(q, end);
			if (depth == 0 && qd >= 0 && (name ? qd <= d : qd < d))
				break;
			if (!name && qd == d) {
				const char *w = q;
				while (*w == ' ' || *w == '\t')
					w++;
				if (qe - w > 4 && !memcmp(w, "def ", 4)) {
					for (w += 4; w < qe && *w == ' '; w++)
						;
					for (name = w; w < qe && name_char((unsigned char)*w); w++)
						;
					namel = (size_t)(w - name);
				}
			}
			depth = bracket_depth(q, qe, depth);
			if (qd >= 0 || depth)
				stop = qe;
		}
		p = q;
		if (!name || !namel)
			continue;
		char nm[256];
		snprintf(nm, sizeof nm, "%.*s", (int)(namel < 255 ? namel : 255), name);
		NearSig sig;
		near_sig(&sig, start, (size_t)(stop - start));
		fn(ctx, first, nm, &sig);
		count++;
	}
	return count;
}

/* ---- the index ----------------------------------------------------------- */

/* A band's slot: the band's key and the newest kernel that had it; each
 * kernel's next[] links it to the one before it in the slot of each of
 * its bands. */
typedef struct Slot {
	uint64_t key;
	long head; /* -1: free */
} Slot;

struct NearIndex {
	double threshold;
	int rows, bands;
	NearSig *sig;
	long *root, *next, *stamp;
	long n, cap, tick;
	Slot *slot;
	size_t nslot, used;
};

/* The bands: as few as find a pair at the threshold with probability
 * 0.999 or more, 1 - (1 - J^rows)^bands, so that the pairs compared are
 * few and the pairs missed fewer. */
NearIndex *near_new(double threshold)
{
	NearIndex *ix = xmalloc(sizeof *ix);
	memset(ix, 0, sizeof *ix);
	ix->threshold = threshold;
	ix->rows = 1;
	for (int r = 16; r > 1; r /= 2) {
		double miss = 1, hit = 1;
		for (int k = 0; k < r; k++)
			hit *= threshold;
		for (int b = 0; b < NEAR_K / r; b++)
			miss *= 1 - hit;
		if (miss <= 1e-3) {
			ix->rows = r;
			break;
		}
	}
	ix->bands = NEAR_K / ix->rows;
	return ix;
}

void near_free(NearIndex *ix)
{
	if (!ix)
		return;
	free(ix->sig);
	free(ix->root);
	free(ix->next);
	free(ix->stamp);
	free(ix->slot);
	free(ix);
}

static uint64_t band_key(const NearSig *s, int b, int rows)
{
	uint64_t h = mix64(0x62616e64ull + (uint64_t)b);
	for (int r = 0; r < rows; r++)
		h = mix64(h ^ s->v[b * rows + r]);
	return h;
}

static Slot *slot_of(NearIndex *ix, uint64_t key)
{
	size_t mask = ix->nslot - 1;
	for (size_t i = (size_t)key & mask;; i = (i + 1) & mask)
		if (ix->slot[i].head < 0 || ix->slot[i].key == key)
			return &ix->slot[i];
}

static void grow_slots(NearIndex *ix)
{
	Slot *old = ix->slot;
	size_t nold = ix->nslot;
	ix->nslot = nold ? 2 * nold : 1024;
	ix->slot = xmalloc(sizeof *ix->slot * ix->nslot);
	for (size_t i = 0; i < ix->nslot; i++)
		ix->slot[i].head = -1;
	for (size_t i = 0; i < nold; i++)
		if (old[i].head >= 0)
			*slot_of(ix, old[i].key) = old[i];
	free(old);
}

/* The kernel most like sig among those sharing a band with it, at or
 * over the threshold (the first cluster's, then the most similar), or
 * -1; the new kernel, when add, is linked into its bands' slots. */
static long scan(NearIndex *ix, const NearSig *sig, int add, double *sim)
{
	long best = -1, tick = ++ix->tick;
	double best_sim = 0;
	for (int b = 0; b < ix->bands; b++) {
		uint64_t key = band_key(sig, b, ix->rows);
		Slot *s = slot_of(ix, key);
		int scanned = 0;
		for (long o = s->head; o >= 0 && scanned < NEAR_SCAN; o = ix->next[o * ix->bands + b]) {
			if (ix->stamp[o] == tick)
				continue; /* compared through another band */
			ix->stamp[o] = tick;
			scanned++;
			double q = near_similarity(sig, &ix->sig[o]);
			if (q >= ix->threshold && (best < 0 || ix->root[o] < ix->root[best] ||
						   (ix->root[o] == ix->root[best] && q > best_sim))) {
				best = o;
				best_sim = q;
			}
		}
		if (add) {
			if (s->head < 0) {
				s->key = key;
				ix->used++;
			}
			ix->next[ix->n * ix->bands + b] = s->head;
			s->head = ix->n;
		}
	}
	if (sim)
		*sim = best_sim;
	return best;
}

long near_add(NearIndex *ix, const NearSig *sig, double *sim)
{
	if (ix->n == ix->cap) {
		ix->cap = ix->cap ? 2 * ix->cap : 1024;
		ix->sig = xrealloc(ix->sig, sizeof *ix->sig * (size_t)ix->cap);
		ix->root = xrealloc(ix->root, sizeof *ix->root * (size_t)ix->cap);
		ix->stamp = xrealloc(ix->stamp, sizeof *ix->stamp * (size_t)ix->cap);
		ix->next = xrealloc(ix->next, sizeof *ix->next * (size_t)ix->cap * (size_t)ix->bands);
	}
	if (2 * (ix->used + (size_t)ix->bands) > ix->nslot)
		grow_slots(ix);
	long id = ix->n, o = scan(ix, sig, 1, sim);
	ix->sig[id] = *sig;
	ix->stamp[id] = 0;
	ix->root[id] = o < 0 ? id : ix->root[o];
	ix->n++;
	return o < 0 ? -1 : ix->root[o];
}

long near_find(NearIndex *ix, const NearSig *sig, double *sim) { return ix->nslot ? scan(ix, sig, 0, sim) : -1; }
