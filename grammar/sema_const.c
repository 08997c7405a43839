/*
 * sema_const.c: module constants — an evaluator of the module-level
 * expressions Warp captures as constants: numbers, True and False, the
 * constants above, arithmetic, comparisons, and/or of bools, math.pi and
 * the like, math and numpy functions, min, max, abs, round,
 * wp.constant(x), wp.float64(x), wp.vec3(...).  wp.static(x) in a kernel
 * is evaluated by it too (sema_expr.c).
 *
 * A Python number keeps Python's value and rules (ints exact, / true
 * division, // and % rounding toward minus infinity) until a function
 * reads it and it becomes int32, float32 or bool, as Warp captures it; a
 * wp type's value is converted once, when it is made.  Anything else is
 * no constant (0), and the module leaves its name for an error where a
 * function reads it.
 */
#include <math.h>
#include <string.h>

#include "sema.h"

/* Python's value of a number constant as a double. */
static double cnum(const Const *c) { return c->ty == TY_FLOAT ? c->v[0] : (double)c->i; }

static void set_int(Sema *s, Node *at, Const *c, long double v)
{
	if (v > 9.2e18L || v < -9.2e18L)
		ERR(at, "the constant is too large");
	c->py = 1;
	c->ty = TY_INT;
	c->i = (int64_t)v;
}

static void set_float(Const *c, double x)
{
	c->py = 1;
	c->ty = TY_FLOAT;
	c->v[0] = x;
}

/* a OP b on Python numbers, with Python's rules: int arithmetic exact,
 * / true division, // and % rounding toward minus infinity. */
static int const_binop(Sema *s, Node *e, Const *c)
{
	Const a, b;
	if (!const_eval(s, e->kid[0], &a) || !const_eval(s, e->kid[1], &b) || !a.py || !b.py)
		return 0;
	int ints = a.ty != TY_FLOAT && b.ty != TY_FLOAT;
	double x = cnum(&a), y = cnum(&b);
	int64_t i = a.i, j = b.i;
	memset(c, 0, sizeof *c);
	if ((e->op == B_DIV || e->op == B_FLOORDIV || e->op == B_MOD) && y == 0)
		ERR(e, "division by zero in a module constant");
	/* clang-format off */
	switch (e->op) {
	case B_ADD: ints ? set_int(s, e, c, (long double)i + j) : set_float(c, x + y); return 1;
	case B_SUB: ints ? set_int(s, e, c, (long double)i - j) : set_float(c, x - y); return 1;
	case B_MUL: ints ? set_int(s, e, c, (long double)i * j) : set_float(c, x * y); return 1;
	case B_DIV: set_float(c, x / y); return 1;
	case B_FLOORDIV:
		if (ints)
			set_int(s, e, c, (long double)(i / j - ((i % j != 0) && ((i < 0) != (j < 0)))));
		else
			set_float(c, floor(x / y));
		return 1;
	case B_MOD:
		if (ints) {
			int64_t r = i % j;
			set_int(s, e, c, (long double)(r != 0 && ((r < 0) != (j < 0)) ? r + j : r));
		} else {
			double r = fmod(x, y);
			set_float(c, r != 0 && ((r < 0) != (y < 0)) ? r + y : r);
		}
		return 1;
	case B_POW:
		if (ints && j >= 0)
			set_int(s, e, c, powl((long double)i, (long double)j));
		else
			set_float(c, pow(x, y));
		return 1;
	}
	/* clang-format on */
	if (!ints)
		return 0;
	/* clang-format off */
	switch (e->op) {
	case B_BITAND: set_int(s, e, c, (long double)(i & j)); return 1;
	case B_BITOR: set_int(s, e, c, (long double)(i | j)); return 1;
	case B_BITXOR: set_int(s, e, c, (long double)(i ^ j)); return 1;
	case B_SHL:
		if (j < 0 || j > 62)
			return 0;
		set_int(s, e, c, (long double)i * (long double)((int64_t)1 << j));
		return 1;
	case B_SHR:
		if (j < 0)
			return 0;
		set_int(s, e, c, (long double)(j > 62 ? (i < 0 ? -1 : 0) : i >> j));
		return 1;
	}
	/* clang-format on */
	return 0;
}

