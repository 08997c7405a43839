/*
 * type.c: types as the emitted code spells them.  Scalars by their
 * stdint names (int for int32), float16 as ks_half, the vectors,
 * matrices, quaternions, transforms and spatial types as ksynth.h's
 * ks_<name>, a struct by its name.  An array parameter is a pointer to
 * its elements, or a view (ks_array_<elem>: its data and its shape) where
 * the function reads its shape, where it has more than one dimension and,
 * in the checked mode, always; an array held by a struct is always a view.
 */
#include "emit/emit_int.h"

/* The C spelling of a scalar: ints by their stdint names (int for int32,
 * as it reads in most code), ks_half for float16. */
const char *scalar_ctype(Type t)
{
	/* clang-format off */
	switch (t) {
	case TY_BOOL: return "bool";
	case TY_INT8: return "int8_t";
	case TY_UINT8: return "uint8_t";
	case TY_INT16: return "int16_t";
	case TY_UINT16: return "uint16_t";
	case TY_INT: return "int";
	case TY_UINT32: return "uint32_t";
	case TY_INT64: return "int64_t";
	case TY_UINT64: return "uint64_t";
	case TY_HALF: return "ks_half";
	case TY_FLOAT: return "float";
	case TY_DOUBLE: return "double";
	}
	/* clang-format on */
	return NULL;
}

/* The checked mode (EMIT_CPU_CHECKED) of the module being emitted: every
 * array is a view and every access is checked (put_elem).  A flag of the
 * library, not of the Emitter, as param_view (and emit_param_ctype, which
 * krun calls) has no emitter at hand; emit_begin sets it, emit_free
 * clears it. */
int emit_checked;

/* Is parameter i of f passed as a view (ks_array_<elem>: its data and
 * its shape, indexed row-major) rather than a pointer to its elements: an
 * array of 2 to 4 dimensions, a 1-D one whose shape f reads
 * (ir_param_view), and in the checked mode every array. */
int param_view(const Module *m, const Func *f, int i)
{
	return ty_is_array(f->val[f->param[i]].ty) && (emit_checked || ir_param_view(m, f, i));
}

/* The same for an operand: arrays are parameters. */
int val_view(const Emitter *e, int val)
{
	for (int i = 0; i < e->f->nparam; i++)
		if (e->f->param[i] == val)
			return param_view(e->m, e->f, i);
	/* a struct's array field is always a view */
	return ty_is_array(e->f->val[val].ty);
}

/* The C type of a value: "float", "ks_vec3d"; of an array, its element's. */
const char *ctype(Type t)
{
	static char buf[4][48];
	static int k;
	Type e = ty_elem(t);
	if (scalar_ctype(e))
		return scalar_ctype(e);
	if (e == TY_VOID)
		return "void";
	if (ty_is_struct(e))
		return ty_name(e);
	char *b = buf[k++ & 3];
	ks_join(b, sizeof buf[0], "ks_", ty_name(e), NULL);
	return b;
}

/* The C type of a local holding a value of type t: ctype's, and for an
 * array the view (a local array is a struct's field, always a view). */
const char *local_ctype(Type t)
{
	static char buf[4][64];
	static int k;
	if (!ty_is_array(t))
		return ctype(t);
	char *b = buf[k++ & 3];
	ks_join(b, sizeof buf[0], "ks_array_", ty_name(ty_elem(t)), NULL);
	return b;
}

/* "float x", "ks_vec3 v", "ks_array_float v" */
void put_decl(Buf *b, Type t, const char *name)
{
	buf_puts(b, local_ctype(t));
	buf_putc(b, ' ');
	buf_puts(b, name);
}

/* A parameter's C type: "float", "float *" (a 1-D array),
 * "ks_array_float" (a view). */
void param_ctype(Buf *b, const Module *m, const Func *f, int i)
{
	Type t = f->val[f->param[i]].ty;
	if (param_view(m, f, i))
		buf_cat(b, "ks_array_", ty_name(ty_elem(t)), NULL);
	else
		buf_cat(b, ctype(t), ty_is_array(t) ? " *" : "", NULL);
}

const char *emit_ctype(Type t) { return ctype(t); }

const char *emit_param_ctype(const Module *m, const Func *f, int i)
{
	static char buf[64];
	Buf b = {0};
	param_ctype(&b, m, f, i);
	snprintf(buf, sizeof buf, "%s", b.p);
	buf_free(&b);
	return buf;
}

/* The zero of a type as C: "0.0f", "0", "ks_zero_vec3()", "(Params){0}";
 * in CUDA C++ a struct's is spelled Params{}. */
const char *zero_of(const Emitter *e, Type t)
{
	static char buf[64];
	if (ty_is_struct(t)) {
		snprintf(buf, sizeof buf, e->target == EMIT_CUDA ? "%s{}" : "(%s){0}", ty_name(t));
		return buf;
	}
	/* clang-format off */
	switch (t) {
	case TY_BOOL: return "false";
	case TY_FLOAT: return "0.0f";
	case TY_DOUBLE: return "0.0";
	}
	/* clang-format on */
	if (ty_is_int(t))
		return "0";
	ks_join(buf, sizeof buf, "ks_zero_", ty_name(t), "()", NULL);
	return buf;
}
