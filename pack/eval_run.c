/*
 * eval_run.c: one record's samples scored (doc/eval.md, "The protocol").
 *
 * Every run is krun's, so every run of code a model wrote is confined
 * (seccomp and rlimits in a child, doc/runtime.md): the record's IR gives
 * the signatures, the sample is the code.  The reference (the record's own
 * code) and each sample run on two input seeds of this evaluation, never 1
 * or 2 (the dataset's), at a launch the record did not use, with
 * `--sentinel` (the arrays the kernel only stores to filled with -1536, so
 * an element left unwritten shows).  A forward sample's `outputs` (every
 * array after the launch: outputs, and inputs the kernel must leave as
 * they were) must equal the reference's under both seeds within a
 * tolerance by dtype, scaled to the array's magnitude; a backward sample
 * must pass `--gradcheck` and its `outputs` and `grads` equal the
 * reference backward's.  The first difference is the sample's reason.
 */
#include "eval.h"
#include "json.h"
#include "verify.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- the launch ------------------------------------------------------------ */

/* The most indices a wp.tid() of the IR gives, and whether it has tiles. */
static int ir_rank(const char *ir, int *tiled)
{
	int r = 1;
	*tiled = strstr(ir, "tile(") != NULL;
	for (const char *p = strstr(ir, "= tid"); p; p = strstr(p + 1, "= tid")) {
		const char *ls = p;
		while (ls > ir && ls[-1] != '\n')
			ls--;
		int k = 0;
		for (const char *q = ls; q < p; q++)
			k += *q == '%';
		if (k > r)
			r = k;
	}
	return r > 4 ? 4 : r;
}

/* A launch (--dim N, N along each dimension) the record did not use (its
 * default: 16, 8 for 3 dimensions, 4 for 4, a grid of 4 on tiles), drawn
 * from the evaluation's seed and the record's id. */
static int pick_dim(const Rec *r, uint64_t seed)
{
	int tiled, rank = ir_rank(r->ir, &tiled);
	static const int d1[] = {13, 17, 19, 23, 29, 31, 37, 41, 47, 53};
	static const int d2[] = {7, 9, 11, 13, 17};
	static const int d3[] = {5, 6, 7, 9};
	static const int d4[] = {3, 5};
	static const int dt[] = {2, 3, 5};
	uint64_t h = ks_hash64(r->id, strlen(r->id), seed);
	if (tiled)
		return dt[h % 3];
	switch (rank) {
	case 1:
		return d1[h % 10];
	case 2:
		return d2[h % 5];
	case 3:
		return d3[h % 4];
	default:
		return d4[h % 2];
	}
}

/* ---- running krun ----------------------------------------------------------- */

typedef struct Run {
	const char *dir, *dev;
	const EvEnv *e;
	int dim;          /* 0: the default */
	unsigned timeout; /* krun's --timeout */
} Run;

/* The end of a krun command from ARGV[N]: the run's --dim when it sets
 * one (its text in DIM), the record's IR and CODE, and the NULL. */
static void krun_tail(const char **argv, int n, const Run *u, char dim[32], const char *code)
{
	if (u->dim) {
		snprintf(dim, 32, "%d", u->dim);
		argv[n++] = "--dim";
		argv[n++] = dim;
	}
	argv[n++] = "rec.kir";
	argv[n++] = code;
	argv[n] = NULL;
}

/* krun [MODE] on seed S with CODE; its records to OUT; 0 or the reason
 * (malloc'd), the first line krun said on stderr. */
