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
#define T(e, k, s, r, c, ir, warp, alias) {k, r, c, 0, SZ_##s * (r) * (c), TY_##s, TY_##e, ir, warp, alias, 0, NULL},
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

/* Append a row to the table. */
static Type ty_add(TypeInfo row)
{
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
	ks_types[ntypes] = row;
	return (Type)ntypes++;
}

Type ty_array(Type elem, int ndim)
{
	if (ndim < 1 || ndim > KS_MAX_NDIM || elem == TY_VOID || ty_is_array(elem))
		return TY_VOID;
	for (int t = NFIXED; t < ntypes; t++)
		if (ks_types[t].elem == elem && ks_types[t].ndim == ndim && ks_types[t].kind == TK_ARRAY)
			return (Type)t;
	const TypeInfo *e = ty_info(elem);
	size_t n = strlen(e->name);
	char *name = xmalloc(n + (size_t)ndim + 2);
	memcpy(name, e->name, n);
	name[n] = '[';
	memset(name + n + 1, ',', (size_t)ndim - 1);
	name[n + (size_t)ndim] = ']';
	name[n + (size_t)ndim + 1] = 0;
	return ty_add((TypeInfo){TK_ARRAY, 1, 1, (uint8_t)ndim, e->size, e->scalar, elem,
				 name, "", "", 0, NULL});
}

/* The struct the name means now: the newest of that name, or TY_VOID. */
static Type struct_named(const char *s, size_t n)
{
	for (int t = ntypes - 1; t >= NFIXED; t--)
		if (ks_types[t].kind == TK_STRUCT && strlen(ks_types[t].name) == n &&
		    !memcmp(ks_types[t].name, s, n))
			return (Type)t;
	return TY_VOID;
}

Type ty_struct(const char *name, const Field *field, int nfield)
{
	Type old = struct_named(name, strlen(name));
	if (old != TY_VOID && ks_types[old].nfield == nfield) {
		int same = 1;
		for (int k = 0; k < nfield && same; k++)
			same = field[k].ty == ks_types[old].field[k].ty &&
			       !strcmp(field[k].name, ks_types[old].field[k].name);
		if (same)
			return old;
	}
	Field *fs = xmalloc((size_t)(nfield ? nfield : 1) * sizeof *fs);
	for (int k = 0; k < nfield; k++)
		fs[k] = (Field){xstrdup(field[k].name), field[k].ty};
	Type t = ty_add((TypeInfo){TK_STRUCT, 1, 1, 0, 0, TY_VOID, 0, xstrdup(name), "", "",
				   nfield, fs});
	ks_types[t].elem = t;
	return t;
}

int ty_field_find(Type t, const char *name)
{
	if (!ty_is_struct(t))
		return -1;
	for (int k = 0; k < ks_types[t].nfield; k++)
		if (!strcmp(ks_types[t].field[k].name, name))
			return k;
	return -1;
}

int ty_has_float(Type t)
{
	if (ty_is_floaty(t))
		return 1;
	if (!ty_is_struct(t))
		return 0;
	for (int k = 0; k < ks_types[t].nfield; k++)
		if (ty_has_float(ks_types[t].field[k].ty))
			return 1;
	return 0;
}

int ty_nleaves(Type t)
{
	if (!ty_is_struct(t))
		return 1;
	int n = 0;
	for (int k = 0; k < ks_types[t].nfield; k++)
		n += ty_nleaves(ks_types[t].field[k].ty);
	return n;
}

int ty_leaf_offset(Type t, int k)
{
	int n = 0;
	for (int j = 0; j < k; j++)
		n += ty_nleaves(ks_types[t].field[j].ty);
	return n;
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
	Type st = struct_named(s, n);
	if (st != TY_VOID)
		return ndim ? ty_array(st, ndim) : st;
	return TY_VOID;
}

Type ty_from_warp(const char *name)
{
	for (int t = TY_BOOL; t < NFIXED; t++)
		if (!strcmp(fixed[t].warp, name) || (fixed[t].alias[0] && !strcmp(fixed[t].alias, name)))
			return (Type)t;
	return TY_VOID;
}
