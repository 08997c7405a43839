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
 * runs the forward pass compiled in double precision (ks_base.h's
 * KS_REAL_DOUBLE) to get (L(x + h e_c) - L(x - h e_c)) / 2h, where
 * L(x) = sum over float arrays a, components j of seed_aj * final_aj(x).
 * That build is the cpu's code, so a kernel on tiles runs there as on the
 * cpu: each block one thread (block_dim 1), whatever the device checked.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "run.h"

static int float_valued(Type t)
{
	Type e = ty_elem(t);
	return ty_is_floaty(e) || (ty_is_array(t) && ty_is_struct(e) && ty_has_float(e));
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
		    (in->callee == BI_ATOMIC_MIN || in->callee == BI_ATOMIC_MAX))
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

void run_grad_init(RunGrad *g, const Module *m, const Func *f, const Func *b, const RunArgs *in, const RunArgs *out,
		   uint64_t seed)
{
	memset(g, 0, sizeof *g);
	g->f = f;
	g->b = b;
	int nf = f->nparam;
	g->fwd = xmalloc(sizeof *g->fwd * (size_t)(nf + 1));
	for (int i = 0; i < nf; i++)
		if (float_valued(f->val[f->param[i]].ty))
			g->fwd[g->nadj++] = i;
	/* the signature: f's parameters, then the adjoints, then perhaps the
	 * tape; f's launch */
	g->tape = -1;
	if (b->nparam == nf + g->nadj + 1 && b->val[b->param[nf + g->nadj]].ty == ty_array(TY_INT, 1))
		g->tape = nf + g->nadj;
	/* an empty backward (a kernel with no float data) reads no launch */
	int good = b->nparam == nf + g->nadj + (g->tape >= 0) &&
		   ((ir_kernel_rank(b) == ir_kernel_rank(f) && ir_func_tiled(b) == ir_func_tiled(f)) ||
		    b->body.n == 0);
	for (int i = 0; good && i < nf; i++)
		good = b->val[b->param[i]].ty == f->val[f->param[i]].ty;
	for (int k = 0; good && k < g->nadj; k++)
		good = b->val[b->param[nf + k]].ty == ir_adjoint_type(f->val[f->param[g->fwd[k]]].ty);
	if (!good)
		ks_fatal("backward @%s: its parameters are not those of kernel @%s followed by "
			 "one adjoint array per float-valued parameter, or its launch is not %s's",
			 b->name, f->name, f->name);

	/* f's arguments, then the adjoints */
	RunArgs *a = &g->args;
	memset(a, 0, sizeof *a);
	run_args_alloc(a, b);
	a->rank = in->rank;
	memcpy(a->dim, in->dim, sizeof a->dim);
	a->tiled = in->tiled;
	a->untiled = in->untiled;
	a->block = in->block;
	for (int i = 0; i < nf; i++) {
		/* the arrays as they were before the forward run, but the
		 * targets of atomic_min / atomic_max as they are after it */
		const RunArgs *src = run_minmax_target(m, f, i) ? out : in;
		a->bytes[i] = src->bytes[i];
		a->count[i] = src->count[i];
		memcpy(a->shape[i], src->shape[i], sizeof a->shape[i]);
		a->val[i] = src->val[i];
		if (src->buf[i]) {
			a->buf[i] = xmalloc(src->bytes[i] ? src->bytes[i] : 1);
			memcpy(a->buf[i], src->buf[i], src->bytes[i]);
			a->slot[i] = &a->buf[i];
		}
	}
	g->seed = xmalloc(sizeof *g->seed * (size_t)(g->nadj + 1));
	if (g->tape >= 0) {
		a->buf[g->tape] = NULL;
		a->bytes[g->tape] = 0;
		a->slot[g->tape] = &a->buf[g->tape];
	}
	for (int k = 0; k < g->nadj; k++) {
		int i = g->fwd[k], j = nf + k;
		Type t = f->val[f->param[i]].ty, e = ty_elem(t);
		/* an array's adjoint has its shape; a scalar's is one element */
		if (ty_is_array(t)) {
			a->count[j] = in->count[i];
			memcpy(a->shape[j], in->shape[i], sizeof a->shape[j]);
		} else {
			a->count[j] = 1;
			a->shape[j][0] = 1;
		}
		a->bytes[j] = a->count[j] * run_size(e, 0);
		a->buf[j] = xmalloc(a->bytes[j] ? a->bytes[j] : 1);
		memset(a->buf[j], 0, a->bytes[j]);
		a->slot[j] = &a->buf[j];
		g->seed[k] = NULL;
		if (ty_is_array(t)) {
			uint64_t st = run_stream_adj(seed, f->name, i);
			if (ty_is_struct(e)) {
				/* a struct's float fields, element by element */
				size_t nc = a->count[j] * (size_t)run_ncomp(e);
				for (size_t c = 0; c < nc; c++) {
					Type sc;
					const char *fd;
					void *q = run_comp(e, 0, a->buf[j], c, &sc, &fd);
					run_put(sc, 0, q, 0, run_draw_float(&st));
				}
			} else {
				run_draw(e, a->buf[j], a->count[j], &st, 1, 0);
			}
			g->seed[k] = xmalloc(a->bytes[j] ? a->bytes[j] : 1);
			memcpy(g->seed[k], a->buf[j], a->bytes[j]);
		}
	}
}

