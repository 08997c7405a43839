/*
 * verify_run.c: a shard's records' own code compiled, run and
 * gradient-checked by krun (kverify shard, verify.h).
 *
 * The record's own code is compiled (C by krun, CUDA by NVRTC to an
 * sm_90 cubin when there is one here), its forward code run on input
 * seeds 1 and 2, its backward code gradient-checked, and the forward run
 * must equal the backward code's forward run; on the device recorded
 * (cpu; cuda on a GPU, else sim).  Code that is not what these tools make
 * of the record's IR is foreign (verify_rederive.c says which): it is
 * compiled but not run (the checks that run it are skipped, with the
 * reason), unless the index was made with --run-foreign; krun runs
 * whatever it runs in a confined child (doc/dataset.md, the threat
 * model).  A batch per check (`krun --batch`) as make dataset's check
 * step runs it, a line it gave no status run alone.  The runs give the
 * figures too: whether a record is degenerate (its outputs the same
 * under both input seeds), the gradient check's worst.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/ks.h"
#include "pack/json.h"
#include "pack/verify.h"

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
		int written =
			!json_equal(a1, json_get(i1, o1->key[k])) || !json_equal(a2, json_get(i2, o1->key[k]));
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
		ks_fatal("%s was there as kverify index ran and cannot be had now: %s", nvrtc,
			 vf_first_line_of(err));
	for (int i = 0; rc && i < n; i++) {
		if (bw && !r[i]->have_dkir)
			continue; /* its backward failed already */
		char *code = vf_pathf("%s%s", r[i]->name, ext),
		     *one = vf_pathf("%s%s", r[i]->name, bw ? ".d.kir" : ".kir");
		/* clang-format off */
		const char *a1[] = {"krun", "--device", "cuda", "--compile-only", "--arch", "sm_90", one, code, NULL};
		/* clang-format on */
		if (vf_run(dir, a1, NULL, err))
			why[i] = vf_first_line_of(err);
		free(code);
		free(one);
	}
	free(prog);
	free(err);
	free(kir);
}

/* The records of one device of shard K, in DIR: their own code
 * compiled, run on input seeds 1 and 2, its backward gradient-checked,
 * on the device recorded. */
void vf_run_code(const char *dir, VRec **r, int n, int dev, const Env *env)
{
	char **in = xmalloc(sizeof *in * (size_t)n), **out = xmalloc(sizeof *out * (size_t)n),
	     **in2 = xmalloc(sizeof *in2 * (size_t)n), **code = xmalloc(sizeof *code * (size_t)n),
	     **why = xmalloc(sizeof *why * (size_t)n);
	const char *c = dev ? "cu" : "c", *emitter = dev ? "kemit-cu" : "kemit-cpu";
#define EACH_REC for (int i = 0; i < n; i++)
#define F(fmt) vf_pathf(fmt, r[i]->name)

	const char *devopt = dev == CPU ? "cpu" : env->gpu ? "cuda" : "sim";
	int gpu = dev == CUDA && env->gpu;
	EACH_REC {
		in[i] = F("%s.kir");
		in2[i] = r[i]->have_dkir ? F("%s.d.kir") : NULL; /* kdiff's IR, where kdiff made it */
		out[i] = NULL;
		code[i] = vf_pathf("%s.f.%s", r[i]->name, c);
	}
	if (dev == CPU) {
		const char *opts[] = {"--compile-only", NULL};
		krun_each(dir, "cpu.compile", opts, 0, n, in, code, NULL, why);
		EACH_REC
			if (why[i])
				vf_rec_fail(r[i], "compile", "%s", why[i]);
		vf_free_why(why, n);
	} else if (!strncmp(env->nvrtc, "none", 4)) {
		EACH_REC
			vf_rec_skip(r[i], "compile", "no NVRTC here: %s", env->nvrtc);
	} else {
		nvrtc_each(dir, r, n, ".f.cu", env->nvrtc, why);
		EACH_REC
			if (why[i])
				vf_rec_fail(r[i], "compile", "%s, forward: %s", env->nvrtc, why[i]);
		vf_free_why(why, n);
		nvrtc_each(dir, r, n, ".b.cu", env->nvrtc, why);
		EACH_REC
			if (why[i])
				vf_rec_fail(r[i], "compile", "%s, backward: %s", env->nvrtc, why[i]);
		vf_free_why(why, n);
	}
	/* foreign code is compiled above, and run only with --run-foreign */
	char **inf = xmalloc(sizeof *inf * (size_t)(n + 1)), **inb = xmalloc(sizeof *inb * (size_t)(n + 1));
	EACH_REC {
		int runf = !r[i]->foreign_f || env->run_foreign, runb = !r[i]->foreign_b || env->run_foreign;
		inf[i] = runf ? in[i] : NULL;
		inb[i] = runb ? in2[i] : NULL;
		if (!runf)
			vf_rec_skip(r[i], "run",
				    "not run: the forward code is not %s's code of the IR (--run-foreign "
				    "runs it, confined)",
				    emitter);
		if (!runb && in2[i])
			vf_rec_skip(r[i], "gradcheck",
				    "not run: the backward code is not %s's code of kdiff's IR "
				    "(--run-foreign runs it, confined)",
				    emitter);
	}
	if (dev == CPU) {
		/* foreign backward code is not run, but it is compiled */
		char **inc = xmalloc(sizeof *inc * (size_t)(n + 1)),
		     **bcode = xmalloc(sizeof *bcode * (size_t)(n + 1));
		EACH_REC {
			inc[i] = in2[i] && !inb[i] ? in2[i] : NULL;
			bcode[i] = vf_pathf("%s.b.c", r[i]->name);
		}
		const char *opts[] = {"--compile-only", NULL};
		krun_each(dir, "cpu.bcompile", opts, 0, n, inc, bcode, NULL, why);
		EACH_REC
			if (why[i])
				vf_rec_fail(r[i], "compile", "backward: %s", why[i]);
		vf_free_why(why, n);
		EACH_REC
			free(bcode[i]);
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
		EACH_REC
			if (why[i])
				vf_rec_fail(r[i], "run", "input seed %d, on %s: %s", s, devopt, why[i]);
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
		EACH_REC
			if (why[i])
				vf_rec_fail(r[i], "gradcheck", "on %s: %s", devopt, why[i]);
		vf_free_why(why, n);
	}

	/* the forward code's run and the backward code's forward run agree;
	 * the figures: degenerate, the gradient check's worst */
	EACH_REC {
		Arena a = {0};
		JVal *r1[KMAX], *r2[KMAX], *g[KMAX];
		char *f1 = F("%s.r1.json"), *f2 = F("%s.r2.json"), *fg = F("%s.g.json");
		int n1 = inf[i] ? krun_records(&a, dir, f1, r1) : -1,
		    n2 = inf[i] ? krun_records(&a, dir, f2, r2) : -1,
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
			JVal *gc = json_get(g[k], "gradcheck"), *q = json_get(gc, "worst_ratio"),
			     *e = json_get(gc, "worst_rel");
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
					vf_rec_fail(r[i], "agree", "the backward code's run has no kernel %s",
						    json_get(r1[k], "kernel") &&
								    json_get(r1[k], "kernel")->kind == J_STR
							    ? json_get(r1[k], "kernel")->s
							    : "?");
				else if (!agree(json_get(r1[k], "outputs"), json_get(b, "outputs"), gpu ? 1e-5 : 0,
						where, sizeof where))
					vf_rec_fail(
						r[i], "agree",
						"the forward code's outputs differ from the backward code's forward run at %s",
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
