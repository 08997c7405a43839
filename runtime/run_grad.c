/*
 * run_grad.c: the backward pass of a kernel run and the gradient check.
 *
 * The backward ABI (doc/runtime.md, doc/emit.md): `backward @k` takes k's
 * parameters, then one adjoint array per float-valued parameter of k, in
 * order.  The caller passes k's arrays as they were BEFORE the forward run
 * (the backward recomputes what it needs), except the arrays that
 * atomic_min / atomic_max write, which it passes AFTER the forward run
 * (the winner is read from them).  An array's adjoint holds the seed on
 * entry and J^T seed on exit; a scalar's adjoint is a zeroed 1-element
 * array that receives the gradient summed over all threads.
 *
 * The gradient check perturbs every float input component x_c by +-h and
 * runs the forward pass compiled in double precision (ksynth.h's
 * KS_REAL_DOUBLE) to get (L(x + h e_c) - L(x - h e_c)) / 2h, where
 * L(x) = sum over float arrays a, components j of seed_aj * final_aj(x).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "run.h"

static int float_valued(Type t)
{
	Type e = ty_elem(t);
	return e == TY_FLOAT || ty_is_vec(e) || ty_is_mat(e);
}

/* ---- atomic_min / atomic_max targets ------------------------------------ */

/* Mark in hit[] the parameters of f (by index) that some atomic_min or
 * atomic_max in b, or in a function b calls, writes. */
static void minmax_block(const Module *m, const Func *f, const Block *b, uint8_t *hit, int depth)
{
	for (int i = 0; i < b->n; i++) {
		const Inst *in = &b->v[i];
		int val = -1;
		if (in->op == OP_BUILTIN && in->narg &&
		    (in->callee == BI_ATOMIC_MIN_F || in->callee == BI_ATOMIC_MIN_I ||
		     in->callee == BI_ATOMIC_MAX_F || in->callee == BI_ATOMIC_MAX_I))
			val = in->arg[0];
		if (val >= 0)
			for (int p = 0; p < f->nparam; p++)
				if (f->param[p] == val)
					hit[p] = 1;
		if (in->op == OP_CALL && in->callee >= 0 && in->callee < m->nfn && depth < 64) {
			const Func *g = m->fn[in->callee];
			uint8_t *sub = xmalloc((size_t)g->nparam + 1);
			memset(sub, 0, (size_t)g->nparam + 1);
			minmax_block(m, g, &g->body, sub, depth + 1);
			for (int k = 0; k < g->nparam && k < in->narg; k++)
				if (sub[k])
					for (int p = 0; p < f->nparam; p++)
						if (f->param[p] == in->arg[k])
							hit[p] = 1;
			free(sub);
		}
		minmax_block(m, f, &in->body, hit, depth);
		minmax_block(m, f, &in->els, hit, depth);
	}
}

int run_minmax_target(const Module *m, const Func *f, int i)
{
	uint8_t *hit = xmalloc((size_t)f->nparam + 1);
	memset(hit, 0, (size_t)f->nparam + 1);
	minmax_block(m, f, &f->body, hit, 0);
	int r = hit[i];
	free(hit);
	return r;
}

/* ---- the backward's arguments ---------------------------------------------- */

