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
	Src src;
	src_from_mem(&src, "fuzz.py", (const char *)data, size);
	Arena scratch = {0};
	jmp_buf jb;
	struct Module *volatile m = NULL;
	static FuzzRun run;
	ks_recover = &jb;
	ks_quiet = 1;
	if (!setjmp(jb)) {
		m = ks_frontend(&src, &scratch);
		fuzz_pipeline(&run, m, &src);
	} else {
		fuzz_rejected(&run);
	}
	ks_recover = NULL;
	fuzz_run_free(&run);
	ir_module_free(m);
	arena_free(&scratch);
	src_free(&src);
	return 0;
}
