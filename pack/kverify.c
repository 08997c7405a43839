/*
 * kverify: re-checks a dataset that `make dataset` made, on the machine
 * at hand (doc/dataset.md, "make verify").
 *
 *   kverify [-j N] [--shard S] [--work DIR] [--bin DIR] [--json FILE] [--run-foreign] DATASET
 *   kverify index --work DIR [--shard S] [--bin DIR] [--run-foreign] DATASET
 *   kverify shard --work DIR [--bin DIR] K
 *   kverify report --work DIR [--json FILE] DATASET
 *
 * The first form does the three steps below in one process, N shards at
 * a time, in a work folder of its own (or DIR, kept); `make verify` runs
 * them as a Make graph over shards, as `make dataset` builds.
 *
 * index (pack/verify_read.c) reads the dataset's files once, checks
 * that each record is well formed and that the files agree, and writes
 * the work folder.
 *
 * shard runs the tools (those of --bin, else those beside kverify) in
 * WORK/K/DEVICE, a batch per tool and check as make dataset does: kgen
 * makes the record's kernel again (its source, and its coverage counts),
 * kparse its IR from the source, kfmt --hash its ir_hash, kdiff and the
 * emitter its forward and backward code from the record's IR; each must
 * equal the record's bytes.  Then the record's own code is compiled (C
 * by krun, CUDA by NVRTC to an sm_90 cubin when there is one here), its
 * forward code run on input seeds 1 and 2, its backward code
 * gradient-checked, and the forward run must equal the backward code's
 * forward run; on the device recorded (cpu; cuda on a GPU, else sim).
 * Code that is not what these tools make of the record's IR is foreign:
 * it is compiled but not run (the checks that run it are skipped, with
 * the reason), unless the index was made with --run-foreign; krun runs
 * whatever it runs in a confined child (doc/dataset.md, the threat
 * model).  What it finds goes to WORK/K.ver.
 *
 * report (pack/verify_report.c) reads index.txt and every K.ver, prints
 * the failures and the summary, writes verify.json and exits 0 only when
 * every record and every file passed.
 *
 * shard lives in this file, in sections; the helpers the steps share
 * are in pack/verify_util.c, behind pack/verify.h.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gen/gen.h"
#include "lib/ks.h"
#include "pack/json.h"
#include "pack/record.h"
#include "pack/verify.h"
#include "version.h"

static const char usage_text[] =
	"usage: kverify [-j N] [--shard S] [--work DIR] [--bin DIR] [--json FILE] [--run-foreign] DATASET\n"
	"       kverify index --work DIR [--shard S] [--bin DIR] [--run-foreign] DATASET\n"
	"       kverify shard --work DIR [--bin DIR] K\n"
	"       kverify report --work DIR [--json FILE] DATASET\n";

static KS_NORETURN void usage(int status)
{
	fputs(usage_text, status ? stderr : stdout);
	exit(status);
}

/* ---- small helpers ---------------------------------------------------- */

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_REALTIME, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* ---- kverify shard ------------------------------------------------------ */

typedef struct VRec {
	char id[80], name[256], cat[32], hash[32], on[16];
	unsigned long long idx, seed;
	int dev, src_ok, have_dkir;
	int foreign_f, foreign_b; /* its forward, backward code is not these tools' */
	Buf out; /* its lines of K.ver */
} VRec;

static int same_version; /* the dataset's tools are these */

static void rec_line(VRec *r, const char *kind, const char *what, const char *fmt, va_list ap)
{
	char d[1024];
	vsnprintf(d, sizeof d, fmt, ap);
	buf_printf(&r->out, "V\t%s\t%s\t%s\t", r->id, kind, what);
	vf_one_line(&r->out, d);
	buf_putc(&r->out, '\n');
}

/* the record fails a check */
static void rec_fail(VRec *r, const char *reason, const char *fmt, ...) KS_PRINTF(3, 4);
static void rec_fail(VRec *r, const char *reason, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	rec_line(r, "fail", reason, fmt, ap);
	va_end(ap);
}

/* a field is not what these tools make of it: a failure when the dataset
 * was made by these tools, else a difference, reported */
static void rec_code(VRec *r, const char *field, const char *fmt, ...) KS_PRINTF(3, 4);
static void rec_code(VRec *r, const char *field, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	rec_line(r, same_version ? "fail" : "diff", field, fmt, ap);
	va_end(ap);
}

/* a check that cannot be made here */
static void rec_skip(VRec *r, const char *check, const char *fmt, ...) KS_PRINTF(3, 4);
static void rec_skip(VRec *r, const char *check, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	rec_line(r, "skip", check, fmt, ap);
	va_end(ap);
}

/* Do DIR/A (the record's) and DIR/B (these tools') hold the same bytes?
 * If not, DETAIL says at which line they part. */
