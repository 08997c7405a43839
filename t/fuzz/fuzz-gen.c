/*
 * fuzz-gen.c: libFuzzer harness that starts from kgen's kernels: the
 * input's bytes choose what `kgen` would be asked for (the category mix,
 * the seed, the index, how many kernels, the knobs and the draw), the
 * module is generated in process as kgen writes it, and goes through
 * kparse, kdiff and both emitters as in fuzz-pipe.c (pipeline.h).  kgen
 * writes only kernels the tools accept, so here any error is a finding
 * too, not only a crash, a hang, a leak or a reserved name.
 *
 * The input, little-endian, each field optional (a short input takes the
 * defaults for the rest):
 *
 *   bytes 0-2    the mix, a bit per category in gen.h order (0: all)
 *   bytes 3-10   the seed (-s)
 *   bytes 11-18  the index of the first kernel (--first)
 *   byte 19      1 + b % 3 kernels (-n)
 *   bytes 20-25  --stmts, --depth, --nest, --params, --vec-pct, --int-pct,
 *                each b % (kgen's largest + 1)
 *   byte 26      the draw, b % (GEN_MAX_REDRAW + 1) (kgen --draw)
 */
#include <stdint.h>

#include "gen/gen.h"
#include "grammar/ast.h"
#include "t/fuzz/pipeline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* n bytes of data from at, little-endian; 0 past its end */
static uint64_t field(const uint8_t *data, size_t size, size_t at, size_t n)
{
	uint64_t v = 0;
	for (size_t k = 0; k < n && at + k < size; k++)
		v |= (uint64_t)data[at + k] << (8 * k);
	return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned all = (1u << NCAT) - 1;
	unsigned mix = (unsigned)field(data, size, 0, 3) & all;
	uint64_t seed = field(data, size, 3, 8), first = field(data, size, 11, 8);
	int count = 1 + (int)(field(data, size, 19, 1) % 3);
	GenKnobs k;
	gen_knobs_default(&k);
	int *knob[] = {&k.stmts, &k.depth, &k.nest, &k.params, &k.vec_pct, &k.int_pct};
	static const int most[] = {40, 6, 4, 8, 100, 100}; /* kgen's limits */
	for (size_t i = 0; i < 6; i++)
		if (20 + i < size)
			*knob[i] = data[20 + i] % (most[i] + 1);
	unsigned redraw = (unsigned)(field(data, size, 26, 1) % (GEN_MAX_REDRAW + 1));

	Buf b = {0};
	buf_puts(&b, "import warp as wp\n\n\n");
	for (int i = 0; i < count; i++)
		gen_kernel(&b, seed, gen_pick_category(seed, first + i, mix ? mix : all), first + i, redraw, &k,
			   NULL);

	static FuzzRun run;
	int rejected = fuzz_source(&run, "gen.py", b.p, b.n, 0);
	buf_free(&b);
	if (rejected) { /* fuzz_rejected aborts past kdiff */
		fprintf(stderr, "a kernel kgen wrote was rejected (step %d)\n", run.step);
		abort();
	}
	fuzz_run_free(&run);
	return 0;
}