void run_grad_init(RunGrad *g, const Module *m, const Func *f, const Func *b,
		   const RunArgs *in, const RunArgs *out, uint64_t seed)
{
	memset(g, 0, sizeof *g);
	g->f = f;
	g->b = b;
	int nf = f->nparam, dim = in->dim;
	g->fwd = xmalloc(sizeof *g->fwd * (size_t)(nf + 1));
	for (int i = 0; i < nf; i++)
		if (float_valued(f->val[f->param[i]].ty))
			g->fwd[g->nadj++] = i;
	/* the signature: f's parameters, then the adjoints, then perhaps the
	 * tape */
	g->tape = -1;
	if (b->nparam == nf + g->nadj + 1 && b->val[b->param[nf + g->nadj]].ty == (TY_ARRAY | TY_INT))
		g->tape = nf + g->nadj;
	int good = b->nparam == nf + g->nadj + (g->tape >= 0);
	for (int i = 0; good && i < nf; i++)
		good = b->val[b->param[i]].ty == f->val[f->param[i]].ty;
	for (int k = 0; good && k < g->nadj; k++)
		good = b->val[b->param[nf + k]].ty ==
		       (TY_ARRAY | ty_elem(f->val[f->param[g->fwd[k]]].ty));
	if (!good)
		ks_fatal("backward @%s: its parameters are not those of kernel @%s followed by "
			 "one adjoint array per float-valued parameter", b->name, f->name);

	RunArgs *a = &g->args;
	int n = b->nparam ? b->nparam : 1;
	a->f = b;
	a->n = b->nparam;
	a->dim = dim;
	a->slot = xmalloc(sizeof *a->slot * (size_t)n);
	a->buf = xmalloc(sizeof *a->buf * (size_t)n);
	a->bytes = xmalloc(sizeof *a->bytes * (size_t)n);
	a->val = xmalloc(sizeof *a->val * (size_t)n);
	memset(a->val, 0, sizeof *a->val * (size_t)n);
	g->seed = xmalloc(sizeof *g->seed * (size_t)(g->nadj + 1));
	for (int i = 0; i < nf; i++) {
		const RunArgs *src = run_minmax_target(m, f, i) ? out : in;
		a->bytes[i] = src->bytes[i];
		a->buf[i] = NULL;
		if (src->buf[i]) {
			a->buf[i] = xmalloc(src->bytes[i] ? src->bytes[i] : 1);
			memcpy(a->buf[i], src->buf[i], src->bytes[i]);
			a->slot[i] = &a->buf[i];
		} else {
			a->val[i] = src->val[i];
			a->slot[i] = &a->val[i];
		}
	}
	if (g->tape >= 0) {
		a->buf[g->tape] = NULL;
		a->bytes[g->tape] = 0;
		a->slot[g->tape] = &a->buf[g->tape];
	}
	for (int k = 0; k < g->nadj; k++) {
		int i = g->fwd[k], j = nf + k;
		Type t = f->val[f->param[i]].ty;
		size_t nc = (size_t)ty_ncomp(ty_elem(t)), len = ty_is_array(t) ? (size_t)dim : 1;
		a->bytes[j] = len * nc * 4;
		a->buf[j] = xmalloc(a->bytes[j] ? a->bytes[j] : 1);
		memset(a->buf[j], 0, a->bytes[j]);
		a->slot[j] = &a->buf[j];
		g->seed[k] = NULL;
		if (ty_is_array(t)) {
			uint64_t st = run_stream_adj(seed, f->name, i);
			float *q = a->buf[j];
			for (size_t c = 0; c < len * nc; c++)
				q[c] = run_draw_float(&st);
			g->seed[k] = xmalloc(a->bytes[j] ? a->bytes[j] : 1);
			memcpy(g->seed[k], q, a->bytes[j]);
		}
	}
}

/* The tape's four ints: words per thread (-1: measure), need, threads, 0. */
static void tape_set(RunGrad *g, long long words)
{
	RunArgs *a = &g->args;
	size_t n = 4 + (words > 0 ? (size_t)words * (size_t)a->dim : 0);
	free(a->buf[g->tape]);
	int *t = xmalloc(n * sizeof *t);
	memset(t, 0, 4 * sizeof *t);
	t[0] = (int)words;
	t[2] = a->dim;
	a->buf[g->tape] = t;
	a->bytes[g->tape] = n * sizeof *t;
}

void run_tape_measure(RunGrad *g)
{
	if (g->tape >= 0)
		tape_set(g, -1);
}

void run_tape_alloc(RunGrad *g, long long max_words, long long max_total)
{
	if (g->tape < 0)
		return;
	const int *t = g->args.buf[g->tape];
	g->need = t[1];
	long long w = g->need;
	if (max_words >= 0 && w > max_words)
		w = max_words;
	if (w * g->args.dim > max_total)
		w = max_total / g->args.dim;
	if (w > 0x7fffffff)
		w = 0x7fffffff;
	g->words = w;
	tape_set(g, w);
}

