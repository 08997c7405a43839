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

/* clang-format off */
/* the bytes of each scalar, for the size column */
enum {
	SZ_VOID = 0, SZ_BOOL = 1, SZ_INT8 = 1, SZ_UINT8 = 1, SZ_INT16 = 2, SZ_UINT16 = 2,
	SZ_INT = 4, SZ_UINT32 = 4, SZ_INT64 = 8, SZ_UINT64 = 8, SZ_HALF = 2, SZ_FLOAT = 4,
	SZ_DOUBLE = 8,
	/* clang-format on */
};

static TypeInfo fixed[NFIXED] = {
#define T(e, k, s, r, c, ir, warp, alias) \
	{k, r, c, 0, SZ_##s * (r) * (c), TY_##s, TY_##e, ir, warp, alias, 0, NULL, NULL, 0},
#include "types.h"
#undef T
};

TypeInfo *ks_types = fixed;
static int ntypes = NFIXED, captypes;

/* What finds a type without a walk over the table: the named types and
 * structs by name (the newest struct of a name wins), open addressing
 * over Type + 1; and per element type, its arrays by rank. */
static uint16_t *by_name;
static int capname, nname;
static Type (*arrays)[KS_MAX_NDIM];
static int caparrays;

static size_t name_slot(const char *s, size_t n)
{
	size_t h = (size_t)ks_hash64(s, n, 0) & (size_t)(capname - 1);
	while (by_name[h]) {
		const char *x = ks_types[by_name[h] - 1].name;
		if (strlen(x) == n && !memcmp(x, s, n))
			break;
		h = (h + 1) & (size_t)(capname - 1);
	}
	return h;
}

static void name_add(Type t)
{
	if (2 * (nname + 1) > capname) {
		uint16_t *old = by_name;
		int oldcap = capname;
		capname = capname ? 2 * capname : 512;
		by_name = xmalloc((size_t)capname * sizeof *by_name);
		memset(by_name, 0, (size_t)capname * sizeof *by_name);
		nname = 0;
		for (int i = 0; i < oldcap; i++)
			if (old[i])
				name_add((Type)(old[i] - 1));
		free(old);
	}
	const char *name = ks_types[t].name;
	size_t h = name_slot(name, strlen(name));
	nname += !by_name[h];
	by_name[h] = (uint16_t)(t + 1);
}

/* The named type or struct spelled s[0 .. n), or TY_VOID. */
static Type named(const char *s, size_t n)
{
	if (!by_name)
		for (int t = TY_BOOL; t < NFIXED; t++)
			name_add((Type)t);
	size_t h = name_slot(s, n);
	return by_name[h] ? (Type)(by_name[h] - 1) : TY_VOID;
}

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
	if (ndim < 1 || ndim > KS_MAX_NDIM || elem == TY_VOID || ty_is_array(elem) || ty_is_tile(elem))
		return TY_VOID;
	if (elem >= caparrays) {
		int cap = caparrays ? caparrays : 256;
		while (cap <= elem)
			cap *= 2;
		arrays = xrealloc(arrays, (size_t)cap * sizeof *arrays);
		memset(arrays + caparrays, 0, (size_t)(cap - caparrays) * sizeof *arrays);
		caparrays = cap;
	}
	if (arrays[elem][ndim - 1])
		return arrays[elem][ndim - 1];
	const TypeInfo *e = ty_info(elem);
	size_t n = strlen(e->name);
	char *name = xmalloc(n + (size_t)ndim + 2);
	memcpy(name, e->name, n);
	name[n] = '[';
	memset(name + n + 1, ',', (size_t)ndim - 1);
	name[n + (size_t)ndim] = ']';
	name[n + (size_t)ndim + 1] = 0;
	Type t = ty_add((TypeInfo){TK_ARRAY, 1, 1, (uint8_t)ndim, e->size, e->scalar, elem, name, "", "", 0, NULL,
				   NULL, 0});
	arrays[elem][ndim - 1] = t;
	return t;
}

/* The tiles made so far, found by a walk: a module has a few. */
static Type *tiles;
static int ntiles;

Type ty_tile(Type elem, int ndim, const int *shape)
{
	if (ndim < 1 || ndim > KS_MAX_NDIM ||
	    !(ty_is_scalar(elem) || elem == TY_BOOL || ty_is_vec(elem) || ty_is_mat(elem)))
		return TY_VOID;
	long count = 1;
	for (int k = 0; k < ndim; k++) {
		if (shape[k] == KS_TILE_BLOCK)
			continue;
		if (shape[k] < 1 || shape[k] > KS_MAX_TILE)
			return TY_VOID;
		count *= shape[k];
		if (count > KS_MAX_TILE)
			return TY_VOID;
	}
	for (int i = 0; i < ntiles; i++) {
		const TypeInfo *x = &ks_types[tiles[i]];
		if (x->elem == elem && x->ndim == ndim && !memcmp(x->shape, shape, (size_t)ndim * sizeof *shape))
			return tiles[i];
	}
	Buf name = {0};
	buf_puts(&name, "tile(");
	buf_puts(&name, ty_name(elem));
	int *sh = xmalloc((size_t)ndim * sizeof *sh);
	for (int k = 0; k < ndim; k++) {
		buf_putc(&name, ',');
		if (shape[k] == KS_TILE_BLOCK)
			buf_puts(&name, "block");
		else
			buf_int(&name, shape[k]);
		sh[k] = shape[k];
	}
	buf_putc(&name, ')');
	const TypeInfo *e = ty_info(elem);
	Type t = ty_add((TypeInfo){TK_TILE, 1, 1, (uint8_t)ndim, e->size, e->scalar, elem, name.p, "", "", 0, NULL,
				   sh, (int)count});
	if (ntiles % 16 == 0)
		tiles = xrealloc(tiles, (size_t)(ntiles + 16) * sizeof *tiles);
	tiles[ntiles++] = t;
	return t;
}

