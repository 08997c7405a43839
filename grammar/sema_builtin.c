/*
 * sema_builtin.c: the wp.NAME calls that are the language's rather than
 * rows of the builtin table — wp.where, wp.extract, wp.cast, the generic
 * constructors wp.vector, wp.matrix, wp.quaternion and wp.transformation,
 * wp.printf and print — lowered to the IR's own operations (select,
 * extract, bitcast, make, printf); wp.select, gone from Warp, is refused
 * with its replacement.
 *
 * wp.printf's format is a Python string literal, decoded here (escapes,
 * raw strings, adjacent literals joined) and checked conversion by
 * conversion against the values that follow (ir_printf_convs); print(x)
 * builds the format for Warp's print of x's type.  A generic constructor
 * settles its type (dtype, else the first component's) and shape, then
 * makes the value as wp.vec3(...) would (make, sema_call.c).
 */
#include <stdlib.h>
#include <string.h>

#include "sema.h"

/* The argument nodes of wp.NAME(...) in the order of pname[0..np), by
 * position or keyword (Warp's parameter names). */
static void lang_args(Sema *s, Node *e, const char *name, const char *const *pname, int np, Node **node)
{
	char what[64];
	snprintf(what, sizeof what, "wp.%s", name);
	bind_args(s, e, what, pname, np, NULL, node);
}

/* wp.where(cond, value_if_true, value_if_false): cond a bool or an int
 * (non-zero is true); both values evaluated, as Warp does, and of one
 * type.  The adjoint goes to the value chosen (a select in the IR). */
static int where_value(Sema *s, Node *e, Target *t)
{
	static const char *const pname[] = {"cond", "value_if_true", "value_if_false"};
	Node *node[3];
	lang_args(s, e, "where", pname, 3, node);
	if (node[0]->kind == N_NAME && array_of(s, node[0]) >= 0)
		ERR(node[0], "wp.where() on an array (a test for a null array) is not supported");
	int c = cond(s, node[0], "the condition of wp.where()");
	int a = expr(s, node[1], NULL), b = expr(s, node[2], NULL);
	Type ta[3] = {TY_BOOL, ty_of(s, a), ty_of(s, b)};
	Type r = ir_op_type(OP_SELECT, ta, 3, TY_VOID);
	if (r == TY_VOID && ta[1] != ta[2])
		ERR(e,
		    "wp.where(): value_if_true is %s and value_if_false %s; they must be of one "
		    "type%s",
		    uty(ta[1]), uty(ta[2]), conv_hint(ta[1], ta[2]));
	if (r == TY_VOID)
		ERR(e, "wp.where() cannot choose between arrays");
	int32_t args[3] = {c, a, b};
	return emit_val(s, e, OP_SELECT, r, args, 3, t);
}

/* wp.extract(a, i): a[i] of a vector, quaternion or transform, a[i] (a
 * row) of a matrix; wp.extract(m, i, j): m[i, j]. */
static int extract_value(Sema *s, Node *e, Target *t)
{
	int n = e->nkid - 1;
	if (n != 2 && n != 3)
		ERR(e, "wp.extract() takes 2 or 3 arguments (%d given)", n);
	for (int i = 1; i <= n; i++)
		if (e->kid[i]->kind == N_KWARG)
			ERR(e->kid[i], "wp.extract() takes no keyword arguments");
	int v = expr(s, e->kid[1], NULL);
	Type tv = ty_of(s, v);
	if (!ty_is_composite(tv))
		ERR(e->kid[1], "wp.extract() takes a vector, matrix, quaternion or transform, not %s", uty(tv));
	if (n == 3 && !ty_is_mat(tv))
		ERR(e, "wp.extract() with two indices takes a matrix, not %s", uty(tv));
	int32_t a[3] = {v};
	for (int i = 1; i < n; i++)
		a[i] = index_val(s, e->kid[i + 1], i == 1 ? ty_rows(tv) : ty_cols(tv), tv);
	Type ta[3] = {tv, TY_INT, TY_INT};
	return emit_val(s, e, OP_EXTRACT, ir_op_type(OP_EXTRACT, ta, n, TY_VOID), a, n, t);
}