static char *krun(const Run *u, const char *mode, uint64_t s, const char *code, const char *out)
{
	char seed[32], dim[32], to[32];
	snprintf(seed, sizeof seed, "%llu", (unsigned long long)s);
	snprintf(to, sizeof to, "%u", u->timeout);
	const char *argv[20];
	int n = 0;
	argv[n++] = "krun";
	argv[n++] = "--device";
	argv[n++] = u->dev;
	argv[n++] = "--timeout";
	argv[n++] = to;
	if (mode)
		argv[n++] = mode;
	int launch = !mode || strcmp(mode, "--compile-only");
	if (launch) {
		argv[n++] = "--sentinel";
		argv[n++] = "--seed";
		argv[n++] = seed;
	}
	krun_tail(argv, n, launch ? u : &(Run){0}, dim, code);
	char *err = vf_pathf("%s/%s.err", u->dir, out);
	char *o = vf_pathf("%s/%s", u->dir, out);
	int rc = vf_run(u->dir, argv, o, err);
	char *why = NULL;
	if (rc) {
		/* krun's first line; a line ending in ':' (the compiler's messages
		 * follow) with the next one */
		size_t len_t = 0;
		char *t = vf_slurp(err, &len_t);
		Buf b = {0}, l = {0};
		const char *p = t ? t : "", *end = p + len_t;
		for (int k = 0; k < 2 && p < end; k++) {
			while (p < end && (*p == '\n' || *p == ' '))
				p++;
			const char *e = memchr(p, '\n', (size_t)(end - p));
			size_t len = e ? (size_t)(e - p) : (size_t)(end - p);
			buf_put(&l, k ? " " : "", k ? 1 : 0);
			buf_put(&l, p, len);
			p += len;
			if (!len || p[-1] != ':')
				break;
		}
		buf_putc(&l, 0);
		if (rc > 128)
			buf_printf(&b, "krun killed by signal %d", rc - 128);
		else
			vf_one_line(&b, l.n > 1 ? l.p : "krun failed with no message");
		buf_putc(&b, 0);
		why = b.p;
		buf_free(&l);
		free(t);
	}
	free(err);
	free(o);
	return why;
}

/* ---- comparing records ---------------------------------------------------- */

enum { X_EXACT, X_F16, X_F32, X_F64 };

/* The dtype class of each parameter of the kernels of the IR. */
static int class_of(const char *ir, const char *param)
{
	char key[300];
	snprintf(key, sizeof key, "%%%s: ", param);
	for (const char *k = strstr(ir, "kernel @"); k; k = strstr(k + 1, "kernel @")) {
		const char *e = strchr(k, '\n'), *p = strstr(k, key);
		if (!p || (e && p > e))
			continue;
		p += strlen(key);
		size_t n = strcspn(p, "[,) ");
		char t[64];
		snprintf(t, sizeof t, "%.*s", (int)(n < 63 ? n : 63), p);
		n = strlen(t);
		if (!n)
			return X_F32;
		if (!strcmp(t, "float"))
			return X_F32;
		if (!strcmp(t, "float16"))
			return X_F16;
		if (!strcmp(t, "float64"))
			return X_F64;
		if (!strncmp(t, "int", 3) || !strncmp(t, "uint", 4) || !strcmp(t, "bool"))
			return X_EXACT;
		char c = t[n - 1];
		return c == 'h' ? X_F16 : c == 'd' ? X_F64 : strchr("ibsl", c) ? X_EXACT : X_F32;
	}
	return X_F32; /* a struct's field: compared as float32 */
}

static void flatten(const JVal *v, double **x, size_t *n, size_t *cap)
{
	if (v->kind == J_ARR || v->kind == J_OBJ) {
		for (int i = 0; i < v->n; i++)
			flatten(v->item[i], x, n, cap);
		return;
	}
	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 64;
		*x = xrealloc(*x, sizeof **x * *cap);
	}
	(*x)[(*n)++] = v->kind == J_NUM ? v->num : v->kind == J_BOOL ? v->b : NAN;
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

typedef struct Side {
	Arena a;
	JVal **rec;
	int n;
	char *text; /* the records' numbers point into it */
} Side;

/* The records (lines) of krun's output file; 0 when it is none. */
static int load(Side *s, const char *dir, const char *file)
{
	memset(s, 0, sizeof *s);
	char *path = vf_pathf("%s/%s", dir, file);
	size_t len;
	char *t = vf_slurp(path, &len);
	free(path);
	if (!t)
		return 0;
	for (size_t at = 0; at < len;) {
		const char *p = t + at, *nl = memchr(p, '\n', len - at);
		size_t n = nl ? (size_t)(nl - p) : len - at;
		at += n + 1;
		if (!n)
			continue;
		char err[100];
		size_t off;
		int tr;
		JVal *v = json_parse(&s->a, p, n, err, sizeof err, &off, &tr);
		if (!v || v->kind != J_OBJ)
			break;
		s->rec = xrealloc(s->rec, sizeof *s->rec * (size_t)(s->n + 1));
		s->rec[s->n++] = v;
	}
	s->text = t;
	return s->n;
}

static void unload(Side *s)
{
	arena_free(&s->a);
	free(s->rec);
	free(s->text);
}

static int in_list(const JVal *l, const char *k)
{
	for (int i = 0; l && l->kind == J_ARR && i < l->n; i++)
		if (l->item[i]->kind == J_STR && !strcmp(l->item[i]->s, k))
			return 1;
	return 0;
}

