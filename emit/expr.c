/*
 * expr.c: expressions.  put_expr prints a value: a constant, the name of
 * a parameter, a variable or a temp that stays one, or the expression of
 * the instruction folded into it (put_inst), parenthesized where C's
 * precedence (P_*) asks it, and where -Wparentheses does (`a || (b && c)`,
 * `(a < b) == c`).  C's operators are written where they compute what
 * Warp's do; vectors, matrices, float16, the small ints, integer division
 * and shifts that C would leave undefined go through the runtime's
 * functions (ks_add_vec3, ks_div_int, ...), the math builtins through
 * libm's names on float and double, array elements as a[i] or through a
 * view's data and shape (checked in the checked mode: ks_index<R>), the
 * tape's operations as calls into ksynth.h.
 */
#include <limits.h>
#include <math.h>
#include <string.h>

#include "emit/emit_int.h"

static void put_const(const Value *v, Buf *b, int *prec)
{
	char buf[64];
	*prec = P_POSTFIX;
	if (v->ty == TY_BOOL) {
		buf_puts(b, v->k.i ? "true" : "false");
	} else if (v->ty == TY_INT) {
		if (v->k.i == INT32_MIN)
			buf_puts(b, "(-2147483647 - 1)");
		else
			buf_int(b, (int)v->k.i);
		if (v->k.i < 0 && v->k.i != INT32_MIN)
			*prec = P_UNARY;
	} else if (v->ty == TY_UINT32 || v->ty == TY_UINT64) {
		buf_printf(b, v->ty == TY_UINT32 ? "%lluu" : "%lluull", (unsigned long long)v->k.i);
	} else if (v->ty == TY_INT64) {
		if (v->k.i == INT64_MIN)
			buf_puts(b, "(-9223372036854775807ll - 1)");
		else
			buf_printf(b, "%lldll", (long long)v->k.i);
		if (v->k.i < 0 && v->k.i != INT64_MIN)
			*prec = P_UNARY;
	} else if (ty_is_int(v->ty)) {
		/* int8 .. uint16: the number, of its own type */
		buf_printf(b, "(%s)%lld", scalar_ctype(v->ty), (long long)v->k.i);
		*prec = P_UNARY;
	} else {
		double f = v->k.f;
		const char *sfx = v->ty == TY_DOUBLE ? "" : "f";
		int half = v->ty == TY_HALF;
		if (half)
			buf_puts(b, "ks_half_of(");
		if (f != f) {
			buf_puts(b, v->ty == TY_DOUBLE ? "KS_NAN_F64" : "KS_NAN");
		} else if (isinf(f)) {
			buf_puts(b, f < 0 ? "-" : "");
			buf_puts(b, v->ty == TY_DOUBLE ? "KS_INF_F64" : "KS_INF");
			*prec = f < 0 ? P_UNARY : P_POSTFIX;
		} else {
			if (v->ty == TY_DOUBLE)
				ks_fmt_double(buf, sizeof buf, f);
			else
				ks_fmt_float(buf, sizeof buf, (float)f);
			buf_puts(b, buf);
			buf_puts(b, sfx);
			if (buf[0] == '-')
				*prec = P_UNARY;
		}
		if (half) {
			buf_putc(b, ')');
			*prec = P_POSTFIX;
		}
	}
}

static const char *scalar_binop(int op)
{
	/* clang-format off */
	switch (op) {
	case OP_ADD: return "+";
	case OP_SUB: return "-";
	case OP_MUL: return "*";
	case OP_DIV: return "/";
	case OP_FLOORDIV: return "/";
	case OP_MOD: return "%";
	case OP_LT: return "<";
	case OP_LE: return "<=";
	case OP_GT: return ">";
	case OP_GE: return ">=";
	case OP_EQ: return "==";
	case OP_NE: return "!=";
	case OP_AND: return "&&";
	case OP_OR: return "||";
	case OP_BIT_AND: return "&";
	case OP_BIT_OR: return "|";
	case OP_BIT_XOR: return "^";
	case OP_LSHIFT: return "<<";
	case OP_RSHIFT: return ">>";
	}
	/* clang-format on */
	return "?";
}

