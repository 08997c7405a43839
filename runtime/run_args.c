/*
 * run_args.c: a kernel's arguments — the seeded inputs and the JSON record
 * of a run.
 *
 * The input law (doc/runtime.md) gives each parameter its own stream, a
 * splitmix64 sequence started from a hash of (seed, kernel name, parameter
 * index), so that a kernel's inputs depend on nothing else: not on the other
 * kernels in the file, not on --kernel, not on the device.  With n the
 * smallest launch dimension:
 *   float of any width (a scalar, every component of a composite, of every
 *       element of an array, in memory order): the top 24 bits r of a
 *       draw, (r - 2^23) / 2^23, uniform on the multiples of 2^-23 in
 *       [-1, 1), rounded to float16 (to nearest, ties to even) for a
 *       float16, exact in float32 and float64
 *   int of any width: ((draw >> 32) * c) >> 32, uniform in [0, c), c = n
 *       capped at the type's largest value + 1; but an int scalar
 *       parameter is n, capped at the type's largest value
 *   bool: the top bit of a draw
 * --set NAME=VALUE replaces a scalar's value.  An array of rank r takes
 * the launch's dimensions, the last one for axes past the launch's rank
 * (for a kernel on tiles, whose launch is a grid of blocks each reading
 * tiles, RUN_TILE_SCALE times the grid's), unless --shape NAME=AxB...
 * gives its extents.  --law NAME=spd makes each matrix of an array of
 * floats (its last two axes, square) symmetric positive definite: the
 * draws of its lower triangle mirrored onto the upper, its diagonal's
 * plus the matrix's extent plus 1 (diagonally dominant), in its type.
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

static uint64_t stream(uint64_t seed, const char *kernel, int index, const char *suffix)
{
	char key[512];
	int n = snprintf(key, sizeof key, "%llu/%s/%d%s", (unsigned long long)seed, kernel, index, suffix);
	if (n < 0 || (size_t)n >= sizeof key)
		n = (int)sizeof key - 1;
	return ks_hash64(key, (size_t)n, 0);
}

uint64_t run_stream(uint64_t seed, const char *kernel, int index) { return stream(seed, kernel, index, ""); }

uint64_t run_stream_adj(uint64_t seed, const char *kernel, int index)
{
	return stream(seed, kernel, index, "/adj");
}

float run_draw_float(uint64_t *st)
{
	int32_t r = (int32_t)(run_next(st) >> 40);
	return (float)(r - (1 << 23)) / 8388608.0f;
}

/* ---- values as the code holds them ------------------------------------ */

/* A float component of a struct: its offset, its scalar type and the
 * field that holds it (the innermost, in a nested struct). */
typedef struct Comp {
	size_t off;
	Type sc;
	const char *field;
} Comp;

/* The layout of a struct type as C lays it out, worked out once for
 * each type, with floats as float32 (dbl 0) or as double (dbl 1): its
 * size and alignment (its largest field's), each field's offset, and its
 * float components in order (nested structs' included).  A field that is
 * an array is a view, a pointer and four ints. */
typedef struct Layout {
	int done, ncomp;
	size_t size, align;
	size_t *off;
	Comp *comp;
} Layout;

static Layout *layouts[2];
static int nlayouts[2];

static size_t align_of(Type t, int dbl);

