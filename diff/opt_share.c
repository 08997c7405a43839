/*
 * opt_share.c: sharing variables, and their names.
 *
 * The transform numbers every version of a source variable (`acc_1`,
 * `acc_2`, `adj_acc_3`) and copies them into one another; a person writes
 * one `acc` and one `adj_acc`.  The versions of one source variable (the
 * same base name before kdiff's number, the same type, both for-loop
 * variables or neither) form a group, joined by copies that involve a
 * name kdiff made up, never two source names in one group; so do the
 * variables of one name kdiff made up that no copy joined to a source
 * name.  Within a group, from liveness (live_scan: a definition
 * interferes with what is live after it, but a copy with its source),
 * each member in turn joins the first class none of whose members it
 * interferes with, unless the variable shared would have to be declared
 * apart from where it is first assigned when the two need not be; a loop
 * handle of the tape shares only with handles of its own loop, and loop
 * variables of nested loops never share.  A class takes the best base
 * name of its members (a source name over one kdiff made up), plain for
 * the first class of that name, then `_2`, `_3`; a copy of a variable
 * into itself goes, and the variables left unused become temps.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opt.h"

/* v's name before kdiff numbered it */
static const char *base_name(const Opt *O, int v)
{
	if (v < O->di->n && O->di->base[v])
		return O->di->base[v];
	return V(O, v)->name;
}

typedef struct Share {
	int *grp;               /* per value: its group (union-find), or -1 */
	int *order;             /* per value: walk order of its first definition */
	int *loopbeg, *loopend; /* for-loop variables: the walk interval of their loop */
	uint8_t *forvar;
	int *loopid;           /* loop handles of the tape: the loop ID of their tape_loop, else -1 */
	const char **src;      /* per group root: the source name it holds, or NULL */
	int *members, *mstart; /* group members, in order */
	/* interference between members of a group: a hash set of pairs */
	uint64_t *edge;
	int capedge, nedge;
	int walk;
	/* where a variable's occurrences are: the path from the body to the
	 * innermost block holding them all (Scope), and the walk's path */
	struct Scope *sc;
	const Block *pb[256];
	int pi[256], plen;
} Share;

/* The innermost block holding a variable's occurrences: b[len-1], between
 * its statements lo and hi; b[k], i[k] for k < len-1 the path to it. */
typedef struct Scope {
	const Block **b;
	int *i;
	int len, lo, hi;
} Scope;

/* Widen scope x to hold the occurrences of scope y too. */
static void scope_join(Scope *x, const Scope *y)
{
	if (!y->len)
		return;
	if (!x->len) {
		x->b = xrealloc(x->b, (size_t)y->len * sizeof *x->b);
		x->i = xrealloc(x->i, (size_t)y->len * sizeof *x->i);
		memcpy(x->b, y->b, (size_t)y->len * sizeof *x->b);
		memcpy(x->i, y->i, (size_t)y->len * sizeof *x->i);
		x->len = y->len;
		x->lo = y->lo;
		x->hi = y->hi;
		return;
	}
	int c = 0;
	while (c < x->len && c < y->len && x->b[c] == y->b[c]) {
		int xl = c == x->len - 1, yl = c == y->len - 1;
		if (xl || yl || x->i[c] != y->i[c])
			break;
		c++;
	}
	if (c < x->len && c < y->len && x->b[c] == y->b[c]) {
		/* the same block: from the first of their statements to the last */
		int xlo = c == x->len - 1 ? x->lo : x->i[c], xhi = c == x->len - 1 ? x->hi : x->i[c];
		int ylo = c == y->len - 1 ? y->lo : y->i[c], yhi = c == y->len - 1 ? y->hi : y->i[c];
		x->len = c + 1;
		x->lo = xlo < ylo ? xlo : ylo;
		x->hi = xhi > yhi ? xhi : yhi;
		return;
	}
	/* different blocks under the statement at c - 1 */
	x->len = c;
	x->lo = x->hi = x->i[c - 1];
}

static void occurs(Opt *O, Share *s, int v)
{
	if (!is_var(O, v))
		return;
	Scope y = {s->pb, s->pi, s->plen, s->pi[s->plen - 1], s->pi[s->plen - 1]};
	scope_join(&s->sc[v], &y);
}

static int find(int *p, int x)
{
	while (p[x] != x) {
		p[x] = p[p[x]];
		x = p[x];
	}
	return x;
}

