/*
 * kfmt: reads IR, verifies it and prints it in canonical form; with
 * --hash, prints each function's name and structural hash instead.
 * It is the IR's own test tool: kfmt of kfmt output is the same bytes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"

static void usage(int status)
{
	fputs("usage: kfmt [--hash] [-o OUT] [FILE.kir | -]\n", status ? stderr : stdout);
	exit(status);
}

int main(int argc, char **argv)
{
	const char *in = "-", *out = NULL;
	int hash = 0, nin = 0;
	ks_prog = "kfmt";
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-o") && i + 1 < argc)
			out = argv[++i];
		else if (!strcmp(argv[i], "--hash"))
			hash = 1;
		else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			usage(0);
		else if (argv[i][0] == '-' && argv[i][1])
			usage(2);
		else if (nin++)
			usage(2);
		else
			in = argv[i];
	}
	Src src;
	src_read(&src, in);
	Module *m = ir_read(&src);
	ir_verify(m, &src, 0);
	FILE *f = out_open(out);
	if (hash) {
		for (int i = 0; i < m->nfn; i++)
			fprintf(f, "%s %016llx\n", m->fn[i]->name,
				(unsigned long long)ir_hash_func(m, m->fn[i]));
	} else {
		ir_print(f, m);
	}
	out_commit();
	ir_module_free(m);
	src_free(&src);
	return 0;
}
