/*
 * gen.c: the generator's state and small tools -- the per-kernel PRNG
 * (splitmix64 seeded from ks_hash64 of "SEED/CATEGORY/INDEX"), a scratch
 * arena for expression text (reset per statement, so nothing is malloc'd
 * per kernel once the output buffer has grown), names drawn from word
 * lists, the category mix of -c all, and the coverage table.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "gen/gen_int.h"
#include "ir/ir.h"

/* clang-format off */
const char *const gen_cat_name[NCAT] = {
	"arithmetic", "math", "vector", "matrix", "control_flow",
	"loop", "atomic", "function", "inplace", "combined",
	"particles", "springs", "stencil", "reduce", "rigid", "fem",
	"neighbors", "raycast", "sampling",
};
/* clang-format on */

/* -c all: mostly the idioms, the kernels Warp is written for; the
 * construct categories, which reach every builtin, a fifth (doc/kgen.md,
 * "Categories"). */
/* clang-format off */
const int gen_cat_weight[NCAT] = {3, 3, 3, 3, 3, 3, 3, 3, 3, 6,
				  7, 6, 14, 8, 8, 4, 5, 8, 7};
/* clang-format on */

void gen_knobs_default(GenKnobs *k)
{
	k->stmts = 6;
	k->depth = 3;
	k->nest = 2;
	k->params = 4;
	k->vec_pct = 30;
	k->int_pct = 20;
}

/* ---- PRNG ---------------------------------------------------------- */

int wpick(G *g, const int *w, int n)
{
	int t = 0;
	for (int i = 0; i < n; i++)
		t += w[i];
	if (t <= 0)
		return 0;
	int r = rnd(g, t);
	for (int i = 0; i < n; i++)
		if ((r -= w[i]) < 0)
			return i;
	return n - 1;
}

/* ---- text ------------------------------------------------------------ */

/* Concatenate the NULL-terminated arguments into the scratch arena.  When
 * GROW is set and the first argument is the string allocated last, it
 * grows in place (the others must not point into it), so building a list
 * piece by piece costs linear time.  A piece in the arena (a
 * subexpression, maybe long) is copied with memcpy; one outside it (a
 * literal or a name, a few bytes) byte by byte, which costs less than
 * strlen and memcpy for so few. */
char *cat_grow(G *g, int grow, const char *const *piece)
{
	const char *const *pc = piece;
	char *start = g->scratch + g->sp;
	size_t n = 0;
	if (grow && *pc == g->top) {
		start = g->top;
		n = g->toplen;
		pc++;
	}
	size_t room = sizeof g->scratch - (size_t)(start - g->scratch) - 1;
	uintptr_t lo = (uintptr_t)g->scratch, span = sizeof g->scratch;
	for (const char *s; (s = *pc); pc++) {
		if ((uintptr_t)s - lo < span) {
			size_t l = strlen(s);
			if (l > room - n)
				ks_fatal("expression too long for the scratch arena");
			memcpy(start + n, s, l);
			n += l;
			continue;
		}
		for (; *s; s++) {
			if (n == room)
				ks_fatal("expression too long for the scratch arena");
			start[n++] = *s;
		}
	}
	start[n] = 0;
	g->sp = (size_t)(start - g->scratch) + n + 1;
	g->top = start;
	g->toplen = n;
	return start;
}

size_t str_cat(char *dst, size_t cap, const char *a, ...)
{
	size_t n = 0;
	va_list ap;
	va_start(ap, a);
	for (const char *s = a; s; s = va_arg(ap, const char *))
		for (; *s && n + 1 < cap; s++)
			dst[n++] = *s;
	va_end(ap);
	dst[n] = 0;
	return n;
}

const char *u64_str(char *b, uint64_t x)
{
	b[20] = 0;
	return ks_udec(b + 20, x);
}

const char *flit(G *g, double x)
{
	char b[32];
	/* an integer below 1000 in size reads as %.3g would write it */
	if (x == floor(x) && fabs(x) < 1000) {
		char d[21];
		return S(signbit(x) ? "-" : "", u64_str(d, (uint64_t)fabs(x)), ".0");
	}
	snprintf(b, sizeof b, "%.3g", x);
	if (!strchr(b, '.') && !strchr(b, 'e'))
		strcat(b, ".0");
	return S(b);
}

const char *ilit(G *g, long x)
{
	static char small[80][4];
	if (x >= 0 && x < 80) {
		if (!small[x][0])
			snprintf(small[x], sizeof small[x], "%ld", x);
		return small[x];
	}
	char b[24];
	snprintf(b, sizeof b, "%ld", x);
	return S(b);
}

void put(G *g, const char *s) { buf_puts(g->out, s); }

/* A line is gathered in B and written in one piece; a piece too long for
 * what is left of B goes out on its own. */