static int same_files(const char *dir, const char *a, const char *b, char *detail, size_t dn)
{
	char *pa = vf_pathf("%s/%s", dir, a), *pb = vf_pathf("%s/%s", dir, b);
	size_t na, nb;
	char *sa = vf_slurp(pa, &na), *sb = vf_slurp(pb, &nb);
	int same = sa && sb && na == nb && !memcmp(sa, sb, na);
	if (!same && sa && sb) {
		size_t i = 0, line = 1, bol = 0;
		while (i < na && i < nb && sa[i] == sb[i]) {
			if (sa[i] == '\n') {
				line++;
				bol = i + 1;
			}
			i++;
		}
		size_t ea = strcspn(sa + bol, "\n"), eb = strcspn(sb + bol, "\n");
		Buf x = {0}, y = {0};
		buf_first_line(&x, sa + bol, ea < 70 ? ea : 70);
		buf_first_line(&y, sb + bol, eb < 70 ? eb : 70);
		buf_putc(&x, 0);
		buf_putc(&y, 0);
		snprintf(detail, dn, "line %zu is '%s'; these tools write '%s'", line, i < na ? x.p : "(the end)",
			 i < nb ? y.p : "(the end)");
		buf_free(&x);
		buf_free(&y);
	} else if (!same) {
		snprintf(detail, dn, "%s is missing", sa ? b : a);
	}
	free(sa);
	free(sb);
	free(pa);
	free(pb);
	return same;
}

/* TOOL [FLAG] --each over (IN[i], OUT[i]) for the i with IN[i] set, in
 * DIR: WHY[i] NULL where OUT[i] was made, else the reason (malloc'd).  A
 * line the batch gave no status (it died) is made by a run of its own. */
static void each_tool(const char *dir, const char *dev, const char *tool, const char *flag, int n, char **in,
		      char **out, char **why)
{
	Buf l = {0};
	for (int i = 0; i < n; i++)
		if (in[i])
			buf_printf(&l, "%s %s\n", in[i], out[i]);
	for (int i = 0; i < n; i++)
		why[i] = NULL;
	if (!l.n)
		return;
	char *list = vf_pathf("%s/../%s.%s.list", dir, dev, tool), *status = vf_pathf("%s.status", list),
	     *err = vf_pathf("%s.err", list);
	out_write_whole(list, l.p, l.n);
	const char *argv[5] = {tool}, **a = argv + 1;
	if (flag)
		*a++ = flag;
	*a++ = "--each";
	*a++ = list;
	*a = NULL;
	vf_run(dir, argv, status, err);
	size_t sn;
	char *st = vf_slurp(status, &sn);
	for (int i = 0; i < n; i++) {
		if (!in[i])
			continue;
		char *s = vf_status_of(st, out[i]);
		if (!s) {
			const char *one[6] = {tool}, **b = one + 1;
			if (flag)
				*b++ = flag;
			*b++ = in[i];
			*b++ = "-o";
			*b++ = out[i];
			*b = NULL;
			s = vf_run(dir, one, NULL, err) ? vf_first_line_of(err) : xstrdup("");
		}
		if (*s)
			why[i] = s;
		else
			free(s);
	}
	free(st);
	free(list);
	free(status);
	free(err);
	buf_free(&l);
}

/* krun OPTS over (IN[i], CODE[i], OUT[i]) for the i with IN[i] set, in
 * DIR: one --batch (doc/runtime.md), a line it gave no status run alone,
 * and every line alone on a GPU (--batch runs on cpu and sim only).
 * WHY[i] NULL where krun passed, else its first error line. */
static void krun_each(const char *dir, const char *list_name, const char *const *opts, int gpu, int n, char **in,
		      char **code, char **out, char **why)
{
	Buf l = {0};
	for (int i = 0; i < n; i++) {
		why[i] = NULL;
		if (in[i])
			buf_printf(&l, "%s %s%s%s\n", in[i], code[i], out ? " " : "", out ? out[i] : "");
	}
	if (!l.n)
		return;
	int no = 0;
	while (opts[no])
		no++;
	const char **argv = xmalloc(sizeof *argv * (size_t)(no + 6));
	char *list = vf_pathf("%s/../%s.list", dir, list_name), *status = vf_pathf("%s.status", list),
	     *err = vf_pathf("%s.err", list);
	char *st = NULL;
	argv[0] = "krun";
	memcpy(argv + 1, opts, sizeof *opts * (size_t)no);
	if (!gpu) {
		out_write_whole(list, l.p, l.n);
		argv[no + 1] = "--batch";
		argv[no + 2] = list;
		argv[no + 3] = NULL;
		vf_run(dir, argv, status, err);
		size_t sn;
		st = vf_slurp(status, &sn);
	}
	for (int i = 0; i < n; i++) {
		if (!in[i])
			continue;
		char *s = st ? vf_status_of(st, code[i]) : NULL;
		if (!s) {
			argv[no + 1] = in[i];
			argv[no + 2] = code[i];
			argv[no + 3] = NULL;
			char *o = out ? vf_pathf("%s/%s", dir, out[i]) : NULL;
			s = vf_run(dir, argv, o, err) ? vf_first_line_of(err) : xstrdup("");
			free(o);
		}
		if (*s)
			why[i] = s;
		else
			free(s);
	}
	free(argv);
	free(st);
	free(list);
	free(status);
	free(err);
	buf_free(&l);
}