static uint64_t pair(int a, int b)
{
	if (a > b) {
		int t = a;
		a = b;
		b = t;
	}
	return ((uint64_t)(uint32_t)a << 32 | (uint32_t)b) + 1;
}

static size_t phash(uint64_t k, int cap) { return (size_t)((k * 0x9e3779b97f4a7c15ull) >> 17) & (size_t)(cap - 1); }

static void edge_add(Share *s, int a, int b)
{
	if (2 * (s->nedge + 1) > s->capedge) {
		int cap = s->capedge ? 2 * s->capedge : 256;
		uint64_t *e = xmalloc((size_t)cap * sizeof *e);
		memset(e, 0, (size_t)cap * sizeof *e);
		for (int i = 0; i < s->capedge; i++)
			if (s->edge[i]) {
				size_t h = phash(s->edge[i], cap);
				while (e[h])
					h = (h + 1) & (size_t)(cap - 1);
				e[h] = s->edge[i];
			}
		free(s->edge);
		s->edge = e;
		s->capedge = cap;
	}
	uint64_t k = pair(a, b);
	size_t h = phash(k, s->capedge);
	while (s->edge[h] && s->edge[h] != k)
		h = (h + 1) & (size_t)(s->capedge - 1);
	if (!s->edge[h]) {
		s->edge[h] = k;
		s->nedge++;
	}
}

static int edge_has(const Share *s, int a, int b)
{
	if (!s->capedge)
		return 0;
	uint64_t k = pair(a, b);
	size_t h = phash(k, s->capedge);
	while (s->edge[h]) {
		if (s->edge[h] == k)
			return 1;
		h = (h + 1) & (size_t)(s->capedge - 1);
	}
	return 0;
}

/* the interference of a definition with what is live after it */
static void interfere(void *ctx, const Inst *in, const LiveWord *live)
{
	Share *s = ctx;
	for (int k = 0; k < in->nres; k++) {
		int r = in->res[k];
		if (s->grp[r] < 0)
			continue;
		int g = s->grp[r];
		for (int j = s->mstart[g]; j < s->mstart[g + 1]; j++) {
			int u = s->members[j];
			if (u == r || !live_has(live, u))
				continue;
			if (in->op == OP_MOV && in->arg[0] == u)
				continue;
			edge_add(s, r, u);
		}
	}
}

static void walk_order(Opt *O, Share *s, const Block *b)
{
	if (s->plen >= 256)
		ks_fatal("kdiff: blocks nested too deep");
	for (int i = 0; i < b->n; i++) {
		const Inst *in = &b->v[i];
		int me = s->walk++;
		for (int k = 0; k < in->nres; k++)
			if (s->order[in->res[k]] < 0)
				s->order[in->res[k]] = me;
		if (in->op == OP_TAPE_LOOP)
			s->loopid[in->res[0]] = V(O, in->arg[0])->k.i;
		s->pb[s->plen] = b;
		s->pi[s->plen++] = i;
		for (int k = 0; k < in->nres; k++)
			occurs(O, s, in->res[k]);
		for (int k = 0; k < in->narg; k++)
			occurs(O, s, in->arg[k]);
		walk_order(O, s, &in->body);
		walk_order(O, s, &in->els);
		s->plen--;
		if (in->op == OP_FOR) {
			s->forvar[in->res[0]] = 1;
			if (s->loopbeg[in->res[0]] < 0)
				s->loopbeg[in->res[0]] = me;
			s->loopend[in->res[0]] = s->walk;
		}
	}
}

/* Can the emitters declare a variable of scope x, whose members have
 * representative cls (rep[]), where it is first assigned: is the first
 * statement of its block a plain assignment of it (or the for loop of its
 * variable, holding all its uses)? */
static int declarable(const Opt *O, const Scope *x, const int *rep, int cls)
{
	if (!x->len)
		return 1;
	const Inst *in = &x->b[x->len - 1]->v[x->lo];
	if (in->op == OP_FOR)
		return x->lo == x->hi && rep[in->res[0]] == cls;
	if (in->op == OP_IF || in->op == OP_LOOP)
		return 0;
	for (int k = 0; k < in->nres; k++)
		if (is_var(O, in->res[k]) && rep[in->res[k]] == cls)
			return 1;
	return 0;
}

typedef struct Copies {
	Opt *O;
	Share *s;
	int *uf;
} Copies;

/* A copy of a variable into another of its type puts the two in one
 * group (uf), unless both are source versions, or two source names would
 * meet, or one is a for loop's variable. */
