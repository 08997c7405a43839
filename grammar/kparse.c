/*
 * kparse: the front end.  Reads a Warp module, checks its kernels and
 * writes their typed IR, one definition at a time, callees first
 * (grammar/sema_module.c); the host Python around them is skipped.  With
 * --keep-going, a kernel or function that does not compile is reported
 * (FILE:LINE:COL: error: kernel NAME: REASON) and left out, the others
 * written, and the exit status is 1 when any was left out.
 */
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
	int keep_going = 0;
	ks_prog = "kparse";
	ks_args(argc, argv, "kparse [--keep-going] [-o OUT.kir] [FILE.py | -]", flag, &keep_going, &in, &out);
	return ks_frontend_file(in, out, keep_going) ? 1 : 0;
}
