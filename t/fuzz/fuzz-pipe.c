/*
 * fuzz-pipe.c: libFuzzer harness for the whole pipeline from source:
 * kparse, then kdiff and both emitters (pipeline.h).  Any input must go
 * through, or be rejected with a located error; never crash, hang, leak,
 * or come out as IR the next tool rejects or as C with a reserved name.
 */
#include <stdint.h>

#include "grammar/ast.h"
#include "t/fuzz/pipeline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FuzzRun run;
	fuzz_source(&run, "fuzz.py", (const char *)data, size, 1);
	fuzz_run_free(&run);
	return 0;
}
