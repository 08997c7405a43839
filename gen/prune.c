/*
 * prune.c: drop dead stores from a finished kernel (and its helpers).
 *
 * The generator writes statements before it knows whether a later one
 * reads what they assign.  This pass runs over the text of one kernel
 * (the kernel and its @wp.func helpers), function by function, and drops
 * every assignment to a local that is never read afterwards, to a fixed
 * point:
 *   - a local no statement reads, other than statements that update it
 *     (x = 0.5 * x + e, x += e, x.y = e), loses all its assignments;
 *   - an assignment (x = e, x: T = e, x += e, x.y = e, x[k] = e; a tuple
 *     a, b = f() when none of its targets is read) with no read of its
 *     target textually after it -- or anywhere in an enclosing loop, which
 *     the next iteration reads -- is dropped;
 *   - `x = wp.atomic_add(...)` whose x is dead keeps its call as a
 *     statement;
 *   - an if (without elif/else after it), else or for whose body emptied
 *     is dropped; a block that must stay (elif, if before else) gets
 *     `pass`; a `pass` beside other statements is dropped.
 * It returns 0, so that the kernel is drawn again, when the kernel lost
 * what its category promises, or when a block had to be given a `pass`
 * or a line updates a value by itself (`x = x`, `x -= x`).
 * Right-hand sides are pure (helpers with a result only compute), so
 * dropping them changes no output.  Reads are found as whole words, not
 * after a '.', so the pass is conservative: a read it sees that is not
 * one keeps the assignment.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/gen_int.h"

enum { K_NONE, K_DEF, K_DOC, K_PASS, K_HDR, K_OTHER, K_ASSIGN, K_PART, K_AUG, K_TUPLE };
enum { H_IF = 1, H_ELIF, H_ELSE, H_FOR, H_WHILE };

typedef struct Ln {
	char *s;        /* text after the indentation */
	const char *rd; /* where the reads start (assignments: the right side) */
	int ind, kind, okind, hdr, dead, end;
	int len; /* strlen(s) */
	int lhs; /* K_ASSIGN, K_PART, K_AUG: the length of the target's text */
	int nt;
	char t[3][28];        /* targets (K_ASSIGN, K_PART, K_AUG: t[0] is the base) */
	int tid;              /* K_ASSIGN, K_PART: t[0] in the function's names (nm) */
	unsigned char own;    /* K_PART: t[0] is followed by "[i] = " */
	unsigned char atomic; /* the right side starts with "wp.atomic_" */
	unsigned char jump;   /* the line is "break", "continue" (1) or "return" (2) */
} Ln;

#define MAXL 512

/* character classes: 1 a letter or '_', 2 a digit */
/* clang-format off */
#define ID_(c) ((c) >= 'a' && (c) <= 'z') || ((c) >= 'A' && (c) <= 'Z') || (c) == '_' ? 1 : (c) >= '0' && (c) <= '9' ? 2 : 0
/* clang-format on */
#define ID4_(c) ID_(c), ID_(c + 1), ID_(c + 2), ID_(c + 3)
#define ID16_(c) ID4_(c), ID4_(c + 4), ID4_(c + 8), ID4_(c + 12)
static const unsigned char idc[256] = {
	ID16_(0), ID16_(16), ID16_(32), ID16_(48), ID16_(64), ID16_(80), ID16_(96), ID16_(112),
};

static int is_id(int c) { return idc[c] != 0; }

/* Does S contain W as a whole word that is not an attribute? */
static int word_in(const char *s, const char *w)
{
	size_t wl = strlen(w);
	for (const char *p = s; (p = strstr(p, w)); p++)
		if ((p == s || !(is_id((unsigned char)p[-1]) || p[-1] == '.')) && !is_id((unsigned char)p[wl]))
			return 1;
	return 0;
}

