/*
 * idiom_kit.c: the text kit the idiom families (gen/idiom_*.c) write
 * their kernels with.
 *
 * A Kit gathers one kernel while it is drawn: its body, the @wp.func
 * helpers it calls, its parameter list and, when its scalars travel in a
 * @wp.struct, the struct's fields; kit_end() writes them to the
 * generator's output in that order.  Every piece of text is made in the
 * generator's scratch arena (F), so it lives until the kernel ends.
 * Beside the lines (B, H) and the parameters (kit_arr, kit_scalar), the
 * kit draws what every family needs: literals tuned by hand (kit_num),
 * products that fold their literals (kit_prod), smooth responses
 * (kit_shape, kit_response), a force field, the launch's indices, an
 * element's active flag, a length cap.  gen/idiom.h declares it.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "gen/idiom.h"
#include "ir/ir.h"

/* ---- text ---------------------------------------------------------------- */

/* printf into the scratch arena: the text lives until the kernel ends */
const char *kit_vfmt(Kit *k, const char *fmt, va_list ap)
{
	G *g = k->g;
	size_t room = sizeof g->scratch - g->sp;
	int n = vsnprintf(g->scratch + g->sp, room, fmt, ap);
	if (n < 0 || (size_t)n >= room)
		ks_fatal("expression too long for the scratch arena");
	char *s = g->scratch + g->sp;
	g->sp += (size_t)n + 1;
	return s;
}

/* a line of IND levels of indentation, FMT's text, to TO */
void kit_vline(Buf *to, int ind, const char *fmt, va_list ap)
{
	char b[1024];
	int n = vsnprintf(b, sizeof b, fmt, ap);
	if (n < 0 || (size_t)n >= sizeof b)
		ks_fatal("idiom line too long");
	for (int i = 0; i < ind; i++)
		buf_puts(to, "    ");
	buf_puts(to, b);
	buf_putc(to, '\n');
}

/* append "NAME: TYPE" (or a struct's field line) to a list that must
 * not be cut short */
static void append(char *dst, size_t cap, const char *sep, const char *p)
{
	size_t n = strlen(dst);
	int w = snprintf(dst + n, cap - n, "%s%s", n ? sep : "", p);
	if (w < 0 || (size_t)w >= cap - n)
		ks_fatal("idiom signature too long");
}

static void sig_add(Kit *k, const char *p) { append(k->sig, sizeof k->sig, ", ", p); }

/* ---- parameters ---------------------------------------------------------- */

/* An array parameter NAME of element type ELEM ("float", "wp.vec3") and
 * NDIM dimensions, in one of the spellings Warp accepts. */
const char *kit_arr(Kit *k, const char *name, const char *elem, int ndim)
{
	G *g = k->g;
	const char *t;
	if (ndim == 1) {
		t = chance(g, 85) ? F(k, "wp.array(dtype=%s)", elem) : F(k, "wp.array[%s]", elem);
	} else if (chance(g, 80)) {
		t = F(k, "wp.array%dd(dtype=%s)", ndim, elem);
	} else {
		COV(g, type_array_ndim);
		t = F(k, "wp.array(dtype=%s, ndim=%d)", elem, ndim);
	}
	sig_add(k, F(k, "%s: %s", name, t));
	if (ndim == 2)
		COV(g, type_array2d);
	if (ndim == 3)
		COV(g, type_array3d);
	return name;
}

/* A scalar parameter of type TY ("float", "wp.vec3", "int"): a field of
 * the kernel's struct when it has one, else a parameter of its own;
 * returns how the body names it. */
const char *kit_scalar(Kit *k, const char *name, const char *ty)
{
	if (k->strct) {
		append(k->fields, sizeof k->fields, "", F(k, "    %s: %s\n", name, ty));
		return F(k, "%s.%s", k->sarg, name);
	}
	sig_add(k, F(k, "%s: %s", name, ty));
	return name;
}

/* A literal in [LO, HI] on a grid of about twenty to two hundred steps,
 * the way a constant of a model is tuned by hand (0.97, -0.15, 0.035). */