/* math.f(x) and numpy's twins, in double, for module constants */
static int const_math(const char *name, int n, const double *x, double *r)
{
	/* clang-format off */
	static const struct {
		const char *name;
		double (*f1)(double);
		double (*f2)(double, double);
	} fn[] = {
		{"sqrt", sqrt, NULL}, {"sin", sin, NULL}, {"cos", cos, NULL}, {"tan", tan, NULL},
		{"asin", asin, NULL}, {"acos", acos, NULL}, {"atan", atan, NULL}, {"exp", exp, NULL},
		{"log", log, NULL}, {"log2", log2, NULL}, {"log10", log10, NULL},
		{"sinh", sinh, NULL}, {"cosh", cosh, NULL}, {"tanh", tanh, NULL},
		{"floor", floor, NULL}, {"ceil", ceil, NULL}, {"fabs", fabs, NULL},
		{"radians", NULL, NULL}, {"degrees", NULL, NULL},
		{"atan2", NULL, atan2}, {"pow", NULL, pow}, {"hypot", NULL, hypot},
	};
	/* clang-format on */
	for (size_t i = 0; i < KS_NELEM(fn); i++) {
		if (strcmp(fn[i].name, name))
			continue;
		if (n == 1 && !strcmp(name, "radians"))
			*r = x[0] * (3.14159265358979323846 / 180.0);
		else if (n == 1 && !strcmp(name, "degrees"))
			*r = x[0] * (180.0 / 3.14159265358979323846);
		else if (n == 1 && fn[i].f1)
			*r = fn[i].f1(x[0]);
		else if (n == 2 && fn[i].f2)
			*r = fn[i].f2(x[0], x[1]);
		else
			return 0;
		return 1;
	}
	return 0;
}

/* Is the name the module imported math or numpy as? */
int is_module(const Node *n, const char *as) { return as && n && n->kind == N_NAME && !strcmp(n->name, as); }

/* wp.T(args), float(x), int(x), wp.constant(x), math.f(x) */
static int const_call(Sema *s, Node *e, Const *c)
{
	Node *fn = e->kid[0];
	int n = e->nkid - 1;
	Const a[36];
	if (n > 36)
		return 0;
	for (int i = 0; i < n; i++)
		if (e->kid[i + 1]->kind == N_KWARG || !const_eval(s, e->kid[i + 1], &a[i]))
			return 0;
	memset(c, 0, sizeof *c);
	if (is_wp_attr(fn) && !strcmp(fn->name, "constant") && n == 1) {
		*c = a[0];
		return 1;
	}
	if (fn->kind == N_NAME && n == 2 && a[0].py && a[1].py &&
	    (!strcmp(fn->name, "min") || !strcmp(fn->name, "max"))) {
		/* Python's min and max of two numbers: the first of equals */
		int second = !strcmp(fn->name, "min") ? cnum(&a[1]) < cnum(&a[0]) : cnum(&a[1]) > cnum(&a[0]);
		*c = a[second];
		return 1;
	}
	if (fn->kind == N_NAME && n == 1 && a[0].py) {
		if (!strcmp(fn->name, "float")) {
			set_float(c, cnum(&a[0]));
			return 1;
		}
		if (!strcmp(fn->name, "int")) {
			set_int(s, e, c, a[0].ty == TY_FLOAT ? truncl(a[0].v[0]) : (long double)a[0].i);
			return 1;
		}
		if (!strcmp(fn->name, "round")) {
			/* Python's round: to the nearest, ties to even, an int */
			set_int(s, e, c,
				a[0].ty == TY_FLOAT ? (long double)nearbyint(a[0].v[0]) : (long double)a[0].i);
			return 1;
		}
		if (!strcmp(fn->name, "abs")) {
			*c = a[0];
			if (c->ty == TY_FLOAT)
				c->v[0] = fabs(c->v[0]);
			else
				c->i = c->i < 0 ? -c->i : c->i;
			return 1;
		}
	}
	if (fn->kind == N_ATTR && (is_module(fn->kid[0], s->sc->math_as) || is_module(fn->kid[0], s->sc->np_as))) {
		double x[2], r;
		for (int i = 0; i < n && i < 2; i++)
			if (!a[i].py)
				return 0;
		for (int i = 0; i < n && i < 2; i++)
			x[i] = cnum(&a[i]);
		if (is_module(fn->kid[0], s->sc->np_as) && n == 1 &&
		    (!strcmp(fn->name, "float32") || !strcmp(fn->name, "float64"))) {
			c->ty = !strcmp(fn->name, "float32") ? TY_FLOAT : TY_DOUBLE;
			c->v[0] = c->ty == TY_FLOAT ? (double)(float)x[0] : x[0];
			return 1;
		}
		if (n > 2 || !const_math(fn->name, n, x, &r))
			return 0;
		set_float(c, r);
		return 1;
	}
	int alias = fn->kind == N_NAME ? map_get(&s->sc->typealias, fn->name) : -1;
	if (!is_wp_attr(fn) && alias < 0)
		return 0;
	Type ty = alias >= 0 ? (Type)alias : wp_type(fn->name);
	if (ty_is_scalar(ty) || ty == TY_BOOL) {
		if (n != 1)
			return 0;
		c->ty = ty;
		if (ty_is_float(ty)) {
			double x = a[0].py ? cnum(&a[0]) : a[0].v[0];
			c->v[0] = ty == TY_HALF    ? ks_half_to_float(ks_half_from_float((float)x))
				  : ty == TY_FLOAT ? (double)(float)x
						   : x;
		} else {
			c->i = a[0].py && a[0].ty == TY_FLOAT ? (int64_t)a[0].v[0] : a[0].i;
		}
		return 1;
	}
	if (!ty_is_composite(ty))
		return 0;
	int nc = ty_ncomp(ty);
	if (n != 0 && n != 1 && n != nc)
		return 0;
	c->ty = ty;
	for (int k = 0; k < nc; k++) {
		const Const *x = n == 0 ? NULL : &a[n == 1 ? 0 : k];
		if (x && !x->py && !ty_is_scalar(x->ty))
			return 0;
		c->v[k] = !x ? 0 : x->py ? cnum(x) : ty_is_float(x->ty) ? x->v[0] : (double)x->i;
	}
	return 1;
}

