/*
 * fuzz-json.c: libFuzzer harness for the strict JSON reader that kverify
 * reads a dataset with (pack/json.c).  Any input either parses to a tree
 * or fails with a message and an offset inside the text.  A tree must
 * hold together: no deeper than JSON_DEPTH, every string NUL-terminated
 * and written back by json_str (pack/record.c) as JSON that reads as the
 * same string, every number's text inside the input, and the tree equal
 * to itself.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pack/json.h"
#include "pack/record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *in_lo, *in_hi;

static void check_string(const char *s, size_t len)
{
	if (s[len])
		abort(); /* not NUL-terminated */
	Buf b = {0};
	json_str(&b, s, len);
	Arena a = {0};
	char err[128];
	JVal *v = json_parse(&a, b.p, b.n, err, sizeof err, NULL, NULL);
	if (!v || v->kind != J_STR || v->len != len || memcmp(v->s, s, len))
		abort(); /* json_str wrote what does not read back as the string */
	arena_free(&a);
	buf_free(&b);
}

static void walk(const JVal *v, int depth)
{
	if (depth > JSON_DEPTH)
		abort();
	switch (v->kind) {
	case J_NULL:
	case J_BOOL:
		break;
	case J_NUM:
		if (v->text < in_lo || v->text + v->len > in_hi || !v->len)
			abort(); /* a number's text outside the input */
		break;
	case J_STR:
		check_string(v->s, v->len);
		break;
	case J_OBJ:
		for (int i = 0; i < v->n; i++) {
			check_string(v->key[i], strlen(v->key[i]));
			if (json_get(v, v->key[i]) == NULL)
				abort(); /* a key json_get cannot find */
		}
		/* fall through */
	case J_ARR:
		for (int i = 0; i < v->n; i++)
			walk(v->item[i], depth + 1);
		break;
	default:
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* a copy exactly SIZE bytes long: a read past it is ASan's to see */
	char *text = malloc(size ? size : 1);
	if (size)
		memcpy(text, data, size);
	in_lo = text;
	in_hi = text + size;
	Arena a = {0};
	char err[256];
	size_t at = (size_t)-1;
	int trunc = -1;
	err[0] = 0;
	JVal *v = json_parse(&a, text, size, err, sizeof err, &at, &trunc);
	if (v) {
		walk(v, 0);
		if (!json_equal(v, v))
			abort();
	} else if (!err[0] || !memchr(err, 0, sizeof err) || at > size || (trunc != 0 && trunc != 1)) {
		abort(); /* a failure with no message, or one outside the text */
	}
	arena_free(&a);
	free(text);
	return 0;
}
