/*
 * args.c: the command line every filter tool shares,
 *     TOOL [options] [-o OUT] [FILE | -]
 * -h/--help prints the usage line on stdout and exits 0; an unknown option
 * or a second input prints it on stderr and exits 2.  A tool's own flags
 * are passed to its callback, which returns 1 when it took the flag.
 */
#include <stdlib.h>
#include <string.h>

#include "ks.h"

void ks_args(int argc, char **argv, const char *usage, int (*flag)(const char *arg, void *ctx),
	     void *ctx, const char **in, const char **out)
{
	int nin = 0;
	*in = "-";
	*out = NULL;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-o") && i + 1 < argc) {
			*out = argv[++i];
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			printf("usage: %s\n", usage);
			exit(0);
		} else if (a[0] == '-' && a[1] && !(flag && flag(a, ctx))) {
			fprintf(stderr, "usage: %s\n", usage);
			exit(2);
		} else if (a[0] != '-' || !a[1]) {
			if (nin++) {
				fprintf(stderr, "usage: %s\n", usage);
				exit(2);
			}
			*in = a;
		}
	}
}