static void cov_add(Cov *c, const char *file)
{
	size_t n;
	char *s = vf_slurp(file, &n);
	for (char *l = s; l && *l; l += strcspn(l, "\n"), l += *l == '\n') {
		char kind[64], name[128];
		unsigned long long k;
		if (sscanf(l, "%63s %127s %llu", kind, name, &k) != 3)
			continue;
		char row[200];
		snprintf(row, sizeof row, "%s %s", kind, name);
		int i;
		for (i = 0; i < c->n && strcmp(c->row[i], row); i++)
			;
		if (i == c->n) {
			c->row = xrealloc(c->row, sizeof *c->row * (size_t)(c->n + 1));
			c->count = xrealloc(c->count, sizeof *c->count * (size_t)(c->n + 1));
			c->row[c->n] = xstrdup(row);
			c->count[c->n++] = 0;
		}
		c->count[i] += k;
	}
	free(s);
}

/* One krun record per line of DIR/FILE, parsed into A: the records by
 * kernel name in *K, how many in the return value (-1: no file). */
enum { KMAX = 32 };
static int krun_records(Arena *a, const char *dir, const char *file, JVal **rec)
{
	char *p = vf_pathf("%s/%s", dir, file);
	size_t n;
	char *s = vf_slurp(p, &n);
	free(p);
	if (!s)
		return -1;
	char *t = arena_alloc(a, n + 1);
	memcpy(t, s, n + 1);
	free(s);
	int k = 0;
	for (char *l = t; *l && k < KMAX;) {
		size_t e = strcspn(l, "\n");
		JVal *v = json_parse(a, l, e, NULL, 0, NULL, NULL);
		if (v && v->kind == J_OBJ)
			rec[k++] = v;
		l += e + (l[e] == '\n');
	}
	return k;
}

static JVal *by_kernel(JVal **rec, int n, const JVal *like)
{
	const JVal *name = json_get(like, "kernel");
	for (int i = 0; i < n; i++)
		if (json_equal(json_get(rec[i], "kernel"), name))
			return rec[i];
	return NULL;
}

/* Do two outputs agree: exactly (TOL 0), or within TOL relative and 2*TOL
 * absolute (a GPU's transcendentals and atomics' order)?  WHERE gets the
 * first place they do not, as `a[3]`. */
static int agree(const JVal *a, const JVal *b, double tol, char *where, size_t wn)
{
	if (!a || !b)
		return a == b;
	if (tol > 0 && a->kind == J_NUM && b->kind == J_NUM)
		return fabs(a->num - b->num) <= 2 * tol + tol * fabs(b->num);
	if (a->kind != b->kind || ((a->kind == J_ARR || a->kind == J_OBJ) && a->n != b->n))
		return 0;
	if (a->kind != J_ARR && a->kind != J_OBJ)
		return json_equal(a, b);
	for (int i = 0; i < a->n; i++)
		if (!agree(a->item[i], b->item[i], tol, where, wn)) {
			char tmp[200];
			if (a->kind == J_OBJ)
				snprintf(tmp, sizeof tmp, "%.60s%s", a->key[i], where);
			else
				snprintf(tmp, sizeof tmp, "[%d]%s", i, where);
			snprintf(where, wn, "%s", tmp);
			return 0;
		}
	return 1;
}

/* Does any array the kernel writes hold values that depend on its inputs
 * (R1, R2: its runs on input seeds 1 and 2)? */
static int depends(const JVal *r1, const JVal *r2)
{
	const JVal *o1 = json_get(r1, "outputs"), *i1 = json_get(r1, "inputs");
	const JVal *o2 = json_get(r2, "outputs"), *i2 = json_get(r2, "inputs");
	if (!o1 || o1->kind != J_OBJ)
		return 0;
	for (int k = 0; k < o1->n; k++) {
		const JVal *a1 = o1->item[k], *a2 = json_get(o2, o1->key[k]);
		int written = !json_equal(a1, json_get(i1, o1->key[k])) || !json_equal(a2, json_get(i2, o1->key[k]));
		if (written && !json_equal(a1, a2))
			return 1;
	}
	return 0;
}

/* NVRTC on all the records' code of one kind (EXT: .f.cu or .b.cu) as
 * one program, to an sm_90 cubin; where it fails, each record's alone.
 * WHY[i] as krun_each's; 77 from krun (NVRTC gone) fails every record. */