/* a < b, a == b, ... of Python numbers (no chain): a bool */
static int const_compare(Sema *s, Node *e, Const *c)
{
	Const b;
	if (e->op > C_NE || e->kid[0]->kind == N_COMPARE || !const_eval(s, e->kid[0], c) || !c->py ||
	    !const_eval(s, e->kid[1], &b) || !b.py)
		return 0;
	int both_int = c->ty != TY_FLOAT && b.ty != TY_FLOAT;
	long double x = both_int ? (long double)c->i : cnum(c), y = both_int ? (long double)b.i : cnum(&b);
	int r = e->op == C_LT   ? x < y
		: e->op == C_LE ? x <= y
		: e->op == C_GT ? x > y
		: e->op == C_GE ? x >= y
		: e->op == C_EQ ? x == y
				: x != y;
	memset(c, 0, sizeof *c);
	c->py = 1, c->ty = TY_BOOL, c->i = r;
	return 1;
}

/* Evaluate a module-level expression as Python would, where it is a
 * constant Warp captures: numbers, True/False, names of constants above
 * (M.NAME of a module imported as a name too), arithmetic, comparisons,
 * and/or of bools, math.pi and the like, wp.constant(...),
 * wp.float64(...), wp.vec3(...).  Returns 0 for anything else. */
int const_eval(Sema *s, Node *e, Const *c)
{
	memset(c, 0, sizeof *c);
	switch (e->kind) {
	case N_INT:
		c->py = 1, c->ty = TY_INT, c->i = e->ival;
		return 1;
	case N_FLOAT:
		set_float(c, e->fval);
		return 1;
	case N_BOOL:
		c->py = 1, c->ty = TY_BOOL, c->i = e->ival;
		return 1;
	case N_NAME: {
		int k = map_get(&s->sc->consts, e->name);
		if (k < 0)
			return 0;
		*c = s->cval[k];
		return 1;
	}
	case N_ATTR: {
		double x;
		int k;
		if (module_attr(s, e, &k) == MA_CONST) {
			*c = s->cval[k];
			return 1;
		}
		if ((is_wp_attr(e) || is_module(e->kid[0], s->sc->math_as) || is_module(e->kid[0], s->sc->np_as)) &&
		    wp_constant(e->name, &x)) {
			set_float(c, x);
			return 1;
		}
		return 0;
	}
	case N_UNARY:
		if (!const_eval(s, e->kid[0], c) || !c->py)
			return 0;
		if (e->op == '-' && c->ty == TY_FLOAT)
			c->v[0] = -c->v[0];
		else if (e->op == '-')
			set_int(s, e, c, -(long double)c->i);
		else if (e->op == '~' && c->ty != TY_FLOAT)
			set_int(s, e, c, (long double)~c->i);
		else if (e->op == '~')
			return 0;
		else if (c->ty == TY_BOOL)
			c->ty = TY_INT;
		return 1;
	case N_NOT:
		if (!const_eval(s, e->kid[0], c) || !c->py)
			return 0;
		c->i = cnum(c) == 0;
		c->ty = TY_BOOL;
		return 1;
	case N_BINARY:
		return const_binop(s, e, c);
	case N_CALL:
		return const_call(s, e, c);
	case N_COMPARE:
		return const_compare(s, e, c);
	case N_AND:
	case N_OR: {
		/* of two bools: a bool (Python gives an operand's value) */
		Const b;
		if (!const_eval(s, e->kid[0], c) || !const_eval(s, e->kid[1], &b) || c->ty != TY_BOOL ||
		    b.ty != TY_BOOL)
			return 0;
		c->i = e->kind == N_AND ? c->i && b.i : c->i || b.i;
		return 1;
	}
	}
	return 0;
}
