/*
 * emit.c: prints IR as C11 (EMIT_CPU) or CUDA C++ (EMIT_CUDA), the code a
 * programmer would have written by hand: source names kept, one statement
 * per source statement where the IR allows, every statement citing its
 * source line.  doc/emit.md shows examples.
 *
 * A function is emitted in four passes over its IR tree (analyse runs
 * them):
 *
 *   1. liveness (live.c): an instruction without effects whose results
 *      are never read is dropped (so is code after ret/break/continue),
 *      repeated until nothing changes; C compilers warn about what would
 *      be left.
 *   2. folding (fold.c): a temp read once, in the same block, becomes part
 *      of the expression that reads it (`%0 = mul %b, %c; %x = add %a, %0`
 *      is `x = a + b * c;`) unless moving it would change what it
 *      computes: it may not move past an assignment to a variable it
 *      reads, a load may not move past a store, an atomic or a call that
 *      writes memory, nothing moves past control flow, and one C
 *      expression holds at most one memory write and then nothing that
 *      reads memory (C leaves the order of operands unspecified).  Effects
 *      never go where C would skip them (the right of && and ||, the arms
 *      of ?:).
 *   3. naming (names.c): parameters and variables keep their source names
 *      unless they clash with C, C++ or CUDA (then a suffix); temps that
 *      stay temps get a name from what they hold (x_i for x[i]) or t0,
 *      t1, ...
 *   4. declarations (decl.c): each variable is declared once, in the
 *      innermost block holding all its uses, at its first assignment when
 *      that assignment is a plain statement of that block
 *      (`float y = ...;`), else just before the statement that first
 *      mentions it, initialized to zero so that no compiler suspects a use
 *      before assignment.
 *
 * Then the tree is printed (below; type.c spells the types): `if` chains
 * as else-if, `loop` whose body opens with `if not c { break }` as
 * `while (c)`, `for` as a C for loop.  emit_int.h holds the state the
 * files share.
 *
 * This file drives a module, one function at a time (emit_main as
 * ir/file.c reads and verifies them, emit_module over a module in
 * memory): emit_begin names the module's functions and entries and
 * prints the header and the structs; emit_next prints each function,
 * callees first, and spools a kernel's entry; emit_end appends the
 * entries.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "emit/emit_int.h"

/* ---- expressions ------------------------------------------------------------- */

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
	return 0;
}