static const Layout *layout(Type t, int dbl)
{
	if (t >= nlayouts[dbl]) {
		int n = t + 64;
		layouts[dbl] = xrealloc(layouts[dbl], (size_t)n * sizeof *layouts[dbl]);
		memset(layouts[dbl] + nlayouts[dbl], 0, (size_t)(n - nlayouts[dbl]) * sizeof *layouts[dbl]);
		nlayouts[dbl] = n;
	}
	if (layouts[dbl][t].done)
		return &layouts[dbl][t];
	int nf = ty_nfield(t), ncomp = 0;
	size_t *off = xmalloc((size_t)(nf ? nf : 1) * sizeof *off), end = 0, align = 1;
	for (int k = 0; k < nf; k++) {
		Type ft = ty_field(t, k)->ty;
		size_t a = align_of(ft, dbl);
		align = a > align ? a : align;
		off[k] = (end + a - 1) / a * a;
		end = off[k] + (ty_is_array(ft) ? 8 + 4 * sizeof(int) : run_size(ft, dbl));
		if (ty_is_struct(ft) || (!ty_is_array(ft) && ty_is_float(ty_scalar(ft))))
			ncomp += run_ncomp(ft);
	}
	Comp *comp = xmalloc((size_t)(ncomp ? ncomp : 1) * sizeof *comp);
	int n = 0;
	for (int k = 0; k < nf; k++) {
		Type ft = ty_field(t, k)->ty;
		if (ty_is_struct(ft)) {
			const Layout *in = layout(ft, dbl);
			for (int c = 0; c < in->ncomp; c++)
				comp[n++] = (Comp){off[k] + in->comp[c].off, in->comp[c].sc, in->comp[c].field};
		} else if (!ty_is_array(ft) && ty_is_float(ty_scalar(ft))) {
			for (int c = 0; c < ty_ncomp(ft); c++)
				comp[n++] = (Comp){off[k] + (size_t)c * run_size(ty_scalar(ft), dbl), ty_scalar(ft),
						   ty_field(t, k)->name};
		}
	}
	/* the nested layouts above may have moved the table */
	Layout *l = &layouts[dbl][t];
	*l = (Layout){1,     ncomp, nf ? (end + align - 1) / align * align : 1,
		      align, off,   comp}; /* an empty struct: the emitters' one char */
	return l;
}

/* The alignment of a value of type t as C lays it out: its scalar's, a
 * struct's largest field's, a view's (a pointer and four ints) 8. */
static size_t align_of(Type t, int dbl)
{
	if (ty_is_array(t))
		return 8;
	if (ty_is_struct(t))
		return layout(t, dbl)->align;
	Type s = ty_scalar(t);
	return dbl && ty_is_float(s) ? 8 : ty_info(s)->size;
}

int run_struct_holds_array(Type t)
{
	for (int k = 0; k < ty_nfield(t); k++) {
		Type ft = ty_field(t, k)->ty;
		if (ty_is_array(ft) || (ty_is_struct(ft) && run_struct_holds_array(ft)))
			return 1;
	}
	return 0;
}

size_t run_field_offset(Type t, int k, int dbl) { return layout(t, dbl)->off[k]; }

int run_ncomp(Type e) { return ty_is_struct(e) ? layout(e, 0)->ncomp : ty_ncomp(e); }

void *run_comp(Type e, int dbl, void *p, size_t c, Type *sc, const char **field)
{
	*field = NULL;
	if (!ty_is_struct(e)) {
		*sc = ty_scalar(e);
		return (char *)p + c * run_size(*sc, dbl);
	}
	const Layout *l = layout(e, dbl);
	const Comp *x = &l->comp[c % (size_t)l->ncomp];
	*sc = x->sc;
	*field = x->field;
	return (char *)p + c / (size_t)l->ncomp * l->size + x->off;
}

size_t run_size(Type t, int dbl)
{
	Type e = ty_elem(t);
	if (ty_is_struct(e))
		return layout(e, dbl)->size;
	Type s = ty_scalar(e);
	size_t c = dbl && ty_is_float(s) ? 8 : ty_info(s)->size;
	return c * (size_t)ty_ncomp(e);
}

/* The largest value of int type s */
static uint64_t int_max(Type s)
{
	int bits = 8 * ty_info(s)->size - !ty_is_unsigned(s);
	return bits == 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
}