void line(G *g, const char *const *piece)
{
	char b[1024];
	size_t n = 4 * (size_t)g->ind < 64 ? 4 * (size_t)g->ind : 64;
	memset(b, ' ', n);
	for (const char *s; (s = *piece); piece++) {
		size_t l = strlen(s);
		if (l >= sizeof b - n) {
			buf_put(g->out, b, n);
			buf_put(g->out, s, l);
			n = 0;
			continue;
		}
		memcpy(b + n, s, l);
		n += l;
	}
	b[n++] = '\n';
	buf_put(g->out, b, n);
}

/* kgen's types as rows of the type table (ir/types.h) */
/* clang-format off */
static const Type gen_types[NTY] = {TY_FLOAT, TY_INT, TY_BOOL, TY_VEC2, TY_VEC3,
				    TY_VEC4, TY_MAT22, TY_MAT33, TY_MAT44};
/* clang-format on */

const char *ty_spell(G *g, int ty)
{
	/* the Python names of float, int and bool; wp.<alias> for the rest */
	static char name[NTY][24];
	if (!name[ty][0]) {
		const TypeInfo *t = ty_info(gen_types[ty]);
		if (ty_is_composite(gen_types[ty]))
			snprintf(name[ty], sizeof name[ty], "wp.%s", t->alias[0] ? t->alias : t->warp);
		else
			snprintf(name[ty], sizeof name[ty], "%s", t->name);
	}
	if (ty == T_F && chance(g, 8)) {
		COV(g, type_spelled_wp_float32);
		return "wp.float32";
	}
	if (ty == T_I && chance(g, 8)) {
		COV(g, type_spelled_wp_int32);
		return "wp.int32";
	}
	return name[ty];
}

void cov_type(G *g, int ty)
{
	/* clang-format off */
	static const int c[NTY] = {GC_type_float, GC_type_int, GC_type_bool, GC_type_vec2,
				   GC_type_vec3, GC_type_vec4, GC_type_mat22, GC_type_mat33,
				   GC_type_mat44};
	/* clang-format on */
	g->cov->c[c[ty]]++;
}

/* ---- names ------------------------------------------------------------ */

int name_used(G *g, const char *name)
{
	if (!strcmp(name, "i") || !strcmp(name, "wp") || !strcmp(name, g->kname) || !strcmp(name, g->rng))
		return 1;
	/* the first character first: most names differ there */
	for (int i = 0; i < g->nv; i++)
		if (g->v[i].name[0] == name[0] && !strcmp(g->v[i].name, name))
			return 1;
	for (int i = 0; i < g->nh; i++)
		if (g->h[i].name[0] == name[0] && !strcmp(g->h[i].name, name))
			return 1;
	return 0;
}

/* A fresh name from LIST: a word not used yet in this function, else the
 * word with a digit. */
void newname(G *g, char *dst, const char *const *list, int n)
{
	for (int t = 0; t < 4; t++) {
		const char *w = list[rnd(g, n)];
		if (!name_used(g, w)) {
			size_t l = strlen(w);
			memcpy(dst, w, l < 27 ? l + 1 : 27);
			dst[27] = 0;
			return;
		}
	}
	const char *w = list[rnd(g, n)];
	for (int d = 2;; d++) {
		snprintf(dst, 28, "%s%d", w, d);
		if (!name_used(g, dst))
			return;
	}
}

/* ---- categories --------------------------------------------------------- */

int gen_pick_category(uint64_t seed, uint64_t index, unsigned mix)
{
	char key[64], a[21], b[21];
	size_t n = SCAT(key, sizeof key, u64_str(a, seed), "/mix/", u64_str(b, index));
	uint64_t h = ks_hash64(key, n, 0);
	int total = 0;
	for (int c = 0; c < NCAT; c++)
		if (mix >> c & 1)
			total += gen_cat_weight[c];
	int r = (int)(((h >> 32) * (uint64_t)total) >> 32);
	for (int c = 0; c < NCAT; c++)
		if (mix >> c & 1 && (r -= gen_cat_weight[c]) < 0)
			return c;
	return 0;
}

