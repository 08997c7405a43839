/*
 * kfmt: reads IR, verifies it and prints it in canonical form; with
 * --hash, prints each function's name and structural hash instead.
 * It is the IR's own test tool: kfmt of kfmt output is the same bytes.
 */
#include <stdio.h>
#include <string.h>

#include "ir/ir.h"

static int flag(const char *arg, void *ctx)
{
	if (strcmp(arg, "--hash"))
		return 0;
	*(int *)ctx = 1;
	return 1;
}

int main(int argc, char **argv)
{
	const char *in, *out;
	int hash = 0;
	ks_prog = "kfmt";
	ks_args(argc, argv, "kfmt [--hash] [-o OUT] [FILE.kir | -]", flag, &hash, &in, &out);
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