/* The tape's four ints: words per thread (-1: measure), need, threads, 0;
 * a thread of an N-D launch has its row-major index in it. */
static void tape_set(RunGrad *g, long long words)
{
	RunArgs *a = &g->args;
	long threads = run_threads(a);
	size_t n = 4 + (words > 0 ? (size_t)words * (size_t)threads : 0);
	free(a->buf[g->tape]);
	int *t = xmalloc(n * sizeof *t);
	memset(t, 0, 4 * sizeof *t);
	t[0] = (int)words;
	t[2] = (int)threads;
	a->buf[g->tape] = t;
	a->bytes[g->tape] = n * sizeof *t;
	a->count[g->tape] = n;
	a->shape[g->tape][0] = (int)n;
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
	long threads = run_threads(&g->args);
	if (w * threads > max_total)
		w = max_total / threads;
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

/* Does a value of f, or of a function f calls, have float16 components? */
static int half_in(const Module *m, const Func *f, int depth);

static int half_in_block(const Module *m, const Block *b, int depth)
{
	for (int i = 0; i < b->n; i++) {
		const Inst *in = &b->v[i];
		if (in->op == OP_CALL && in->callee >= 0 && in->callee < m->nfn && depth < 64 &&
		    half_in(m, m->fn[in->callee], depth + 1))
			return 1;
		if (half_in_block(m, &in->body, depth) || half_in_block(m, &in->els, depth))
			return 1;
	}
	return 0;
}

static int half_in(const Module *m, const Func *f, int depth)
{
	for (int v = 0; v < f->nval; v++)
		if (ty_scalar(ty_elem(f->val[v].ty)) == TY_HALF)
			return 1;
	return half_in_block(m, &f->body, depth);
}

int run_uses_half(const Module *m, const Func *f) { return half_in(m, f, 0); }

void run_tolerance(RunCheck *c, const Module *m, const Func *f)
{
	c->h = 1e-6;
	if (run_uses_half(m, f)) {
		c->rtol = 3e-2;
		c->atol = 3e-2;
	} else {
		c->rtol = 1e-3;
		c->atol = 1e-4;
	}
}

/* L = sum over float arrays of seed . final, the forward run on x (in
 * the double build's representation) */
static double objective(const RunGrad *g, const RunArgs *x, RunArgs *work, RunCpuLaunch forward)
{
	for (int i = 0; i < x->n; i++)
		if (x->buf[i])
			memcpy(work->buf[i], x->buf[i], x->bytes[i]);
	memcpy(work->val, x->val, sizeof *work->val * (size_t)x->n);
	/* the cpu's launch: on tiles, a block of one thread */
	int dim[KS_MAX_NDIM + 1];
	run_entry_dims(x, 1, dim);
	forward(dim, work->slot, (const int(*)[KS_MAX_NDIM])work->shape);
	double L = 0;
	for (int k = 0; k < g->nadj; k++) {
		int i = g->fwd[k];
		Type t = g->f->val[g->f->param[i]].ty, e = ty_elem(t), sc;
		if (!ty_is_array(t))
			continue;
		size_t nc = x->count[i] * (size_t)run_ncomp(e);
		if (!ty_is_struct(e) && ty_scalar(e) == TY_FLOAT) {
			/* float32 numbers, vectors, matrices: their components
			 * in a row, the outputs widened to double */
			const double *q = work->buf[i];
			const float *w = g->seed[k];
			for (size_t c = 0; c < nc; c++)
				L += (double)w[c] * q[c];
			continue;
		}
		const char *fd;
		for (size_t c = 0; c < nc; c++) {
			const double *q = run_comp(e, 1, work->buf[i], c, &sc, &fd);
			L += run_get(sc, 0, run_comp(e, 0, g->seed[k], c, &sc, &fd), 0) * *q;
		}
	}
	return L;
}

/* "x[3]", "v[1]", "p[3][1]", "m[0, 2]", "ms[5][1, 0]", "img[2, 7]" */
static void where(char *out, size_t n, const Func *f, const RunArgs *in, int i, size_t c)
{
	const Value *p = &f->val[f->param[i]];
	Type t = p->ty, e = ty_elem(t);
	size_t nc = (size_t)run_ncomp(e), el = c / nc;
	int len = snprintf(out, n, "%s", p->name);
	if (ty_is_array(t)) {
		int r = ty_ndim(t);
		size_t idx[KS_MAX_NDIM];
		for (int k = r - 1; k >= 0; k--) {
			size_t ext = in->shape[i][k] ? (size_t)in->shape[i][k] : 1;
			idx[k] = el % ext;
			el /= ext;
		}
		for (int k = 0; k < r && len >= 0 && (size_t)len < n; k++)
			len += snprintf(out + len, n - (size_t)len, "%s%zu%s", k ? ", " : "[", idx[k],
					k == r - 1 ? "]" : "");
	}
	if (len < 0 || (size_t)len >= n)
		return;
	int k = (int)(c % nc);
	if (ty_is_struct(e)) {
		Type sc;
		const char *fd;
		run_comp(e, 0, in->buf[i], c, &sc, &fd);
		snprintf(out + len, n - (size_t)len, ".%s", fd);
		return;
	}
	if (ty_is_mat(e))
		snprintf(out + len, n - (size_t)len, "[%d, %d]", k / ty_cols(e), k % ty_cols(e));
	else if (ty_is_composite(e))
		snprintf(out + len, n - (size_t)len, "[%d]", k);
}

void run_gradcheck(RunCheck *c, const RunGrad *g, const RunArgs *in, RunCpuLaunch forward)
{
	c->worst_abs = c->worst_rel = c->worst_ratio = 0;
	c->where[0] = 0;
	c->ncomp = c->skipped = 0;
	c->ok = 1;
	RunArgs x, work;
	run_args_double(&x, in);
	run_args_double(&work, in);

	/* every component: its place, its finite difference, its gradient */
	size_t total = 0;
	for (int k = 0; k < g->nadj; k++) {
		int i = g->fwd[k];
		Type t = g->f->val[g->f->param[i]].ty;
		total += (size_t)run_ncomp(ty_elem(t)) * (ty_is_array(t) ? in->count[i] : 1);
	}
	double *fd = xmalloc(sizeof *fd * (total + 1));
	double *gr = xmalloc(sizeof *gr * (total + 1));
	int *pk = xmalloc(sizeof *pk * (total + 1));
	size_t *pc = xmalloc(sizeof *pc * (total + 1));
	size_t n = 0;
	double scale = 1;
	for (int k = 0; k < g->nadj; k++) {
		int i = g->fwd[k];
		Type t = g->f->val[g->f->param[i]].ty, e = ty_elem(t), s = ty_scalar(e);
		size_t nc = (size_t)run_ncomp(e) * (ty_is_array(t) ? in->count[i] : 1);
		void *adj = g->args.buf[g->f->nparam + k];
		double *comp = ty_is_array(t) ? x.buf[i] : x.val[i].d;
		for (size_t cc = 0; cc < nc; cc++, n++) {
			const char *field;
			double *xc = ty_is_struct(e) ? run_comp(e, 1, x.buf[i], cc, &s, &field) : &comp[cc];
			double x0 = *xc;
			double h = c->h * (fabs(x0) > 1 ? fabs(x0) : 1);
			*xc = x0 + h;
			double lp = objective(g, &x, &work, forward);
			*xc = x0 - h;
			double lm = objective(g, &x, &work, forward);
			*xc = x0;
			fd[n] = (lp - lm) / (2 * h);
			gr[n] = ty_is_struct(e) ? run_get(s, 0, run_comp(e, 0, adj, cc, &s, &field), 0)
						: run_get(s, 0, adj, cc);
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
			where(c->where, sizeof c->where, g->f, in, pk[j], pc[j]);
		}
		if (!(ratio <= 1))
			c->ok = 0;
	}
	c->atol = atol;
	free(fd);
	free(gr);
	free(pk);
	free(pc);
	run_args_free(&x);
	run_args_free(&work);
}