static int copies(void *ctx, const Inst *in)
{
	Copies *cp = ctx;
	Opt *O = cp->O;
	Share *s = cp->s;
	int *uf = cp->uf;
	if (in->op == OP_MOV && is_var(O, in->res[0]) && is_var(O, in->arg[0])) {
		int a = in->res[0], c = in->arg[0];
		int internal = !(flag(O, a) & DV_SOURCE) || !(flag(O, c) & DV_SOURCE);
		int ra = find(uf, a), rc = find(uf, c);
		/* never two source names in one group: adj_err is
		 * not to be named adj_energy where it is copied */
		int clash = s->src[ra] && s->src[rc] && strcmp(s->src[ra], s->src[rc]);
		if (T(O, a) == T(O, c) && internal && !clash && !s->forvar[a] && !s->forvar[c]) {
			uf[ra] = rc;
			if (!s->src[rc])
				s->src[rc] = s->src[ra];
		}
	}
	return 0;
}

static int same_base(const Opt *O, int a, int b)
{
	const char *x = base_name(O, a), *y = base_name(O, b);
	return x && y && !strcmp(x, y);
}

static void rename_block(Opt *O, Block *b, const int *to)
{
	int n = 0;
	for (int i = 0; i < b->n; i++) {
		Inst *in = &b->v[i];
		for (int k = 0; k < in->nres; k++)
			in->res[k] = to[in->res[k]];
		for (int k = 0; k < in->narg; k++)
			in->arg[k] = to[in->arg[k]];
		rename_block(O, &in->body, to);
		rename_block(O, &in->els, to);
		if (in->op == OP_MOV && in->res[0] == in->arg[0])
			continue;
		b->v[n++] = *in;
	}
	b->n = n;
}

/* A set of names, hashed: take(s) adds s and says whether it was free. */
typedef struct Names {
	const char **slot;
	int cap;
} Names;

static int take(Names *ns, const char *s, int add)
{
	size_t h = (size_t)ks_hash64(s, strlen(s), 0) & (size_t)(ns->cap - 1);
	while (ns->slot[h]) {
		if (!strcmp(ns->slot[h], s))
			return 0;
		h = (h + 1) & (size_t)(ns->cap - 1);
	}
	if (add)
		ns->slot[h] = s;
	return 1;
}

/* Join the variables of one base name and type (both for-loop variables
 * or neither): with src, those whose name is a source name (in names);
 * else those of a group that holds no source name, by the base name of
 * each. */
static void by_name(Opt *O, Share *s, int *uf, Names *names, int src)
{
	int nv = O->f->nval, hcap = 64;
	while (hcap < 2 * nv + 2)
		hcap *= 2;
	int *slot = xmalloc((size_t)hcap * sizeof *slot);
	for (int i = 0; i < hcap; i++)
		slot[i] = -1;
	for (int v = 0; v < nv; v++) {
		const char *bn = base_name(O, v);
		if (!is_var(O, v) || s->order[v] < 0 || !bn)
			continue;
		if (src ? take(names, bn, 0) : s->src[find(uf, v)] != NULL)
			continue;
		size_t h = (size_t)ks_hash64(bn, strlen(bn), (uint64_t)T(O, v) * 2 + s->forvar[v]) &
			   (size_t)(hcap - 1);
		for (;; h = (h + 1) & (size_t)(hcap - 1)) {
			int u = slot[h];
			if (u < 0) {
				slot[h] = v;
				break;
			}
			if (T(O, u) == T(O, v) && s->forvar[u] == s->forvar[v] && same_base(O, u, v)) {
				uf[find(uf, v)] = find(uf, u);
				break;
			}
		}
	}
	free(slot);
}