/* wp.vector(*components, length=N, dtype=T), wp.matrix(*components,
 * shape=(N, M), dtype=T), wp.quaternion(*components, dtype=T),
 * wp.transformation(p, q, dtype=T): the named type of that shape, made as
 * wp.vec3(...) and the like make it.  Without a dtype the components'
 * type is taken (a literal's float32 or int32); without a length or shape
 * their count. */
static int generic_make(Sema *s, Node *e, const char *name, Target *t)
{
	int kind = name[0] == 'v' ? TK_VEC : name[0] == 'm' ? TK_MAT : name[0] == 'q' ? TK_QUAT : TK_XFORM;
	int rows = -1, cols = 0, npos = 0;
	Type sc = TY_VOID;
	Node *pos[MAXOPS];
	for (int i = 1; i < e->nkid; i++) {
		Node *x = e->kid[i];
		if (x->kind != N_KWARG) {
			if (npos == MAXOPS)
				ERR(x, "too many arguments in one call");
			pos[npos++] = x;
		} else if (!strcmp(x->name, "dtype")) {
			sc = ann_type(s, x->kid[0]);
			if (!ty_is_scalar(sc))
				ERR(x->kid[0], "dtype must be a number type, not %s", uty(sc));
		} else if (kind == TK_VEC && !strcmp(x->name, "length")) {
			rows = const_int(s, x->kid[0], "length");
		} else if (kind == TK_MAT && !strcmp(x->name, "shape")) {
			Node *sh = x->kid[0];
			if (sh->kind != N_TUPLE || sh->nkid != 2)
				ERR(sh, "shape must be a tuple of two ints, (rows, cols)");
			rows = const_int(s, sh->kid[0], "shape");
			cols = const_int(s, sh->kid[1], "shape");
		} else {
			ERR(x, "wp.%s() has no parameter '%s'", name, x->name);
		}
	}
	/* the scalar type: dtype, else the first argument's */
	int32_t first = -1;
	if (sc == TY_VOID && npos > 0) {
		first = expr(s, pos[0], NULL);
		sc = ty_scalar(ty_of(s, first));
		if (!ty_is_scalar(sc))
			ERR(pos[0], "wp.%s() components must be numbers, not %s", name, uty(ty_of(s, first)));
		if (kind != TK_VEC && kind != TK_MAT && !ty_is_float(sc))
			ERR(pos[0], "wp.%s() takes float components, not %s", name, uty(sc));
	}
	if (sc == TY_VOID)
		sc = TY_FLOAT;
	Type want;
	if (kind == TK_QUAT || kind == TK_XFORM) {
		want = ty_find(kind, sc, kind == TK_QUAT ? 4 : 7, 1);
		if (want == TY_VOID)
			ERR(e,
			    "wp.%s() of %s: quaternions and transforms are of float16, float32 or "
			    "float64",
			    name, uty(sc));
	} else {
		if (kind == TK_VEC && rows < 0)
			rows = npos == 1 && first >= 0 && ty_is_vec(ty_of(s, first)) ? ty_rows(ty_of(s, first))
										     : npos;
		if (kind == TK_MAT && rows < 0) {
			if (npos == 1 && first >= 0 && ty_is_mat(ty_of(s, first))) {
				rows = ty_rows(ty_of(s, first));
				cols = ty_cols(ty_of(s, first));
			} else {
				int k = 2;
				while (k * k < npos)
					k++;
				if (k * k != npos)
					ERR(e, "wp.matrix() needs shape=(rows, cols) for %d components", npos);
				rows = cols = k;
			}
		}
		if (rows < 1 || (kind == TK_MAT && cols < 1))
			ERR(e, "wp.%s() needs %s", name, kind == TK_MAT ? "shape=(rows, cols)" : "length=N");
		want = shaped_type(s, e, rows, cols, sc);
	}
	/* the components, as wp.vec3(...) would take them */
	Node call = *e;
	Node *kids[MAXOPS + 1];
	kids[0] = e->kid[0];
	for (int i = 0; i < npos; i++)
		kids[i + 1] = pos[i];
	call.kid = kids;
	call.nkid = npos + 1;
	if (first < 0)
		return make(s, &call, want, t);
	/* the first argument is evaluated already: the same forms as make() */
	Type tf = ty_of(s, first);
	int32_t a[MAXOPS] = {first};
	if (npos == 1 && tf == want)
		return first;
	if (npos == 1 && ty_is_composite(tf)) {
		if (ir_op_type(OP_CONV, &tf, 1, want) == TY_VOID)
			ERR(pos[0], "cannot make %s from %s", uty(want), uty(tf));
		return emit_val(s, e, OP_CONV, want, a, 1, t);
	}
	if (ty_is_xform(want) && npos == 2) {
		a[1] = expr(s, pos[1], NULL);
		Type ty[2] = {tf, ty_of(s, a[1])};
		if (ir_op_type(OP_MAKE, ty, 2, want) == TY_VOID)
			ERR(e, "wp.transformation(p, q) takes a %s and a %s, not %s and %s",
			    uty(ty_find(TK_VEC, sc, 3, 1)), uty(ty_find(TK_QUAT, sc, 4, 1)), uty(ty[0]),
			    uty(ty[1]));
		return emit_val(s, e, OP_MAKE, want, a, 2, t);
	}
	if (npos != 1 && npos != ty_ncomp(want))
		ERR(e, "wp.%s() takes 0, 1 or %d components (%d given)", name, ty_ncomp(want), npos);
	for (int i = 1; i < npos; i++)
		a[i] = component_arg(s, pos[i], want, name);
	return emit_val(s, e, OP_MAKE, want, a, npos, t);
}

