/*
 * gen.h: kgen's library, the seeded random kernel generator.
 *
 * gen_kernel() writes the text of kernel INDEX of a category -- the kernel
 * and the @wp.func helpers it calls -- into a buffer.  The text depends
 * only on (seed, category, index): each kernel seeds its own PRNG from
 * ks_hash64 of "SEED/CATEGORY/INDEX" (or "SEED/CATEGORY/INDEX/rK" when the
 * dead-store pass, prune.c, dropped what the category promises), and its
 * names (kernel, helpers) carry
 * the index, so kernels concatenate into one module without clashes.
 *
 * The generator writes code that is safe by construction under krun's
 * input law (doc/runtime.md): every value carries an interval while it is
 * generated, and an operation is written only in a form whose result is
 * finite for every value in its operands' intervals (doc/kgen.md).
 *
 * It also counts what it wrote, by construct (builtin overloads, types,
 * statement forms, operators), for `kgen --coverage`.
 */
#ifndef GEN_H
#define GEN_H

#include <stdint.h>

#include "lib/ks.h"

enum {
	CAT_ARITHMETIC,
	CAT_MATH,
	CAT_VECTOR,
	CAT_MATRIX,
	CAT_CONTROL_FLOW,
	CAT_LOOP,
	CAT_ATOMIC,
	CAT_FUNCTION,
	CAT_INPLACE,
	CAT_COMBINED,
	/* the idioms (gen/idiom*.c): families of the kernels Warp is used for */
	CAT_PARTICLES,
	CAT_SPRINGS,
	CAT_STENCIL,
	CAT_REDUCE,
	CAT_RIGID,
	CAT_FEM,
	CAT_NEIGHBORS,
	CAT_RAYCAST,
	CAT_SAMPLING,
	NCAT
};

extern const char *const gen_cat_name[NCAT];
/* Weights of the categories under -c all (out of 100). */
extern const int gen_cat_weight[NCAT];

/* The knobs; gen_knobs_default() fills the defaults. */
typedef struct GenKnobs {
	int stmts;   /* statements per kernel body (before the final stores) */
	int depth;   /* expression depth */
	int nest;    /* loop and branch nesting */
	int params;  /* array parameters (inputs and outputs) */
	int vec_pct; /* type mix: percent of values that are vectors/matrices */
	int int_pct; /* type mix: percent of scalar values that are ints */
} GenKnobs;

void gen_knobs_default(GenKnobs *k);

/* ---- coverage: what the generator wrote, by construct ---------------- */

