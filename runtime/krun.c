/*
 * krun: the runtime stub.  Takes a kernel file through the pipeline (front
 * end, emitter), compiles the code for a device, runs every kernel (or the
 * one named) on seeded inputs and prints one JSON record per kernel.
 * doc/runtime.md is its manual: the options, the input law, the record,
 * the devices and the exit statuses.
 *
 *   read ─► emit ─► append launchers ─► compile ─► per kernel: inputs,
 *   launch (guarded), JSON on stdout
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "emit/emit.h"
#include "grammar/ast.h"
#include "ir/ir.h"
#include "runtime/run.h"
#include "runtime/ksynth_sim_hazard.h"
#include "diff/diff.h"

static void usage(int status)
{
	fputs("usage: krun [--device cpu|sim|cuda] [--dim N|AxB...] [--shape NAME=AxB...]...\n"
	      "            [--law NAME=spd]...\n"
	      "            [--seed S] [--set NAME=VALUE]... [--kernel NAME] [--grid BLOCKSxTHREADS]\n"
	      "            [--block-dim B [--untiled]]\n"
	      "            [--timeout SECONDS] [--memory MIB] [--cc | --tcc]\n"
	      "            [--grad | --gradcheck [--tape WORDS]] [--compile-only [--arch sm_XX]]\n"
	      "            [--bench REPS] [--coverage] [--vary SEED2] [--sentinel] [--verbose]\n"
	      "            FILE.py | FILE.kir [CODE.c | CODE.cu]\n"
	      "       krun [--device cpu|sim] [options above] --batch LIST\n"
	      "       krun --nvrtc   (the NVRTC --device cuda uses; exit 77 and why when none)\n"
	      "(a LIST line is IN CODE OUT: one compile for all the lines, each line's records\n"
	      " to its OUT, one status line per line on stdout: CODE ok | CODE error: REASON)\n"
	      "(FILE may be - for stdin; IR is recognized by its 'ksynth-ir' line)\n",
	      status ? stderr : stdout);
	exit(status);
}

/* The most words (4 bytes) a tape may have in all: 1 GiB. */
#define TAPE_MAX_WORDS (1LL << 28)

typedef struct Opts {
	int device, device_set, use_cc, use_tcc, compile_only, blocks, threads;
	int block_dim;              /* --block-dim: a block's threads for a kernel on tiles */
	int untiled;                /* --untiled: a kernel on tiles launched as wp.launch launches it */
	int ndim, dim[KS_MAX_NDIM]; /* --dim AxB...; ndim 0: a plain --dim N (dim[0]) */
	int dim_set;                /* --dim was given */
	int grad, gradcheck, which_nvrtc, bench, coverage, vary_set;
	int sentinel;         /* --sentinel: store-only arrays filled (run_fill.c) */
	uint64_t vary;        /* --vary: the second seed */
	long long tape_words; /* --tape: the most words per thread, -1: no bound */
	unsigned timeout;
	unsigned long long mem_mb; /* --memory: what a confined run may add */
	uint64_t seed;
	const char *kernel, *arch, *in, *code, *batch;
	RunSet *set;
	int nset;
	RunShape *shape;
	int nshape;
	RunSpd *spd;
	int nspd;
} Opts;

/* The most threads of a launch and elements of an array */
#define MAX_ELEMS (1L << 24)

static int ends_with(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);
	return n >= m && !strcmp(s + n - m, suf);
}

static unsigned long long number(const char *opt, const char *s, unsigned long long lo, unsigned long long hi)
{
	char *end;
	errno = 0;
	if (*s < '0' || *s > '9')
		goto bad;
	unsigned long long v = strtoull(s, &end, 10);
	if (!*end && !errno && v >= lo && v <= hi)
		return v;
bad:
	fprintf(stderr, "krun: %s %s: want an integer in [%llu, %llu]\n", opt, s, lo, hi);
	usage(2);
	return 0;
}

/* "16x8" into ext[0 .. 4): returns the number of extents */
static int extents(const char *opt, char *v, int *ext)
{
	int n = 0;
	for (char *p = v;; n++) {
		char *x = strchr(p, 'x');
		if (x)
			*x = 0;
		if (n == KS_MAX_NDIM) {
			fprintf(stderr, "krun: %s: at most %d dimensions\n", opt, KS_MAX_NDIM);
			usage(2);
		}
		ext[n] = (int)number(opt, p, 1, MAX_ELEMS);
		if (!x)
			return n + 1;
		p = x + 1;
	}
}

static void parse_opts(Opts *o, int argc, char **argv)
{
	int npos = 0;
	for (int i = 1; i < argc; i++) {
		char *a = argv[i], *v = NULL;
		if (!strcmp(a, "-h") || !strcmp(a, "--help"))
			usage(0);
		if (!strcmp(a, "--cc") || !strcmp(a, "--tcc")) {
			o->use_cc = a[2] == 'c';
			o->use_tcc = !o->use_cc;
			continue;
		}
		if (!strcmp(a, "--compile-only")) {
			o->compile_only = 1;
			continue;
		}
		if (!strcmp(a, "--coverage")) {
			o->coverage = 1;
			continue;
		}
		if (!strcmp(a, "--sentinel")) {
			o->sentinel = 1;
			continue;
		}
		if (!strcmp(a, "--verbose")) {
			run_verbose = 1;
			continue;
		}
		if (!strcmp(a, "--nvrtc")) {
			o->which_nvrtc = 1;
			continue;
		}
		if (!strcmp(a, "--untiled")) {
			o->untiled = 1;
			continue;
		}
		if (!strcmp(a, "--grad") || !strcmp(a, "--gradcheck")) {
			o->grad = 1;
			o->gradcheck |= a[6] == 'c';
			continue;
		}
		if (a[0] != '-' || !a[1]) {
			if (npos == 0)
				o->in = a;
			else if (npos == 1)
				o->code = a;
			else
				usage(2);
			npos++;
			continue;
		}
		/* --opt VALUE or --opt=VALUE (--set=NAME=VALUE splits at the first '=') */
		char *eq = strchr(a, '=');
		if (!strncmp(a, "--", 2) && eq) {
			*eq = 0;
			v = eq + 1;
		} else if (i + 1 < argc) {
			v = argv[++i];
		} else {
			usage(2);
		}
		if (!strcmp(a, "--device")) {
			for (o->device = 0; o->device < 3; o->device++)
				if (!strcmp(v, run_device_name[o->device]))
					break;
			if (o->device == 3)
				usage(2);
			o->device_set = 1;
		} else if (!strcmp(a, "--dim")) {
			o->ndim = extents("--dim", v, o->dim);
			o->dim_set = 1;
			if (o->ndim == 1)
				o->ndim = 0;
		} else if (!strcmp(a, "--shape")) {
			char *e = strchr(v, '=');
			if (!e || e == v)
				usage(2);
			*e = 0;
			RunShape sh = {v, 0, {0}};
			sh.rank = extents("--shape", e + 1, sh.ext);
			o->shape = xrealloc(o->shape, sizeof *o->shape * (size_t)(o->nshape + 1));
			o->shape[o->nshape++] = sh;
		} else if (!strcmp(a, "--law")) {
			char *e = strchr(v, '=');
			if (!e || e == v)
				usage(2);
			*e = 0;
			if (strcmp(e + 1, "spd"))
				ks_fatal("--law %s=%s: the laws are spd (symmetric positive definite matrices)", v,
					 e + 1);
			o->spd = xrealloc(o->spd, sizeof *o->spd * (size_t)(o->nspd + 1));
			o->spd[o->nspd++] = (RunSpd){v};
		} else if (!strcmp(a, "--seed")) {
			o->seed = number("--seed", v, 0, UINT64_MAX);
		} else if (!strcmp(a, "--vary")) {
			o->vary = number("--vary", v, 0, UINT64_MAX);
			o->vary_set = 1;
		} else if (!strcmp(a, "--bench")) {
			o->bench = (int)number("--bench", v, 1, 100000);
		} else if (!strcmp(a, "--tape")) {
			o->tape_words = (long long)number("--tape", v, 0, 0x7fffffff);
		} else if (!strcmp(a, "--timeout")) {
			o->timeout = (unsigned)number("--timeout", v, 0, 86400);
		} else if (!strcmp(a, "--memory")) {
			o->mem_mb = number("--memory", v, 16, 1ULL << 24);
		} else if (!strcmp(a, "--kernel")) {
			o->kernel = v;
		} else if (!strcmp(a, "--batch")) {
			o->batch = v;
		} else if (!strcmp(a, "--arch")) {
			o->arch = v;
		} else if (!strcmp(a, "--grid")) {
			char *x = strchr(v, 'x');
			if (!x)
				usage(2);
			*x = 0;
			o->blocks = (int)number("--grid", v, 1, 1 << 24);
			o->threads = (int)number("--grid", x + 1, 1, 1024);
		} else if (!strcmp(a, "--block-dim")) {
			o->block_dim = (int)number("--block-dim", v, 1, 1024);
		} else if (!strcmp(a, "--set")) {
			char *e = strchr(v, '=');
			if (!e || e == v)
				usage(2);
			*e = 0;
			o->set = xrealloc(o->set, sizeof *o->set * (size_t)(o->nset + 1));
			o->set[o->nset++] = (RunSet){v, e + 1, 0};
		} else {
			usage(2);
		}
	}
	if (o->which_nvrtc ? npos || o->batch : !npos == !o->batch)
		usage(2);
	if (o->bench && (o->gradcheck || o->batch || o->compile_only)) {
		fprintf(stderr, "krun: --bench times launches: not with --gradcheck, --batch or --compile-only\n");
		usage(2);
	}
	if ((o->coverage || o->vary_set) && (o->grad || o->bench || o->device == DEV_CUDA)) {
		fprintf(stderr, "krun: --coverage and --vary run the forward kernels on cpu or sim: not with "
				"--grad, --gradcheck, --bench or --device cuda\n");
		usage(2);
	}
	if (o->vary_set && o->vary == o->seed) {
		fprintf(stderr, "krun: --vary %llu: the second seed must differ from --seed\n",
			(unsigned long long)o->vary);
		usage(2);
	}
	if (o->use_tcc && !host_have_libtcc()) {
		fprintf(stderr, "krun: --tcc: this krun was built without libtcc\n");
		usage(2);
	}
	if (o->code) {
		int cu = ends_with(o->code, ".cu");
		if (!cu && !ends_with(o->code, ".c")) {
			fprintf(stderr, "krun: %s: the code must be a .c or a .cu file\n", o->code);
			usage(2);
		}
		if (!o->device_set)
			o->device = cu ? DEV_SIM : DEV_CPU;
		if (cu != (o->device != DEV_CPU)) {
			fprintf(stderr, "krun: %s is %s code; --device %s runs %s code\n", o->code,
				cu ? "CUDA" : "C", run_device_name[o->device], o->device == DEV_CPU ? "C" : "CUDA");
			usage(2);
		}
	}
}

