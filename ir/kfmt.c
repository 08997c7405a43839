/*
 * kfmt: reads IR, verifies it and prints it in canonical form; with
 * --hash, prints each function's name and structural hash instead.
 * It is the IR's own test tool: kfmt of kfmt output is the same bytes.
 *
 * The module is read, verified and printed one function at a time
 * (ir/file.c), so memory does not grow with the module.
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
	IrFile r;
	Module *m = ir_file_open(&r, in);
	FILE *f = out_open_spool(out);
	if (!hash)
		ir_print_head(f, m);
	for (int fi; (fi = ir_file_next(&r)) >= 0;) {
		Func *fn = m->fn[fi];
		ir_verify_func(m, &r.src, 0, fi);
		if (hash) {
			/* callers below use the hash once the body is gone */
			fn->hash = ir_hash_func(m, fn);
			fn->hashed = 1;
			fprintf(f, "%s %016llx\n", fn->name, (unsigned long long)fn->hash);
		} else {
			ir_print_func(f, m, fn);
		}
		ir_file_drop(&r, fi);
	}
	if (fflush(f) || ferror(f))
		ks_fatal("write error:");
	out_commit();
	ir_file_close(&r);
	return 0;
}
