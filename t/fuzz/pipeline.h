/*
 * pipeline.h: what the pipeline harnesses (fuzz-pipe.c, fuzz-irpipe.c)
 * share: a verified module taken through kdiff and both emitters, as
 * `kdiff | kemit-cpu` and `kdiff | kemit-cu` take it, the IR printed and
 * read back between the tools as the text between them is.
 *
 * Any step may reject its input with a located error (a longjmp to the
 * caller's ks_recover); what must not happen is a crash, a hang (the
 * harness runs under libFuzzer's -timeout), a leak, IR that kdiff writes
 * and the IR reader or verifier rejects, or emitted code with a name that
 * C or C++ reserves (one that starts with '_' or holds "__").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <setjmp.h>

#include "diff/diff.h"
#include "emit/emit.h"
#include "grammar/ast.h"
#include "ir/ir.h"

/* m printed into *text, then read back into the module *out and verified:
 * the text between two tools.  *out and *text are the caller's to free
 * (also after a longjmp). */
static void fuzz_reread(const Module *m, const char *name, Module *out, Src *text)
{
	char *p = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&p, &n);
	ir_print(f, m);
	fclose(f);
	src_from_mem(text, name, p, n);
	free(p);
	ir_read_into(out, text);
	ir_verify(out, text, 0);
}

/* Does code hold an identifier that starts with '_' or holds "__",
 * comments and CUDA's own qualifiers aside? */
static int fuzz_reserved_name(const char *code, size_t n)
{
	/* clang-format off */
	static const char *const own[] = {"__global__", "__device__", "__host__",
					  "__forceinline__", "__restrict__", "__shared__", "__syncthreads",
					  "__launch_bounds__"};
	/* clang-format on */
	for (size_t i = 0; i < n;) {
		char c = code[i];
		if (c == '/' && i + 1 < n && code[i + 1] == '/') {
			while (i < n && code[i] != '\n')
				i++;
		} else if (c == '/' && i + 1 < n && code[i + 1] == '*') {
			for (i += 2; i + 1 < n && !(code[i] == '*' && code[i + 1] == '/'); i++)
				;
			i += 2;
		} else if (c == '"') {
			for (i++; i < n && code[i] != '"'; i++)
				i += code[i] == '\\';
			i++;
		} else if (c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
			size_t b = i;
			while (i < n && (code[i] == '_' || (code[i] >= 'a' && code[i] <= 'z') ||
					 (code[i] >= 'A' && code[i] <= 'Z') || (code[i] >= '0' && code[i] <= '9')))
				i++;
			int bad = code[b] == '_';
			for (size_t k = b; k + 1 < i; k++)
				bad |= code[k] == '_' && code[k + 1] == '_';
			for (size_t k = 0; bad && k < sizeof own / sizeof *own; k++)
				bad = !(strlen(own[k]) == i - b && !memcmp(own[k], code + b, i - b));
			if (bad) {
				fprintf(stderr, "reserved name in emitted code: %.*s\n", (int)(i - b), code + b);
				return 1;
			}
		} else {
			i++;
		}
	}
	return 0;
}

static void fuzz_emit(const Module *m, int target)
{
	char *p = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&p, &n);
	emit_module(f, m, target);
	fclose(f);
	if (fuzz_reserved_name(p, n))
		abort();
	free(p);
}

/* The modules and texts one run makes, freed whatever step it reached;
 * the step it is at (a longjmp out of any step but FUZZ_DIFF is a bug:
 * the IR was valid, and kdiff is the one tool that may reject it). */
enum { FUZZ_START, FUZZ_REREAD, FUZZ_DIFF, FUZZ_EMIT };
typedef struct FuzzRun {
	Module *in, *diffed;
	Src in_text, diffed_text;
	int step;
} FuzzRun;

/* m, verified: through kdiff (unless it has backward kernels already, which
 * kdiff rejects) and both emitters.  ks is the kernel source, or NULL. */
static void fuzz_pipeline(FuzzRun *r, const Module *m, const Src *ks)
{
	r->step = FUZZ_REREAD;
	r->in = ir_module_new();
	fuzz_reread(m, "fuzz.kir", r->in, &r->in_text);
	/* krun's order_dependent key, over every kernel (ir/order.c) */
	for (int i = 0; i < r->in->nfn; i++) {
		const Func *f = r->in->fn[i];
		uint8_t dep[256];
		if (f->is_kernel && f->nparam <= 256 && ir_order_dependent(r->in, f, dep) > f->nparam)
			abort();
	}
	int has_backward = 0;
	for (int i = 0; i < r->in->nfn; i++)
		has_backward |= r->in->fn[i]->backward;
	if (!has_backward) {
		r->step = FUZZ_DIFF;
		diff_module(r->in, ks);
		ir_verify(r->in, &r->in_text, 0);
	}
	r->step = FUZZ_EMIT;
	r->diffed = ir_module_new();
	fuzz_reread(r->in, "fuzz.adj.kir", r->diffed, &r->diffed_text);
	fuzz_emit(r->diffed, EMIT_CPU);
	fuzz_emit(r->diffed, EMIT_CUDA);
}

/* After a longjmp: abort unless the error was kdiff's to give. */
static void fuzz_rejected(const FuzzRun *r)
{
	if (r->step != FUZZ_START && r->step != FUZZ_DIFF) {
		fprintf(stderr, "valid IR rejected after kdiff or by a reader (step %d)\n", r->step);
		abort();
	}
}

static void fuzz_run_free(FuzzRun *r)
{
	ir_module_free(r->in);
	ir_module_free(r->diffed);
	if (r->in_text.text)
		src_free(&r->in_text);
	if (r->diffed_text.text)
		src_free(&r->diffed_text);
	memset(r, 0, sizeof *r);
}

/* Kernel source text through the front end and fuzz_pipeline (fuzz-pipe.c,
 * fuzz-gen.c); returns 1 when a step rejected it (r->step says which),
 * after freeing what the run made. */
static inline int fuzz_source(FuzzRun *r, const char *name, const char *text, size_t n, int quiet)
{
	Src src;
	src_from_mem(&src, name, text, n);
	jmp_buf jb;
	struct Module *volatile m = NULL;
	volatile int rejected = 0;
	ks_recover = &jb;
	ks_quiet = quiet;
	if (!setjmp(jb)) {
		m = ks_frontend(&src, NULL);
		fuzz_pipeline(r, m, &src);
	} else {
		fuzz_rejected(r);
		rejected = 1;
	}
	ks_recover = NULL;
	ir_module_free(m);
	src_free(&src);
	return rejected;
}