/* an error in a string literal: the text gathered so far is freed first,
 * since the error may longjmp to a caller that goes on (ks_recover) */
#define STR_ERR(...)              \
	do {                      \
		buf_free(b);      \
		ERR(__VA_ARGS__); \
	} while (0)

/* The bytes of a string literal node (adjacent literals joined, as
 * Python joins them), into b.  Escapes are Python's; a raw string keeps
 * its backslashes; f-strings, bytes and non-ASCII are refused. */
void py_string(Sema *s, Node *n, Buf *b)
{
	const char *p = n->name;
	while (*p) {
		if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\\' || *p == '(' || *p == ')') {
			p++;
			continue;
		}
		if (*p == '#') {
			while (*p && *p != '\n')
				p++;
			continue;
		}
		int raw = 0;
		for (; *p && strchr("rRuUbBfF", *p); p++) {
			if (strchr("bBfF", *p))
				STR_ERR(n, "%s are not supported in kernels",
					strchr("bB", *p) ? "bytes literals" : "f-strings");
			raw |= *p == 'r' || *p == 'R';
		}
		char q = *p;
		int triple = p[1] == q && p[2] == q;
		p += triple ? 3 : 1;
		while (*p && !(*p == q && (!triple || (p[1] == q && p[2] == q)))) {
			unsigned char c = (unsigned char)*p++;
			if (c >= 0x80)
				STR_ERR(n, "only ASCII is supported in a format string");
			if (c != '\\' || raw) {
				buf_putc(b, c);
				if (c == '\\' && *p)
					buf_putc(b, *p++); /* r"\"" keeps both */
				continue;
			}
			c = (unsigned char)*p++;
			switch (c) {
			/* clang-format off */
			case 'n': buf_putc(b, '\n'); break;
			case 't': buf_putc(b, '\t'); break;
			case 'r': buf_putc(b, '\r'); break;
			case 'a': buf_putc(b, '\a'); break;
			case 'b': buf_putc(b, '\b'); break;
			case 'f': buf_putc(b, '\f'); break;
			case 'v': buf_putc(b, '\v'); break;
			case '\n': break;
			case '\\': case '\'': case '"': buf_putc(b, c); break;
			/* clang-format on */
			case 'x': {
				char hex[3] = {p[0], p[0] ? p[1] : 0, 0};
				char *end;
				long v = strtol(hex, &end, 16);
				if (end != hex + 2)
					STR_ERR(n, "a \\x escape takes two hex digits");
				buf_putc(b, (int)v);
				p += 2;
				break;
			}
			default:
				if (c >= '0' && c <= '7') {
					int v = c - '0';
					for (int k = 0; k < 2 && *p >= '0' && *p <= '7'; k++)
						v = v * 8 + (*p++ - '0');
					buf_putc(b, v & 0xff);
				} else if (c == 'u' || c == 'U' || c == 'N') {
					STR_ERR(n, "only ASCII is supported in a format string");
				} else {
					buf_putc(b, '\\');
					buf_putc(b, c);
				}
			}
		}
		p += *p ? (triple ? 3 : 1) : 0;
	}
}