static void put_int(Type s, void *p, size_t k, int64_t v)
{
	/* clang-format off */
	switch (s) {
	case TY_BOOL: ((uint8_t *)p)[k] = v != 0; break; /* C's and C++'s bool: a byte, 0 or 1 */
	case TY_INT8: ((int8_t *)p)[k] = (int8_t)v; break;
	case TY_UINT8: ((uint8_t *)p)[k] = (uint8_t)v; break;
	case TY_INT16: ((int16_t *)p)[k] = (int16_t)v; break;
	case TY_UINT16: ((uint16_t *)p)[k] = (uint16_t)v; break;
	case TY_INT: ((int32_t *)p)[k] = (int32_t)v; break;
	case TY_UINT32: ((uint32_t *)p)[k] = (uint32_t)v; break;
	case TY_INT64: ((int64_t *)p)[k] = v; break;
	case TY_UINT64: ((uint64_t *)p)[k] = (uint64_t)v; break;
	}
	/* clang-format on */
}

/* An int or bool component as its bits, sign-extended for a signed type
 * (a uint64 above INT64_MAX comes back negative). */
static int64_t get_int(Type s, const void *p, size_t k)
{
	/* clang-format off */
	switch (s) {
	case TY_BOOL: return ((const uint8_t *)p)[k] != 0;
	case TY_INT8: return ((const int8_t *)p)[k];
	case TY_UINT8: return ((const uint8_t *)p)[k];
	case TY_INT16: return ((const int16_t *)p)[k];
	case TY_UINT16: return ((const uint16_t *)p)[k];
	case TY_INT: return ((const int32_t *)p)[k];
	case TY_UINT32: return ((const uint32_t *)p)[k];
	case TY_INT64: return ((const int64_t *)p)[k];
	case TY_UINT64: return (int64_t)((const uint64_t *)p)[k];
	}
	/* clang-format on */
	return 0;
}

double run_get(Type s, int dbl, const void *p, size_t k)
{
	if (ty_is_float(s) && dbl)
		return ((const double *)p)[k];
	/* clang-format off */
	switch (s) {
	case TY_HALF: return ks_half_to_float(((const uint16_t *)p)[k]);
	case TY_FLOAT: return ((const float *)p)[k];
	case TY_DOUBLE: return ((const double *)p)[k];
	case TY_UINT64: return (double)(uint64_t)get_int(s, p, k);
	}
	/* clang-format on */
	return (double)get_int(s, p, k);
}

void run_put(Type s, int dbl, void *p, size_t k, double v)
{
	if (ty_is_float(s) && dbl)
		((double *)p)[k] = v;
	else if (s == TY_HALF)
		((uint16_t *)p)[k] = ks_half_from_float((float)v);
	else if (s == TY_FLOAT)
		((float *)p)[k] = (float)v;
	else if (s == TY_DOUBLE)
		((double *)p)[k] = v;
	else
		put_int(s, p, k, (int64_t)v);
}

void run_draw(Type t, void *p, size_t count, uint64_t *st, int n, int scalar)
{
	if (ty_is_struct(t)) {
		/* element by element, each field by the law of its type */
		size_t sz = run_size(t, 0);
		for (size_t i = 0; i < count; i++)
			for (int k = 0; k < ty_nfield(t); k++)
				run_draw(ty_field(t, k)->ty, (char *)p + i * sz + run_field_offset(t, k, 0), 1, st,
					 n, scalar);
		return;
	}
	Type s = ty_scalar(t);
	size_t nc = count * (size_t)ty_ncomp(t);
	uint64_t max = ty_is_int(s) ? int_max(s) : 0;
	if (scalar && ty_is_int(t)) {
		put_int(s, p, 0, (int64_t)((uint64_t)n < max ? (uint64_t)n : max));
		return;
	}
	uint64_t c = (uint64_t)n <= max ? (uint64_t)n : max + 1;
	for (size_t k = 0; k < nc; k++) {
		if (s == TY_BOOL)
			put_int(s, p, k, (int64_t)(run_next(st) >> 63));
		else if (ty_is_int(s))
			put_int(s, p, k, (int64_t)(((run_next(st) >> 32) * c) >> 32));
		else
			run_put(s, 0, p, k, run_draw_float(st));
	}
}