/* Does the sample's SECTION equal the reference's?  NULL, or why not. */
static char *compare(const Rec *r, const JVal *ref, const JVal *got, const char *section, int grads)
{
	const JVal *rs = json_get(ref, section), *gs = json_get(got, section);
	const JVal *dep = json_get(ref, "order_dependent");
	Buf b = {0};
	if (!rs)
		return NULL;
	if (!gs || gs->kind != J_OBJ) {
		buf_printf(&b, "its record has no %s", section);
		goto out;
	}
	for (int i = 0; i < rs->n && !b.n; i++) {
		const char *k = rs->key[i];
		const JVal *g = json_get(gs, k);
		if (!g) {
			buf_printf(&b, "%s: no %s", section, k);
			break;
		}
		double *x = NULL, *y = NULL;
		size_t nx = 0, cx = 0, ny = 0, cy = 0;
		flatten(rs->item[i], &x, &nx, &cx);
		flatten(g, &y, &ny, &cy);
		if (nx != ny) {
			buf_printf(&b, "%s %s: %zu values, the reference's %zu", section, k, ny, nx);
		} else {
			if (in_list(dep, k)) {
				qsort(x, nx, sizeof *x, cmp_dbl);
				qsort(y, ny, sizeof *y, cmp_dbl);
			}
			int c = class_of(r->ir, k);
			double rtol = c == X_F16 ? 1e-2 : c == X_F64 ? 1e-9 : 1e-4;
			double atol = c == X_F16 ? 1e-2 : c == X_F64 ? 1e-10 : 1e-5;
			if (grads) {
				rtol = c == X_F16 ? 3e-2 : c == X_F64 ? 1e-7 : 1e-3;
				atol = c == X_F16 ? 3e-2 : c == X_F64 ? 1e-8 : 1e-4;
			}
			double scale = 0;
			for (size_t j = 0; j < nx; j++)
				if (x[j] != EV_SENTINEL && fabs(x[j]) > scale)
					scale = fabs(x[j]);
			for (size_t j = 0; j < nx; j++) {
				double tol = c == X_EXACT ? 0 : atol * scale + rtol * fabs(x[j]);
				if (isnan(x[j]) && isnan(y[j]))
					continue;
				if (!(fabs(x[j] - y[j]) <= tol)) {
					if (y[j] == EV_SENTINEL && !grads)
						buf_printf(
							&b,
							"%s %s[%zu] left unwritten (still the sentinel %g), the reference's %.9g",
							section, k, j, EV_SENTINEL, x[j]);
					else
						buf_printf(
							&b,
							"%s %s[%zu] = %.9g, the reference's %.9g (tolerance %.3g)",
							section, k, j, y[j], x[j], tol);
					break;
				}
			}
		}
		free(x);
		free(y);
	}
out:
	if (!b.n)
		return NULL;
	buf_putc(&b, 0);
	return b.p;
}