/* " + " */
static void put_binop(Buf *b, int op)
{
	buf_putc(b, ' ');
	buf_puts(b, scalar_binop(op));
	buf_putc(b, ' ');
}

static int binop_prec(int op)
{
	/* clang-format off */
	switch (op) {
	case OP_ADD:
	case OP_SUB: return P_ADD;
	case OP_MUL:
	case OP_DIV:
	case OP_FLOORDIV:
	case OP_MOD: return P_MUL;
	case OP_LT:
	case OP_LE:
	case OP_GT:
	case OP_GE: return P_REL;
	case OP_EQ:
	case OP_NE: return P_EQ;
	case OP_AND: return P_AND;
	case OP_OR: return P_OR;
	case OP_BIT_AND: return P_BITAND;
	case OP_BIT_OR: return P_BITOR;
	case OP_BIT_XOR: return P_BITXOR;
	case OP_LSHIFT:
	case OP_RSHIFT: return P_SHIFT;
	}
	/* clang-format on */
	return 0;
}

/* The libm spelling of a scalar builtin on float or double, or NULL. */
static const char *libm_name(int row, Type t)
{
	/* clang-format off */
	static const struct { int row; const char *name; } tab[] = {
		{BI_SIN, "sin"}, {BI_COS, "cos"}, {BI_TAN, "tan"}, {BI_ASIN, "asin"},
		{BI_ACOS, "acos"}, {BI_ATAN, "atan"}, {BI_ATAN2, "atan2"}, {BI_SINH, "sinh"},
		{BI_COSH, "cosh"}, {BI_TANH, "tanh"}, {BI_EXP, "exp"}, {BI_LOG, "log"},
		{BI_LOG2, "log2"}, {BI_LOG10, "log10"}, {BI_SQRT, "sqrt"}, {BI_POW, "pow"},
		{BI_FLOOR, "floor"}, {BI_CEIL, "ceil"}, {BI_ABS_F, "fabs"}, {BI_ROUND, "round"},
		{BI_RINT, "rint"}, {BI_TRUNC, "trunc"}, {BI_CBRT, "cbrt"}, {BI_ERF, "erf"},
		{BI_ERFC, "erfc"}, {BI_COPYSIGN, "copysign"},
	};
	static const char *const f32[] = {
		"sinf", "cosf", "tanf", "asinf", "acosf", "atanf", "atan2f", "sinhf", "coshf",
		"tanhf", "expf", "logf", "log2f", "log10f", "sqrtf", "powf", "floorf", "ceilf",
		"fabsf", "roundf", "rintf", "truncf", "cbrtf", "erff", "erfcf", "copysignf",
	};
	/* clang-format on */
	if (t != TY_FLOAT && t != TY_DOUBLE)
		return NULL;
	for (size_t i = 0; i < KS_NELEM(tab); i++)
		if (tab[i].row == row)
			return t == TY_FLOAT ? f32[i] : tab[i].name;
	return NULL;
}

const char *builtin_fn(int row, const Type *args, char *buf, size_t cap)
{
	const char *lm = libm_name(row, args[0]);
	if (lm)
		return lm;
	ir_builtin_cname(row, args, buf, cap);
	return buf;
}

/* name(arg, arg, ...) */
static void put_call(Emitter *e, Buf *b, const char *name, const Inst *in, int from)
{
	buf_puts(b, name);
	buf_putc(b, '(');
	for (int k = from; k < in->narg; k++) {
		if (k > from)
			buf_puts(b, ", ");
		put_expr(e, b, in->arg[k], P_COND);
	}
	buf_putc(b, ')');
}

/* f(a, b): a call of a function of the module, an array the caller
 * holds as a view passed as its data where f takes a pointer */
static void put_func_call(Emitter *e, Buf *b, const Inst *in)
{
	const Func *callee = e->m->fn[in->callee];
	buf_puts(b, fn_name(e, in->callee));
	buf_putc(b, '(');
	for (int k = 0; k < in->narg; k++) {
		if (k)
			buf_puts(b, ", ");
		put_expr(e, b, in->arg[k], P_COND);
		if (ty_is_array(vty(e, in->arg[k])) && val_view(e, in->arg[k]) && !param_view(e->m, callee, k))
			buf_puts(b, ".data");
	}
	buf_putc(b, ')');
}