#undef STR_ERR

/* printf fmt, args: one instruction of the function being built */
static void emit_printf(Sema *s, Node *at, const char *fmt, const int32_t *a, int n)
{
	emit(s, at, OP_PRINTF, NULL, 0, a, n)->callee = ir_string(s->m, fmt);
}

/* wp.printf(fmt, *args): Warp's C printf, to the log (krun's stderr).
 * The conversions must match the arguments: %d %i %u %x %o %c take ints
 * (with hh, h, l or ll), %f %e %g %a floats; %s, %p and %n none. */
static void printf_call(Sema *s, Node *e)
{
	if (e->nkid < 2 || e->kid[1]->kind != N_STRING)
		ERR(e, "wp.printf() takes a format string, then the values it prints");
	Buf fmt = {0};
	py_string(s, e->kid[1], &fmt);
	buf_putc(&fmt, 0);
	if (memchr(fmt.p, 0, fmt.n - 1)) {
		buf_free(&fmt);
		ERR(e->kid[1], "a format string cannot hold a NUL");
	}
	char *text = arena_strdup(s->a, fmt.p);
	buf_free(&fmt);
	IrConv cv[MAXOPS];
	int bad, n = e->nkid - 2;
	int nc = ir_printf_convs(text, cv, MAXOPS, &bad);
	if (nc < 0) {
		/* the conversion: up to its letter, on one line */
		int len = 1;
		while (text[bad + len] && len < 12 && text[bad + len] >= ' ' &&
		       !strchr("diuoxXcfFeEgGaAspn*", text[bad + len]))
			len++;
		len += text[bad + len] >= ' ' && len < 12;
		ERR(e->kid[1],
		    "wp.printf(): the conversion '%.*s' is not supported (%%d %%i %%u %%x "
		    "%%o %%c %%f %%e %%g %%a, with hh h l ll for ints)",
		    len, text + bad);
	}
	if (n > 32)
		ERR(e->kid[2 + 32], "wp.printf() takes at most 32 values after its format (%d given)", n);
	if (nc != n)
		ERR(e, "wp.printf(): the format has %d conversion%s and %d value%s follow%s", nc,
		    nc == 1 ? "" : "s", n, n == 1 ? "" : "s", n == 1 ? "s" : "");
	int32_t a[MAXOPS];
	for (int i = 0; i < n; i++) {
		Node *x = e->kid[i + 2];
		if (x->kind == N_KWARG)
			ERR(x, "wp.printf() takes no keyword arguments");
		a[i] = expr(s, x, NULL);
		Type t = ty_of(s, a[i]);
		if (!ty_is_scalar(t) && t != TY_BOOL)
			ERR(x, "wp.printf() prints numbers, not %s (print its components)", uty(t));
		if ((cv[i].cls == 'f') != ty_is_float(t))
			ERR(x, "wp.printf(): conversion %d is for %s, and this is %s", i + 1,
			    cv[i].cls == 'f' ? "a float" : "an int", uty(t));
	}
	emit_printf(s, e, text, a, n);
}