/* The emitted code for the module (emit/emit.c, as kemit-cpu, kemit-cpu
 * --checked or kemit-cu would print it). */
static void emit(const Module *m, int target, Buf *code, int coverage)
{
	emit_coverage(coverage);
	char *p = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&p, &n);
	if (!f)
		ks_fatal("open_memstream:");
	emit_module(f, m, target);
	if (fclose(f))
		ks_fatal("emitting the code:");
	emit_coverage(0);
	buf_put(code, p, n);
	free(p);
}

/* Does any value of the module have a composite type (or an array of
 * one) of 9 to 15 bytes, not a multiple of 8, in the float build (or with
 * dbl, in the double-precision build, where float components take 8
 * bytes)?  libtcc 0.9.27 (Debian 12's) miscompiles calls that return a
 * 12-byte struct into a temporary (it stores 16 bytes, clobbering the 4
 * bytes above the slot, which may be a live local; so it does for 9 to 12
 * bytes), so such modules go to the system compiler unless --tcc asks
 * otherwise: vec3, vec3i, vec3ui and spatial_vectorh (12 bytes), and
 * transformh (14) to be safe.  In the double build a vec3 is 24 bytes,
 * returned in memory, but a vec3i is still 12. */
static int tcc_unsafe(const Module *m, int dbl)
{
	for (int i = 0; i < m->nfn; i++)
		for (int v = 0; v < m->fn[i]->nval; v++) {
			Type e = ty_elem(m->fn[i]->val[v].ty);
			size_t n = run_size(e, dbl);
			if ((ty_is_composite(e) || ty_is_struct(e)) && n > 8 && n < 16 && n % 8)
				return 1;
		}
	return 0;
}

static void line_directive(Buf *b, const char *name, const char *suffix)
{
	buf_puts(b, "#line 1 \"");
	for (const char *p = name; *p; p++) {
		if (*p == '"' || *p == '\\')
			buf_putc(b, '\\');
		if ((unsigned char)*p >= 32)
			buf_putc(b, *p);
	}
	buf_printf(b, "%s\"\n", suffix);
}

/* Kernel f's entry for the code of a device (the CUDA code's for sim and
 * cuda), forward or backward, as the emitter names it; the launcher of an
 * entry is ks_launch_ENTRY. */
static void entry_name(char *name, size_t n, const Module *m, const Func *f, int cuda, int backward)
{
	Buf b = {0};
	emit_entry_name(&b, m, f->name, cuda ? EMIT_CUDA : EMIT_CPU, backward);
	snprintf(name, n, "%s", b.p);
	buf_free(&b);
}

/* Is the text IR?  IR opens with its version line, after blank and
 * comment lines; a kernel source never does. */
static int is_ir(const Src *s)
{
	const char *p = s->text, *end = s->text + s->len;
	for (;;) {
		while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
			p++;
		if (p < end && *p == '#') {
			while (p < end && *p != '\n')
				p++;
			continue;
		}
		return (size_t)(end - p) >= 9 && !memcmp(p, "ksynth-ir", 9);
	}
}

/* The module of path: its IR, or what the front end makes of its source
 * (with --kernel, of that kernel and its funcs: the file's other kernels
 * need not compile). */
static Module *load_module(const char *path, Src *src, const char *kernel)
{
	src_read(src, path);
	if (is_ir(src)) {
		Module *m = ir_read(src);
		ir_verify(m, src, 0);
		return m;
	}
	return ks_frontend(src, kernel);
}

/* "16x8" */
static void dims_text(char *out, size_t n, const int *dim, int rank)
{
	int len = 0;
	out[0] = 0;
	for (int k = 0; k < rank && len >= 0 && (size_t)len < n; k++)
		len += snprintf(out + len, n - (size_t)len, "%s%d", k ? "x" : "", dim[k]);
}

/* Kernel f's law: its launch (--dim N along each of its dimensions, or
 * the --dim AxB... given for it; without --dim 16 along each, but 8 for
 * a launch of 3 dimensions and 4 for one of 4, so that every default
 * launch is a few hundred to a few thousand threads: 16^3 threads take
 * seconds to gradient-check, each finite difference a launch), the
 * seed, --set and --shape.  A kernel on tiles is launched over a grid of
 * blocks, wp.launch_tiled's dim: --dim as given (--dim N is N blocks,
 * dim=N), else TILE_GRID along each of the indices its wp.tid() gives
 * (at most 3, the block's threads being the launch's last dimension):
 * a block computes a tile, 16 elements of each array along each axis
 * (RUN_TILE_SCALE), and a few blocks are enough.  With --untiled it is
 * launched as wp.launch(kernel, dim, block_dim=B) launches it: --dim
 * counts threads, as for any kernel, and each B of them in a row are a
 * block. */
#define TILE_GRID 4
static void kernel_law(const Opts *o, const Func *f, RunLaw *law)
{
	memset(law, 0, sizeof *law);
	law->rank = ir_kernel_rank(f);
	law->untiled = o->untiled && ir_func_tiled(f);
	if (ir_func_tiled(f) && !o->untiled) {
		law->tiled = law->rank;
		law->rank = o->dim_set ? (o->ndim ? o->ndim : 1) : law->tiled < 3 ? law->tiled : 3;
		for (int k = 0; k < law->rank; k++)
			law->dim[k] = o->dim_set ? o->dim[k] : TILE_GRID;
	}
	int n = o->dim_set ? o->dim[0] : law->rank == 3 ? 8 : law->rank == 4 ? 4 : 16;
	for (int k = 0; k < law->rank && !law->tiled; k++)
		law->dim[k] = o->ndim ? o->dim[k] : n;
	law->seed = o->seed;
	law->set = o->set;
	law->nset = o->nset;
	law->shape = o->shape;
	law->nshape = o->nshape;
	law->spd = o->spd;
	law->nspd = o->nspd;
}

/* The threads of a block of kernel f on o's device: for a kernel on
 * tiles --block-dim on sim and cuda, 1 on the cpu (where Warp runs tiles
 * with block_dim 1); 1 for any other. */
static int block_of(const Opts *o, const Func *f)
{
	return ir_func_tiled(f) && o->device != DEV_CPU ? o->block_dim : 1;
}

/* Does kernel f's launch and every array's size under the law fit?
 * (--dim AxB... of its rank; on tiles, a grid of at most 3 dimensions
 * that leaves no index of wp.tid() out; at most MAX_ELEMS threads and
 * elements) */
static void check_law(const Opts *o, const Func *f)
{
	char t[64];
	RunLaw law;
	int rank = ir_kernel_rank(f), tiled = ir_func_tiled(f) && !o->untiled;
	if (o->untiled && !ir_func_tiled(f))
		ks_fatal("--untiled: kernel %s is not on tiles (it launches as wp.launch launches it)", f->name);
	if (tiled && o->ndim > KS_MAX_NDIM - 1) {
		dims_text(t, sizeof t, o->dim, o->ndim);
		ks_fatal("--dim %s: kernel %s is on tiles: its grid has at most %d dimensions (the block's "
			 "threads are the launch's last)",
			 t, f->name, KS_MAX_NDIM - 1);
	}
	if (!tiled && o->ndim && o->ndim != rank) {
		dims_text(t, sizeof t, o->dim, o->ndim);
		ks_fatal("--dim %s: kernel %s is launched over %d dimension%s (its wp.tid() gives %d), "
			 "not %d",
			 t, f->name, rank, rank == 1 ? "" : "s", rank, o->ndim);
	}
	kernel_law(o, f, &law);
	if (tiled && rank > law.rank + 1) {
		dims_text(t, sizeof t, law.dim, law.rank);
		ks_fatal("kernel %s reads %d indices from wp.tid(), more than its tiled launch has: a grid of %s "
			 "and the block's threads (give a grid of %d dimensions or more)",
			 f->name, rank, t, rank - 1);
	}
	long threads = tiled ? block_of(o, f) : 1;
	for (int k = 0; k < law.rank; k++)
		threads = threads > MAX_ELEMS ? threads : threads * law.dim[k];
	if (threads > MAX_ELEMS) {
		dims_text(t, sizeof t, law.dim, law.rank);
		ks_fatal("kernel %s: a launch of %s%s is %ld threads, more than %ld", f->name, t,
			 tiled ? " blocks" : "", threads, MAX_ELEMS);
	}
	for (int i = 0; i < f->nparam; i++) {
		const Value *p = &f->val[f->param[i]];
		if (!ty_is_array(p->ty))
			continue;
		int ext[KS_MAX_NDIM];
		run_law_shape(&law, p->name, p->ty, ext);
		long n = 1;
		for (int k = 0; k < ty_ndim(p->ty); k++)
			n = n > MAX_ELEMS ? n : n * ext[k];
		for (int s = 0; s < o->nspd; s++)
			if (!strcmp(o->spd[s].name, p->name) &&
			    ext[ty_ndim(p->ty) - 2] != ext[ty_ndim(p->ty) - 1]) {
				dims_text(t, sizeof t, ext, ty_ndim(p->ty));
				ks_fatal("--law %s=spd: kernel %s's %s is %s, whose matrices are not square "
					 "(give it a --shape %s=...)",
					 p->name, f->name, p->name, t, p->name);
			}
		if (n > MAX_ELEMS) {
			dims_text(t, sizeof t, ext, ty_ndim(p->ty));
			ks_fatal("kernel %s: array %s of shape %s has more than %ld elements "
				 "(give it a smaller --shape %s=...)",
				 f->name, p->name, t, MAX_ELEMS, p->name);
		}
	}
}