static void classify(Ln *l)
{
	char *s = l->s;
	l->rd = s;
	l->nt = 0;
	if (!*s) {
		l->kind = K_NONE;
		return;
	}
	if (!strncmp(s, "\"\"\"", 3)) {
		l->kind = K_DOC;
		return;
	}
	if (!strcmp(s, "pass")) {
		l->kind = K_PASS;
		return;
	}
	if (!strncmp(s, "def ", 4)) {
		l->kind = K_DEF;
		return;
	}
	/* clang-format off */
	static const struct { const char *p; size_t n; int h; } hd[] = {
		{"if ", 3, H_IF}, {"elif ", 5, H_ELIF}, {"else:", 5, H_ELSE}, {"for ", 4, H_FOR}, {"while ", 6, H_WHILE}};
	/* clang-format on */
	if (strchr("iefw", s[0]))
		for (int k = 0; k < 5; k++)
			if (s[0] == hd[k].p[0] && !memcmp(s, hd[k].p, hd[k].n)) {
				l->kind = K_HDR;
				l->hdr = hd[k].h;
				return;
			}
	l->kind = K_OTHER;
	if (s[0] == 'b' || s[0] == 'c' || s[0] == 'r')
		l->jump = !strcmp(s, "break") || !strcmp(s, "continue") ? 1 : !strcmp(s, "return") ? 2 : 0;
	/* the first assignment operator: " = " or " X= " (==, <=, >=, != are not) */
	const char *best = NULL;
	size_t oplen = 0;
	int aug = 0;
	for (const char *p = s + 1; (p = strchr(p, '=')); p++) {
		if (p[1] != ' ')
			continue;
		if (p[-1] == ' ') {
			best = p - 1, oplen = 3;
			break;
		}
		if (p - s >= 3 && p[-1] == '/' && p[-2] == '/' && p[-3] == ' ') {
			best = p - 3, oplen = 5, aug = 1;
			break;
		}
		if (p - s >= 2 && strchr("+-*/%", p[-1]) && p[-2] == ' ') {
			best = p - 2, oplen = 4, aug = 1;
			break;
		}
	}
	if (!best || !is_id((unsigned char)s[0]) || isdigit((unsigned char)s[0]))
		return;
	for (const char *q = s; q < best; q++)
		if (*q == '(')
			return;
	size_t bl = 0;
	while (is_id((unsigned char)s[bl]))
		bl++;
	if (bl >= sizeof l->t[0])
		return;
	l->rd = best + oplen;
	l->lhs = (int)(best - s);
	l->atomic = !strncmp(l->rd, "wp.atomic_", 10);
	if (aug) {
		l->kind = K_AUG;
	} else if (s[bl] == ',') {
		l->kind = K_TUPLE;
		const char *q = s;
		while (q < best && l->nt < 3) {
			size_t n = 0;
			while (is_id((unsigned char)q[n]))
				n++;
			if (!n || n >= sizeof l->t[0]) {
				l->kind = K_OTHER;
				l->rd = s;
				l->atomic = 0;
				return;
			}
			memcpy(l->t[l->nt], q, n);
			l->t[l->nt++][n] = 0;
			q += n;
			while (q < best && (*q == ',' || *q == ' '))
				q++;
		}
		return;
	} else if (s + bl == best || s[bl] == ':') {
		l->kind = K_ASSIGN;
	} else {
		l->kind = K_PART;
		l->own = !strncmp(s + bl, "[i] = ", 6);
	}
	memcpy(l->t[0], s, bl);
	l->t[0][bl] = 0;
	l->nt = 1;
}

/* The names one function's pass looks up: its locals (at most 64; a
 * function with more is left as it is), the bases of its stores and, for
 * the kernel, its parameters, in a small hash table.  Each line is read
 * once, into bit sets: R[j] the locals it reads, N[j] the names it holds
 * as whole words anywhere (strings included, as word_in() finds them) and
 * Nr[j] those from its right side on.  A name without a bit in N (past
 * 64 of them) is looked for with word_in(). */
typedef struct Name {
	const char *p;
	size_t len;
	int loc; /* its bit in R and W, or -1 (not a local) */
	int bit; /* its bit in N and Nr, or -1 */
} Name;

#define MAXN 255
static Name nm[MAXN];
static int nn, nloc, nbit;
static unsigned char slot[512]; /* index + 1 into nm, 0 when empty */
static uint64_t first[4];       /* the names' first characters */
static uint64_t N[MAXL], Nr[MAXL];

static void names_reset(void)
{
	nn = nloc = nbit = 0;
	memset(slot, 0, sizeof slot);
	memset(first, 0, sizeof first);
}