/* ---- the law ------------------------------------------------------------ */

int run_law_n(const RunLaw *law)
{
	int n = law->dim[0];
	for (int k = 1; k < law->rank; k++)
		n = law->dim[k] < n ? law->dim[k] : n;
	return n;
}

void run_law_shape(const RunLaw *law, const char *name, Type t, int ext[KS_MAX_NDIM])
{
	int r = ty_ndim(t);
	for (int k = 0; k < KS_MAX_NDIM; k++)
		ext[k] = k >= r ? 0
				: law->dim[k < law->rank ? k : law->rank - 1] * (law->tiled ? RUN_TILE_SCALE : 1);
	for (int s = 0; s < law->nshape; s++)
		if (!strcmp(law->shape[s].name, name) && law->shape[s].rank == r)
			memcpy(ext, law->shape[s].ext, sizeof law->shape[s].ext);
}

long run_threads(const RunArgs *a)
{
	long n = 1;
	for (int k = 0; k < a->rank; k++)
		n *= a->dim[k];
	return a->tiled ? n * a->block : n;
}

int run_entry_dims(const RunArgs *a, int block, int dim[KS_MAX_NDIM + 1])
{
	if (a->untiled) {
		/* the entry's last dimension, the threads to an index, is 1 */
		memcpy(dim, a->dim, sizeof a->dim);
		dim[a->rank] = 1;
		return a->rank + 1;
	}
	if (!a->tiled) {
		memcpy(dim, a->dim, sizeof a->dim);
		return a->rank;
	}
	/* the full launch: the grid, then a block's threads */
	int full[KS_MAX_NDIM + 1], n = a->rank + 1;
	memcpy(full, a->dim, sizeof a->dim);
	full[a->rank] = block;
	for (int k = 0; k < a->tiled; k++)
		dim[k] = k < n ? full[k] : 1;
	dim[a->tiled] = 1;
	for (int k = a->tiled; k < n; k++)
		dim[a->tiled] *= full[k];
	return a->tiled + 1;
}

/* --set NAME=VALUE for a scalar of type t: an int in its type's range, a
 * float finite in its type (rounded to it), a bool true, false, 1 or 0. */
static void set_value(RunVal *v, Type t, const RunSet *s, const char *kernel)
{
	char *end;
	errno = 0;
	if (t == TY_BOOL) {
		int b = !strcmp(s->val, "true") || !strcmp(s->val, "1")    ? 1
			: !strcmp(s->val, "false") || !strcmp(s->val, "0") ? 0
									   : -1;
		if (b < 0)
			ks_fatal("--set %s=%s: %s's %s is a bool; the value is not true, false, 1 or 0", s->name,
				 s->val, kernel, s->name);
		put_int(t, v, 0, b);
	} else if (ty_is_unsigned(t)) {
		unsigned long long x = strtoull(s->val, &end, 10);
		if (!*s->val || *end || errno || *s->val == '-' || x > int_max(t))
			ks_fatal("--set %s=%s: %s's %s is a %s; the value is not an integer in [0, %llu]", s->name,
				 s->val, kernel, s->name, ty_info(t)->warp, (unsigned long long)int_max(t));
		put_int(t, v, 0, (int64_t)x);
	} else if (ty_is_int(t)) {
		long long x = strtoll(s->val, &end, 10), hi = (long long)int_max(t);
		if (!*s->val || *end || errno || x > hi || x < -hi - 1)
			ks_fatal("--set %s=%s: %s's %s is an %s; the value is not an integer in [%lld, %lld]",
				 s->name, s->val, kernel, s->name, ty_info(t)->warp, -hi - 1, hi);
		put_int(t, v, 0, x);
	} else {
		/* float16 by way of float32: both roundings to nearest */
		if (t == TY_DOUBLE)
			run_put(t, 0, v, 0, strtod(s->val, &end));
		else
			run_put(t, 0, v, 0, strtof(s->val, &end));
		if (!*s->val || *end || !isfinite(run_get(t, 0, v, 0)))
			ks_fatal("--set %s=%s: %s's %s is a %s; the value is not a finite %s", s->name, s->val,
				 kernel, s->name, ty_info(t)->warp, ty_info(t)->warp);
	}
}

