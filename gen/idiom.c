/*
 * idiom.c: kernels in the shapes Warp is used for -- particles, springs,
 * grid stencils, reductions, rigid bodies, finite elements, neighbour
 * loops, ray casting and Monte Carlo sampling.
 *
 * Each category is a family: a skeleton every kernel of it shares (read
 * the state, compute, write or scatter the result) with choices drawn at
 * each step -- the integrator, the force law, the boundary, the stencil,
 * the element model, the primitive, the estimator -- and, across the
 * families, whether the scalar parameters travel in a @wp.struct, whether
 * a step is a @wp.func helper, whether the launch is 1-D or 2-D, and the
 * names.  The text is written directly, as an engineer would write it:
 * every local is read, every parameter named, no term is made of literals
 * alone, and nothing is pruned afterwards (gen.c skips prune.c for these).
 *
 * Safety follows krun's input law (doc/runtime.md): floats in [-1, 1),
 * int elements in [0, n), int scalars n.  So a distance is softened where
 * two indices may coincide (sqrt(|d|^2 + eps)), a divisor is guarded by
 * the branch that uses it, a quaternion read from an array is normalized
 * before it rotates, and a condition compares a value that varies over
 * the threads with a threshold inside its range, so that each `if` goes
 * both ways and each loop runs (doc/kgen.md, "Idioms").
 *
 * Each family is a file, gen/idiom_FAMILY.c, with its own helpers; they
 * write through the text kit of gen/idiom_kit.c (gen/idiom.h).  This
 * file starts a kernel and hands it to its category's family.
 */
#include "gen/idiom.h"

void gen_idiom_kernel(G *g, uint64_t index)
{
	static Kit k;
	char d[21];
	g->sp = 0;
	g->nv = g->nh = 0;
	SCAT(g->suffix, sizeof g->suffix, "_", u64_str(d, index));
	kit_begin(&k, g, 30);
	/* clang-format off */
	switch (g->cat) {
	case CAT_PARTICLES: idiom_particles(&k); break;
	case CAT_SPRINGS: idiom_springs(&k); break;
	case CAT_STENCIL: idiom_stencil(&k); break;
	case CAT_REDUCE: idiom_reduce(&k); break;
	case CAT_RIGID: idiom_rigid(&k); break;
	case CAT_FEM: idiom_fem(&k); break;
	case CAT_NEIGHBORS: idiom_neighbors(&k); break;
	case CAT_RAYCAST: idiom_raycast(&k); break;
	default: idiom_sampling(&k); break;
	}
	/* clang-format on */
}