static unsigned name_hash(const char *p, size_t l)
{
	return (unsigned)l * 97u + (unsigned char)p[0] * 7u + (unsigned char)p[l - 1];
}

static int same_word(const char *a, const char *b, size_t l)
{
	for (size_t k = 0; k < l; k++)
		if (a[k] != b[k])
			return 0;
	return 1;
}

/* The index in nm of the word P[0 .. L), or -1; with ADD, entered when
 * new (-1 only when the table is full). */
static inline int name_find(const char *p, size_t l, int add)
{
	unsigned c = (unsigned char)p[0];
	if (!add && !(first[c >> 6] >> (c & 63) & 1))
		return -1;
	unsigned h = name_hash(p, l) & (sizeof slot - 1);
	for (; slot[h]; h = (h + 1) & (sizeof slot - 1)) {
		const Name *x = &nm[slot[h] - 1];
		if (x->len == l && same_word(x->p, p, l))
			return slot[h] - 1;
	}
	if (!add || nn == MAXN)
		return -1;
	nm[nn] = (Name){p, l, -1, -1};
	slot[h] = (unsigned char)++nn;
	first[c >> 6] |= 1ULL << (c & 63);
	return nn - 1;
}

/* Give name X a bit in N, while there are bits left. */
static void name_bit(int x)
{
	if (x >= 0 && nm[x].bit < 0 && nbit < 64)
		nm[x].bit = nbit++;
}

/* Read line J of the function into R[j] (the locals it reads from RS on,
 * outside strings), N[j] and Nr[j].  A word is a maximal run of letters,
 * digits and '_' not after a '.'; a number (1e-3, 2.5) takes its '.'s. */
static void scan(const Ln *l, size_t rs, uint64_t *r, uint64_t *n, uint64_t *nr)
{
	const char *s = l->s;
	size_t rd = (size_t)(l->rd - s);
	uint64_t mr = 0, mn = 0, mnr = 0;
	int str = 0;
	for (const char *p = s;;) {
		unsigned char ch = (unsigned char)*p;
		int c = idc[ch];
		if (!c) {
			if (ch <= '"') { /* the end, or a string's quote */
				if (!ch)
					break;
				if (ch == '"' && (size_t)(p - s) >= rs)
					str ^= 1;
			}
			p++;
			continue;
		}
		const char *q = p + 1;
		if (c == 2) {
			while (idc[(unsigned char)*q] || *q == '.')
				q++;
			p = q;
			continue;
		}
		while (idc[(unsigned char)*q])
			q++;
		if (p == s || p[-1] != '.') {
			int x = name_find(p, (size_t)(q - p), 0);
			if (x >= 0) {
				size_t at = (size_t)(p - s);
				if (nm[x].bit >= 0) {
					mn |= 1ULL << nm[x].bit;
					if (at >= rd)
						mnr |= 1ULL << nm[x].bit;
				}
				if (nm[x].loc >= 0 && !str && at >= rs)
					mr |= 1ULL << nm[x].loc;
			}
		}
		p = q;
	}
	*r = mr;
	*n = mn;
	*nr = mnr;
}

/* Does line L (index J) name X, from its right side on when RD is set? */
static int names(const Ln *L, int j, int x, int rd)
{
	if (nm[x].bit >= 0)
		return ((rd ? Nr : N)[j] >> nm[x].bit) & 1;
	char w[28];
	memcpy(w, nm[x].p, nm[x].len);
	w[nm[x].len] = 0;
	return word_in(rd ? L[j].rd : L[j].s, w);
}

static void kill(Ln *L, int j)
{
	Ln *l = &L[j];
	if (l->kind == K_ASSIGN && l->atomic) {
		/* the atomic stays; only its old value goes */
		l->len -= (int)(l->rd - l->s);
		l->s = (char *)l->rd;
		N[j] = Nr[j];
		l->kind = K_OTHER; /* nt and t stay: the locals were found by okind */
		return;
	}
	l->dead = 1;
}

/* Text made by the pass (inverted conditions), per kernel. */
static char pool[1 << 16];
static size_t pool_n;

