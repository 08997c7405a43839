/*
 * replay.c: a main() for a libFuzzer harness without libFuzzer: runs the
 * harness once on each file named, so that make check replays the
 * findings and the seed corpus (t/t9001-fuzz-replay.t) with the build's
 * own compiler and sanitizers.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		if (!f) {
			perror(argv[i]);
			return 2;
		}
		size_t n = 0, cap = 4096;
		uint8_t *p = malloc(cap);
		size_t r;
		while (p && (r = fread(p + n, 1, cap - n, f)) > 0) {
			n += r;
			if (n == cap)
				p = realloc(p, cap *= 2);
		}
		fclose(f);
		if (!p)
			return 2;
		LLVMFuzzerTestOneInput(p, n);
		free(p);
	}
	return 0;
}