static void nvrtc_each(const char *dir, VRec **r, int n, const char *ext, const char *nvrtc, char **why)
{
	int bw = strcmp(ext, ".f.cu") != 0; /* the backward code: with kdiff's IR */
	Buf all = {0};
	const char *ir = NULL;
	for (int i = 0; i < n; i++) {
		why[i] = NULL;
		char *p = vf_pathf("%s/%s%s", dir, r[i]->name, ext), *s;
		size_t len;
		if ((s = vf_slurp(p, &len))) {
			buf_put(&all, s, len);
			buf_putc(&all, '\n');
		}
		if (!ir && (!bw || r[i]->have_dkir))
			ir = r[i]->name;
		free(s);
		free(p);
	}
	char *prog = vf_pathf("%s/../cuda.shard%s", dir, ext), *err = vf_pathf("%s.err", prog), *kir = NULL;
	if (ir)
		kir = vf_pathf("%s%s", ir, bw ? ".d.kir" : ".kir");
	out_write_whole(prog, all.p, all.n);
	buf_free(&all);
	const char *argv[] = {"krun", "--device", "cuda", "--compile-only", "--arch", "sm_90", kir, prog, NULL};
	int rc = kir ? vf_run(dir, argv, NULL, err) : 1;
	if (rc == 77)
		ks_fatal("%s was there as kverify index ran and cannot be had now: %s", nvrtc, vf_first_line_of(err));
	for (int i = 0; rc && i < n; i++) {
		if (bw && !r[i]->have_dkir)
			continue; /* its backward failed already */
		char *code = vf_pathf("%s%s", r[i]->name, ext), *one = vf_pathf("%s%s", r[i]->name, bw ? ".d.kir" : ".kir");
		const char *a1[] = {"krun", "--device", "cuda", "--compile-only", "--arch", "sm_90", one, code, NULL};
		if (vf_run(dir, a1, NULL, err))
			why[i] = vf_first_line_of(err);
		free(code);
		free(one);
	}
	free(prog);
	free(err);
	free(kir);
}