/* Compare the sample's records at both seeds with the reference's. */
static char *compare_runs(const Rec *r, Side *ref, Side *got, int f, const EvEnv *e)
{
	char *why = NULL;
	for (int s = 0; s < 2 && !why; s++) {
		if (got[s].n != ref[s].n) {
			Buf b = {0};
			buf_printf(&b, "%d kernel records under input seed %llu, the reference's %d", got[s].n,
				   (unsigned long long)(s ? e->s2 : e->s1), ref[s].n);
			buf_putc(&b, 0);
			return b.p;
		}
		for (int k = 0; k < ref[s].n && !why; k++) {
			why = compare(r, ref[s].rec[k], got[s].rec[k], "outputs", 0);
			if (!why && f == F_BWD)
				why = compare(r, ref[s].rec[k], got[s].rec[k], "grads", 1);
			if (why) {
				/* an output that does not change with the inputs where the reference's does */
				const char *sec[2] = {"outputs", "grads"};
				for (int q = 0; q < 1 + (f == F_BWD); q++) {
					const JVal *r1 = json_get(ref[0].rec[k], sec[q]),
						   *r2 = json_get(ref[1].rec[k], sec[q]);
					const JVal *g1 = json_get(got[0].rec[k], sec[q]),
						   *g2 = json_get(got[1].rec[k], sec[q]);
					for (int i = 0; r1 && r2 && g1 && g2 && i < r1->n; i++) {
						const JVal *a = json_get(g1, r1->key[i]),
							   *b2 = json_get(g2, r1->key[i]);
						const JVal *rb = json_get(r2, r1->key[i]);
						if (a && b2 && rb && !json_equal(r1->item[i], rb) &&
						    json_equal(a, b2)) {
							Buf b = {0};
							buf_printf(
								&b,
								"%s %s is the same under input seeds %llu and %llu, where the "
								"reference's changes (%s)",
								sec[q], r1->key[i], (unsigned long long)e->s1,
								(unsigned long long)e->s2, why);
							buf_putc(&b, 0);
							free(why);
							return b.p;
						}
					}
				}
				/* an array the reference writes, left as it was */
				const JVal *ro = json_get(ref[s].rec[k], "outputs"),
					   *ri = json_get(ref[s].rec[k], "inputs");
				const JVal *go = json_get(got[s].rec[k], "outputs"),
					   *gi = json_get(got[s].rec[k], "inputs");
				for (int i = 0; ro && ri && go && gi && i < ro->n; i++) {
					const JVal *a = json_get(go, ro->key[i]), *b2 = json_get(gi, ro->key[i]);
					const JVal *rb = json_get(ri, ro->key[i]);
					if (a && b2 && rb && !json_equal(ro->item[i], rb) && json_equal(a, b2)) {
						Buf b = {0};
						buf_printf(
							&b,
							"outputs %s is left as it was before the launch, where the reference "
							"writes it (%s)",
							ro->key[i], why);
						buf_putc(&b, 0);
						free(why);
						return b.p;
					}
				}
				Buf b = {0};
				buf_printf(&b, "under input seed %llu: %s", (unsigned long long)(s ? e->s2 : e->s1),
					   why);
				buf_putc(&b, 0);
				free(why);
				why = b.p;
			}
		}
	}
	return why;
}

/* ---- a record ----------------------------------------------------------------- */

static const char *const out_name[NFIELD][2] = {{"f1.json", "f2.json"}, {"b1.json", "b2.json"}};

/* The reference's runs at u's launch: NULL, or why they failed. */
static char *run_reference(const Run *u0, const char *ext)
{
	/* the record's own code gets krun's default minute at least */
	Run ru = *u0, *u = &ru;
	ru.timeout = ru.timeout < 60 ? 60 : ru.timeout;
	char *why = NULL;
	for (int f = 0; f < NFIELD && !why; f++) {
		char code[32], out[32];
		snprintf(code, sizeof code, "ref.%s.%s", f == F_FWD ? "f" : "b", ext);
		for (int s = 0; s < 2 && !why; s++) {
			snprintf(out, sizeof out, "ref.%s", out_name[f][s]);
			why = krun(u, f == F_FWD ? NULL : "--grad", s ? u->e->s2 : u->e->s1, code, out);
		}
	}
	return why;
}

static double bench_ms(const Run *u, int f, const char *code)
{
	char reps[16], dim[32];
	snprintf(reps, sizeof reps, "%d", ev_opt.bench);
	const char *argv[12] = {"krun", "--device", "cuda", "--bench", reps, f == F_BWD ? "--grad" : "--sentinel"};
	krun_tail(argv, 6, u, dim, code); /* the launch the sample was checked at */
	char *o = vf_pathf("%s/bench.json", u->dir);
	double ms = 0;
	if (!vf_run(u->dir, argv, o, NULL)) {
		Side s;
		load(&s, u->dir, "bench.json");
		for (int k = 0; k < s.n; k++) {
			const JVal *v = json_get(s.rec[k], f == F_BWD ? "backward_ms" : "forward_ms");
			if (v && v->kind == J_NUM)
				ms += v->num;
		}
		unload(&s);
	}
	free(o);
	return ms;
}

