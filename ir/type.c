/*
 * type.c: the type table.  Its first rows are the named types of types.h,
 * in order, so that a named type's Type is a constant; array types are
 * appended as they are first asked for (ty_array), so that every type,
 * whatever its shape, is one small integer and two types are equal
 * exactly when their Types are.
 *
 * The table is the program's, not a module's: the tools run one module
 * at a time, and a type means the same in every module.
 */
#include <stdlib.h>
#include <string.h>

#include "ir.h"

#define NFIXED ((int)TY_NFIXED)

/* the bytes of each scalar, for the size column */
enum {
	SZ_VOID = 0, SZ_BOOL = 1, SZ_INT8 = 1, SZ_UINT8 = 1, SZ_INT16 = 2, SZ_UINT16 = 2,
	SZ_INT = 4, SZ_UINT32 = 4, SZ_INT64 = 8, SZ_UINT64 = 8, SZ_HALF = 2, SZ_FLOAT = 4,
	SZ_DOUBLE = 8,
};

static TypeInfo fixed[NFIXED] = {
#define T(e, k, s, r, c, ir, warp, alias) {k, r, c, 0, SZ_##s * (r) * (c), TY_##s, TY_##e, ir, warp, alias},
#include "types.h"
#undef T
};

TypeInfo *ks_types = fixed;
static int ntypes = NFIXED, captypes;

Type ty_find(int kind, Type scalar, int rows, int cols)
{
	for (int t = 0; t < NFIXED; t++) {
		const TypeInfo *x = &fixed[t];
		if (x->kind == kind && x->scalar == scalar && x->rows == rows && x->cols == cols)
			return (Type)t;
	}
	return TY_VOID;
}

Type ty_with_scalar(Type t, Type scalar)
{
	const TypeInfo *x = ty_info(t);
	if (x->kind == TK_ARRAY || x->kind == TK_VOID || !ty_is_scalar(scalar))
		return TY_VOID;
	if (x->kind == TK_BOOL || ty_is_scalar(t))
		return scalar;
	return ty_find(x->kind, scalar, x->rows, x->cols);
}

Type ty_array(Type elem, int ndim)
{
	if (ndim < 1 || ndim > KS_MAX_NDIM || elem == TY_VOID || ty_is_array(elem))
		return TY_VOID;
	for (int t = NFIXED; t < ntypes; t++)
		if (ks_types[t].elem == elem && ks_types[t].ndim == ndim)
			return (Type)t;
	if (ntypes == 65535)
		ks_fatal("too many types");
	if (ntypes == captypes || ks_types == fixed) {
		int cap = captypes ? 2 * captypes : 2 * NFIXED + 64;
		TypeInfo *t = xmalloc((size_t)cap * sizeof *t);
		memcpy(t, ks_types, (size_t)ntypes * sizeof *t);
		if (ks_types != fixed)
			free(ks_types);
		ks_types = t;
		captypes = cap;
	}
	const TypeInfo *e = ty_info(elem);
	size_t n = strlen(e->name);
	char *name = xmalloc(n + (size_t)ndim + 2);
	memcpy(name, e->name, n);
	name[n] = '[';
	memset(name + n + 1, ',', (size_t)ndim - 1);
	name[n + (size_t)ndim] = ']';
	name[n + (size_t)ndim + 1] = 0;
	ks_types[ntypes] = (TypeInfo){TK_ARRAY, 1, 1, (uint8_t)ndim, e->size, e->scalar, elem,
				      name, "", ""};
	return (Type)ntypes++;
}

Type ty_parse(const char *s, size_t n)
{
	int ndim = 0;
	if (n > 2 && s[n - 1] == ']') {
		size_t k = n - 1;
		while (k > 0 && s[k - 1] == ',')
			k--;
		if (k == 0 || s[k - 1] != '[')
			return TY_VOID;
		ndim = (int)(n - k);
		n = k - 1;
	}
	for (int t = TY_BOOL; t < NFIXED; t++)
		if (strlen(fixed[t].name) == n && !memcmp(fixed[t].name, s, n))
			return ndim ? ty_array((Type)t, ndim) : (Type)t;
	return TY_VOID;
}

Type ty_from_warp(const char *name)
{
	for (int t = TY_BOOL; t < NFIXED; t++)
		if (!strcmp(fixed[t].warp, name) || (fixed[t].alias[0] && !strcmp(fixed[t].alias, name)))
			return (Type)t;
	return TY_VOID;
}