static char *pool_alloc(size_t n)
{
	if (pool_n + n > sizeof pool)
		return NULL;
	pool_n += n;
	return pool + pool_n - n;
}

/* The parameter of a def line at P: its name's length in *NL; returns
 * where it ends (at the next ", " or ")" outside parentheses). */
static const char *param(const char *p, size_t *nl)
{
	const char *q = p;
	for (int depth = 0; *q; q++)
		if (*q == '(')
			depth++;
		else if (*q == ')' && depth)
			depth--;
		else if ((*q == ',' || *q == ')') && !depth)
			break;
	size_t n = 0;
	while (is_id((unsigned char)p[n]))
		n++;
	*nl = n;
	return q;
}

/* The kernel's first parameters as read by prune_func(): where each
 * ends, its name's length and its bit in N (-1 for none); and where the
 * kernel's body ends, kend < 0 when its lines were not read. */
static const char *kq[64];
static size_t knl[64];
static int kbit[64], nkbit, kend = -1;

/* Is line J, a whole assignment of a local (x = e) or a store into an
 * array at the thread's own index (out[i] = e), overwritten before any
 * read: is the next live line that names its target, in the same block
 * and before the function ends (B), the same kind of store without a
 * read of it?  A break or continue between ends the search (the value
 * may flow to the loop's next trip or past it), and for an array, whose
 * value outlives the thread, so does a return. */
static int overwritten(const Ln *L, int j, int b)
{
	const Ln *l = &L[j];
	int x = l->tid;
	int arr;
	if (l->kind == K_ASSIGN)
		arr = 0;
	else if (l->kind == K_PART && l->own)
		arr = 1;
	else
		return 0;
	if (l->atomic)
		return 0;
	for (int k = j + 1; k < b; k++) {
		const Ln *m = &L[k];
		if (m->dead || m->kind == K_NONE)
			continue;
		if (m->ind < l->ind)
			return 0;
		if (m->jump == 1 || (arr && m->jump == 2))
			return 0;
		if (m->ind == l->ind && m->kind == l->kind && m->tid == x && (!arr || m->own))
			return !names(L, k, x, 1);
		if (names(L, k, x, 0))
			return 0;
	}
	return 0;
}

