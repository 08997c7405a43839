/*
 * kfmt: reads IR, verifies it and prints it in canonical form; with
 * --hash, prints each function's name and structural hash instead.
 * It is the IR's own test tool: kfmt of kfmt output is the same bytes.
 *
 * A module whose calls all go to functions defined above them (what the
 * other tools write) is read, verified and printed one function at a
 * time (ir/stream.c), so memory does not grow with the module; any other
 * module, or one with an error, is read whole.
 */
#include <stdio.h>
#include <string.h>

#include "ir/stream.h"

static int flag(const char *arg, void *ctx)
{
	if (strcmp(arg, "--hash"))
		return 0;
	*(int *)ctx = 1;
	return 1;
}

static void begin(void *ctx, FILE *out, Module *m, const IrStream *s)
{
	(void)s;
	if (!*(int *)ctx)
		ir_print_head(out, m);
}

static void each(void *ctx, FILE *out, Module *m, int fi, const Src *src)
{
	Func *f = m->fn[fi];
	ir_verify_func(m, src, 0, fi);
	if (*(int *)ctx) {
		/* callers below use the hash once the body is gone */
		f->hash = ir_hash_func(m, f);
		f->hashed = 1;
		fprintf(out, "%s %016llx\n", f->name, (unsigned long long)f->hash);
	} else {
		ir_print_func(out, m, f);
	}
}

static void end(void *ctx, FILE *out, Module *m) { (void)ctx, (void)out, (void)m; }
static void nothing(void *ctx) { (void)ctx; }

int main(int argc, char **argv)
{
	const char *in, *out;
	int hash = 0;
	ks_prog = "kfmt";
	ks_args(argc, argv, "kfmt [--hash] [-o OUT] [FILE.kir | -]", flag, &hash, &in, &out);
	static const IrStreamTool tool = {begin, each, end, nothing};
	Src src;
	if (ir_stream_run(in, out, &tool, &hash, &src))
		return 0;
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