void run_grad_free(RunGrad *g)
{
	for (int k = 0; k < g->nadj; k++)
		free(g->seed[k]);
	free(g->seed);
	free(g->fwd);
	run_args_free(&g->args);
	memset(g, 0, sizeof *g);
}

/* ---- the gradient check ------------------------------------------------------ */

/* The forward's arguments in double precision: float components as
 * double, ints as they are. */
typedef struct Dbl {
	int n;
	void **slot, **buf;
	double (*val)[16];
	int *ival;
} Dbl;

static void dbl_init(Dbl *d, const RunArgs *in)
{
	const Func *f = in->f;
	int n = in->n ? in->n : 1;
	d->n = in->n;
	d->slot = xmalloc(sizeof *d->slot * (size_t)n);
	d->buf = xmalloc(sizeof *d->buf * (size_t)n);
	d->val = xmalloc(sizeof *d->val * (size_t)n);
	d->ival = xmalloc(sizeof *d->ival * (size_t)n);
	for (int i = 0; i < in->n; i++) {
		Type t = f->val[f->param[i]].ty;
		d->buf[i] = NULL;
		if (ty_is_array(t)) {
			size_t nc = (size_t)in->dim * (size_t)ty_ncomp(ty_elem(t));
			if (ty_elem(t) == TY_INT) {
				d->buf[i] = xmalloc(in->bytes[i] ? in->bytes[i] : 1);
				memcpy(d->buf[i], in->buf[i], in->bytes[i]);
			} else {
				double *q = xmalloc(sizeof *q * (nc ? nc : 1));
				const float *p = in->buf[i];
				for (size_t c = 0; c < nc; c++)
					q[c] = p[c];
				d->buf[i] = q;
			}
			d->slot[i] = &d->buf[i];
		} else if (t == TY_INT) {
			d->ival[i] = in->val[i].i;
			d->slot[i] = &d->ival[i];
		} else {
			for (int c = 0; c < ty_ncomp(t); c++)
				d->val[i][c] = in->val[i].f[c];
			d->slot[i] = &d->val[i];
		}
	}
}

/* dst = src (same shapes) */
static void dbl_copy(Dbl *dst, const Dbl *src, const RunArgs *in)
{
	const Func *f = in->f;
	for (int i = 0; i < in->n; i++) {
		Type t = f->val[f->param[i]].ty;
		if (ty_is_array(t)) {
			size_t sz = ty_elem(t) == TY_INT ? in->bytes[i] : in->bytes[i] * 2;
			memcpy(dst->buf[i], src->buf[i], sz);
		} else {
			memcpy(dst->val[i], src->val[i], sizeof dst->val[i]);
			dst->ival[i] = src->ival[i];
		}
	}
}

static void dbl_free(Dbl *d)
{
	for (int i = 0; i < d->n; i++)
		free(d->buf[i]);
	free(d->slot);
	free(d->buf);
	free(d->val);
	free(d->ival);
}

/* The component c of parameter i in d (a float-valued parameter). */
static double *dbl_comp(Dbl *d, const RunArgs *in, int i, size_t c)
{
	Type t = in->f->val[in->f->param[i]].ty;
	return ty_is_array(t) ? (double *)d->buf[i] + c : &d->val[i][c];
}

/* L = sum over float arrays of seed . final, the forward run on x */
static double objective(const RunGrad *g, const RunArgs *in, Dbl *x, Dbl *work,
			RunDblLaunch forward)
{
	dbl_copy(work, x, in);
	forward(in->dim, work->slot);
	double L = 0;
	for (int k = 0; k < g->nadj; k++) {
		int i = g->fwd[k];
		Type t = g->f->val[g->f->param[i]].ty;
		if (!ty_is_array(t))
			continue;
		size_t nc = (size_t)in->dim * (size_t)ty_ncomp(ty_elem(t));
		const float *s = g->seed[k];
		const double *q = work->buf[i];
		for (size_t c = 0; c < nc; c++)
			L += (double)s[c] * q[c];
	}
	return L;
}