void share(Opt *O)
{
	Func *f = O->f;
	int nv = f->nval;
	Share s = {0};
	s.grp = xmalloc((size_t)(nv + 1) * sizeof *s.grp);
	s.order = xmalloc((size_t)(nv + 1) * sizeof *s.order);
	s.loopbeg = xmalloc((size_t)(nv + 1) * sizeof *s.loopbeg);
	s.loopend = xmalloc((size_t)(nv + 1) * sizeof *s.loopend);
	s.forvar = xmalloc((size_t)nv + 1);
	memset(s.forvar, 0, (size_t)nv + 1);
	s.loopid = xmalloc((size_t)(nv + 1) * sizeof *s.loopid);
	s.sc = xmalloc((size_t)(nv + 1) * sizeof *s.sc);
	memset(s.sc, 0, (size_t)(nv + 1) * sizeof *s.sc);
	for (int v = 0; v < nv; v++)
		s.order[v] = s.loopbeg[v] = s.loopend[v] = s.loopid[v] = -1;
	live_pass(O); /* what the peepholes left unread goes first */
	walk_order(O, &s, &f->body);
	/* groups: the versions of a source variable (the same base name and
	 * type, and both for-loop variables or neither), joined by copies
	 * that involve a name kdiff made up, but never two source names in
	 * one group; then the variables of one name kdiff made up (adj_carry,
	 * trips) that no copy joined to a source name */
	int *uf = xmalloc((size_t)(nv + 1) * sizeof *uf);
	for (int v = 0; v < nv; v++)
		uf[v] = v;
	Names srcnames = {NULL, 64};
	while (srcnames.cap < 2 * nv + 2)
		srcnames.cap *= 2;
	srcnames.slot = xmalloc((size_t)srcnames.cap * sizeof *srcnames.slot);
	memset(srcnames.slot, 0, (size_t)srcnames.cap * sizeof *srcnames.slot);
	for (int v = 0; v < nv; v++)
		if (is_var(O, v) && (flag(O, v) & DV_SOURCE) && base_name(O, v))
			take(&srcnames, base_name(O, v), 1);
	s.src = xmalloc((size_t)(nv + 1) * sizeof *s.src);
	for (int v = 0; v < nv; v++)
		s.src[v] = NULL;
	by_name(O, &s, uf, &srcnames, 1);
	for (int v = 0; v < nv; v++)
		if (is_var(O, v) && s.order[v] >= 0 && base_name(O, v) && !take(&srcnames, base_name(O, v), 0))
			s.src[find(uf, v)] = base_name(O, v);
	Copies cp = {O, &s, uf};
	ir_walk_const(&f->body, copies, &cp);
	by_name(O, &s, uf, &srcnames, 0);
	free(srcnames.slot);
	free(s.src);
	int ng = 0;
	int *gid = xmalloc((size_t)(nv + 1) * sizeof *gid);
	for (int v = 0; v < nv; v++)
		gid[v] = -1;
	for (int v = 0; v < nv; v++) {
		s.grp[v] = -1;
		if (!is_var(O, v) || s.order[v] < 0)
			continue;
		int r = find(uf, v);
		if (gid[r] < 0)
			gid[r] = ng++;
		s.grp[v] = gid[r];
	}
	free(gid);
	free(uf);
	s.mstart = xmalloc((size_t)(ng + 2) * sizeof *s.mstart);
	memset(s.mstart, 0, (size_t)(ng + 2) * sizeof *s.mstart);
	for (int v = 0; v < nv; v++)
		if (s.grp[v] >= 0)
			s.mstart[s.grp[v] + 1]++;
	for (int g = 0; g < ng; g++)
		s.mstart[g + 1] += s.mstart[g];
	s.members = xmalloc((size_t)(s.mstart[ng] + 1) * sizeof *s.members);
	int *fill = xmalloc((size_t)(ng + 1) * sizeof *fill);
	memcpy(fill, s.mstart, (size_t)ng * sizeof *fill);
	/* members in order of first definition */
	int *byorder = xmalloc((size_t)(nv + 1) * sizeof *byorder);
	int nb = 0;
	for (int v = 0; v < nv; v++)
		if (s.grp[v] >= 0)
			byorder[nb++] = v;
	for (int i = 1; i < nb; i++) {
		int x = byorder[i], j = i - 1;
		while (j >= 0 && s.order[byorder[j]] > s.order[x]) {
			byorder[j + 1] = byorder[j];
			j--;
		}
		byorder[j + 1] = x;
	}
	for (int i = 0; i < nb; i++)
		s.members[fill[s.grp[byorder[i]]]++] = byorder[i];
	free(fill);
	/* interference, from liveness (which must not move a statement now) */
	live_scan(f, O->di->callfx, interfere, &s);
	/* classes: greedily, each member into the first class it can share */
	int *to = xmalloc((size_t)(nv + 1) * sizeof *to);
	for (int v = 0; v < nv; v++)
		to[v] = v;
	int *cls = xmalloc((size_t)(nb + 1) * sizeof *cls);   /* class reps of the group at hand */
	Scope *csc = xmalloc((size_t)(nb + 1) * sizeof *csc); /* and their scopes */
	int *rep = xmalloc((size_t)(nv + 1) * sizeof *rep);
	for (int v = 0; v < nv; v++)
		rep[v] = v;
	Scope tmp = {0};
	for (int g = 0; g < ng; g++) {
		int nc = 0;
		for (int j = s.mstart[g]; j < s.mstart[g + 1]; j++) {
			int v = s.members[j], c;
			for (c = 0; c < nc; c++) {
				int ok = 1;
				for (int q = s.mstart[g]; q < j && ok; q++) {
					int u = s.members[q];
					if (rep[u] != cls[c])
						continue;
					if (edge_has(&s, u, v))
						ok = 0;
					/* a loop handle of the tape belongs to one loop */
					if (s.loopid[u] != s.loopid[v])
						ok = 0;
					/* loop variables of nested loops cannot share */
					if (s.forvar[v] && s.loopbeg[u] <= s.loopbeg[v] &&
					    s.loopend[v] <= s.loopend[u])
						ok = 0;
					if (s.forvar[v] && s.loopbeg[v] <= s.loopbeg[u] &&
					    s.loopend[u] <= s.loopend[v])
						ok = 0;
				}
				if (!ok)
					continue;
				/* not when the variable shared would have to be
				 * declared apart from where it is first assigned,
				 * and the two need not */
				tmp.len = 0;
				scope_join(&tmp, &csc[c]);
				scope_join(&tmp, &s.sc[v]);
				rep[v] = cls[c];
				int joint = declarable(O, &tmp, rep, cls[c]);
				rep[v] = v;
				int alone = declarable(O, &csc[c], rep, cls[c]) || declarable(O, &s.sc[v], rep, v);
				if (joint || !alone)
					break;
			}
			if (c == nc) {
				cls[nc] = v;
				csc[nc] = (Scope){0};
				scope_join(&csc[nc], &s.sc[v]);
				nc++;
			} else {
				scope_join(&csc[c], &s.sc[v]);
			}
			rep[v] = cls[c];
			to[v] = cls[c];
		}
		for (int c = 0; c < nc; c++) {
			free(csc[c].b);
			free(csc[c].i);
		}
	}
	free(tmp.b);
	free(tmp.i);
	free(csc);
	/* names: the class's best base (a source name over one kdiff made
	 * up), plain for the first class of that name, then _2, _3 */
	Names names = {NULL, 64};
	while (names.cap < 2 * (nb + f->nparam) + 2)
		names.cap *= 2;
	names.slot = xmalloc((size_t)names.cap * sizeof *names.slot);
	memset(names.slot, 0, (size_t)names.cap * sizeof *names.slot);
	for (int i = 0; i < f->nparam; i++)
		take(&names, f->val[f->param[i]].name, 1);
	for (int i = 0; i < nb; i++) {
		int v = byorder[i];
		if (to[v] != v)
			continue;
		/* the best name among the class */
		const char *best = NULL;
		for (int j = 0; j < nb; j++) {
			int u = byorder[j];
			if (to[u] != v)
				continue;
			const char *bn = base_name(O, u);
			if (!bn)
				continue;
			if (!best ||
			    ((flag(O, u) & DV_SOURCE) && !(flag(O, v) & DV_SOURCE) && best == base_name(O, v)))
				best = bn;
			if (flag(O, u) & DV_SOURCE) {
				best = bn;
				break;
			}
		}
		if (!best)
			best = "v";
		char buf[200];
		snprintf(buf, sizeof buf, "%.150s", best);
		for (int k = 2; !take(&names, buf, 0); k++)
			snprintf(buf, sizeof buf, "%.150s_%d", best, k);
		char *nm = arena(O, strlen(buf) + 1);
		memcpy(nm, buf, strlen(buf) + 1);
		take(&names, nm, 1);
		V(O, v)->name = nm;
	}
	rename_block(O, &f->body, to);
	/* the variables left unused are no longer named */
	for (int v = 0; v < nv; v++)
		if (is_var(O, v) && (to[v] != v || s.order[v] < 0)) {
			V(O, v)->kind = VK_TEMP;
			V(O, v)->name = NULL;
			V(O, v)->num = v;
		}
	free(names.slot);
	free(to);
	free(cls);
	free(rep);
	free(byorder);
	free(s.grp);
	free(s.order);
	free(s.loopbeg);
	free(s.loopend);
	free(s.forvar);
	free(s.loopid);
	for (int v = 0; v < nv; v++) {
		free(s.sc[v].b);
		free(s.sc[v].i);
	}
	free(s.sc);
	free(s.members);
	free(s.mstart);
	free(s.edge);
}
