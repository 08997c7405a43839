/*
 * run_args.c: a kernel's arguments — the seeded inputs and the JSON record
 * of a run.
 *
 * The input law (doc/runtime.md) gives each parameter its own stream, a
 * splitmix64 sequence started from a hash of (seed, kernel name, parameter
 * index), so that a kernel's inputs depend on nothing else: not on the other
 * kernels in the file, not on --kernel, not on the device.
 *   float (scalar, and every component of vec, mat and their arrays):
 *       the top 24 bits r of a draw, (r - 2^23) / 2^23: uniform on the
 *       2^24 multiples of 2^-23 in [-1, 1), exact in float32
 *   int array element: ((draw >> 32) * dim) >> 32, uniform in [0, dim)
 *   int scalar: dim
 * --set NAME=VALUE replaces an int or float scalar's value.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "run.h"

const char *const run_device_name[3] = {"cpu", "sim", "cuda"};

uint64_t run_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

uint64_t run_stream(uint64_t seed, const char *kernel, int index)
{
	char key[512];
	int n = snprintf(key, sizeof key, "%llu/%s/%d", (unsigned long long)seed,
			 kernel, index);
	if (n < 0 || (size_t)n >= sizeof key)
		n = (int)sizeof key - 1;
	return ks_hash64(key, (size_t)n, 0);
}

uint64_t run_stream_adj(uint64_t seed, const char *kernel, int index)
{
	char key[512];
	int n = snprintf(key, sizeof key, "%llu/%s/%d/adj", (unsigned long long)seed,
			 kernel, index);
	if (n < 0 || (size_t)n >= sizeof key)
		n = (int)sizeof key - 1;
	return ks_hash64(key, (size_t)n, 0);
}

float run_draw_float(uint64_t *st)
{
	int32_t r = (int32_t)(run_next(st) >> 40);
	return (float)(r - (1 << 23)) / 8388608.0f;
}

static int draw_int(uint64_t *st, int dim)
{
	return (int)(((run_next(st) >> 32) * (uint64_t)dim) >> 32);
}

static void set_value(RunVal *v, Type t, const RunSet *s, const char *kernel)
{
	char *end;
	errno = 0;
	if (t == TY_INT) {
		long x = strtol(s->val, &end, 10);
		if (!*s->val || *end || errno || x < INT32_MIN || x > INT32_MAX)
			ks_fatal("--set %s=%s: %s's %s is an int; the value is not a 32-bit integer",
				 s->name, s->val, kernel, s->name);
		v->i = (int)x;
	} else {
		float x = strtof(s->val, &end);
		if (!*s->val || *end || !isfinite(x))
			ks_fatal("--set %s=%s: %s's %s is a float; the value is not a finite number",
				 s->name, s->val, kernel, s->name);
		v->f[0] = x;
	}
}

void run_args_init(RunArgs *a, const Func *f, int dim, uint64_t seed,
		   RunSet *set, int nset)
{
	int n = f->nparam;
	a->f = f;
	a->n = n;
	a->dim = dim;
	a->slot = xmalloc(sizeof *a->slot * (size_t)(n ? n : 1));
	a->buf = xmalloc(sizeof *a->buf * (size_t)(n ? n : 1));
	a->bytes = xmalloc(sizeof *a->bytes * (size_t)(n ? n : 1));
	a->val = xmalloc(sizeof *a->val * (size_t)(n ? n : 1));
	memset(a->val, 0, sizeof *a->val * (size_t)(n ? n : 1));
	for (int i = 0; i < n; i++) {
		const Value *p = &f->val[f->param[i]];
		Type t = p->ty, e = ty_elem(t);
		uint64_t st = run_stream(seed, f->name, i);
		a->buf[i] = NULL;
		a->bytes[i] = 0;
		if (ty_is_array(t)) {
			size_t nc = (size_t)ty_ncomp(e);
			a->bytes[i] = (size_t)dim * nc * 4;
			a->buf[i] = xmalloc(a->bytes[i] ? a->bytes[i] : 1);
			if (e == TY_INT) {
				int *q = a->buf[i];
				for (int k = 0; k < dim; k++)
					q[k] = draw_int(&st, dim);
			} else {
				float *q = a->buf[i];
				for (size_t k = 0; k < (size_t)dim * nc; k++)
					q[k] = run_draw_float(&st);
			}
			a->slot[i] = &a->buf[i];
			continue;
		}
		a->slot[i] = &a->val[i];
		if (t == TY_INT)
			a->val[i].i = dim;
		else
			for (int k = 0; k < ty_ncomp(t); k++)
				a->val[i].f[k] = run_draw_float(&st);
		for (int s = 0; s < nset; s++)
			if (!strcmp(set[s].name, p->name) && ty_is_scalar(t)) {
				set_value(&a->val[i], t, &set[s], f->name);
				set[s].used = 1;
			}
	}
}

void run_args_copy(RunArgs *d, const RunArgs *s)
{
	int n = s->n ? s->n : 1;
	*d = *s;
	d->slot = xmalloc(sizeof *d->slot * (size_t)n);
	d->buf = xmalloc(sizeof *d->buf * (size_t)n);
	d->bytes = xmalloc(sizeof *d->bytes * (size_t)n);
	d->val = xmalloc(sizeof *d->val * (size_t)n);
	memcpy(d->bytes, s->bytes, sizeof *d->bytes * (size_t)n);
	memcpy(d->val, s->val, sizeof *d->val * (size_t)n);
	for (int i = 0; i < s->n; i++) {
		d->buf[i] = NULL;
		if (s->buf[i]) {
			d->buf[i] = xmalloc(s->bytes[i] ? s->bytes[i] : 1);
			memcpy(d->buf[i], s->buf[i], s->bytes[i]);
			d->slot[i] = &d->buf[i];
		} else {
			d->slot[i] = &d->val[i];
		}
	}
}

void run_args_free(RunArgs *a)
{
	for (int i = 0; i < a->n; i++)
		free(a->buf[i]);
	free(a->slot);
	free(a->buf);
	free(a->bytes);
	free(a->val);
	memset(a, 0, sizeof *a);
}

/* ---- JSON ------------------------------------------------------------ */