void ev_record(Rec *r, const EvEnv *e, const char *dir)
{
	if (mkdir(dir, 0777) && errno != EEXIST)
		ks_fatal("%s:", dir);
	int cuda = !strcmp(r->dev, "cuda");
	const char *ext = cuda ? "cu" : "c";
	char *p = vf_pathf("%s/rec.kir", dir);
	out_write_whole(p, r->ir, strlen(r->ir));
	free(p);
	for (int f = 0; f < NFIELD; f++) {
		p = vf_pathf("%s/ref.%s.%s", dir, f == F_FWD ? "f" : "b", ext);
		out_write_whole(p, r->code[f], strlen(r->code[f]));
		free(p);
	}
	/* the evaluation's seeds, unless the record's own code fails on them */
	EvEnv le = *e;
	const EvEnv *ge = e;
	e = &le;
	Run u = {dir, cuda ? (ge->cuda.gpu ? "cuda" : "sim") : "cpu", e, pick_dim(r, e->s1), ev_opt.timeout};
	char *why = run_reference(&u, ext);
	Buf note = {0};
	if (why) {
		/* the record's own code does not run at this launch: at its own */
		buf_printf(&note, "the reference does not run at --dim %d (%s): evaluated at the record's launch",
			   u.dim, why);
		free(why);
		u.dim = 0;
		why = run_reference(&u, ext);
	}
	if (why) {
		/* nor on these inputs (a non-finite value, say): on its own */
		buf_printf(&note,
			   "%sthe reference does not run on input seeds %llu and %llu (%s): evaluated on the "
			   "record's own, 1 and 2",
			   note.n ? "; " : "", (unsigned long long)le.s1, (unsigned long long)le.s2, why);
		free(why);
		le.s1 = 1;
		le.s2 = 2;
		why = run_reference(&u, ext);
	}
	if (note.n) {
		buf_putc(&note, 0);
		r->note = note.p;
	}
	Side ref[NFIELD][2];
	for (int f = 0; f < NFIELD; f++)
		for (int s = 0; s < 2; s++) {
			char out[32];
			snprintf(out, sizeof out, "ref.%s", out_name[f][s]);
			load(&ref[f][s], dir, out);
		}
	double ref_ms[NFIELD] = {0, 0};
	for (int f = 0; f < NFIELD; f++)
		for (int j = 0; j < r->n[f]; j++) {
			Sample *sm = &r->s[f][j];
			char code[64], out[2][64];
			snprintf(code, sizeof code, "s%d.%d.%s", f, j, ext);
			if (why) {
				Buf b = {0};
				buf_printf(&b, "not evaluated: the record's own code fails: %s", why);
				buf_putc(&b, 0);
				sm->why = b.p;
				continue;
			}
			size_t k = 0;
			while (k < sm->len && strchr(" \t\r\n", sm->code[k]))
				k++;
			if (k == sm->len) {
				sm->why = xstrdup("empty completion");
				continue;
			}
			p = vf_pathf("%s/%s", dir, code);
			out_write_whole(p, sm->code, sm->len);
			free(p);
			/* compiled as the record's code is: C by krun's compiler, CUDA by NVRTC
			 * where there is one, else sim's C++ */
			Run c = u;
			if (cuda && e->cuda.nvrtc[0])
				c.dev = "cuda";
			else if (cuda)
				c.dev = "sim";
			char *cw = krun(&c, "--compile-only", 0, code, "compile.out");
			if (cw) {
				Buf b = {0};
				buf_printf(&b, "compile: %s", cw);
				buf_putc(&b, 0);
				sm->why = b.p;
				free(cw);
				continue;
			}
			sm->compiled = 1;
			char *rw = NULL;
			for (int s = 0; s < 2 && !rw; s++) {
				snprintf(out[s], sizeof out[s], "s%d.%d.%d.json", f, j, s);
				rw = krun(&u,
					  f == F_FWD ? NULL
					  : s == 0   ? "--gradcheck"
						     : "--grad",
					  s ? e->s2 : e->s1, code, out[s]);
			}
			if (rw) {
				Buf b = {0};
				buf_printf(&b, "%s: %s", strstr(rw, "gradcheck failed") ? "gradient check" : "run",
					   rw);
				buf_putc(&b, 0);
				sm->why = b.p;
				free(rw);
				continue;
			}
			Side got[2];
			load(&got[0], dir, out[0]);
			load(&got[1], dir, out[1]);
			sm->why = compare_runs(r, ref[f], got, f, e);
			unload(&got[0]);
			unload(&got[1]);
			sm->correct = !sm->why;
			if (sm->correct && cuda && e->cuda.gpu) {
				if (!ref_ms[f])
					ref_ms[f] = bench_ms(&u, f, f == F_FWD ? "ref.f.cu" : "ref.b.cu");
				double ms = bench_ms(&u, f, code);
				sm->speedup = ms > 0 && ref_ms[f] > 0 ? ref_ms[f] / ms : 0;
			}
		}
	for (int f = 0; f < NFIELD; f++)
		for (int s = 0; s < 2; s++)
			unload(&ref[f][s]);
	free(why);
}