/* The kernels to run, in module order; check that --kernel, every --set
 * and every --shape name something, and that every launch fits. */
static int select_kernels(const Module *m, const Opts *o, const Func **ks)
{
	int nk = 0;
	for (int i = 0; i < m->nfn; i++)
		if (m->fn[i]->is_kernel && !m->fn[i]->backward &&
		    (!o->kernel || !strcmp(o->kernel, m->fn[i]->name)))
			ks[nk++] = m->fn[i];
	if (o->kernel && !nk)
		ks_fatal("%s: no kernel named %s", o->in, o->kernel);
	if (!nk)
		ks_fatal("%s: no kernel to run (a source's kernels are its @wp.kernel definitions; the "
			 "rest is skipped as host Python)",
			 o->in);
	for (int s = 0; s < o->nset; s++) {
		int found = 0;
		for (int k = 0; k < nk && !found; k++) {
			const Func *fk = run_flat(ks[k]);
			for (int i = 0; i < fk->nparam; i++) {
				const Value *p = &fk->val[fk->param[i]];
				if (!strcmp(p->name, o->set[s].name) && (ty_is_scalar(p->ty) || p->ty == TY_BOOL))
					found = 1;
			}
			run_flat_free(fk, ks[k]);
		}
		if (!found)
			ks_fatal("--set %s: no kernel run has an int, float or bool parameter %s", o->set[s].name,
				 o->set[s].name);
	}
	for (int s = 0; s < o->nshape; s++) {
		const RunShape *sh = &o->shape[s];
		int found = 0;
		for (int k = 0; k < nk; k++) {
			const Func *fk = run_flat(ks[k]);
			for (int i = 0; i < fk->nparam; i++) {
				const Value *p = &fk->val[fk->param[i]];
				if (strcmp(p->name, sh->name) || !ty_is_array(p->ty))
					continue;
				if (ty_ndim(p->ty) != sh->rank)
					ks_fatal("--shape %s=...: kernel %s's %s is a %s, of %d dimension%s; "
						 "the shape gives %d",
						 sh->name, ks[k]->name, sh->name, ty_name(p->ty), ty_ndim(p->ty),
						 ty_ndim(p->ty) == 1 ? "" : "s", sh->rank);
				found = 1;
			}
			run_flat_free(fk, ks[k]);
		}
		if (!found)
			ks_fatal("--shape %s: no kernel run has an array parameter %s", sh->name, sh->name);
	}
	for (int s = 0; s < o->nspd; s++) {
		const char *name = o->spd[s].name;
		int found = 0;
		for (int k = 0; k < nk; k++) {
			const Func *fk = run_flat(ks[k]);
			for (int i = 0; i < fk->nparam; i++) {
				const Value *p = &fk->val[fk->param[i]];
				if (strcmp(p->name, name) || !ty_is_array(p->ty))
					continue;
				if (!ty_is_float(ty_elem(p->ty)) || ty_ndim(p->ty) < 2)
					ks_fatal(
						"--law %s=spd: kernel %s's %s is a %s, not an array of matrices of "
						"floats (2 dimensions or more)",
						name, ks[k]->name, name, ty_name(p->ty));
				found = 1;
			}
			run_flat_free(fk, ks[k]);
		}
		if (!found)
			ks_fatal("--law %s=spd: no kernel run has an array parameter %s", name, name);
	}
	for (int k = 0; k < nk; k++) {
		const Func *fk = run_flat(ks[k]);
		check_law(o, fk);
		run_flat_free(fk, ks[k]);
	}
	return nk;
}

/* The code sim compiles, kept for the messages of its hazards (below). */
static Src sim_code;    /* the code sim compiles, from its first line */
static int sim_emitted; /* emitted by krun: locate in the kernel source */

/* Note the code sim compiles (its text from code->p + from; given: the
 * name of the file it came from, else NULL). */
static void sim_source(const Buf *code, size_t from, const char *given)
{
	free((char *)sim_code.text);
	char *t = xmalloc(code->n - from + 1);
	memcpy(t, code->p + from, code->n - from);
	t[code->n - from] = 0;
	sim_code = (Src){given ? given : "(the CUDA code)", t, code->n - from, 1, NULL};
	sim_emitted = !given;
}

/* Does krun emit the code of the float build (or of the double build,
 * dbl) itself, rather than compile the code given?  C it emits is in the
 * checked mode: every array access checked against its shape (emit.h). */
static int emits(const Opts *o, int dbl) { return !o->code || (dbl && o->device != DEV_CPU); }

/* The code, given or emitted, with a launcher per kernel (and with grad,
 * per backward kernel): for the float build, or the double-precision
 * build's C (dbl).  Compiler messages cite the code file, or FILE.py.c /
 * FILE.py.cu for emitted code. */
static void code_of(Buf *code, const Module *m, const Opts *o, const Func **ks, int nk, int dbl)
{
	int dev = dbl ? DEV_CPU : o->device, cuda = dev != DEV_CPU;
	int given = !emits(o, dbl), grad = o->grad && !dbl;
	char entry[300];
	line_directive(code, given ? o->code : o->in, given ? "" : cuda ? ".cu" : ".c");
	size_t from = code->n;
	if (given) {
		Src c;
		src_read(&c, o->code);
		buf_put(code, c.text, c.len);
		src_free(&c);
	} else {
		emit(m, cuda ? EMIT_CUDA : EMIT_CPU_CHECKED, code, o->coverage && !dbl);
	}
	if (code->n && code->p[code->n - 1] != '\n')
		buf_putc(code, '\n');
	int coop = dev == DEV_SIM && run_sim_prepare(code, from);
	if (coop)
		sim_source(code, from, given ? o->code : NULL);
	line_directive(code, "krun-launchers", "");
	for (int k = 0; k < nk; k++) {
		for (int back = 0; back <= grad; back++) {
			const Func *f = back ? m->fn[ir_backward_find(m, ks[k]->name)] : ks[k];
			entry_name(entry, sizeof entry, m, ks[k], cuda, back);
			if (dev == DEV_CPU)
				run_launcher_c(code, m, f, entry, !given);
			else if (dev == DEV_SIM)
				run_launcher_sim(code, m, f, entry, coop);
		}
	}
}

/* The code of the device (not cuda's: it needs no launchers), with a
 * launcher per kernel. */
static void build_code(Buf *code, const Module *m, const Opts *o, const Func **ks, int nk)
{
	code_of(code, m, o, ks, nk, 0);
}

/* --gradcheck: the CPU code that the double-precision build compiles (the
 * given C, or the C emitted from the IR) with a launcher per kernel; the
 * build puts "#define KS_REAL_DOUBLE 1" before it. */
static void double_code(Buf *code, const Module *m, const Opts *o, const Func **ks, int nk)
{
	code_of(code, m, o, ks, nk, 1);
}

/* Does the float code (bit 0) and the double-precision code (bit 1) go to
 * the system C compiler?  Only the cpu device's C can go to libtcc (sim's
 * C++ always goes to c++); the double build is always C. */
static int module_use_cc(const Module *m, const Opts *o)
{
	int f = o->device == DEV_CPU && (o->use_cc || (!o->use_tcc && tcc_unsafe(m, 0)));
	int d = o->use_cc || (!o->use_tcc && tcc_unsafe(m, 1));
	return f | d << 1;
}

/* The deadline's phase while the code of ks is compiled by `by`: "FILE:
 * compiling saxpy, project (cc)", at most a few names. */
static void compile_phase(const Opts *o, const Func **ks, int nk, const char *kind, const char *by)
{
	Buf names = {0};
	for (int k = 0; k < nk && names.n < 200; k++)
		buf_printf(&names, "%s%s", k ? ", " : "", ks[k]->name);
	if (names.n >= 200)
		buf_puts(&names, ", ...");
	run_phase("%s: compiling %s%s (%s)", o->code ? o->code : o->in, kind, names.p ? names.p : "", by);
	buf_free(&names);
}

/* The double-precision build, compiled once for the whole file. */
static Host *build_double(const Module *m, const Opts *o, const Func **ks, int nk, const char *rtdir)
{
	Buf code = {0};
	buf_puts(&code, "#define KS_REAL_DOUBLE 1\n");
	double_code(&code, m, o, ks, nk);
	int given = !emits(o, 1);
	compile_phase(o, ks, nk, "the double-precision build of ", host_c_compiler(module_use_cc(m, o) >> 1));
	Host *h = host_compile(given ? o->code : o->in, &code, LANG_C, module_use_cc(m, o) >> 1, rtdir);
	buf_free(&code);
	return h;
}

/* Every kernel run has its backward: from the IR, or from kdiff. */
static void need_backward(Module *m, const Src *src, const Opts *o, const Func **ks, int nk)
{
	int missing = 0;
	for (int k = 0; k < nk; k++)
		missing |= ir_backward_find(m, ks[k]->name) < 0;
	if (!missing)
		return;
	int any = 0;
	for (int i = 0; i < m->nfn; i++)
		any |= m->fn[i]->backward;
	if (!any) {
		diff_module(m, src);
		missing = 0;
		for (int k = 0; k < nk; k++)
			missing |= ir_backward_find(m, ks[k]->name) < 0;
		if (!missing)
			return;
	}
	for (int k = 0; k < nk; k++)
		if (ir_backward_find(m, ks[k]->name) < 0)
			ks_fatal("%s: --grad: kernel %s has no backward kernel (give IR with `backward @%s`)",
				 o->in, ks[k]->name, ks[k]->name);
}