/* The records of one device of shard K, in DIR. */
static void verify_group(const char *dir, VRec **r, int n, int dev, const Env *env, Cov *cov)
{
	char **in = xmalloc(sizeof *in * (size_t)n), **out = xmalloc(sizeof *out * (size_t)n),
	     **in2 = xmalloc(sizeof *in2 * (size_t)n), **code = xmalloc(sizeof *code * (size_t)n),
	     **why = xmalloc(sizeof *why * (size_t)n);
	char detail[600], cats[300], seed[32];
	const char *c = dev ? "cu" : "c", *emitter = dev ? "kemit-cu" : "kemit-cpu";
	snprintf(cats, sizeof cats, "%s", env->cats);
#define EACH_REC for (int i = 0; i < n; i++)
#define F(fmt) vf_pathf(fmt, r[i]->name)

	/* the source: kgen's kernel INDEX, and its coverage counts */
	EACH_REC {
		char idx[32];
		snprintf(idx, sizeof idx, "%llu", r[i]->idx);
		snprintf(seed, sizeof seed, "%llu", r[i]->seed);
		char *g = F("%s.g.py"), *cv = F("%s.cov"), *py = F("%s.py"), *err = vf_pathf("%s/../kgen.err", dir);
		/* kgen --verify keeps a kernel's first draw that its krun check
		 * passes; the source must be one of the draws (the check below
		 * runs the record's own code) */
		char draw[16], later[sizeof detail]; /* detail: where draw 0 parts from the source */
		int failed = 0, same = 0;
		for (int d = 0; d <= GEN_MAX_REDRAW && !failed && !same; d++) {
			snprintf(draw, sizeof draw, "%d", d);
			const char *argv[] = {"kgen", "-c", cats, "-s", seed, "-n", "1", "--first", idx, "--draw", draw,
					      "-o", g, NULL};
			failed = vf_run(dir, argv, NULL, err) != 0;
			same = !failed && same_files(dir, py, g, d ? later : detail, sizeof detail);
		}
		if (failed) {
			char *w = vf_first_line_of(err);
			rec_code(r[i], "source", "kgen: %s", w);
			free(w);
		} else if (!same) {
			rec_code(r[i], "source", "not kgen's kernel %llu (draw 0 to %d): %s", r[i]->idx, GEN_MAX_REDRAW,
				 detail);
		} else {
			r[i]->src_ok = 1;
			const char *cv_argv[] = {"kgen", "-c", cats, "-s", seed, "-n", "1", "--first", idx, "--draw", draw,
						 "--coverage", "-o", cv, NULL};
			vf_run(dir, cv_argv, NULL, NULL); /* exit 1: rows of zero, as one kernel has */
			char *p = vf_pathf("%s/%s", dir, cv);
			cov_add(cov, p);
			free(p);
		}
		free(g);
		free(cv);
		free(py);
		free(err);
	}

	/* the IR: kparse's of the source */
	EACH_REC {
		in[i] = F("%s.py");
		out[i] = F("%s.v.kir");
	}
	each_tool(dir, vf_dev_name[dev], "kparse", NULL, n, in, out, why);
	EACH_REC {
		char *kir = F("%s.kir");
		if (why[i])
			rec_code(r[i], "ir", "kparse: %s", why[i]);
		else if (!same_files(dir, kir, out[i], detail, sizeof detail))
			rec_code(r[i], "ir", "not kparse's IR of the source: %s", detail);
		free(kir);
	}
	vf_free_why(why, n);

	/* meta.ir_hash: kfmt --hash's of the record's IR */
	EACH_REC {
		free(in[i]);
		free(out[i]);
		in[i] = F("%s.kir");
		out[i] = F("%s.v.hash");
	}
	each_tool(dir, vf_dev_name[dev], "kfmt", "--hash", n, in, out, why);
	EACH_REC {
		if (why[i]) {
			rec_code(r[i], "ir-hash", "kfmt --hash: %s", why[i]);
			continue;
		}
		char *p = vf_pathf("%s/%s", dir, out[i]), h[64] = "none";
		size_t len, nl = strlen(r[i]->name);
		char *s = vf_slurp(p, &len);
		for (char *l = s; l && *l; l += strcspn(l, "\n"), l += *l == '\n')
			if (!strncmp(l, r[i]->name, nl) && l[nl] == ' ')
				sscanf(l + nl + 1, "%63s", h);
		if (strcmp(h, r[i]->hash))
			rec_code(r[i], "ir-hash", "meta.ir_hash is %s; kfmt --hash gives %s", r[i]->hash, h);
		free(s);
		free(p);
	}
	vf_free_why(why, n);

	/* the backward IR: kdiff's of the record's IR */
	EACH_REC {
		free(out[i]);
		out[i] = F("%s.d.kir");
	}
	each_tool(dir, vf_dev_name[dev], "kdiff", NULL, n, in, out, why);
	EACH_REC {
		if (why[i])
			rec_code(r[i], "backward", "kdiff: %s", why[i]);
		else
			r[i]->have_dkir = 1;
	}
	vf_free_why(why, n);

	/* forward and backward: the emitter's of the IR and of kdiff's */
	EACH_REC {
		in2[i] = r[i]->have_dkir ? F("%s.d.kir") : NULL;
		code[i] = vf_pathf("%s.v.b.%s", r[i]->name, c);
		free(out[i]);
		out[i] = vf_pathf("%s.v.f.%s", r[i]->name, c);
	}
	each_tool(dir, vf_dev_name[dev], emitter, NULL, n, in, out, why);
	EACH_REC {
		char *mine = vf_pathf("%s.f.%s", r[i]->name, c);
		r[i]->foreign_f = why[i] || !same_files(dir, mine, out[i], detail, sizeof detail);
		if (why[i])
			rec_code(r[i], "forward", "%s: %s", emitter, why[i]);
		else if (r[i]->foreign_f)
			rec_code(r[i], "forward", "not %s's code of the IR: %s", emitter, detail);
		free(mine);
	}
	vf_free_why(why, n);
	each_tool(dir, vf_dev_name[dev], emitter, NULL, n, in2, code, why);
	EACH_REC {
		char *mine = vf_pathf("%s.b.%s", r[i]->name, c);
		r[i]->foreign_b = why[i] || (in2[i] && !same_files(dir, mine, code[i], detail, sizeof detail));
		if (why[i])
			rec_code(r[i], "backward", "%s: %s", emitter, why[i]);
		else if (r[i]->foreign_b)
			rec_code(r[i], "backward", "not %s's code of kdiff's IR: %s", emitter, detail);
		free(mine);
	}
	vf_free_why(why, n);

	/* the record's own code: compiled, run on input seeds 1 and 2, its
	 * backward gradient-checked, on the device recorded */
	const char *devopt = dev == CPU ? "cpu" : env->gpu ? "cuda" : "sim";
	int gpu = dev == CUDA && env->gpu;
	EACH_REC {
		free(code[i]);
		code[i] = vf_pathf("%s.f.%s", r[i]->name, c);
	}
	if (dev == CPU) {
		const char *opts[] = {"--compile-only", NULL};
		krun_each(dir, "cpu.compile", opts, 0, n, in, code, NULL, why);
		EACH_REC if (why[i]) rec_fail(r[i], "compile", "%s", why[i]);
		vf_free_why(why, n);
	} else if (!strncmp(env->nvrtc, "none", 4)) {
		EACH_REC rec_skip(r[i], "compile", "no NVRTC here: %s", env->nvrtc);
	} else {
		nvrtc_each(dir, r, n, ".f.cu", env->nvrtc, why);
		EACH_REC if (why[i]) rec_fail(r[i], "compile", "%s, forward: %s", env->nvrtc, why[i]);
		vf_free_why(why, n);
		nvrtc_each(dir, r, n, ".b.cu", env->nvrtc, why);
		EACH_REC if (why[i]) rec_fail(r[i], "compile", "%s, backward: %s", env->nvrtc, why[i]);
		vf_free_why(why, n);
	}
	/* foreign code is compiled above, and run only with --run-foreign */
	char **inf = xmalloc(sizeof *inf * (size_t)(n + 1)), **inb = xmalloc(sizeof *inb * (size_t)(n + 1));
	EACH_REC {
		int runf = !r[i]->foreign_f || env->run_foreign, runb = !r[i]->foreign_b || env->run_foreign;
		inf[i] = runf ? in[i] : NULL;
		inb[i] = runb ? in2[i] : NULL;
		if (!runf)
			rec_skip(r[i], "run", "not run: the forward code is not %s's code of the IR (--run-foreign "
				 "runs it, confined)", emitter);
		if (!runb && in2[i])
			rec_skip(r[i], "gradcheck", "not run: the backward code is not %s's code of kdiff's IR "
				 "(--run-foreign runs it, confined)", emitter);
	}
	if (dev == CPU) {
		/* foreign backward code is not run, but it is compiled */
		char **inc = xmalloc(sizeof *inc * (size_t)(n + 1)), **bcode = xmalloc(sizeof *bcode * (size_t)(n + 1));
		EACH_REC {
			inc[i] = in2[i] && !inb[i] ? in2[i] : NULL;
			bcode[i] = vf_pathf("%s.b.c", r[i]->name);
		}
		const char *opts[] = {"--compile-only", NULL};
		krun_each(dir, "cpu.bcompile", opts, 0, n, inc, bcode, NULL, why);
		EACH_REC if (why[i]) rec_fail(r[i], "compile", "backward: %s", why[i]);
		vf_free_why(why, n);
		EACH_REC free(bcode[i]);
		free(bcode);
		free(inc);
	}
	for (int s = 1; s <= 2; s++) {
		const char *opts[] = {"--device", devopt, "--seed", s == 1 ? "1" : "2", NULL};
		char ln[64];
		snprintf(ln, sizeof ln, "%s.run%d", vf_dev_name[dev], s);
		EACH_REC {
			free(out[i]);
			out[i] = vf_pathf("%s.r%d.json", r[i]->name, s);
		}
		krun_each(dir, ln, opts, gpu, n, inf, code, out, why);
		EACH_REC if (why[i]) rec_fail(r[i], "run", "input seed %d, on %s: %s", s, devopt, why[i]);
		vf_free_why(why, n);
	}
	EACH_REC {
		free(code[i]);
		code[i] = vf_pathf("%s.b.%s", r[i]->name, c);
		free(out[i]);
		out[i] = F("%s.g.json");
	}
	{
		const char *opts[] = {"--device", devopt, "--gradcheck", NULL};
		char ln[64];
		snprintf(ln, sizeof ln, "%s.gradcheck", vf_dev_name[dev]);
		krun_each(dir, ln, opts, gpu, n, inb, code, out, why);
		EACH_REC if (why[i]) rec_fail(r[i], "gradcheck", "on %s: %s", devopt, why[i]);
		vf_free_why(why, n);
	}

	/* the forward code's run and the backward code's forward run agree;
	 * the figures: degenerate, the gradient check's worst */
	EACH_REC {
		Arena a = {0};
		JVal *r1[KMAX], *r2[KMAX], *g[KMAX];
		char *f1 = F("%s.r1.json"), *f2 = F("%s.r2.json"), *fg = F("%s.g.json");
		int n1 = inf[i] ? krun_records(&a, dir, f1, r1) : -1, n2 = inf[i] ? krun_records(&a, dir, f2, r2) : -1,
		    ng = inb[i] ? krun_records(&a, dir, fg, g) : -1;
		const char *degen = "-";
		if (n1 > 0 && n2 == n1) {
			int dep = 0;
			for (int k = 0; k < n1; k++)
				dep |= depends(r1[k], by_kernel(r2, n2, r1[k]));
			degen = dep ? "0" : "1";
		}
		double ratio = -1, rel = -1;
		for (int k = 0; k < ng; k++) {
			JVal *gc = json_get(g[k], "gradcheck"), *q = json_get(gc, "worst_ratio"), *e = json_get(gc, "worst_rel");
			if (q && q->kind == J_NUM && q->num > ratio)
				ratio = q->num;
			if (e && e->kind == J_NUM && e->num > rel)
				rel = e->num;
		}
		if (n1 > 0 && ng > 0) {
			for (int k = 0; k < n1; k++) {
				JVal *b = by_kernel(g, ng, r1[k]);
				char where[256] = "";
				if (!b)
					rec_fail(r[i], "agree", "the backward code's run has no kernel %s",
						 json_get(r1[k], "kernel") && json_get(r1[k], "kernel")->kind == J_STR ? json_get(r1[k], "kernel")->s : "?");
				else if (!agree(json_get(r1[k], "outputs"), json_get(b, "outputs"), gpu ? 1e-5 : 0, where, sizeof where))
					rec_fail(r[i], "agree", "the forward code's outputs differ from the backward code's forward run at %s",
						 *where ? where : "the outputs");
			}
		}
		if (ratio >= 0 && rel >= 0)
			buf_printf(&r[i]->out, "M\t%s\t%s\t%.4g\t%.4g\n", r[i]->id, degen, ratio, rel);
		else
			buf_printf(&r[i]->out, "M\t%s\t%s\t-\t-\n", r[i]->id, degen);
		free(f1);
		free(f2);
		free(fg);
		arena_free(&a);
	}
	EACH_REC {
		free(in[i]);
		free(in2[i]);
		free(out[i]);
		free(code[i]);
	}
#undef EACH_REC
#undef F
	free(inf);
	free(inb);
	free(in);
	free(in2);
	free(out);
	free(code);
	free(why);
}

