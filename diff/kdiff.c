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

static void usage(int status)
{
	fputs("usage: kdiff [-o OUT] [FILE.kir | -]\n", status ? stderr : stdout);
	exit(status);
}

int main(int argc, char **argv)
{
	const char *in = "-", *out = NULL;
	int nin = 0;
	ks_prog = "kdiff";
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-o") && i + 1 < argc)
			out = argv[++i];
		else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			usage(0);
		else if (argv[i][0] == '-' && argv[i][1])
			usage(2);
		else if (nin++)
			usage(2);
		else
			in = argv[i];
	}
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