/* ---- an index out of bounds ----------------------------------------------

   The C krun emits is checked (EMIT_CPU_CHECKED): an access out of its
   array's bounds calls the code's ks_bounds_error, which krun points at
   bounds_error.  That reports it as a located error in the kernel source
   (FILE:LINE:COL of the access, the line and a caret) and exits 1. */

static Src bounds_src;  /* the kernel source the IR's locations point into */
static Src bounds_file; /* read here (IR input): bounds_src's text */
static const char *bounds_kernel;

/* The kernel source that locations refer to: the input itself, or for
 * IR the file its source line names (when it can be read; else the
 * message names it without showing the line). */
static void bounds_source(const Module *m, const Src *src)
{
	bounds_src = *src;
	if (!is_ir(src))
		return;
	bounds_src = (Src){m->source ? m->source : src->name, NULL, 0, 1, NULL};
	FILE *f = m->source ? fopen(m->source, "rb") : NULL;
	if (f) {
		src_read_file(&bounds_file, f, m->source);
		fclose(f);
		bounds_src = bounds_file;
	}
}

static KS_NORETURN void bounds_error(const char *array, int line, int col, int rank, const long long *index,
				     const int *shape)
{
	run_unguard();
	char idx[128], ext[64];
	int n = 0, axis = 0;
	for (int k = 0; k < rank; k++) {
		n += snprintf(idx + n, sizeof idx - (size_t)n, "%s%lld", k ? ", " : "", index[k]);
		if (index[k] < 0 || index[k] >= shape[k])
			axis = axis ? axis : k + 1;
	}
	dims_text(ext, sizeof ext, shape, rank);
	axis = axis ? axis - 1 : 0;
	if (rank == 1)
		ks_error_at(&bounds_src, line, col, "%s[%s] is out of bounds in kernel %s: %s has %d elements",
			    array, idx, bounds_kernel, array, shape[0]);
	ks_error_at(&bounds_src, line, col,
		    "%s[%s] is out of bounds in kernel %s: index %lld along "
		    "axis %d is not in [0, %d) (%s has shape %s)",
		    array, idx, bounds_kernel, index[axis], axis, shape[axis], array, ext);
}

/* Point the compiled code's ks_bounds_error (checked code has one) at
 * bounds_error. */
static void bounds_hook(Host *h)
{
	void *p = h ? host_sym(h, "ks_bounds_error") : NULL;
	void (*fn)(const char *, int, int, int, const long long *, const int *) = bounds_error;
	if (p)
		memcpy(p, &fn, sizeof fn);
}

/* ---- a hazard of sim's cooperating blocks -------------------------------

   sim runs the threads of a block together when the code has shared
   memory or barriers, and checks each access of a shared array
   (runtime/ksynth_sim_block.h): a race, a read of what no thread wrote,
   an index outside the array, a barrier some threads do not reach.  The
   shim gives the lines of the code as compiled; an emitted statement's
   `// line N` says which line of the kernel source it came from.  krun
   reports the hazard as a located error there (in given code without
   those comments, at the code's own line) and exits 1. */

/* The start of line l of src's text (its end past the last line). */
static const char *line_in(const Src *src, int l)
{
	const char *p = src->text, *e = p + src->len;
	for (int k = 1; k < l && p < e; k++) {
		const char *nl = memchr(p, '\n', (size_t)(e - p));
		p = nl ? nl + 1 : e;
	}
	return p;
}

/* The kernel source's line of the code's line l: its `// line N`, else
 * 0. */
static int sim_source_line(int l)
{
	const char *p = line_in(&sim_code, l), *e = sim_code.text + sim_code.len;
	const char *nl = p < e ? memchr(p, '\n', (size_t)(e - p)) : NULL, *end = nl ? nl : e;
	for (const char *q = p; q + 8 <= end; q++)
		if (!memcmp(q, "// line ", 8))
			return atoi(q + 8);
	return 0;
}

/* "line N" of the source a message is located in, for the code's line l. */
static void sim_where(char *buf, size_t n, unsigned l)
{
	int s = sim_emitted ? sim_source_line((int)l) : (int)l;
	if (s)
		snprintf(buf, n, "line %d", s);
	else
		snprintf(buf, n, "line %u of the CUDA code", l);
}

/* The column of line l's first character other than a blank, in src
 * (1 where src has no text). */
static int first_col(const Src *src, int l)
{
	if (!src->text)
		return 1;
	const char *p = line_in(src, l), *e = src->text + src->len;
	int col = 1;
	while (p < e && (*p == ' ' || *p == '\t'))
		p++, col++;
	return col;
}

/* Where the code's line l is: the kernel source's line its `// line N`
 * names (for code krun emitted), else the code's own line l. */
static int sim_locate(unsigned l, const Src **src)
{
	int n = sim_emitted ? sim_source_line((int)l) : 0;
	*src = n ? &bounds_src : &sim_code;
	return n ? n : (int)l;
}

static KS_NORETURN void sim_hazard(int kind, const char *array, long long index, unsigned block, unsigned t1,
				   unsigned line1, unsigned t2, unsigned line2)
{
	run_unguard();
	char w1[64], w2[64];
	sim_where(w1, sizeof w1, line1);
	sim_where(w2, sizeof w2, line2);
	const Src *src;
	int at = sim_locate(kind == KS_SIM_DIVERGE ? line1 : line2, &src), col = first_col(src, at);
	if (kind == KS_SIM_DIVERGE)
		ks_error_at(src, at, col,
			    "in kernel %s, block %u: thread %u waits at the barrier of %s while thread %u has "
			    "returned (a barrier in divergent code)",
			    bounds_kernel, block, t1, w1, t2);
	if (kind == KS_SIM_TWO_BARRIERS)
		ks_error_at(src, at, col,
			    "in kernel %s, block %u: thread %u waits at the barrier of %s and thread %u at "
			    "the barrier of %s (a barrier in divergent code)",
			    bounds_kernel, block, t1, w1, t2, w2);
	if (kind == KS_SIM_BOUNDS)
		ks_error_at(src, at, col,
			    "shared array %s[%lld] is out of bounds in kernel %s (thread %u of block %u)", array,
			    index, bounds_kernel, t2, block);
	if (kind == KS_SIM_UNINIT)
		ks_error_at(src, at, col,
			    "in kernel %s, block %u: thread %u reads shared %s[%lld], which no thread of the "
			    "block has written",
			    bounds_kernel, block, t2, array, index);
	const char *v1 = kind == KS_SIM_RACE_RW ? "reads" : "writes",
		   *v2 = kind == KS_SIM_RACE_WR ? "reads" : "writes";
	ks_error_at(src, at, col,
		    "data race on shared %s[%lld] in kernel %s, block %u: thread %u %s it at %s and thread %u "
		    "%s it at %s, with no barrier between",
		    array, index, bounds_kernel, block, t1, v1, w1, t2, v2, w2);
}

/* Point sim's code's ks_sim_hazard (code with shared memory or barriers
 * has one) at sim_hazard. */
static void sim_hook(Host *h)
{
	void *p = h ? host_sym(h, "ks_sim_hazard") : NULL;
	void (*fn)(int, const char *, long long, unsigned, unsigned, unsigned, unsigned, unsigned) = sim_hazard;
	if (p)
		memcpy(p, &fn, sizeof fn);
}

/* ---- --coverage ------------------------------------------------------------

   The code built for --coverage (emitted here, or by kemit-cpu
   --coverage) reports each way of each if, each run of a loop body and
   each thread's start to ks_cover_hit, which krun points at cover_hit.
   The sites are numbered as the emitter writes them: krun emits the
   module once more to learn them (emit_cover_sites).  Per site and way,
   how many times it was taken and by how many threads. */

static EmitSite *cov_site;
static int cov_nsite;
static long long (*cov_n)[2][2]; /* [site][way]: times, threads */
static long long *cov_last;      /* [site * 2 + way]: the last thread counted */
static long long cov_thread;     /* the thread running, from 1 */

static void cover_hit(int site, int way)
{
	if (site < 0) {
		cov_thread++;
	} else if (site < cov_nsite && (way == 0 || way == 1)) {
		cov_n[site][way][0]++;
		if (cov_last[site * 2 + way] != cov_thread) {
			cov_last[site * 2 + way] = cov_thread;
			cov_n[site][way][1]++;
		}
	}
}

/* The sites of the code for o's device (emitted, or given). */
static void cover_sites(const Module *m, const Opts *o)
{
	Buf scratch = {0};
	int target = o->device != DEV_CPU ? EMIT_CUDA : o->code ? EMIT_CPU : EMIT_CPU_CHECKED;
	emit(m, target, &scratch, 1);
	buf_free(&scratch);
	const EmitSite *s = emit_cover_sites(&cov_nsite);
	cov_site = xmalloc(sizeof *cov_site * (size_t)(cov_nsite + 1));
	if (cov_nsite) /* a kernel of no if and no loop has no sites */
		memcpy(cov_site, s, sizeof *cov_site * (size_t)cov_nsite);
	cov_n = xmalloc(sizeof *cov_n * (size_t)(cov_nsite + 1));
	cov_last = xmalloc(sizeof *cov_last * (size_t)(2 * cov_nsite + 1));
}

static void cover_reset(void)
{
	memset(cov_n, 0, sizeof *cov_n * (size_t)cov_nsite);
	memset(cov_last, 0, sizeof *cov_last * (size_t)(2 * cov_nsite));
	cov_thread = 0;
}

/* Point the compiled code's ks_cover_hit at cover_hit. */
static void cover_hook(Host *h, const Opts *o)
{
	void *p = h ? host_sym(h, "ks_cover_hit") : NULL;
	void (*fn)(int, int) = cover_hit;
	if (!p)
		ks_fatal("%s: the code has no coverage counters (emit it with kemit-cpu --coverage)",
			 o->code ? o->code : o->in);
	memcpy(p, &fn, sizeof fn);
}

