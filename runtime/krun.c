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
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "emit/emit.h"
#include "grammar/ast.h"
#include "ir/ir.h"
#include "runtime/run.h"
#include "diff/diff.h"

static void usage(int status)
{
	fputs("usage: krun [--device cpu|sim|cuda] [--dim N] [--seed S] [--set NAME=VALUE]...\n"
	      "            [--kernel NAME] [--grid BLOCKSxTHREADS] [--timeout SECONDS] [--cc | --tcc]\n"
	      "            [--grad | --gradcheck] [--compile-only [--arch sm_XX]]\n"
	      "            FILE.py | FILE.kir [CODE.c | CODE.cu]\n"
	      "(FILE may be - for stdin; IR is recognized by its 'ksynth-ir' line)\n",
	      status ? stderr : stdout);
	exit(status);
}

typedef struct Opts {
	int device, device_set, dim, use_cc, use_tcc, compile_only, blocks, threads;
	int grad, gradcheck;
	unsigned timeout;
	uint64_t seed;
	const char *kernel, *arch, *in, *code;
	RunSet *set;
	int nset;
} Opts;

static int ends_with(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);
	return n >= m && !strcmp(s + n - m, suf);
}

static unsigned long long number(const char *opt, const char *s, unsigned long long lo,
				 unsigned long long hi)
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
			o->dim = (int)number("--dim", v, 1, 1 << 24);
		} else if (!strcmp(a, "--seed")) {
			o->seed = number("--seed", v, 0, UINT64_MAX);
		} else if (!strcmp(a, "--timeout")) {
			o->timeout = (unsigned)number("--timeout", v, 0, 86400);
		} else if (!strcmp(a, "--kernel")) {
			o->kernel = v;
		} else if (!strcmp(a, "--arch")) {
			o->arch = v;
		} else if (!strcmp(a, "--grid")) {
			char *x = strchr(v, 'x');
			if (!x)
				usage(2);
			*x = 0;
			o->blocks = (int)number("--grid", v, 1, 1 << 24);
			o->threads = (int)number("--grid", x + 1, 1, 1024);
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
	if (!npos)
		usage(2);
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
				cu ? "CUDA" : "C", run_device_name[o->device],
				o->device == DEV_CPU ? "C" : "CUDA");
			usage(2);
		}
	}
}

/* The emitted code for the module (emit/emit.c, as kemit-cpu or kemit-cu
 * would print it). */
static void emit(const Module *m, int cuda, Buf *code)
{
	char *p = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&p, &n);
	if (!f)
		ks_fatal("open_memstream:");
	emit_module(f, m, cuda ? EMIT_CUDA : EMIT_CPU);
	if (fclose(f))
		ks_fatal("emitting the code:");
	buf_put(code, p, n);
	free(p);
}

/* Does any value of the module have type vec3 or vec3[]?  libtcc 0.9.27
 * (Debian 12's) miscompiles calls that return a 12-byte struct into a
 * temporary (it stores 16 bytes, clobbering the next local), so such
 * modules go to the system compiler unless --tcc asks otherwise. */
