/*
 * fuzz-near.c: libFuzzer harness for the near-duplicate measure that
 * kpack reads modules and signature files with (pack/near.c).  Any input
 * is a module: its kernels are found without reading past it, each on a
 * line of it and with a name, and each signature prints as hex that reads
 * back as itself; the whole text's signature is taken too.  The index
 * finds a kernel taken twice as a near duplicate of the first, wholly.
 * The input read as a signature line's hex is accepted only when it is
 * 512 hex digits.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pack/near.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct Seen {
	int lines, n;
	NearIndex *ix;
} Seen;

static void kernel(void *ctx, int line, const char *name, const NearSig *sig)
{
	Seen *s = ctx;
	if (line < 1 || line > s->lines || !name[0])
		abort(); /* a kernel outside the text, or with no name */
	char hex[4 * NEAR_K + 1];
	NearSig back;
	near_hex(hex, sig);
	if (strlen(hex) != 4 * NEAR_K || !near_unhex(&back, hex, strlen(hex)) || memcmp(&back, sig, sizeof back))
		abort(); /* hex that does not read back */
	near_add(s->ix, sig, NULL);
	double q;
	if (near_find(s->ix, sig, &q) < 0 || q != 1.0)
		abort(); /* a kernel the index does not find again */
	s->n++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* a copy exactly SIZE bytes long: a read past it is ASan's to see */
	char *text = malloc(size ? size : 1);
	if (size)
		memcpy(text, data, size);
	Seen s = {1, 0, near_new(0.7)};
	for (size_t i = 0; i < size; i++)
		s.lines += text[i] == '\n';
	if (near_kernels(text, size, kernel, &s) != s.n)
		abort();
	NearSig sig;
	near_sig(&sig, text, size);
	int hex = size == 4 * NEAR_K;
	for (size_t i = 0; hex && i < size; i++)
		hex = (text[i] >= '0' && text[i] <= '9') || (text[i] >= 'a' && text[i] <= 'f');
	if (near_unhex(&sig, text, size) != hex)
		abort(); /* hex accepted that is not 512 digits, or refused that is */
	near_free(s.ix);
	free(text);
	return 0;
}