/* The libm spelling of a scalar builtin on float or double, or NULL. */
static const char *libm_name(int row, Type t)
{
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
	if (t != TY_FLOAT && t != TY_DOUBLE)
		return NULL;
	for (size_t i = 0; i < KS_NELEM(tab); i++)
		if (tab[i].row == row)
			return t == TY_FLOAT ? f32[i] : tab[i].name;
	return NULL;
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
	buf_puts(b, e->fname[in->callee]);
	buf_putc(b, '(');
	for (int k = 0; k < in->narg; k++) {
		if (k)
			buf_puts(b, ", ");
		put_expr(e, b, in->arg[k], P_COND);
		if (ty_is_array(vty(e, in->arg[k])) && val_view(e, in->arg[k]) &&
		    !param_view(e->m, callee, k))
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
		snprintf(name, sizeof name, "ks_%s_%s", op, ty_name(vty(e, in->arg[0])));
	else
		snprintf(name, sizeof name, "ks_%s_%s_%s", op, ty_name(vty(e, in->arg[0])),
			 ty_name(vty(e, in->arg[1])));
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
		buf_printf(b, ".data[ks_index%d(%s.shape", nd, arr.p);
		for (int k = 1; k <= nd; k++) {
			buf_puts(b, ", ");
			put_expr(e, b, in->arg[k], P_COND);
		}
		const char *name = e->f->val[in->arg[0]].name;
		buf_puts(b, ", ");
		if (!name)
			name = arr.p;
		buf_cstring(b, name, strlen(name));
		buf_printf(b, ", %d, %d)]", in->loc.line, in->loc.col);
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
		buf_printf(b, " * %s.shape[%d] + ", arr.p, k);
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
	return t == TY_BOOL || t == TY_INT || t == TY_UINT32 || t == TY_INT64 || t == TY_UINT64 ||
	       t == TY_FLOAT || t == TY_DOUBLE;
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
	snprintf(name, sizeof name, "ks_to_%s_%s", ty_name(to), ty_name(from));
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
		const char *has = ty_is_float(t) ? "double"
				  : t == TY_UINT32 ? "unsigned"
				  : t == TY_INT64 ? "int64_t"
				  : t == TY_UINT64 ? "uint64_t" : "int";
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
				int isnot = f->val[in->arg[k]].kind == VK_TEMP && d >= 0 &&
					    e->ii[d].root >= 0 && e->ii[d].in->op == OP_NOT;
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
		snprintf(name, sizeof name, "ks_%s_%s",
			 in->narg == 0 ? "zero" : in->narg == 1 ? "fill" : "make", ty);
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
			snprintf(name, sizeof name, "ks_make_%s_%s", ty,
				 ty_name(ty_find(TK_VEC, ty_scalar(rt), 3, 1)));
		}
		put_call(e, b, name, in, 0);
		return P_POSTFIX;
	}
	case OP_EXTRACT:
		if (ty_is_mat(t0) && in->narg == 2) {
			snprintf(name, sizeof name, "ks_row_%s", ty_name(t0));
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
			snprintf(name, sizeof name, "ks_set_row_%s", ty_name(t0));
		else
			snprintf(name, sizeof name, "ks_insert_%s", ty_name(t0));
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
		const char *lm = libm_name(row, t0);
		if (lm) {
			put_call(e, b, lm, in, 0);
			return P_POSTFIX;
		}
		Type args[8];
		for (int k = 0; k < in->narg && k < 8; k++)
			args[k] = vty(e, in->arg[k]);
		ir_builtin_cname(row, args, name, sizeof name);
		if (ir_builtins[row].flags & BF_ATOMIC) {
			buf_puts(b, name);
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
		put_call(e, b, name, in, 0);
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

/* ---- statements --------------------------------------------------------------- */

static void indent(Emitter *e, int depth)
{
	for (int i = 0; i < depth; i++)
		fputs("    ", e->out);
}

/* "  // line N\n" */
static void put_line_comment(FILE *out, int line)
{
	char s[40] = "  // line ", *p = s + sizeof s;
	*--p = '\n';
	p = ks_dec(p, line) - 10;
	memcpy(p, s, 10);
	fwrite(p, 1, (size_t)(s + sizeof s - p), out);
}

static void line_end(Emitter *e, const Inst *in) { put_line_comment(e->out, in->loc.line); }

/* ---- coverage (emit_coverage) --------------------------------------------- */

int emit_cover;                /* instrument the code (emit_coverage) */
static EmitSite *cover_site;   /* the sites written, in order */
static int ncover, capcover;

/* A new site for the if or loop in (of the function being emitted);
 * returns its number. */
static int cover_new(Emitter *e, const Inst *in, int loop)
{
	if (ncover == capcover) {
		capcover = capcover ? 2 * capcover : 64;
		cover_site = xrealloc(cover_site, (size_t)capcover * sizeof *cover_site);
	}
	cover_site[ncover] = (EmitSite){e->f->name, in->loc.line, in->loc.col, loop};
	return ncover++;
}

/* KS_COVER(site, way); as a block's first statement */
static void cover_line(Emitter *e, int depth, int site, int way)
{
	indent(e, depth);
	fprintf(e->out, "KS_COVER(%d, %d);\n", site, way);
}

void emit_coverage(int on)
{
	emit_cover = on;
	if (on)
		ncover = 0;
}

const EmitSite *emit_cover_sites(int *n)
{
	*n = ncover;
	return cover_site;
}

/* b's text, then tail */
static void put_text(Emitter *e, const Buf *b, const char *tail)
{
	fwrite(b->p, 1, b->n, e->out);
	fputs(tail, e->out);
}

/* Index of the only statement block b prints, or -1. */
static int sole_stmt(const Emitter *e, const Block *b)
{
	int found = -1;
	for (int i = 0; i < e->ndecl; i++)
		if (e->decl[i].b == b)
			return -1;
	for (int i = 0; i < b->n; i++) {
		const IInfo *x = &e->ii[inst_id(e, &b->v[i])];
		if (x->dead || x->root >= 0)
			continue;
		if (found >= 0)
			return -1;
		found = i;
	}
	return found;
}

/* Index of the first statement block b prints (-1 if none), provided no
 * declaration comes before it. */
static int first_stmt(const Emitter *e, const Block *b)
{
	for (int i = 0; i < b->n; i++) {
		const IInfo *x = &e->ii[inst_id(e, &b->v[i])];
		if (x->dead || x->root >= 0)
			continue;
		for (int k = 0; k < e->ndecl; k++)
			if (e->decl[k].b == b && e->decl[k].idx <= i)
				return -1;
		return i;
	}
	return -1;
}

/* A value instruction as a statement: "[T ]x = expr;" */
static void emit_assign(Emitter *e, const Inst *in, int depth)
{
	int r = in->res[0];
	const Value *rv = &e->f->val[r];
	Buf b = {0};
	indent(e, depth);
	if (in->op == OP_SETFIELD) {
		/* s.f = x; or, into another value, t = s; t.f = x; */
		if (in->arg[0] != r) {
			int declare = is_named_temp(e, r) || (rv->kind == VK_VAR && decl_inline(e, r) &&
							       in == first_occ(e, r));
			if (declare) {
				put_decl(&b, rv->ty, e->v[r].name);
			} else {
				buf_puts(&b, e->v[r].name);
			}
			buf_puts(&b, " = ");
			put_expr(e, &b, in->arg[0], 0);
			put_text(e, &b, ";");
			line_end(e, in);
			buf_free(&b);
			b = (Buf){0};
			indent(e, depth);
		}
		buf_puts(&b, e->v[r].name);
		buf_putc(&b, '.');
		buf_puts(&b, ty_field(rv->ty, in->callee)->name);
		buf_puts(&b, " = ");
		put_expr(e, &b, in->arg[1], 0);
	} else
	/* in-place component updates: v.c[k] = s;  m.c[i][j] = s; */
	if (in->op == OP_INSERT && in->arg[0] == r && !(ty_is_mat(rv->ty) && in->narg == 3)) {
		buf_puts(&b, e->v[r].name);
		buf_puts(&b, ".c[");
		put_expr(e, &b, in->arg[1], 0);
		buf_putc(&b, ']');
		if (in->narg == 4) {
			buf_putc(&b, '[');
			put_expr(e, &b, in->arg[2], 0);
			buf_putc(&b, ']');
		}
		buf_puts(&b, " = ");
		put_expr(e, &b, in->arg[in->narg - 1], 0);
	} else {
		int declare = is_named_temp(e, r) || (rv->kind == VK_VAR && decl_inline(e, r) &&
						       in == first_occ(e, r));
		if (declare) {
			if (is_handle(e, r)) {
				buf_puts(&b, "ks_trips ");
				buf_puts(&b, e->v[r].name);
			} else {
				put_decl(&b, rv->ty, e->v[r].name);
			}
			buf_puts(&b, " = ");
		} else {
			buf_puts(&b, e->v[r].name);
			buf_puts(&b, " = ");
		}
		put_inst(e, &b, in);
	}
	put_text(e, &b, ";");
	line_end(e, in);
	buf_free(&b);
}

/* A statement of its own: a call or atomic whose result is unused, or a
 * multi-result call or builtin (svd3), which writes its results through
 * pointers: ks_svd3_mat33(A, &U, &sigma, &V); */
static void emit_effect(Emitter *e, const Inst *in, int depth)
{
	Buf b = {0};
	int nr = multi_results(e, in, NULL);
	Type *rt = xmalloc((size_t)(nr ? nr : 1) * sizeof *rt);
	multi_results(e, in, rt);
	if (nr) {
		/* the temps it assigns, one declaration per type: float t3, t4; */
		for (int k = 0; k < in->nres; k++) {
			int r = in->res[k], seen = 0;
			if (!is_named_temp(e, r))
				continue;
			for (int q = 0; q < k && !seen; q++)
				seen = is_named_temp(e, in->res[q]) && e->f->val[in->res[q]].ty == e->f->val[r].ty;
			if (seen)
				continue;
			indent(e, depth);
			fprintf(e->out, "%s %s", local_ctype(e->f->val[r].ty), e->v[r].name);
			for (int q = k + 1; q < in->nres; q++)
				if (is_named_temp(e, in->res[q]) && e->f->val[in->res[q]].ty == e->f->val[r].ty)
					fprintf(e->out, ", %s", e->v[in->res[q]].name);
			fputc(';', e->out);
			line_end(e, in);
		}
		if (!in->nres) {
			/* results ignored: the function still writes them somewhere */
			indent(e, depth);
			fputs("{", e->out);
			line_end(e, in);
			depth++;
			for (int k = 0; k < nr; k++) {
				indent(e, depth);
				fprintf(e->out, "%s ignored%d;\n", ctype(rt[k]), k);
			}
		}
		indent(e, depth);
		if (in->op == OP_CALL) {
			buf_puts(&b, e->fname[in->callee]);
		} else {
			char name[96];
			Type args[8];
			for (int k = 0; k < in->narg && k < 8; k++)
				args[k] = vty(e, in->arg[k]);
			ir_builtin_cname(in->callee, args, name, sizeof name);
			buf_puts(&b, name);
		}
		buf_putc(&b, '(');
		for (int k = 0; k < in->narg; k++) {
			if (k)
				buf_puts(&b, ", ");
			put_expr(e, &b, in->arg[k], P_COND);
		}
		for (int k = 0; k < nr; k++) {
			if (in->narg || k)
				buf_puts(&b, ", ");
			if (in->nres)
				buf_printf(&b, "&%s", e->v[in->res[k]].name);
			else
				buf_printf(&b, "&ignored%d", k);
		}
		buf_putc(&b, ')');
		put_text(e, &b, ";");
		line_end(e, in);
		if (!in->nres) {
			indent(e, depth - 1);
			fputs("}\n", e->out);
		}
	} else {
		indent(e, depth);
		put_inst(e, &b, in);
		put_text(e, &b, ";");
		line_end(e, in);
	}
	buf_free(&b);
	free(rt);
}

/* a = wp.randf(state): "float a = ks_randf(&state);", the draw advancing
 * the state in place.  A draw from anything but the variable it leaves its
 * state in copies that first: "uint32_t state = ks_rand_init(seed);". */
static void emit_draw(Emitter *e, const Inst *in, int depth)
{
	int r = in->res[0], st = in->res[1];
	Buf b = {0};
	if (st != in->arg[0]) {
		indent(e, depth);
		if (is_named_temp(e, st) || (decl_inline(e, st) && in == first_occ(e, st)))
			put_decl(&b, TY_UINT32, e->v[st].name);
		else
			buf_puts(&b, e->v[st].name);
		buf_puts(&b, " = ");
		put_expr(e, &b, in->arg[0], 0);
		put_text(e, &b, ";");
		line_end(e, in);
		buf_free(&b);
		b = (Buf){0};
	}
	indent(e, depth);
	const Value *rv = &e->f->val[r];
	/* a value nobody reads (a backward replays draws for their state) is
	 * not kept */
	if (e->v[r].uses) {
		if (rv->kind == VK_TEMP || (decl_inline(e, r) && in == first_occ(e, r)))
			put_decl(&b, rv->ty, e->v[r].name);
		else
			buf_puts(&b, e->v[r].name);
		buf_puts(&b, " = ");
	}
	char name[96];
	Type args[8];
	for (int k = 0; k < in->narg && k < 8; k++)
		args[k] = vty(e, in->arg[k]);
	ir_builtin_cname(in->callee, args, name, sizeof name);
	buf_printf(&b, "%s(&%s", name, e->v[st].name);
	for (int k = 1; k < in->narg; k++) {
		buf_puts(&b, ", ");
		put_expr(e, &b, in->arg[k], P_COND);
	}
	put_text(e, &b, ");");
	line_end(e, in);
	buf_free(&b);
}

/* i, j = wp.tid(): int i = tid0;  int j = tid1; */
static void emit_tid(Emitter *e, const Inst *in, int depth)
{
	for (int k = 0; k < in->nres; k++) {
		int r = in->res[k];
		indent(e, depth);
		fprintf(e->out, "%s%s = tid%d;", decl_inline(e, r) && in == first_occ(e, r) ? "int " : "",
			e->v[r].name, k);
		line_end(e, in);
	}
}

static void emit_for(Emitter *e, const Inst *in, int depth)
{
	int k = in->res[0], lo = in->arg[0], hi = in->arg[1], st = in->arg[2];
	const char *kn = e->v[k].name;
	const Value *sv = &e->f->val[st];
	Buf b = {0}, hb = {0}, sb = {0};
	/* bounds are evaluated once: copy a bound the body reassigns */
	int bound[2] = {hi, st};
	Buf *out[2] = {&hb, &sb};
	for (int n = 0; n < 2; n++) {
		int val = bound[n], kind = e->f->val[val].kind;
		if ((kind == VK_VAR || kind == VK_PARAM) && assigns_in(e, &in->body, val)) {
			char base[300];
			snprintf(base, sizeof base, "%s_%s", kn, n ? "step" : "end");
			char *nm = make_name(e, base, 0);
			indent(e, depth);
			fprintf(e->out, "int %s = %s;", nm, e->v[val].name);
			line_end(e, in);
			buf_puts(out[n], nm);
		} else {
			put_expr(e, out[n], val, n ? P_REL + 1 : P_REL + 1);
		}
	}
	if (sv->kind == VK_CONST && sv->k.i == 0) {
		indent(e, depth);
		fprintf(e->out, "/* for %s in range(..., 0): no iterations */", kn);
		line_end(e, in);
		buf_free(&hb);
		buf_free(&sb);
		return;
	}
	indent(e, depth);
	buf_puts(&b, "for (");
	if (decl_inline(e, k) && in == first_occ(e, k))
		buf_puts(&b, "int ");
	buf_printf(&b, "%s = ", kn);
	put_expr(e, &b, lo, 0);
	buf_puts(&b, "; ");
	if (sv->kind == VK_CONST) {
		int s = sv->k.i;
		buf_printf(&b, "%s %s %s; ", kn, s > 0 ? "<" : ">", hb.p);
		if (s == 1 || s == -1)
			buf_printf(&b, "%s%s", kn, s > 0 ? "++" : "--");
		else if (s > 0)
			buf_printf(&b, "%s += %d", kn, s);
		else
			buf_printf(&b, "%s -= %lld", kn, -(long long)s);
	} else {
		/* range() with a step known only at run time: either sign, and
		 * none at all for a step of 0 */
		buf_printf(&b, "(%s > 0 && %s < %s) || (%s < 0 && %s > %s); %s += %s", sb.p, kn, hb.p,
			   sb.p, kn, hb.p, kn, sb.p);
	}
	put_text(e, &b, ") {");
	line_end(e, in);
	if (emit_cover)
		cover_line(e, depth + 1, cover_new(e, in, 1), 0);
	emit_block(e, &in->body, depth + 1, -1);
	indent(e, depth);
	fputs("}\n", e->out);
	buf_free(&b);
	buf_free(&hb);
	buf_free(&sb);
}

static void emit_stmt(Emitter *e, const Inst *in, int depth, int last)
{
	Buf b = {0};
	switch (in->op) {
	case OP_IF:
		indent(e, depth);
		for (;;) {
			int site = emit_cover ? cover_new(e, in, 0) : -1;
			buf_puts(&b, "if (");
			put_expr(e, &b, in->arg[0], 0);
			put_text(e, &b, ") {");
			b.n = 0;
			line_end(e, in);
			if (emit_cover)
				cover_line(e, depth + 1, site, 0);
			emit_block(e, &in->body, depth + 1, -1);
			int s = in->els.n ? sole_stmt(e, &in->els) : -1;
			if (emit_cover) {
				/* the else way counted, an elif chain nested */
				indent(e, depth);
				fputs("} else {\n", e->out);
				cover_line(e, depth + 1, site, 1);
				emit_block(e, &in->els, depth + 1, -1);
				indent(e, depth);
				fputs("}\n", e->out);
				break;
			}
			if (s >= 0 && in->els.v[s].op == OP_IF) {
				indent(e, depth);
				fputs("} else ", e->out);
				in = &in->els.v[s];
				continue;
			}
			/* print the else branch unless nothing in it survives */
			int any = 0;
			for (int i = 0; i < in->els.n; i++)
				any |= !e->ii[inst_id(e, &in->els.v[i])].dead;
			if (any) {
				indent(e, depth);
				fputs("} else {\n", e->out);
				emit_block(e, &in->els, depth + 1, -1);
			}
			indent(e, depth);
			fputs("}\n", e->out);
			break;
		}
		break;
	case OP_FOR:
		emit_for(e, in, depth);
		break;
	case OP_LOOP: {
		/* loop { if not c { break } ... } is while (c) { ... } */
		int f0 = first_stmt(e, &in->body);
		const Inst *g = f0 >= 0 ? &in->body.v[f0] : NULL;
		int brk = g && g->op == OP_IF && sole_stmt(e, &g->body) >= 0 &&
			  g->body.v[sole_stmt(e, &g->body)].op == OP_BREAK;
		if (brk)
			for (int i = 0; i < g->els.n; i++)
				brk &= e->ii[inst_id(e, &g->els.v[i])].dead;
		indent(e, depth);
		if (brk) {
			int c = g->arg[0], d = e->v[c].def;
			buf_puts(&b, "while (");
			if (e->f->val[c].kind == VK_TEMP && d >= 0 && e->ii[d].root >= 0 &&
			    e->ii[d].in->op == OP_NOT) {
				put_expr(e, &b, e->ii[d].in->arg[0], 0);
			} else {
				buf_putc(&b, '!');
				put_expr(e, &b, c, P_UNARY);
			}
			put_text(e, &b, ") {");
			line_end(e, g);
		} else {
			fputs("for (;;) {", e->out);
			line_end(e, in);
		}
		if (emit_cover)
			cover_line(e, depth + 1, cover_new(e, in, 1), 0);
		emit_block(e, &in->body, depth + 1, brk ? f0 : -1);
		indent(e, depth);
		fputs("}\n", e->out);
		break;
	}
	case OP_BREAK:
	case OP_CONTINUE:
		indent(e, depth);
		fputs(in->op == OP_BREAK ? "break;" : "continue;", e->out);
		line_end(e, in);
		break;
	case OP_RET:
		if (e->f->nret > 1) {
			for (int k = 0; k < in->narg; k++) {
				indent(e, depth);
				buf_putc(&b, '*');
				buf_puts(&b, e->retname[k]);
				buf_puts(&b, " = ");
				put_expr(e, &b, in->arg[k], 0);
				put_text(e, &b, ";");
				b.n = 0;
				line_end(e, in);
			}
			if (last)
				break;
		} else if (in->narg) {
			buf_puts(&b, "return ");
			put_expr(e, &b, in->arg[0], 0);
			indent(e, depth);
			put_text(e, &b, ";");
			line_end(e, in);
			break;
		} else if (last) {
			break;
		}
		indent(e, depth);
		fputs("return;", e->out);
		line_end(e, in);
		break;
	case OP_TAPE_OPEN:
		indent(e, depth);
		buf_printf(&b, "ks_tape %s = ks_tape_open(", e->tapename);
		put_expr(e, &b, in->arg[0], P_COND);
		buf_printf(&b, "%s, %s);", val_view(e, in->arg[0]) ? ".data" : "",
			   e->threadname ? e->threadname : "tid");
		put_text(e, &b, "");
		line_end(e, in);
		break;
	case OP_PRINTF:
		indent(e, depth);
		put_printf(e, &b, in);
		put_text(e, &b, ";");
		line_end(e, in);
		break;
	case OP_STORE:
		indent(e, depth);
		put_elem(e, &b, in);
		buf_puts(&b, " = ");
		put_expr(e, &b, in->arg[in->narg - 1], 0);
		put_text(e, &b, ";");
		line_end(e, in);
		break;
	default:
		if (in->op == OP_BUILTIN && in->callee == BI_TID && in->nres > 1)
			emit_tid(e, in, depth);
		else if (is_draw(in))
			emit_draw(e, in, depth);
		else if (multi_results(e, in, NULL))
			emit_effect(e, in, depth);
		else if (in->nres == 1 && e->v[in->res[0]].uses + (e->f->val[in->res[0]].kind != VK_TEMP))
			emit_assign(e, in, depth);
		else
			emit_effect(e, in, depth);
	}
	if (b.p)
		buf_free(&b);
}

/* Print block b's statements (skipping index skip) and the declarations
 * anchored in it. */
void emit_block(Emitter *e, const Block *b, int depth, int skip)
{
	int lastlive = -1;
	for (int i = 0; i < b->n; i++) {
		const IInfo *x = &e->ii[inst_id(e, &b->v[i])];
		if (!x->dead && x->root < 0)
			lastlive = i;
	}
	for (int i = 0; i < b->n; i++) {
		for (int k = 0; k < e->ndecl; k++) {
			const Decl *d = &e->decl[k];
			if (d->b != b || d->idx != i)
				continue;
			Type t = e->f->val[d->val].ty;
			indent(e, depth);
			/* a multi-result call assigns through pointers: no init */
			if (multi_results(e, &b->v[i], NULL) && first_occ(e, d->val) == &b->v[i])
				fprintf(e->out, "%s %s;", ctype(t), e->v[d->val].name);
			else if (is_handle(e, d->val))
				fprintf(e->out, "ks_trips %s = ks_tape_none();", e->v[d->val].name);
			else if (zero_of(e, t))
				fprintf(e->out, "%s %s = %s;", ctype(t), e->v[d->val].name, zero_of(e, t));
			else
				fprintf(e->out, "%s %s = ks_zero_%s();", ctype(t), e->v[d->val].name, ty_name(t));
			put_line_comment(e->out, d->line);
		}
		const IInfo *x = &e->ii[inst_id(e, &b->v[i])];
		if (x->dead || x->root >= 0 || i == skip)
			continue;
		emit_stmt(e, &b->v[i], depth, depth == 1 && b == &e->f->body && i == lastlive);
	}
}

/* ---- functions ---------------------------------------------------------------- */

static void alloc_values(Emitter *e, const Func *f, int fi)
{
	e->f = f;
	e->fi = fi;
	e->v = xmalloc((size_t)(f->nval + 1) * sizeof *e->v);
	memset(e->v, 0, (size_t)(f->nval + 1) * sizeof *e->v);
	for (int i = 0; i < f->nval; i++)
		e->v[i].def = -1;
}

static int words_of(Type t)
{
	if (ty_is_struct(t)) {
		/* its fields', a struct's arrays none (a checkpoint keeps them
		 * from the loop's entry) */
		int n = 0;
		for (int k = 0; k < ty_nfield(t); k++)
			if (!ty_is_array(ty_field(t, k)->ty))
				n += words_of(ty_field(t, k)->ty);
		return n;
	}
	return ty_is_composite(t) ? ty_ncomp(t) : 1;
}

/* Mark the struct u and each struct it holds (nested too) with flag. */
static void mark_held(Emitter *e, Type u, uint8_t flag)
{
	if (!ty_is_struct(u))
		return;
	for (int i = 0; i < e->m->nst; i++)
		if (e->m->st[i] == u) {
			e->st[i] |= flag;
			break;
		}
	for (int k = 0; k < ty_nfield(u); k++)
		mark_held(e, ty_field(u, k)->ty, flag);
}

/* Mark each struct b keeps on the tape (ST_TAPES) or adds into an array
 * of structs, a gather of an adjoint (ST_ADDS), with the structs they
 * hold: one walk of a function's body for all the module's structs. */
static void mark_structs(Emitter *e, const Block *b, const Func *f)
{
	for (int i = 0; i < b->n; i++) {
		const Inst *in = &b->v[i];
		if (in->op == OP_TAPE_PUT)
			mark_held(e, f->val[in->arg[2]].ty, ST_TAPES);
		if (in->op == OP_BUILTIN && in->callee == BI_ATOMIC_ADD)
			mark_held(e, f->val[in->arg[in->narg - 1]].ty, ST_ADDS);
		mark_structs(e, &in->body, f);
		mark_structs(e, &in->els, f);
	}
}

/* ks_atomic_add_S for a struct S f adds into an array of structs (kdiff's
 * gather of an adjoint), before f, once: each float field atomically */
static void put_struct_add(Emitter *e, int i)
{
	Type t = e->m->st[i];
	const char *s = ty_name(t);
	if ((e->st[i] & (ST_ADDS | ST_GATHERED)) != ST_ADDS)
		return;
	e->st[i] |= ST_GATHERED;
	fprintf(e->out, "// adds v's float fields into *p, each atomically\n"
		"KS_FUNC void ks_atomic_add_%s(%s *p, %s v)\n{\n", s, s, s);
	for (int k = 0; k < ty_nfield(t); k++) {
		const Field *fd = ty_field(t, k);
		if (!ty_is_array(fd->ty) && ty_has_float(fd->ty))
			fprintf(e->out, "    ks_atomic_add_%s(&p->%s, v.%s);\n", ty_name(fd->ty), fd->name,
				fd->name);
	}
	fputs("}\n\n", e->out);
}

/* ks_tape_put_S and ks_tape_get_S for a struct S a loop of f keeps on
 * the tape, before f, once: its fields one after the other, as the
 * runtime keeps a vector */
static void put_struct_tape(Emitter *e, int i)
{
	Type t = e->m->st[i];
	FILE *out = e->out;
	if ((e->st[i] & (ST_TAPES | ST_TAPED)) != ST_TAPES)
		return;
	e->st[i] |= ST_TAPED;
	const char *s = ty_name(t);
	fprintf(out, "\n// a %s kept on the tape: its fields' words in order (its arrays stay)\n", s);
	fprintf(out, "KS_FUNC void ks_tape_put_%s(ks_tape *t, %s x)\n{\n", s, s);
	for (int k = 0; k < ty_nfield(t); k++) {
		const Field *fd = ty_field(t, k);
		if (!ty_is_array(fd->ty))
			fprintf(out, "    ks_tape_put_%s(t, x.%s);\n", ty_name(fd->ty), fd->name);
	}
	fprintf(out, "}\n\nKS_FUNC %s ks_tape_get_%s(ks_tape *t, const ks_trips *L, int off, %s x0)\n{\n",
		s, s, s);
	int off = 0;
	for (int k = 0; k < ty_nfield(t); k++) {
		const Field *fd = ty_field(t, k);
		if (ty_is_array(fd->ty))
			continue;
		if (off)
			fprintf(out, "    x0.%s = ks_tape_get_%s(t, L, off + %d, x0.%s);\n", fd->name,
				ty_name(fd->ty), off, fd->name);
		else
			fprintf(out, "    x0.%s = ks_tape_get_%s(t, L, off, x0.%s);\n", fd->name,
				ty_name(fd->ty), fd->name);
		off += words_of(fd->ty);
	}
	fputs("    return x0;\n}\n\n", out);
}

/* The tape's loop handles and the layout of each loop's checkpoint: the
 * values tape_put stores, in slot order, one word per int, bool or float
 * component. */
static void scan_tape(Emitter *e, const Block *b, int pass)
{
	for (int i = 0; i < b->n; i++) {
		const Inst *in = &b->v[i];
		if (pass == 0 && in->op == OP_TAPE_LOOP) {
			int id = e->f->val[in->arg[0]].k.i;
			e->hid[in->res[0]] = id;
			if (id >= e->ntl) {
				e->tl = xrealloc(e->tl, (size_t)(id + 1) * sizeof *e->tl);
				memset(e->tl + e->ntl, 0, (size_t)(id + 1 - e->ntl) * sizeof *e->tl);
				e->ntl = id + 1;
			}
		}
		if (pass == 1 && in->op == OP_TAPE_PUT && is_handle(e, in->arg[0])) {
			TapeLayout *l = &e->tl[e->hid[in->arg[0]]];
			int slot = e->f->val[in->arg[1]].k.i;
			if (slot >= l->nslot) {
				l->off = xrealloc(l->off, (size_t)(slot + 1) * sizeof *l->off);
				for (int k = l->nslot; k <= slot; k++)
					l->off[k] = 0;
				l->nslot = slot + 1;
			}
			l->off[slot] = words_of(vty(e, in->arg[2])); /* sizes, then offsets */
		}
		scan_tape(e, &in->body, pass);
		scan_tape(e, &in->els, pass);
	}
}

static void tape_layouts(Emitter *e, const Func *f)
{
	e->hid = xmalloc((size_t)(f->nval + 1) * sizeof *e->hid);
	for (int i = 0; i <= f->nval; i++)
		e->hid[i] = -1;
	e->ntl = 0;
	e->tl = NULL;
	scan_tape(e, &f->body, 0);
	scan_tape(e, &f->body, 1);
	for (int id = 0; id < e->ntl; id++) {
		TapeLayout *l = &e->tl[id];
		int off = 0;
		for (int k = 0; k < l->nslot; k++) {
			int w = l->off[k];
			l->off[k] = off;
			off += w;
		}
		l->width = off;
	}
}

static void analyse(Emitter *e, const Func *f, int fi)
{
	alloc_values(e, f, fi);
	e->rank = f->is_kernel ? ir_kernel_rank(f) : 1;
	tape_layouts(e, f);
	number_insts(e, f);
	drop_dead_code(e, f);
	fold_temps(e, f);
	name_locals(e, f);
	place_decls(e, f);
}

/* Free what analyse made for the function at hand. */
void release(Emitter *e)
{
	for (int i = 0; i < e->f->nval; i++) {
		free(e->v[i].fb);
		free(e->v[i].fi);
	}
	clear_names(&e->lnames);
	free(e->retname);
	e->retname = NULL;
	e->tapename = NULL;
	for (int id = 0; id < e->ntl; id++)
		free(e->tl[id].off);
	free(e->tl);
	e->tl = NULL;
	e->ntl = 0;
	free(e->hid);
	e->hid = NULL;
	free(e->v);
	free(e->hkey);
	free(e->hval);
	e->v = NULL;
	e->hkey = NULL;
	e->hval = NULL;
}

/* The unused-parameter warning of -Wextra: "(void)p;" for each param that
 * nothing reads. */
static void emit_unused_params(Emitter *e)
{
	for (int i = 0; i < e->f->nparam; i++) {
		int p = e->f->param[i];
		if (!e->v[p].uses) {
			fprintf(e->out, "    (void)%s;  // line %d: not used\n", e->v[p].name, e->f->loc.line);
		}
	}
}

/* How many of the thread's indices live instructions of b read. */
static int uses_tid(const Emitter *e, const Block *b)
{
	int n = 0;
	for (int i = 0; i < b->n; i++) {
		const Inst *in = &b->v[i];
		if (e->ii[inst_id(e, in)].dead)
			continue;
		if (in->op == OP_BUILTIN && in->callee == BI_TID && in->nres > n)
			n = in->nres;
		/* the tape of a 1-D launch is the thread's at tid; of an N-D
		 * one, at the thread's row-major index (a parameter of its own) */
		if (in->op == OP_TAPE_OPEN && e->rank == 1 && n < 1)
			n = 1;
		int m = uses_tid(e, &in->body), k = uses_tid(e, &in->els);
		n = m > n ? m : n;
		n = k > n ? k : n;
	}
	return n;
}

/* "int tid" in a 1-D launch, "int tid0, int tid1" in a 2-D one */
static void put_tid_params(Buf *b, int rank)
{
	if (rank == 1)
		buf_puts(b, "int tid");
	for (int k = 0; rank > 1 && k < rank; k++)
		buf_printf(b, "%sint tid%d", k ? ", " : "", k);
}

/* The parameters, but those skip marks. */
static void param_list_but(Emitter *e, Buf *b, const uint8_t *skip)
{
	int n = 0;
	for (int i = 0; i < e->f->nparam; i++) {
		int p = e->f->param[i];
		if (skip && skip[i])
			continue;
		if (n++)
			buf_puts(b, ", ");
		param_ctype(b, e->m, e->f, i);
		if (b->n && b->p[b->n - 1] != '*')
			buf_putc(b, ' ');
		buf_puts(b, e->v[p].name);
	}
}

static void param_list(Emitter *e, Buf *b) { param_list_but(e, b, NULL); }


/* Function fi: its structs' helpers, then its code. */
void emit_func(Emitter *e, int fi)
{
	const Func *f = e->m->fn[fi];
	int cuda = e->target == EMIT_CUDA;
	mark_structs(e, &f->body, f);
	for (int i = 0; i < e->m->nst; i++) {
		put_struct_tape(e, i);
		put_struct_add(e, i);
		e->st[i] &= ST_TAPED | ST_GATHERED;
	}
	analyse(e, f, fi);
	Buf b = {0};
	if (f->is_kernel) {
		if (f->backward)
			fprintf(e->out, "// backward (adjoint) of @wp.kernel %s, line %d: the body of one thread\n",
				f->name, f->loc.line);
		else
			fprintf(e->out, "// @wp.kernel %s, line %d: the body of one thread\n", f->name,
				f->loc.line);
		buf_printf(&b, "%s %s(", cuda ? "static __device__ void" : "static void", e->fname[fi]);
		put_tid_params(&b, e->rank);
		if (e->tapename && e->rank > 1)
			buf_printf(&b, ", int %s", e->threadname);
	} else {
		fprintf(e->out, "// @wp.func %s, line %d\n", f->name, f->loc.line);
		/* nvcc and NVRTC warn about a static function nobody calls (an
		 * adjoint kdiff appends for completeness, say); C compilers do
		 * not, for static inline */
		const char *q = !cuda ? "static inline"
			      : e->called[fi] ? "static __device__ inline"
					      : "[[maybe_unused]] static __device__ inline";
		if (f->nret == 1)
			buf_printf(&b, "%s %s %s(", q, ctype(f->ret[0]), e->fname[fi]);
		else
			buf_printf(&b, "%s void %s(", q, e->fname[fi]);
	}
	/* a backward kernel's thread function takes what it reads: the
	 * parameters of the forward kernel its adjoint has no use for stay
	 * in the entry */
	uint8_t *skip = NULL;
	if (f->backward) {
		skip = xmalloc((size_t)f->nparam + 1);
		for (int i = 0; i < f->nparam; i++)
			skip[i] = !e->v[f->param[i]].uses;
		free(e->unread[fi]);
		e->unread[fi] = skip;
	}
	int shown = 0;
	for (int i = 0; i < f->nparam; i++)
		shown += !(skip && skip[i]);
	if (f->is_kernel && shown)
		buf_puts(&b, ", ");
	else if (f->is_kernel && b.n >= 2 && !strcmp(b.p + b.n - 2, ", "))
		b.n -= 2, b.p[b.n] = 0;
	param_list_but(e, &b, skip);
	if (f->nret > 1)
		for (int k = 0; k < f->nret; k++)
			buf_printf(&b, "%s%s *%s", f->nparam || k ? ", " : "", ctype(f->ret[k]), e->retname[k]);
	if (!f->is_kernel && !f->nparam && f->nret <= 1)
		buf_puts(&b, "void");
	fprintf(e->out, "%s)\n{\n", b.p);
	buf_free(&b);
	for (int k = f->is_kernel ? uses_tid(e, &f->body) : e->rank; k < e->rank; k++)
		fprintf(e->out, "    (void)tid%s;  // line %d: not used\n",
			e->rank == 1 ? "" : (const char *[]){"0", "1", "2", "3"}[k], f->loc.line);
	if (!f->backward)
		emit_unused_params(e);
	emit_block(e, &f->body, 1, -1);
	fputs("}\n", e->out);
}

/* (void)p; in an entry for the parameters its thread function leaves out */
static void entry_unread(Emitter *e, const Func *f, const uint8_t *skip)
{
	for (int i = 0; skip && i < f->nparam; i++)
		if (skip[i])
			fprintf(e->out, "    (void)%s;  // the adjoint does not read it\n", e->v[f->param[i]].name);
}

/* The kernel's launch entry: NAME_cpu_forward / NAME_cuda_forward.  A
 * launch of R dimensions takes them as dim0 .. dimR-1 (a 1-D launch: dim)
 * and runs the thread function at every index, row-major: on the CPU in
 * nested loops, on the GPU a grid-stride loop over their product.  A
 * backward with a tape gets, after the indices, the thread's row-major
 * index, where its part of the tape lies. */
void emit_entry(Emitter *e, int fi)
{
	const Func *f = e->m->fn[fi];
	int cuda = e->target == EMIT_CUDA, r = ir_kernel_rank(f);
	alloc_values(e, f, fi);
	name_params(e);
	Buf b = {0}, a = {0}, d = {0}, t = {0};
	param_list(e, &b);
	const uint8_t *skip = f->backward ? e->unread[fi] : NULL;
	for (int i = 0; i < f->nparam; i++)
		if (!(skip && skip[i]))
			buf_printf(&a, ", %s", e->v[f->param[i]].name);
	const char *dir = f->backward ? "backward" : "forward";
	if (r == 1) {
		buf_puts(&d, "int dim");
	} else {
		for (int k = 0; k < r; k++)
			buf_printf(&d, "%sint dim%d", k ? ", " : "", k);
	}
	if (r == 1)
		fprintf(e->out, "// launch %s%s: threads 0 .. dim-1\n",
			f->backward ? "the backward of " : "", f->name);
	else
		fprintf(e->out, "// launch %s%s: a thread at each index of %s\n",
			f->backward ? "the backward of " : "", f->name,
			(const char *[]){"", "", "dim0 x dim1", "dim0 x dim1 x dim2",
					 "dim0 x dim1 x dim2 x dim3"}[r]);
	if (cuda) {
		fprintf(e->out, "extern \"C\" __global__ void %s_cuda_%s(%s%s%s)\n{\n", e->ebase[fi], dir, d.p,
			f->nparam ? ", " : "", b.n ? b.p : "");
		entry_unread(e, f, skip);
		if (r == 1) {
			fputs("    for (int tid = blockIdx.x * blockDim.x + threadIdx.x; tid < dim; "
			      "tid += blockDim.x * gridDim.x)\n", e->out);
			buf_puts(&t, "tid");
		} else {
			/* the index of thread tid along each dimension */
			fputs("    for (int tid = blockIdx.x * blockDim.x + threadIdx.x; tid < dim0", e->out);
			for (int k = 1; k < r; k++)
				fprintf(e->out, " * dim%d", k);
			fputs("; tid += blockDim.x * gridDim.x)\n", e->out);
			for (int k = 0; k < r; k++) {
				/* tid / (dim1 * dim2) % dim0: the product in parentheses */
				buf_printf(&t, "%stid", k ? ", " : "");
				if (k + 1 < r)
					buf_puts(&t, k + 2 < r ? " / (" : " / ");
				for (int j = k + 1; j < r; j++)
					buf_printf(&t, "%sdim%d", j > k + 1 ? " * " : "", j);
				if (k + 2 < r)
					buf_putc(&t, ')');
				if (k > 0)
					buf_printf(&t, " %% dim%d", k);
			}
		}
	} else {
		fprintf(e->out, "void %s_cpu_%s(%s%s%s)\n{\n", e->ebase[fi], dir, d.p, f->nparam ? ", " : "",
			b.n ? b.p : "");
		entry_unread(e, f, skip);
		if (r == 1) {
			fputs("    for (int tid = 0; tid < dim; tid++)\n", e->out);
			buf_puts(&t, "tid");
		}
		for (int k = 0; r > 1 && k < r; k++) {
			fprintf(e->out, "%*s    for (int tid%d = 0; tid%d < dim%d; tid%d++)\n", 4 * k, "", k,
				k, k, k);
			buf_printf(&t, "%stid%d", k ? ", " : "", k);
		}
	}
	if (r > 1 && ir_opens_tape(f)) {
		/* the thread's row-major index: tid on the GPU, from the
		 * indices on the CPU */
		if (cuda) {
			buf_puts(&t, ", tid");
		} else {
			buf_puts(&t, ", ");
			for (int k = 1; k + 1 < r; k++)
				buf_putc(&t, '(');
			buf_puts(&t, "tid0");
			for (int k = 1; k < r; k++)
				buf_printf(&t, " * dim%d + tid%d%s", k, k, k + 1 < r ? ")" : "");
		}
	}
	fprintf(e->out, "%*s        %s%s(%s%s);\n}\n", r > 1 && !cuda ? 4 * (r - 1) : 0, "",
		emit_cover ? "KS_COVER(-1, 0), " : "", e->fname[fi], t.p, a.n ? a.p : "");
	buf_free(&a);
	buf_free(&b);
	buf_free(&d);
	buf_free(&t);
}

/* ---- the module ---------------------------------------------------------------- */

static void put_comment_text(FILE *out, const char *s)
{
	for (const char *p = s; *p; p++) {
		if (p[0] == '*' && p[1] == '/')
			fputs("* ", out);
		else if ((unsigned char)*p < 32 || (unsigned char)*p >= 127)
			fputc('?', out);
		else
			fputc(*p, out);
	}
}

/* Names and the header; called (is each function called anywhere in
 * the module?) and fx sized for every function, fx filled as each
 * function comes. */
static void emit_begin(Emitter *e, FILE *out, const Module *m, int target, const uint8_t *called)
{
	memset(e, 0, sizeof *e);
	e->out = out;
	e->m = m;
	emit_checked = target == EMIT_CPU_CHECKED;
	e->target = emit_checked ? EMIT_CPU : target;
	int n = m->nfn ? m->nfn : 1;
	e->fx = xmalloc((size_t)n * sizeof *e->fx);
	e->called = xmalloc((size_t)n);
	memcpy(e->called, called, (size_t)m->nfn);
	e->unread = xmalloc((size_t)n * sizeof *e->unread);
	memset(e->unread, 0, (size_t)n * sizeof *e->unread);
	if (!(e->spool = tmpfile()))
		ks_fatal("temporary file:");
	name_globals(e);

	fprintf(out, "/*\n * Generated by ksynth (%s) from ",
		target == EMIT_CUDA ? "kemit-cu" : "kemit-cpu");
	put_comment_text(out, m->source ? m->source : "<stdin>");
	fputs(".\n * Do not edit: edit the source and run the pipeline again.\n */\n", out);
	if (emit_checked)
		fputs("#define KS_CHECKED 1 /* every array access checked against its shape */\n", out);
	fputs("#include \"ksynth.h\"\n", out);
	if (emit_cover)
		fputs("\n/* coverage: each way of each if, each run of a loop body and each\n"
		      " * thread's start (site -1) reported to ks_cover_hit, which krun --coverage\n"
		      " * sets */\n"
		      "#ifndef KS_COVER\n"
		      "#ifdef __cplusplus\n"
		      "extern \"C\" {\n"
		      "#endif\n"
		      "void (*ks_cover_hit)(int site, int way);\n"
		      "#ifdef __cplusplus\n"
		      "}\n"
		      "#endif\n"
		      "#define KS_COVER(site, way) (ks_cover_hit ? ks_cover_hit(site, way) : (void)0)\n"
		      "#endif\n", out);
	/* the structs, each after those it holds */
	for (int i = 0; i < m->nst; i++) {
		Type t = m->st[i];
		fprintf(out, "\n// @wp.struct %s\ntypedef struct %s {\n", ty_name(t), ty_name(t));
		if (!ty_nfield(t))
			fputs("    char unused; /* a struct of no fields, which C does not have */\n", out);
		for (int k = 0; k < ty_nfield(t); k++) {
			const Field *fd = ty_field(t, k);
			if (ty_is_array(fd->ty))
				fprintf(out, "    ks_array_%s %s;\n", ty_name(ty_elem(fd->ty)), fd->name);
			else
				fprintf(out, "    %s %s;\n", ctype(fd->ty), fd->name);
		}
		fprintf(out, "} %s;\n", ty_name(t));
		/* a view of an array of them, as ksynth.h's for its own types */
		fprintf(out, "typedef struct { %s *data; int shape[4]; } ks_array_%s;\n", ty_name(t),
			ty_name(t));
	}
	free(e->st);
	e->st = xmalloc((size_t)m->nst + 1);
	memset(e->st, 0, (size_t)m->nst + 1);
}

static void emit_free(Emitter *e)
{
	NameSet *sets[] = {&e->reserved, &e->reserved_global, &e->gnames, &e->lnames};
	for (size_t i = 0; i < KS_NELEM(sets); i++) {
		clear_names(sets[i]);
		free(sets[i]->slot);
	}
	for (int i = 0; e->ebase && i < e->m->nfn; i++)
		free(e->ebase[i]);
	free(e->ebase);
	free(e->fname);
	free(e->fx);
	free(e->called);
	for (int i = 0; e->unread && i < (e->m->nfn ? e->m->nfn : 1); i++)
		free(e->unread[i]);
	free(e->unread);
	free(e->ii);
	free(e->tree);
	free(e->decl);
	free(e->st);
	if (e->spool)
		fclose(e->spool);
	memset(e, 0, sizeof *e);
	emit_checked = 0;
}

/* Function fi, whose callees came before it: its code, and a kernel's
 * entry to the spool, which emit_end prints after the last function. */
static void emit_next(Emitter *e, int fi)
{
	const Func *f = e->m->fn[fi];
	FILE *out = e->out;
	e->fx[fi] = 0;
	block_fx(e, &f->body, &e->fx[fi]);
	fputc('\n', out);
	emit_func(e, fi);
	release(e);
	if (f->is_kernel) {
		e->out = e->spool;
		fputc('\n', e->out);
		emit_entry(e, fi);
		release(e);
		e->out = out;
	}
}

static void emit_end(Emitter *e)
{
	char buf[65536];
	size_t n;
	if (fflush(e->spool) || ferror(e->spool) || fseek(e->spool, 0, SEEK_SET))
		ks_fatal("temporary file: write error");
	while ((n = fread(buf, 1, sizeof buf, e->spool)) > 0)
		fwrite(buf, 1, n, e->out);
	if (ferror(e->spool))
		ks_fatal("temporary file: read error");
}

void emit_module(FILE *out, const Module *m, int target)
{
	uint8_t *called = xmalloc((size_t)m->nfn + 1);
	memset(called, 0, (size_t)m->nfn + 1);
	for (int i = 0; i < m->nfn; i++)
		block_calls(&m->fn[i]->body, called);
	Emitter e;
	emit_begin(&e, out, m, target, called);
	free(called);
	for (int i = 0; i < m->nfn; i++)
		emit_next(&e, i);
	emit_end(&e);
	emit_free(&e);
}

/* ---- the tools' main ------------------------------------------------------------ */

/* kemit-cpu --checked */
static int checked_flag(const char *arg, void *ctx)
{
	if (!strcmp(arg, "--coverage")) {
		emit_coverage(1);
		return 1;
	}
	if (strcmp(arg, "--checked"))
		return 0;
	*(int *)ctx = EMIT_CPU_CHECKED;
	return 1;
}

/* kemit-cpu and kemit-cu: the module is read, verified and emitted one
 * function at a time (ir/file.c), so memory does not grow with it. */
int emit_main(int argc, char **argv, const char *prog, int target)
{
	const char *in, *out;
	char usage[96];
	ks_prog = prog;
	snprintf(usage, sizeof usage, "%s %s[-o OUT] [FILE.kir | -]", prog,
		 target == EMIT_CPU ? "[--checked] [--coverage] " : "");
	ks_args(argc, argv, usage, target == EMIT_CPU ? checked_flag : NULL, &target, &in, &out);
	IrFile r;
	Module *m = ir_file_open(&r, in);
	FILE *f = out_open_spool(out);
	Emitter e;
	emit_begin(&e, f, m, target, r.called);
	for (int fi; (fi = ir_file_next(&r)) >= 0;) {
		ir_verify_func(m, &r.src, 0, fi);
		emit_next(&e, fi);
		ir_file_drop(&r, fi);
	}
	emit_end(&e);
	if (fflush(f) || ferror(f))
		ks_fatal("write error:");
	out_commit();
	emit_free(&e);
	ir_file_close(&r);
	return 0;
}
