/*
 * kparse: the front end.  Reads a kernel source (a Warp module), checks it
 * and writes its typed IR, one definition at a time, callees first
 * (grammar/sema_module.c).
 */
#include "grammar/ast.h"

int main(int argc, char **argv)
{
	const char *in, *out;
	ks_prog = "kparse";
	ks_args(argc, argv, "kparse [-o OUT.kir] [FILE.py | -]", NULL, NULL, &in, &out);
	ks_frontend_file(in, out);
	return 0;
}
