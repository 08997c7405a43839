/*
 * fuzz-simcode.c: libFuzzer harness for what krun does to CUDA code
 * before sim compiles it (runtime/run_sim.c): each shared array's
 * declaration made a checked one.  Any input is prepared without reading
 * outside it; the prepared code has as many lines as the input (a
 * declaration is rewritten on its line), no declaration left that a
 * second preparation would rewrite (preparing it again changes nothing).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/run.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static size_t lines(const Buf *b)
{
	size_t n = 0;
	for (size_t i = 0; i < b->n; i++)
		n += b->p[i] == '\n';
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	Buf a = {0}, b = {0};
	buf_put(&a, (const char *)data, size);
	size_t nl = lines(&a);
	run_sim_prepare(&a, 0);
	if (lines(&a) != nl)
		abort(); /* a line added or lost */
	buf_put(&b, a.p, a.n);
	run_sim_prepare(&b, 0);
	if (b.n != a.n || memcmp(a.p, b.p, a.n))
		abort(); /* a declaration left to rewrite */
	buf_free(&a);
	buf_free(&b);
	return 0;
}