const char *kit_num(Kit *k, double lo, double hi)
{
	/* the step is half of 10^-d; values are counted in units of
	 * 10^-(d+1), so the text is exact */
	double span = hi - lo, step = 1;
	int d = 0;
	while (step > span / 8) {
		step /= 10;
		d++;
	}
	long unit = 5, scale = 10;
	for (int i = 0; i < d; i++)
		scale *= 10;
	long first = lround(lo * (double)scale), n = lround(span * (double)scale) / unit;
	long v = first + unit * rnd(k->g, (int)n + 1);
	/* V / SCALE in decimal, d + 1 digits after the point, written from
	 * the right; then the trailing zeros but one go */
	char b[48], *p = b + sizeof b - 1;
	*p = 0;
	unsigned long a = (unsigned long)labs(v);
	for (int i = 0; i <= d && p > b + 24; i++, a /= 10)
		*--p = (char)('0' + a % 10);
	*--p = '.';
	do
		*--p = (char)('0' + a % 10);
	while ((a /= 10) && p > b + 1);
	if (v < 0)
		*--p = '-';
	char *e = b + sizeof b - 1;
	while (e[-1] == '0' && e[-2] != '.')
		*--e = 0;
	return F(k, "%s", p);
}

/* kit_num(), but never the literal AVOID (a gain of 1.0, an offset of 0.0,
 * which would be a trivial operation) */
const char *kit_num_not(Kit *k, double lo, double hi, const char *avoid)
{
	const char *a;
	while (!strcmp(a = kit_num(k, lo, hi), avoid))
		;
	return a;
}

/* X as a literal of up to five decimals, exact for sums and products of
 * kit_num()'s values (1.675, 2.7) where flit()'s three digits would round */
const char *kit_dec(Kit *k, double x)
{
	char b[32];
	snprintf(b, sizeof b, "%.5f", x);
	char *e = b + strlen(b);
	while (e[-1] == '0' && e[-2] != '.')
		*--e = 0;
	return F(k, "%s", b);
}

/* F times the coefficient C ("2.0 * mu"), folded into one literal when C
 * is one (2.0 times 1.35 is written 2.7) */
const char *kit_times(Kit *k, double f, const char *c)
{
	return is_lit(c) ? kit_dec(k, f * atof(c)) : F(k, "%.1f * %s", f, c);
}

/* C times E, a product or quotient whose first factor may be a literal:
 * a leading 1.0 goes (mi times "1.0 / (1.0 + r2)" is "mi / (1.0 +
 * r2)"), and a literal C and a literal first factor are folded into one
 * (93.0 times "2.5 * s * s" is "232.5 * s * s") */
const char *kit_prod(Kit *k, const char *c, const char *e)
{
	if (!strcmp(c, "1.0"))
		return e;
	if (!strncmp(e, "1.0 / ", 6))
		return F(k, "%s / %s", c, e + 6); /* c * 1.0 / x is c / x */
	if (!is_lit(c))
		return F(k, "%s * %s", c, e);
	const char *p = e;
	if (*p == '-')
		p++;
	while ((*p >= '0' && *p <= '9') || *p == '.')
		p++;
	if (p == e || (strncmp(p, " * ", 3) && strncmp(p, " / ", 3)))
		return F(k, "%s * %s", c, e);
	char lit[32];
	snprintf(lit, sizeof lit, "%.*s", (int)(p - e), e);
	return F(k, "%s%s", kit_times(k, atof(c), lit), p);
}

/* A smooth scalar response of X (an atom or a parenthesized term), one
 * of the shapes models are built of -- a Gaussian, a soft sign, a
 * saturation, a ramp, a softened magnitude -- with its constant drawn:
 * finite, and differentiable, for every X. */
const char *kit_shape(Kit *k, const char *x)
{
	G *g = k->g;
	const char *a = kit_num_not(k, 0.5, 4.0, "1.0");
	/* clang-format off */
	switch (rnd(g, 11)) {
	case 0: return F(k, "wp.exp(-%s * %s * %s)", a, x, x);
	case 1: return F(k, "wp.tanh(%s * %s)", a, x);
	case 2: return F(k, "wp.sin(%s * %s)", a, x);
	case 3: return F(k, "%s / (1.0 + wp.abs(%s))", x, x);
	case 4: return F(k, "wp.smoothstep(-%s, %s, %s)", a, a, x);
	case 5: return F(k, "wp.sqrt(%s * %s + %s)", x, x, kit_num(k, 0.01, 0.5));
	case 6: return F(k, "wp.log(1.0 + %s * %s)", x, x);
	case 7: return F(k, "1.0 / (1.0 + %s * %s * %s)", a, x, x);
	case 8: return F(k, "wp.cos(%s * %s)", a, x);
	case 9: return F(k, "%s * %s * %s", a, x, x);
	default: return F(k, "wp.clamp(%s, -%s, %s)", x, a, a);
	}
	/* clang-format on */
}