const char *gen_kernel(Buf *out, uint64_t seed, int cat_, uint64_t index, unsigned redraw, const GenKnobs *k,
		       GenCov *cov)
{
	static G g;
	static GenCov sink, tmp;
	char key[96];
	size_t start = out->n;
	/* The dead-store pass may drop what the category promises (a loop
	 * whose body was dead, a component store never read): then the
	 * kernel is drawn again from "SEED/CATEGORY/INDEX/rK", so it still
	 * depends only on (seed, category, index); only the kept attempt
	 * counts in the coverage.  Redraw N of kgen --verify (verify.c) is
	 * drawn from "SEED/CATEGORY/INDEX/vN", and its own attempts from
	 * "SEED/CATEGORY/INDEX/vN/rK". */
	for (int attempt = 0;; attempt++) {
		char a[21], b[21], r[21], v[21];
		size_t n = SCAT(key, sizeof key, u64_str(a, seed), "/", gen_cat_name[cat_], "/", u64_str(b, index),
				redraw ? "/v" : "", redraw ? u64_str(v, redraw) : "", attempt ? "/r" : "",
				attempt ? u64_str(r, (uint64_t)attempt) : "");
		g.s = ks_hash64(key, n, 0);
		g.cat = cat_;
		g.k = k;
		if (cov)
			memset(&tmp, 0, sizeof tmp);
		g.cov = cov ? &tmp : &sink;
		g.counting = cov != NULL;
		g.out = out;
		out->n = start;
		if (cat_ >= CAT_PARTICLES) {
			/* written whole, with nothing dead to prune */
			gen_idiom_kernel(&g, index);
			break;
		}
		gen_body_kernel(&g, index);
		if (gen_prune(out, start, cat_) || attempt >= 15)
			break;
	}
	if (cov) {
		for (int i = 0; i < GC_N; i++)
			cov->c[i] += tmp.c[i];
		for (int i = 0; i < GB_N; i++)
			cov->b[i] += tmp.b[i];
	}
	return g.kname;
}

/* ---- coverage ------------------------------------------------------------ */

int gen_cov_print(FILE *f, const GenCov *cov)
{
	static const char *const ckind[GC_N] = {
#define GEN_C_KIND(k, n) #k,
		GEN_CONSTRUCTS(GEN_C_KIND)
#undef GEN_C_KIND
	};
	static const char *const cname[GC_N] = {
#define GEN_C_NAME(k, n) #n,
		GEN_CONSTRUCTS(GEN_C_NAME)
#undef GEN_C_NAME
	};
	/* an overload by its row's name in ir/builtins.h: abs_f, atomic_max */
	static const char *const bname[GB_N] = {
#define B(e, name, res, args, fl) #e,
#include "ir/builtins.h"
#undef B
	};
	/* a BF_INTERNAL row (an adjoint helper) is no builtin of the
	 * language: a kernel cannot call it, so it has no row here */
	static const int bflags[GB_N] = {
#define B(e, name, res, args, fl) fl,
#include "ir/builtins.h"
#undef B
	};
	int zero = 0;
	for (int i = 0; i < GB_N; i++) {
		if (bflags[i] & BF_INTERNAL)
			continue;
		char row[48];
		size_t k = 0;
		for (; bname[i][k] && k + 1 < sizeof row; k++)
			row[k] = (char)(bname[i][k] >= 'A' && bname[i][k] <= 'Z' ? bname[i][k] - 'A' + 'a'
										 : bname[i][k]);
		row[k] = 0;
		fprintf(f, "builtin %-24s %llu\n", row, (unsigned long long)cov->b[i]);
		zero += !cov->b[i];
	}
	for (int i = 0; i < GC_N; i++) {
		fprintf(f, "%-7s %-24s %llu\n", ckind[i], cname[i], (unsigned long long)cov->c[i]);
		zero += !cov->c[i];
	}
	/* every named type of ir/types.h, values and array elements
	 * together: the types kgen does not write yet show as 0 (and do not
	 * count among the zero rows) */
	static const struct {
		const char *ir;
		int val, arr;
	} irty[] = {
#define T(e, kind, scalar, rows, cols, ir, warp, alias) {ir, -1, -1},
#include "ir/types.h"
#undef T
	};
	/* clang-format off */
	static const struct {
		const char *ir;
		int val, arr;
	} mine[] = {
		{"float", GC_type_float, GC_type_array_float}, {"int", GC_type_int, GC_type_array_int},
		{"bool", GC_type_bool, -1}, {"vec2", GC_type_vec2, GC_type_array_vec2},
		{"vec3", GC_type_vec3, GC_type_array_vec3}, {"vec4", GC_type_vec4, GC_type_array_vec4},
		{"mat22", GC_type_mat22, GC_type_array_mat22}, {"mat33", GC_type_mat33, GC_type_array_mat33},
		{"mat44", GC_type_mat44, GC_type_array_mat44}, {"quat", GC_type_quat, -1},
		{"transform", GC_type_transform, -1}, {"spatial_vector", GC_type_spatial_vector, -1},
	};
	/* clang-format on */
	for (size_t i = 1; i < KS_NELEM(irty); i++) {
		uint64_t n = 0;
		for (size_t k = 0; k < KS_NELEM(mine); k++)
			if (!strcmp(mine[k].ir, irty[i].ir))
				n = cov->c[mine[k].val] + (mine[k].arr >= 0 ? cov->c[mine[k].arr] : 0);
		fprintf(f, "ir-type %-24s %llu\n", irty[i].ir, (unsigned long long)n);
	}
	return zero;
}