int ty_has_block(Type t)
{
	for (int k = 0; ty_is_tile(t) && k < ty_ndim(t); k++)
		if (ty_extent(t, k) == KS_TILE_BLOCK)
			return 1;
	return 0;
}

Type ty_at_block(Type t, int block)
{
	if (!ty_has_block(t))
		return t;
	int shape[KS_MAX_NDIM];
	for (int k = 0; k < ty_ndim(t); k++)
		shape[k] = ty_extent(t, k) == KS_TILE_BLOCK ? block : ty_extent(t, k);
	return ty_tile(ty_elem(t), ty_ndim(t), shape);
}

int ty_same_shape(Type a, Type b)
{
	return ty_is_tile(a) && ty_is_tile(b) && ty_ndim(a) == ty_ndim(b) &&
	       !memcmp(ty_info(a)->shape, ty_info(b)->shape, (size_t)ty_ndim(a) * sizeof(int));
}

/* A tile's name as ty_tile spells it, "tile(float,16,16)", or TY_VOID. */
static Type tile_parse(const char *s, size_t n)
{
	if (n < 8 || memcmp(s, "tile(", 5) || s[n - 1] != ')')
		return TY_VOID;
	size_t k = 5;
	while (k < n && s[k] != ',')
		k++;
	Type elem = named(s + 5, k - 5);
	int shape[KS_MAX_NDIM], ndim = 0;
	while (k < n - 1) {
		if (s[k] != ',' || ndim == KS_MAX_NDIM)
			return TY_VOID;
		long v = 0;
		size_t d = ++k;
		if (n - 1 - k >= 5 && !memcmp(s + k, "block", 5) && (s[k + 5] == ',' || k + 5 == n - 1)) {
			shape[ndim++] = KS_TILE_BLOCK;
			k += 5;
			continue;
		}
		while (k < n - 1 && s[k] >= '0' && s[k] <= '9' && v <= KS_MAX_TILE)
			v = 10 * v + (s[k++] - '0');
		if (k == d || (s[d] == '0' && k > d + 1) || v > KS_MAX_TILE)
			return TY_VOID;
		shape[ndim++] = (int)v;
	}
	return ty_tile(elem, ndim, shape);
}

/* The struct the name means now: the newest of that name, or TY_VOID. */
static Type struct_named(const char *s, size_t n)
{
	Type t = named(s, n);
	return ty_is_struct(t) ? t : TY_VOID;
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
	Type t = ty_add((TypeInfo){TK_STRUCT, 1, 1, 0, 0, TY_VOID, 0, xstrdup(name), "", "", nfield, fs, NULL, 0});
	ks_types[t].elem = t;
	if (named(ks_types[t].name, strlen(ks_types[t].name)) == TY_VOID || ty_is_struct(old))
		name_add(t);
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
	if (n && s[n - 1] == ')')
		return tile_parse(s, n);
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
	Type t = named(s, n);
	if (t == TY_VOID)
		return TY_VOID;
	return ndim ? ty_array(t, ndim) : t;
}

/* Warp's names of the named types and their aliases, open addressing
 * over Type + 1, made on first use (the first type of a name keeps it). */
enum { WARP_CAP = 512 };
static uint16_t by_warp[WARP_CAP];

static size_t warp_slot(const char *name)
{
	size_t h = (size_t)ks_hash64(name, strlen(name), 0) & (WARP_CAP - 1);
	for (; by_warp[h]; h = (h + 1) & (WARP_CAP - 1)) {
		const TypeInfo *x = &fixed[by_warp[h] - 1];
		if (!strcmp(x->warp, name) || (x->alias[0] && !strcmp(x->alias, name)))
			break;
	}
	return h;
}

Type ty_from_warp(const char *name)
{
	_Static_assert(2 * NFIXED < WARP_CAP, "the table of Warp's type names is too small");
	static int ready;
	if (!ready) {
		for (int t = TY_BOOL; t < NFIXED; t++) {
			size_t h = warp_slot(fixed[t].warp);
			if (!by_warp[h])
				by_warp[h] = (uint16_t)(t + 1);
			if (fixed[t].alias[0] && !by_warp[h = warp_slot(fixed[t].alias)])
				by_warp[h] = (uint16_t)(t + 1);
		}
		ready = 1;
	}
	size_t h = warp_slot(name);
	return by_warp[h] ? (Type)(by_warp[h] - 1) : TY_VOID;
}
