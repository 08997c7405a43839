/*
 * kparse: the front end.  Reads a kernel source (a Warp module), checks it
 * and writes its typed IR.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grammar/ast.h"
#include "ir/ir.h"

static void usage(int status)
{
	fputs("usage: kparse [-o OUT.kir] [FILE.py | -]\n", status ? stderr : stdout);
	exit(status);
}

int main(int argc, char **argv)
{
	const char *in = "-", *out = NULL;
	int nin = 0;
	ks_prog = "kparse";
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
	Src src;
	src_read(&src, in);
	Arena scratch = {0};
	struct Module *m = ks_frontend(&src, &scratch);
	FILE *f = out_open(out);
	ir_print(f, m);
	out_commit();
	ir_module_free(m);
	arena_free(&scratch);
	src_free(&src);
	return 0;
}