/* A response of X (an atom) with more to tune than kit_shape(): one of the
 * shapes, one that stiffens as X grows, one centred elsewhere, or the
 * product of two (a response that also fades) */
const char *kit_response(Kit *k, const char *x)
{
	G *g = k->g;
	/* one draw per statement: the order of a call's arguments is the
	 * compiler's */
	const char *s = kit_shape(k, x);
	/* clang-format off */
	switch (rnd(g, 4)) {
	case 0: return s;
	case 1: return F(k, "%s * (1.0 + %s * %s)", s, kit_num(k, 0.1, 0.9), x);
	case 2: return kit_shape(k, F(k, "(%s - %s)", x, kit_num(k, 0.1, 0.6)));
	default: return kit_prod(k, s, kit_shape(k, x));
	}
	/* clang-format on */
}

/* A force field at the point P (vec3, an atom): a push from the origin
 * that fades, a swirl about y or z, a Gaussian well, a lift */
const char *kit_field(Kit *k, const char *p)
{
	G *g = k->g;
	const char *a = kit_num_not(k, 0.2, 2.0, "1.0");
	/* clang-format off */
	switch (rnd(g, 5)) {
	case 0: return F(k, "%s * (%s / (1.0 + wp.dot(%s, %s)))", p, a, p, p);
	case 1: return F(k, "wp.vec3(-%s[2], 0.0, %s[0]) * %s", p, p, a);
	case 2: return F(k, "%s * (-%s * wp.exp(-wp.dot(%s, %s)))", p, a, p, p);
	case 3: return F(k, "wp.vec3(0.0, %s * wp.exp(-%s[1] * %s[1]), 0.0)", a, p, p);
	default: return F(k, "wp.vec3(%s[1], -%s[0], 0.0) * %s", p, p, a);
	}
	/* clang-format on */
}

/* the epsilon that softens a length where two points may coincide */
const char *kit_soft_eps(Kit *k)
{
	return ONE(k->g, "1.0e-4", "2.0e-4", "5.0e-4", "1.0e-3", "2.0e-3", "5.0e-3", "1.0e-2", "2.0e-2");
}

const char *kit_fparam(Kit *k, const char *name) { return kit_scalar(k, name, "float"); }

/* A coefficient of the model: a parameter NAME, or a literal in [LO, HI]
 * written where it is used, as a constant tuned once */
const char *kit_coef(Kit *k, const char *name, double lo, double hi)
{
	return chance(k->g, 50) ? kit_fparam(k, name) : kit_num_not(k, lo, hi, "1.0");
}

/* ---- the kernel ----------------------------------------------------------- */

/* a struct's class by family (CAT_PARTICLES first), four names each */
/* clang-format off */
static const char *const struct_names[][4] = {
	{"SimParams", "Integrator", "Params", "StepConfig"},
	{"SpringParams", "Material", "Params", "Constraint"},
	{"GridParams", "Solver", "Params", "Diffusion"},
	{"Params", "Binning", "Config", "ReduceParams"},
	{"BodyParams", "SimParams", "Params", "Contact"},
	{"Material", "ElementParams", "Params", "Elasticity"},
	{"SphParams", "Fluid", "Params", "Kernel"},
	{"Camera", "Scene", "RenderParams", "Params"},
	{"Sampler", "SampleParams", "Params", "Estimator"},
};
/* clang-format on */
static const char *const struct_args[] = {"params", "cfg", "sim", "opts", "settings"};

void kit_begin(Kit *k, G *g, int struct_pct)
{
	memset(&k->sig, 0, sizeof *k - offsetof(Kit, sig));
	k->g = g;
	k->body.n = k->funcs.n = 0;
	k->ind = 1;
	k->strct = chance(g, struct_pct);
	k->struct_first = chance(g, 50);
	snprintf(k->sname, sizeof k->sname, "%s%s", PICK(g, struct_names[g->cat - CAT_PARTICLES]), g->suffix + 1);
	snprintf(k->sarg, sizeof k->sarg, "%s", PICK(g, struct_args));
	snprintf(k->tid, sizeof k->tid, "%s", chance(g, 60) ? "tid" : "i");
}

/* `i = wp.tid()` or `i, j = wp.tid()`: the launch's indices */
void kit_tid_line(Kit *k, int nd, const char *a, const char *b)
{
	G *g = k->g;
	COV(g, stmt_assign);
	if (nd == 1) {
		B(k, "%s = wp.tid()", a);
	} else {
		COV(g, stmt_tid2);
		COV(g, stmt_tuple_unpack);
		B(k, "%s, %s = wp.tid()", a, b);
	}
}