/* ks_<op>_<type>[_<type>](a, b): operations the runtime spells as
 * functions (vectors, matrices, float16, the small ints) */
static void put_vop(Emitter *e, Buf *b, const char *op, const Inst *in, int ntypes)
{
	char name[96];
	if (ntypes == 1)
		ks_join(name, sizeof name, "ks_", op, "_", ty_name(vty(e, in->arg[0])), NULL);
	else
		ks_join(name, sizeof name, "ks_", op, "_", ty_name(vty(e, in->arg[0])), "_",
			ty_name(vty(e, in->arg[1])), NULL);
	put_call(e, b, name, in, 0);
}

/* The element a[i, ...] of the array operand 0 indexed by operands 1 ..
 * 1 + ndim: a[i] for a 1-D array, a.data[(i * a.shape[1] + j) * ...] for
 * a view. */
void put_elem(Emitter *e, Buf *b, const Inst *in)
{
	Type t = vty(e, in->arg[0]);
	int nd = ty_ndim(t);
	/* the array as an expression: its name, or a struct's field (s.a),
	 * which has none; it is written again for the shape */
	Buf arr = {0};
	put_expr(e, &arr, in->arg[0], P_POSTFIX);
	buf_put(b, arr.p, arr.n);
	buf_putc(&arr, '\0');
	if (emit_checked) {
		/* a.data[ks_index2(a.shape, i, j, "a", LINE, COL)] */
		buf_puts(b, ".data[ks_index");
		buf_int(b, nd);
		buf_cat(b, "(", arr.p, ".shape", NULL);
		for (int k = 1; k <= nd; k++) {
			buf_puts(b, ", ");
			put_expr(e, b, in->arg[k], P_COND);
		}
		const char *name = e->f->val[in->arg[0]].name;
		buf_puts(b, ", ");
		if (!name)
			name = arr.p;
		buf_cstring(b, name, strlen(name));
		buf_puts(b, ", ");
		buf_int(b, in->loc.line);
		buf_puts(b, ", ");
		buf_int(b, in->loc.col);
		buf_puts(b, ")]");
		buf_free(&arr);
		return;
	}
	if (nd == 1) {
		buf_puts(b, val_view(e, in->arg[0]) ? ".data[" : "[");
		put_expr(e, b, in->arg[1], 0);
		buf_putc(b, ']');
		buf_free(&arr);
		return;
	}
	buf_puts(b, ".data[");
	for (int k = 2; k < nd; k++)
		buf_putc(b, '(');
	put_expr(e, b, in->arg[1], P_MUL);
	for (int k = 1; k < nd; k++) {
		buf_cat(b, " * ", arr.p, ".shape[", NULL);
		buf_int(b, k);
		buf_puts(b, "] + ");
		put_expr(e, b, in->arg[k + 1], P_ADD + 1);
		if (k < nd - 1)
			buf_putc(b, ')');
	}
	buf_putc(b, ']');
	buf_free(&arr);
}

/* &a[i, ...] */
static void put_addr(Emitter *e, Buf *b, const Inst *in)
{
	buf_putc(b, '&');
	put_elem(e, b, in);
}

/* Do C's operators compute t as Warp does?  Not for float16 (a struct)
 * nor for the 8- and 16-bit ints, which C promotes to int: those go
 * through the runtime's functions (ks_add_int8, ...), which wrap. */
static int c_arith(Type t)
{
	return t == TY_BOOL || t == TY_INT || t == TY_UINT32 || t == TY_INT64 || t == TY_UINT64 || t == TY_FLOAT ||
	       t == TY_DOUBLE;
}

/* Is operand k a constant int c with lo <= c < hi? */
static int const_in(const Emitter *e, const Inst *in, int k, long long lo, long long hi)
{
	const Value *v = &e->f->val[in->arg[k]];
	return v->kind == VK_CONST && v->k.i >= lo && v->k.i < hi;
}

