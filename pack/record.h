/*
 * record.h: what kpack, which writes a dataset's records, and kverify,
 * which checks them, must agree on (doc/dataset.md): the JSON string
 * writer, line counts, the split a record goes to, the category mix.
 */
#ifndef PACK_RECORD_H
#define PACK_RECORD_H

#include <stddef.h>

#include "lib/ks.h"

enum { SPLITS = 3 };
extern const char *const split_name[SPLITS]; /* train, validation, test */

/* S[0 .. N) as a JSON string: quotes, backslashes and control characters
 * escaped, valid UTF-8 copied, any invalid byte replaced by U+FFFD. */
void json_str(Buf *b, const char *s, size_t n);
void json_cstr(Buf *b, const char *s);

/* The lines of S[0 .. N): its newlines, plus one for a last line without. */
long count_lines(const char *s, size_t n);

/* The split of a record (an index into split_name) from its ir_hash. */
int split_of(const char *ir_hash);

/* The bit set of categories that CATS names ("all", or a comma list of
 * gen_cat_name), or 0 when it names one that does not exist. */
unsigned cat_mix(const char *cats);

#endif