/* print(x): Warp's print of a value, one line (a matrix: one a row).
 * Floats as %g (a composite's components as float32), ints in decimal,
 * bools as True and False. */
static void print_value(Sema *s, Node *e, int v)
{
	Type t = ty_of(s, v);
	int32_t a[36];
	const Value *x = &s->f->val[v];
	if (t == TY_BOOL && x->kind == VK_CONST) {
		emit_printf(s, e, x->k.i ? "True\n" : "False\n", NULL, 0);
		return;
	}
	if (t == TY_BOOL) {
		Inst *in = emit(s, e, OP_IF, NULL, 0, (int32_t[]){v}, 1);
		Block tb = {0}, eb = {0}, *old = s->blk;
		s->blk = &tb;
		emit_printf(s, e, "True\n", NULL, 0);
		s->blk = &eb;
		emit_printf(s, e, "False\n", NULL, 0);
		s->blk = old;
		in = &s->blk->v[s->blk->n - 1];
		in->body = tb;
		in->els = eb;
		return;
	}
	if (ty_is_scalar(t)) {
		const char *f = ty_is_float(t)      ? "%g\n"
				: t == TY_INT64     ? "%lld\n"
				: t == TY_UINT64    ? "%llu\n"
				: ty_is_unsigned(t) ? "%u\n"
						    : "%d\n";
		emit_printf(s, e, f, (int32_t[]){v}, 1);
		return;
	}
	/* a composite: every component as float32 */
	int n = ty_ncomp(t), cols = ty_is_mat(t) ? ty_cols(t) : n;
	Buf fmt = {0};
	for (int k = 0; k < n; k++) {
		int32_t ix[3] = {v, ir_const_int(s->m, s->f, ty_is_mat(t) ? k / cols : k),
				 ir_const_int(s->m, s->f, k % cols)};
		Type ta[3] = {t, TY_INT, TY_INT};
		int ni = ty_is_mat(t) ? 3 : 2;
		int c = emit_val(s, e, OP_EXTRACT, ir_op_type(OP_EXTRACT, ta, ni, TY_VOID), ix, ni, NULL);
		if (ty_of(s, c) != TY_FLOAT) {
			int32_t r = ir_temp(s->m, s->f, TY_FLOAT);
			emit(s, e, OP_CONV, &r, 1, (int32_t[]){c}, 1);
			c = r;
		}
		a[k] = c;
		if (ty_is_xform(t))
			buf_puts(&fmt, k == 0 ? "(%g" : k == 3 ? ") (%g" : " %g");
		else if (ty_is_quat(t))
			buf_puts(&fmt, k ? " %g" : "%g");
		else
			buf_puts(&fmt, "%g ");
		if (ty_is_xform(t) && k == n - 1)
			buf_putc(&fmt, ')');
		if ((ty_is_mat(t) && k % cols == cols - 1) || (!ty_is_mat(t) && k == n - 1))
			buf_putc(&fmt, '\n');
	}
	buf_putc(&fmt, 0);
	emit_printf(s, e, fmt.p, a, n);
	buf_free(&fmt);
}

void print_call(Sema *s, Node *e)
{
	if (e->nkid != 2 || e->kid[1]->kind == N_KWARG)
		ERR(e, "print() takes one value in a kernel");
	Node *x = e->kid[1];
	if (array_of(s, x) >= 0)
		ERR(x, "print() of an array is not supported; print its elements");
	print_value(s, e, expr(s, x, NULL));
}

/* The largest absolute difference of a and b's components (of one float
 * type), as Warp's expect_near takes it: max(diff, |a_k - b_k|) from 0. */
