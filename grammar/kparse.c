/*
 * kparse: the front end.  Reads a kernel source (a Warp module), checks it
 * and writes its typed IR: one definition at a time when it can
 * (ks_frontend_stream), else, and to report any error, whole.
 */
#include <stdio.h>

#include "grammar/ast.h"
#include "ir/ir.h"

int main(int argc, char **argv)
{
	const char *in, *out;
	ks_prog = "kparse";
	ks_args(argc, argv, "kparse [-o OUT.kir] [FILE.py | -]", NULL, NULL, &in, &out);
	Src src;
	if (ks_frontend_stream(in, out, &src))
		return 0;
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