/* Mark in reach the functions that block b calls, transitively. */
static void cover_reach(const Module *m, const Block *b, uint8_t *reach)
{
	for (int i = 0; i < b->n; i++) {
		const Inst *in = &b->v[i];
		if (in->op == OP_CALL && in->callee >= 0 && in->callee < m->nfn && !reach[in->callee]) {
			reach[in->callee] = 1;
			cover_reach(m, &m->fn[in->callee]->body, reach);
		}
		cover_reach(m, &in->body, reach);
		cover_reach(m, &in->els, reach);
	}
}

/* Does site k belong to kernel f or a function it calls? */
static int cover_mine(const Module *m, const Func *f, const uint8_t *reach, int k)
{
	if (!strcmp(cov_site[k].func, f->name))
		return 1;
	for (int i = 0; i < m->nfn; i++)
		if (reach[i] && !strcmp(cov_site[k].func, m->fn[i]->name))
			return 1;
	return 0;
}

/* The record's "coverage" field for kernel f; with vary, an error line
 * in *why for the first if that never took a way or loop never run. */
static void cover_json(Buf *b, const Module *m, const Func *f, const Opts *o, Buf *why)
{
	uint8_t *reach = xmalloc((size_t)m->nfn + 1);
	memset(reach, 0, (size_t)m->nfn + 1);
	cover_reach(m, &f->body, reach);
	buf_puts(b, ", \"coverage\": [");
	int first = 1;
	for (int k = 0; k < cov_nsite; k++) {
		if (!cover_mine(m, f, reach, k))
			continue;
		const EmitSite *s = &cov_site[k];
		int ways = s->loop ? 1 : 2;
		buf_printf(b, "%s{\"func\": \"%s\", \"line\": %d, \"col\": %d, \"kind\": \"%s\", ",
			   first ? "" : ", ", s->func, s->line, s->col, s->loop ? "loop" : "if");
		buf_printf(b, "\"threads\": [%lld", cov_n[k][0][1]);
		if (ways == 2)
			buf_printf(b, ", %lld", cov_n[k][1][1]);
		buf_printf(b, "], \"times\": [%lld", cov_n[k][0][0]);
		if (ways == 2)
			buf_printf(b, ", %lld", cov_n[k][1][0]);
		buf_puts(b, "]}");
		first = 0;
		for (int w = 0; w < ways && o->vary_set && !why->n; w++)
			if (!cov_n[k][w][0])
				buf_printf(why, "%s: %s, line %d: %s under seeds %llu and %llu\n", f->name, s->func,
					   s->line,
					   s->loop ? "the loop body never runs"
					   : w     ? "the if never takes its else way"
						   : "the if never takes its then way",
					   (unsigned long long)o->seed, (unsigned long long)o->vary);
	}
	buf_putc(b, ']');
	free(reach);
}

/* Is the float component at p (c bytes, little-endian) +0 or -0? */
static int zero_either_sign(const unsigned char *p, size_t c)
{
	for (size_t k = 0; k + 1 < c; k++)
		if (p[k])
			return 0;
	return !(p[c - 1] & 0x7f);
}

/* Do arrays x and y of n bytes, elements of type e, hold the same
 * values?  Float components compare as numbers, so +0 and -0 are one
 * value: outputs that differ only in the sign of a zero do not depend on
 * the inputs. */
static int same_values(Type e, const void *x, const void *y, size_t n)
{
	if (!memcmp(x, y, n))
		return 1;
	if (ty_is_struct(e) || !ty_is_float(ty_scalar(e)))
		return 0;
	const unsigned char *a = x, *b = y;
	size_t c = ty_info(ty_scalar(e))->size;
	for (size_t k = 0; k + c <= n; k += c)
		if (memcmp(a + k, b + k, c) && !(zero_either_sign(a + k, c) && zero_either_sign(b + k, c)))
			return 0;
	return 1;
}

/* Do the count elements of an array at p, size bytes each, all hold one
 * value (as numbers)? */
static int one_value(Type e, const void *p, size_t count, size_t size)
{
	const unsigned char *a = p;
	for (size_t k = 1; k < count; k++)
		if (!same_values(e, a, a + k * size, size))
			return 0;
	return 1;
}

/* --vary: do the outputs of the runs at the two seeds differ?  An array
 * counts when either run changed it; a kernel that changes none, or
 * whose changed arrays end the same under both seeds, does not depend on
 * its inputs, and one that leaves an array of two elements or more
 * holding one value in every element under both seeds (an output written
 * with a constant) does not use it: the reason goes to *why.  Values
 * compare as numbers (same_values). */
static void vary_check(const Func *f, const Opts *o, const RunArgs *in1, const RunArgs *out1, const RunArgs *in2,
		       const RunArgs *out2, Buf *why)
{
	int written = 0, differ = 0, constant = -1;
	for (int i = 0; i < in1->n; i++) {
		if (!in1->buf[i])
			continue;
		size_t n = in1->bytes[i], count = in1->count[i];
		Type e = ty_elem(in1->f->val[in1->f->param[i]].ty);
		int w = !same_values(e, in1->buf[i], out1->buf[i], n) ||
			!same_values(e, in2->buf[i], out2->buf[i], n);
		written |= w;
		differ |= w && !same_values(e, out1->buf[i], out2->buf[i], n);
		if (w && constant < 0 && count > 1 && one_value(e, out1->buf[i], count, n / count) &&
		    one_value(e, out2->buf[i], count, n / count))
			constant = i;
	}
	if (constant >= 0 && written && differ)
		buf_printf(why, "%s: it writes one value to every element of %s under seeds %llu and %llu\n",
			   f->name, in1->f->val[in1->f->param[constant]].name, (unsigned long long)o->seed,
			   (unsigned long long)o->vary);
	else if (!written)
		buf_printf(why, "%s: changes no array under seeds %llu and %llu\n", f->name,
			   (unsigned long long)o->seed, (unsigned long long)o->vary);
	else if (!differ)
		buf_printf(why,
			   "%s: its outputs are the same under seeds %llu and %llu: they do not "
			   "depend on the inputs\n",
			   f->name, (unsigned long long)o->seed, (unsigned long long)o->vary);
}

static double now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* Launch kernel f's forward or backward entry on the device, with args,
 * guarded against crashes and --timeout.  With --bench R, then R more
 * launches back to back on the arguments as the first launch left them (a
 * copy on the host; on cuda, the device's arrays), timed together (on
 * cuda between two CUDA events); returns the milliseconds per launch (0
 * without --bench). */
static double launch(const Opts *o, const Module *m, const Func *f, int backward, Host *host, Cuda *gpu,
		     RunArgs *args, int blocks, int threads)
{
	char entry[300], name[320];
	entry_name(entry, sizeof entry, m, f, o->device != DEV_CPU, backward);
	void *fn = NULL;
	if (o->device != DEV_CUDA) {
		snprintf(name, sizeof name, "ks_launch_%s", entry);
		if (!(fn = host_sym(host, name)))
			ks_fatal("%s: the compiled code has no %s", o->code ? o->code : o->in, name);
	}
	snprintf(name, sizeof name, "%s%s", f->name, backward ? "_backward" : "");
	double ms = 0;
	int dim[KS_MAX_NDIM + 1];
	run_entry_dims(args, args->block, dim);
	run_guard(name);
	if (o->device == DEV_CUDA) {
		const Func *kf = backward ? m->fn[ir_backward_find(m, f->name)] : f;
		ms = cuda_launch(gpu, entry, kf, args, blocks, threads, o->bench);
	} else {
		RunArgs scratch;
		RunArgs *a = args;
		double t0 = 0;
		for (int k = -1; k < o->bench; k++) {
			if (k == 0) {
				run_args_copy(&scratch, args);
				a = &scratch;
				t0 = now_ms();
			}
			if (o->device == DEV_CPU) {
				RunCpuLaunch l;
				memcpy(&l, &fn, sizeof l);
				l(dim, a->slot, run_shapes(a));
			} else {
				RunSimLaunch l;
				memcpy(&l, &fn, sizeof l);
				l(dim, a->slot, run_shapes(a), blocks, threads);
			}
		}
		if (o->bench) {
			ms = (now_ms() - t0) / o->bench;
			run_args_free(&scratch);
		}
	}
	run_unguard();
	return ms;
}

/* The launch's blocks and threads per block for n threads: --grid's, or
 * enough blocks of 256 (cuda) or 64 (sim) threads, as the kernel's
 * options allow (KernelOpts): no more threads to a block than its
 * launch_bounds, a whole number of clusters, and without a grid-stride
 * loop, a thread for each index.  A kernel on tiles has blocks of its
 * block_dim (block_of), one for each of the grid's (n / block_dim), or
 * --grid's, whose threads must be --block-dim. */