/* The construct counters (kinds "type", "stmt", "expr"), X-macro. */
/* clang-format off */
#define GEN_CONSTRUCTS(X)                                                    \
	X(type, float) X(type, int) X(type, bool) X(type, vec2) X(type, vec3)       \
	X(type, vec4) X(type, mat22) X(type, mat33) X(type, mat44)                   \
	X(type, array_float) X(type, array_int) X(type, array_vec2)                  \
	X(type, array_vec3) X(type, array_vec4) X(type, array_mat22)                 \
	X(type, array_mat33) X(type, array_mat44) X(type, spelled_wp_float32)        \
	X(type, spelled_wp_int32) X(type, array_ndim) X(type, array2d)               \
	X(type, array3d) X(type, struct) X(type, quat) X(type, transform)            \
	X(type, spatial_vector) X(stmt, tid2) X(stmt, tid3)                          \
	X(stmt, assign) X(stmt, tuple_unpack)                                       \
	X(stmt, aug_add) X(stmt, aug_sub) X(stmt, aug_mul) X(stmt, aug_div)          \
	X(stmt, aug_floordiv) X(stmt, aug_mod) X(stmt, array_store)                  \
	X(stmt, array_atomic_add) X(stmt, array_atomic_sub)                          \
	X(stmt, array_read_modify_write) X(stmt, vec_index_store)                    \
	X(stmt, vec_attr_store) X(stmt, mat_elem_store) X(stmt, mat_row_store)       \
	X(stmt, if) X(stmt, elif) X(stmt, else) X(stmt, for_range1)                  \
	X(stmt, for_range2) X(stmt, for_range3) X(stmt, for_dynamic)                 \
	X(stmt, while) X(stmt, break) X(stmt, continue) X(stmt, return_kernel)       \
	X(stmt, return_func) X(stmt, return_multi) X(stmt, pass) X(stmt, call)       \
	X(stmt, docstring) X(stmt, func_def) X(stmt, func_annotated)                 \
	X(expr, add) X(expr, sub) X(expr, mul) X(expr, div)                          \
	X(expr, mod) X(expr, int_add) X(expr, int_sub) X(expr, int_mul)              \
	X(expr, int_div) X(expr, int_floordiv) X(expr, int_mod) X(expr, neg)         \
	X(expr, lt) X(expr, le) X(expr, gt) X(expr, ge) X(expr, eq) X(expr, ne)      \
	X(expr, and) X(expr, or) X(expr, not) X(expr, ifexp) X(expr, true_false)     \
	X(expr, call_func) X(expr, array_index) X(expr, vec_index)                   \
	X(expr, vec_attr) X(expr, mat_row) X(expr, mat_elem) X(expr, vec_ctor)       \
	X(expr, vec_fill) X(expr, vec_zero) X(expr, mat_ctor) X(expr, mat_fill)      \
	X(expr, mat_zero) X(expr, conv_float) X(expr, conv_int) X(expr, vec_add)     \
	X(expr, vec_sub) X(expr, vec_neg) X(expr, scalar_vec) X(expr, mat_vec)       \
	X(expr, mat_mat) X(expr, scalar_mat) X(expr, mat_add)
/* clang-format on */

enum {
#define GEN_C_ENUM(k, n) GC_##k##_##n,
	GEN_CONSTRUCTS(GEN_C_ENUM)
#undef GEN_C_ENUM
		GC_N
};

/* The builtin overloads, in ir/builtins.h order. */
enum {
#define B(e, name, res, args, fl) GB_##e,
#include "ir/builtins.h"
#undef B
	GB_N
};

typedef struct GenCov {
	uint64_t c[GC_N];
	uint64_t b[GB_N];
} GenCov;

/* Print the coverage table; return the number of zero rows. */
int gen_cov_print(FILE *f, const GenCov *cov);

/* ---- generation ------------------------------------------------------ */

/* The category of kernel INDEX under a mix (a bit set of categories). */
int gen_pick_category(uint64_t seed, uint64_t index, unsigned mix);

/* Append kernel INDEX of CAT (and its helpers) to OUT, its draw number
 * REDRAW (0 the first; kgen --verify draws a degenerate kernel again);
 * count into COV when it is not NULL.  Returns the kernel's name, valid
 * until the next call. */
const char *gen_kernel(Buf *out, uint64_t seed, int cat, uint64_t index, unsigned redraw, const GenKnobs *k,
		       GenCov *cov);

/* The draws kgen --verify tries for a kernel: 0 .. GEN_MAX_REDRAW. */
#define GEN_MAX_REDRAW 200

/* kgen --verify: the draw numbers of kernels FIRST .. FIRST+COUNT-1 of
 * the mix, into redraw[0 .. COUNT-1]: for each, the first draw that
 * KRUN (the path of krun) runs on cpu under input seeds 1 and 2 without
 * a complaint of krun --coverage --vary (outputs that do not depend on
 * the inputs, an if that takes only one way, a loop body that never
 * runs).  Exits with krun's message when krun fails otherwise, or when
 * a kernel is degenerate in draws 0 to GEN_MAX_REDRAW. */
void gen_verify(uint64_t seed, unsigned mix, uint64_t first, uint64_t count, const GenKnobs *k, const char *krun,
		unsigned *redraw);

#endif