static int max_abs_diff(Sema *s, Node *e, int a, int b)
{
	Type t = ty_of(s, a), sc = ty_scalar(t);
	int n = ty_ncomp(t), cols = ty_is_mat(t) ? ty_cols(t) : n;
	int diff = -1;
	for (int k = 0; k < n; k++) {
		int32_t d;
		if (n == 1) {
			d = binop(s, e, B_SUB, a, b, NULL, 0);
		} else {
			int ni = ty_is_mat(t) ? 3 : 2;
			int32_t c[2];
			for (int i = 0; i < 2; i++) {
				int32_t ix[3] = {i ? b : a, ir_const_int(s->m, s->f, ty_is_mat(t) ? k / cols : k),
						 ir_const_int(s->m, s->f, k % cols)};
				c[i] = emit_val(s, e, OP_EXTRACT, sc, ix, ni, NULL);
			}
			d = binop(s, e, B_SUB, c[0], c[1], NULL, 0);
		}
		int ad = builtin_val(s, e, "abs", &d, 1, NULL, 1);
		if (diff < 0 && n == 1) {
			diff = ad;
			continue;
		}
		if (diff < 0)
			diff = ir_const(s->m, s->f, sc, 0, 0);
		diff = builtin_val(s, e, "max", (int32_t[]){diff, ad}, 2, NULL, 1);
	}
	return diff;
}

/* wp.expect_eq(a, b), wp.expect_neq(a, b), wp.expect_near(a, b,
 * tolerance=1e-6): Warp's checks.  Each prints Warp's message to the log
 * when it fails (the expected value is b, the actual a) and goes on; none
 * has a gradient.  eq and neq compare two values of one type (a scalar,
 * bool, vector or matrix) as == does; near, two floats, float vectors,
 * quaternions or matrices of one type by their largest absolute
 * difference, against a tolerance of their scalar type. */
static void expect_call(Sema *s, Node *e, const char *name)
{
	static const char *const pname[] = {"a", "b", "tolerance"};
	int near = !strcmp(name, "expect_near");
	Node *node[3];
	Node *dflt[3] = {NULL, NULL, e};
	char what[32];
	snprintf(what, sizeof what, "wp.%s", name);
	bind_args(s, e, what, pname, near ? 3 : 2, near ? dflt : NULL, node);
	for (int i = 0; i < 2; i++)
		if (array_of(s, node[i]) >= 0)
			ERR(node[i], "%s() compares values, not arrays", what);
	int a = expr(s, node[0], NULL), b = expr(s, node[1], NULL);
	Type t = ty_of(s, a);
	if (ty_of(s, b) != t)
		ERR(e, "%s(): a is %s and b %s; they must be of one type", what, uty(t), uty(ty_of(s, b)));
	int fails, tol = -1, diff = -1;
	if (near) {
		if (!ty_is_floaty(t) || ty_is_xform(t))
			ERR(node[0], "%s() takes floats, float vectors, quaternions or matrices, not %s", what,
			    uty(t));
		Type sc = ty_scalar(t);
		tol = node[2] ? expr(s, node[2], NULL) : ir_const(s->m, s->f, sc, 0, 1.0e-6);
		if (ty_of(s, tol) != sc)
			ERR(node[2], "%s(): the tolerance is %s; it must be %s, the scalar type of the values",
			    what, uty(ty_of(s, tol)), uty(sc));
		diff = max_abs_diff(s, e, a, b);
		fails = emit_val(s, e, OP_GT, TY_BOOL, (int32_t[]){diff, tol}, 2, NULL);
	} else {
		if (!ty_is_scalar(t) && t != TY_BOOL && !ty_is_vec(t) && !ty_is_mat(t))
			ERR(node[0], "%s() compares numbers, bools, vectors or matrices, not %s", what, uty(t));
		/* a != b where it is !(a == b) (numbers); else as Warp, !(a == b) */
		int32_t c[2] = {a, b};
		int eq = !strcmp(name, "expect_eq");
		if (eq && (ty_is_scalar(t) || t == TY_BOOL)) {
			fails = emit_val(s, e, OP_NE, TY_BOOL, c, 2, NULL);
		} else {
			fails = emit_val(s, e, OP_EQ, TY_BOOL, c, 2, NULL);
			if (eq)
				fails = emit_val(s, e, OP_NOT, TY_BOOL, &fails, 1, NULL);
		}
	}
	emit(s, e, OP_IF, NULL, 0, (int32_t[]){fails}, 1);
	Block tb = {0}, *old = s->blk;
	s->blk = &tb;
	if (near) {
		emit_printf(s, e, "Error, expect_near() failed with tolerance ", NULL, 0);
		print_value(s, e, tol);
		emit_printf(s, e, "    Expected: ", NULL, 0);
		print_value(s, e, b);
		emit_printf(s, e, "    Actual: ", NULL, 0);
		print_value(s, e, a);
		emit_printf(s, e,
			    ty_is_float(t) ? "    Absolute difference: " : "    Max absolute difference: ", NULL,
			    0);
		print_value(s, e, diff);
	} else {
		char head[48];
		snprintf(head, sizeof head, "Error, %s() failed:\n", name);
		emit_printf(s, e, head, NULL, 0);
		emit_printf(s, e, "\t Expected: ", NULL, 0);
		print_value(s, e, b);
		emit_printf(s, e, "\t Actual: ", NULL, 0);
		print_value(s, e, a);
	}
	s->blk = old;
	s->blk->v[s->blk->n - 1].body = tb;
}

