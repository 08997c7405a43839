/*
 * kdiff: reads IR, appends the adjoint of every kernel (`backward @k`)
 * and function (`func @f_adj`), verifies the result and prints it.
 * doc/autodiff.md explains the method.  Errors about the kernel are
 * located in the kernel source named by the IR's `source` line (with an
 * excerpt when that file can be read).
 *
 * The module is read, differentiated and printed one function at a time
 * (ir/file.c), so memory does not grow with the module: each function is
 * printed as it comes, and what kdiff appends — the replays, then the
 * adjoint funcs, then the backward kernels — goes to three temporary
 * files, printed after the last function.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff/diff.h"

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

/* Verify function gi, which kdiff made, print it to spool and keep its
 * signature (a backward kernel, which nothing calls, goes). */
static void spool_func(Module *m, const Src *ks, FILE *spool, int gi)
{
	ir_verify_func(m, ks, 0, gi);
	ir_print_func(spool, m, m->fn[gi]);
	if (m->fnkind[gi] == FN_FUNC)
		ir_keep_signature(m, m->fn[gi]);
	else
		ir_func_forget(m, gi);
}

int main(int argc, char **argv)
{
	const char *in, *out;
	ks_prog = "kdiff";
	ks_args(argc, argv, "kdiff [-O0] [-o OUT] [FILE.kir | -]", flag, NULL, &in, &out);
	IrFile r;
	Module *m = ir_file_open(&r, in);
	/* the kernel source, read for an excerpt when an error needs one */
	Src ks = {m->source ? m->source : "<ir>", NULL, 0, 1, NULL};
	Diff *d = diff_begin(m, &ks);
	FILE *f = out_open_spool(out), *spool[3];
	for (int k = 0; k < 3; k++)
		if (!(spool[k] = tmpfile()))
			ks_fatal("temporary file:");
	ir_print_head(f, m);
	for (int fi; (fi = ir_file_next(&r)) >= 0;) {
		Func *fn = m->fn[fi];
		if (fn->backward)
			ks_error_at(&r.src, fn->at.line, fn->at.col, "the module already has backward kernels");
		ir_verify_func(m, &r.src, 0, fi);
		ir_print_func(f, m, fn);
		DiffMade made = diff_next(d, fi);
		if (made.replay >= 0)
			spool_func(m, &ks, spool[0], made.replay);
		if (made.adj >= 0)
			spool_func(m, &ks, spool[1], made.adj);
		if (made.backward >= 0)
			spool_func(m, &ks, spool[2], made.backward);
		ir_file_drop(&r, fi);
	}
	char buf[65536];
	size_t n;
	for (int k = 0; k < 3; k++) {
		FILE *s = spool[k];
		if (fflush(s) || ferror(s) || fseek(s, 0, SEEK_SET))
			ks_fatal("temporary file: write error");
		while ((n = fread(buf, 1, sizeof buf, s)) > 0)
			fwrite(buf, 1, n, f);
		if (ferror(s))
			ks_fatal("temporary file: read error");
		fclose(s);
	}
	if (fflush(f) || ferror(f))
		ks_fatal("write error:");
	out_commit();
	diff_end(d);
	ir_file_close(&r);
	return 0;
}
