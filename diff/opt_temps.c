/*
 * opt_temps.c: variables that become temps.
 *
 * The transform gives each value of the forward sweep, and each adjoint, a
 * variable.  A variable kdiff made up (not a version of a source variable:
 * DV_SOURCE) that is assigned once, where every read of it sees the
 * assignment (in a block that holds the read, earlier), and not by a for
 * loop, becomes a temp: the emitters fold a temp read once into the
 * expression that reads it, and name it from what it holds otherwise.
 */
#include <stdlib.h>
#include <string.h>

#include "opt.h"

typedef struct TPath {
	const Block *b[256];
	int i[256];
	int n;
} TPath;

typedef struct Temps {
	int *ndef;
	const Block **db;
	int *di;
	uint8_t *bad;
} Temps;

static void count_defs(const Opt *O, Temps *t, const Block *b)
{
	for (int i = 0; i < b->n; i++) {
		const Inst *in = &b->v[i];
		for (int k = 0; k < in->nres; k++) {
			int r = in->res[k];
			if (!is_var(O, r))
				continue;
			if (t->ndef[r]++ == 0) {
				t->db[r] = b;
				t->di[r] = i;
			}
			if (in->op == OP_FOR)
				t->bad[r] = 1;
		}
		count_defs(O, t, &in->body);
		count_defs(O, t, &in->els);
	}
}

static void check_uses(const Opt *O, Temps *t, const Block *b, TPath *p)
{
	if (p->n >= 256)
		ks_fatal("kdiff: blocks nested too deep");
	for (int i = 0; i < b->n; i++) {
		const Inst *in = &b->v[i];
		p->b[p->n] = b;
		p->i[p->n] = i;
		p->n++;
		for (int k = 0; k < in->narg; k++) {
			int v = in->arg[k];
			if (!is_var(O, v) || t->ndef[v] != 1 || t->bad[v])
				continue;
			int ok = 0;
			for (int d = 0; d < p->n && !ok; d++)
				ok = p->b[d] == t->db[v] && p->i[d] > t->di[v];
			if (!ok)
				t->bad[v] = 1;
		}
		check_uses(O, t, &in->body, p);
		check_uses(O, t, &in->els, p);
		p->n--;
	}
}

void to_temps(Opt *O)
{
	int nv = O->f->nval;
	Temps t;
	t.ndef = xmalloc((size_t)(nv + 1) * sizeof *t.ndef);
	t.db = xmalloc((size_t)(nv + 1) * sizeof *t.db);
	t.di = xmalloc((size_t)(nv + 1) * sizeof *t.di);
	t.bad = xmalloc((size_t)nv + 1);
	memset(t.ndef, 0, (size_t)(nv + 1) * sizeof *t.ndef);
	memset(t.bad, 0, (size_t)nv + 1);
	count_defs(O, &t, &O->f->body);
	TPath *p = xmalloc(sizeof *p);
	p->n = 0;
	check_uses(O, &t, &O->f->body, p);
	free(p);
	for (int v = 0; v < nv; v++) {
		Value *x = V(O, v);
		if (x->kind != VK_VAR || t.ndef[v] != 1 || t.bad[v] || (flag(O, v) & DV_SOURCE))
			continue;
		x->kind = VK_TEMP;
		x->name = NULL;
		x->num = v;
	}
	free(t.ndef);
	free(t.db);
	free(t.di);
	free(t.bad);
}
