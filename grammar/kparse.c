/*
 * kparse: the front end.  Reads a Warp module, checks its kernels and
 * writes their typed IR, one definition at a time, callees first
 * (grammar/sema_module.c); the host Python around them is skipped.  With
 * --keep-going, a kernel or function that does not compile is reported
 * (FILE:LINE:COL: error: kernel NAME: REASON) and left out, the others
 * written, and the exit status is 1 when any was left out.  Modules it
 * imports with `from MODULE import ...` are read for what its kernels use:
 * relative ones from its folder, absolute ones along each --path DIR and
 * then its folder.
 */
#include <stdlib.h>
#include <string.h>

#include "grammar/ast.h"

static int flag(const char *arg, void *ctx)
{
	if (strcmp(arg, "--keep-going"))
		return 0;
	*(int *)ctx = 1;
	return 1;
}

int main(int argc, char **argv)
{
	const char *in, *out;
	int keep_going = 0, ndir = 0, n = 0;
	ks_prog = "kparse";
	/* --path DIR (or --path=DIR), repeatable: where absolute imports are
	 * found; taken out before the common arguments are read */
	const char **dir = xmalloc((size_t)argc * sizeof *dir);
	char **rest = xmalloc((size_t)(argc + 1) * sizeof *rest);
	for (int i = 0; i < argc; i++) {
		if (i && !strcmp(argv[i], "--path") && i + 1 < argc)
			dir[ndir++] = argv[++i];
		else if (i && !strncmp(argv[i], "--path=", 7))
			dir[ndir++] = argv[i] + 7;
		else
			rest[n++] = argv[i];
	}
	rest[n] = NULL;
	ks_args(n, rest, "kparse [--keep-going] [--path DIR]... [-o OUT.kir] [FILE.py | -]", flag, &keep_going, &in,
		&out);
	int failed = ks_frontend_file(in, out, keep_going, dir, ndir);
	free(dir);
	free(rest);
	return failed ? 1 : 0;
}