static void launch_shape(const Func *f, const Opts *o, long n, int *blocks, int *threads)
{
	const KernelOpts *ko = &f->opts;
	if (ir_func_tiled(f)) {
		int t = block_of(o, f);
		if (o->threads && o->threads != o->block_dim)
			ks_fatal(
				"--grid %dx%d: kernel %s is on tiles: its blocks have --block-dim %d threads, not %d",
				o->blocks, o->threads, f->name, o->block_dim, o->threads);
		if (o->device != DEV_CPU && ko->max_threads && t > ko->max_threads)
			ks_fatal(
				"--block-dim %d: kernel %s takes at most %d threads to a block (its launch_bounds)",
				t, f->name, ko->max_threads);
		if (o->untiled && n % t)
			ks_fatal(
				"--untiled: the launch's %ld threads of kernel %s are not whole blocks of --block-dim %d",
				n, f->name, t);
		long b = o->blocks ? o->blocks : n / t;
		if (ko->cluster_dim)
			b = (b + ko->cluster_dim - 1) / ko->cluster_dim * ko->cluster_dim;
		*blocks = (int)b;
		*threads = t;
		return;
	}
	int t = o->threads ? o->threads : o->device == DEV_CUDA ? 256 : 64;
	if (ko->max_threads && t > ko->max_threads) {
		if (o->threads)
			ks_fatal("--grid %dx%d: kernel %s takes at most %d threads to a block (its launch_bounds)",
				 o->blocks, o->threads, f->name, ko->max_threads);
		t = ko->max_threads;
	}
	long b = o->blocks ? o->blocks : (n + t - 1) / t;
	if (ko->lean && b * t < n)
		ks_fatal("--grid %dx%d: kernel %s has no grid-stride loop (grid_stride=False), so its launch "
			 "needs a thread for each of its %ld indices",
			 o->blocks, o->threads, f->name, n);
	if (ko->cluster_dim)
		b = (b + ko->cluster_dim - 1) / ko->cluster_dim * ko->cluster_dim;
	*blocks = (int)b;
	*threads = t;
}

/* Run one kernel on its seeded inputs and print its record.  Returns 1
 * when an output is not finite. */
static int run_kernel(const Module *m, const Func *f, const Opts *o, Host *host, Cuda *gpu, Host *dbl)
{
	const char *what = o->code ? o->code : o->in;
	char name[320];
	RunArgs in, out;
	RunLaw law;
	const Func *ff = run_flat(f), *bf = NULL; /* struct parameters as their fields */
	kernel_law(o, ff, &law);
	run_args_init(&in, ff, &law);
	if (o->sentinel && ff == f)
		run_sentinel_fill(f, &in);
	in.block = block_of(o, ff);
	run_args_copy(&out, &in);
	int blocks, threads;
	launch_shape(f, o, run_threads(&in), &blocks, &threads);
	bounds_kernel = f->name;
	if (o->coverage)
		cover_reset();
	double fwd_ms = launch(o, m, f, 0, host, gpu, &out, blocks, threads), bwd_ms = 0;
	Buf why = {0};
	if (o->vary_set) {
		/* the same kernel on the second seed's inputs */
		RunArgs in2, out2;
		law.seed = o->vary;
		run_args_init(&in2, ff, &law);
		if (o->sentinel && ff == f)
			run_sentinel_fill(f, &in2);
		in2.block = in.block;
		run_args_copy(&out2, &in2);
		launch(o, m, f, 0, host, gpu, &out2, blocks, threads);
		vary_check(f, o, &in, &out, &in2, &out2, &why);
		run_args_free(&in2);
		run_args_free(&out2);
	}

	RunGrad g, *gp = NULL;
	RunCheck chk;
	Buf extra = {0};
	int failed = 0;
	if (o->grad) {
		const Func *b = m->fn[ir_backward_find(m, f->name)];
		bf = run_flat(b); /* a struct's adjoints are its leaves' */
		gp = &g;
		run_grad_init(&g, m, ff, bf, &in, &out, o->seed);
		/* a backward with a tape runs twice: to measure what it needs,
		 * then with the tape allocated (doc/autodiff.md) */
		for (int pass = g.tape >= 0 ? 0 : 1; pass < 2; pass++) {
			if (pass == 0)
				run_tape_measure(&g);
			else
				run_tape_alloc(&g, o->tape_words, TAPE_MAX_WORDS);
			bwd_ms = launch(o, m, f, 1, host, gpu, &g.args, blocks, threads);
		}
	}
	if (o->bench) {
		/* the times instead of the record */
		Buf dims = {0};
		run_json_dim(&dims, &out);
		printf("{\"kernel\": \"%s\", \"device\": \"%s\", \"dim\": %s, ", f->name,
		       run_device_name[o->device], dims.p);
		if (out.tiled || out.untiled)
			printf("\"block_dim\": %d, ", out.block);
		buf_free(&dims);
		if (o->device == DEV_CPU)
			printf("\"grid\": null, ");
		else
			printf("\"grid\": \"%dx%d\", ", blocks, threads);
		printf("\"reps\": %d, \"forward_ms\": %.6g", o->bench, fwd_ms);
		if (o->grad)
			printf(", \"backward_ms\": %.6g", bwd_ms);
		printf("}\n");
		fflush(stdout);
		if (gp)
			run_grad_free(gp);
		run_args_free(&in);
		run_args_free(&out);
		if (bf)
			run_flat_free(bf, m->fn[ir_backward_find(m, f->name)]);
		run_flat_free(ff, f);
		return 0;
	}
	if (o->coverage)
		cover_json(&extra, m, f, o, &why);
	if (o->gradcheck) {
		char entry[300];
		entry_name(entry, sizeof entry, m, f, 0, 0);
		snprintf(name, sizeof name, "ks_launch_%s", entry);
		void *fn = host_sym(dbl, name);
		if (!fn)
			ks_fatal("%s: the double-precision code has no %s", what, name);
		RunCpuLaunch l;
		memcpy(&l, &fn, sizeof l);
		snprintf(name, sizeof name, "%s (gradcheck)", f->name);
		run_guard(name);
		run_tolerance(&chk, m, f);
		run_gradcheck(&chk, &g, &in, l);
		run_unguard();
		char a[32], r[32], q[32];
		snprintf(a, sizeof a, "%.3g", chk.worst_abs);
		snprintf(r, sizeof r, "%.3g", chk.worst_rel);
		snprintf(q, sizeof q, "%.3g", chk.worst_ratio);
		/* JSON has no inf: a non-finite error is printed as null */
		buf_printf(&extra,
			   ", \"gradcheck\": {\"h\": %g, \"rtol\": %g, \"atol\": %.3g, "
			   "\"components\": %d, \"skipped\": %d, \"worst_abs\": %s, \"worst_rel\": %s, "
			   "\"worst_ratio\": %s, \"where\": \"",
			   chk.h, chk.rtol, chk.atol, chk.ncomp, chk.skipped, isfinite(chk.worst_abs) ? a : "null",
			   isfinite(chk.worst_rel) ? r : "null", isfinite(chk.worst_ratio) ? q : "null");
		for (const char *p = chk.where; *p; p++)
			if (*p != '"' && *p != '\\')
				buf_putc(&extra, *p);
		buf_printf(&extra, "\", \"ok\": %s}", chk.ok ? "true" : "false");
		if (!chk.ok) {
			fprintf(stderr,
				"krun: %s: gradcheck failed on %s: |grad - fd| = %s (rel %s), "
				"%s times the tolerance %.3g + %g |fd|\n",
				f->name, run_device_name[o->device], a, r, q, chk.atol, chk.rtol);
			fprintf(stderr, "krun: %s: worst at %s\n", f->name, chk.where);
			failed = 1;
		}
	}
	/* the outputs that may depend on the order the threads run in, which
	 * two devices need not agree on element by element (ir/order.c) */
	uint8_t dep[256] = {0};
	if (f->nparam <= 256 && ir_order_dependent(m, f, dep)) {
		buf_puts(&extra, ", \"order_dependent\": [");
		for (int i = 0, k = 0; i < f->nparam; i++)
			if (dep[i])
				buf_printf(&extra, "%s\"%s\"", k++ ? ", " : "", f->val[f->param[i]].name);
		buf_putc(&extra, ']');
	}
	Buf rec = {0};
	size_t bad = run_json(&rec, &in, &out, gp, extra.n ? extra.p : NULL, run_device_name[o->device], o->seed);
	fwrite(rec.p, 1, rec.n, stdout);
	fflush(stdout);
	if (bad)
		fprintf(stderr, "krun: %s: %zu output%s value%s not finite (printed as null)\n", f->name, bad,
			o->grad ? " or gradient" : "", bad == 1 ? " is" : "s are");
	if (why.n) {
		fprintf(stderr, "krun: %s", why.p);
		failed = 1;
	}
	buf_free(&why);
	buf_free(&rec);
	buf_free(&extra);
	if (gp)
		run_grad_free(gp);
	run_args_free(&in);
	run_args_free(&out);
	if (bf)
		run_flat_free(bf, m->fn[ir_backward_find(m, f->name)]);
	run_flat_free(ff, f);
	return bad != 0 || failed;
}

/* ---- --batch LIST -------------------------------------------------------

   One process checks many kernel files with one compile per language and
   precision.  Each LIST line is `IN CODE OUT` (OUT left out with
   --compile-only); blank lines and lines opening with # are skipped.

     prepare  a child process per line reads IN and writes the line's code
              with its launchers (the text a single krun would compile) and
              the names the module defines;
     compile  the lines' code concatenated into one translation unit per
              group, and for --gradcheck one double-precision unit; a group
              holds lines with the same compiler and no name in common, so
              one group in practice.  If a group does not compile, each of
              its lines is compiled alone, so the errors go to their lines;
     run      a child process per line (forked after the compile, so it
              shares the compiled code) runs its kernels as a single krun
              would, its stdout going to OUT.tmp.PID, renamed to OUT when
              the child exits (whatever the status: the file holds what a
              single krun would have printed), removed when it was killed.

   A line that fails (an error, a crash, a timeout, a non-finite value, a
   failed gradcheck) fails alone.  stdout gets one status line per LIST
   line, in order, as soon as it is known: `CODE ok` or `CODE error:
   REASON`, REASON being the first line the single krun would have printed
   on stderr; stderr gets all the lines' messages. */

typedef struct Job {
	char *in, *code, *out;
	int line, nk, group, failed;
	int use_cc; /* module_use_cc: bit 0 the float code, bit 1 the double */
	char **names;
	int nnames;
	Buf frag, dfrag;  /* the code with launchers; the double-precision code */
	Host *host, *dbl; /* when compiled alone */
	Buf err;
} Job;

typedef struct Group {
	int use_cc, njobs;
	char **names;
	int nnames;
	Host *host, *dbl;
} Group;

/* The bounds of a confined run of o's kernels; wall: the child's own
 * deadline (0 where the parent's covers it). */
