/*
 * fuzz-irpipe.c: libFuzzer harness for the pipeline from IR text: the IR
 * reader and verifier, then kdiff and both emitters (pipeline.h).  Input
 * that reads and verifies must go through kdiff (or be rejected by it with
 * a located error) and both emitters; never crash, hang or leak.
 */
#include <stdint.h>

#include "t/fuzz/pipeline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	Src src;
	src_from_mem(&src, "fuzz.kir", (const char *)data, size);
	Module *volatile m = ir_module_new();
	jmp_buf jb;
	static FuzzRun run;
	ks_recover = &jb;
	ks_quiet = 1;
	if (!setjmp(jb)) {
		ir_read_into(m, &src);
		ir_verify(m, &src, 0);
		fuzz_pipeline(&run, m, NULL);
	} else {
		fuzz_rejected(&run);
	}
	ks_recover = NULL;
	fuzz_run_free(&run);
	ir_module_free(m);
	src_free(&src);
	return 0;
}