/* The operator as C writes it, or a function of the runtime where C's
 * would differ from Warp's (or be undefined): float16 and the small ints
 * always; integer division and remainder unless the divisor is a
 * constant other than 0 and -1 (Warp gives 0 for a division by zero);
 * shifts unless the count is a constant within the width (and a left
 * shift's operand unsigned). */
static int as_function(const Emitter *e, const Inst *in, Type t)
{
	if (!c_arith(t))
		return 1;
	switch (in->op) {
	case OP_DIV:
	case OP_MOD:
	case OP_FLOORDIV:
		return ty_is_int(t) && !(const_in(e, in, 1, 1, LLONG_MAX) || const_in(e, in, 1, LLONG_MIN, -1));
	case OP_LSHIFT:
		return !ty_is_unsigned(t) || !const_in(e, in, 1, 0, 8 * ty_info(t)->size);
	case OP_RSHIFT:
		return !const_in(e, in, 1, 0, 8 * ty_info(t)->size);
	}
	return 0;
}

static const char *op_word(int op)
{
	/* clang-format off */
	switch (op) {
	case OP_NEG: return "neg";
	case OP_ADD: return "add";
	case OP_SUB: return "sub";
	case OP_MUL: return "mul";
	case OP_DIV: return "div";
	case OP_MOD: return "mod";
	case OP_FLOORDIV: return "floordiv";
	case OP_BIT_AND: return "bit_and";
	case OP_BIT_OR: return "bit_or";
	case OP_BIT_XOR: return "bit_xor";
	case OP_LSHIFT: return "lshift";
	case OP_RSHIFT: return "rshift";
	case OP_INVERT: return "invert";
	case OP_LT: return "lt";
	case OP_LE: return "le";
	case OP_GT: return "gt";
	case OP_GE: return "ge";
	case OP_EQ: return "eq";
	case OP_NE: return "ne";
	}
	/* clang-format on */
	return "?";
}

/* conv: a C cast where C converts as Warp does, else the runtime's
 * ks_to_<to>_<from> (a float to an int: NaN and what is out of range
 * give 0; float16; vectors and matrices) */
static int put_conv(Emitter *e, Buf *b, const Inst *in)
{
	Type from = vty(e, in->arg[0]), to = vty(e, in->res[0]);
	char name[96];
	if (from == to) {
		put_expr(e, b, in->arg[0], 0);
		return 0;
	}
	int scalar = (ty_is_scalar(from) || from == TY_BOOL) && (ty_is_scalar(to) || to == TY_BOOL);
	const Value *k = &e->f->val[in->arg[0]];
	/* a float constant whose integer part the int holds: C's cast is
	 * defined, (int)2.5f */
	int bits = 8 * ty_info(to)->size, sgn = !ty_is_unsigned(to);
	double lim = ldexp(1.0, bits - sgn); /* 2^31 for int, 2^32 for uint32 */
	int in_range = k->kind == VK_CONST && ty_is_float(from) && ty_is_int(to) &&
		       k->k.f > (sgn ? -lim - 1.0 : -1.0) && k->k.f < lim;
	if (scalar && from != TY_HALF && to != TY_HALF && (!(ty_is_float(from) && ty_is_int(to)) || in_range)) {
		buf_printf(b, "(%s)", scalar_ctype(to));
		put_expr(e, b, in->arg[0], P_UNARY);
		return P_UNARY;
	}
	ks_join(name, sizeof name, "ks_to_", ty_name(to), "_", ty_name(from), NULL);
	put_call(e, b, name, in, 0);
	return P_POSTFIX;
}

/* The C type a printf conversion reads: what its argument is cast to
 * where the argument, promoted, is not already of it. */
static const char *printf_ctype(const IrConv *c)
{
	int u = c->cls == 'u', l = c->len[0] == 'l', ll = l && c->len[1] == 'l';
	if (c->cls == 'f')
		return "double";
	if (ll)
		return u ? "unsigned long long" : "long long";
	if (l)
		return u ? "unsigned long" : "long";
	return u ? "unsigned" : "int";
}