static void prune_func(Ln *L, int a, int b, int kernel)
{
	static uint64_t R[MAXL], W[MAXL], S[MAXL + 1];
	static int from[MAXL];
	names_reset();
	/* the locals: targets of whole assignments, not parameters */
	for (int j = a + 1; j < b; j++)
		if (L[j].okind == K_ASSIGN || L[j].okind == K_TUPLE)
			for (int k = 0; k < L[j].nt; k++) {
				const char *t = L[j].t[k];
				size_t tl = strlen(t);
				if (name_find(t, tl, 0) >= 0)
					continue;
				int x = name_find(t, tl, 1);
				if (x < 0)
					return; /* past MAXN names: more than 190 parameters */
				if (word_in(L[a].s, t))
					continue;
				if (nloc == 64)
					return;
				nm[x].loc = nloc++;
			}
	/* the stores' bases, then the kernel's parameters, get bits in N */
	for (int j = a + 1; j < b; j++)
		if (L[j].okind == K_ASSIGN || L[j].okind == K_PART) {
			L[j].tid = name_find(L[j].t[0], strlen(L[j].t[0]), 1);
			if (L[j].tid < 0)
				return;
			name_bit(L[j].tid);
		}
	if (kernel) {
		const char *p = strchr(L[a].s, '(');
		for (p = p ? p + 1 : ""; *p && *p != ')' && nkbit < 64;) {
			size_t nl;
			const char *q = param(p, &nl);
			int x = nl && nl < 64 ? name_find(p, nl, 1) : -1;
			name_bit(x);
			kq[nkbit] = q;
			knl[nkbit] = nl;
			kbit[nkbit++] = x >= 0 ? nm[x].bit : -1;
			p = *q == ',' ? q + 2 : q;
			if (p > L[a].s + L[a].len)
				break;
		}
		kend = b;
	}
	for (int j = a; j < b; j++) {
		Ln *l = &L[j];
		l->end = j;
		if (l->kind == K_HDR || l->kind == K_DEF)
			for (int m = j + 1; m < b && L[m].ind > l->ind; m++)
				l->end = m;
		/* an assignment reads its right side; an update (x.y = e,
		 * x += e) reads what it updates too */
		size_t rs = l->kind == K_ASSIGN || l->kind == K_TUPLE ? (size_t)(l->rd - l->s) : 0;
		R[j] = N[j] = Nr[j] = 0;
		if (j != a && l->kind != K_NONE) /* the def line is never searched */
			scan(l, rs, &R[j], &N[j], &Nr[j]);
		if (l->kind < K_HDR)
			R[j] = 0;
		W[j] = 0;
		if (l->kind >= K_ASSIGN) {
			for (int k = 0; k < l->nt; k++) {
				int x = name_find(l->t[k], strlen(l->t[k]), 0);
				if (x >= 0 && nm[x].loc >= 0)
					W[j] |= 1ULL << nm[x].loc;
				else if (l->kind != K_TUPLE)
					W[j] = 0; /* a parameter's element: never dropped */
			}
		}
	}
	/* the outermost loop around each line: its reads count */
	for (int j = a; j < b; j++)
		from[j] = j + 1;
	for (int h = a + 1; h < b; h++)
		if (L[h].kind == K_HDR && (L[h].hdr == H_FOR || L[h].hdr == H_WHILE))
			for (int m = h + 1; m <= L[h].end; m++)
				if (from[m] == m + 1)
					from[m] = h;
	for (int changed = 1; changed;) {
		changed = 0;
		/* a local nothing but its own updates reads */
		uint64_t ess = 0;
		for (int j = a + 1; j < b; j++)
			if (!L[j].dead)
				ess |= R[j] & ~W[j];
		for (int j = a + 1; j < b; j++)
			if (!L[j].dead && L[j].kind >= K_ASSIGN && W[j] && !(W[j] & ess)) {
				kill(L, j);
				if (L[j].kind == K_OTHER) /* an atomic kept as a call */
					W[j] = 0;
				changed = 1;
			}
		/* an assignment nothing after it (or in its loop) reads */
		S[b] = 0;
		for (int j = b - 1; j > a; j--)
			S[j] = S[j + 1] | (L[j].dead ? 0 : R[j]);
		for (int j = a + 1; j < b; j++)
			if (!L[j].dead && L[j].kind >= K_ASSIGN && W[j] && !(W[j] & S[from[j]])) {
				kill(L, j);
				if (L[j].kind == K_OTHER)
					W[j] = 0;
				changed = 1;
			}
		/* an assignment overwritten before any read */
		for (int j = a + 1; j < b; j++)
			if (!L[j].dead && overwritten(L, j, b)) {
				kill(L, j);
				changed = 1;
			}
		/* blocks emptied: drop the if, else or for */
		for (int j = a + 1; j < b; j++) {
			Ln *h = &L[j];
			if (h->dead || h->kind != K_HDR || h->hdr == H_ELIF || h->hdr == H_WHILE)
				continue;
			int live = 0, killed = 0;
			for (int m = j + 1; m <= h->end; m++) {
				if (L[m].dead)
					killed = 1;
				else if (L[m].kind != K_PASS &&
					 !(h->hdr == H_FOR && (L[m].kind == K_HDR || L[m].jump == 1)))
					live = 1;
			}
			/* a for whose body only breaks or continues does nothing */
			if (live || (!killed && h->hdr != H_FOR))
				continue;
			if (h->hdr == H_IF) {
				int m = h->end + 1;
				while (m < b && L[m].dead)
					m++;
				if (m < b && L[m].ind == h->ind && L[m].kind == K_HDR && L[m].hdr == H_ELIF)
					continue;
				if (m < b && L[m].ind == h->ind && L[m].kind == K_HDR && L[m].hdr == H_ELSE) {
					/* if c: (nothing) else: body  ->  if not (c): body */
					const char *c = h->s + 3;
					size_t cl = strlen(c) - 1; /* without the ':' */
					char *t = pool_alloc(cl + 12);
					if (!t)
						continue;
					if (!strncmp(c, "not ", 4) && !strstr(c, " and ") && !strstr(c, " or ") &&
					    !strstr(c, " if "))
						snprintf(t, cl + 12, "if %.*s:", (int)(cl - 4), c + 4);
					else
						snprintf(t, cl + 12, "if not (%.*s):", (int)cl, c);
					h->s = t;
					h->rd = t;
					h->len = (int)strlen(t);
					scan(h, 0, &R[j], &N[j], &Nr[j]);
					for (int k = j + 1; k <= h->end; k++)
						L[k].dead = 1;
					L[m].dead = 1;
					h->end = L[m].end;
					changed = 1;
					continue;
				}
			}
			for (int m = j; m <= h->end; m++)
				L[m].dead = 1;
			changed = 1;
		}
	}
}