static int do_shard(const char *karg)
{
	if (!vf_opt.work || !karg)
		usage(2);
	char *e;
	long k = strtol(karg, &e, 10);
	if (*e || k < 0)
		usage(2);
	vf_find_bin();
	Env env;
	vf_read_env(&env);
	same_version = !strcmp(env.version, KS_VERSION);
	char *p = vf_pathf("%s/%ld/index.st", vf_opt.work, k);
	size_t n;
	char *s = vf_slurp(p, &n);
	if (!s)
		ks_fatal("%s is missing: run kverify index first", p);
	free(p);
	VRec *rec = NULL;
	int nrec = 0;
	for (char *l = s; *l; l += strcspn(l, "\n"), l += *l == '\n') {
		VRec v = {0};
		char dev[16];
		int compiled;
		if (sscanf(l, "%79s %15s %255s %llu %31s %31s %15s %d", v.id, dev, v.name, &v.idx, v.cat, v.hash, v.on,
			   &compiled) != 8 || !vf_is_name(v.name))
			ks_fatal("%s/%ld/index.st: a bad line", vf_opt.work, k);
		int d;
		if (!vf_parse_id(v.id, &v.seed, &v.idx, &d))
			ks_fatal("%s/%ld/index.st: a bad id '%s'", vf_opt.work, k, v.id);
		v.dev = !strcmp(dev, "cuda");
		rec = xrealloc(rec, sizeof *rec * (size_t)(nrec + 1));
		rec[nrec++] = v;
	}
	free(s);
	Cov cov = {0};
	for (int d = 0; d < 2; d++) {
		VRec **r = xmalloc(sizeof *r * (size_t)(nrec + 1));
		int m = 0;
		for (int i = 0; i < nrec; i++)
			if (rec[i].dev == d)
				r[m++] = &rec[i];
		if (m) {
			char *dir = vf_pathf("%s/%ld/%s", vf_opt.work, k, vf_dev_name[d]);
			verify_group(dir, r, m, d, &env, &cov);
			free(dir);
		}
		free(r);
	}
	Buf ver = {0};
	for (int i = 0; i < nrec; i++) {
		buf_put(&ver, rec[i].out.p, rec[i].out.n);
		buf_free(&rec[i].out);
	}
	for (int i = 0; i < cov.n; i++) {
		buf_printf(&ver, "C\t%s\t%llu\n", cov.row[i], cov.count[i]);
		free(cov.row[i]);
	}
	free(cov.row);
	free(cov.count);
	p = vf_pathf("%s/%ld.ver", vf_opt.work, k);
	out_write_whole(p, ver.p, ver.n);
	free(p);
	buf_free(&ver);
	free(rec);
	return 0;
}

