/*
 * json.h: a strict JSON reader (RFC 8259) for the files a dataset holds —
 * its records, stats.json, krun's records.  A text is parsed into a tree
 * in an arena; objects keep their keys in order, so a reader can check a
 * record's field order.  Whatever the bytes, json_parse returns (a tree
 * or an error with its offset): no input crashes it, nests deeper than
 * JSON_DEPTH, or is read past its length.
 */
#ifndef PACK_JSON_H
#define PACK_JSON_H

#include <stddef.h>

#include "lib/ks.h"

enum { JSON_DEPTH = 64 };

typedef enum JKind { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ } JKind;

typedef struct JVal JVal;
struct JVal {
	JKind kind;
	int b;            /* J_BOOL */
	int integral;     /* J_NUM: written without '.' or exponent, fits a long long */
	long long i;      /* J_NUM, when integral */
	double num;       /* J_NUM */
	const char *text; /* J_NUM: as written (text[0 .. len)) */
	char *s;          /* J_STR: decoded UTF-8, NUL-terminated (may hold NULs: len) */
	size_t len;       /* J_STR, J_NUM */
	int n;            /* J_ARR, J_OBJ: elements or members */
	JVal **item;      /* J_ARR, J_OBJ: the values */
	char **key;       /* J_OBJ: the keys, decoded */
};

/* Parse P[0 .. N) as one JSON value with nothing but white space around
 * it.  On error: NULL, a message in ERR (ERRN bytes), the offset of the
 * fault in *AT, and *TRUNC set when the text ended before the value did. */
JVal *json_parse(Arena *a, const char *p, size_t n, char *err, size_t errn, size_t *at, int *trunc);

/* OBJ's member KEY, or NULL (OBJ not an object, or no such key). */
JVal *json_get(const JVal *obj, const char *key);

/* Do A and B hold the same value (numbers compared as written)? */
int json_equal(const JVal *a, const JVal *b);

#endif
