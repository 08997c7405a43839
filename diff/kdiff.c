/*
 * kdiff: reads IR, appends the adjoint of every kernel (`backward @k`)
 * and function (`func @f_adj`), verifies the result and prints it.
 * doc/autodiff.md explains the method.  Errors about the kernel are
 * located in the kernel source named by the IR's `source` line (with an
 * excerpt when that file can be read).
 *
 * A module whose calls all go to functions above them (what kparse
 * writes) is read, differentiated and printed one function at a time
 * (ir/stream.c, diff_stream_*), so memory does not grow with the module;
 * any other module, or one with an error, is read whole.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "diff/diff.h"
#include "ir/stream.h"

static void begin(void *ctx, FILE *out, Module *m, const IrStream *s)
{
	(void)s;
	*(DiffStream **)ctx = diff_stream_new(m);
	ir_print_head(out, m);
}

static void each(void *ctx, FILE *out, Module *m, int fi, const Src *src)
{
	(void)m;
	diff_stream_func(*(DiffStream **)ctx, fi, src, out);
}

static void end(void *ctx, FILE *out, Module *m)
{
	(void)m;
	diff_stream_end(*(DiffStream **)ctx, out);
}

static void release(void *ctx)
{
	diff_stream_free(*(DiffStream **)ctx);
	*(DiffStream **)ctx = NULL;
}

/* -O0: the adjoints as the transform writes them, unsimplified */
static int flag(const char *arg, void *ctx)
{
	(void)ctx;
	if (!strcmp(arg, "-O0") || !strcmp(arg, "-O1")) {
		diff_optimize = arg[2] == '1';
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *in, *out;
	ks_prog = "kdiff";
	ks_args(argc, argv, "kdiff [-O0] [-o OUT] [FILE.kir | -]", flag, NULL, &in, &out);
	static const IrStreamTool tool = {begin, each, end, release};
	static DiffStream *ds;
	Src src, ksrc;
	if (ir_stream_run(in, out, &tool, &ds, &src))
		return 0;
	Module *m = ir_read(&src);
	ir_verify(m, &src, 0);
	for (int i = 0; i < m->nfn; i++)
		if (m->fn[i]->backward)
			ks_error_at(&src, m->fn[i]->at.line, m->fn[i]->at.col,
				    "the module already has backward kernels");
	/* the kernel source, for excerpts: only a readable regular file */
	const Src *ks = NULL;
	struct stat st;
	FILE *probe = m->source && !stat(m->source, &st) && S_ISREG(st.st_mode)
			      ? fopen(m->source, "rb") : NULL;
	if (probe) {
		fclose(probe);
		src_read(&ksrc, m->source);
		ks = &ksrc;
	}
	diff_module(m, ks);
	ir_verify(m, &src, 0);
	FILE *f = out_open(out);
	ir_print(f, m);
	out_commit();
	ir_module_free(m);
	if (ks)
		src_free(&ksrc);
	src_free(&src);
	return 0;
}