/* The kernel's parameters that no line of its body names go from its
 * def line (an input array or a scalar the pruned body no longer reads). */
static void drop_unused_params(Ln *L, int kdef, int n)
{
	const char *s = L[kdef].s;
	const char *open = strchr(s, '(');
	if (!open)
		return;
	/* the names its body's live lines hold, as read by prune_func() */
	uint64_t used_bits = 0;
	int b = kend >= 0 ? kend : kdef + 1;
	for (int j = kdef + 1; j < b; j++)
		if (!L[j].dead)
			used_bits |= N[j];
	size_t len = (size_t)L[kdef].len;
	char *t = pool_alloc(len + 1);
	if (!t)
		return;
	size_t tn = (size_t)(open + 1 - s);
	memcpy(t, s, tn);
	int kept = 0, dropped = 0, k = 0;
	for (const char *p = open + 1; *p && *p != ')'; k++) {
		/* one parameter: up to the next ", " or ")" outside parentheses */
		size_t nl;
		const char *q = kend >= 0 && k < nkbit ? (nl = knl[k], kq[k]) : param(p, &nl);
		char name[64];
		int used = 1;
		if (nl && nl < sizeof name) {
			memcpy(name, p, nl);
			name[nl] = 0;
			int bit = kend >= 0 && k < nkbit ? kbit[k] : -1;
			used = bit >= 0 && (used_bits >> bit & 1);
			for (int j = bit >= 0 ? b : kdef + 1; j < n && !used; j++)
				used = !L[j].dead && word_in(L[j].s, name);
		}
		if (used) {
			if (kept++) {
				memcpy(t + tn, ", ", 2);
				tn += 2;
			}
			memcpy(t + tn, p, (size_t)(q - p));
			tn += (size_t)(q - p);
		} else
			dropped = 1;
		p = *q == ',' ? q + 2 : q;
		if (p > s + len)
			break;
	}
	if (!dropped)
		return;
	const char *close = strrchr(s, ')');
	memcpy(t + tn, close, strlen(close) + 1);
	L[kdef].s = t;
	L[kdef].len = (int)strlen(t);
}

/* Does a line of the kernel body hold what category CAT promises: a loop,
 * an if, an augmented assignment, a component store, a helper call? */
static int promised(const Ln *l, int cat)
{
	switch (cat) {
	case CAT_LOOP:
		return l->kind == K_HDR && (l->hdr == H_FOR || l->hdr == H_WHILE);
	case CAT_CONTROL_FLOW:
		return l->kind == K_HDR && l->hdr == H_IF;
	case CAT_INPLACE:
		return l->kind == K_AUG;
	case CAT_VECTOR:
	case CAT_MATRIX:
		return l->kind == K_PART && strncmp(l->s + strlen(l->t[0]), "[i] ", 4);
	case CAT_FUNCTION:
		/* a call of a helper: NAME_INDEX( */
		for (const char *u = strchr(l->s, '_'); u; u = strchr(u + 1, '_')) {
			const char *d = u + 1;
			while (isdigit((unsigned char)*d))
				d++;
			if (d > u + 1 && *d == '(')
				return 1;
		}
		return 0;
	default: /* arithmetic, math, atomic (never dropped), combined */
		return 1;
	}
}

/* Is L an update of a value by itself that says nothing: `x = x`,
 * `f[i] = f[i]`, `x -= x` (0), `x /= x` (1)? */