/* --law NAME=spd on an array of floats e of extents ext (rank r, its
 * last two equal): each matrix's lower triangle mirrored onto its upper,
 * m + 1 added to its diagonal, rounded to e. */
static void make_spd(Type e, void *buf, const int *ext, int r)
{
	size_t m = (size_t)ext[r - 1], mats = 1;
	for (int k = 0; k < r - 2; k++)
		mats *= (size_t)ext[k];
	for (size_t q = 0; q < mats; q++) {
		size_t base = q * m * m;
		for (size_t i = 0; i < m; i++) {
			for (size_t j = i + 1; j < m; j++)
				run_put(e, 0, buf, base + i * m + j, run_get(e, 0, buf, base + j * m + i));
			run_put(e, 0, buf, base + i * m + i,
				run_get(e, 0, buf, base + i * m + i) + (double)(m + 1));
		}
	}
}

void run_args_alloc(RunArgs *a, const Func *f)
{
	int n = f->nparam, m = n ? n : 1;
	a->f = f;
	a->n = n;
	a->slot = xmalloc(sizeof *a->slot * (size_t)m);
	a->buf = xmalloc(sizeof *a->buf * (size_t)m);
	a->bytes = xmalloc(sizeof *a->bytes * (size_t)m);
	a->count = xmalloc(sizeof *a->count * (size_t)m);
	a->shape = xmalloc(sizeof *a->shape * (size_t)m);
	a->val = xmalloc(sizeof *a->val * (size_t)m);
	memset(a->buf, 0, sizeof *a->buf * (size_t)m);
	memset(a->bytes, 0, sizeof *a->bytes * (size_t)m);
	memset(a->count, 0, sizeof *a->count * (size_t)m);
	memset(a->shape, 0, sizeof *a->shape * (size_t)m);
	memset(a->val, 0, sizeof *a->val * (size_t)m);
	for (int i = 0; i < n; i++)
		a->slot[i] = &a->val[i];
}

void run_args_init(RunArgs *a, const Func *f, RunLaw *law)
{
	int n = f->nparam, range = run_law_n(law);
	memset(a, 0, sizeof *a);
	run_args_alloc(a, f);
	a->rank = law->rank;
	memcpy(a->dim, law->dim, sizeof a->dim);
	a->tiled = law->tiled;
	a->untiled = law->untiled;
	a->block = 1;
	for (int i = 0; i < n; i++) {
		const Value *p = &f->val[f->param[i]];
		Type t = p->ty, e = ty_elem(t);
		uint64_t st = run_stream(law->seed, f->name, i);
		if (ty_is_array(t)) {
			if (ty_is_struct(e) && run_struct_holds_array(e))
				ks_fatal("%s: %s is an array of %s, a struct that holds an array: krun "
					 "cannot make such an input",
					 f->name, p->name, ty_name(e));
			run_law_shape(law, p->name, t, a->shape[i]);
			a->count[i] = 1;
			for (int k = 0; k < ty_ndim(t); k++)
				a->count[i] *= (size_t)a->shape[i][k];
			a->bytes[i] = a->count[i] * run_size(e, 0);
			a->buf[i] = xmalloc(a->bytes[i] ? a->bytes[i] : 1);
			run_draw(e, a->buf[i], a->count[i], &st, range, 0);
			for (int s = 0; s < law->nspd; s++)
				if (!strcmp(law->spd[s].name, p->name))
					make_spd(e, a->buf[i], a->shape[i], ty_ndim(t));
			a->slot[i] = &a->buf[i];
			continue;
		}
		run_draw(t, &a->val[i], 1, &st, range, 1);
		for (int s = 0; s < law->nset; s++)
			if (!strcmp(law->set[s].name, p->name) && (ty_is_scalar(t) || t == TY_BOOL)) {
				set_value(&a->val[i], t, &law->set[s], f->name);
				law->set[s].used = 1;
			}
	}
}