/* ---- kverify DATASET: the three steps here -------------------------------- */

static char *own_work; /* a work folder made here, removed at exit */

static void rm_rf(const char *path)
{
	struct stat st;
	if (lstat(path, &st))
		return;
	if (S_ISDIR(st.st_mode)) {
		DIR *d = opendir(path);
		struct dirent *de;
		while (d && (de = readdir(d)))
			if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
				char *p = vf_pathf("%s/%s", path, de->d_name);
				rm_rf(p);
				free(p);
			}
		if (d)
			closedir(d);
		rmdir(path);
	} else {
		unlink(path);
	}
}

static pid_t main_pid;

static void remove_own_work(void)
{
	if (own_work && getpid() == main_pid)
		rm_rf(own_work);
}

static int mtime(const char *path, struct timespec *t)
{
	struct stat st;
	if (stat(path, &st))
		return 0;
	*t = st.st_mtim;
	return 1;
}

static int newer(struct timespec a, struct timespec b)
{
	return a.tv_sec > b.tv_sec || (a.tv_sec == b.tv_sec && a.tv_nsec > b.tv_nsec);
}

/* Is WORK/K.ver newer than what it was made from: the shard's records,
 * WORK/env and the tools?  (What make verify's graph says.) */
static int up_to_date(long k)
{
	static const char *const tools[] = {"kgen", "kparse", "kfmt", "kdiff", "kemit-cpu", "kemit-cu", "krun", "kverify"};
	struct timespec v, t;
	char *p = vf_pathf("%s/%ld.ver", vf_opt.work, k);
	int ok = mtime(p, &v);
	free(p);
	p = vf_pathf("%s/%ld/index.st", vf_opt.work, k);
	ok = ok && mtime(p, &t) && newer(v, t);
	free(p);
	p = vf_pathf("%s/env", vf_opt.work);
	ok = ok && mtime(p, &t) && newer(v, t);
	free(p);
	for (size_t i = 0; ok && i < KS_NELEM(tools); i++) {
		p = vf_pathf("%s/%s", vf_bin_dir, tools[i]);
		ok = mtime(p, &t) && newer(v, t);
		free(p);
	}
	return ok;
}

static long count_records(long k)
{
	char *p = vf_pathf("%s/%ld/index.st", vf_opt.work, k);
	size_t n;
	char *s = vf_slurp(p, &n);
	long c = s ? count_lines(s, n) : 0;
	free(s);
	free(p);
	return c;
}