static RunLimits limits(const Opts *o, unsigned wall)
{
	return (RunLimits){.cpu_s = o->timeout, .wall_s = wall, .mem_mb = (size_t)o->mem_mb};
}

/* Run fn(o) in a child process with stdout to outpath (NULL: /dev/null)
 * and stderr appended to *err; with confine, a confined child (its code
 * runs there).  Returns the exit status, or -1 with a message in *err
 * when the child was killed (a signal, a forbidden system call, its CPU
 * time or deadline). */
static int in_child(int (*fn)(Opts *, Host *, Host *), Opts *o, Host *host, Host *dbl, const char *outpath,
		    int confine, Buf *err)
{
	char *ep = run_tmpfile("job.err");
	RunLimits lim = limits(o, o->timeout);
	int pid = run_confined_fork();
	if (pid == 0) {
		int fo = open(outpath ? outpath : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0666);
		int fe = open(ep, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fo < 0 || fe < 0 || dup2(fo, 1) < 0 || dup2(fe, 2) < 0)
			_exit(126);
		close(fo);
		close(fe);
		if (confine)
			run_confine(o->code, &lim);
		else
			run_deadline(o->timeout);
		int st = fn(o, host, dbl);
		if (ferror(stdout) || fflush(stdout))
			st = 1;
		fflush(stderr);
		_exit(st);
	}
	Buf why = {0};
	int st = run_confined_wait(pid, &lim, &why);
	Src e;
	src_read(&e, ep);
	if (e.len)
		buf_put(err, e.text, e.len);
	src_free(&e);
	run_tmpdone(ep);
	if (why.n)
		buf_put(err, why.p, why.n);
	buf_free(&why);
	return st;
}

/* The code file must suit the device, as parse_opts checks for one file. */
static void check_code(const Opts *o)
{
	int cu = ends_with(o->code, ".cu");
	if (!cu && !ends_with(o->code, ".c"))
		ks_fatal("%s: the code must be a .c or a .cu file", o->code);
	if (cu != (o->device != DEV_CPU))
		ks_fatal("%s is %s code; --device %s runs %s code", o->code, cu ? "CUDA" : "C",
			 run_device_name[o->device], o->device == DEV_CPU ? "C" : "CUDA");
}

/* prepare (in a child): on stdout "NK USE_CC NNAMES FRAGLEN DFRAGLEN\n",
 * the module's function names one a line, then both codes. */
static int job_prepare(Opts *o, Host *h1, Host *h2)
{
	(void)h1, (void)h2;
	run_phase("%s: reading it and emitting its code", o->in);
	check_code(o);
	Src src;
	Module *m = load_module(o->in, &src, o->kernel);
	const Func **ks = xmalloc(sizeof *ks * (size_t)(m->nfn + 1));
	int nk = select_kernels(m, o, ks);
	if (o->grad && nk)
		need_backward(m, &src, o, ks, nk);
	ir_mark_views(m);
	Buf code = {0}, dcode = {0};
	if (nk)
		build_code(&code, m, o, ks, nk);
	if (nk && o->gradcheck)
		double_code(&dcode, m, o, ks, nk);
	printf("%d %d %d %zu %zu\n", nk, module_use_cc(m, o), m->nfn, code.n, dcode.n);
	for (int i = 0; i < m->nfn; i++)
		printf("%s\n", m->fn[i]->name);
	if (code.n)
		fwrite(code.p, 1, code.n, stdout);
	if (dcode.n)
		fwrite(dcode.p, 1, dcode.n, stdout);
	return 0;
}

/* Load the compiled code in the confined child, seal it, point the
 * code's hooks at krun, and run the kernels (the module's ks[nk]). */
static int run_loaded(const Module *m, const Src *src, const Opts *o, const Func **ks, int nk, Host *host,
		      Host *dbl)
{
	bounds_source(m, src);
	host_load(host);
	host_load(dbl);
	run_seal();
	bounds_hook(host);
	bounds_hook(dbl);
	if (o->device == DEV_SIM)
		sim_hook(host);
	if (o->coverage && nk)
		cover_hook(host, o);
	int status = 0;
	for (int k = 0; k < nk; k++)
		status |= run_kernel(m, ks[k], o, host, NULL, dbl);
	return status;
}

/* run (in a confined child): as main() runs one file, with the compiled
 * code given */
static int job_run(Opts *o, Host *host, Host *dbl)
{
	run_phase("%s", o->in);
	Src src;
	Module *m = load_module(o->in, &src, o->kernel);
	const Func **ks = xmalloc(sizeof *ks * (size_t)(m->nfn + 1));
	int nk = select_kernels(m, o, ks);
	if (o->grad && nk)
		need_backward(m, &src, o, ks, nk);
	ir_mark_views(m);
	if (o->coverage && nk)
		cover_sites(m, o);
	return run_loaded(m, &src, o, ks, nk, host, dbl);
}

/* Parse prepare's output into the job; 0 if it is malformed. */
static int job_parse(Job *j, const Src *f)
{
	const char *p = f->text, *end = f->text + f->len;
	int nk, use_cc, nn;
	size_t n1, n2;
	if (!memchr(p, '\n', f->len) || sscanf(p, "%d %d %d %zu %zu", &nk, &use_cc, &nn, &n1, &n2) != 5 || nn < 0)
		return 0;
	p = memchr(p, '\n', f->len) + 1;
	j->nk = nk;
	j->use_cc = use_cc;
	j->names = xmalloc(sizeof *j->names * (size_t)(nn + 1));
	for (int i = 0; i < nn; i++) {
		const char *e = memchr(p, '\n', (size_t)(end - p));
		if (!e)
			return 0;
		char *name = xmalloc((size_t)(e - p) + 1);
		memcpy(name, p, (size_t)(e - p));
		name[e - p] = 0;
		j->names[j->nnames++] = name;
		p = e + 1;
	}
	if ((size_t)(end - p) != n1 + n2)
		return 0;
	buf_put(&j->frag, p, n1);
	buf_put(&j->dfrag, p + n1, n2);
	return 1;
}

static void job_status(Job *j)
{
	if (!j->failed) {
		printf("%s ok\n", j->code);
	} else {
		Buf r = {0};
		buf_first_line(&r, j->err.p, j->err.n);
		printf("%s error: %.*s\n", j->code, (int)r.n, r.p);
		buf_free(&r);
		if (j->err.n)
			fwrite(j->err.p, 1, j->err.n, stderr);
	}
	fflush(stdout);
	fflush(stderr);
}

/* A line failed before its run; its status line comes in its turn. */
static void job_fail(Job *j) { j->failed = 1; }

/* The LIST lines: IN CODE OUT, whitespace between; a malformed line is a
 * located error. */
static Job *read_list(const Opts *o, const Src *l, int *njobs)
{
	Job *jobs = NULL;
	int n = 0;
	const char *p = l->text, *end = l->text + l->len;
	for (int line = 1; p < end; line++) {
		const char *e = memchr(p, '\n', (size_t)(end - p));
		if (!e)
			e = end;
		char *field[3];
		int nf = 0;
		const char *q = p;
		while (q < e && (*q == ' ' || *q == '\t' || *q == '\r'))
			q++;
		if (q < e && *q != '#') {
			while (q < e) {
				const char *b = q;
				while (q < e && *q != ' ' && *q != '\t' && *q != '\r')
					q++;
				if (nf == 3)
					ks_error_at(l, line, (int)(b - p) + 1,
						    "a --batch line is IN CODE OUT; this is a fourth field");
				field[nf] = xmalloc((size_t)(q - b) + 1);
				memcpy(field[nf], b, (size_t)(q - b));
				field[nf][q - b] = 0;
				nf++;
				while (q < e && (*q == ' ' || *q == '\t' || *q == '\r'))
					q++;
			}
			if (nf < 2 || (nf < 3 && !o->compile_only))
				ks_error_at(l, line, (int)(e - p) + 1, "a --batch line is IN CODE %s",
					    o->compile_only ? "[OUT]" : "OUT");
			jobs = xrealloc(jobs, sizeof *jobs * (size_t)(n + 1));
			memset(&jobs[n], 0, sizeof *jobs);
			jobs[n].in = field[0];
			jobs[n].code = field[1];
			jobs[n].out = nf == 3 ? field[2] : NULL;
			jobs[n].line = line;
			n++;
		}
		p = e + 1;
	}
	*njobs = n;
	return jobs;
}

static int shares_name(const Group *g, const Job *j)
{
	for (int a = 0; a < g->nnames; a++)
		for (int b = 0; b < j->nnames; b++)
			if (!strcmp(g->names[a], j->names[b]))
				return 1;
	return 0;
}

/* Compile the group's (or with one job, the job's) float and double code
 * (use_cc as module_use_cc gives it); NULL hosts and the messages in *err
 * when either does not compile. */
static int compile_set(const Opts *o, Job *jobs, int njobs, int group, const char *what, const char *dwhat,
		       int use_cc, const char *rtdir, Host **host, Host **dbl, Buf *err)
{
	Buf code = {0}, dcode = {0};
	int lang = o->device == DEV_CPU ? LANG_C : LANG_CXX;
	buf_puts(&dcode, "#define KS_REAL_DOUBLE 1\n");
	for (int i = 0; i < njobs; i++)
		if (jobs[i].group == group && !jobs[i].failed) {
			if (jobs[i].frag.n)
				buf_put(&code, jobs[i].frag.p, jobs[i].frag.n);
			if (jobs[i].dfrag.n)
				buf_put(&dcode, jobs[i].dfrag.p, jobs[i].dfrag.n);
		}
	run_deadline(o->timeout);
	run_phase("%s: compiling (%s)", what, lang == LANG_C ? host_c_compiler(use_cc & 1) : host_cxx_compiler());
	*host = host_try_compile(what, &code, lang, use_cc & 1, rtdir, err);
	*dbl = NULL;
	run_phase("%s: compiling the double-precision build (%s)", dwhat, host_c_compiler(use_cc >> 1));
	if (*host && o->gradcheck && !(*dbl = host_try_compile(dwhat, &dcode, LANG_C, use_cc >> 1, rtdir, err))) {
		host_free(*host);
		*host = NULL;
	}
	run_deadline(0);
	buf_free(&code);
	buf_free(&dcode);
	return *host != NULL;
}