static void json_str(Buf *b, const char *s)
{
	buf_putc(b, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			buf_printf(b, "\\%c", c);
		else if (c < 0x20)
			buf_printf(b, "\\u%04x", c);
		else
			buf_putc(b, (char)c);
	}
	buf_putc(b, '"');
}

static size_t json_float(Buf *b, float x)
{
	if (!isfinite(x)) {
		buf_puts(b, "null");
		return 1;
	}
	char t[32];
	ks_fmt_float(t, sizeof t, x);
	buf_puts(b, t);
	return 0;
}

/* One value of type t (not an array) at p: a number, a list for a
 * vector, a list of rows for a matrix. */
static size_t json_value(Buf *b, Type t, const void *p)
{
	size_t bad = 0;
	const float *f = p;
	int n = ty_dim(t);
	if (t == TY_INT) {
		int v;
		memcpy(&v, p, sizeof v);
		buf_printf(b, "%d", v);
	} else if (t == TY_FLOAT) {
		bad += json_float(b, f[0]);
	} else if (ty_is_vec(t)) {
		buf_putc(b, '[');
		for (int k = 0; k < n; k++) {
			if (k)
				buf_puts(b, ", ");
			bad += json_float(b, f[k]);
		}
		buf_putc(b, ']');
	} else {
		buf_putc(b, '[');
		for (int r = 0; r < n; r++) {
			buf_puts(b, r ? ", [" : "[");
			for (int k = 0; k < n; k++) {
				if (k)
					buf_puts(b, ", ");
				bad += json_float(b, f[r * n + k]);
			}
			buf_putc(b, ']');
		}
		buf_putc(b, ']');
	}
	return bad;
}

static size_t json_param(Buf *b, const RunArgs *a, int i)
{
	Type t = a->f->val[a->f->param[i]].ty;
	if (!ty_is_array(t))
		return json_value(b, t, &a->val[i]);
	size_t bad = 0, sz = (size_t)ty_ncomp(ty_elem(t)) * 4;
	const char *p = a->buf[i];
	buf_putc(b, '[');
	for (int k = 0; k < a->dim; k++) {
		if (k)
			buf_puts(b, ", ");
		bad += json_value(b, ty_elem(t), p + (size_t)k * sz);
	}
	buf_putc(b, ']');
	return bad;
}

/* n values of type t (an element type) at p, as a list */
static size_t json_list(Buf *b, Type t, const void *p, int n)
{
	size_t bad = 0, sz = (size_t)ty_ncomp(t) * 4;
	buf_putc(b, '[');
	for (int k = 0; k < n; k++) {
		if (k)
			buf_puts(b, ", ");
		bad += json_value(b, t, (const char *)p + (size_t)k * sz);
	}
	buf_putc(b, ']');
	return bad;
}

size_t run_json(Buf *b, const RunArgs *in, const RunArgs *out, const RunGrad *g,
		const char *extra, const char *device, uint64_t seed)
{
	const Func *f = in->f;
	size_t bad = 0;
	buf_puts(b, "{\"kernel\": ");
	json_str(b, f->name);
	buf_puts(b, ", \"device\": ");
	json_str(b, device);
	buf_printf(b, ", \"dim\": %d, \"seed\": %llu, \"inputs\": {", in->dim,
		   (unsigned long long)seed);
	for (int i = 0; i < in->n; i++) {
		if (i)
			buf_puts(b, ", ");
		json_str(b, f->val[f->param[i]].name);
		buf_puts(b, ": ");
		json_param(b, in, i);
	}
	buf_puts(b, "}, \"outputs\": {");
	int first = 1;
	for (int i = 0; i < out->n; i++) {
		if (!ty_is_array(f->val[f->param[i]].ty))
			continue;
		if (!first)
			buf_puts(b, ", ");
		first = 0;
		json_str(b, f->val[f->param[i]].name);
		buf_puts(b, ": ");
		bad += json_param(b, out, i);
	}
	buf_putc(b, '}');
	if (g) {
		buf_puts(b, ", \"seed_adj\": {");
		first = 1;
		for (int k = 0; k < g->nadj; k++) {
			const Value *p = &f->val[f->param[g->fwd[k]]];
			if (!ty_is_array(p->ty))
				continue;
			if (!first)
				buf_puts(b, ", ");
			first = 0;
			json_str(b, p->name);
			buf_puts(b, ": ");
			json_list(b, ty_elem(p->ty), g->seed[k], in->dim);
		}
		buf_puts(b, "}, \"grads\": {");
		for (int k = 0; k < g->nadj; k++) {
			const Value *p = &f->val[f->param[g->fwd[k]]];
			if (k)
				buf_puts(b, ", ");
			json_str(b, p->name);
			buf_puts(b, ": ");
			const void *q = g->args.buf[g->f->nparam + k];
			if (ty_is_array(p->ty))
				bad += json_list(b, ty_elem(p->ty), q, in->dim);
			else
				bad += json_value(b, p->ty, q);
		}
		buf_putc(b, '}');
	}
	if (extra)
		buf_puts(b, extra);
	buf_puts(b, "}\n");
	return bad;
}