static int self_update(const Ln *l)
{
	if (l->kind != K_ASSIGN && l->kind != K_PART && l->kind != K_AUG)
		return 0;
	const char *op = l->s + l->lhs + 1;
	if (l->kind == K_AUG && *op != '-' && *op != '/' && *op != '%')
		return 0;
	return l->len - (int)(l->rd - l->s) == l->lhs && !memcmp(l->s, l->rd, (size_t)l->lhs);
}

/* Write S (L bytes) indented by IND and a newline. */
static void put_line(Buf *out, size_t ind, const char *s, size_t l)
{
	static const char sp[] = "                                                                ";
	for (; ind > 64; ind -= 64)
		buf_put(out, sp, 64);
	char b[256];
	if (ind + l + 1 > sizeof b) {
		buf_put(out, sp, ind);
		buf_put(out, s, l);
		buf_put(out, "\n", 1);
		return;
	}
	memset(b, ' ', ind);
	memcpy(b + ind, s, l);
	b[ind + l] = '\n';
	buf_put(out, b, ind + l + 1);
}

int gen_prune(Buf *out, size_t start, int cat)
{
	static Ln L[MAXL];
	static char *txt;
	static size_t cap;
	pool_n = 0;
	kend = -1;
	nkbit = 0;
	size_t len = out->n - start;
	if (len + 1 > cap) {
		cap = 2 * (len + 1);
		free(txt);
		txt = malloc(cap);
		if (!txt)
			ks_fatal("out of memory");
	}
	memcpy(txt, out->p + start, len);
	txt[len] = 0;
	int n = 0, kdef = -1;
	for (char *p = txt; *p && n < MAXL;) {
		char *e = memchr(p, '\n', (size_t)(txt + len - p));
		if (e)
			*e = 0;
		Ln *l = &L[n++];
		memset(l, 0, sizeof *l);
		int ind = 0;
		while (p[ind] == ' ')
			ind++;
		l->ind = ind;
		l->s = p + ind;
		l->len = (int)((e ? e : txt + len) - l->s);
		classify(l);
		l->okind = l->kind;
		if (l->kind == K_DEF && !ind && n >= 2 && !strcmp(L[n - 2].s, "@wp.kernel"))
			kdef = n - 1;
		if (!e)
			break;
		p = e + 1;
	}
	if (n >= MAXL) /* too long to be sure of: leave it as it is */
		return 1;
	for (int j = 0; j < n; j++) {
		if (L[j].kind != K_DEF || L[j].ind)
			continue;
		int b = j + 1;
		while (b < n && L[b].ind > 0)
			b++;
		prune_func(L, j, b, j == kdef);
	}
	if (kdef >= 0)
		drop_unused_params(L, kdef, n);
	/* write back: dead lines out, a lone pass kept, an emptied block gets
	 * one; count the kernel's body lines and look for its promise.  A
	 * block the pass emptied, or a value updated by itself, makes the
	 * kernel one to draw again (a branch that does nothing reads as
	 * noise, not as code). */
	int found = kdef < 0, lines = 0, blemish = 0;
	out->n = start;
	for (int j = 0; j < n; j++) {
		Ln *l = &L[j];
		if (l->dead)
			continue;
		if (l->kind == K_PASS) {
			int other = 0;
			for (int m = j - 1; m >= 0 && L[m].ind >= l->ind && !other; m--)
				other = !L[m].dead && L[m].ind == l->ind && L[m].kind != K_PASS;
			for (int m = j + 1; m < n && L[m].ind >= l->ind && !other; m++)
				other = !L[m].dead && L[m].ind == l->ind && L[m].kind != K_PASS;
			if (other)
				continue;
		}
		if (kdef >= 0 && j > kdef) {
			lines += l->kind != K_NONE && l->kind != K_DOC;
			found = found || promised(l, cat);
		}
		put_line(out, (size_t)l->ind, l->s, (size_t)l->len);
		blemish |= self_update(l);
		if (l->kind == K_HDR) {
			int m = j + 1;
			while (m < n && L[m].dead)
				m++;
			if (m >= n || L[m].ind <= l->ind) {
				put_line(out, (size_t)l->ind + 4, "pass", 4);
				lines += kdef >= 0 && j > kdef;
				blemish = 1;
			}
		}
	}
	return kdef < 0 || (found && lines >= 4 && !blemish);
}