/* ks_printf("x = %g\n", x): wp.printf and print, to the log (the CPU's
 * stderr; the GPU's printf, which krun sends there).  A float16 is
 * widened; an argument C's promotions leave of another type than its
 * conversion reads is cast to it. */
void put_printf(Emitter *e, Buf *b, const Inst *in)
{
	const char *fmt = e->m->str[in->callee];
	IrConv cv[256];
	int bad;
	if (ir_printf_convs(fmt, cv, 256, &bad) != in->narg)
		ks_fatal("printf: the format does not match its arguments");
	buf_puts(b, "ks_printf(");
	buf_cstring(b, fmt, strlen(fmt));
	for (int k = 0; k < in->narg; k++) {
		Type t = vty(e, in->arg[k]);
		const char *want = printf_ctype(&cv[k]);
		/* the type after C's default argument promotions */
		const char *has = ty_is_float(t)   ? "double"
				  : t == TY_UINT32 ? "unsigned"
				  : t == TY_INT64  ? "int64_t"
				  : t == TY_UINT64 ? "uint64_t"
						   : "int";
		buf_puts(b, ", ");
		if (t == TY_HALF) {
			buf_puts(b, "ks_half_to_float(");
			put_expr(e, b, in->arg[k], P_COND);
			buf_putc(b, ')');
		} else if (strcmp(has, want)) {
			buf_printf(b, "(%s)", want);
			put_expr(e, b, in->arg[k], P_UNARY);
		} else {
			put_expr(e, b, in->arg[k], P_COND);
		}
	}
	buf_putc(b, ')');
}

/* The layout of loop ID id's checkpoint. */
static const TapeLayout *layout(const Emitter *e, int id)
{
	static const TapeLayout none = {0, 0, NULL};
	return id >= 0 && id < e->ntl ? &e->tl[id] : &none;
}

/* A tape operation, a call into ksynth.h: ks_tape_keep(&tp, &k_loop, trips) */
static void put_tape(Emitter *e, Buf *b, const Inst *in)
{
	const char *tp = e->tapename ? e->tapename : "tp";
	switch (in->op) {
	case OP_TAPE_LOOP:
		buf_printf(b, "ks_tape_loop(&%s, %d)", tp, layout(e, e->f->val[in->arg[0]].k.i)->width);
		return;
	case OP_TAPE_COUNT:
		buf_printf(b, "ks_tape_count(&%s, %d)", tp, layout(e, e->f->val[in->arg[0]].k.i)->width);
		return;
	case OP_TAPE_MEASURED:
		buf_printf(b, "ks_tape_measured(&%s)", tp);
		return;
	case OP_TAPE_PUT:
		buf_printf(b, "ks_tape_put_%s(&%s, ", ty_name(vty(e, in->arg[2])), tp);
		put_expr(e, b, in->arg[2], P_COND);
		buf_putc(b, ')');
		return;
	}
	const char *fn = in->op == OP_TAPE_KEEP ? "keep" : in->op == OP_TAPE_BACK ? "back" : "get";
	if (in->op == OP_TAPE_GET)
		buf_printf(b, "ks_tape_get_%s(&%s, &", ty_name(vty(e, in->arg[2])), tp);
	else
		buf_printf(b, "ks_tape_%s(&%s, &", fn, tp);
	put_expr(e, b, in->arg[0], P_POSTFIX);
	buf_puts(b, ", ");
	if (in->op == OP_TAPE_GET) {
		const TapeLayout *l = layout(e, e->hid[in->arg[0]]);
		int slot = e->f->val[in->arg[1]].k.i;
		buf_printf(b, "%d, ", slot < l->nslot ? l->off[slot] : 0);
		put_expr(e, b, in->arg[2], P_COND);
	} else {
		put_expr(e, b, in->arg[1], P_COND);
	}
	buf_putc(b, ')');
}