void run_args_copy(RunArgs *d, const RunArgs *s)
{
	run_args_alloc(d, s->f);
	d->dbl = s->dbl;
	d->rank = s->rank;
	memcpy(d->dim, s->dim, sizeof d->dim);
	d->tiled = s->tiled;
	d->untiled = s->untiled;
	d->block = s->block;
	memcpy(d->bytes, s->bytes, sizeof *d->bytes * (size_t)s->n);
	memcpy(d->count, s->count, sizeof *d->count * (size_t)s->n);
	memcpy(d->shape, s->shape, sizeof *d->shape * (size_t)s->n);
	memcpy(d->val, s->val, sizeof *d->val * (size_t)s->n);
	for (int i = 0; i < s->n; i++)
		if (s->buf[i]) {
			d->buf[i] = xmalloc(s->bytes[i] ? s->bytes[i] : 1);
			memcpy(d->buf[i], s->buf[i], s->bytes[i]);
			d->slot[i] = &d->buf[i];
		}
}

/* Convert count values of type t from p (as the code holds them) to q
 * (as the double build does): float components widened, others copied. */
static void to_double(Type t, const void *p, void *q, size_t count)
{
	if (ty_is_struct(t)) {
		size_t sz = run_size(t, 0), dz = run_size(t, 1);
		for (size_t i = 0; i < count; i++)
			for (int k = 0; k < ty_nfield(t); k++)
				to_double(ty_field(t, k)->ty, (const char *)p + i * sz + run_field_offset(t, k, 0),
					  (char *)q + i * dz + run_field_offset(t, k, 1), 1);
		return;
	}
	Type s = ty_scalar(t);
	if (!ty_is_float(s)) {
		memcpy(q, p, count * run_size(t, 0));
		return;
	}
	size_t nc = count * (size_t)ty_ncomp(t);
	for (size_t k = 0; k < nc; k++)
		((double *)q)[k] = run_get(s, 0, p, k);
}

void run_args_double(RunArgs *d, const RunArgs *s)
{
	run_args_copy(d, s);
	d->dbl = 1;
	for (int i = 0; i < s->n; i++) {
		Type t = s->f->val[s->f->param[i]].ty;
		if (!s->buf[i]) {
			to_double(t, &s->val[i], &d->val[i], 1);
			continue;
		}
		free(d->buf[i]);
		d->bytes[i] = s->count[i] * run_size(ty_elem(t), 1);
		d->buf[i] = xmalloc(d->bytes[i] ? d->bytes[i] : 1);
		to_double(ty_elem(t), s->buf[i], d->buf[i], s->count[i]);
	}
}