static int uses_vec3(const Module *m)
{
	for (int i = 0; i < m->nfn; i++)
		for (int v = 0; v < m->fn[i]->nval; v++)
			if (ty_elem(m->fn[i]->val[v].ty) == TY_VEC3)
				return 1;
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

static Module *load_module(const char *path, Src *src, Arena *scratch)
{
	src_read(src, path);
	if (is_ir(src)) {
		Module *m = ir_read(src);
		ir_verify(m, src, 0);
		return m;
	}
	return ks_frontend(src, scratch);
}

/* The kernels to run, in module order; check that --kernel and every
 * --set name something. */
static int select_kernels(const Module *m, const Opts *o, const Func **ks)
{
	int nk = 0;
	for (int i = 0; i < m->nfn; i++)
		if (m->fn[i]->is_kernel && !m->fn[i]->backward && (!o->kernel || !strcmp(o->kernel, m->fn[i]->name)))
			ks[nk++] = m->fn[i];
	if (o->kernel && !nk)
		ks_fatal("%s: no kernel named %s", o->in, o->kernel);
	for (int s = 0; s < o->nset; s++) {
		int found = 0;
		for (int k = 0; k < nk && !found; k++)
			for (int i = 0; i < ks[k]->nparam; i++) {
				const Value *p = &ks[k]->val[ks[k]->param[i]];
				if (!strcmp(p->name, o->set[s].name) && ty_is_scalar(p->ty))
					found = 1;
			}
		if (!found)
			ks_fatal("--set %s: no kernel run has an int or float parameter %s",
				 o->set[s].name, o->set[s].name);
	}
	return nk;
}

/* The code to compile: the given or emitted code, then on the host
 * devices a launcher per kernel.  Compiler messages cite the code file,
 * or FILE.py.c / FILE.py.cu for emitted code. */
static void build_code(Buf *code, const Module *m, const Opts *o, const Func **ks, int nk)
{
	int cuda = o->device != DEV_CPU;
	char entry[300], name[300];
	line_directive(code, o->code ? o->code : o->in, o->code ? "" : cuda ? ".cu" : ".c");
	if (o->code) {
		Src c;
		src_read(&c, o->code);
		buf_put(code, c.text, c.len);
		src_free(&c);
	} else {
		emit(m, cuda, code);
	}
	if (code->n && code->p[code->n - 1] != '\n')
		buf_putc(code, '\n');
	line_directive(code, "krun-launchers", "");
	for (int k = 0; k < nk; k++) {
		snprintf(entry, sizeof entry, "%s_%s_forward", ks[k]->name, cuda ? "cuda" : "cpu");
		if (o->device == DEV_CPU)
			run_launcher_c(code, ks[k], entry, ks[k]->name);
		else if (o->device == DEV_SIM)
			run_launcher_sim(code, ks[k], entry, ks[k]->name);
		if (!o->grad)
			continue;
		const Func *b = m->fn[ir_backward_find(m, ks[k]->name)];
		snprintf(entry, sizeof entry, "%s_%s_backward", ks[k]->name, cuda ? "cuda" : "cpu");
		snprintf(name, sizeof name, "%s_backward", ks[k]->name);
		if (o->device == DEV_CPU)
			run_launcher_c(code, b, entry, name);
		else if (o->device == DEV_SIM)
			run_launcher_sim(code, b, entry, name);
	}
}

/* --gradcheck: the CPU code in double precision (ksynth.h's
 * KS_REAL_DOUBLE) with a launcher per kernel, compiled once. */
static Host *build_double(const Module *m, const Opts *o, const Func **ks, int nk, const char *rtdir)
{
	Buf code = {0};
	char entry[300];
	buf_puts(&code, "#define KS_REAL_DOUBLE 1\n");
	int given = o->code && o->device == DEV_CPU;
	line_directive(&code, given ? o->code : o->in, given ? "" : ".c");
	if (given) {
		Src c;
		src_read(&c, o->code);
		buf_put(&code, c.text, c.len);
		src_free(&c);
	} else {
		emit(m, 0, &code);
	}
	if (code.n && code.p[code.n - 1] != '\n')
		buf_putc(&code, '\n');
	line_directive(&code, "krun-launchers", "");
	for (int k = 0; k < nk; k++) {
		snprintf(entry, sizeof entry, "%s_cpu_forward", ks[k]->name);
		run_launcher_c(&code, ks[k], entry, ks[k]->name);
	}
	int use_cc = o->use_cc || (!o->use_tcc && uses_vec3(m));
	Host *h = host_compile(given ? o->code : o->in, &code, LANG_C, use_cc, rtdir);
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

/* Run one kernel on its seeded inputs and print its record.  Returns 1
 * when an output is not finite. */
static int run_kernel(const Module *m, const Func *f, const Opts *o, Host *host, Cuda *gpu,
		      Host *dbl)
{
	const char *what = o->code ? o->code : o->in;
	char name[300];
	RunArgs in, out;
	run_args_init(&in, f, o->dim, o->seed, o->set, o->nset);
	run_args_copy(&out, &in);
	int threads = o->threads ? o->threads : o->device == DEV_CUDA ? 256 : 64;
	int blocks = o->blocks ? o->blocks : (o->dim + threads - 1) / threads;
	void *fn = NULL;
	if (host) {
		snprintf(name, sizeof name, "ks_launch_%s", f->name);
		if (!(fn = host_sym(host, name)))
			ks_fatal("%s: the compiled code has no %s", what, name);
	}
	run_guard(f->name, o->timeout);
	if (o->device == DEV_CPU) {
		RunCpuLaunch l;
		memcpy(&l, &fn, sizeof l);
		l(o->dim, out.slot);
	} else if (o->device == DEV_SIM) {
		RunSimLaunch l;
		memcpy(&l, &fn, sizeof l);
		l(o->dim, out.slot, blocks, threads);
	} else {
		snprintf(name, sizeof name, "%s_cuda_forward", f->name);
		cuda_launch(gpu, name, &out, blocks, threads);
	}
	run_unguard();

	RunGrad g, *gp = NULL;
	RunCheck chk;
	Buf extra = {0};
	int failed = 0;
	if (o->grad) {
		const Func *b = m->fn[ir_backward_find(m, f->name)];
		gp = &g;
		run_grad_init(&g, m, f, b, &in, &out, o->seed);
		snprintf(name, sizeof name, "%s_backward", f->name);
		run_guard(name, o->timeout);
		if (o->device == DEV_CUDA) {
			snprintf(name, sizeof name, "%s_cuda_backward", f->name);
			cuda_launch(gpu, name, &g.args, blocks, threads);
		} else {
			snprintf(name, sizeof name, "ks_launch_%s_backward", f->name);
			if (!(fn = host_sym(host, name)))
				ks_fatal("%s: the compiled code has no %s", what, name);
			if (o->device == DEV_CPU) {
				RunCpuLaunch l;
				memcpy(&l, &fn, sizeof l);
				l(o->dim, g.args.slot);
			} else {
				RunSimLaunch l;
				memcpy(&l, &fn, sizeof l);
				l(o->dim, g.args.slot, blocks, threads);
			}
		}
		run_unguard();
	}
	if (o->gradcheck) {
		snprintf(name, sizeof name, "ks_launch_%s", f->name);
		if (!(fn = host_sym(dbl, name)))
			ks_fatal("%s: the double-precision code has no %s", what, name);
		RunDblLaunch l;
		memcpy(&l, &fn, sizeof l);
		snprintf(name, sizeof name, "%s (gradcheck)", f->name);
		run_guard(name, o->timeout);
		run_gradcheck(&chk, &g, &in, l);
		run_unguard();
		char a[32], r[32], q[32];
		snprintf(a, sizeof a, "%.3g", chk.worst_abs);
		snprintf(r, sizeof r, "%.3g", chk.worst_rel);
		snprintf(q, sizeof q, "%.3g", chk.worst_ratio);
		/* JSON has no inf: a non-finite error is printed as null */
		buf_printf(&extra, ", \"gradcheck\": {\"h\": %g, \"rtol\": %g, \"atol\": %.3g, "
			   "\"components\": %d, \"skipped\": %d, \"worst_abs\": %s, \"worst_rel\": %s, "
			   "\"worst_ratio\": %s, \"where\": \"", chk.h, chk.rtol, chk.atol, chk.ncomp,
			   chk.skipped, isfinite(chk.worst_abs) ? a : "null",
			   isfinite(chk.worst_rel) ? r : "null", isfinite(chk.worst_ratio) ? q : "null");
		for (const char *p = chk.where; *p; p++)
			if (*p != '"' && *p != '\\')
				buf_putc(&extra, *p);
		buf_printf(&extra, "\", \"ok\": %s}", chk.ok ? "true" : "false");
		if (!chk.ok) {
			fprintf(stderr, "krun: %s: gradcheck failed on %s: |grad - fd| = %s (rel %s), "
				"%s times the tolerance %.3g + %g |fd|\n", f->name, run_device_name[o->device],
				a, r, q, chk.atol, chk.rtol);
			fprintf(stderr, "krun: %s: worst at %s\n", f->name, chk.where);
			failed = 1;
		}
	}
	Buf rec = {0};
	size_t bad = run_json(&rec, &in, &out, gp, extra.n ? extra.p : NULL,
			      run_device_name[o->device], o->seed);
	fwrite(rec.p, 1, rec.n, stdout);
	fflush(stdout);
	if (bad)
		fprintf(stderr, "krun: %s: %zu output%s value%s not finite (printed as null)\n",
			f->name, bad, o->grad ? " or gradient" : "", bad == 1 ? " is" : "s are");
	buf_free(&rec);
	buf_free(&extra);
	if (gp)
		run_grad_free(gp);
	run_args_free(&in);
	run_args_free(&out);
	return bad != 0 || failed;
}

int main(int argc, char **argv)
{
	ks_prog = "krun";
	Opts o = {.device = DEV_CPU, .dim = 16, .seed = 1, .timeout = 60, .arch = "sm_90"};
	parse_opts(&o, argc, argv);

	Src src;
	Arena scratch = {0};
	Module *m = load_module(o.in, &src, &scratch);
	const Func **ks = xmalloc(sizeof *ks * (size_t)(m->nfn + 1));
	int nk = select_kernels(m, &o, ks);
	if (o.grad && nk)
		need_backward(m, &src, &o, ks, nk);

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
		cuda_compile(what, &code, gpu ? cuda_arch(gpu) : o.arch, rtdir, &cubin);
		if (gpu)
			cuda_load(gpu, &cubin);
	} else if (nk) {
		int use_cc = o.use_cc || (!o.use_tcc && uses_vec3(m));
		host = host_compile(what, &code, o.device == DEV_CPU ? LANG_C : LANG_CXX,
				    use_cc, rtdir);
	}

	Host *dbl = NULL;
	if (nk && o.gradcheck)
		dbl = build_double(m, &o, ks, nk, rtdir);

	int status = 0;
	for (int k = 0; k < nk && !o.compile_only; k++)
		status |= run_kernel(m, ks[k], &o, host, gpu, dbl);
	if (ferror(stdout) || fflush(stdout))
		ks_fatal("<stdout>: write error");

	host_free(host);
	host_free(dbl);
	cuda_close(gpu);
	buf_free(&cubin);
	buf_free(&code);
	free(ks);
	free(o.set);
	ir_module_free(m);
	arena_free(&scratch);
	src_free(&src);
	return status;
}