/* Count each call `wp.NAME(` of TEXT as the first overload of NAME in
 * ir/builtins.h: the idioms write each builtin by name, and the
 * coverage report counts them so (an overload of another shape, such as
 * wp.normalize of a quaternion, counts as the first).  The atomics into
 * arrays of quaternions and transforms come first among the atomics'
 * rows: they are passed over, so a wp.atomic_add counts as the overload
 * of scalar and vector arrays, and shaped_atomic moves its own. */
static void count_builtins(G *g, const char *text)
{
	static const struct {
		const char *name;
		int fl;
	} row[GB_N] = {
#define B(e, name, res, args, fl) {name, fl},
#include "ir/builtins.h"
#undef B
	};
	for (const char *p = strstr(text, "wp."); p; p = strstr(p + 1, "wp.")) {
		const char *n = p + 3, *e = n;
		while ((*e >= 'a' && *e <= 'z') || (*e >= '0' && *e <= '9') || *e == '_')
			e++;
		if (*e != '(')
			continue;
		for (int b = 0; b < GB_N; b++)
			if (!(row[b].fl & BF_INTERNAL) && b != GB_ATOMIC_ADD_Q && b != GB_ATOMIC_SUB_Q &&
			    b != GB_ATOMIC_ADD_X && b != GB_ATOMIC_SUB_X &&
			    !strncmp(row[b].name, n, (size_t)(e - n)) && !row[b].name[e - n]) {
				g->cov->b[b]++;
				break;
			}
	}
}

/* Write the struct, the helpers and the kernel NAME to G's output. */
void kit_end(Kit *k, const char *name)
{
	G *g = k->g;
	char sp[96] = "";
	if (k->strct && k->fields[0]) {
		COV(g, type_struct);
		buf_printf(g->out, "@wp.struct\nclass %s:\n%s\n\n", k->sname, k->fields);
		snprintf(sp, sizeof sp, "%s: %s", k->sarg, k->sname);
	}
	if (k->funcs.n)
		buf_put(g->out, k->funcs.p, k->funcs.n);
	snprintf(g->kname, sizeof g->kname, "%s%s", name, g->suffix);
	const char *a = k->struct_first ? sp : k->sig, *b = k->struct_first ? k->sig : sp;
	buf_printf(g->out, "@wp.kernel\ndef %s(%s%s%s):\n", g->kname, a, a[0] && b[0] ? ", " : "", b);
	buf_put(g->out, k->body.p, k->body.n);
	buf_puts(g->out, "\n\n");
	if (g->counting) {
		buf_putc(&k->body, 0);
		count_builtins(g, k->body.p);
		if (k->funcs.n) {
			buf_putc(&k->funcs, 0);
			count_builtins(g, k->funcs.p);
		}
	}
}

/* a helper's name: WORD and the kernel's index */
const char *kit_hname(Kit *k, const char *word)
{
	COV(k->g, stmt_func_def);
	return F(k, "%s%s", word, k->g->suffix);
}

/* ---- shared by several families ------------------------------------------ */

/* An element that takes part only when its flags say so, as warp.sim's
 * kernels skip an inactive particle or spring: a bit of an int flags
 * array (int elements are drawn in [0, n), so the bit is set in about
 * half of them) or a bool array, read at AT of an array of ND
 * dimensions; returns early for the others */
void kit_active_check(Kit *k, const char *at, int nd, const char *const names[3])
{
	G *g = k->g;
	COV(g, stmt_if);
	COV(g, stmt_return_kernel);
	if (chance(g, 60)) {
		const char *fl = kit_arr(k, names[rnd(g, 3)], "int", nd);
		const char *bit = ONE(g, "1", "2");
		COV(g, expr_eq);
		B(k, "if (%s[%s] & %s) == 0:", fl, at, bit);
	} else {
		const char *ac = kit_arr(k, ONE(g, "active", "enabled", "is_active"), "wp.bool", nd);
		COV(g, expr_not);
		B(k, "if not %s[%s]:", ac, at);
	}
	k->ind++;
	B(k, "return");
	k->ind--;
}

/* V (a vector's name) scaled back to length MAX where it is longer, its
 * length in LEN: a speed limit, a walker put back on a ball */
void kit_cap_length(Kit *k, const char *v, const char *len, const char *max)
{
	B(k, "%s = wp.length(%s)", len, v);
	COV(k->g, stmt_if);
	B(k, "if %s > %s:", len, max);
	k->ind++;
	B(k, "%s = %s * (%s / %s)", v, v, max, len);
	k->ind--;
}