/* wp.cast(a, dtype): a's bits as a dtype of the same size (Warp's
 * reinterpretation, no conversion); no gradient. */
static int cast_value(Sema *s, Node *e, Target *t)
{
	static const char *const pname[] = {"a", "dtype"};
	Node *node[2];
	lang_args(s, e, "cast", pname, 2, node);
	Type want = ann_type(s, node[1]);
	if (ty_is_array(want))
		ERR(node[1], "wp.cast() makes a value, not an array");
	int v = expr(s, node[0], NULL);
	Type tv = ty_of(s, v);
	if (ty_is_array(tv))
		ERR(node[0], "wp.cast() of an array is not supported");
	if (tv == want)
		return v;
	int32_t a[1] = {v};
	if (ir_op_type(OP_BITCAST, &tv, 1, want) == TY_VOID)
		ERR(e,
		    "wp.cast(): %s has %d bytes and %s %d; a cast keeps the bits, so the sizes must "
		    "be equal",
		    uty(tv), ty_info(tv)->size, uty(want), ty_info(want)->size);
	return emit_val(s, e, OP_BITCAST, want, a, 1, t);
}

/* The wp.NAME calls that are language rather than rows of builtins.h;
 * -2 when NAME is none of them. */
int lang_call(Sema *s, Node *e, const char *name, Target *t, int want)
{
	if (!strcmp(name, "where"))
		return where_value(s, e, t);
	if (!strcmp(name, "static"))
		return static_value(s, e);
	if (!strcmp(name, "extract"))
		return extract_value(s, e, t);
	if (!strcmp(name, "cast"))
		return cast_value(s, e, t);
	if (!strcmp(name, "vector") || !strcmp(name, "matrix") || !strcmp(name, "quaternion") ||
	    !strcmp(name, "transformation"))
		return generic_make(s, e, name, t);
	if (!strcmp(name, "printf") || !strcmp(name, "print")) {
		if (want)
			ERR(e, "wp.%s() does not return a value", name);
		if (!strcmp(name, "printf"))
			printf_call(s, e);
		else
			print_call(s, e);
		return -1;
	}
	if (!strcmp(name, "transform_set_translation") || !strcmp(name, "transform_set_rotation")) {
		if (want)
			ERR(e, "wp.%s() does not return a value", name);
		set_xform_part(s, e, name, name[14] == 'r');
		return -1;
	}
	if (!strcmp(name, "expect_eq") || !strcmp(name, "expect_neq") || !strcmp(name, "expect_near")) {
		if (want)
			ERR(e, "wp.%s() does not return a value", name);
		expect_call(s, e, name);
		return -1;
	}
	if (!strcmp(name, "select"))
		ERR(e, "wp.select() has been removed from Warp (1.10); use wp.where(cond, "
		       "value_if_true, value_if_false), whose last two arguments are in the other order");
	return -2;
}