static void where(char *out, size_t n, const Func *f, int i, size_t c)
{
	const Value *p = &f->val[f->param[i]];
	Type t = p->ty, e = ty_elem(t);
	int nc = ty_ncomp(e), d = ty_dim(e);
	int len = 0;
	if (ty_is_array(t))
		len = snprintf(out, n, "%s[%zu]", p->name, c / (size_t)nc);
	else
		len = snprintf(out, n, "%s", p->name);
	if (len < 0 || (size_t)len >= n)
		return;
	int k = (int)(c % (size_t)nc);
	if (ty_is_vec(e))
		snprintf(out + len, n - (size_t)len, "[%d]", k);
	else if (ty_is_mat(e))
		snprintf(out + len, n - (size_t)len, "[%d, %d]", k / d, k % d);
}

void run_gradcheck(RunCheck *c, const RunGrad *g, const RunArgs *in, RunDblLaunch forward)
{
	c->h = 1e-6;
	c->rtol = 1e-3;
	c->atol = 1e-4;
	c->worst_abs = c->worst_rel = c->worst_ratio = 0;
	c->where[0] = 0;
	c->ncomp = c->skipped = 0;
	c->ok = 1;
	Dbl x, work;
	dbl_init(&x, in);
	dbl_init(&work, in);

	/* every component: its place, its finite difference, its gradient */
	size_t total = 0;
	for (int k = 0; k < g->nadj; k++) {
		Type t = g->f->val[g->f->param[g->fwd[k]]].ty;
		total += (size_t)ty_ncomp(ty_elem(t)) * (ty_is_array(t) ? (size_t)in->dim : 1);
	}
	double *fd = xmalloc(sizeof *fd * (total + 1));
	double *gr = xmalloc(sizeof *gr * (total + 1));
	int *pk = xmalloc(sizeof *pk * (total + 1));
	size_t *pc = xmalloc(sizeof *pc * (total + 1));
	size_t n = 0;
	double scale = 1;
	for (int k = 0; k < g->nadj; k++) {
		int i = g->fwd[k];
		Type t = g->f->val[g->f->param[i]].ty;
		size_t nc = (size_t)ty_ncomp(ty_elem(t)) * (ty_is_array(t) ? (size_t)in->dim : 1);
		const float *adj = g->args.buf[g->f->nparam + k];
		for (size_t cc = 0; cc < nc; cc++, n++) {
			double *xc = dbl_comp(&x, in, i, cc), x0 = *xc;
			double h = c->h * (fabs(x0) > 1 ? fabs(x0) : 1);
			*xc = x0 + h;
			double lp = objective(g, in, &x, &work, forward);
			*xc = x0 - h;
			double lm = objective(g, in, &x, &work, forward);
			*xc = x0;
			fd[n] = (lp - lm) / (2 * h);
			gr[n] = adj[cc];
			pk[n] = i;
			pc[n] = cc;
			if (isfinite(fd[n]) && fabs(fd[n]) > scale)
				scale = fabs(fd[n]);
		}
	}
	double atol = c->atol * scale;
	for (size_t j = 0; j < n; j++) {
		if (!isfinite(fd[j])) {
			c->skipped++;
			continue;
		}
		c->ncomp++;
		double err = isfinite(gr[j]) ? fabs(gr[j] - fd[j]) : INFINITY;
		double ratio = err / (atol + c->rtol * fabs(fd[j]));
		if (ratio > c->worst_ratio || !c->where[0]) {
			c->worst_ratio = ratio;
			c->worst_abs = err;
			c->worst_rel = fd[j] != 0 ? err / fabs(fd[j]) : err == 0 ? 0 : INFINITY;
			where(c->where, sizeof c->where, g->f, pk[j], pc[j]);
		}
		if (!(ratio <= 1))
			c->ok = 0;
	}
	c->atol = atol;
	free(fd);
	free(gr);
	free(pk);
	free(pc);
	dbl_free(&x);
	dbl_free(&work);
}