static int do_all(void)
{
	if (!vf_opt.data)
		usage(2);
	main_pid = getpid();
	if (!vf_opt.work) {
		const char *t = getenv("TMPDIR");
		own_work = vf_pathf("%s/kverify.XXXXXX", t && *t ? t : "/tmp");
		if (!mkdtemp(own_work))
			ks_fatal("%s:", own_work);
		vf_opt.work = own_work;
		atexit(remove_own_work);
	}
	verify_index();
	char *p = vf_pathf("%s/shards", vf_opt.work);
	size_t n;
	char *sh = vf_slurp(p, &n);
	free(p);
	long *ks = NULL, nk = 0, all = 0;
	for (char *q = sh, *e; q && *q && *q != '\n'; q = e + (*e == ' ')) {
		long k = strtol(q, &e, 10);
		if (e == q)
			break;
		all++;
		if (own_work || !up_to_date(k)) {
			ks = xrealloc(ks, sizeof *ks * (size_t)(nk + 1));
			ks[nk++] = k;
		}
	}
	free(sh);
	/* the shards, vf_opt.jobs at a time; the progress line as make verify's */
	pid_t *pid = xmalloc(sizeof *pid * (size_t)(nk + 1));
	double *start = xmalloc(sizeof *start * (size_t)(nk + 1)), t0 = now(), took = 0;
	long next = 0, running = 0, done = 0, recs = 0;
	int tty = isatty(2), bad = 0;
	while (done < nk) {
		while (running < vf_opt.jobs && next < nk) {
			fflush(stdout);
			fflush(stderr);
			pid[next] = fork();
			if (pid[next] < 0)
				ks_fatal("fork:");
			if (!pid[next]) {
				char *ka = vf_pathf("%ld", ks[next]);
				int rc = do_shard(ka);
				free(ka);
				free(ks);
				free(pid);
				free(start);
				exit(rc);
			}
			start[next++] = now();
			running++;
		}
		int st;
		pid_t w = wait(&st);
		if (w < 0)
			ks_fatal("wait:");
		long i;
		for (i = 0; i < next && pid[i] != w; i++)
			;
		if (i == next)
			continue;
		running--;
		done++;
		pid[i] = 0;
		bad |= !WIFEXITED(st) || WEXITSTATUS(st);
		recs += count_records(ks[i]);
		double t = now();
		took += t - start[i];
		double part = 0;
		for (long j = 0; j < next; j++)
			if (pid[j]) {
				double f = (t - start[j]) / (took / (double)done);
				part += f > 0.95 ? 0.95 : f;
			}
		double e = t - t0, rate = e > 0 ? (double)recs / (double)done * ((double)done + part) / e : 0;
		double eta = ((double)(nk - done) - part) * e / ((double)done + part);
		if (eta < 0)
			eta = 0;
		fprintf(stderr, "%s  VERIFY  %ld  %ld/%ld done, %.1f records/s, ETA %d:%02d%s", tty ? "\r" : "", ks[i],
			all - nk + done, all, rate, (int)eta / 60, (int)eta % 60, tty ? "\033[K" : "\n");
	}
	if (tty && nk)
		fputc('\n', stderr);
	free(pid);
	free(start);
	free(ks);
	if (bad)
		ks_fatal("a shard could not be verified (its message is above)");
	return verify_report();
}

int main(int argc, char **argv)
{
	ks_prog = "kverify";
	int first = 1;
	const char *cmd = NULL, *arg = NULL;
	if (argc > 1 && (!strcmp(argv[1], "index") || !strcmp(argv[1], "shard") || !strcmp(argv[1], "report"))) {
		cmd = argv[1];
		first = 2;
	}
	for (int i = first; i < argc; i++) {
		const char *a = argv[i];
		int has = i + 1 < argc;
		char *e;
		if (!strcmp(a, "-h") || !strcmp(a, "--help"))
			usage(0);
		else if (!strcmp(a, "--work") && has)
			vf_opt.work = argv[++i];
		else if (!strcmp(a, "--bin") && has)
			vf_opt.bin = argv[++i];
		else if (!strcmp(a, "--json") && has)
			vf_opt.json = argv[++i];
		else if (!strcmp(a, "--shard") && has) {
			vf_opt.shard = strtol(argv[++i], &e, 10);
			if (*e || vf_opt.shard < 1)
				usage(2);
		} else if (!strcmp(a, "--run-foreign")) {
			vf_opt.run_foreign = 1;
		} else if (!strncmp(a, "-j", 2) && (a[2] || has)) {
			vf_opt.jobs = strtol(a[2] ? a + 2 : argv[++i], &e, 10);
			if (*e || vf_opt.jobs < 1 || vf_opt.jobs > 1024)
				usage(2);
		} else if (a[0] == '-' && a[1])
			usage(2);
		else if (!arg)
			arg = a;
		else
			usage(2);
	}
	/* the tools run in the work folder's subfolders: its path, absolute */
	static char cwd[4096];
	if (vf_opt.work && vf_opt.work[0] != '/') {
		if (!getcwd(cwd, sizeof cwd - strlen(vf_opt.work) - 2))
			ks_fatal("getcwd:");
		strcat(strcat(cwd, "/"), vf_opt.work);
		vf_opt.work = cwd;
	}
	if (!vf_opt.jobs) {
		long c = sysconf(_SC_NPROCESSORS_ONLN);
		vf_opt.jobs = c > 0 ? c : 1;
	}
	if (!cmd) {
		vf_opt.data = arg;
		return do_all();
	}
	if (!strcmp(cmd, "shard"))
		return do_shard(arg);
	vf_opt.data = arg;
	if (!vf_opt.work || !vf_opt.data)
		usage(2);
	return !strcmp(cmd, "index") ? verify_index() : verify_report();
}