/* The expression an instruction computes; returns its precedence. */
int put_inst(Emitter *e, Buf *b, const Inst *in)
{
	const Func *f = e->f;
	Type t0 = in->narg ? vty(e, in->arg[0]) : TY_VOID;
	Type t1 = in->narg > 1 ? vty(e, in->arg[1]) : TY_VOID;
	char name[96];
	switch (in->op) {
	case OP_MOV:
		if (is_handle(e, in->res[0])) {
			buf_puts(b, "ks_tape_none()"); /* a loop handle zeroed */
			return P_POSTFIX;
		}
		put_expr(e, b, in->arg[0], 0);
		return 0;
	case OP_NEG:
	case OP_INVERT:
		if (!c_arith(t0)) {
			put_vop(e, b, op_word(in->op), in, 1);
			return P_POSTFIX;
		}
		buf_putc(b, in->op == OP_NEG ? '-' : '~');
		{
			const Value *a = &f->val[in->arg[0]];
			int d = e->v[in->arg[0]].def;
			int neg = (a->kind == VK_CONST && (ty_is_int(a->ty) ? a->k.i < 0 : a->k.f < 0)) ||
				  (a->kind == VK_TEMP && d >= 0 && e->ii[d].root >= 0 &&
				   (e->ii[d].in->op == OP_NEG || e->ii[d].in->op == OP_INVERT));
			put_expr(e, b, in->arg[0], neg ? P_POSTFIX + 1 : P_UNARY);
		}
		return P_UNARY;
	case OP_NOT:
		buf_putc(b, '!');
		put_expr(e, b, in->arg[0], P_UNARY);
		return P_UNARY;
	case OP_ADD:
	case OP_SUB:
	case OP_MUL:
	case OP_DIV:
		if (!c_arith(t0) || !c_arith(t1)) {
			/* vectors, matrices, quats, transforms, float16, small ints:
			 * ks_mul_float_vec3, ks_add_int8, ... */
			int two = (in->op == OP_MUL || in->op == OP_DIV) &&
				  (ty_is_composite(t0) || ty_is_composite(t1));
			put_vop(e, b, op_word(in->op), in, two ? 2 : 1);
			return P_POSTFIX;
		}
		/* fall through */
	case OP_MOD:
	case OP_FLOORDIV:
	case OP_BIT_AND:
	case OP_BIT_OR:
	case OP_BIT_XOR:
	case OP_LSHIFT:
	case OP_RSHIFT:
	case OP_LT:
	case OP_LE:
	case OP_GT:
	case OP_GE:
	case OP_EQ:
	case OP_NE:
	case OP_AND:
	case OP_OR: {
		int cmp = in->op >= OP_LT && in->op <= OP_NE;
		if ((cmp && !ty_is_scalar(t0) && t0 != TY_BOOL) || (cmp && t0 == TY_HALF)) {
			/* vec == vec, float16 < float16 */
			put_vop(e, b, op_word(in->op), in, 1);
			return P_POSTFIX;
		}
		if (!cmp && in->op != OP_AND && in->op != OP_OR && ty_is_float(t0) &&
		    (in->op == OP_MOD || in->op == OP_FLOORDIV) && t0 != TY_HALF) {
			/* fmodf(a, b); floorf(a / b) */
			const char *fn = in->op == OP_MOD ? (t0 == TY_FLOAT ? "fmodf" : "fmod")
							  : (t0 == TY_FLOAT ? "floorf" : "floor");
			if (in->op == OP_MOD) {
				put_call(e, b, fn, in, 0);
			} else {
				buf_printf(b, "%s(", fn);
				put_expr(e, b, in->arg[0], P_MUL);
				buf_puts(b, " / ");
				put_expr(e, b, in->arg[1], P_MUL + 1);
				buf_putc(b, ')');
			}
			return P_POSTFIX;
		}
		if (!cmp && in->op != OP_AND && in->op != OP_OR &&
		    (as_function(e, in, t0) || (ty_is_int(t0) && in->op == OP_FLOORDIV))) {
			put_vop(e, b, op_word(in->op), in, 1);
			return P_POSTFIX;
		}
		int p = binop_prec(in->op), lp = p, rp = p + 1;
		if (p == P_EQ)
			lp = rp = P_REL + 1; /* (a < b) == c, as -Wparentheses asks */
		if (p == P_OR)
			lp = rp = P_AND + 1; /* a || (b && c) */
		if (p >= P_BITOR && p <= P_BITAND)
			lp = rp = P_SHIFT + 1; /* (a + b) & c, as -Wparentheses asks */
		if (p == P_SHIFT)
			lp = rp = P_MUL + 1; /* (a + b) << c */
		if (p == P_EQ) {
			for (int k = 0; k < 2; k++) {
				int d = e->v[in->arg[k]].def;
				int isnot = f->val[in->arg[k]].kind == VK_TEMP && d >= 0 && e->ii[d].root >= 0 &&
					    e->ii[d].in->op == OP_NOT;
				if (k == 0) {
					if (isnot)
						buf_putc(b, '(');
					put_expr(e, b, in->arg[0], lp);
					if (isnot)
						buf_putc(b, ')');
					put_binop(b, in->op);
				} else {
					if (isnot)
						buf_putc(b, '(');
					put_expr(e, b, in->arg[1], rp);
					if (isnot)
						buf_putc(b, ')');
				}
			}
			return p;
		}
		put_expr(e, b, in->arg[0], lp);
		put_binop(b, in->op);
		put_expr(e, b, in->arg[1], rp);
		return p;
	}
	case OP_SELECT:
		put_expr(e, b, in->arg[0], P_OR);
		buf_puts(b, " ? ");
		put_expr(e, b, in->arg[1], P_OR);
		buf_puts(b, " : ");
		put_expr(e, b, in->arg[2], P_OR);
		return P_COND;
	case OP_CONV:
		return put_conv(e, b, in);
	case OP_BITCAST: {
		/* float32 is spelled ks_float32, which double mode keeps */
		Type to = vty(e, in->res[0]), from = vty(e, in->arg[0]);
		buf_printf(b, "ks_bitcast(%s, ", to == TY_FLOAT ? "ks_float32" : ctype(to));
		buf_printf(b, "%s, ", from == TY_FLOAT ? "ks_float32" : ctype(from));
		put_expr(e, b, in->arg[0], P_COND);
		buf_putc(b, ')');
		return P_POSTFIX;
	}
	case OP_FIELD:
		put_expr(e, b, in->arg[0], P_POSTFIX);
		buf_putc(b, '.');
		buf_puts(b, ty_field(t0, in->callee)->name);
		return P_POSTFIX;
	case OP_MAKE: {
		Type rt = vty(e, in->res[0]);
		const char *ty = ty_name(rt);
		if (ty_is_struct(rt)) {
			buf_puts(b, zero_of(e, rt));
			return P_POSTFIX;
		}
		ks_join(name, sizeof name,
			in->narg == 0   ? "ks_zero_"
			: in->narg == 1 ? "ks_fill_"
					: "ks_make_",
			ty, NULL);
		if (ty_is_xform(rt) && in->narg == 7) {
			/* seven numbers: the position and the rotation */
			Type sc = ty_scalar(rt);
			buf_printf(b, "ks_make_%s(ks_make_%s(", ty, ty_name(ty_find(TK_VEC, sc, 3, 1)));
			for (int k = 0; k < 7; k++) {
				if (k == 3)
					buf_printf(b, "), ks_make_%s(", ty_name(ty_find(TK_QUAT, sc, 4, 1)));
				else if (k)
					buf_puts(b, ", ");
				put_expr(e, b, in->arg[k], P_COND);
			}
			buf_puts(b, "))");
			return P_POSTFIX;
		}
		if (in->narg == 2 && (ty_is_quat(rt) || ty_ncomp(rt) == 6)) {
			/* a quaternion's (v, w), a spatial vector's (w, v) */
			ks_join(name, sizeof name, "ks_make_", ty, "_",
				ty_name(ty_find(TK_VEC, ty_scalar(rt), 3, 1)), NULL);
		}
		put_call(e, b, name, in, 0);
		return P_POSTFIX;
	}
	case OP_EXTRACT:
		if (ty_is_tile(t0)) {
			/* a[i * 4 + j], row-major */
			put_expr(e, b, in->arg[0], P_POSTFIX);
			buf_putc(b, '[');
			tile_flat(e, b, t0, in->arg + 1);
			buf_putc(b, ']');
			return P_POSTFIX;
		}
		if (ty_is_mat(t0) && in->narg == 2) {
			ks_join(name, sizeof name, "ks_row_", ty_name(t0), NULL);
			put_call(e, b, name, in, 0);
			return P_POSTFIX;
		}
		put_expr(e, b, in->arg[0], P_POSTFIX);
		for (int k = 1; k < in->narg; k++) {
			buf_puts(b, k == 1 ? ".c[" : "[");
			put_expr(e, b, in->arg[k], 0);
			buf_putc(b, ']');
		}
		return P_POSTFIX;
	case OP_INSERT:
		if (ty_is_mat(t0) && in->narg == 3)
			ks_join(name, sizeof name, "ks_set_row_", ty_name(t0), NULL);
		else
			ks_join(name, sizeof name, "ks_insert_", ty_name(t0), NULL);
		put_call(e, b, name, in, 0);
		return P_POSTFIX;
	case OP_LOAD:
		put_elem(e, b, in);
		return P_POSTFIX;
	case OP_SHAPE:
		put_expr(e, b, in->arg[0], P_POSTFIX);
		buf_printf(b, ".shape[%d]", (int)f->val[in->arg[1]].k.i);
		return P_POSTFIX;
	case OP_CALL:
		put_func_call(e, b, in);
		return P_POSTFIX;
	case OP_BUILTIN: {
		int row = in->callee;
		if (row == BI_TID) {
			buf_puts(b, e->rank > 1 ? "tid0" : "tid");
			return P_POSTFIX;
		}
		Type args[8] = {TY_VOID};
		for (int k = 0; k < in->narg && k < 8; k++)
			args[k] = vty(e, in->arg[k]);
		const char *fn = builtin_fn(row, args, name, sizeof name);
		if (ir_builtin_atomic(row)) {
			buf_puts(b, fn);
			buf_putc(b, '(');
			put_addr(e, b, in);
			/* the value, or atomic_cas's compare and value */
			for (int k = 1 + ty_ndim(args[0]); k < in->narg; k++) {
				buf_puts(b, ", ");
				put_expr(e, b, in->arg[k], P_COND);
			}
			buf_putc(b, ')');
			return P_POSTFIX;
		}
		put_call(e, b, fn, in, 0);
		return P_POSTFIX;
	}
	case OP_TAPE_LOOP:
	case OP_TAPE_KEEP:
	case OP_TAPE_PUT:
	case OP_TAPE_BACK:
	case OP_TAPE_GET:
	case OP_TAPE_COUNT:
	case OP_TAPE_MEASURED:
		put_tape(e, b, in);
		return P_POSTFIX;
	}
	ks_fatal("cannot emit opcode %s", ir_ops[in->op].name);
}

/* Put b's text from offset at in parentheses. */
static void parenthesize(Buf *b, size_t at)
{
	buf_puts(b, "()");
	memmove(b->p + at + 1, b->p + at, b->n - 2 - at);
	b->p[at] = '(';
	b->p[b->n - 1] = ')';
}

/* Value val as an expression of precedence minprec at least. */
void put_expr(Emitter *e, Buf *b, int val, int minprec)
{
	const Value *v = &e->f->val[val];
	int prec = P_POSTFIX;
	size_t at = b->n;
	if (v->kind == VK_CONST) {
		put_const(v, b, &prec);
		if (prec < minprec)
			parenthesize(b, at);
		return;
	}
	int d = e->v[val].def;
	if (v->kind == VK_TEMP && d >= 0 && e->ii[d].root >= 0) {
		prec = put_inst(e, b, e->ii[d].in);
		if (prec == 0)
			prec = P_POSTFIX; /* a mov: what it moves already chose */
		if (prec < minprec)
			parenthesize(b, at);
		return;
	}
	buf_puts(b, e->v[val].name ? e->v[val].name : "?");
}