void run_args_free(RunArgs *a)
{
	for (int i = 0; i < a->n; i++)
		free(a->buf[i]);
	free(a->slot);
	free(a->buf);
	free(a->bytes);
	free(a->count);
	free(a->shape);
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

/* Component k of scalar type s at p: true/false, an integer, or the
 * shortest text that reads back to the same value of the float's width
 * (null when it is not finite: returns 1). */
static size_t json_comp(Buf *b, Type s, const void *p, size_t k)
{
	char t[40];
	if (s == TY_BOOL) {
		buf_puts(b, get_int(s, p, k) ? "true" : "false");
		return 0;
	}
	if (ty_is_int(s)) {
		int64_t v = get_int(s, p, k);
		char *q = ty_is_unsigned(s) ? ks_udec(t + sizeof t, (uint64_t)v) : ks_dec(t + sizeof t, v);
		buf_put(b, q, (size_t)(t + sizeof t - q));
		return 0;
	}
	double x = run_get(s, 0, p, k);
	if (!isfinite(x)) {
		buf_puts(b, "null");
		return 1;
	}
	if (s == TY_HALF)
		ks_fmt_half(t, sizeof t, ((const uint16_t *)p)[k]);
	else if (s == TY_FLOAT)
		ks_fmt_float(t, sizeof t, (float)x);
	else
		ks_fmt_double(t, sizeof t, x);
	buf_puts(b, t);
	return 0;
}

/* One value of type t (not an array) at p: a scalar, a list for a
 * vector, quaternion or transform, a list of rows for a matrix. */
static size_t json_value(Buf *b, Type t, const void *p)
{
	if (ty_is_struct(t)) {
		/* {"pos": [...], "mass": 0.5}: the fields in order */
		size_t bad = 0;
		buf_putc(b, '{');
		for (int k = 0; k < ty_nfield(t); k++) {
			if (k)
				buf_puts(b, ", ");
			json_str(b, ty_field(t, k)->name);
			buf_puts(b, ": ");
			bad += json_value(b, ty_field(t, k)->ty, (const char *)p + run_field_offset(t, k, 0));
		}
		buf_putc(b, '}');
		return bad;
	}
	Type s = ty_scalar(t);
	size_t bad = 0;
	int rows = ty_rows(t), cols = ty_cols(t);
	if (!ty_is_composite(t))
		return json_comp(b, s, p, 0);
	buf_putc(b, '[');
	for (int r = 0; r < rows; r++) {
		if (r)
			buf_puts(b, ", ");
		if (ty_is_mat(t))
			buf_putc(b, '[');
		for (int c = 0; c < cols; c++) {
			if (c)
				buf_puts(b, ", ");
			bad += json_comp(b, s, p, (size_t)(r * cols + c));
		}
		if (ty_is_mat(t))
			buf_putc(b, ']');
	}
	buf_putc(b, ']');
	return bad;
}

/* The elements of an array of element type e and extents ext[0 .. r) at
 * p, as nested lists, row-major. */
static size_t json_array(Buf *b, Type e, const char *p, const int *ext, int r)
{
	size_t bad = 0, sz = run_size(e, 0), inner = 1;
	for (int k = 1; k < r; k++)
		inner *= (size_t)ext[k];
	buf_putc(b, '[');
	for (int i = 0; i < ext[0]; i++) {
		if (i)
			buf_puts(b, ", ");
		if (r > 1)
			bad += json_array(b, e, p + (size_t)i * inner * sz, ext + 1, r - 1);
		else
			bad += json_value(b, e, p + (size_t)i * sz);
	}
	buf_putc(b, ']');
	return bad;
}

static size_t json_param(Buf *b, const RunArgs *a, int i)
{
	Type t = a->f->val[a->f->param[i]].ty;
	if (!ty_is_array(t))
		return json_value(b, t, &a->val[i]);
	return json_array(b, ty_elem(t), a->buf[i], a->shape[i], ty_ndim(t));
}

/* Keys of a record's section, a struct's fields (the parameters krun
 * makes of them, named "p.inner.v") as nested objects: {"p": {"dt": 0.5,
 * "inner": {"v": [...]}}, "x": [...]}.  The fields of a struct come one
 * after the other, so a key opens the objects it does not share with the
 * key before it and closes those it leaves. */
typedef struct JsonNest {
	Buf *b;
	const char *prev; /* the key before, or NULL */
} JsonNest;

/* The number of objects key sits in ('.'s) */
static int json_depth(const char *key)
{
	int n = 0;
	for (; *key; key++)
		n += *key == '.';
	return n;
}

/* The objects keys a and b both sit in, from the outside */
static int json_shared(const char *a, const char *b)
{
	int n = 0;
	for (;;) {
		const char *ea = strchr(a, '.'), *eb = strchr(b, '.');
		if (!ea || !eb || ea - a != eb - b || memcmp(a, b, (size_t)(ea - a)))
			return n;
		n++;
		a = ea + 1;
		b = eb + 1;
	}
}

static void json_segment(Buf *b, const char *s, size_t n)
{
	char buf[256];
	snprintf(buf, sizeof buf, "%.*s", (int)(n < 255 ? n : 255), s);
	json_str(b, buf);
}

static void json_key(JsonNest *j, const char *key)
{
	int shared = j->prev ? json_shared(j->prev, key) : 0;
	for (int k = j->prev ? json_depth(j->prev) : 0; k > shared; k--)
		buf_putc(j->b, '}');
	if (j->prev)
		buf_puts(j->b, ", ");
	const char *p = key;
	for (int k = 0; k < shared; k++)
		p = strchr(p, '.') + 1;
	for (const char *e; (e = strchr(p, '.')); p = e + 1) {
		json_segment(j->b, p, (size_t)(e - p));
		buf_puts(j->b, ": {");
	}
	json_str(j->b, p);
	buf_puts(j->b, ": ");
	j->prev = key;
}

static void json_end(JsonNest *j)
{
	for (int k = j->prev ? json_depth(j->prev) : 0; k > 0; k--)
		buf_putc(j->b, '}');
	j->prev = NULL;
}

void run_json_dim(Buf *b, const RunArgs *a)
{
	if (a->rank == 1) {
		buf_int(b, a->dim[0]);
		return;
	}
	for (int k = 0; k < a->rank; k++) {
		buf_puts(b, k ? ", " : "[");
		buf_int(b, a->dim[k]);
	}
	buf_putc(b, ']');
}

size_t run_json(Buf *b, const RunArgs *in, const RunArgs *out, const RunGrad *g, const char *extra,
		const char *device, uint64_t seed)
{
	const Func *f = in->f;
	size_t bad = 0;
	buf_puts(b, "{\"kernel\": ");
	json_str(b, f->name);
	buf_puts(b, ", \"device\": ");
	json_str(b, device);
	buf_puts(b, ", \"dim\": ");
	run_json_dim(b, in);
	if (in->tiled || in->untiled)
		buf_printf(b, ", \"block_dim\": %d", in->block);
	if (in->untiled)
		buf_puts(b, ", \"untiled\": true");
	buf_printf(b, ", \"seed\": %llu, \"inputs\": {", (unsigned long long)seed);
	JsonNest j = {b, NULL};
	for (int i = 0; i < in->n; i++) {
		json_key(&j, f->val[f->param[i]].name);
		json_param(b, in, i);
	}
	json_end(&j);
	buf_puts(b, "}, \"outputs\": {");
	for (int i = 0; i < out->n; i++) {
		if (!ty_is_array(f->val[f->param[i]].ty))
			continue;
		json_key(&j, f->val[f->param[i]].name);
		bad += json_param(b, out, i);
	}
	json_end(&j);
	buf_putc(b, '}');
	if (g) {
		buf_puts(b, ", \"seed_adj\": {");
		for (int k = 0; k < g->nadj; k++) {
			int i = g->fwd[k];
			const Value *p = &f->val[f->param[i]];
			if (!ty_is_array(p->ty))
				continue;
			json_key(&j, p->name);
			json_array(b, ty_elem(p->ty), g->seed[k], in->shape[i], ty_ndim(p->ty));
		}
		json_end(&j);
		buf_puts(b, "}, \"grads\": {");
		for (int k = 0; k < g->nadj; k++) {
			int i = g->fwd[k];
			const Value *p = &f->val[f->param[i]];
			json_key(&j, p->name);
			const void *q = g->args.buf[g->f->nparam + k];
			if (ty_is_array(p->ty))
				bad += json_array(b, ty_elem(p->ty), q, in->shape[i], ty_ndim(p->ty));
			else
				bad += json_value(b, p->ty, q);
		}
		json_end(&j);
		buf_putc(b, '}');
	}
	if (extra)
		buf_puts(b, extra);
	buf_puts(b, "}\n");
	return bad;
}
