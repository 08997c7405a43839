/*
 * fuzz-front.c: libFuzzer harness for the source front end.  Any input
 * must either lower to IR that the verifier accepts and the printer prints,
 * or be rejected with a located error; never crash, hang or leak.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "grammar/ast.h"
#include "ir/ir.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *sink;
	if (!sink)
		sink = fopen("/dev/null", "w");
	Src src;
	src_from_mem(&src, "fuzz.py", (const char *)data, size);
	jmp_buf jb;
	struct Module *volatile m = NULL;
	ks_recover = &jb;
	ks_quiet = 1;
	if (!setjmp(jb)) {
		m = ks_frontend(&src, NULL);
		ir_print(sink, m);
	}
	ks_recover = NULL;
	ir_module_free(m);
	src_free(&src);
	return 0;
}