static int batch(Opts *o, const char *list)
{
	if (o->device == DEV_CUDA) {
		fprintf(stderr, "krun: --batch runs on the cpu and sim devices\n");
		usage(2);
	}
	const char *rtdir = run_runtime_dir();
	if (!rtdir)
		ks_fatal("cannot find the runtime headers (ksynth.h); set KSYNTH_RUNTIME to their folder");
	Src l;
	src_read(&l, list);
	int njobs;
	Job *jobs = read_list(o, &l, &njobs);

	/* prepare */
	for (int i = 0; i < njobs; i++) {
		Job *j = &jobs[i];
		Opts jo = *o;
		jo.in = j->in;
		jo.code = j->code;
		char *fp = run_tmpfile("job.frag");
		int st = in_child(job_prepare, &jo, NULL, NULL, fp, 0, &j->err);
		Src f;
		if (st == 0) {
			src_read(&f, fp);
			if (!job_parse(j, &f)) {
				buf_printf(&j->err, "krun: %s: internal error: a malformed prepared file\n", j->in);
				st = 1;
			}
			src_free(&f);
		}
		run_tmpdone(fp);
		j->group = -1;
		if (st != 0)
			job_fail(j);
	}

	/* group: same compiler, no name twice */
	Group *g = xmalloc(sizeof *g * (size_t)(njobs + 1));
	int ng = 0;
	for (int i = 0; i < njobs; i++) {
		Job *j = &jobs[i];
		if (j->failed || !j->nk)
			continue;
		int k = 0;
		while (k < ng && (g[k].use_cc != j->use_cc || shares_name(&g[k], j)))
			k++;
		if (k == ng)
			g[ng++] = (Group){.use_cc = j->use_cc};
		g[k].names = xrealloc(g[k].names, sizeof *g[k].names * (size_t)(g[k].nnames + j->nnames + 1));
		for (int n = 0; n < j->nnames; n++)
			g[k].names[g[k].nnames++] = j->names[n];
		g[k].njobs++;
		j->group = k;
	}

	/* compile: each group at once, else each of its jobs alone */
	for (int k = 0; k < ng; k++) {
		char what[300];
		snprintf(what, sizeof what, "%s (%d files)", list, g[k].njobs);
		Buf err = {0};
		if (compile_set(o, jobs, njobs, k, what, what, g[k].use_cc, rtdir, &g[k].host, &g[k].dbl, &err)) {
			buf_free(&err);
			continue;
		}
		buf_free(&err);
		for (int i = 0; i < njobs; i++) {
			Job *j = &jobs[i];
			if (j->group != k)
				continue;
			j->group = ng + i; /* alone */
			if (!compile_set(o, jobs, njobs, j->group, j->code, o->device == DEV_CPU ? j->code : j->in,
					 j->use_cc, rtdir, &j->host, &j->dbl, &j->err))
				job_fail(j);
		}
	}

	/* run, and the status lines in LIST order */
	int status = 0;
	for (int i = 0; i < njobs; i++) {
		Job *j = &jobs[i];
		status |= j->failed;
		if (j->failed) {
			job_status(j);
			continue;
		}
		if (o->compile_only || !j->nk) {
			if (j->out) {
				/* no record: an empty file, as a single krun prints nothing */
				FILE *f = fopen(j->out, "wb");
				if (!f || fclose(f))
					ks_fatal("%s:", j->out);
			}
			job_status(j);
			continue;
		}
		Opts jo = *o;
		jo.in = j->in;
		jo.code = j->code;
		Host *h = j->group < ng ? g[j->group].host : j->host;
		Host *d = j->group < ng ? g[j->group].dbl : j->dbl;
		char tmp[64];
		snprintf(tmp, sizeof tmp, ".tmp.%ld", (long)getpid());
		Buf tp = {0};
		buf_printf(&tp, "%s%s", j->out, tmp);
		char *tpath = run_tmppath(tp.p);
		buf_free(&tp);
		int st = in_child(job_run, &jo, h, d, tpath, 1, &j->err);
		if (st >= 0 && rename(tpath, j->out))
			ks_fatal("%s:", j->out);
		if (st >= 0)
			run_tmpkeep(tpath);
		else
			run_tmpdone(tpath);
		j->failed = st != 0;
		status |= j->failed;
		job_status(j);
	}

	for (int k = 0; k < ng; k++) {
		host_free(g[k].host);
		host_free(g[k].dbl);
		free(g[k].names);
	}
	free(g);
	for (int i = 0; i < njobs; i++) {
		Job *j = &jobs[i];
		host_free(j->host);
		host_free(j->dbl);
		for (int n = 0; n < j->nnames; n++)
			free(j->names[n]);
		free(j->names);
		buf_free(&j->frag);
		buf_free(&j->dfrag);
		buf_free(&j->err);
		free(j->in);
		free(j->code);
		free(j->out);
	}
	free(jobs);
	src_free(&l);
	if (ferror(stdout) || fflush(stdout))
		ks_fatal("<stdout>: write error");
	return status;
}

/* --nvrtc: the NVRTC that --device cuda compiles with, on stdout as
 * --verbose says it; none: exit 77 with the reason, as --device cuda. */
static int which_nvrtc(void)
{
	const char *why = NULL, *desc = cuda_nvrtc(&why);
	if (!desc) {
		fprintf(stderr, "krun: --nvrtc: %s\n", why);
		return RUN_SKIP;
	}
	printf("%s\n", desc);
	if (ferror(stdout) || fflush(stdout))
		ks_fatal("<stdout>: write error");
	return 0;
}

/* main's kernels, run in the confined child */
typedef struct Main {
	const Module *m;
	const Src *src;
	const Opts *o;
	const Func **ks;
	int nk;
	Host *host, *dbl;
} Main;

static int main_run(void *arg)
{
	const Main *c = arg;
	int st = run_loaded(c->m, c->src, c->o, c->ks, c->nk, c->host, c->dbl);
	if (ferror(stdout) || fflush(stdout))
		ks_fatal("<stdout>: write error");
	return st;
}

int main(int argc, char **argv)
{
	ks_prog = "krun";
	Opts o = {.device = DEV_CPU,
		  .dim = {16},
		  .block_dim = 64,
		  .seed = 1,
		  .timeout = 60,
		  .mem_mb = 4096,
		  .arch = "sm_90",
		  .tape_words = -1};
	parse_opts(&o, argc, argv);
	emit_block_dim(o.block_dim);
	if (o.batch)
		return batch(&o, o.batch);
	if (o.which_nvrtc)
		return which_nvrtc();
	/* --timeout bounds the whole run: reading, emitting, every compile and
	 * every launch */
	run_deadline(o.timeout);
	run_phase("%s: reading it and emitting its code", o.in);

	Src src;
	Module *m = load_module(o.in, &src, o.kernel);
	const Func **ks = xmalloc(sizeof *ks * (size_t)(m->nfn + 1));
	int nk = select_kernels(m, &o, ks);
	if (o.grad && nk)
		need_backward(m, &src, &o, ks, nk);
	ir_mark_views(m);

	/* no driver or no device: exit 77 now, before any work */
	Cuda *gpu = NULL;
	if (nk && o.device == DEV_CUDA && !o.compile_only)
		gpu = cuda_open();
	const char *rtdir = run_runtime_dir();
	if (!rtdir)
		ks_fatal("cannot find the runtime headers (ksynth.h); set KSYNTH_RUNTIME to their folder");

	Buf code = {0}, cubin = {0};
	Host *host = NULL;
	const char *what = o.code ? o.code : o.in;
	if (nk)
		build_code(&code, m, &o, ks, nk);
	if (nk && o.device == DEV_CUDA) {
		compile_phase(&o, ks, nk, "", "NVRTC");
		cuda_compile(what, &code, gpu ? cuda_arch(gpu) : o.arch, rtdir, &cubin);
		if (gpu)
			cuda_load(gpu, &cubin);
	} else if (nk) {
		compile_phase(&o, ks, nk, "",
			      o.device == DEV_CPU ? host_c_compiler(module_use_cc(m, &o) & 1)
						  : host_cxx_compiler());
		host = host_compile(what, &code, o.device == DEV_CPU ? LANG_C : LANG_CXX, module_use_cc(m, &o) & 1,
				    rtdir);
	}

	Host *dbl = NULL;
	if (nk && o.gradcheck)
		dbl = build_double(m, &o, ks, nk, rtdir);
	int status = 0;
	if (nk && o.compile_only) {
		/* nothing runs */
	} else if (o.device == DEV_CUDA) {
		/* the kernels run on the GPU; the host runs the double-precision
		 * build krun emitted from the IR itself (--gradcheck) */
		host_load(dbl);
		bounds_source(m, &src);
		bounds_hook(dbl);
		for (int k = 0; k < nk; k++)
			status |= run_kernel(m, ks[k], &o, NULL, gpu, dbl);
	} else if (nk) {
		if (o.coverage)
			cover_sites(m, &o);
		Main mc = {m, &src, &o, ks, nk, host, dbl};
		RunLimits lim = limits(&o, 0);
		status = run_confined(what, main_run, &mc, &lim);
	}
	if (ferror(stdout) || fflush(stdout))
		ks_fatal("<stdout>: write error");
	run_deadline(0);

	host_free(host);
	host_free(dbl);
	cuda_close(gpu);
	buf_free(&cubin);
	buf_free(&code);
	free(ks);
	free(o.set);
	free(o.shape);
	free(o.spd);
	ir_module_free(m);
	src_free(&src);
	src_free(&bounds_file);
	return status;
}
