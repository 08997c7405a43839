/*
 * kdiff: reads IR, appends the adjoint of every kernel (`backward @k`)
 * and function (`func @f_adj`), verifies the result and prints it.
 * doc/autodiff.md explains the method.  Errors about the kernel are
 * located in the kernel source named by the IR's `source` line (with an
 * excerpt when that file can be read).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "diff/diff.h"

int main(int argc, char **argv)
{
	const char *in, *out;
	ks_prog = "kdiff";
	ks_args(argc, argv, "kdiff [-o OUT] [FILE.kir | -]", NULL, NULL, &in, &out);
	Src src, ksrc;
	src_read(&src, in);
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
