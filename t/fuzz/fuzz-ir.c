/*
 * fuzz-ir.c: libFuzzer harness for the IR reader and verifier.  Input that
 * reads and verifies is printed, read back and printed again: the two
 * prints must be identical (the canonical form is a fixed point).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *print_to_mem(const Module *m, size_t *n)
{
	char *p = NULL;
	FILE *f = open_memstream(&p, n);
	ir_print(f, m);
	fclose(f);
	return p;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	Src src, src2 = {0};
	src_from_mem(&src, "fuzz.kir", (const char *)data, size);
	Module *volatile m = ir_module_new(), *volatile m2 = ir_module_new();
	char *volatile p1 = NULL;
	jmp_buf jb;
	ks_recover = &jb;
	ks_quiet = 1;
	if (!setjmp(jb)) {
		ir_read_into(m, &src);
		ir_verify(m, &src, 0);
		size_t n1, n2;
		p1 = print_to_mem(m, &n1);
		src_from_mem(&src2, "fuzz2.kir", p1, n1);
		ir_read_into(m2, &src2);
		ir_verify(m2, &src2, 0);
		char *p2 = print_to_mem(m2, &n2);
		if (n1 != n2 || memcmp(p1, p2, n1))
			abort(); /* the canonical form is not a fixed point */
		free(p2);
	} else if (src2.text) {
		abort(); /* printed IR failed to read back */
	}
	ks_recover = NULL;
	free(p1);
	ir_module_free(m);
	ir_module_free(m2);
	src_free(&src);
	if (src2.text)
		src_free(&src2);
	return 0;
}
