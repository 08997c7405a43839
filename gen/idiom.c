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
 */
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "gen/idiom.h"

/* ---- helpers of one family ----------------------------------------------- */

/* i, j, k = wp.tid() */
static void tid3_line(Kit *k)
{
	COV(k->g, stmt_assign);
	COV(k->g, stmt_tid3);
	COV(k->g, stmt_tuple_unpack);
	B(k, "i, j, k = wp.tid()");
}

/* N (an int literal or an int's name) as a float */
static const char *as_float(Kit *k, const char *n)
{
	return n[0] >= '0' && n[0] <= '9' ? F(k, "%s.0", n) : F(k, "float(%s)", n);
}

/* An activation of a layer's sum Z (an atom or a parenthesized term):
 * a rectifier, a leaky one, one clipped at a ceiling (ReLU6's kind),
 * tanh, a sigmoid, a softplus, a SiLU (GELU's sigmoid approximation when
 * its slope is 1.702), an ELU, or one of the smooth responses */
static const char *activation(Kit *k, const char *z)
{
	switch (rnd(k->g, 9)) {
	case 0: return F(k, "wp.max(%s, 0.0)", z);
	case 1: return F(k, "wp.max(%s, %s * %s)", z, kit_num(k, 0.01, 0.2), z);
	case 2: return F(k, "wp.tanh(%s)", z);
	case 3: return F(k, "1.0 / (1.0 + wp.exp(-%s))", z);
	case 4: return F(k, "wp.log(1.0 + wp.exp(%s))", z);
	case 5: return F(k, "wp.clamp(%s, 0.0, %s)", z, kit_num(k, 1.0, 6.0));
	case 6: return chance(k->g, 50) ? F(k, "%s / (1.0 + wp.exp(-%s))", z, z)
					: F(k, "%s / (1.0 + wp.exp(-%s * %s))", z, kit_num_not(k, 0.5, 2.0, "1.0"), z);
	case 7: return F(k, "wp.where(%s > 0.0, %s, %s * (wp.exp(%s) - 1.0))", z, z, kit_num(k, 0.1, 1.5), z);
	default: return kit_shape(k, z);
	}
}

/* ---- particles: integration and boundaries -------------------------------- */

static void fam_particles(Kit *k)
{
	G *g = k->g;
	int two = chance(g, 20);
	const char *vt = two ? "wp.vec2" : "wp.vec3";
	/* a particle per thread, or a node of a cloth grid per thread of a
	 * 2-D launch */
	int nd = chance(g, 40) ? 2 : 1;
	const char *t = nd == 2 ? "i, j" : k->tid;
	const char *x = kit_arr(k, ONE(g, "x", "positions", "particle_x", "pos"), vt, nd);
	int verlet = chance(g, 20);
	const char *v = verlet ? 0 : kit_arr(k, ONE(g, "v", "velocities", "particle_v", "vel"), vt, nd);
	kit_tid_line(k, nd, nd == 2 ? "i" : t, "j");
	if (chance(g, 25)) {
		static const char *const fl[3] = {"particle_flags", "flags", "p_flags"};
		kit_active_check(k, t, nd, fl);
	}
	B(k, "x0 = %s[%s]", x, t);
	if (!verlet)
		B(k, "v0 = %s[%s]", v, t);
	/* the boundary: a ground, a sphere, a box, or none */
	static const int bw[] = {30, 30, 25, 15};
	int bnd = wpick(g, bw, 4);
	/* the acceleration: gravity, an applied force, drag, a spring to the
	 * origin; gravity a vector, or a magnitude along -y */
	const char *acc;
	if (chance(g, 30)) {
		const char *gy = kit_fparam(k, ONE(g, "gravity", "g"));
		acc = two ? F(k, "wp.vec2(0.0, -%s)", gy) : F(k, "wp.vec3(0.0, -%s, 0.0)", gy);
	} else {
		acc = kit_scalar(k, "gravity", vt);
	}
	int force = chance(g, 50), drag = chance(g, 40), anchor = chance(g, 25);
	if (force) {
		const char *f = kit_arr(k, ONE(g, "f", "forces", "particle_f"), vt, nd);
		if (chance(g, 70)) {
			const char *m = kit_arr(k, ONE(g, "inv_mass", "w", "inv_m"), "float", nd);
			acc = F(k, "%s + %s[%s] * %s[%s]", acc, f, t, m, t);
		} else {
			/* particles of one mass */
			acc = F(k, "%s + %s[%s] * %s", acc, f, t, kit_fparam(k, ONE(g, "inv_mass", "inv_m", "w")));
		}
	}
	if (drag && !verlet) {
		const char *cd = kit_fparam(k, ONE(g, "drag", "kd", "damping"));
		int dk = rnd(g, 10);
		if (dk < 3)
			/* quadratic drag, the speed times the velocity */
			acc = F(k, "%s - v0 * (wp.length(v0) * %s)", acc, cd);
		else if (dk < 5 && !two)
			/* drag against the air's velocity, a wind */
			acc = F(k, "%s - (v0 - %s) * %s", acc, kit_scalar(k, ONE(g, "wind", "wind_v", "air_v"), vt), cd);
		else
			acc = F(k, "%s - v0 * %s", acc, cd);
	}
	if (anchor)
		acc = F(k, "%s - x0 * %s", acc, kit_fparam(k, ONE(g, "ke", "stiffness", "k_anchor")));
	int fld = !two && chance(g, 40);
	if (fld)
		acc = F(k, "%s + %s", acc, kit_field(k, "x0"));
	/* the terms of the acceleration: with more than two the speeds of
	 * a step pass any limit of the order of the inputs' */
	int nacc = 1 + force + (drag && !verlet) + anchor + fld;
	B(k, "a = %s", acc);
	const char *dt = kit_fparam(k, "dt");
	if (verlet) {
		/* position Verlet from the previous positions */
		const char *xp = kit_arr(k, ONE(g, "x_prev", "prev_x", "old_pos"), vt, nd);
		const char *damp = kit_num(k, 0.98, 0.995);
		B(k, "x1 = x0 + (x0 - %s[%s]) * %s + a * (%s * %s)", xp, t, damp, dt, dt);
		B(k, "v1 = (x1 - x0) / %s", kit_num(k, 0.01, 0.02));
	} else if (chance(g, 70)) {
		/* semi-implicit Euler */
		B(k, "v1 = v0 + a * %s", dt);
		int damp = rnd(g, 5);
		if (damp < 2)
			B(k, "v1 = v1 * %s", kit_num(k, 0.98, 0.999));
		else if (damp == 2)
			/* exponential damping over the step */
			B(k, "v1 = v1 * wp.exp(-%s * %s)", kit_num(k, 0.05, 0.5), dt);
		if (nacc <= 2 && chance(g, 40)) {
			/* a speed limit, as warp.sim caps a particle's velocity */
			kit_cap_length(k, "v1", "speed", two ? kit_num(k, 0.5, 0.9) : kit_num(k, 0.8, 1.2));
		}
		B(k, "x1 = x0 + v1 * %s", dt);
	} else {
		/* explicit Euler */
		B(k, "x1 = x0 + v0 * %s", dt);
		B(k, "v1 = v0 + a * %s", dt);
	}
	if (chance(g, 35)) {
		/* jitter from a stream per particle */
		COV(g, stmt_assign);
		const char *seed = kit_scalar(k, "seed", "int");
		B(k, "rng = wp.rand_init(%s, %s)", seed, nd == 2 ? F(k, "i * %s.shape[1] + j", x) : t);
		const char *sigma = kit_fparam(k, ONE(g, "noise", "sigma", "jitter"));
		if (two)
			B(k, "x1 = x1 + %s * wp.sample_unit_disk(rng)", sigma);
		else
			B(k, "x1 = x1 + %s * %s(rng)", sigma, ONE(g, "wp.sample_unit_sphere", "wp.sample_unit_cube"));
	}
	/* the boundary */
	if (bnd == 0) {
		/* a ground plane, the normal velocity reflected; a particle
		 * rests on it at its radius, or at a height for all */
		const char *e = kit_num(k, 0.3, 0.8);
		const char *y = two ? "x1[1]" : ONE(g, "x1[1]", "x1.y");
		COV(g, stmt_if);
		const char *ground = chance(g, 30) ? F(k, "%s[%s]", kit_arr(k, ONE(g, "radius", "particle_radius", "r"), "float", nd), t)
						   : kit_num(k, -0.25, 0.1);
		B(k, "if %s < %s:", y, ground);
		k->ind++;
		if (two) {
			B(k, "x1 = wp.vec2(x1[0], %s)", ground);
		} else {
			COV(g, stmt_vec_index_store);
			B(k, "x1[1] = %s", ground);
		}
		if (chance(g, 35)) {
			/* friction: the sliding velocity slowed too */
			const char *mu = kit_num(k, 0.5, 0.95);
			B(k, "v1 = %s(v1[0] * %s, -%s * v1[1]%s)", vt, mu, e, two ? "" : F(k, ", v1[2] * %s", mu));
		} else if (chance(g, 50)) {
			COV(g, stmt_vec_index_store);
			B(k, "v1[1] = -%s * v1[1]", e);
		} else {
			B(k, "v1 = %s(v1[0], -%s * v1[1]%s)", vt, e, two ? "" : ", v1[2]");
		}
		k->ind--;
	} else if (bnd == 1) {
		/* a spherical obstacle: project out and cancel the inward speed */
		const char *c = kit_scalar(k, ONE(g, "center", "obstacle", "sphere_pos"), vt);
		const char *r = kit_num(k, 1.2, 1.6);
		B(k, "d = x1 - %s", c);
		B(k, "dist = wp.length(d)");
		COV(g, stmt_if);
		B(k, "if dist < %s:", r);
		k->ind++;
		B(k, "n = d / dist");
		B(k, "x1 = %s + n * %s", c, r);
		B(k, "v1 = v1 - n * wp.min(wp.dot(v1, n), 0.0)");
		k->ind--;
	} else if (bnd == 2) {
		/* a box: clamp the position, zero the velocity that left it */
		const char *lo = kit_num(k, -1.0, -0.5);
		const char *hi = kit_num(k, 0.5, 1.0);
		B(k, "inside = %s(wp.clamp(x1[0], %s, %s), wp.clamp(x1[1], %s, %s)%s)", vt, lo, hi, lo, hi,
		  two ? "" : F(k, ", wp.clamp(x1[2], %s, %s)", lo, hi));
		B(k, "v1 = v1 + (inside - x1) * %s", kit_num(k, 10.0, 50.0));
		B(k, "x1 = inside");
	}
	if (chance(g, 40) && !verlet) {
		COV(g, stmt_array_store);
		B(k, "%s[%s] = x1", x, t);
		B(k, "%s[%s] = v1", v, t);
	} else {
		const char *xo = kit_arr(k, ONE(g, "x_out", "x_new", "new_pos"), vt, nd);
		const char *vo = kit_arr(k, ONE(g, "v_out", "v_new", "new_vel"), vt, nd);
		B(k, "%s[%s] = x1", xo, t);
		B(k, "%s[%s] = v1", vo, t);
	}
	kit_end(k, ONE(g, "integrate_particles", "integrate", "advance", "step_particles", "simulate"));
}

/* ---- springs and constraints, scattered with atomics ---------------------- */

/* the stretch springs of a cloth grid, a node per thread: to the next
 * node along a row or a column (the last one to itself, a spring of no
 * length and no force), across the cell's diagonals, or two nodes on
 * (a bending spring) */
/* PLUS added into TO at the spring's end a, MINUS taken from it at b: by
 * atomics (ATOMIC), or by the array augmented assignments Warp makes atomic */
static void scatter_pair(Kit *k, int atomic, const char *to, const char *plus, const char *minus)
{
	if (atomic) {
		B(k, "wp.atomic_add(%s, a, %s)", to, plus);
		B(k, "wp.atomic_sub(%s, b, %s)", to, minus);
		return;
	}
	COV(k->g, stmt_array_atomic_add);
	COV(k->g, stmt_array_atomic_sub);
	B(k, "%s[a] += %s", to, plus);
	B(k, "%s[b] -= %s", to, minus);
}

static void springs_grid(Kit *k)
{
	G *g = k->g;
	const char *x = kit_arr(k, ONE(g, "x", "positions", "cloth_x"), "wp.vec3", 2);
	int damped = chance(g, 40);
	const char *v = damped ? kit_arr(k, ONE(g, "v", "velocities", "cloth_v"), "wp.vec3", 2) : 0;
	kit_tid_line(k, 2, "i", "j");
	if (chance(g, 25)) {
		static const char *const fn[3] = {"flags", "node_flags", "particle_flags"};
		kit_active_check(k, "i, j", 2, fn);
	}
	/* a stretch spring down a column or along a row, a shear spring
	 * across the cell's diagonal or its other one, or a bending spring
	 * two nodes along */
	static const int dw[] = {3, 3, 3, 2, 2};
	int dir = wpick(g, dw, 5);
	const char *nb = dir == 0 ? "i1, j" : dir == 1 ? "i, j1" : dir == 2 ? "i1, j1" : dir == 3 ? "i1, j0" : "i2, j";
	if (dir == 0 || dir == 2 || dir == 3)
		B(k, "i1 = wp.min(i + 1, %s.shape[0] - 1)", x);
	if (dir == 1 || dir == 2)
		B(k, "j1 = wp.min(j + 1, %s.shape[1] - 1)", x);
	if (dir == 3)
		B(k, "j0 = wp.max(j - 1, 0)");
	if (dir == 4)
		B(k, "i2 = wp.min(i + 2, %s.shape[0] - 1)", x);
	B(k, "d = %s[%s] - %s[i, j]", x, nb, x);
	B(k, "l = wp.sqrt(wp.dot(d, d) + %s)", kit_soft_eps(k));
	B(k, "dir = d / l");
	/* the rest length: the grid's spacing (times the diagonal's or the
	 * bend's factor), or the distance in the rest pose */
	const char *rest;
	if (chance(g, 30)) {
		const char *xr = kit_arr(k, ONE(g, "x_rest", "rest_pos", "X"), "wp.vec3", 2);
		B(k, "d0 = %s[%s] - %s[i, j]", xr, nb, xr);
		B(k, "l0 = wp.sqrt(wp.dot(d0, d0) + %s)", kit_soft_eps(k));
		rest = "l0";
	} else {
		rest = kit_fparam(k, ONE(g, "rest", "rest_length", "spacing"));
		if (dir == 2 || dir == 3)
			rest = F(k, "%s * %s", ONE(g, "1.41421", "1.4142", "1.414"), rest);
		else if (dir == 4)
			rest = F(k, "2.0 * %s", rest);
	}
	const char *ke = kit_coef(k, ONE(g, "ke", "stiffness", "k_stretch"), 10.0, 100.0);
	B(k, "stretch = l - %s", rest);
	const char *law = kit_prod(k, ke, chance(g, 15) ? "stretch" : kit_response(k, "stretch"));
	int limit = chance(g, 30);
	const char *fs = law;
	if (damped) {
		const char *kd = kit_fparam(k, ONE(g, "kd", "damping", "k_damp"));
		fs = F(k, "%s + %s * wp.dot(%s[%s] - %s[i, j], dir)", law, kd, v, nb, v);
	}
	if (limit) {
		/* a force limit, as cloth solvers cap a spring's pull */
		B(k, "fs = %s", fs);
		const char *fmax = kit_num(k, 0.5, 4.0);
		B(k, "f = dir * wp.clamp(fs, -%s, %s)", fmax, fmax);
	} else {
		B(k, "f = dir * (%s)", fs);
	}
	const char *fo = kit_arr(k, ONE(g, "forces", "cloth_f", "f_out"), "wp.vec3", 2);
	B(k, "wp.atomic_add(%s, i, j, f)", fo);
	B(k, "wp.atomic_sub(%s, %s, f)", fo, nb);
	if (chance(g, 25)) {
		const char *en = kit_arr(k, ONE(g, "energy", "spring_energy", "pe"), "float", 2);
		B(k, "%s[i, j] = %s", en, kit_prod(k, kit_times(k, 0.5, ke), "stretch * stretch"));
	}
	kit_end(k, ONE(g, "cloth_springs", "stretch_forces", "grid_springs"));
}

/* a spring's rest length: its entry of a rest-length array, that times
 * a muscle's activation, or the distance of its ends in a rest pose */
static const char *spring_rest(Kit *k, const char *t, const char *eps)
{
	G *g = k->g;
	int src = rnd(g, 4);
	if (src == 2) {
		const char *xr = kit_arr(k, ONE(g, "x_rest", "rest_pos", "X"), "wp.vec3", 1);
		B(k, "d0 = %s[b] - %s[a]", xr, xr);
		B(k, "l0 = wp.sqrt(wp.dot(d0, d0) + %s)", eps);
		return "l0";
	}
	const char *rest = kit_arr(k, ONE(g, "rest", "rest_length", "l0"), "float", 1);
	if (src == 3) {
		const char *act = kit_arr(k, ONE(g, "activation", "actuation", "muscle"), "float", 1);
		B(k, "rest_len = %s[%s] * (1.0 + %s * %s[%s])", rest, t, kit_num(k, 0.1, 0.5), act, t);
		return "rest_len";
	}
	return F(k, "%s[%s]", rest, t);
}

static void fam_springs(Kit *k)
{
	G *g = k->g;
	if (chance(g, 35)) {
		springs_grid(k);
		return;
	}
	const char *t = k->tid;
	const char *x = kit_arr(k, ONE(g, "x", "positions", "particle_x"), "wp.vec3", 1);
	int damped = chance(g, 55), pbd = chance(g, 25), helper = chance(g, 45);
	const char *v = damped && !pbd ? kit_arr(k, ONE(g, "v", "velocities", "particle_v"), "wp.vec3", 1) : 0;
	static const char *const ends[][2] = {{"spring_i", "spring_j"}, {"edge_a", "edge_b"}, {"springs_a", "springs_b"}};
	int e = rnd(g, 3);
	const char *ia = kit_arr(k, ends[e][0], "int", 1);
	const char *ib = kit_arr(k, ends[e][1], "int", 1);
	kit_tid_line(k, 1, t, 0);
	if (chance(g, 30)) {
		static const char *const fn[3] = {"spring_flags", "flags", "edge_flags"};
		kit_active_check(k, t, 1, fn);
	}
	B(k, "a = %s[%s]", ia, t);
	B(k, "b = %s[%s]", ib, t);
	const char *eps = kit_soft_eps(k);
	if (pbd) {
		/* a distance constraint, the correction split by inverse mass */
		const char *w = kit_arr(k, ONE(g, "inv_mass", "w", "inv_m"), "float", 1);
		const char *rest = spring_rest(k, t, eps);
		const char *stiff = chance(g, 25) ? F(k, "%s[%s]", kit_arr(k, ONE(g, "stiffness", "relaxation", "alpha"), "float", 1), t)
						  : kit_coef(k, ONE(g, "stiffness", "relaxation", "alpha"), 0.1, 1.0);
		B(k, "d = %s[b] - %s[a]", x, x);
		B(k, "l = wp.sqrt(wp.dot(d, d) + %s)", eps);
		B(k, "wa = %s[a]", w);
		B(k, "wb = %s[b]", w);
		B(k, "w_sum = wa + wb");
		COV(g, stmt_if);
		B(k, "if w_sum > %s:", kit_num(k, 0.05, 0.2));
		k->ind++;
		int tether = chance(g, 35);
		const char *C = F(k, "(l - %s)", rest);
		if (tether) {
			/* a tether: it resists stretching only */
			B(k, "C = wp.max(l - %s, 0.0)", rest);
			C = "C";
		}
		/* PBD's correction, or XPBD's with a compliance folded over
		 * the step (alpha / dt^2), which softens the constraint */
		const char *den = chance(g, 35) ? F(k, "(w_sum + %s)", kit_num(k, 0.005, 0.2)) : "w_sum";
		int lam = chance(g, 25);
		if (lam) {
			B(k, "dlambda = %s * %s / %s", stiff, C, den);
			B(k, "corr = d * (dlambda / l)");
		} else {
			B(k, "corr = d * (%s * %s / (l * %s))", stiff, C, den);
		}
		const char *dl = kit_arr(k, ONE(g, "delta", "dx", "corrections"), "wp.vec3", 1);
		scatter_pair(k, chance(g, 50), dl, "corr * wa", "corr * wb");
		if (lam) {
			const char *lo = kit_arr(k, ONE(g, "lambdas", "multipliers", "lambda_out"), "float", 1);
			COV(g, stmt_array_store);
			B(k, "%s[%s] = dlambda", lo, t);
		}
		k->ind--;
		kit_end(k, ONE(g, "solve_distance", "project_springs", "solve_springs"));
		return;
	}
	/* a stiffness and a damping for all springs, or one each */
	int per = chance(g, 30);
	const char *ke = per ? F(k, "%s[%s]", kit_arr(k, ONE(g, "spring_ke", "stiffness", "k_spring"), "float", 1), t)
			     : kit_fparam(k, ONE(g, "ke", "stiffness", "k_spring"));
	const char *kd = !damped ? 0
		       : per ? F(k, "%s[%s]", kit_arr(k, ONE(g, "spring_kd", "damping", "k_damp"), "float", 1), t)
			     : kit_coef(k, ONE(g, "kd", "damping", "k_damp"), 0.01, 0.5);
	/* a cap on the force's magnitude, as solvers limit a spring's pull */
	const char *fmax = chance(g, 25) ? kit_num(k, 0.5, 4.0) : 0;
	const char *rest = spring_rest(k, t, eps);
	const char *fn = 0;
	if (helper) {
		fn = kit_hname(k, ONE(g, "spring_force", "spring", "eval_spring"));
		H(k, "@wp.func");
		if (damped)
			H(k, "def %s(xa: wp.vec3, xb: wp.vec3, va: wp.vec3, vb: wp.vec3, rest: float, ke: float, kd: float) -> wp.vec3:", fn);
		else
			H(k, "def %s(xa: wp.vec3, xb: wp.vec3, rest: float, ke: float) -> wp.vec3:", fn);
		H(k, "    d = xb - xa");
		H(k, "    l = wp.sqrt(wp.dot(d, d) + %s)", eps);
		H(k, "    dir = d / l");
		/* a linear spring, or one whose force is a response of the stretch */
		const char *law = "(l - rest)";
		if (chance(g, 85)) {
			H(k, "    stretch = l - rest");
			law = kit_response(k, "stretch");
		}
		const char *fs = damped ? F(k, "%s + kd * wp.dot(vb - va, dir)", kit_prod(k, "ke", law)) : kit_prod(k, "ke", law);
		if (fmax) {
			H(k, "    fs = %s", fs);
			H(k, "    return dir * wp.clamp(fs, -%s, %s)", fmax, fmax);
		} else {
			H(k, "    return dir * (%s)", fs);
		}
		H(k, "\n");
		COV(g, stmt_return_func);
		COV(g, expr_call_func);
		if (damped)
			B(k, "f = %s(%s[a], %s[b], %s[a], %s[b], %s, %s, %s)", fn, x, x, v, v, rest, ke, kd);
		else
			B(k, "f = %s(%s[a], %s[b], %s, %s)", fn, x, x, rest, ke);
	} else {
		B(k, "d = %s[b] - %s[a]", x, x);
		B(k, "l = wp.sqrt(wp.dot(d, d) + %s)", eps);
		B(k, "dir = d / l");
		B(k, "stretch = l - %s", rest);
		if (chance(g, 50)) {
			/* strain limiting: past the limit the spring stiffens no more
			 * (a rest pose's length is near the current one, so its
			 * limit is nearer) */
			const char *lim = !strcmp(rest, "l0") ? kit_num(k, 0.2, 0.6) : kit_num(k, 0.8, 1.6);
			COV(g, stmt_if);
			B(k, "if stretch > %s:", lim);
			k->ind++;
			B(k, "stretch = %s", lim);
			k->ind--;
		}
		const char *fs;
		if (damped) {
			B(k, "dv = %s[b] - %s[a]", v, v);
			fs = F(k, "%s + %s * wp.dot(dv, dir)", kit_prod(k, ke, chance(g, 40) ? "stretch" : kit_response(k, "stretch")), kd);
		} else {
			fs = kit_prod(k, ke, chance(g, 50) ? "stretch" : kit_response(k, "stretch"));
		}
		int tension = chance(g, 25);
		if (fmax || tension) {
			B(k, "fs = %s", fs);
			if (fmax)
				B(k, "fs = wp.clamp(fs, -%s, %s)", fmax, fmax);
			B(k, "f = dir * fs");
		} else {
			B(k, "f = dir * (%s)", fs);
		}
		if (tension) {
			/* the spring's tension, for the renderer or a tearing pass */
			const char *te = kit_arr(k, ONE(g, "tension", "spring_force", "f_spring"), "float", 1);
			COV(g, stmt_array_store);
			B(k, "%s[%s] = fs", te, t);
		}
		if (chance(g, 50)) {
			const char *en = kit_arr(k, ONE(g, "energy", "potential", "pe"), "float", 1);
			B(k, "wp.atomic_add(%s, 0, %s * stretch * stretch)", en, kit_times(k, 0.5, ke));
		}
	}
	int out = rnd(g, 5);
	if (out == 4) {
		/* the spring's impulse over the step, straight into the
		 * velocities' change, split by inverse mass */
		const char *w = kit_arr(k, ONE(g, "inv_mass", "w", "inv_m"), "float", 1);
		const char *dt = kit_fparam(k, "dt");
		const char *dv = kit_arr(k, ONE(g, "delta_v", "v_delta", "dv_out"), "wp.vec3", 1);
		B(k, "wp.atomic_add(%s, a, f * (%s * %s[a]))", dv, dt, w);
		B(k, "wp.atomic_sub(%s, b, f * (%s * %s[b]))", dv, dt, w);
	} else {
		const char *fo = kit_arr(k, ONE(g, "forces", "particle_f", "f_out"), "wp.vec3", 1);
		scatter_pair(k, out < 2, fo, "f", "f");
	}
	kit_end(k, ONE(g, "eval_springs", "spring_forces", "apply_springs", "accumulate_springs"));
}

/* ---- grid stencils on 2-D arrays ---------------------------------------- */

/* A grid of 2 or 3 dimensions, one thread a cell: the index names, the
 * extents' names and the neighbours' names along each axis. */
typedef struct Grid {
	int nd;
	const char *at;      /* "i, j" or "i, j, k" */
	const char *ix[3];   /* i j k */
	const char *n[3];    /* nx ny nz */
	const char *lo[3];   /* left down back: the neighbour below, per axis */
	const char *hi[3];   /* right up front */
} Grid;

/* U at the cell, with axis A's index replaced by IDX */
static const char *cell_at(Kit *k, const Grid *gr, const char *u, int a, const char *idx)
{
	const char *c[3];
	for (int d = 0; d < gr->nd; d++)
		c[d] = d == a ? idx : gr->ix[d];
	return gr->nd == 2 ? F(k, "%s[%s, %s]", u, c[0], c[1]) : F(k, "%s[%s, %s, %s]", u, c[0], c[1], c[2]);
}

/* the sum of the neighbours' names: "left + right + down + up" */
static const char *nb_sum(Kit *k, const Grid *gr)
{
	const char *s = F(k, "%s + %s", gr->lo[0], gr->hi[0]);
	for (int d = 1; d < gr->nd; d++)
		s = F(k, "%s + %s + %s", s, gr->lo[d], gr->hi[d]);
	return s;
}

/* A diffusion coefficient NAME: one for the grid (a parameter), or one a
 * cell (an array, for a material that varies) */
static const char *coeff(Kit *k, const Grid *gr, const char *name)
{
	if (chance(k->g, 30))
		return F(k, "%s[%s]", kit_arr(k, name, "float", gr->nd), gr->at);
	return kit_coef(k, name, 0.05, 0.25);
}

/* O at the cell = VAL, or in a fifth of the kernels KEEP where the cell
 * is solid (a flag a cell, 0 for an obstacle), VAL elsewhere */
static void grid_store(Kit *k, const Grid *gr, const char *o, const char *val, const char *keep)
{
	G *g = k->g;
	if (!chance(g, 20)) {
		B(k, "%s[%s] = %s", o, gr->at, val);
		return;
	}
	const char *fl = kit_arr(k, ONE(g, "flags", "cell_type", "solid"), "int", gr->nd);
	COV(g, stmt_if);
	COV(g, stmt_else);
	B(k, "if %s[%s] == 0:", fl, gr->at);
	k->ind++;
	B(k, "%s[%s] = %s", o, gr->at, keep);
	k->ind--;
	B(k, "else:");
	k->ind++;
	B(k, "%s[%s] = %s", o, gr->at, val);
	k->ind--;
}

/* the extents of U along the axes in the bit set AXES (those an index
 * is clamped or wrapped along) */
static void grid_extents(Kit *k, const Grid *gr, const char *u, int axes)
{
	for (int d = 0; d < gr->nd; d++)
		if (axes >> d & 1)
			B(k, "%s = %s.shape[%d]", gr->n[d], u, d);
}

/* In a fifth of the kernels only the active cells of a sparse grid (a
 * narrow band about a surface, the tiles in use) are updated: the
 * others return at once */
static void grid_active(Kit *k, const Grid *gr)
{
	static const char *const fl[] = {"cell_flags", "region", "band"};
	if (chance(k->g, 20))
		kit_active_check(k, gr->at, gr->nd, fl);
}

/* The neighbour of the cell along axis D, below it (UP 0) or above (1):
 * clamped at the grid's edge by wp.max or wp.min (BND 0), or by
 * wp.clamp (CL), or wrapped around (BND 1, a periodic grid) */
static const char *nb_index(Kit *k, const Grid *gr, int d, int bnd, int cl, int up)
{
	const char *x = gr->ix[d], *n = gr->n[d];
	if (cl)
		return F(k, "wp.clamp(%s %s 1, 0, %s - 1)", x, up ? "+" : "-", n);
	if (bnd == 0)
		return up ? F(k, "wp.min(%s + 1, %s - 1)", x, n) : F(k, "wp.max(%s - 1, 0)", x);
	return up ? F(k, "(%s + 1) %% %s", x, n) : F(k, "(%s + %s - 1) %% %s", x, n, n);
}

/* Perona and Malik's flux from a neighbour A into the cell C: the
 * difference, damped where it is large (an edge), so that the diffusion
 * smooths within regions and keeps the borders between them */
static const char *edge_flux(Kit *k)
{
	G *g = k->g;
	const char *fn = kit_hname(k, ONE(g, "edge_flux", "pm_flux", "conduct"));
	const char *kk = kit_num(k, 2.0, 20.0);
	H(k, "@wp.func");
	H(k, "def %s(a: float, c: float) -> float:", fn);
	H(k, "    d = a - c");
	if (chance(g, 50))
		H(k, "    return d / (1.0 + %s * d * d)", kk);
	else
		H(k, "    return d * wp.exp(-%s * d * d)", kk);
	H(k, "\n");
	COV(g, stmt_return_func);
	COV(g, expr_call_func);
	return fn;
}

/* E in parentheses, unless it is a name */
static const char *paren(Kit *k, const char *e)
{
	for (const char *p = e; *p; p++)
		if (!(*p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')))
			return F(k, "(%s)", e);
	return e;
}

/* Diffusion through a coefficient that varies from cell to cell, in
 * the conservative form: each face's coefficient the mean of the two
 * cells it parts, times the difference across it.  The neighbours of
 * axis d are at LO[d] and HI[d] (indices), their values VLO[d], VHI[d];
 * writes lap, the coefficient inside it */
static void face_flux(Kit *k, const Grid *gr, const char *const lo[3], const char *const hi[3], const char *const vlo[3],
		      const char *const vhi[3])
{
	G *g = k->g;
	const char *kap = kit_arr(k, ONE(g, "kappa", "conductivity", "diffusivity"), "float", gr->nd), *t = "";
	B(k, "kc = %s[%s]", kap, gr->at);
	for (int d = 0; d < gr->nd; d++)
		t = F(k, "%s%s(%s + kc) * (%s - c) + (%s + kc) * (%s - c)", t, d ? " + " : "", cell_at(k, gr, kap, d, lo[d]), vlo[d],
		      cell_at(k, gr, kap, d, hi[d]), vhi[d]);
	B(k, "lap = 0.5 * (%s)", t);
}

/* Semi-Lagrangian advection, as Warp's own fluid example writes it: the
 * cell's centre traced back along its velocity over the step, and the
 * field read there by bilinear (trilinear) interpolation in a @wp.func,
 * the point clamped into the grid.  U is the field, its tid line
 * written. */
static void advect_traced(Kit *k, const Grid *gr, const char *u)
{
	G *g = k->g;
	int nd = gr->nd;
	const char *vt = nd == 2 ? "wp.vec2" : "wp.vec3";
	static const char *const x[] = {"x", "y", "z"}, *const fx[] = {"fx", "fy", "fz"};
	const char *fn = kit_hname(k, ONE(g, "sample", "lookup", "interp"));
	H(k, "@wp.func");
	H(k, "def %s(f: wp.array%dd(dtype=float), p: %s) -> float:", fn, nd, vt);
	if (chance(g, 35)) {
		/* a periodic domain: the cell below the point, wrapped */
		for (int d = 0; d < nd; d++) {
			H(k, "    %s = f.shape[%d]", gr->n[d], d);
			H(k, "    %s0 = int(wp.floor(p[%d]))", gr->ix[d], d);
			H(k, "    %s = p[%d] - float(%s0)", fx[d], d, gr->ix[d]);
			H(k, "    %s0 = (%s0 %% %s + %s) %% %s", gr->ix[d], gr->ix[d], gr->n[d], gr->n[d], gr->n[d]);
			H(k, "    %s1 = (%s0 + 1) %% %s", gr->ix[d], gr->ix[d], gr->n[d]);
		}
	} else {
		for (int d = 0; d < nd; d++)
			H(k, "    %s = wp.clamp(p[%d], 0.0, float(f.shape[%d] - 1))", x[d], d, d);
		for (int d = 0; d < nd; d++) {
			H(k, "    %s0 = int(%s)", gr->ix[d], x[d]);
			H(k, "    %s1 = wp.min(%s0 + 1, f.shape[%d] - 1)", gr->ix[d], gr->ix[d], d);
			H(k, "    %s = %s - float(%s0)", fx[d], x[d], gr->ix[d]);
		}
	}
	if (nd == 2) {
		H(k, "    a = wp.lerp(f[i0, j0], f[i1, j0], fx)");
		H(k, "    b = wp.lerp(f[i0, j1], f[i1, j1], fx)");
		H(k, "    return wp.lerp(a, b, fy)");
	} else {
		H(k, "    a = wp.lerp(f[i0, j0, k0], f[i1, j0, k0], fx)");
		H(k, "    b = wp.lerp(f[i0, j1, k0], f[i1, j1, k0], fx)");
		H(k, "    c = wp.lerp(f[i0, j0, k1], f[i1, j0, k1], fx)");
		H(k, "    d = wp.lerp(f[i0, j1, k1], f[i1, j1, k1], fx)");
		H(k, "    return wp.lerp(wp.lerp(a, b, fy), wp.lerp(c, d, fy), fz)");
	}
	H(k, "\n");
	COV(g, stmt_return_func);
	COV(g, expr_call_func);
	const char *vel = kit_arr(k, ONE(g, "vel", "velocity", "flow"), vt, nd);
	const char *dt = kit_coef(k, "dt", 0.01, 0.2);
	if (chance(g, 45)) /* the velocity in cells per unit time */
		B(k, "w = %s[%s] * %s", vel, gr->at, kit_coef(k, ONE(g, "inv_dx", "inv_h", "cells_per_unit"), 1.0, 4.0));
	else
		B(k, "w = %s[%s]", vel, gr->at);
	B(k, "p = %s(%s) - w * %s", vt, nd == 2 ? "float(i), float(j)" : "float(i), float(j), float(k)", dt);
	const char *o = kit_arr(k, F(k, "%s_out", u), "float", nd);
	const char *next = F(k, "%s(%s, p)", fn, u);
	if (chance(g, 30)) /* a source over the step */
		next = F(k, "%s + %s * %s[%s]", next, dt, kit_arr(k, ONE(g, "source", "inflow", "emission"), "float", nd), gr->at);
	if (chance(g, 60)) /* dissipated a little each step, as smoke fades */
		next = F(k, "%s * %s", paren(k, next), kit_num(k, 0.9, 0.999));
	B(k, "%s[%s] = %s", o, gr->at, next);
	if (chance(g, 30)) {
		/* a second quantity carried by the same flow (smoke's
		 * temperature beside its density) */
		const char *q = kit_arr(k, ONE(g, "smoke", "dye", "heat"), "float", nd);
		B(k, "%s[%s] = %s(%s, p)", kit_arr(k, F(k, "%s_out", q), "float", nd), gr->at, fn, q);
	}
	kit_end(k, ONE(g, "advect", "semi_lagrangian", "trace_back"));
}

/* A step of a level set's reinitialisation (Sussman, Smereka and
 * Osher): c moved by dt * sign(c) * (1 - |grad c|), the sign smoothed,
 * |grad c| by Godunov's upwind choice of the one-sided differences in a
 * @wp.func, softened where it vanishes.  The cell c and its neighbours
 * are read. */
static void redistance(Kit *k, const Grid *gr, const char *u)
{
	G *g = k->g;
	const char *fn = kit_hname(k, ONE(g, "godunov", "upwind_sq", "one_sided_sq"));
	H(k, "@wp.func");
	H(k, "def %s(a: float, b: float, s: float) -> float:", fn);
	H(k, "    # a the backward difference, b the forward one");
	COV(g, stmt_if);
	H(k, "    if s > 0.0:");
	H(k, "        ap = wp.max(a, 0.0)");
	H(k, "        bm = wp.min(b, 0.0)");
	H(k, "        return wp.max(ap * ap, bm * bm)");
	H(k, "    am = wp.min(a, 0.0)");
	H(k, "    bp = wp.max(b, 0.0)");
	H(k, "    return wp.max(am * am, bp * bp)");
	H(k, "\n");
	COV(g, stmt_return_func);
	COV(g, expr_call_func);
	const char *t = "";
	for (int d = 0; d < gr->nd; d++)
		t = F(k, "%s%s%s(c - %s, %s - c, c)", t, d ? " + " : "", fn, gr->lo[d], gr->hi[d]);
	B(k, "g2 = %s", t);
	const char *h = chance(g, 20) ? 0 : kit_coef(k, ONE(g, "inv_dx", "inv_h", "scale"), 1.0, 8.0);
	const char *norm = F(k, "wp.sqrt(g2 + %s)", kit_soft_eps(k));
	B(k, "gn = %s", h ? F(k, "%s * %s", norm, h) : norm);
	/* sign(c), smoothed over about a cell */
	B(k, "sgn = c / wp.sqrt(c * c + %s)", kit_num(k, 0.01, 0.2));
	const char *o = kit_arr(k, F(k, "%s_out", u), "float", gr->nd);
	B(k, "%s[%s] = c - %s * sgn * (gn - 1.0)", o, gr->at, kit_coef(k, ONE(g, "dt", "dtau", "tau"), 0.01, 0.2));
	kit_end(k, ONE(g, "reinit", "redistance", "reinitialize"));
}

/* RATE (a term of the cell's update) kept in a local and also written
 * to an array of its own in a sixth of the kernels, as a multi-stage
 * integrator stores each stage's time derivative */
static const char *tendency(Kit *k, const Grid *gr, const char *rate)
{
	G *g = k->g;
	if (!chance(g, 16))
		return rate;
	B(k, "r = %s", rate);
	B(k, "%s[%s] = r", kit_arr(k, ONE(g, "tendency", "du_dt", "rate"), "float", gr->nd), gr->at);
	return "r";
}

/* A sum of differences, each along an axis (AX) with its sign: over
 * one cell size S (a literal, a name or 0 for a unit cell), or, where H
 * is a vector of inverse cell sizes, each difference over its axis's;
 * HALF for central differences */
static const char *over_h(Kit *k, int n, const int *ax, const char *const *dif, const char *h, int axes, int half)
{
	const char *t = "";
	for (int a = 0; a < n; a++) {
		const char *term = axes ? F(k, "(%s) * %s[%d]", dif[a] + (dif[a][0] == '-'), h, ax[a]) : dif[a] + (dif[a][0] == '-');
		t = F(k, "%s%s%s", t, !a ? (dif[a][0] == '-' ? "-" : "") : dif[a][0] == '-' ? " - " : " + ",
		      dif[a][0] == '-' && !axes ? F(k, "(%s)", term) : term);
	}
	const char *s = axes ? (half ? "0.5" : 0) : half ? (h ? kit_times(k, 0.5, h) : "0.5") : h;
	return s ? F(k, "(%s) * %s", t, s) : t;
}

/* The divergence of a velocity field (the right-hand side of a pressure
 * solve) or its curl (the vorticity: a scalar in the plane, a vector in
 * a volume), or both: central differences of a vector a cell, or
 * differences of a staggered (MAC) grid's face components, an array
 * each.  Or vorticity confinement: a force along the curl's magnitude's
 * gradient, crossed with the curl, that puts back the swirl numerical
 * diffusion takes away. */
static void stencil_div(Kit *k, Grid *gr)
{
	G *g = k->g;
	int nd = gr->nd;
	const char *at = gr->at, *vt = nd == 2 ? "wp.vec2" : "wp.vec3";
	static const int ww[] = {26, 20, 12, 24, 18};
	/* the divergence, the curl, both, confinement, the strain rate */
	int what = wpick(g, ww, 5);
	int mac = (what == 0 || (what == 1 && nd == 2)) && chance(g, 35);
	int bnd = rnd(g, 2), cl = !bnd && chance(g, 35);
	static const char *const vn[] = {"vx", "vy", "vz"};
	const char *vel = 0, *vc[3], *vort = 0;
	if (what == 3)
		vort = kit_arr(k, ONE(g, "vort", "vorticity", "curl"), nd == 2 ? "float" : "wp.vec3", nd);
	/* confinement writes the force alone, or the velocity it adds to */
	int force_only = what == 3 && chance(g, 40);
	if (mac)
		for (int d = 0; d < nd; d++)
			vc[d] = kit_arr(k, vn[d], "float", nd);
	else if (!force_only)
		vel = kit_arr(k, ONE(g, "vel", "velocity", "u_vel"), vt, nd);
	if (nd == 2)
		kit_tid_line(k, 2, "i", "j");
	else
		tid3_line(k);
	grid_active(k, gr);
	/* a staggered curl reads only the faces below: clamped by wp.max,
	 * it needs no extent */
	grid_extents(k, gr, vort ? vort : mac ? vc[0] : vel, mac && what == 1 && bnd == 0 && !cl ? 0 : 7);
	if (what == 3) {
		/* the curl's magnitude at the neighbours, its gradient's
		 * direction (the scale cancels), the force across it */
		for (int d = 0; d < nd; d++)
			for (int up = 0; up < 2; up++)
				B(k, "%s = %s(%s)", up ? gr->hi[d] : gr->lo[d], nd == 2 ? "wp.abs" : "wp.length",
				  cell_at(k, gr, vort, d, nb_index(k, gr, d, bnd, cl, up)));
		B(k, "w = %s[%s]", vort, at);
		B(k, "g = %s(%s)", vt, nd == 2 ? "right - left, up - down" : "right - left, up - down, front - back");
		B(k, "n = g / (wp.length(g) + %s)", kit_soft_eps(k));
		const char *eps = kit_coef(k, ONE(g, "confinement", "eps_conf", "vorticity_scale"), 0.05, 0.5);
		if (chance(g, 50)) {
			/* scaled by the cell's size, so that it vanishes as the
			 * grid is refined */
			const char *dx = kit_coef(k, ONE(g, "dx", "h", "cell_size"), 0.01, 0.2);
			eps = is_lit(eps) && is_lit(dx) ? kit_dec(k, atof(eps) * atof(dx)) : F(k, "%s * %s", eps, dx);
		}
		const char *f = nd == 2 ? F(k, "wp.vec2(n[1] * w, -n[0] * w) * %s", eps) : F(k, "wp.cross(n, w) * %s", eps);
		if (force_only) {
			B(k, "%s[%s] = %s", kit_arr(k, ONE(g, "force", "f_conf", "body_force"), vt, nd), at, f);
		} else {
			B(k, "f = %s", f);
			const char *o = kit_arr(k, ONE(g, "vel_out", "v_new", "velocity_out"), vt, nd);
			B(k, "%s[%s] = %s[%s] + f * %s", o, at, vel, at, kit_coef(k, "dt", 0.01, 0.2));
		}
		kit_end(k, ONE(g, "confine_vorticity", "vorticity_confinement", "add_swirl"));
		return;
	}
	if (what == 4) {
		/* the velocity's gradient L (a column per axis), its
		 * symmetric part S, the strain rate |S| = sqrt(2 S:S), and
		 * Smagorinsky's eddy viscosity (Cs dx)^2 |S| of a large-eddy
		 * simulation, maybe over a molecular one */
		for (int d = 0; d < nd; d++) {
			B(k, "%s = %s", gr->lo[d], cell_at(k, gr, vel, d, nb_index(k, gr, d, bnd, cl, 0)));
			B(k, "%s = %s", gr->hi[d], cell_at(k, gr, vel, d, nb_index(k, gr, d, bnd, cl, 1)));
		}
		const char *h = chance(g, 15) ? 0 : kit_coef(k, ONE(g, "inv_dx", "inv_h", "scale"), 1.0, 8.0);
		B(k, "L = wp.matrix_from_cols(%s) * %s", nd == 2 ? "right - left, up - down" : "right - left, up - down, front - back",
		  h ? kit_times(k, 0.5, h) : "0.5");
		B(k, "S = 0.5 * (L + wp.transpose(L))");
		B(k, "rate = wp.sqrt(2.0 * wp.ddot(S, S) + %s)", kit_soft_eps(k));
		const char *nu = kit_prod(k, kit_coef(k, ONE(g, "c_smag", "cs2_dx2", "smagorinsky"), 0.001, 0.05), "rate");
		if (chance(g, 40))
			nu = F(k, "%s + %s", kit_coef(k, ONE(g, "nu", "nu_mol", "viscosity"), 0.001, 0.01), nu);
		grid_store(k, gr, kit_arr(k, ONE(g, "nu_t", "eddy_visc", "nu_turb"), "float", nd), nu, "0.0");
		if (chance(g, 30))
			B(k, "%s[%s] = S", kit_arr(k, ONE(g, "strain", "strain_rate", "S_out"), nd == 2 ? "wp.mat22" : "wp.mat33", nd), at);
		kit_end(k, ONE(g, "smagorinsky", "eddy_viscosity", "strain_rate"));
		return;
	}
	/* 1 / dx (1 / (2 dx) central): a cell of unit size, the scale, or
	 * cells of another size along each axis */
	int unit = chance(g, 10), axes = !unit && chance(g, 20);
	const char *h = unit ? 0 : axes ? kit_scalar(k, ONE(g, "inv_h", "inv_spacing", "axis_scale"), vt)
				     : kit_coef(k, ONE(g, "inv_dx", "inv_h", "scale"), 1.0, 8.0);
	const char *dif[3] = {0}, *div = 0, *w = 0;
	int ax[3] = {0, 1, 2};
	if (mac) {
		/* face components: the divergence by the faces above less
		 * the cell's own, the curl at a cell's corner by the faces
		 * below */
		for (int d = 0; d < nd; d++)
			dif[d] = F(k, "%s - %s[%s]", cell_at(k, gr, vc[d], d, nb_index(k, gr, d, bnd, cl, 1)), vc[d], at);
		if (what == 0) {
			div = over_h(k, nd, ax, dif, h, axes, 0);
		} else {
			int cx[2] = {0, 1};
			const char *cd[2] = {F(k, "%s[%s] - %s", vc[1], at, cell_at(k, gr, vc[1], 0, nb_index(k, gr, 0, bnd, cl, 0))),
					     F(k, "-%s[%s] - %s", vc[0], at, cell_at(k, gr, vc[0], 1, nb_index(k, gr, 1, bnd, cl, 0)))};
			w = over_h(k, 2, cx, cd, h, axes, 0);
		}
	} else {
		for (int d = 0; d < nd; d++) {
			B(k, "%s = %s", gr->lo[d], cell_at(k, gr, vel, d, nb_index(k, gr, d, bnd, cl, 0)));
			B(k, "%s = %s", gr->hi[d], cell_at(k, gr, vel, d, nb_index(k, gr, d, bnd, cl, 1)));
		}
		for (int d = 0; d < nd; d++)
			dif[d] = F(k, "%s[%d] - %s[%d]", gr->hi[d], d, gr->lo[d], d);
		div = over_h(k, nd, ax, dif, h, axes, 1);
		/* dv/dx - du/dy, or the curl's three components */
		int cx[2] = {0, 1};
		const char *cd[2] = {"right[1] - left[1]", "-up[0] - down[0]"};
		if (nd == 2) {
			w = over_h(k, 2, cx, cd, h, axes, 1);
		} else {
			const char *c3 = "";
			static const int ca[3][2] = {{1, 2}, {2, 0}, {0, 1}}; /* the axes of each component's two terms */
			static const char *const lo[] = {"left", "down", "back"}, *const hi[] = {"right", "up", "front"};
			for (int c = 0; c < 3; c++) {
				int a = ca[c][0], b = ca[c][1];
				const char *d2[2] = {F(k, "%s[%d] - %s[%d]", hi[a], b, lo[a], b),
						     F(k, "-%s[%d] - %s[%d]", hi[b], a, lo[b], a)};
				int x2[2] = {a, b};
				c3 = F(k, "%s%s%s", c3, c ? ", " : "", over_h(k, 2, x2, d2, axes ? h : 0, axes, 0));
			}
			w = F(k, "wp.vec3(%s)", c3);
			const char *s = axes ? "0.5" : h ? kit_times(k, 0.5, h) : "0.5";
			w = F(k, "%s * %s", w, s);
		}
	}
	if (what != 1) {
		const char *o = kit_arr(k, ONE(g, "div", "divergence", "rhs"), "float", nd);
		/* the pressure solve's right-hand side, density over dt
		 * times the divergence, or the divergence; a solid cell has
		 * none; maybe its squared norm summed, to stop the solver */
		int rhs = chance(g, 65), norm = chance(g, 25);
		const char *val = div;
		if (rhs || norm) {
			B(k, "d = %s", div);
			val = "d";
		}
		if (rhs)
			val = F(k, "-%s * d", kit_coef(k, ONE(g, "rho_over_dt", "inv_dt", "rho"), 2.0, 40.0));
		grid_store(k, gr, o, val, "0.0");
		if (norm)
			B(k, "wp.atomic_add(%s, 0, d * d)", kit_arr(k, ONE(g, "div_norm", "residual", "div_sq"), "float", 1));
	}
	if (what != 0) {
		const char *o = kit_arr(k, ONE(g, "vort", "vorticity", "curl"), nd == 2 ? "float" : "wp.vec3", nd);
		/* its strength, for confinement or display; the enstrophy,
		 * half its square summed over the cells */
		int mag = chance(g, 30), ens = chance(g, 35);
		if (mag || ens) {
			B(k, "w = %s", w);
			w = "w";
		}
		if (what == 1) /* a solid cell does not turn */
			grid_store(k, gr, o, w, nd == 2 ? "0.0" : "wp.vec3(0.0)");
		else
			B(k, "%s[%s] = %s", o, at, w);
		if (mag)
			B(k, "%s[%s] = %s", kit_arr(k, ONE(g, "vort_mag", "strength", "omega"), "float", nd), at,
			  nd == 2 ? "wp.abs(w)" : "wp.length(w)");
		if (ens) {
			const char *e = kit_arr(k, ONE(g, "enstrophy", "total_enstrophy", "ens"), "float", 1);
			const char *area = kit_coef(k, ONE(g, "cell_area", "cell_volume", "dv"), 0.001, 0.05);
			B(k, "wp.atomic_add(%s, 0, %s)", e, kit_prod(k, kit_times(k, 0.5, area), nd == 2 ? "w * w" : "wp.dot(w, w)"));
		}
	}
	kit_end(k, what == 0 ? ONE(g, "divergence", "compute_div", "velocity_div") : ONE(g, "vorticity", "curl", "compute_curl"));
}

static void fam_stencil(Kit *k)
{
	G *g = k->g;
	/* a third of the grids are volumes, as in smoke and heat solvers */
	Grid gr = {chance(g, 30) ? 3 : 2, 0, {"i", "j", "k"}, {"nx", "ny", "nz"},
		   {"left", "down", "back"}, {"right", "up", "front"}};
	int nd = gr.nd;
	gr.at = nd == 2 ? "i, j" : "i, j, k";
	if (chance(g, 4)) {
		stencil_div(k, &gr);
		return;
	}
	const char *u = kit_arr(k, ONE(g, "u", "field", "temp", "phi", "density"), "float", nd);
	if (nd == 2)
		kit_tid_line(k, 2, "i", "j");
	else
		tid3_line(k);
	grid_active(k, &gr);
	const char *vt = nd == 2 ? "wp.vec2" : "wp.vec3";
	int mode = rnd(g, 4); /* neighbours: clamped, periodic, fixed boundary, 3x3 window */
	if (mode == 2) {
		const char *o = kit_arr(k, F(k, "%s_out", u), "float", nd);
		grid_extents(k, &gr, u, 7);
		COV(g, stmt_if);
		COV(g, expr_or);
		const char *edge = "";
		for (int d = 0; d < nd; d++)
			edge = F(k, "%s%s%s == 0 or %s == %s - 1", edge, d ? " or " : "", gr.ix[d], gr.ix[d], gr.n[d]);
		B(k, "if %s:", edge);
		k->ind++;
		/* the boundary holds zero, its own value, a given one, or one
		 * given a cell */
		int bc = rnd(g, 4);
		B(k, "%s[%s] = %s", o, gr.at,
		  bc == 0   ? "0.0"
		  : bc == 1 ? F(k, "%s[%s]", u, gr.at)
		  : bc == 2 ? kit_fparam(k, ONE(g, "boundary_value", "wall_temp", "bc"))
			    : F(k, "%s[%s]", kit_arr(k, ONE(g, "bc_value", "wall_values", "dirichlet"), "float", nd), gr.at));
		COV(g, stmt_return_kernel);
		B(k, "return");
		k->ind--;
		B(k, "c = %s[%s]", u, gr.at);
		const char *pair[3], *lo[3], *hi[3];
		for (int d = 0; d < nd; d++) {
			lo[d] = cell_at(k, &gr, u, d, F(k, "%s - 1", gr.ix[d]));
			hi[d] = cell_at(k, &gr, u, d, F(k, "%s + 1", gr.ix[d]));
			pair[d] = F(k, "%s + %s", lo[d], hi[d]);
		}
		int pm = chance(g, 40), face = !pm && chance(g, 12); /* Perona-Malik's edge-stopping flux */
		if (face) {
			const char *il[3], *ih[3];
			for (int d = 0; d < nd; d++) {
				il[d] = F(k, "%s - 1", gr.ix[d]);
				ih[d] = F(k, "%s + 1", gr.ix[d]);
			}
			face_flux(k, &gr, il, ih, lo, hi);
		} else if (pm) {
			const char *fn = edge_flux(k), *t = "";
			for (int d = 0; d < nd; d++)
				t = F(k, "%s%s%s(%s, c) + %s(%s, c)", t, d ? " + " : "", fn, lo[d], fn, hi[d]);
			B(k, "lap = %s", t);
		} else if (nd == 2 && chance(g, 30)) {
			/* the nine-point Laplacian, its diagonals weighted a
			 * quarter of the edges */
			B(k, "edge = %s + %s", pair[0], pair[1]);
			B(k, "diag = %s[i - 1, j - 1] + %s[i - 1, j + 1] + %s[i + 1, j - 1] + %s[i + 1, j + 1]", u, u, u, u);
			B(k, "lap = (4.0 * edge + diag - 20.0 * c) / 6.0");
		} else {
			if (nd == 2) {
				B(k, "lap = %s + %s", pair[0], pair[1]);
			} else {
				/* an axis a line */
				B(k, "lap = %s", pair[0]);
				B(k, "lap += %s", pair[1]);
				B(k, "lap += %s", pair[2]);
			}
			B(k, "lap -= %d.0 * c", 2 * nd);
		}
		if (chance(g, 25))
			B(k, "lap *= %s", kit_coef(k, ONE(g, "inv_h2", "inv_dx2", "scale"), 1.5, 4.0));
		const char *rate = face ? "lap" : F(k, "%s * lap", coeff(k, &gr, ONE(g, "alpha", "kappa", "diffusivity")));
		if (chance(g, 40))
			rate = F(k, "%s + %s", rate, kit_response(k, "c"));
		if (chance(g, 40))
			rate = F(k, "%s - %s * c", rate, kit_num(k, 0.05, 0.5));
		if (chance(g, 30))
			rate = F(k, "%s + %s[%s]", rate, kit_arr(k, ONE(g, "source", "heat_src", "emission"), "float", nd), gr.at);
		rate = tendency(k, &gr, rate);
		const char *next = chance(g, 60) ? F(k, "c + %s * %s", kit_coef(k, "dt", 0.01, 0.2), paren(k, rate)) : F(k, "c + %s", rate);
		if (chance(g, 25))
			next = F(k, "wp.max(%s, 0.0)", next);
		grid_store(k, &gr, o, next, "c");
		kit_end(k, ONE(g, "diffuse", "heat_step", "smooth"));
		return;
	}
	if (mode == 3) {
		/* a 3x3 or 5x5 (3x3x3) window, weighted */
		const char *o = kit_arr(k, ONE(g, "blurred", "out", "filtered"), "float", nd);
		int r = nd == 2 && chance(g, 30) ? 2 : 1;
		/* or one pass of a separable filter, along one axis, up to
		 * three cells each side */
		int sep = chance(g, 30), ax = sep ? rnd(g, nd) : -1;
		if (sep)
			r = 1 + rnd(g, 3);
		/* clamped, periodic, or, for a window over every axis, mirrored
		 * (the tap -1 reads cell 0, the tap n cell n - 1) */
		int wrap = chance(g, 30), mirror = !wrap && !sep && chance(g, 30);
		int wk = rnd(g, 4), blend = chance(g, 75);
		int detail = chance(g, 30); /* what the blur took away, a band of detail */
		grid_extents(k, &gr, u, sep ? 1 << ax : 7);
		if (wk >= 2 || blend || detail)
			B(k, "c = %s[%s]", u, gr.at);
		B(k, "acc = float(0.0)");
		B(k, "wsum = float(0.0)");
		if (mirror)
			B(k, "last = wp.vec%di(%s)", nd,
			  nd == 2 ? "2 * nx - 1, 2 * ny - 1" : "2 * nx - 1, 2 * ny - 1, 2 * nz - 1");
		COV(g, stmt_for_range2);
		const char *at = "", *r2 = "";
		static const char *const dx[] = {"di", "dj", "dk"};
		int loops = 0;
		for (int d = 0; d < nd; d++) {
			const char *x = gr.ix[d], *n = gr.n[d];
			if (sep && d != ax) {
				at = F(k, "%s%s%s", at, d ? ", " : "", x);
				continue;
			}
			B(k, "for %s in range(%d, %d):", dx[d], -r, r + 1);
			k->ind++;
			loops++;
			at = F(k, "%s%s%s", at, d ? ", " : "",
			       mirror ? F(k, "%s + %s", x, dx[d])
			       : wrap ? F(k, "(%s + %s + %s) %% %s", x, dx[d], n, n)
				      : F(k, "wp.clamp(%s + %s, 0, %s - 1)", x, dx[d], n));
			r2 = F(k, "%s%s%s * %s", r2, *r2 ? " + " : "", dx[d], dx[d]);
		}
		if (mirror) {
			/* ~t is -t - 1: the taps below 0 fold back onto the
			 * grid, and last - t folds those past the end */
			B(k, "tap = wp.vec%di(%s)", nd, at);
			B(k, "tap = wp.max(tap, ~tap)");
			B(k, "tap = wp.min(tap, last - tap)");
			g->cov->b[GB_INVERT_V]++;
			at = nd == 2 ? "tap[0], tap[1]" : "tap[0], tap[1], tap[2]";
		}
		B(k, "s = %s[%s]", u, at);
		const char *range_w = F(k, "wp.exp(-(s - c) * (s - c) * %s)", kit_num(k, 2.0, 8.0));
		switch (wk) {
		case 0: B(k, "w = 1.0 / (1.0 + %s * float(%s))", kit_num_not(k, 0.1, 3.0, "1.0"), r2); break;
		case 1: B(k, "w = wp.exp(-float(%s) * %s)", r2, kit_num(k, 0.2, 0.95)); break;
		case 2: B(k, "w = %s", range_w); break; /* bilateral: weights fall off with the difference */
		default: B(k, "w = %s * %s", range_w, F(k, "wp.exp(-float(%s) * %s)", r2, kit_num(k, 0.2, 0.95))); break;
		}
		B(k, "acc += w * s");
		B(k, "wsum += w");
		k->ind -= loops;
		if (blend) {
			/* blended with the cell's own value by a strength, or
			 * pushed away from the blur (an unsharp mask) */
			const char *st = kit_coef(k, ONE(g, "strength", "amount", "mix"), 0.2, 0.9);
			if (chance(g, 50))
				B(k, "%s[%s] = wp.lerp(c, acc / wsum, %s)", o, gr.at, st);
			else
				B(k, "%s[%s] = c + %s * (c - acc / wsum)", o, gr.at, st);
		} else {
			B(k, "%s[%s] = acc / wsum", o, gr.at);
		}
		if (detail)
			B(k, "%s[%s] = c - acc / wsum", kit_arr(k, ONE(g, "detail", "high_pass", "residual"), "float", nd), gr.at);
		kit_end(k, ONE(g, "blur", "filter_image", "bilateral"));
		return;
	}
	/* diffusion, a Jacobi sweep, the gradient, advection, a projection */
	static const int ow[] = {22, 20, 18, 22, 18};
	int op = wpick(g, ow, 5);
	if (op == 3 && chance(g, 30)) {
		advect_traced(k, &gr, u);
		return;
	}
	/* the gradient by central differences, or one-sided ones (a
	 * staggered grid's faces) */
	static const int dw[] = {50, 25, 25};
	static const int pw[] = {60, 0, 40};
	int diff = op == 2 ? wpick(g, dw, 3) : op == 4 ? wpick(g, pw, 3) : 0;
	/* a clamped neighbour by wp.max and wp.min, or by wp.clamp */
	int cl = mode == 0 && chance(g, 35);
	/* central differences of a plane by Sobel's operator, smoothed
	 * across the axis they do not take */
	int sobel = op == 2 && diff == 0 && nd == 2 && chance(g, 30);
	/* or, of a level set, the step that brings it back to a distance */
	int reinit = op == 2 && diff == 0 && !sobel && chance(g, 30);
	/* a projection next to walls (not a periodic grid) may stop the
	 * flow through them */
	int walls = op == 4 && mode == 0 && chance(g, 30);
	/* backward differences clamped by wp.max need no extent */
	grid_extents(k, &gr, u, mode == 0 && !cl && diff == 2 && !walls ? 0 : 7);
	if (op == 1 && chance(g, 30)) {
		/* a red-black sweep: the cells of one colour this pass */
		COV(g, stmt_if);
		COV(g, stmt_return_kernel);
		const char *par = nd == 2 ? "(i + j) % 2" : "(i + j + k) % 2";
		B(k, "if %s %s 0:", par, chance(g, 50) ? "==" : "!=");
		k->ind++;
		B(k, "return");
		k->ind--;
	}
	if (op == 0 || op == 3 || (op == 2 && diff) || reinit)
		B(k, "c = %s[%s]", u, gr.at);
	if (sobel) {
		B(k, "im = %s", nb_index(k, &gr, 0, mode, cl, 0));
		B(k, "ip = %s", nb_index(k, &gr, 0, mode, cl, 1));
		B(k, "jm = %s", nb_index(k, &gr, 1, mode, cl, 0));
		B(k, "jp = %s", nb_index(k, &gr, 1, mode, cl, 1));
		B(k, "sx = %s[ip, jm] + 2.0 * %s[ip, j] + %s[ip, jp] - (%s[im, jm] + 2.0 * %s[im, j] + %s[im, jp])", u, u, u, u, u, u);
		B(k, "sy = %s[im, jp] + 2.0 * %s[i, jp] + %s[ip, jp] - (%s[im, jm] + 2.0 * %s[i, jm] + %s[ip, jm])", u, u, u, u, u, u);
	}
	for (int d = 0; d < nd && !sobel; d++) {
		if (diff != 1) /* a forward difference reads no neighbour below */
			B(k, "%s = %s", gr.lo[d], cell_at(k, &gr, u, d, nb_index(k, &gr, d, mode, cl, 0)));
		if (diff != 2)
			B(k, "%s = %s", gr.hi[d], cell_at(k, &gr, u, d, nb_index(k, &gr, d, mode, cl, 1)));
	}
	if (op == 0) {
		/* diffusion, maybe anisotropic, with a reaction term or a source */
		const char *rate;
		if (chance(g, 20)) {
			/* a diffusivity per axis */
			const char *kv = kit_scalar(k, ONE(g, "kappa_axes", "diffusivity", "alpha"), vt);
			const char *lap = "";
			for (int d = 0; d < nd; d++)
				lap = F(k, "%s%s%s[%d] * (%s + %s - 2.0 * c)", lap, d ? " + " : "", kv, d, gr.lo[d], gr.hi[d]);
			B(k, "lap = %s", lap);
			rate = "lap";
		} else {
			int face = chance(g, 12);
			if (face) {
				const char *il[3], *ih[3];
				for (int d = 0; d < nd; d++) {
					il[d] = nb_index(k, &gr, d, mode, cl, 0);
					ih[d] = nb_index(k, &gr, d, mode, cl, 1);
				}
				face_flux(k, &gr, il, ih, gr.lo, gr.hi);
			} else if (chance(g, 30)) {
				/* Perona-Malik's edge-stopping flux */
				const char *fn = edge_flux(k), *t = "";
				for (int d = 0; d < nd; d++)
					t = F(k, "%s%s%s(%s, c) + %s(%s, c)", t, d ? " + " : "", fn, gr.lo[d], fn, gr.hi[d]);
				B(k, "lap = %s", t);
			} else {
				B(k, "lap = %s - %d.0 * c", nb_sum(k, &gr), 2 * nd);
			}
			rate = face ? "lap" : F(k, "%s * lap", coeff(k, &gr, ONE(g, "alpha", "kappa", "diffusivity", "nu")));
		}
		if (chance(g, 25)) /* a cell of its own size */
			B(k, "lap *= %s", kit_coef(k, ONE(g, "inv_h2", "inv_dx2", "scale"), 1.5, 4.0));
		const char *dt = kit_coef(k, "dt", 0.01, 0.2);
		int extra = rnd(g, 5); /* none, a reaction, a source, both */
		if (chance(g, 40))
			rate = F(k, "%s - %s * c", rate, kit_num(k, 0.05, 0.5));
		if (extra == 1 || extra >= 3)
			rate = F(k, "%s + %s", rate, kit_response(k, "c"));
		if (extra >= 2)
			rate = F(k, "%s + %s[%s]", rate, kit_arr(k, ONE(g, "source", "heat_src", "emission"), "float", nd), gr.at);
		const char *o = kit_arr(k, F(k, "%s_new", u), "float", nd);
		rate = tendency(k, &gr, rate);
		const char *next = F(k, "c + %s * %s", dt, paren(k, rate));
		if (chance(g, 25)) /* a density or concentration stays non-negative */
			next = F(k, "wp.max(%s, 0.0)", next);
		grid_store(k, &gr, o, next, "c");
		kit_end(k, ONE(g, "diffuse", "heat_step", "reaction_diffusion", "explicit_step"));
	} else if (op == 1) {
		/* a Jacobi sweep of the Poisson equation */
		const char *rhs = kit_arr(k, ONE(g, "rhs", "div", "source", "b"), "float", nd);
		/* the neighbours' mean: a quarter of four, a sixth of six; or
		 * the sweep of an implicit diffusion step, (1 + 2 d a) u - a
		 * (the neighbours' sum) = b */
		int impl = chance(g, 30);
		const char *hh = 0;
		if (!impl) {
			const char *h = kit_coef(k, ONE(g, "h", "dx", "cell_size"), 0.05, 0.5);
			/* h^2, one literal when h is one */
			hh = is_lit(h) ? kit_times(k, atof(h), h) : F(k, "%s * %s", h, h);
		}
		const char *o = kit_arr(k, ONE(g, "u_next", "pressure", "out"), "float", nd);
		const char *mean, *screen = 0;
		if (impl) {
			const char *a = kit_num(k, 0.1, 2.0);
			mean = F(k, "(%s[%s] + %s * (%s)) / %s", rhs, gr.at, a, nb_sum(k, &gr), kit_dec(k, 1.0 + 2 * nd * atof(a)));
		} else if (chance(g, 25)) {
			/* the screened Poisson equation, lap u - s u = f: the
			 * screening adds s h^2 to the diagonal */
			screen = kit_num(k, 0.1, 4.0);
			const char *diag = is_lit(hh) ? kit_dec(k, 2 * nd + atof(screen) * atof(hh)) : F(k, "%d.0 + %s * %s", 2 * nd, screen, hh);
			mean = F(k, "(%s - %s * %s[%s]) / %s", nb_sum(k, &gr), hh, rhs, gr.at, paren(k, diag));
		} else {
			mean = nd == 2 ? F(k, "0.25 * (%s - %s * %s[%s])", nb_sum(k, &gr), hh, rhs, gr.at)
				       : F(k, "(%s - %s * %s[%s]) / 6.0", nb_sum(k, &gr), hh, rhs, gr.at);
		}
		if (chance(g, 15)) {
			grid_store(k, &gr, o, mean, F(k, "%s[%s]", u, gr.at));
		} else {
			/* weighted Jacobi */
			const char *omega = kit_num(k, 0.5, 0.95);
			B(k, "avg = %s", mean);
			B(k, "%s[%s] = %s[%s] + %s * (avg - %s[%s])", o, gr.at, u, gr.at, omega, u, gr.at);
		}
		if (!impl && !screen && chance(g, 35)) {
			/* the residual of the discrete Poisson equation times h^2, for a
			 * convergence test */
			const char *r = kit_arr(k, ONE(g, "residual", "res", "r"), "float", nd);
			const char *res = F(k, "%s * %s[%s] - (%s - %d.0 * %s[%s])", hh, rhs, gr.at, nb_sum(k, &gr), 2 * nd, u, gr.at);
			if (chance(g, 30)) {
				/* and its squared norm summed over the cells */
				B(k, "rc = %s", res);
				B(k, "%s[%s] = rc", r, gr.at);
				B(k, "wp.atomic_add(%s, 0, rc * rc)", kit_arr(k, ONE(g, "res_norm", "norm_sq", "r_sum"), "float", 1));
			} else {
				B(k, "%s[%s] = %s", r, gr.at, res);
			}
		}
		kit_end(k, ONE(g, "jacobi", "pressure_solve", "relax"));
	} else if (reinit) {
		redistance(k, &gr, u);
	} else if (op == 2) {
		/* the gradient by central or one-sided differences, into a
		 * vector array or an array per component */
		int split = chance(g, 25);
		static const char *const gn[] = {"gx", "gy", "gz"};
		const char *o = 0, *oc[3];
		if (split)
			for (int d = 0; d < nd; d++)
				oc[d] = kit_arr(k, gn[d], "float", nd);
		else
			o = kit_arr(k, ONE(g, "grad", "gradient", "grad_u"), vt, nd);
		/* 1 / (2 dx) (1 / dx one-sided): a cell of unit size, or the
		 * scale given or tuned */
		int unit = chance(g, 6), axes = !unit && chance(g, 20);
		/* or cells of another size along each axis, 1 / (2 dx) a
		 * component of a vector */
		const char *h = unit ? (diff ? 0 : sobel ? "0.125" : "0.5")
			      : axes ? kit_scalar(k, ONE(g, "inv_h", "inv_spacing", "axis_scale"), vt)
				     : kit_coef(k, ONE(g, "inv_dx", "scale"), 1.0, 8.0);
		const char *cm = "";
		for (int d = 0; d < nd; d++)
			cm = F(k, "%s%s%s - %s", cm, d ? ", " : "", diff == 2 ? "c" : gr.hi[d], diff == 1 ? "c" : gr.lo[d]);
		const char *gv = F(k, "%s(%s)", vt, sobel ? "sx, sy" : cm);
		if (axes)
			gv = F(k, "wp.cw_mul(%s, %s)", gv, h);
		else if (h)
			gv = F(k, "%s * %s", gv, sobel && !unit ? kit_times(k, 0.125, h) : h);
		if (axes && sobel)
			gv = F(k, "%s * 0.125", gv);
		int mag = rnd(g, 18); /* 0-10 the magnitude too, 11-15 the unit normal (of a level set) */
		if (mag < 16 || split) {
			B(k, "g = %s", gv);
			if (split)
				for (int d = 0; d < nd; d++)
					B(k, "%s[%s] = g[%d]", oc[d], gr.at, d);
			else
				grid_store(k, &gr, o, "g", F(k, "%s(0.0)", vt)); /* none in a solid cell */
		} else {
			B(k, "%s[%s] = %s", o, gr.at, gv);
		}
		int down = (mag < 16 || split) ? rnd(g, 100) : 100;
		if (down < 35) {
			/* the force of a potential, down its gradient */
			const char *f = kit_arr(k, ONE(g, "force", "f", "push"), vt, nd);
			B(k, "%s[%s] = -%s * g", f, gr.at, kit_coef(k, ONE(g, "strength", "stiffness", "k_pot"), 0.1, 4.0));
		} else if (down < 50) {
			/* or the heat flux, by Fourier's law through a
			 * conductivity a cell */
			const char *q = kit_arr(k, ONE(g, "flux", "heat_flux", "q"), vt, nd);
			B(k, "%s[%s] = -%s[%s] * g", q, gr.at, kit_arr(k, ONE(g, "conductivity", "k_cell", "kappa"), "float", nd), gr.at);
		}
		if ((mag < 16 || split) && chance(g, 20)) {
			/* the field's Dirichlet energy, half a stiffness times
			 * the gradient's square, summed over the cells */
			const char *e = kit_arr(k, ONE(g, "energy", "total_energy", "e_grad"), "float", 1);
			const char *ks = kit_coef(k, ONE(g, "k_smooth", "smoothness", "reg_weight"), 0.1, 4.0);
			B(k, "wp.atomic_add(%s, 0, %s)", e, kit_prod(k, kit_times(k, 0.5, ks), "wp.dot(g, g)"));
		}
		if (mag >= 11 && mag < 16) {
			const char *nm = kit_arr(k, ONE(g, "normal", "n_out", "unit_grad"), vt, nd);
			B(k, "%s[%s] = g / (wp.length(g) + %s)", nm, gr.at, kit_soft_eps(k));
		} else if (mag < 11) {
			/* its magnitude too, an edge strength */
			const char *m = kit_arr(k, ONE(g, "edges", "mag", "grad_norm"), "float", nd);
			if (chance(g, 15)) {
				B(k, "%s[%s] = wp.length(g)", m, gr.at);
			} else {
				B(k, "gn = wp.length(g)");
				B(k, "%s[%s] = %s", m, gr.at, kit_response(k, "gn"));
			}
		}
		kit_end(k, ONE(g, "gradient", "central_diff", "compute_grad"));
	} else if (op == 4) {
		/* a pressure projection: the velocity less the pressure's
		 * gradient (central, or across the faces of a staggered
		 * grid), maybe over a density a cell, maybe with gravity,
		 * maybe damped */
		/* the velocity a vector a cell, or a component an array (a
		 * MAC grid's faces) */
		int comp = chance(g, 30);
		static const char *const vn[] = {"vx", "vy", "vz"}, *const von[] = {"vx_out", "vy_out", "vz_out"};
		const char *vel = 0, *o = 0, *vc[3], *oc[3];
		if (comp) {
			for (int d = 0; d < nd; d++)
				vc[d] = kit_arr(k, vn[d], "float", nd);
			for (int d = 0; d < nd; d++)
				oc[d] = kit_arr(k, von[d], "float", nd);
		} else {
			vel = kit_arr(k, ONE(g, "vel", "velocity", "u_vel"), vt, nd);
			o = kit_arr(k, ONE(g, "vel_out", "v_new", "projected"), vt, nd);
		}
		const char *sc = kit_coef(k, ONE(g, "scale", "dt_over_dx", "inv_rho"), 0.1, 2.0);
		if (!diff)
			sc = kit_times(k, 0.5, sc);
		const char *dd[3];
		for (int d = 0; d < nd; d++)
			dd[d] = F(k, "%s - %s", diff ? F(k, "%s[%s]", u, gr.at) : gr.hi[d], gr.lo[d]);
		/* over a density a cell; on a staggered grid maybe the
		 * inverse density at a face, the mean of its two cells' */
		static const char *const wn[] = {"wx", "wy", "wz"};
		int face = 0;
		if (chance(g, 45)) {
			const char *ri = kit_arr(k, ONE(g, "inv_density", "rho_inv", "cell_weight"), "float", nd);
			if (diff && chance(g, 50)) {
				face = 1;
				for (int d = 0; d < nd; d++)
					B(k, "%s = %s[%s] + %s", wn[d], ri, gr.at, cell_at(k, &gr, ri, d, nb_index(k, &gr, d, mode, cl, 0)));
				sc = kit_times(k, 0.5, sc);
			} else {
				B(k, "s = %s * %s[%s]", sc, ri, gr.at);
				sc = "s";
			}
		}
		/* a body force over the step: gravity as a vector or as a
		 * magnitude along -y, or hot smoke's buoyancy (Boussinesq: a
		 * lift by the temperature, maybe less the smoke's weight) */
		static const int fw[] = {30, 26, 22, 22};
		int force = wpick(g, fw, 4);
		const char *gv = 0, *gy = 0, *gdt = 0, *damp = 0;
		if (force)
			gdt = kit_coef(k, "dt", 0.01, 0.2);
		if (force == 1) {
			gv = kit_scalar(k, ONE(g, "gravity", "body_force", "accel"), vt);
		} else if (force == 2) {
			gy = kit_fparam(k, ONE(g, "gravity", "g"));
		} else if (force == 3) {
			const char *alpha = kit_coef(k, ONE(g, "buoyancy", "alpha", "lift"), 0.1, 2.0);
			const char *lift = F(k, "%s * %s[%s]", alpha, kit_arr(k, ONE(g, "temperature", "temp_field", "heat"), "float", nd), gr.at);
			if (chance(g, 50)) {
				const char *beta = kit_coef(k, ONE(g, "beta", "smoke_weight", "weight"), 0.05, 0.5);
				lift = F(k, "%s - %s * %s[%s]", lift, beta, kit_arr(k, ONE(g, "smoke", "soot", "concentration"), "float", nd), gr.at);
			}
			B(k, "b = %s", lift);
		}
		if (chance(g, 45))
			damp = kit_num(k, 0.9, 0.995);
		if (comp) {
			for (int d = 0; d < nd; d++) {
				const char *next = face ? F(k, "%s[%s] - (%s) * %s * %s", vc[d], gr.at, dd[d], wn[d], sc)
							: F(k, "%s[%s] - (%s) * %s", vc[d], gr.at, dd[d], sc);
				if (gv)
					next = F(k, "%s + %s[%d] * %s", next, gv, d, gdt);
				else if (gy && d == 1)
					next = F(k, "%s - %s * %s", next, gy, gdt);
				else if (force == 3 && d == 1)
					next = F(k, "%s + b * %s", next, gdt);
				if (damp)
					next = F(k, "(%s) * %s", next, damp);
				if (walls) {
					/* no flow through the walls across axis d */
					COV(g, stmt_if);
					COV(g, stmt_else);
					COV(g, expr_or);
					B(k, "if %s == 0 or %s == %s - 1:", gr.ix[d], gr.ix[d], gr.n[d]);
					k->ind++;
					B(k, "%s[%s] = 0.0", oc[d], gr.at);
					k->ind--;
					B(k, "else:");
					k->ind++;
					B(k, "%s[%s] = %s", oc[d], gr.at, next);
					k->ind--;
				} else {
					B(k, "%s[%s] = %s", oc[d], gr.at, next);
				}
			}
		} else {
			const char *cm = "";
			for (int d = 0; d < nd; d++)
				cm = F(k, "%s%s%s", cm, d ? ", " : "", face ? F(k, "(%s) * %s", dd[d], wn[d]) : dd[d]);
			B(k, "dp = %s(%s)", vt, cm);
			/* cells of another size along each axis */
			const char *next = chance(g, 20) ? F(k, "%s[%s] - wp.cw_mul(dp, %s) * %s", vel, gr.at,
							     kit_scalar(k, ONE(g, "inv_h", "inv_spacing", "axis_scale"), vt), sc)
							 : F(k, "%s[%s] - dp * %s", vel, gr.at, sc);
			if (gv)
				next = F(k, "%s + %s * %s", next, gv, gdt);
			else if (gy)
				next = F(k, "%s + %s * %s", next, nd == 2 ? F(k, "wp.vec2(0.0, -%s)", gy) : F(k, "wp.vec3(0.0, -%s, 0.0)", gy), gdt);
			else if (force == 3)
				next = F(k, "%s + %s * %s", next, nd == 2 ? "wp.vec2(0.0, b)" : "wp.vec3(0.0, b, 0.0)", gdt);
			if (damp)
				next = F(k, "(%s) * %s", next, damp);
			/* the kinetic energy after the step, summed, to watch the
			 * solver */
			int ke = chance(g, 25);
			if (walls || ke)
				B(k, "v = %s", next);
			if (walls) {
				/* free slip: the velocity's component across a
				 * wall is taken out */
				static const char *const keep[3][3] = {{"0.0", "v[1]", "v[2]"}, {"v[0]", "0.0", "v[2]"}, {"v[0]", "v[1]", "0.0"}};
				for (int d = 0; d < nd; d++) {
					COV(g, stmt_if);
					COV(g, expr_or);
					B(k, "if %s == 0 or %s == %s - 1:", gr.ix[d], gr.ix[d], gr.n[d]);
					k->ind++;
					B(k, "v = %s(%s, %s%s%s)", vt, keep[d][0], keep[d][1], nd == 3 ? ", " : "", nd == 3 ? keep[d][2] : "");
					k->ind--;
				}
			}
			if (walls || ke)
				next = "v";
			/* a solid cell keeps the velocity it is given */
			grid_store(k, &gr, o, next, F(k, "%s[%s]", vel, gr.at));
			if (ke) {
				const char *e = kit_arr(k, ONE(g, "kinetic", "ke_total", "energy"), "float", 1);
				const char *m = kit_coef(k, ONE(g, "cell_mass", "rho", "mass"), 0.1, 2.0);
				B(k, "wp.atomic_add(%s, 0, %s)", e, kit_prod(k, kit_times(k, 0.5, m), "wp.dot(v, v)"));
			}
		}
		kit_end(k, ONE(g, "project", "subtract_gradient", "pressure_update"));
	} else {
		/* upwind advection by a velocity field, or central
		 * differences with a viscosity that keeps them stable */
		const char *vel = kit_arr(k, ONE(g, "vel", "velocity", "flow"), vt, nd);
		const char *dt = kit_coef(k, "dt", 0.01, 0.2);
		static const char *const du[] = {"dudx", "dudy", "dudz"};
		int central = chance(g, 30);
		if (chance(g, 35)) /* the velocity in cells per unit time */
			B(k, "w = %s[%s] * %s", vel, gr.at, kit_coef(k, ONE(g, "inv_dx", "inv_h", "cells_per_unit"), 1.0, 4.0));
		else
			B(k, "w = %s[%s]", vel, gr.at);
		COV(g, stmt_if);
		COV(g, stmt_else);
		for (int d = 0; d < nd; d++) {
			if (central) {
				B(k, "%s = 0.5 * (%s - %s)", du[d], gr.hi[d], gr.lo[d]);
			} else if (d == 0 || chance(g, 50)) {
				B(k, "if w[%d] > 0.0:", d);
				k->ind++;
				B(k, "%s = c - %s", du[d], gr.lo[d]);
				k->ind--;
				B(k, "else:");
				k->ind++;
				B(k, "%s = %s - c", du[d], gr.hi[d]);
				k->ind--;
			} else {
				B(k, "%s = wp.where(w[%d] > 0.0, c - %s, %s - c)", du[d], d, gr.lo[d], gr.hi[d]);
			}
		}
		const char *o = kit_arr(k, F(k, "%s_out", u), "float", nd);
		const char *flux = nd == 2 ? "w[0] * dudx + w[1] * dudy" : "w[0] * dudx + w[1] * dudy + w[2] * dudz";
		if (central) {
			B(k, "lap = %s - %d.0 * c", nb_sum(k, &gr), 2 * nd);
			flux = F(k, "%s - %s * lap", flux, kit_coef(k, ONE(g, "nu", "viscosity", "diffusion"), 0.05, 0.25));
		}
		if (chance(g, 40))
			flux = F(k, "%s - %s", flux, kit_response(k, "c"));
		if (chance(g, 30))
			flux = F(k, "%s - %s[%s]", flux, kit_arr(k, ONE(g, "source", "inflow", "emission"), "float", nd), gr.at);
		const char *next = F(k, "c - %s * (%s)", dt, flux);
		if (chance(g, 40)) /* dissipated a little each step, as smoke fades */
			next = F(k, "(%s) * %s", next, kit_num(k, 0.9, 0.999));
		if (chance(g, 25))
			next = F(k, "wp.max(%s, 0.0)", next);
		grid_store(k, &gr, o, next, "c");
		kit_end(k, ONE(g, "advect", "upwind", "transport"));
	}
}

/* ---- reductions and histograms --------------------------------------------- */

/* The other side of a histogram: a thread per bin takes its count and
 * clears it for the next pass (wp.atomic_exch at the thread's own
 * element: ir/order.c finds nothing order-dependent), and writes the
 * bin's density, scaled, normalized, saturating or as a log, maybe as a
 * moving average over the passes; the counts may be summed, and half the
 * time the count of the first pass that filled the bin is kept, set only
 * where it is still 0 (wp.atomic_cas). */
static void drain_bins(Kit *k)
{
	G *g = k->g;
	const char *t = k->tid;
	const char *h = kit_arr(k, ONE(g, "hist", "bins", "counts", "bin_count"), "int", 1);
	const char *d = kit_arr(k, ONE(g, "density", "pdf", "freq", "bin_weight"), "float", 1);
	kit_tid_line(k, 1, t, 0);
	B(k, "c = wp.atomic_exch(%s, %s, 0)", h, t);
	const char *v;
	switch (rnd(g, 4)) {
	case 0:
		v = F(k, "float(c) * %s", kit_coef(k, ONE(g, "inv_total", "norm", "scale"), 0.01, 0.075));
		break;
	case 1:
		/* by the samples' count, a parameter or the total the
		 * binning pass counted */
		if (chance(g, 70))
			v = F(k, "float(c) / %s", kit_fparam(k, ONE(g, "total", "n_samples", "bin_width")));
		else
			v = F(k, "float(c) / float(wp.max(%s[0], 1))", kit_arr(k, ONE(g, "n_counted", "num_samples", "sample_count"), "int", 1));
		break;
	case 2:
		v = F(k, "float(c) / (float(c) + %s)", kit_num_not(k, 0.5, 8.0, "1.0"));
		break;
	default:
		v = F(k, "wp.log(1.0 + float(c)) * %s", kit_coef(k, ONE(g, "gain", "scale", "log_scale"), 0.1, 0.85));
		break;
	}
	if (chance(g, 25)) {
		/* bins of their own widths */
		const char *wd = kit_arr(k, ONE(g, "inv_width", "bin_scale", "inv_bin_width"), "float", 1);
		v = F(k, "%s * %s[%s]", v, wd, t);
	}
	if (chance(g, 40)) {
		const char *a = kit_coef(k, ONE(g, "alpha", "blend", "smoothing"), 0.05, 0.5);
		B(k, "%s[%s] = %s[%s] + %s * (%s - %s[%s])", d, t, d, t, a, v, d, t);
	} else {
		B(k, "%s[%s] = %s", d, t, v);
	}
	if (chance(g, 30)) {
		/* the count's standard error, a Poisson count's square
		 * root, or its relative error */
		const char *e = kit_arr(k, ONE(g, "sigma", "count_err", "stddev"), "float", 1);
		const char *es = chance(g, 50) ? "" : F(k, "%s * ", kit_num_not(k, 0.05, 1.0, "1.0"));
		if (chance(g, 30))
			B(k, "%s[%s] = 1.0 / wp.sqrt(float(c) + 1.0)", e, t);
		else
			B(k, "%s[%s] = %swp.sqrt(float(c))", e, t, es);
	}
	if (chance(g, 25)) {
		/* the distribution's mean, from the bins' centres */
		const char *lo = kit_num(k, -1.0, -0.5);
		B(k, "xc = %s + (float(%s) + 0.5) * %s", lo, t, kit_num(k, 0.01, 0.1));
		B(k, "wp.atomic_add(%s, 0, float(c) * xc)", kit_arr(k, ONE(g, "moment", "mean_acc", "first_moment"), "float", 1));
	}
	if (chance(g, 40))
		B(k, "wp.atomic_add(%s, 0, c)", kit_arr(k, ONE(g, "total_count", "n_total", "count_sum"), "int", 1));
	/* the fullest bin's count, to scale a plot; the bins in use */
	if (chance(g, 30))
		B(k, "wp.atomic_max(%s, 0, c)", kit_arr(k, ONE(g, "peak", "max_count", "mode_count"), "int", 1));
	if (chance(g, 25))
		B(k, "wp.atomic_add(%s, 0, wp.min(c, 1))", kit_arr(k, ONE(g, "nonempty", "used_bins", "occupied"), "int", 1));
	if (chance(g, 50))
		B(k, "wp.atomic_cas(%s, %s, 0, c)", kit_arr(k, ONE(g, "first_count", "first_fill", "initial"), "int", 1), t);
	kit_end(k, ONE(g, "drain_bins", "normalize_bins", "take_counts"));
}

/* the extent of D (a local's name), padded by R when R is not "", into
 * the arrays LO (atomic_min) and HI (atomic_max) at AT; either may be
 * absent (0) */
static void extent(Kit *k, const char *lo, const char *hi, const char *at, const char *d, const char *r)
{
	if (lo && r[0])
		B(k, "wp.atomic_min(%s, %s, %s - %s)", lo, at, d, r);
	else if (lo)
		B(k, "wp.atomic_min(%s, %s, %s)", lo, at, d);
	if (hi && r[0])
		B(k, "wp.atomic_max(%s, %s, %s + %s)", hi, at, d, r);
	else if (hi)
		B(k, "wp.atomic_max(%s, %s, %s)", hi, at, d);
}

static void fam_reduce(Kit *k)
{
	G *g = k->g;
	const char *t = k->tid;
	/* 0 matrices, 1 histograms, 2 bounds, 3 energies and momenta, 4
	 * masked counts: the matrices' plainest members (a dense layer, a
	 * GEMV) drawn a little less often, the bounds a little more */
	static const int kw[] = {14, 19, 21, 23, 23};
	int kind = wpick(g, kw, 5);
	if (kind == 0) {
		const char *a = kit_arr(k, ONE(g, "A", "mat", "weights", "K"), "float", 2);
		if (chance(g, 50)) {
			/* row sums of a response, a thread per matrix entry (a
			 * 1-D array indexed by j would need as many elements as
			 * the launch's second dimension) */
			const char *y = kit_arr(k, ONE(g, "row_sum", "out", "result"), "float", 1);
			kit_tid_line(k, 2, "i", "j");
			/* what an entry adds: a response, its square, its
			 * magnitude, its exponential (a softmax's denominator),
			 * its product with another matrix's entry, maybe scaled;
			 * the entry maybe taken about its row's mean (a
			 * variance) */
			const char *term;
			int what = rnd(g, 9);
			/* the entry itself, about its row's mean, its
			 * difference from a target matrix's (an error), or
			 * scaled to the row's own scale (a normalization) */
			static const int ew[] = {40, 25, 20, 15};
			int src = wpick(g, ew, 4);
			const char *e = "e";
			if (src == 1)
				B(k, "e = %s[i, j] - %s[i]", a, kit_arr(k, ONE(g, "row_mean", "mean", "center"), "float", 1));
			else if (src == 2)
				B(k, "e = %s[i, j] - %s[i, j]", a, kit_arr(k, ONE(g, "target", "ref", "A_ref"), "float", 2));
			else if (src == 3)
				B(k, "e = %s[i, j] * %s[i]", a, kit_arr(k, ONE(g, "inv_scale", "row_norm", "inv_sigma"), "float", 1));
			else if (what != 0)
				B(k, "e = %s[i, j]", a);
			else
				e = F(k, "%s[i, j]", a);
			/* maybe winsorized: clipped to a tuned range, so that
			 * outliers weigh no more than it */
			double clip = 0;
			if (what != 0 && chance(g, 20)) {
				const char *cl = kit_num(k, 0.3, 0.9);
				clip = atof(cl);
				B(k, "e = wp.clamp(e, -%s, %s)", cl, cl);
			}
			if (what == 0) {
				term = kit_response(k, e);
			} else if (what == 4) {
				/* a softmax's denominator, maybe at a temperature,
				 * maybe the stable one's second pass (the row's
				 * maximum taken first) */
				const char *s = kit_num_not(k, 0.5, 3.0, "1.0");
				int st = rnd(g, 3);
				if (st == 2)
					term = F(k, "wp.exp(e - %s[i])", kit_arr(k, ONE(g, "row_max", "max_logit", "shift"), "float", 1));
				else
					term = st == 1 && chance(g, 50) ? "wp.exp(e)" : F(k, "wp.exp(%s * e)", s);
			} else if (what == 5) {
				const char *b2 = kit_arr(k, ONE(g, "B", "other", "rhs"), "float", 2);
				term = F(k, "e * %s[i, j]", b2);
			} else if (what == 6) {
				/* a p-norm's power sum */
				term = F(k, "wp.pow(wp.abs(e), %s)", kit_num(k, 1.5, 3.0));
			} else if (what == 8) {
				/* a logistic loss of the entry as a logit against a
				 * target (binary cross-entropy with logits) */
				const char *tg = F(k, "%s[i, j]", kit_arr(k, ONE(g, "labels", "y_true", "targets"), "float", 2));
				if (chance(g, 40)) {
					/* the labels smoothed towards one half */
					double eps = atof(kit_num(k, 0.02, 0.2));
					B(k, "t = %s * %s + %s", kit_dec(k, 1.0 - eps), tg, kit_dec(k, 0.5 * eps));
					tg = "t";
				}
				/* as written, or in the form that cannot overflow */
				if (chance(g, 50))
					B(k, "loss = wp.log(1.0 + wp.exp(-e)) + (1.0 - %s) * e", tg);
				else
					B(k, "loss = wp.max(e, 0.0) - e * %s + wp.log(1.0 + wp.exp(-wp.abs(e)))", tg);
				term = "loss";
			} else if (what == 7) {
				/* a Huber loss: quadratic near zero, linear past delta */
				const char *dl = kit_num(k, 0.2, 0.8);
				B(k, "ae = wp.abs(e)");
				term = F(k, "wp.where(ae < %s, 0.5 * e * e, %s * (ae - %s))", dl, dl, kit_dec(k, 0.5 * atof(dl)));
			} else {
				term = what == 1 ? "e * e" : what == 2 ? "wp.abs(e)" : kit_prod(k, "e", kit_response(k, "e"));
			}
			if (chance(g, 25))
				term = kit_prod(k, F(k, "%s[i, j]", kit_arr(k, ONE(g, "w", "mask", "entry_weight"), "float", 2)), term);
			/* scaled by one gain or a gain per row */
			int sc = rnd(g, 10);
			if (sc < 2)
				term = kit_prod(k, F(k, "%s[i]", kit_arr(k, ONE(g, "row_scale", "row_weight", "inv_norm"), "float", 1)), term);
			else if (sc < 8 && (what != 0 || chance(g, 30)))
				term = kit_prod(k, kit_coef(k, ONE(g, "scale", "weight", "gain"), 0.2, 0.95), term);
			/* a row mean rather than a sum */
			if (chance(g, 20))
				term = F(k, "%s / float(%s.shape[1])", term, a);
			/* 3: entries above a threshold (or away from zero)
			 * counted; 4: the total too; 5: the entries' squares, a
			 * second moment; 6: the row's largest entry */
			int second = rnd(g, 7);
			if (second == 4) {
				B(k, "s = %s", term);
				term = "s";
			}
			/* off the diagonal only: a Gershgorin disc's radius
			 * when the term is the magnitude */
			int offd = chance(g, 15);
			if (offd) {
				COV(g, stmt_if);
				B(k, "if i != j:");
				k->ind++;
			}
			if (chance(g, 50)) {
				B(k, "wp.atomic_add(%s, i, %s)", y, term);
			} else {
				COV(g, stmt_array_atomic_add);
				B(k, "%s[i] += %s", y, term);
			}
			if (offd)
				k->ind--;
			if (second == 3) {
				const char *cnt = kit_arr(k, ONE(g, "nnz", "above", "row_count"), "int", 1);
				COV(g, stmt_if);
				/* inside the clipped range, if any, so that it goes
				 * both ways */
				double tr = clip ? 0.6 * clip : 0.5;
				if (chance(g, 35))
					B(k, "if wp.abs(%s) > %s:", e, kit_num(k, 0.05, tr));
				else
					B(k, "if %s > %s:", e, kit_num_not(k, -tr, tr, "0.0"));
				k->ind++;
				B(k, "wp.atomic_add(%s, i, 1)", cnt);
				k->ind--;
			} else if (second == 4) {
				B(k, "wp.atomic_add(%s, 0, s)", kit_arr(k, ONE(g, "total", "sum_all", "grand_total"), "float", 1));
			} else if (second == 5) {
				B(k, "wp.atomic_add(%s, i, %s * %s)", kit_arr(k, ONE(g, "sum_sq", "second_moment", "sq_sum"), "float", 1), e, e);
			} else if (second == 6) {
				B(k, "wp.atomic_max(%s, i, %s)", kit_arr(k, ONE(g, "row_peak", "peak", "max_entry"), "float", 1), e);
			}
			kit_end(k, ONE(g, "row_sums", "row_energy", "reduce_rows"));
			return;
		}
		/* y = A x, a thread per row: a plain product, a GEMV that
		 * scales and accumulates, or a dense layer; the matrix dense,
		 * sparse in ELL form (a column index per entry), lower
		 * triangular, or applied transposed */
		static const int sw[] = {55, 20, 12, 13};
		int store = wpick(g, sw, 4);
		const char *cols = store == 1 ? kit_arr(k, ONE(g, "cols", "col_idx", "indices"), "int", 2) : 0;
		const char *xv = kit_arr(k, ONE(g, "x", "vec", "inputs"), "float", 1);
		/* 0 the product, 1 a GEMV, 2-3 a dense layer, 4 the residual
		 * b - A x of a linear system, 5 a weighted Jacobi sweep for it
		 * (the matrix square, its inverse diagonal given) */
		int form = rnd(g, 4);
		if (form < 2 && chance(g, 45))
			form = 4 + rnd(g, 2);
		/* an operator's matrix may also be banded (a half-width of
		 * one to four: tridiagonal and up) or upper triangular */
		if ((form < 2 || form > 3) && store == 0 && chance(g, 35))
			store = 4 + rnd(g, 2);
		const char *y = form == 4   ? kit_arr(k, ONE(g, "residual", "res", "r_out"), "float", 1)
				: form == 5 ? kit_arr(k, ONE(g, "x_new", "x_next", "out"), "float", 1)
					    : kit_arr(k, ONE(g, "y", "out", "result"), "float", 1);
		const char *rhs = form >= 4 ? kit_arr(k, ONE(g, "b", "rhs", "f"), "float", 1) : 0;
		const char *bias = form == 2 || form == 3 ? kit_arr(k, ONE(g, "bias", "b", "offset"), "float", 1) : 0;
		int init_bias = bias && chance(g, 40);
		kit_tid_line(k, 1, "i", 0);
		if (init_bias)
			B(k, "acc = %s[i]", bias);
		else
			B(k, "acc = float(0.0)");
		COV(g, stmt_for_dynamic);
		const char *aij = F(k, "%s[i, j]", a), *xj = F(k, "%s[j]", xv);
		/* the inputs maybe through a mask (dropout, a selection) */
		const char *mask = form < 4 && chance(g, 20) ? kit_arr(k, ONE(g, "mask", "keep", "dropout"), "float", 1) : 0;
		/* or standardized by the inputs' means and inverse deviations */
		const char *mu = 0, *istd = 0;
		if (form < 4 && chance(g, 20)) {
			mu = kit_arr(k, ONE(g, "x_mean", "mu", "shift"), "float", 1);
			istd = kit_arr(k, ONE(g, "inv_std", "x_scale", "inv_sigma"), "float", 1);
		}
		if (store == 0 || store == 1) {
			B(k, "for j in range(%s.shape[1]):", a);
			if (store == 1)
				xj = F(k, "%s[col]", xv);
		} else if (store == 2) {
			B(k, "for j in range(i + 1):");
		} else if (store == 4) {
			const char *bw = ONE(g, "1", "2", "3", "4");
			B(k, "for j in range(wp.max(i - %s, 0), wp.min(i + %d, %s.shape[1])):", bw, atoi(bw) + 1, a);
		} else if (store == 5) {
			B(k, "for j in range(i, %s.shape[1]):", a);
		} else {
			B(k, "for j in range(%s.shape[0]):", a);
			aij = F(k, "%s[j, i]", a);
		}
		const char *jx = store == 1 ? "col" : "j";
		if (mu)
			xj = F(k, "((%s - %s[%s]) * %s[%s])", xj, mu, jx, istd, jx);
		if (mask)
			xj = F(k, "(%s * %s[%s])", xj, mask, jx);
		k->ind++;
		if (store == 1)
			B(k, "col = %s[i, j]", cols);
		if (form < 4 && chance(g, 25))
			B(k, "acc += %s", kit_prod(k, aij, kit_response(k, xj)));
		else
			B(k, "acc += %s * %s", aij, xj);
		k->ind--;
		if (form == 4) {
			/* of A x = b, or of a damped (Tikhonov) or shifted
			 * system (A + lam I) x = b; maybe with its squared norm,
			 * weighted per row, or its largest entry, a solver's
			 * stopping tests; maybe preconditioned by the inverse
			 * diagonal, with the dot product r.z of conjugate
			 * gradients */
			if (chance(g, 70)) {
				const char *lam = chance(g, 75) ? kit_num(k, 0.005, 0.5) : kit_fparam(k, ONE(g, "lam", "damping", "shift"));
				B(k, "r = %s[i] - acc - %s * %s[i]", rhs, lam, xv);
			} else {
				B(k, "r = %s[i] - acc", rhs);
			}
			B(k, "%s[i] = r", y);
			int nrm = rnd(g, 4);
			const char *nn = ONE(g, "r_norm", "res_norm", "norm");
			if (nrm == 1)
				B(k, "wp.atomic_add(%s, 0, r * r)", kit_arr(k, nn, "float", 1));
			else if (nrm == 2) {
				const char *rn = kit_arr(k, nn, "float", 1);
				B(k, "wp.atomic_add(%s, 0, %s[i] * r * r)", rn, kit_arr(k, ONE(g, "row_weight", "wr", "sigma_inv"), "float", 1));
			}
			else if (nrm == 3)
				B(k, "wp.atomic_max(%s, 0, wp.abs(r))", kit_arr(k, nn, "float", 1));
			if (chance(g, 40)) {
				B(k, "z = r * %s[i]", kit_arr(k, ONE(g, "inv_diag", "diag_inv", "precond"), "float", 1));
				B(k, "%s[i] = z", kit_arr(k, ONE(g, "z_vec", "z_out", "precond_res"), "float", 1));
				B(k, "wp.atomic_add(%s, 0, r * z)", kit_arr(k, ONE(g, "rz", "rho", "r_dot_z"), "float", 1));
			}
		} else if (form == 5) {
			/* Jacobi's step scaled by the inverse diagonal, or
			 * Richardson's by the relaxation alone; maybe with the
			 * step's squared size or largest entry, the sweep's
			 * convergence test */
			const char *om = chance(g, 70) ? kit_num(k, 0.5, 0.95) : kit_fparam(k, ONE(g, "omega", "relax", "w"));
			const char *dx = chance(g, 65) ? F(k, "(%s[i] - acc) * %s[i]", rhs, kit_arr(k, ONE(g, "inv_diag", "diag_inv", "precond"), "float", 1))
						       : F(k, "(%s[i] - acc)", rhs);
			int conv = rnd(g, 3);
			if (conv == 0) {
				B(k, "%s[i] = %s[i] + %s", y, xv, kit_prod(k, om, dx));
			} else {
				B(k, "dx = %s", kit_prod(k, om, dx));
				B(k, "%s[i] = %s[i] + dx", y, xv);
				const char *cn = kit_arr(k, ONE(g, "delta", "change", "step_norm"), "float", 1);
				if (conv == 1)
					B(k, "wp.atomic_add(%s, 0, dx * dx)", cn);
				else
					B(k, "wp.atomic_max(%s, 0, wp.abs(dx))", cn);
			}
		} else if (form == 0) {
			/* A x itself, D A x (a diagonal scaling of the rows),
			 * or a response of it */
			int sc = rnd(g, 20);
			if (sc == 0)
				B(k, "%s[i] = acc", y);
			else if (sc < 3)
				B(k, "%s[i] = %s[i] * acc", y, kit_arr(k, ONE(g, "row_scale", "d", "diag"), "float", 1));
			else
				B(k, "%s[i] = %s", y, kit_response(k, "acc"));
		} else if (form == 1) {
			/* y = alpha A x + beta y in place, y += alpha A x (a
			 * Krylov update), or alpha A x + beta c into a new y */
			const char *alpha = kit_coef(k, "alpha", 0.6, 1.35);
			int upd = rnd(g, 4);
			if (upd == 2) {
				B(k, "%s[i] += %s", y, kit_prod(k, alpha, "acc"));
			} else {
				const char *beta = kit_coef(k, "beta", 0.1, 0.85);
				const char *c = upd == 3 ? kit_arr(k, ONE(g, "c", "y_in", "prev"), "float", 1) : y;
				B(k, "%s[i] = %s + %s * %s[i]", y, kit_prod(k, alpha, "acc"), beta, c);
			}
		} else {
			const char *z = "acc";
			if (!init_bias) {
				B(k, "z = acc + %s[i]", bias);
				z = "z";
			}
			/* the pre-activation maybe kept for the backward pass */
			if (chance(g, 30))
				B(k, "%s[i] = %s", kit_arr(k, ONE(g, "pre_act", "z_out", "logits"), "float", 1), z);
			/* maybe a residual layer, its input added back (the
			 * matrix is square), its output scaled, through a
			 * per-output affine (a normalization's gain and shift)
			 * or a dropout mask */
			const char *act = activation(k, z);
			if (chance(g, 20)) {
				/* an activity penalty: L1 for sparsity, or L2 */
				B(k, "h = %s", act);
				act = "h";
				const char *pn = kit_arr(k, ONE(g, "penalty", "act_reg", "sparsity"), "float", 1);
				if (chance(g, 50))
					B(k, "wp.atomic_add(%s, 0, %s * wp.abs(h))", pn, kit_num(k, 0.001, 0.05));
				else
					B(k, "wp.atomic_add(%s, 0, %s * h * h)", pn, kit_num(k, 0.001, 0.05));
			}
			int res = rnd(g, 6);
			if (res == 0) {
				B(k, "%s[i] = %s[i] + %s", y, xv, act);
			} else if (res == 1) {
				const char *sc = kit_coef(k, ONE(g, "out_scale", "gain", "layer_scale"), 0.6, 1.35);
				B(k, "%s[i] = %s", y, kit_prod(k, sc, act));
			} else if (res == 2) {
				const char *ga = kit_arr(k, ONE(g, "gamma", "gain", "scale"), "float", 1);
				const char *be = kit_arr(k, ONE(g, "beta", "out_shift", "norm_bias"), "float", 1);
				if (strcmp(act, "h"))
					B(k, "h = %s", act);
				B(k, "%s[i] = %s[i] * h + %s[i]", y, ga, be);
			} else if (res == 3) {
				/* inverted dropout: the kept outputs scaled by one
				 * over the keep probability */
				const char *dm = kit_arr(k, ONE(g, "drop_mask", "out_mask", "keep_out"), "float", 1);
				if (chance(g, 60))
					B(k, "%s[i] = %s * %s[i] / %s", y, act, dm, kit_num(k, 0.5, 0.95));
				else
					B(k, "%s[i] = %s", y, kit_prod(k, F(k, "%s[i]", dm), act));
			} else {
				B(k, "%s[i] = %s", y, act);
			}
		}
		kit_end(k, form == 2 || form == 3 ? ONE(g, "dense_layer", "linear_forward", "layer")
			   : form == 4		  ? ONE(g, "residual", "compute_residual", "linear_residual")
			   : form == 5		  ? ONE(g, "jacobi_sweep", "jacobi_step", "relax")
					       : ONE(g, "matvec", "gemv", "apply_operator"));
		return;
	}
	if (kind == 1 && chance(g, 11)) {
		drain_bins(k);
		return;
	}
	if (kind == 1 && chance(g, 15)) {
		/* a joint histogram of two coordinates, a 2-D array of
		 * bins, maybe weighted */
		const char *pt = chance(g, 50) ? "wp.vec2" : "wp.vec3";
		const char *p = kit_arr(k, ONE(g, "points", "x", "samples", "uv"), pt, 1);
		int weighted = chance(g, 40);
		const char *w = weighted ? kit_arr(k, ONE(g, "weights", "w", "mass"), "float", 1) : 0;
		const char *h = kit_arr(k, ONE(g, "hist2d", "joint", "counts"), weighted ? "float" : "int", 2);
		/* one bin count for both axes, or each axis's from the
		 * array's shape (a grid that need not be square) */
		int from_shape = chance(g, 35);
		const char *nb = from_shape ? 0 : kit_scalar(k, ONE(g, "num_bins", "nbins", "res"), "int");
		/* of a planar point, or of two coordinates of a 3-D one (the
		 * third maybe averaged per cell: a height map) */
		static const int pairs[3][3] = {{0, 1, 2}, {0, 2, 1}, {1, 2, 0}};
		const int *ax = pairs[pt[6] == '3' ? rnd(g, 3) : 0];
		const char *hs = pt[6] == '3' && chance(g, 30) ? kit_arr(k, ONE(g, "height_sum", "cell_sum", "z_sum"), "float", 2) : 0;
		kit_tid_line(k, 1, t, 0);
		if (chance(g, 15)) {
			static const char *const fl[3] = {"flags", "sample_flags", "valid_bits"};
			kit_active_check(k, t, 1, fl);
		}
		B(k, "q = %s[%s]", p, t);
		static const char *const bn[] = {"bx", "by"};
		for (int a = 0; a < 2; a++) {
			const char *n = nb;
			if (from_shape) {
				n = a ? "ny" : "nx";
				B(k, "%s = %s.shape[%d]", n, h, a);
			}
			if (chance(g, 35)) {
				B(k, "%s = int((q[%d] + 1.0) * 0.5 * float(%s))", bn[a], ax[a], n);
			} else {
				const char *lo = kit_num(k, -0.9, -0.3), *hi = kit_num(k, 0.3, 0.9);
				B(k, "%s = int(wp.clamp((q[%d] + %s) / %s, 0.0, 1.0) * float(%s))", bn[a], ax[a], lo + 1,
				  kit_dec(k, atof(hi) - atof(lo)), n);
			}
			B(k, "%s = wp.clamp(%s, 0, %s - 1)", bn[a], bn[a], n);
		}
		if (weighted && chance(g, 40)) {
			const char *qa = F(k, "q[%d]", ax[rnd(g, 2)]);
			B(k, "wp.atomic_add(%s, bx, by, %s)", h, kit_prod(k, F(k, "%s[%s]", w, t), kit_response(k, qa)));
		} else if (weighted) {
			B(k, "wp.atomic_add(%s, bx, by, %s[%s])", h, w, t);
		} else {
			B(k, "wp.atomic_add(%s, bx, by, 1)", h);
		}
		if (hs)
			B(k, "wp.atomic_add(%s, bx, by, q[%d])", hs, ax[2]);
		kit_end(k, ONE(g, "histogram2d", "joint_histogram", "bin_pairs"));
		return;
	}
	if (kind == 1) {
		/* a histogram of values in [-1, 1), maybe weighted: of an
		 * array, of a coordinate of points (heights), or of a subset
		 * through an index list */
		/* 0-2 an array, 3 a coordinate, 4 a subset, 5 the speeds
		 * of velocities (a Maxwell distribution's histogram) */
		int src = rnd(g, 6);
		const char *xs = kit_arr(k, src == 3   ? ONE(g, "points", "positions", "x")
					: src == 5 ? ONE(g, "v", "vel", "velocities")
						   : ONE(g, "values", "samples", "x", "data"),
				     src == 3 || src == 5 ? "wp.vec3" : "float", 1);
		const char *ids = src == 4 ? kit_arr(k, ONE(g, "indices", "selection", "ids"), "int", 1) : 0;
		int weighted = chance(g, 50);
		const char *w = weighted ? kit_arr(k, ONE(g, "weights", "w", "mass"), "float", 1) : 0;
		const char *h = kit_arr(k, ONE(g, "hist", "bins", "counts"), weighted ? "float" : "int", 1);
		/* the bin count a parameter, or the bins' array's length */
		int from_shape = chance(g, 35);
		const char *nb = from_shape ? "nb" : kit_scalar(k, ONE(g, "num_bins", "nbins", "bin_count"), "int");
		kit_tid_line(k, 1, t, 0);
		if (chance(g, 15)) {
			static const char *const fl[3] = {"flags", "sample_flags", "valid_bits"};
			kit_active_check(k, t, 1, fl);
		}
		if (from_shape)
			B(k, "nb = %s.shape[0]", h);
		const char *val;
		if (src == 5) {
			/* speeds up to a top speed: the faster ones in the
			 * last bin, or left out */
			B(k, "u = wp.length(%s[%s]) / %s", xs, t, kit_num(k, 0.8, 1.25));
			if (chance(g, 40)) {
				COV(g, stmt_if);
				COV(g, stmt_return_kernel);
				B(k, "if u >= 1.0:");
				k->ind++;
				B(k, "return");
				k->ind--;
				B(k, "b = int(u * float(%s))", nb);
			} else {
				B(k, "b = int(wp.min(u, 1.0) * float(%s))", nb);
			}
			val = "u";
		} else if (src == 3) {
			val = F(k, "%s[%s][%d]", xs, t, rnd(g, 3));
		} else if (src == 4) {
			B(k, "s = %s[%s]", ids, t);
			val = F(k, "%s[s]", xs);
		} else {
			val = F(k, "%s[%s]", xs, t);
		}
		/* a plain map, a range of its own, a response, or bins of
		 * the magnitude on a log scale */
		static const int mw[] = {3, 45, 32, 20};
		int map = src == 5 ? -1 : wpick(g, mw, 4);
		if (map == 3) {
			double c = atof(kit_num(k, 2.0, 9.5));
			B(k, "b = int(wp.log(1.0 + %s * wp.abs(%s)) * %s * float(%s))", kit_dec(k, c), val, kit_dec(k, floor(1.0e5 / log(1.0 + c)) / 1.0e5), nb);
		} else if (map == 0) {
			B(k, "b = int((%s + 1.0) * 0.5 * float(%s))", val, nb);
		} else if (map == 1) {
			/* bins over a range inside the values': those outside
			 * go to the end bins, or are dropped */
			const char *lo = kit_num(k, -0.9, -0.3), *hi = kit_num(k, 0.3, 0.9);
			B(k, "u = (%s + %s) / %s", val, lo + 1, kit_dec(k, atof(hi) - atof(lo)));
			if (chance(g, 40)) {
				COV(g, stmt_if);
				COV(g, expr_or);
				COV(g, stmt_return_kernel);
				B(k, "if u < 0.0 or u >= 1.0:");
				k->ind++;
				B(k, "return");
				k->ind--;
				B(k, "b = int(u * float(%s))", nb);
			} else {
				B(k, "b = int(wp.clamp(u, 0.0, 1.0) * float(%s))", nb);
			}
		} else if (map == 2) {
			/* bins of a response in [0, 1] */
			const char *a = kit_num_not(k, 0.6, 1.35, "1.0");
			B(k, "b = int((0.5 + 0.5 * wp.tanh(%s * %s)) * float(%s))", a, val, nb);
		}
		B(k, "b = wp.clamp(b, 0, %s - 1)", nb);
		const char *wt = w ? F(k, "%s[%s]", w, src == 4 ? "s" : t) : 0;
		if (weighted && chance(g, 40))
			B(k, "wp.atomic_add(%s, b, %s)", h, kit_prod(k, wt, kit_response(k, val)));
		else if (weighted)
			B(k, "wp.atomic_add(%s, b, %s)", h, wt);
		else
			B(k, "wp.atomic_add(%s, b, 1)", h);
		if (chance(g, 25)) {
			/* the values' sum per bin, for each bin's mean, maybe
			 * with their squares' for its variance */
			const char *bs = kit_arr(k, ONE(g, "bin_sum", "sums", "value_sum"), "float", 1);
			B(k, "wp.atomic_add(%s, b, %s)", bs, val);
			if (chance(g, 40))
				B(k, "wp.atomic_add(%s, b, %s * %s)", kit_arr(k, ONE(g, "bin_sq", "sq_sums", "value_sq"), "float", 1), val, val);
		}
		if (chance(g, 40)) {
			/* a bit per bin, 32 bins to a word: set in a mask of the
			 * occupied bins, cleared in one of the empty bins, or
			 * toggled (the parity of the bin's count) */
			static const char *const fn[] = {"wp.atomic_or", "wp.atomic_and", "wp.atomic_xor"};
			int op = rnd(g, 3);
			const char *m = op == 0   ? kit_arr(k, ONE(g, "occupied", "occupancy", "nonempty"), "int", 1)
					: op == 1 ? kit_arr(k, ONE(g, "empty_bins", "free_bins", "vacant"), "int", 1)
						  : kit_arr(k, ONE(g, "parity", "odd_counts", "hit_parity"), "int", 1);
			COV(g, stmt_assign);
			B(k, "bit = 1 << (b %% 32)");
			B(k, "%s(%s, b // 32, %sbit)", fn[op], m, op == 1 ? "~" : "");
		}
		kit_end(k, ONE(g, "histogram", "bin_values", "count_bins"));
		return;
	}
	if (kind == 2) {
		/* the bounds of a point set along a direction */
		const char *p = kit_arr(k, ONE(g, "points", "x", "positions"), "wp.vec3", 1);
		/* both ends, or one: the lowest point along the direction
		 * (a body's contact with the ground), or the highest */
		static const int sw2[] = {70, 15, 15};
		int sides = wpick(g, sw2, 3);
		const char *lo = sides == 2 ? 0 : kit_arr(k, sides ? ONE(g, "lowest", "min_d", "support_lo") : ONE(g, "lower", "bounds_min", "lo"), "float", 1);
		const char *hi = sides == 1 ? 0 : kit_arr(k, sides ? ONE(g, "highest", "max_d", "support_hi") : ONE(g, "upper", "bounds_max", "hi"), "float", 1);
		/* of the whole set, or of each group (a body's points) */
		const char *grp = chance(g, 35) ? kit_arr(k, ONE(g, "group", "body", "owner"), "int", 1) : 0;
		/* points, or spheres of a radius each or one margin */
		static const int pw[] = {10, 45, 45};
		int pad = wpick(g, pw, 3);
		const char *rad = pad == 1 ? kit_arr(k, ONE(g, "radius", "radii", "point_radius"), "float", 1) : 0;
		/* every point, or a subset through an index list */
		const char *ids = chance(g, 25) ? kit_arr(k, ONE(g, "indices", "point_ids", "subset"), "int", 1) : 0;
		kit_tid_line(k, 1, t, 0);
		/* flagged points skipped, outliers past a radius or points
		 * scored below a cut left out: one of them, so that enough
		 * points remain to move the bounds */
		int cull = rnd(g, 4);
		if (cull < 2 && chance(g, 30)) {
			static const char *const fl[3] = {"flags", "point_flags", "p_flags"};
			kit_active_check(k, t, 1, fl);
		}
		if (ids) {
			B(k, "pid = %s[%s]", ids, t);
			B(k, "q = %s[pid]", p);
		} else {
			B(k, "q = %s[%s]", p, t);
		}
		if (cull == 3) {
			/* points scored below a cut (a detection's confidence,
			 * a visibility) are left out */
			COV(g, stmt_if);
			COV(g, stmt_return_kernel);
			const char *sc = kit_arr(k, ONE(g, "confidence", "score", "visibility"), "float", 1);
			B(k, "if %s[%s] < %s:", sc, ids ? "pid" : t, kit_num_not(k, -0.6, 0.6, "0.0"));
			k->ind++;
			B(k, "return");
			k->ind--;
		} else if (cull == 2) {
			/* points past a cutoff from the origin are outliers */
			const char *cut = kit_num(k, 0.7, 1.3);
			COV(g, stmt_if);
			COV(g, stmt_return_kernel);
			if (chance(g, 50))
				B(k, "if wp.length(q) > %s:", cut);
			else
				B(k, "if wp.dot(q, q) > %s:", kit_dec(k, atof(cut) * atof(cut)));
			k->ind++;
			B(k, "return");
			k->ind--;
		}
		static const int fw[] = {20, 20, 20, 40};
		int frame = wpick(g, fw, 4);
		if (frame == 1) {
			const char *m = kit_scalar(k, ONE(g, "xform", "rotation", "frame"), "wp.mat33");
			B(k, "q = %s * q", m);
		} else if (frame == 2) {
			const char *xf = kit_scalar(k, ONE(g, "xform", "pose", "frame"), "wp.transform");
			COV(g, type_transform);
			B(k, "q = wp.transform_point(%s, q)", xf);
		} else if (frame == 3) {
			const char *c = kit_scalar(k, ONE(g, "origin", "center", "pivot"), "wp.vec3");
			B(k, "q = (q - %s) * %s", c, kit_coef(k, ONE(g, "scale", "inv_size", "zoom"), 0.5, 1.25));
		}
		if (grp)
			B(k, "g = %s[%s]", grp, t);
		/* the extent along a direction (the support of the set) */
		/* maybe swept over a step, for continuous collision: the
		 * end point too */
		const char *vel = chance(g, 25) ? kit_arr(k, ONE(g, "vel", "v", "velocities"), "wp.vec3", 1) : 0;
		const char *sdt = vel ? kit_coef(k, "dt", 0.01, 0.2) : 0;
		int axis = chance(g, 35) ? rnd(g, 3) : -1;
		/* one direction for all, or one per group (each body's own
		 * axis) */
		const char *dir = axis >= 0		   ? 0
				  : grp && chance(g, 35) ? F(k, "%s[g]", kit_arr(k, ONE(g, "axes", "group_dir", "body_axis"), "wp.vec3", 1))
							 : kit_scalar(k, ONE(g, "axis", "direction", "normal"), "wp.vec3");
		/* along a coordinate axis (one side of a box) or a direction */
		if (axis >= 0)
			B(k, "d = q[%d]", axis);
		else
			B(k, "d = wp.dot(q, %s)", dir);
		if (vel) {
			B(k, "q1 = q + %s[%s] * %s", vel, ids ? "pid" : t, sdt);
			if (axis >= 0)
				B(k, "d1 = q1[%d]", axis);
			else
				B(k, "d1 = wp.dot(q1, %s)", dir);
		}
		const char *at = grp ? "g" : "0";
		if (pad == 0) {
			extent(k, lo, hi, at, "d", "");
			if (vel)
				extent(k, lo, hi, at, "d1", "");
		} else {
			/* a radius per point, scaled or plus a margin, or one
			 * margin for all */
			const char *ri = rad ? F(k, "%s[%s]", rad, ids ? "pid" : t) : 0;
			if (rad && chance(g, 40))
				B(k, "r = %s + %s", ri, kit_num(k, 0.005, 0.05));
			else if (rad)
				B(k, "r = %s * %s", ri, kit_num_not(k, 1.0, 1.5, "1.0"));
			else
				B(k, "r = %s", chance(g, 20) ? kit_fparam(k, ONE(g, "margin", "thickness", "pad")) : kit_num(k, 0.005, 0.05));
			extent(k, lo, hi, at, "d", "r");
			if (vel)
				extent(k, lo, hi, at, "d1", "r");
		}
		/* the radius of a bounding sphere about a given centre */
		if (chance(g, 20)) {
			const char *rm = kit_arr(k, ONE(g, "sphere_radius", "r_max", "bound_radius"), "float", 1);
			B(k, "wp.atomic_max(%s, %s, wp.length(q - %s))", rm, at, kit_scalar(k, ONE(g, "sphere_center", "c0", "ref_point"), "wp.vec3"));
		}
		/* 2: the points' sum for a centroid, 3: and their count, 4:
		 * their sum weighted by mass, and the mass (a centre of mass) */
		int centre = rnd(g, 5);
		if (centre == 4) {
			const char *pm = kit_arr(k, ONE(g, "mass", "m", "point_mass"), "float", 1);
			B(k, "mq = %s[%s]", pm, ids ? "pid" : t);
			B(k, "wp.atomic_add(%s, %s, q * mq)", kit_arr(k, ONE(g, "mass_moment", "com_sum", "weighted_sum"), "wp.vec3", 1), at);
			B(k, "wp.atomic_add(%s, %s, mq)", kit_arr(k, ONE(g, "mass_sum", "total_mass", "m_sum"), "float", 1), at);
		}
		if (centre == 2 || centre == 3)
			B(k, "wp.atomic_add(%s, %s, q)", kit_arr(k, ONE(g, "center_sum", "centroid", "sum_pos"), "wp.vec3", 1), at);
		if (centre == 3)
			B(k, "wp.atomic_add(%s, %s, 1)", kit_arr(k, ONE(g, "num_points", "count", "n_pts"), "int", 1), at);
		kit_end(k, ONE(g, "compute_bounds", "bounds", "extents"));
		return;
	}
	/* sums: energy, moments, a masked count; of the whole set or per
	 * group (a body's particles, a cluster) */
	/* what a masked count tests: 0-1 the speed, 2-3 the velocity
	 * along a direction, 4 the kinetic energy, 5 the height, 6 the
	 * distance from a centre (the last two read no velocity) */
	int qty = kind == 4 ? rnd(g, 7) : -1;
	const char *v = qty >= 5 ? 0 : kit_arr(k, ONE(g, "v", "vel", "velocities"), "wp.vec3", 1);
	int umass = chance(g, 20); /* one mass for every particle */
	const char *m = umass ? kit_fparam(k, ONE(g, "particle_mass", "mass", "m0")) : kit_arr(k, ONE(g, "mass", "m", "masses"), "float", 1);
	const char *grp = chance(g, 35) ? kit_arr(k, ONE(g, "group", "body", "cluster"), "int", 1) : 0;
	const char *at = grp ? "b" : "0";
	kit_tid_line(k, 1, t, 0);
	if (v)
		B(k, "vi = %s[%s]", v, t);
	if (!umass)
		B(k, "mi = %s[%s]", m, t);
	const char *mi = umass ? m : "mi";
	if (grp)
		B(k, "b = %s[%s]", grp, t);
	const char *tot = kit_arr(k, ONE(g, "total", "sums", "energy"), "float", 1);
	if (kind == 3) {
		/* in the frame of the lab, one that moves, each group's
		 * own (its mean velocity: the thermal part), or one that
		 * turns about the origin */
		const char *x = 0;
		int frame = rnd(g, 4);
		if (frame == 2 && grp && chance(g, 50)) {
			B(k, "vi = vi - %s[b]", kit_arr(k, ONE(g, "v_mean", "group_vel", "v_com"), "wp.vec3", 1));
		} else if (frame == 2) {
			B(k, "vi = vi - %s", kit_scalar(k, ONE(g, "frame_vel", "v_ref", "drift"), "wp.vec3"));
		} else if (frame == 3) {
			x = kit_arr(k, ONE(g, "x", "positions", "pos"), "wp.vec3", 1);
			const char *om = kit_scalar(k, ONE(g, "omega", "spin", "frame_omega"), "wp.vec3");
			B(k, "vi = vi - wp.cross(%s, %s[%s])", om, x, t);
		}
		static const int lw[] = {8, 7, 40, 45};
		int law = wpick(g, lw, 4);
		if (law == 0)
			B(k, "ke = 0.5 * %s * wp.dot(vi, vi)", mi);
		else if (law == 1)
			B(k, "ke = 0.5 * %s * wp.length_sq(vi)", mi);
		else if (law == 2)
			B(k, "ke = %s", kit_prod(k, mi, kit_response(k, "wp.length(vi)")));
		else
			B(k, "ke = %s * %s * wp.dot(vi, vi)", kit_num(k, 0.2, 0.95), mi);
		/* maybe with the spin's energy, 1/2 w.(I w), an inertia
		 * tensor or a moment per particle, in the total or apart */
		int rot = rnd(g, 4);
		if (rot >= 2) {
			const char *wn = ONE(g, "omega", "ang_vel", "w");
			if (frame == 3 && !strcmp(wn, "omega"))
				wn = "ang_vel"; /* the turning frame's is a parameter */
			const char *w = kit_arr(k, wn, "wp.vec3", 1);
			B(k, "wi = %s[%s]", w, t);
			if (chance(g, 50))
				B(k, "erot = 0.5 * wp.dot(wi, %s[%s] * wi)", kit_arr(k, ONE(g, "inertia", "I_body", "moment"), "wp.mat33", 1), t);
			else {
				const char *in = kit_arr(k, ONE(g, "inertia", "I_body", "moment"), "float", 1);
				B(k, "erot = %s * %s[%s] * wp.dot(wi, wi)", kit_num_not(k, 0.2, 0.6, "0.5"), in, t);
			}
			if (rot == 2)
				B(k, "wp.atomic_add(%s, %s, ke + erot)", tot, at);
			else
				B(k, "wp.atomic_add(%s, %s, erot)", kit_arr(k, ONE(g, "rot_energy", "e_rot", "spin_energy"), "float", 1), at);
		}
		if (rot != 2)
			B(k, "wp.atomic_add(%s, %s, ke)", tot, at);
		if (chance(g, 30))
			B(k, "%s[%s] = ke", kit_arr(k, ONE(g, "ke_particle", "particle_energy", "ke_out"), "float", 1), t);
		if (chance(g, 20))
			B(k, "wp.atomic_add(%s, %s, 1)", kit_arr(k, ONE(g, "count", "num", "members"), "int", 1), at);
		/* with the linear momentum, the potential energy, the
		 * angular momentum: one or more of them */
		int what = 1 + rnd(g, 7);
		if (what & 1) {
			const char *mom = kit_arr(k, ONE(g, "momentum", "p_total", "linear"), "wp.vec3", 1);
			B(k, "wp.atomic_add(%s, %s, %s * vi)", mom, at, mi);
		}
		if (what & 6 && !x)
			x = kit_arr(k, ONE(g, "x", "positions", "pos"), "wp.vec3", 1);
		if (what & 2) {
			/* in gravity (a magnitude along -y, above a reference
			 * height, or a vector), in a spring to the origin or to
			 * an anchor per particle, or in a field of the height */
			const char *pe = kit_arr(k, ONE(g, "potential", "pe", "height_energy"), "float", 1);
			int pot = rnd(g, 6);
			if (pot == 0)
				B(k, "wp.atomic_add(%s, %s, %s * %s * %s[%s][1])", pe, at, mi, kit_num(k, 2.0, 9.81), x, t);
			else if (pot == 1)
				B(k, "wp.atomic_add(%s, %s, %s * wp.dot(%s[%s], %s[%s]))", pe, at, kit_num(k, 0.05, 0.8), x, t, x, t);
			else if (pot == 2)
				B(k, "wp.atomic_add(%s, %s, %s)", pe, at, kit_prod(k, mi, kit_response(k, F(k, "%s[%s][1]", x, t))));
			else if (pot == 3) {
				const char *gm = kit_num(k, 2.0, 9.81);
				B(k, "wp.atomic_add(%s, %s, %s * %s * (%s[%s][1] - %s))", pe, at, mi, gm, x, t, kit_num(k, -0.5, 0.5));
			}
			else if (pot == 4)
				B(k, "wp.atomic_add(%s, %s, -%s * wp.dot(%s, %s[%s]))", pe, at, mi,
				  kit_scalar(k, ONE(g, "gravity", "g", "accel"), "wp.vec3"), x, t);
			else {
				const char *an = kit_arr(k, ONE(g, "anchor", "rest", "x0"), "wp.vec3", 1);
				B(k, "wp.atomic_add(%s, %s, %s * wp.length_sq(%s[%s] - %s[%s]))", pe, at, kit_num(k, 0.05, 0.8), x, t, an, t);
			}
		}
		if (what & 4) {
			/* about the origin or about a pivot */
			const char *am = kit_arr(k, ONE(g, "angular", "ang_momentum", "L_total"), "wp.vec3", 1);
			if (chance(g, 60))
				B(k, "wp.atomic_add(%s, %s, wp.cross(%s[%s], vi) * %s)", am, at, x, t, mi);
			else
				B(k, "wp.atomic_add(%s, %s, wp.cross(%s[%s] - %s, vi) * %s)", am, at, x, t,
				  kit_scalar(k, ONE(g, "pivot", "center", "origin"), "wp.vec3"), mi);
		}
	} else {
		/* the fast ones or the slow ones, the ones moving along a
		 * direction or against it, the energetic ones or the ones
		 * above a height; maybe the others counted apart */
		const char *thr, *q;
		int slow = chance(g, 35);
		if (qty == 4 && umass)
			qty = 0; /* one mass for all, maybe negative: no energy would pass */
		if (qty < 2) {
			/* speeds below 0.6 are rare under the input law */
			/* in the lab's frame, or relative to each group's mean
			 * velocity (the particles that stray from their group;
			 * the difference of two velocities runs to about twice
			 * the speed, and so do its thresholds) */
			q = "speed";
			if (grp && chance(g, 40)) {
				thr = slow ? kit_num(k, 0.85, 1.3) : kit_num(k, 1.0, 1.6);
				B(k, "speed = wp.length(vi - %s[b])", kit_arr(k, ONE(g, "v_mean", "group_vel", "v_com"), "wp.vec3", 1));
			} else {
				thr = slow ? kit_num(k, 0.6, 1.05) : kit_num(k, 0.7, 1.2);
				B(k, "speed = wp.length(vi)");
			}
		} else if (qty < 4) {
			thr = kit_num_not(k, -0.3, 0.3, "0.0");
			q = "speed";
			B(k, "speed = wp.dot(vi, %s)", kit_scalar(k, ONE(g, "up", "direction", "axis"), "wp.vec3"));
		} else if (qty == 4) {
			thr = kit_num(k, 0.05, 0.25);
			q = "e_kin";
			B(k, "e_kin = 0.5 * %s * wp.dot(vi, vi)", mi);
		} else if (qty == 5) {
			thr = kit_num_not(k, -0.35, 0.35, "0.0");
			q = "h";
			B(k, "h = %s[%s][1]", kit_arr(k, ONE(g, "x", "positions", "pos"), "wp.vec3", 1), t);
		} else {
			thr = kit_num(k, 0.85, 1.3);
			q = "dist";
			const char *xp = kit_arr(k, ONE(g, "x", "positions", "pos"), "wp.vec3", 1);
			B(k, "dist = wp.length(%s[%s] - %s)", xp, t, kit_scalar(k, ONE(g, "center", "origin", "target"), "wp.vec3"));
		}
		/* past a threshold, or inside a band about a value (its
		 * half-width tuned too) */
		int band = chance(g, 30);
		const char *excess;
		COV(g, stmt_if);
		if (band) {
			const char *hw = qty == 4 ? kit_num(k, 0.1, 0.25) : kit_num(k, 0.15, 0.45);
			const char *dq = thr[0] == '-' ? F(k, "%s + %s", q, thr + 1) : F(k, "%s - %s", q, thr);
			B(k, "if wp.abs(%s) < %s:", dq, hw);
			excess = F(k, "(%s - wp.abs(%s))", hw, dq);
		} else {
			B(k, "if %s %s %s:", q, slow ? "<" : ">", thr);
			excess = slow ? (thr[0] == '-' ? F(k, "(-%s - %s)", thr + 1, q) : F(k, "(%s - %s)", thr, q))
				 : thr[0] == '-' ? F(k, "(%s + %s)", q, thr + 1) : F(k, "(%s - %s)", q, thr);
		}
		k->ind++;
		const char *cnt = kit_arr(k, band       ? ONE(g, "in_band", "count", "num_near")
					     : qty == 5 ? (slow ? ONE(g, "below", "count", "num_low") : ONE(g, "above", "count", "num_high"))
					     : qty == 6 ? (slow ? ONE(g, "inside", "count", "num_near") : ONE(g, "outside", "count", "num_far"))
					     : slow     ? ONE(g, "slow", "count", "num_slow")
						        : ONE(g, "fast", "count", "num_fast"), "int", 1);
		B(k, "wp.atomic_add(%s, %s, 1)", cnt, at);
		/* what they sum: the excess past the threshold, its square
		 * (a penalty), a response of it, or their mass */
		int ws = rnd(g, 20);
		const char *wv = ws < 3 ? excess : ws < 6 ? F(k, "%s * %s", excess, excess) : ws < 18 ? kit_response(k, excess) : 0;
		if (wv)
			B(k, "wp.atomic_add(%s, %s, %s)", tot, at, kit_prod(k, mi, wv));
		else
			B(k, "wp.atomic_add(%s, %s, %s)", tot, at, umass ? F(k, "%s * %s", mi, excess) : mi);
		k->ind--;
		if (chance(g, 25)) {
			COV(g, stmt_else);
			B(k, "else:");
			k->ind++;
			B(k, "wp.atomic_add(%s, %s, 1)", kit_arr(k, ONE(g, "others", "rest_count", "num_below"), "int", 1), at);
			k->ind--;
		}
	}
	kit_end(k, ONE(g, "reduce_energy", "sum_moments", "total_energy", "measure"));
}

/* ---- rigid bodies: quaternions and transforms ------------------------------ */

/* When ON (half the kernels), the vector V scaled back to a largest length
 * (a spin or speed limit), that length named LEN */
static void limit(Kit *k, const char *v, const char *len, int on)
{
	if (on)
		kit_cap_length(k, v, len, kit_num(k, 0.6, 1.2));
}

/* An atomic into an array of quaternions (XFORM 0) or transforms (1),
 * ADD or subtract: the line written, and its coverage row the overload's.
 * kit_end's count of the kernel's text takes every wp.atomic_add for the
 * overload of scalar and vector arrays; the count it adds there is taken
 * back here first (unsigned: the sum comes out right). */
static void shaped_atomic(Kit *k, int add, int xform, const char *arr_, const char *idx, const char *val)
{
	G *g = k->g;
	B(k, "wp.atomic_%s(%s, %s, %s)", add ? "add" : "sub", arr_, idx, val);
	g->cov->b[add ? GB_ATOMIC_ADD : GB_ATOMIC_SUB]--;
	g->cov->b[add ? (xform ? GB_ATOMIC_ADD_X : GB_ATOMIC_ADD_Q) : (xform ? GB_ATOMIC_SUB_X : GB_ATOMIC_SUB_Q)]++;
}

/* Rotations averaged per cluster (shape matching, fused sensors), after
 * kind 2's first line: each flipped into the hemisphere of its cluster's
 * reference (or of one reference for all) and summed, or with its
 * position as a pose; weighted by a given weight, a mass, or a confidence
 * that falls with the element's residual (or a mass times one), with the
 * weights or the members counted and their positions summed beside; half
 * the time a running sum that trades an element's old contribution for
 * its new one. */
static void average_rotations(Kit *k)
{
	G *g = k->g;
	const char *t = k->tid;
	const char *own = kit_arr(k, ONE(g, "cluster", "group", "owner"), "int", 1);
	/* the rotation from the element's rest orientation (shape matching),
	 * measured in the world frame or in the element's own */
	if (chance(g, 35)) {
		const char *rest = kit_arr(k, ONE(g, "rest_q", "rot_rest", "q0"), "wp.quat", 1);
		if (chance(g, 60))
			B(k, "r = r * wp.quat_inverse(wp.normalize(%s[%s]))", rest, t);
		else
			B(k, "r = wp.quat_inverse(wp.normalize(%s[%s])) * r", rest, t);
	}
	const char *ref = chance(g, 60) ? F(k, "%s[c]", kit_arr(k, ONE(g, "ref_rot", "q_ref", "cluster_rot"), "wp.quat", 1))
					: kit_scalar(k, ONE(g, "ref", "q_rest", "rest_rot"), "wp.quat");
	B(k, "c = %s[%s]", own, t);
	COV(g, stmt_if);
	B(k, "if wp.dot(r, %s) < 0.0:", ref);
	k->ind++;
	B(k, "r = -r");
	k->ind--;
	int pose = chance(g, 40);
	const char *val = "r";
	if (pose) {
		COV(g, type_transform);
		const char *pos = kit_arr(k, ONE(g, "com", "body_pos", "x"), "wp.vec3", 1);
		if (chance(g, 30))
			B(k, "X = wp.transform(%s[%s] + wp.quat_rotate(r, %s), r)", pos, t,
			  kit_scalar(k, ONE(g, "offset", "marker", "anchor"), "wp.vec3"));
		else
			B(k, "X = wp.transform(%s[%s], r)", pos, t);
		val = "X";
	}
	const char *w = NULL;
	static const int ww[] = {20, 30, 25, 15, 10};
	switch (wpick(g, ww, 5)) {
	case 0:
		w = F(k, "%s[%s]", kit_arr(k, ONE(g, "weight", "mass", "confidence"), "float", 1), t);
		break;
	case 1: {
		const char *res = kit_arr(k, ONE(g, "residual", "err", "fit_error"), "float", 1);
		B(k, "w = wp.exp(-%s * %s[%s])", kit_coef(k, ONE(g, "sharpness", "falloff", "inv_sigma"), 0.5, 4.0), res, t);
		w = "w";
		break;
	}
	case 2: {
		const char *res = kit_arr(k, ONE(g, "residual", "err", "fit_error"), "float", 1);
		const char *a = kit_num(k, 0.5, 2.0);
		const char *b = kit_num(k, 0.5, 2.0);
		B(k, "w = %s / (%s + %s[%s] * %s[%s])", a, b, res, t, res, t);
		w = "w";
		break;
	}
	case 3: {
		/* a mass times a confidence that falls with the residual */
		const char *ms = kit_arr(k, ONE(g, "mass", "body_mass", "m"), "float", 1);
		const char *res = kit_arr(k, ONE(g, "residual", "err", "fit_error"), "float", 1);
		B(k, "w = %s[%s] * wp.exp(-%s * %s[%s])", ms, t, kit_num(k, 0.5, 4.0), res, t);
		w = "w";
		break;
	}
	}
	if (w)
		val = F(k, "%s * %s", val, w);
	const char *sum = pose ? kit_arr(k, ONE(g, "pose_sum", "cluster_pose", "X_sum"), "wp.transform", 1)
			       : kit_arr(k, ONE(g, "rot_sum", "q_sum", "cluster_q"), "wp.quat", 1);
	/* members scored below a cut (a poor fit, a lost track) left out */
	int gate = chance(g, 50);
	if (gate) {
		COV(g, stmt_if);
		const char *score = kit_arr(k, ONE(g, "score", "quality", "fit"), "float", 1);
		const char *cut = kit_num(k, -0.6, 0.6);
		B(k, "if %s[%s] > %s:", score, t, cut);
		k->ind++;
	}
	if (chance(g, 50)) {
		const char *prev = pose ? kit_arr(k, ONE(g, "prev_pose", "old_pose", "X_prev"), "wp.transform", 1)
					: kit_arr(k, ONE(g, "prev_rot", "old_rot", "q_prev"), "wp.quat", 1);
		shaped_atomic(k, 0, pose, sum, "c", F(k, "%s[%s]", prev, t));
	}
	shaped_atomic(k, 1, pose, sum, "c", val);
	if (!pose && chance(g, 35)) {
		/* the members' centre beside their rotation (shape matching
		 * sums both) */
		const char *pos = kit_arr(k, ONE(g, "x", "com", "body_pos"), "wp.vec3", 1);
		const char *cs = kit_arr(k, ONE(g, "x_sum", "centroid_sum", "com_sum"), "wp.vec3", 1);
		B(k, "wp.atomic_add(%s, c, %s[%s]%s)", cs, pos, t, w ? F(k, " * %s", w) : "");
	}
	if (w && chance(g, 60))
		B(k, "wp.atomic_add(%s, c, %s)", kit_arr(k, ONE(g, "weight_sum", "w_total", "norm"), "float", 1), w);
	else if (!w && chance(g, 40))
		B(k, "wp.atomic_add(%s, c, 1)", kit_arr(k, ONE(g, "count", "members", "n_in"), "int", 1));
	if (gate)
		k->ind--;
	kit_end(k, pose ? ONE(g, "accumulate_poses", "cluster_poses", "average_poses")
			: ONE(g, "average_rotations", "cluster_rotations", "accumulate_rotations"));
}

/* A twist's part X (w or v) damped: by a factor per step, or at a rate
 * over the step, linearly or exactly (an exponential decay) */
static void damp(Kit *k, const char *x, const char *dt, const char *factor, const char *rate)
{
	G *g = k->g;
	switch (rnd(g, 3)) {
	case 0: B(k, "%s = %s * %s", x, x, kit_coef(k, factor, 0.98, 0.999)); break;
	case 1: B(k, "%s = %s * (1.0 - %s * %s)", x, x, kit_coef(k, rate, 0.05, 0.8), dt); break;
	default: B(k, "%s = %s * wp.exp(-%s * %s)", x, x, kit_coef(k, rate, 0.05, 2.0), dt); break;
	}
}

/* Poses integrated by body twists: applied wrenches through an inverse
 * mass and inertia, gravity, spin and speed limits, damping; the pose
 * advanced about its origin or its centre of mass, the rotation by the
 * quaternion derivative of a world- or body-frame spin or by the exact
 * rotation of the step; the twist written back in half */
static void integrate_bodies(Kit *k)
{
	G *g = k->g;
	const char *t = k->tid;
	const char *q = kit_arr(k, ONE(g, "body_q", "poses", "body_pose"), "wp.transform", 1);
	const char *qd = kit_arr(k, ONE(g, "body_qd", "twists", "body_vel"), "wp.spatial_vector", 1);
	kit_tid_line(k, 1, t, 0);
	if (chance(g, 20)) {
		/* disabled (sleeping, kinematic) bodies left where they are */
		static const char *const fl[3] = {"body_flags", "flags", "body_state"};
		kit_active_check(k, t, 1, fl);
	}
	COV(g, type_transform);
	COV(g, type_quat);
	COV(g, type_spatial_vector);
	B(k, "X = %s[%s]", q, t);
	B(k, "p = wp.transform_get_translation(X)");
	B(k, "r = wp.normalize(wp.transform_get_rotation(X))");
	B(k, "twist = %s[%s]", qd, t);
	B(k, "w = wp.spatial_top(twist)");
	B(k, "v = wp.spatial_bottom(twist)");
	const char *dt = kit_fparam(k, "dt");
	int vel_out = chance(g, 50);
	if (chance(g, 40)) {
		/* an applied wrench (torque, force), through the inverse mass
		 * and, in two of three, the inverse inertia in the world frame
		 * or in the body's */
		const char *bf = kit_arr(k, ONE(g, "body_f", "wrenches", "body_force"), "wp.spatial_vector", 1);
		const char *im = chance(g, 60) ? F(k, "%s[%s]", kit_arr(k, ONE(g, "body_inv_mass", "inv_mass", "inv_m"), "float", 1), t)
					       : kit_coef(k, ONE(g, "inv_mass", "inv_m", "body_inv_mass"), 0.2, 2.0);
		B(k, "f = %s[%s]", bf, t);
		B(k, "v = v + wp.spatial_bottom(f) * (%s * %s)", im, dt);
		int ang = rnd(g, 3);
		if (ang) {
			const char *ii = kit_arr(k, ONE(g, "body_inv_inertia", "inv_I", "inv_inertia"), "wp.mat33", 1);
			if (ang == 1)
				B(k, "w = w + %s[%s] * wp.spatial_top(f) * %s", ii, t, dt);
			else
				B(k, "w = w + wp.quat_rotate(r, %s[%s] * wp.quat_rotate_inv(r, wp.spatial_top(f))) * %s", ii, t, dt);
		}
	}
	/* a speed limit, and gravity in the model's units (a literal's
	 * 9.8 would run every body into that limit) */
	int vlim = chance(g, 50);
	if (chance(g, 45)) {
		if (vlim || chance(g, 75))
			B(k, "v = v + %s * %s", kit_scalar(k, "gravity", "wp.vec3"), dt);
		else
			B(k, "v = v + wp.vec3(0.0, %s, 0.0) * %s", ONE(g, "-9.81", "-9.8", "-1.0", "-2.5"), dt);
	}
	int wlim = chance(g, 50);
	limit(k, "w", "speed", wlim);
	limit(k, "v", "vel", vlim);
	if (chance(g, 70)) {
		const char *factor = ONE(g, "angular_damping", "w_damp", "spin_decay");
		const char *rate = ONE(g, "angular_damping", "k_ang", "spin_drag");
		damp(k, "w", dt, factor, rate);
	}
	if (chance(g, 60)) {
		const char *factor = ONE(g, "linear_damping", "v_damp", "drag");
		const char *rate = ONE(g, "linear_damping", "k_lin", "drag");
		damp(k, "v", dt, factor, rate);
	}
	/* about the centre of mass, at an offset in the body frame */
	const char *com = chance(g, 25) ? kit_arr(k, ONE(g, "body_com", "com_local", "com_offset"), "wp.vec3", 1) : 0;
	if (com) {
		B(k, "com = %s[%s]", com, t);
		B(k, "x_com = p + wp.quat_rotate(r, com) + v * %s", dt);
	} else {
		B(k, "p = p + v * %s", dt);
	}
	static const int rw[] = {55, 20, 25};
	switch (wpick(g, rw, 3)) {
	case 0: B(k, "r = wp.normalize(r + wp.quat(w, 0.0) * r * (0.5 * %s))", dt); break;
	case 1: /* a spin in the body frame */
		B(k, "r = wp.normalize(r + r * wp.quat(w, 0.0) * (0.5 * %s))", dt);
		break;
	default: /* the exact rotation of the step */
		B(k, "angle = wp.sqrt(wp.dot(w, w) + %s)", kit_soft_eps(k));
		B(k, "r = wp.normalize(wp.quat_from_axis_angle(w / angle, angle * %s) * r)", dt);
		break;
	}
	if (com)
		B(k, "p = x_com - wp.quat_rotate(r, com)");
	if (chance(g, 25)) {
		/* the pose kept as a position and a rotation of their own */
		const char *po = kit_arr(k, ONE(g, "body_x", "positions", "com_out"), "wp.vec3", 1);
		B(k, "%s[%s] = p", po, t);
		B(k, "%s[%s] = r", kit_arr(k, ONE(g, "body_rot", "rotations", "q_out"), "wp.quat", 1), t);
	} else {
		const char *o = kit_arr(k, ONE(g, "body_q_new", "poses_out", "body_q_out"), "wp.transform", 1);
		B(k, "%s[%s] = wp.transform(p, r)", o, t);
	}
	if (vel_out) {
		const char *vo = kit_arr(k, ONE(g, "body_qd_new", "twists_out", "body_qd_out"), "wp.spatial_vector", 1);
		B(k, "%s[%s] = wp.spatial_vector(w, v)", vo, t);
	}
	kit_end(k, ONE(g, "integrate_bodies", "advance_bodies", "step_bodies"));
}

static void fam_rigid(Kit *k)
{
	G *g = k->g;
	const char *t = k->tid;
	int kind = rnd(g, 5);
	if (kind == 4) {
		/* a point cloud through one pose (a camera or a shape's frame),
		 * a transform or a position and a rotation; or instances of a
		 * shape, each point through its instance's pose */
		int split = chance(g, 30);
		const char *inst = chance(g, 25) ? kit_arr(k, ONE(g, "instance", "shape_id", "mesh_id"), "int", 1) : 0;
		const char *xf = 0, *pos = 0, *rq = 0;
		if (inst) {
			xf = split ? 0 : kit_arr(k, ONE(g, "xforms", "instance_X", "shape_X"), "wp.transform", 1);
			pos = split ? kit_arr(k, ONE(g, "origins", "instance_pos", "shape_pos"), "wp.vec3", 1) : 0;
			rq = split ? kit_arr(k, ONE(g, "orientations", "instance_rot", "shape_rot"), "wp.quat", 1) : 0;
		} else {
			xf = split ? 0 : kit_scalar(k, ONE(g, "xform", "pose", "frame"), "wp.transform");
			pos = split ? kit_scalar(k, ONE(g, "origin", "position", "translation"), "wp.vec3") : 0;
			rq = split ? kit_scalar(k, ONE(g, "orientation", "rotation", "frame_q"), "wp.quat") : 0;
		}
		const char *pts = kit_arr(k, ONE(g, "points", "vertices", "local_pts"), "wp.vec3", 1);
		kit_tid_line(k, 1, t, 0);
		COV(g, type_transform);
		if (inst) {
			B(k, "b = %s[%s]", inst, t);
			if (split) {
				pos = F(k, "%s[b]", pos);
				rq = F(k, "%s[b]", rq);
			} else {
				B(k, "X = %s[b]", xf);
				xf = "X";
			}
		}
		/* the points scaled first (a uniform scale keeps the normals) */
		if (chance(g, 30))
			B(k, "p = %s[%s] * %s", pts, t, kit_coef(k, ONE(g, "scale", "shape_scale", "size"), 0.5, 2.0));
		else
			B(k, "p = %s[%s]", pts, t);
		int inv = chance(g, 40);
		if (split) {
			COV(g, type_quat);
			B(k, "rot = wp.normalize(%s)", rq);
			if (inv)
				B(k, "q = wp.quat_rotate_inv(rot, p - %s)", pos);
			else
				B(k, "q = wp.quat_rotate(rot, p) + %s", pos);
		} else if (inv) {
			B(k, "q = wp.transform_point(wp.transform_inverse(%s), p)", xf);
		} else {
			B(k, "q = wp.transform_point(%s, p)", xf);
		}
		const char *o = kit_arr(k, ONE(g, "world", "points_out", "transformed"), "wp.vec3", 1);
		if (chance(g, 50)) {
			const char *nrm = kit_arr(k, ONE(g, "normals", "local_n", "dirs"), "wp.vec3", 1);
			const char *no = kit_arr(k, ONE(g, "normals_out", "world_n", "dirs_out"), "wp.vec3", 1);
			if (split)
				B(k, "%s[%s] = wp.normalize(%s(rot, %s[%s]))", no, t, inv ? "wp.quat_rotate_inv" : "wp.quat_rotate", nrm, t);
			else
				B(k, "%s[%s] = wp.normalize(wp.transform_vector(%s, %s[%s]))", no, t, xf, nrm, t);
		}
		if (chance(g, 99)) {
			const char *dist = kit_arr(k, ONE(g, "depth", "dist", "height"), "float", 1);
			if (chance(g, 30)) {
				/* the range from the frame's origin, softened */
				B(k, "radial = wp.sqrt(wp.dot(q, q) + %s)", kit_soft_eps(k));
				B(k, "%s[%s] = %s", dist, t, kit_response(k, "radial"));
			} else
				B(k, "%s[%s] = %s", dist, t, kit_response(k, F(k, "q[%d]", rnd(g, 3))));
		}
		B(k, "%s[%s] = q", o, t);
		kit_end(k, ONE(g, "transform_cloud", "to_world", "apply_pose"));
		return;
	}
	if (kind == 0) {
		integrate_bodies(k);
		return;
	}
	if (kind == 1) {
		/* points attached to bodies, into world space, with velocities */
		const char *q = kit_arr(k, ONE(g, "body_q", "poses"), "wp.transform", 1);
		const char *lp = kit_arr(k, ONE(g, "local_points", "shape_points", "anchors"), "wp.vec3", 1);
		const char *bid = kit_arr(k, ONE(g, "point_body", "body_index", "owner"), "int", 1);
		kit_tid_line(k, 1, t, 0);
		COV(g, type_transform);
		B(k, "body = %s[%s]", bid, t);
		B(k, "X = %s[body]", q);
		B(k, "world = wp.transform_point(X, %s[%s])", lp, t);
		const char *wo = kit_arr(k, ONE(g, "world_points", "points_out", "x_world"), "wp.vec3", 1);
		int vel = chance(g, 50);
		/* the contact's force also turns the body: a torque beside the
		 * force, or one wrench (torque, force) */
		int turn = rnd(g, 3);
		if (vel || turn)
			B(k, "arm = world - wp.transform_get_translation(X)");
		if (vel) {
			const char *qd = kit_arr(k, ONE(g, "body_qd", "twists"), "wp.spatial_vector", 1);
			COV(g, type_spatial_vector);
			B(k, "twist = %s[body]", qd);
			const char *vo = kit_arr(k, ONE(g, "point_vel", "v_world", "velocities"), "wp.vec3", 1);
			B(k, "pv = wp.spatial_bottom(twist) + wp.cross(wp.spatial_top(twist), arm)");
			B(k, "%s[%s] = pv", vo, t);
		}
		{
			/* a penalty contact with the ground (y or z up, or a plane
			 * given as its normal and offset, as warp.sim's ground is), a
			 * contact margin per point or not, damped by the point's
			 * speed into it when that is known, with viscous friction
			 * along it */
			int up = chance(g, 70) ? 1 : 2;
			const char *plane = chance(g, 20) ? kit_scalar(k, ONE(g, "ground", "ground_plane", "plane"), "wp.vec4") : 0;
			const char *f = turn == 2 ? kit_arr(k, ONE(g, "body_f", "wrenches", "body_force"), "wp.spatial_vector", 1)
						  : kit_arr(k, ONE(g, "contact_f", "forces", "f"), "wp.vec3", 1);
			const char *kc = kit_fparam(k, ONE(g, "contact_ke", "ke", "stiffness"));
			COV(g, stmt_if);
			/* (the contact with a plane begins a tuned margin early) */
			const char *h = plane ? F(k, "%s - %s[3]", kit_num(k, 0.005, 0.08), plane) : kit_num(k, -0.2, 0.3);
			const char *height = plane ? "wp.dot(n, world)" : F(k, "world[%d]", up);
			if (plane)
				B(k, "n = wp.vec3(%s[0], %s[1], %s[2])", plane, plane, plane);
			if (chance(g, 35)) {
				const char *rad = kit_arr(k, ONE(g, "radius", "thickness", "margin"), "float", 1);
				B(k, "depth = %s + %s[%s] - %s", h, rad, t, height);
			} else
				B(k, "depth = %s - %s", h, height);
			B(k, "if depth > 0.0:");
			k->ind++;
			const char *law = kit_prod(k, kc, chance(g, 30) ? "depth" : kit_response(k, "depth"));
			const char *vn = plane ? "wp.dot(pv, n)" : F(k, "pv[%d]", up);
			if (vel)
				law = F(k, "%s - %s * wp.min(%s, 0.0)", law, kit_coef(k, ONE(g, "contact_kd", "kd", "damping"), 0.05, 0.5), vn);
			const char *fv = plane ? F(k, "n * (%s)", law) : up == 1 ? F(k, "wp.vec3(0.0, %s, 0.0)", law) : F(k, "wp.vec3(0.0, 0.0, %s)", law);
			if (vel && chance(g, 40)) {
				B(k, "fc = %s", fv);
				const char *kf = kit_coef(k, ONE(g, "contact_kf", "kf", "friction"), 0.05, 0.8);
				if (plane)
					B(k, "fc = fc - %s * (pv - n * wp.dot(pv, n))", kf);
				else if (up == 1)
					B(k, "fc = fc - %s * wp.vec3(pv[0], 0.0, pv[2])", kf);
				else
					B(k, "fc = fc - %s * wp.vec3(pv[0], pv[1], 0.0)", kf);
				fv = "fc";
			} else if (turn) {
				B(k, "fc = %s", fv);
				fv = "fc";
			}
			if (turn == 2) {
				B(k, "wp.atomic_add(%s, body, wp.spatial_vector(wp.cross(arm, %s), %s))", f, fv, fv);
			} else {
				B(k, "wp.atomic_add(%s, body, %s)", f, fv);
				if (turn)
					B(k, "wp.atomic_add(%s, body, wp.cross(arm, %s))",
					  kit_arr(k, ONE(g, "contact_t", "torques", "tau"), "wp.vec3", 1), fv);
			}
			k->ind--;
		}
		B(k, "%s[%s] = world", wo, t);
		kit_end(k, ONE(g, "transform_points", "eval_shapes", "update_anchors"));
		return;
	}
	if (kind == 2) {
		/* orientations: rotate a body-frame vector, the world inertia */
		const char *rot = kit_arr(k, ONE(g, "rot", "orientations", "body_rot", "q"), "wp.quat", 1);
		kit_tid_line(k, 1, t, 0);
		COV(g, type_quat);
		B(k, "r = wp.normalize(%s[%s])", rot, t);
		if (chance(g, 20)) {
			average_rotations(k);
			return;
		}
		if (chance(g, 50)) {
			/* the body-frame inertia as a matrix or as its principal
			 * moments */
			const char *inertia = chance(g, 70) ? F(k, "%s[%s]", kit_arr(k, ONE(g, "inertia", "body_I", "I_body"), "wp.mat33", 1), t)
							    : F(k, "wp.diag(%s[%s])", kit_arr(k, ONE(g, "moments", "I_diag", "principal_I"), "wp.vec3", 1), t);
			B(k, "R = wp.quat_to_matrix(r)");
			const char *o = kit_arr(k, ONE(g, "inertia_world", "I_world", "world_inertia"), "wp.mat33", 1);
			/* an armature: inertia added about every axis, as warp.sim's
			 * bodies carry for stability */
			const char *arm = chance(g, 40) ? F(k, " + %s * wp.identity(n=3, dtype=float)", kit_num(k, 0.002, 0.08)) : "";
			if (chance(g, 2)) {
				B(k, "Iw = R * %s * wp.transpose(R)%s", inertia, arm);
			} else {
				/* about a point off the centre of mass (the parallel
				 * axis theorem), the body's mass tuned, the point one
				 * for all or one per body; or an inertia given about
				 * that point moved back to the centre of mass */
				const char *off = chance(g, 65) ? kit_scalar(k, ONE(g, "offset", "pivot", "com_offset"), "wp.vec3")
								: F(k, "%s[%s]", kit_arr(k, ONE(g, "offset", "pivot", "com_offset"), "wp.vec3", 1), t);
				B(k, "d = wp.quat_rotate(r, %s)", off);
				const char *m = kit_num(k, 0.02, 0.8);
				int back = chance(g, 30);
				if (chance(g, 40)) {
					/* the same term through the cross-product matrix:
					 * -[d]x^2 = |d|^2 I - d d^T */
					B(k, "S = wp.skew(d)");
					B(k, "Iw = R * %s * wp.transpose(R) %s %s * S * S%s", inertia, back ? "+" : "-", m, arm);
				} else {
					B(k, "Iw = R * %s * wp.transpose(R) %s %s * (wp.dot(d, d) * wp.identity(n=3, dtype=float) - wp.outer(d, d))%s",
					  inertia, back ? "-" : "+", m, arm);
				}
			}
			B(k, "%s[%s] = Iw", o, t);
			int inv = chance(g, 35);
			if (inv) {
				/* the inverse inertia too, the body's given */
				const char *ii = kit_arr(k, ONE(g, "inv_inertia", "body_inv_I", "inv_I_body"), "wp.mat33", 1);
				const char *io = kit_arr(k, ONE(g, "inv_inertia_world", "inv_I_world", "world_inv_inertia"), "wp.mat33", 1);
				B(k, "Iw_inv = R * %s[%s] * wp.transpose(R)", ii, t);
				B(k, "%s[%s] = Iw_inv", io, t);
			}
			if (inv && chance(g, 40)) {
				/* the spin recovered from a world angular momentum (an
				 * integrator that carries L), maybe its kinetic energy */
				B(k, "L = %s[%s]", kit_arr(k, ONE(g, "L_world", "ang_momentum", "momentum"), "wp.vec3", 1), t);
				B(k, "w = Iw_inv * L");
				B(k, "%s[%s] = w", kit_arr(k, ONE(g, "omega_world", "w_world", "spin_world"), "wp.vec3", 1), t);
				if (chance(g, 50))
					B(k, "%s[%s] = 0.5 * wp.dot(w, L)", kit_arr(k, ONE(g, "ke_rot", "spin_energy", "rot_energy"), "float", 1), t);
			} else if (chance(g, 50)) {
				/* the angular momentum of a spin in the body frame or
				 * the world's, and maybe its kinetic energy */
				const char *wb = kit_arr(k, ONE(g, "omega_body", "w_local", "spin"), "wp.vec3", 1);
				const char *L = kit_arr(k, ONE(g, "L_world", "ang_momentum", "momentum"), "wp.vec3", 1);
				if (chance(g, 65))
					B(k, "w = wp.quat_rotate(r, %s[%s])", wb, t);
				else
					B(k, "w = %s[%s]", wb, t);
				B(k, "L = Iw * w");
				B(k, "%s[%s] = L", L, t);
				if (chance(g, 30))
					/* the gyroscopic torque, w x L, that an explicit
					 * step of the spin subtracts */
					B(k, "%s[%s] = wp.cross(w, L)", kit_arr(k, ONE(g, "gyro", "tau_gyro", "gyroscopic"), "wp.vec3", 1), t);
				int ke = rnd(g, 5);
				if (ke == 1)
					B(k, "%s[%s] = 0.5 * wp.dot(w, L)", kit_arr(k, ONE(g, "ke_rot", "spin_energy", "rot_energy"), "float", 1), t);
				else if (ke == 2)
					B(k, "wp.atomic_add(%s, 0, 0.5 * wp.dot(w, L))", kit_arr(k, ONE(g, "ke_total", "kinetic", "energy"), "float", 1));
			}
		} else {
			const char *dir = kit_arr(k, ONE(g, "local_dir", "axes", "body_dirs"), "wp.vec3", 1);
			const char *o = kit_arr(k, ONE(g, "world_dir", "dirs_out", "axes_world"), "wp.vec3", 1);
			/* into the world frame, or into the body's (a world
			 * direction seen from the body) */
			int inv = chance(g, 30);
			/* a spin about an axis, in the world after the body's
			 * rotation, or in the body's frame before it (a rotor
			 * turning on the body) */
			int spun = chance(g, 70);
			int local = spun && !inv && chance(g, 30);
			const char *spin = 0;
			if (spun) {
				const char *ang = kit_arr(k, ONE(g, "angle", "theta", "spin_angle"), "float", 1);
				const char *axis = chance(g, 70) ? kit_scalar(k, ONE(g, "axis", "spin_axis", "hinge"), "wp.vec3")
								 : F(k, "%s[%s]", kit_arr(k, ONE(g, "axis", "spin_axis", "hinge"), "wp.vec3", 1), t);
				const char *th = chance(g, 50) ? F(k, "%s[%s]", ang, t)
							       : F(k, "%s[%s] * %s", ang, t, kit_coef(k, ONE(g, "rate", "gain", "spin_rate"), 0.5, 3.0));
				spin = F(k, "spin = wp.quat_from_axis_angle(wp.normalize(%s), %s)", axis, th);
			}
			if (local) {
				B(k, "%s", spin);
				B(k, "d = wp.quat_rotate(r * spin, %s[%s])", dir, t);
			} else {
				if (chance(g, 25))
					B(k, "d = %swp.quat_to_matrix(r)%s * %s[%s]", inv ? "wp.transpose(" : "", inv ? ")" : "", dir, t);
				else
					B(k, "d = %s(r, %s[%s])", inv ? "wp.quat_rotate_inv" : "wp.quat_rotate", dir, t);
				if (spin) {
					B(k, "%s", spin);
					B(k, "d = wp.quat_rotate(spin, d)");
				}
			}
			static const int ow[] = {1, 3, 48, 48};
			int out = wpick(g, ow, 4);
			if (out == 0)
				B(k, "%s[%s] = wp.quat_rotate_inv(r, d) + d", o, t);
			else if (out == 1)
				B(k, "%s[%s] = d", o, t);
			else if (out == 2)
				B(k, "%s[%s] = %s", o, t, kit_prod(k, "d", kit_response(k, "d[1]")));
			else {
				const char *up = kit_scalar(k, ONE(g, "up", "bias_dir", "target_dir"), "wp.vec3");
				B(k, "%s[%s] = wp.normalize(d + %s * %s)", o, t, kit_num(k, 0.02, 0.8), up);
			}
			if (chance(g, 35)) {
				/* how far the direction leans along a reference axis
				 * (an upright test), one for all or one per body */
				const char *ax = chance(g, 60) ? kit_scalar(k, ONE(g, "ref_axis", "world_up", "vertical"), "wp.vec3")
							       : F(k, "%s[%s]", kit_arr(k, ONE(g, "ref_axis", "target_axis", "goal_dir"), "wp.vec3", 1), t);
				B(k, "%s[%s] = wp.dot(d, %s)", kit_arr(k, ONE(g, "tilt", "lean", "alignment"), "float", 1), t, ax);
			}
		}
		kit_end(k, ONE(g, "rotate_frames", "world_inertia", "orient"));
		return;
	}
	/* relative transforms between joint parents and children */
	const char *q = kit_arr(k, ONE(g, "body_q", "poses"), "wp.transform", 1);
	const char *par = kit_arr(k, ONE(g, "joint_parent", "parent", "parents"), "int", 1);
	/* the joint's frames in its parent and in its child, when given */
	const char *jp = chance(g, 40) ? kit_arr(k, ONE(g, "joint_X_p", "parent_frame", "X_pj"), "wp.transform", 1) : 0;
	const char *jc = chance(g, 40) ? kit_arr(k, ONE(g, "joint_X_c", "child_frame", "X_cj"), "wp.transform", 1) : 0;
	kit_tid_line(k, 1, t, 0);
	COV(g, type_transform);
	if (jp)
		B(k, "X_p = wp.transform_multiply(%s[%s[%s]], %s[%s])", q, par, t, jp, t);
	else
		B(k, "X_p = %s[%s[%s]]", q, par, t);
	if (jc)
		B(k, "X_c = wp.transform_multiply(%s[%s], %s[%s])", q, t, jc, t);
	else
		B(k, "X_c = %s[%s]", q, t);
	B(k, "X_rel = wp.transform_multiply(wp.transform_inverse(X_p), X_c)");
	/* the relative pose as a transform, or as a rotation and an offset;
	 * the joint's anchor in the world beside */
	if (chance(g, 70)) {
		B(k, "%s[%s] = X_rel", kit_arr(k, ONE(g, "joint_q", "rel_pose", "local_pose"), "wp.transform", 1), t);
	} else {
		COV(g, type_quat);
		B(k, "%s[%s] = wp.transform_get_rotation(X_rel)", kit_arr(k, ONE(g, "joint_rot", "rel_rot", "local_rot"), "wp.quat", 1), t);
		B(k, "%s[%s] = wp.transform_get_translation(X_rel)", kit_arr(k, ONE(g, "joint_pos", "rel_pos", "local_pos"), "wp.vec3", 1), t);
	}
	if (chance(g, 25))
		B(k, "%s[%s] = wp.transform_get_translation(X_p)", kit_arr(k, ONE(g, "joint_anchor", "anchor_world", "pivot_world"), "wp.vec3", 1), t);
	{
		/* the joint's error: its offset (from a target per joint or
		 * none), the sine of half its angle and its offset, or its
		 * twist about the joint axis; written per joint, or summed as
		 * a stiffness-weighted energy */
		const char *err;
		switch (rnd(g, 5)) {
		case 0:
			if (chance(g, 40))
				/* the joint frames' separation, measured in the world */
				B(k, "dx = wp.length(wp.transform_get_translation(X_c) - wp.transform_get_translation(X_p))");
			else
				B(k, "dx = wp.length(wp.transform_get_translation(X_rel))");
			err = kit_response(k, "dx");
			break;
		case 1:
			B(k, "dx = wp.length(wp.transform_get_translation(X_rel) - %s[%s])",
			  kit_arr(k, ONE(g, "joint_target", "target_pos", "rest_offset"), "wp.vec3", 1), t);
			err = kit_response(k, "dx");
			break;
		case 2: {
			B(k, "r = wp.transform_get_rotation(X_rel)");
			const char *wr = kit_num_not(k, 0.5, 2.0, "1.0");
			err = F(k, "%s * wp.length(wp.vec3(r[0], r[1], r[2])) + %s * wp.length(wp.transform_get_translation(X_rel))", wr,
				kit_num_not(k, 0.05, 2.0, "1.0"));
			break;
		}
		default: {
			const char *ax = chance(g, 60) ? kit_scalar(k, ONE(g, "joint_axis", "axis", "hinge"), "wp.vec3")
						       : F(k, "%s[%s]", kit_arr(k, ONE(g, "joint_axis", "axis", "hinge"), "wp.vec3", 1), t);
			B(k, "r = wp.transform_get_rotation(X_rel)");
			B(k, "twist = wp.dot(wp.vec3(r[0], r[1], r[2]), %s)", ax);
			err = kit_response(k, "twist");
			break;
		}
		case 4: {
			/* the distance of the relative rotation from a target's,
			 * 1 - <r, q>^2: zero at either sign of the target */
			const char *qt = chance(g, 60) ? F(k, "%s[%s]", kit_arr(k, ONE(g, "target_rot", "joint_target_q", "rest_rot"), "wp.quat", 1), t)
						       : kit_scalar(k, ONE(g, "target_rot", "q_target", "rest_rot"), "wp.quat");
			B(k, "r = wp.transform_get_rotation(X_rel)");
			B(k, "c = wp.dot(r, wp.normalize(%s))", qt);
			B(k, "dq = 1.0 - c * c");
			err = kit_response(k, "dq");
			break;
		}
		}
		if (chance(g, 30)) {
			const char *ke = kit_coef(k, ONE(g, "joint_ke", "ke", "stiffness"), 0.5, 5.0);
			B(k, "e = %s", err);
			err = "e";
			B(k, "wp.atomic_add(%s, 0, %s)", kit_arr(k, ONE(g, "energy", "joint_energy", "pe"), "float", 1), kit_prod(k, kit_times(k, 0.5, ke), F(k, "%s * %s", err, err)));
		} else {
			B(k, "%s[%s] = %s", kit_arr(k, ONE(g, "joint_err", "offsets", "drift"), "float", 1), t, err);
		}
	}
	kit_end(k, ONE(g, "joint_transforms", "relative_pose", "eval_joints"));
}

/* ---- finite elements: triangles and tetrahedra ----------------------------- */

static void fam_fem(Kit *k)
{
	G *g = k->g;
	const char *t = k->tid;
	int tet = chance(g, 35);
	int n = tet ? 3 : 2;
	const char *vt = tet ? "wp.vec3" : "wp.vec2", *mt = tet ? "wp.mat33" : "wp.mat22";
	const char *x = kit_arr(k, ONE(g, "x", "positions", "particle_x"), vt, 1);
	/* the element's vertices: an index array per corner, or one array
	 * of index vectors */
	int packed = chance(g, 45);
	const char *ia = 0, *ib = 0, *ic = 0, *id = 0, *iv = 0;
	if (packed) {
		iv = kit_arr(k, tet ? ONE(g, "tet_indices", "tets", "elements") : ONE(g, "tri_indices", "tris", "elements"),
			     tet ? "wp.vec4i" : "wp.vec3i", 1);
	} else {
		ia = kit_arr(k, "tri_i", "int", 1), ib = kit_arr(k, "tri_j", "int", 1), ic = kit_arr(k, "tri_k", "int", 1);
		id = tet ? kit_arr(k, "tri_l", "int", 1) : 0;
	}
	const char *pose = kit_arr(k, ONE(g, "pose", "Dm_inv", "rest_inv"), mt, 1);
	kit_tid_line(k, 1, t, 0);
	if (packed) {
		B(k, "e = %s[%s]", iv, t);
		B(k, "a = e[0]");
		B(k, "b = e[1]");
		B(k, "c = e[2]");
		if (tet)
			B(k, "d = e[3]");
	} else {
		B(k, "a = %s[%s]", ia, t);
		B(k, "b = %s[%s]", ib, t);
		B(k, "c = %s[%s]", ic, t);
		if (tet)
			B(k, "d = %s[%s]", id, t);
	}
	B(k, "x0 = %s[a]", x);
	if (tet)
		B(k, "Ds = wp.matrix_from_cols(%s[b] - x0, %s[c] - x0, %s[d] - x0)", x, x, x);
	else
		B(k, "Ds = wp.matrix_from_cols(%s[b] - x0, %s[c] - x0)", x, x);
	B(k, "Dm = %s[%s]", pose, t);
	B(k, "F = Ds * Dm");
	const char *mu, *lam;
	static const int matw[] = {30, 50, 20};
	int mat = wpick(g, matw, 3);
	if (mat == 0) {
		/* a material per element, or a table of materials that each
		 * element names */
		const char *m = t;
		if (chance(g, 40)) {
			B(k, "m = %s[%s]", kit_arr(k, ONE(g, "material", "mat_id", "element_material"), "int", 1), t);
			m = "m";
		}
		mu = F(k, "%s[%s]", kit_arr(k, ONE(g, "k_mu", "mu", "shear"), "float", 1), m);
		lam = F(k, "%s[%s]", kit_arr(k, ONE(g, "k_lambda", "lam", "bulk"), "float", 1), m);
	} else if (mat == 1) {
		mu = kit_coef(k, ONE(g, "k_mu", "mu", "shear"), 0.5, 5.0);
		lam = kit_coef(k, ONE(g, "k_lambda", "lam", "bulk"), 0.5, 5.0);
	} else {
		/* Lame's parameters from a Young's modulus (per element or
		 * one) at a fixed Poisson ratio */
		const char *E = chance(g, 50) ? F(k, "%s[%s]", kit_arr(k, ONE(g, "youngs", "k_E", "stiffness"), "float", 1), t)
					      : kit_fparam(k, ONE(g, "youngs", "k_E", "stiffness"));
		double nu = 0.1 + 0.05 * rnd(g, 7);
		B(k, "mu = %s * %s", kit_dec(k, round(1000.0 / (2.0 * (1.0 + nu))) / 1000.0), E);
		B(k, "lam = %s * %s", kit_dec(k, round(1000.0 * nu / ((1.0 + nu) * (1.0 - 2.0 * nu))) / 1000.0), E);
		mu = "mu";
		lam = "lam";
	}
	/* St. Venant-Kirchhoff, linear, a neo-Hookean flavour, and for
	 * triangles a co-rotated model */
	int model = rnd(g, tet ? 3 : 4);
	/* the volume change and its derivative, for the neo-Hookean and
	 * co-rotated models and for a volume term added to the others */
	int volume = model >= 2 || chance(g, 85);
	if (model < 2)
		B(k, "I = wp.identity(n=%d, dtype=float)", n);
	if (model == 0) {
		/* St. Venant-Kirchhoff */
		B(k, "E = 0.5 * (wp.transpose(F) * F - I)");
		B(k, "P = F * (%s + %s * wp.trace(E) * I)", kit_prod(k, kit_times(k, 2.0, mu), "E"), lam);
		B(k, "psi = %s * wp.ddot(E, E) + %s", mu, kit_prod(k, kit_times(k, 0.5, lam), "wp.trace(E) * wp.trace(E)"));
	} else if (model == 1) {
		/* linear elasticity */
		B(k, "eps = 0.5 * (F + wp.transpose(F)) - I");
		B(k, "P = %s + %s * wp.trace(eps) * I", kit_prod(k, kit_times(k, 2.0, mu), "eps"), lam);
		B(k, "psi = %s * wp.ddot(eps, eps) + %s", mu, kit_prod(k, kit_times(k, 0.5, lam), "wp.trace(eps) * wp.trace(eps)"));
	}
	if (volume) {
		/* the volume change through the cofactor */
		B(k, "J = wp.determinant(F)");
		if (tet)
			B(k, "dJdF = wp.matrix_from_rows(wp.cross(F[1], F[2]), wp.cross(F[2], F[0]), wp.cross(F[0], F[1]))");
		else
			B(k, "dJdF = %s(F[1, 1], -F[1, 0], -F[0, 1], F[0, 0])", mt);
	}
	if (model == 2) {
		/* a stable neo-Hookean flavour with a rest volume ratio of its
		 * own (stable neo-Hookean models take 1 + 3 mu / (4 lambda), so
		 * that the rest shape is free of stress; here it is a tuned
		 * constant, as lambda may be near zero under the input law) */
		const char *r = chance(g, 10) ? "1.0" : kit_num(k, 1.0, 1.4);
		B(k, "P = %s * F + %s * (J - %s) * dJdF", mu, lam, r);
		B(k, "psi = %s + %s", kit_prod(k, kit_times(k, 0.5, mu), F(k, "(wp.ddot(F, F) - %s)", tet ? "3.0" : "2.0")),
		  kit_prod(k, kit_times(k, 0.5, lam), F(k, "(J - %s) * (J - %s)", r, r)));
	} else if (model == 3) {
		/* fixed co-rotated: F's rotation in closed form (a 2x2 polar
		 * decomposition, its norm softened) */
		B(k, "cs = F[0, 0] + F[1, 1]");
		B(k, "sn = F[1, 0] - F[0, 1]");
		B(k, "inv_len = 1.0 / wp.sqrt(cs * cs + sn * sn + %s)", kit_num(k, 0.05, 0.3));
		B(k, "R = wp.mat22(cs, -sn, sn, cs) * inv_len");
		B(k, "S = F - R");
		B(k, "P = %s + %s * (J - 1.0) * dJdF", kit_prod(k, kit_times(k, 2.0, mu), "S"), lam);
		B(k, "psi = %s * wp.ddot(S, S) + %s", mu, kit_prod(k, kit_times(k, 0.5, lam), "(J - 1.0) * (J - 1.0)"));
	} else if (volume) {
		/* a penalty on the volume change, its response tuned */
		const char *kv = kit_coef(k, ONE(g, "k_volume", "k_vol", "bulk_penalty"), 0.1, 2.0);
		B(k, "dJ = J - 1.0");
		B(k, "P = P + %s * dJdF", kit_prod(k, kv, kit_response(k, "dJ")));
	}
	if (chance(g, 25)) {
		/* a muscle fibre pulling along its direction, one for all or
		 * one per element */
		const char *act = kit_arr(k, ONE(g, "activation", "act", "tension"), "float", 1);
		const char *fib = chance(g, 60) ? kit_scalar(k, ONE(g, "fiber", "fibre_dir", "muscle_dir"), vt)
						: F(k, "%s[%s]", kit_arr(k, ONE(g, "fiber", "fibre_dir", "muscle_dir"), vt, 1), t);
		B(k, "P = P + %s * F * wp.outer(%s, %s)", kit_prod(k, kit_num(k, 0.2, 2.0), F(k, "%s[%s]", act, t)), fib, fib);
	}
	if (chance(g, 35)) {
		/* damping of the deformation rate, or of its symmetric part
		 * (a viscous stress) */
		const char *v = kit_arr(k, ONE(g, "v", "velocities", "particle_v"), vt, 1);
		const char *kd = kit_coef(k, ONE(g, "k_damp", "kd", "damping"), 0.01, 0.5);
		B(k, "v0 = %s[a]", v);
		if (tet)
			B(k, "dFdt = wp.matrix_from_cols(%s[b] - v0, %s[c] - v0, %s[d] - v0) * Dm", v, v, v);
		else
			B(k, "dFdt = wp.matrix_from_cols(%s[b] - v0, %s[c] - v0) * Dm", v, v);
		if (chance(g, 50))
			B(k, "P = P + %s * dFdt", kd);
		else
			B(k, "P = P + %s * (dFdt + wp.transpose(dFdt))", kd);
	}
	/* the rest area or volume per element, for cloth maybe times a
	 * thickness */
	const char *vol = chance(g, 50) ? F(k, "%s[%s]", kit_arr(k, ONE(g, "rest_area", "area", "volume"), "float", 1), t) : 0;
	if (vol && !tet && chance(g, 30))
		vol = F(k, "%s * %s", vol, kit_coef(k, ONE(g, "thickness", "shell_h", "h"), 0.05, 0.5));
	B(k, "H = P * wp.transpose(Dm)%s", vol ? F(k, " * %s", vol) : "");
	B(k, "Ht = wp.transpose(H)");
	const char *f = kit_arr(k, ONE(g, "f", "forces", "particle_f"), vt, 1);
	B(k, "wp.atomic_sub(%s, b, Ht[0])", f);
	B(k, "wp.atomic_sub(%s, c, Ht[1])", f);
	if (tet) {
		B(k, "wp.atomic_sub(%s, d, Ht[2])", f);
		B(k, "wp.atomic_add(%s, a, Ht[0] + Ht[1] + Ht[2])", f);
	} else {
		B(k, "wp.atomic_add(%s, a, Ht[0] + Ht[1])", f);
	}
	if (chance(g, 50)) {
		const char *en = kit_arr(k, ONE(g, "energy", "strain_energy", "pe"), "float", 1);
		B(k, "wp.atomic_add(%s, 0, psi%s)", en, vol ? F(k, " * %s", vol) : "");
	} else {
		const char *en = kit_arr(k, ONE(g, "element_energy", "psi_out", "density"), "float", 1);
		B(k, "%s[%s] = psi%s", en, t, vol && chance(g, 50) ? F(k, " * %s", vol) : "");
	}
	/* what the element also reports: its stress, its volume change */
	int rep = rnd(g, 4);
	if (rep == 1)
		B(k, "%s[%s] = P", kit_arr(k, ONE(g, "stress", "P_out", "piola"), mt, 1), t);
	else if (rep == 2 && volume)
		B(k, "%s[%s] = J", kit_arr(k, ONE(g, "J_out", "vol_ratio", "dilation"), "float", 1), t);
	kit_end(k, tet ? ONE(g, "tet_forces", "eval_tets", "solve_tets") : ONE(g, "triangle_forces", "eval_triangles", "cloth_forces"));
}

/* ---- neighbour loops (SPH, DEM, n-body) ------------------------------------ */

static void fam_neighbors(Kit *k)
{
	G *g = k->g;
	const char *t = k->tid;
	const char *x = kit_arr(k, ONE(g, "x", "positions", "particle_x"), "wp.vec3", 1);
	int kind = rnd(g, 4);
	/* all pairs: gravity, charges, or a soft repulsion */
	static const int lw[] = {50, 25, 25};
	int law = kind == 2 ? wpick(g, lw, 3) : 0;
	/* a neighbour list, all of its columns or the first count of them;
	 * all pairs for the long-range laws */
	int list = kind == 2 && law < 2 ? 0 : chance(g, kind == 2 ? 50 : 75);
	int counted = list && chance(g, 35);
	const char *nb = list ? kit_arr(k, ONE(g, "neighbors", "nbrs", "neighbor_list"), "int", 2) : 0;
	const char *cnt_arr = counted ? kit_arr(k, ONE(g, "neighbor_count", "num_neighbors", "counts"), "int", 1) : 0;
	const char *h = kit_num(k, 0.6, 1.2);
	const char *fn = 0;
	if (kind == 0) {
		/* the poly6 smoothing kernel as a helper */
		fn = kit_hname(k, ONE(g, "poly6", "smoothing_kernel", "w_poly6"));
		COV(g, stmt_return_func);
		H(k, "@wp.func");
		H(k, "def %s(r2: float, h: float) -> float:", fn);
		H(k, "    hh = h * h");
		H(k, "    if r2 >= hh:");
		H(k, "        return 0.0");
		int wk = rnd(g, 3);
		if (wk == 0) {
			H(k, "    q = hh - r2");
			H(k, "    return q * q * q\n\n");
		} else if (wk == 1) {
			/* a Wendland-like falloff */
			H(k, "    q = 1.0 - r2 / hh");
			H(k, "    return q * q * (1.0 + %s * q)\n\n", kit_num_not(k, 1.0, 4.0, "1.0"));
		} else {
			/* a Gaussian, cut at h */
			H(k, "    return wp.exp(-r2 / (%s * hh))\n\n", kit_num(k, 0.1, 0.5));
		}
	}
	kit_tid_line(k, 1, t, 0);
	if (chance(g, 25)) {
		static const char *const fl[3] = {"particle_flags", "flags", "p_flags"};
		kit_active_check(k, t, 1, fl);
	}
	B(k, "xi = %s[%s]", x, t);
	/* the masses: one a particle, or one for all */
	const char *m = 0;
	if (kind == 0)
		m = chance(g, 70) ? F(k, "%s[j]", kit_arr(k, ONE(g, "mass", "m", "particle_mass"), "float", 1))
				  : kit_coef(k, ONE(g, "mass", "particle_mass", "m0"), 0.2, 2.0);
	const char *v = kind == 1 || kind == 3 ? kit_arr(k, ONE(g, "v", "velocities"), "wp.vec3", 1) : 0;
	const char *pot = 0;
	int touch = 0;
	/* XSPH's sum normalised by the weights, or not */
	int norm = kind == 3 && chance(g, 70);
	if (kind == 0) {
		B(k, "rho = float(0.0)");
	} else if (kind == 3) {
		B(k, "vi = %s[%s]", v, t);
		B(k, "dv = wp.vec3()");
		if (norm)
			B(k, "wsum = float(0.0)");
	} else {
		B(k, "f = wp.vec3()");
		if (kind == 1 && chance(g, 25)) {
			/* the spheres each touches counted beside the force (a
			 * packing's coordination number) */
			touch = 1;
			B(k, "touching = int(0)");
		}
		if (kind == 2 && law < 2 && chance(g, 25)) {
			/* the potential beside the force */
			pot = "phi";
			B(k, "phi = float(0.0)");
		}
	}
	const char *chg = law == 1 ? kit_arr(k, ONE(g, "charge", "q_e", "particle_q"), "float", 1) : 0;
	if (chg)
		B(k, "qi = %s[%s]", chg, t);
	if (list) {
		COV(g, stmt_for_dynamic);
		if (counted)
			B(k, "for s in range(%s[%s]):", cnt_arr, t);
		else
			B(k, "for s in range(%s.shape[1]):", nb);
		k->ind++;
		B(k, "j = %s[%s, s]", nb, t);
	} else {
		const char *cnt = chance(g, 30) ? F(k, "%s.shape[0]", x) : kit_scalar(k, ONE(g, "num_particles", "n_particles", "count"), "int");
		COV(g, stmt_for_dynamic);
		B(k, "for j in range(%s):", cnt);
		k->ind++;
	}
	if (kind != 0) {
		COV(g, stmt_if);
		COV(g, stmt_continue);
		B(k, "if j == %s:", t);
		k->ind++;
		B(k, "continue");
		k->ind--;
	}
	B(k, "r = xi - %s[j]", x);
	int friction = 0;
	const char *mass_arr = 0;
	if (kind == 0) {
		B(k, "rho += %s", kit_prod(k, m, F(k, "%s(wp.dot(r, r), %s)", fn, h)));
	} else if (kind == 1) {
		/* a soft contact between spheres, with damping: of a radius for
		 * all, or each its own */
		const char *kn = kit_fparam(k, ONE(g, "kn", "contact_ke", "stiffness"));
		const char *rad = h;
		if (chance(g, 35)) {
			const char *ra = kit_arr(k, ONE(g, "radius", "particle_radius", "rad"), "float", 1);
			if (chance(g, 90))
				/* a contact margin: the spheres touch a little early */
				B(k, "r_sum = %s[%s] + %s[j] + %s", ra, t, ra, kit_num(k, 0.01, 0.2));
			else
				B(k, "r_sum = %s[%s] + %s[j]", ra, t, ra);
			rad = "r_sum";
		}
		const char *kdmp = chance(g, 25) ? kit_fparam(k, ONE(g, "kd", "contact_kd", "damping")) : kit_num(k, 0.05, 0.5);
		B(k, "d = wp.length(r)");
		COV(g, stmt_if);
		B(k, "if d < %s:", rad);
		k->ind++;
		B(k, "n = r / d");
		B(k, "vrel = %s[%s] - %s[j]", v, t, v);
		B(k, "vn = wp.dot(vrel, n)");
		/* a linear penalty, or one that stiffens with the overlap */
		const char *pen = chance(g, 70) ? F(k, "(%s - d)", rad) : "c * c";
		if (!strcmp(pen, "c * c"))
			B(k, "c = %s - d", rad);
		B(k, "f += n * (%s - %s * wp.min(vn, 0.0))", kit_prod(k, kn, pen), kdmp);
		if (touch)
			B(k, "touching += 1");
		friction = chance(g, 50);
		if (friction) {
			/* viscous friction against the sliding velocity */
			B(k, "vt = vrel - n * vn");
			B(k, "f -= vt * %s", kit_coef(k, ONE(g, "kf", "mu", "friction"), 0.05, 0.8));
		}
		k->ind--;
	} else if (kind == 3) {
		/* XSPH: the velocity drawn towards the neighbours' within a radius */
		const char *h2 = kit_num(k, 0.36, 1.44);
		B(k, "r2 = wp.dot(r, r)");
		COV(g, stmt_if);
		B(k, "if r2 < %s:", h2);
		k->ind++;
		int wf = rnd(g, 3);
		if (wf == 0)
			B(k, "w = 1.0 - r2 / %s", h2);
		else if (wf == 1)
			B(k, "w = wp.exp(-%s * r2)", kit_num(k, 1.0, 8.0));
		else
			B(k, "w = %s", kit_shape(k, F(k, "(%s - r2)", h2)));
		if (chance(g, 30)) {
			/* each neighbour weighed by its mass */
			const char *mj = kit_arr(k, ONE(g, "mass", "m", "particle_mass"), "float", 1);
			B(k, "w = w * %s[j]", mj);
		}
		int closing = chance(g, 20);
		if (closing) {
			/* only pairs closing in on each other, as an artificial
			 * viscosity damps */
			B(k, "dvj = %s[j] - vi", v);
			COV(g, stmt_if);
			B(k, "if wp.dot(dvj, r) > 0.0:");
			k->ind++;
			B(k, "dv += dvj * w");
		} else {
			B(k, "dv += (%s[j] - vi) * w", v);
		}
		if (norm)
			B(k, "wsum += w");
		if (closing)
			k->ind--;
		k->ind--;
	} else {
		/* softened gravity */
		const char *m2 = law == 0 ? kit_arr(k, ONE(g, "mass", "m"), "float", 1) : chg;
		mass_arr = m2;
		int periodic = chance(g, 20);
		if (periodic) {
			/* a periodic box: the nearest image of the other particle */
			const char *L = kit_num(k, 1.5, 3.0);
			B(k, "r = r - wp.vec3(wp.round(r[0] / %s), wp.round(r[1] / %s), wp.round(r[2] / %s)) * %s", L, L, L, L);
		}
		B(k, "r2 = wp.dot(r, r) + %s", kit_num(k, 0.005, 0.08));
		if (chance(g, 50)) {
			/* no pull from beyond a cutoff */
			COV(g, stmt_if);
			COV(g, stmt_continue);
			/* (within a periodic box the nearest images lie closer) */
			B(k, "if r2 > %s:", periodic ? kit_num(k, 0.3, 0.6) : kit_num(k, 0.5, 2.0));
			k->ind++;
			B(k, "continue");
			k->ind--;
		}
		if (law == 0 && chance(g, 20)) {
			/* tracers: a particle of no mass pulls nothing */
			COV(g, stmt_if);
			COV(g, stmt_continue);
			B(k, "if %s[j] <= 0.0:", m2);
			k->ind++;
			B(k, "continue");
			k->ind--;
		}
		const char *gc = 0;
		if (law == 0 && chance(g, 75))
			gc = kit_coef(k, ONE(g, "G", "strength", "k_grav"), 0.1, 2.0);
		else if (law == 1)
			gc = kit_coef(k, ONE(g, "k_e", "coulomb", "k_charge"), 0.1, 2.0);
		if (pot) {
			B(k, "inv_r = 1.0 / wp.sqrt(r2)");
			const char *q = law == 0 ? F(k, "%s[j]", m2) : F(k, "qi * %s[j]", m2);
			const char *qs = gc ? F(k, "%s * %s", gc, q) : q;
			B(k, "e = %s * inv_r", qs);
			B(k, "phi %s= e", law == 0 ? "-" : "+");
			B(k, "f %s= r * (e * inv_r * inv_r)", law == 0 ? "-" : "+");
		} else if (law == 0 && gc)
			B(k, "f -= r * (%s * %s[j] / (r2 * wp.sqrt(r2)))", gc, m2);
		else if (law == 0)
			B(k, "f -= r * (%s[j] / (r2 * wp.sqrt(r2)))", m2);
		else if (law == 1)
			B(k, "f += r * (%s * qi * %s[j] / (r2 * wp.sqrt(r2)))", gc, m2);
		else
			B(k, "f += %s", kit_prod(k, "r", kit_response(k, "r2")));
	}
	k->ind--;
	if (kind == 0) {
		const char *o = kit_arr(k, ONE(g, "density", "rho_out", "particle_rho"), "float", 1);
		if (chance(g, 40)) {
			/* the smoothing kernel's normalisation, folded into one
			 * constant for the radius */
			B(k, "rho = rho * %s", kit_num(k, 0.5, 4.0));
		}
		if (chance(g, 50)) {
			const char *rest = kit_fparam(k, ONE(g, "rest_density", "rho0"));
			const char *pr = kit_arr(k, ONE(g, "pressure", "p_out"), "float", 1);
			const char *p = F(k, "%s * (rho - %s)", kit_num_not(k, 0.5, 2.0, "1.0"), rest);
			if (chance(g, 40))
				/* no tension: a particle short of neighbours pulls none */
				B(k, "%s[%s] = wp.max(%s, 0.0)", pr, t, p);
			else
				B(k, "%s[%s] = %s", pr, t, p);
		}
		B(k, "%s[%s] = rho", o, t);
		kit_end(k, ONE(g, "compute_density", "sph_density", "density"));
	} else if (kind == 3) {
		const char *c = chance(g, 25) ? kit_fparam(k, ONE(g, "xsph_c", "viscosity", "eps")) : kit_num(k, 0.1, 0.5);
		if (chance(g, 30)) {
			/* the velocity's change alone, for the integrator to add */
			const char *o = kit_arr(k, ONE(g, "dv_out", "v_delta", "delta_v"), "wp.vec3", 1);
			B(k, "%s[%s] = dv * %s", o, t, norm ? F(k, "(%s / (1.0 + wsum))", c) : c);
		} else {
			const char *o = kit_arr(k, ONE(g, "v_out", "v_smooth", "new_vel"), "wp.vec3", 1);
			B(k, "%s[%s] = vi + dv * %s", o, t, norm ? F(k, "(%s / (1.0 + wsum))", c) : c);
		}
		kit_end(k, ONE(g, "xsph", "smooth_velocity", "viscosity"));
	} else {
		if (kind == 2 && law < 2 && chance(g, 35)) {
			/* a step of the velocities rather than the forces */
			const char *vv = kit_arr(k, ONE(g, "v", "velocities", "vel"), "wp.vec3", 1);
			const char *dt = kit_fparam(k, "dt");
			const char *o = kit_arr(k, ONE(g, "v_out", "v_new", "new_vel"), "wp.vec3", 1);
			B(k, "%s[%s] = %s[%s] + f * %s", o, t, vv, t, dt);
		} else {
			const char *o = kit_arr(k, ONE(g, "forces", "accel", "f_out"), "wp.vec3", 1);
			if (kind == 2 && law == 0 && chance(g, 30))
				/* the force on the particle, its own mass times the pull */
				B(k, "%s[%s] = f * %s[%s]", o, t, mass_arr, t);
			else
				B(k, "%s[%s] = f", o, t);
		}
		if (touch)
			B(k, "%s[%s] = touching", kit_arr(k, ONE(g, "contacts", "num_touching", "coordination"), "int", 1), t);
		if (pot && law == 0 && chance(g, 40)) {
			/* the system's potential energy, each pair counted once
			 * from either end */
			const char *po = kit_arr(k, ONE(g, "energy", "pe_total", "potential"), "float", 1);
			B(k, "wp.atomic_add(%s, 0, 0.5 * %s[%s] * phi)", po, mass_arr, t);
		} else if (pot) {
			const char *po = kit_arr(k, ONE(g, "potential", "phi_out", "energy"), "float", 1);
			B(k, "%s[%s] = phi", po, t);
		}
		kit_end(k, kind == 1   ? ONE(g, "contact_forces", "dem_forces", "collide")
			   : law == 0  ? ONE(g, "nbody", "gravity_forces", "attract")
			   : law == 1  ? ONE(g, "electrostatics", "coulomb_forces", "charges")
				       : ONE(g, "repulsion", "soft_forces", "spread_particles"));
	}
}

/* ---- rays against spheres, planes and triangles ---------------------------- */

static void fam_raycast(Kit *k)
{
	G *g = k->g;
	int image = chance(g, 75);
	const char *t = k->tid, *img = 0;
	if (image) {
		/* a camera ray per pixel */
		const char *cam = kit_scalar(k, ONE(g, "cam_pos", "eye", "origin"), "wp.vec3");
		img = kit_arr(k, ONE(g, "image", "pixels", "color"), "float", 2);
		kit_tid_line(k, 2, "i", "j");
		B(k, "u = (float(i) + 0.5) / float(%s.shape[0]) * 2.0 - 1.0", img);
		B(k, "v = (float(j) + 0.5) / float(%s.shape[1]) * 2.0 - 1.0", img);
		/* the camera stands back from the scene (within the unit cube),
		 * looking down -z: no sphere of radius up to 1 holds it */
		B(k, "ro = %s + wp.vec3(0.0, 0.0, %s)", cam, kit_num(k, 3.0, 4.0));
		B(k, "rd = wp.normalize(wp.vec3(u, v, %s))", kit_num(k, -1.0, -0.5));
	} else {
		const char *o = kit_arr(k, ONE(g, "ray_origin", "origins", "ray_o"), "wp.vec3", 1);
		const char *d = kit_arr(k, ONE(g, "ray_dir", "dirs", "ray_d"), "wp.vec3", 1);
		kit_tid_line(k, 1, t, 0);
		B(k, "ro = %s[%s]", o, t);
		B(k, "rd = wp.normalize(%s[%s])", d, t);
	}
	/* a triangle per ray, not per pixel */
	int prim = rnd(g, image ? 2 : 3);
	const char *light = kit_scalar(k, ONE(g, "light_dir", "sun", "light"), "wp.vec3");
	if (prim == 0) {
		/* the nearest of a set of spheres */
		const char *c = kit_arr(k, ONE(g, "centers", "sphere_pos", "spheres"), "wp.vec3", 1);
		const char *r = kit_arr(k, ONE(g, "radii", "sphere_radius", "radius"), "float", 1);
		B(k, "l = wp.normalize(%s)", light);
		/* the nearest hit so far: a large distance, shaded as it is
		 * found; or a sentinel -- an infinite distance, a NaN distance
		 * (which no comparison passes, so it is tested), a NaN or
		 * infinite normal, or the hit sphere's orientation, NaN or
		 * infinite until a sphere is hit (its stripes are in the
		 * sphere's frame) -- that the shading after the loop tests */
		int sent = rnd(g, 3) ? 0 : 1 + rnd(g, 8);
		const char *tm = sent == 2 ? "t_hit" : "t_min";
		const char *rot = sent >= 6 ? kit_arr(k, ONE(g, "sphere_rot", "orientation", "frames"), "wp.mat33", 1) : 0;
		if (sent == 1)
			B(k, "t_min = float(wp.inf)");
		else if (sent == 2)
			B(k, "t_hit = float(wp.nan)");
		else
			B(k, "t_min = float(%s)", ONE(g, "1.0e6", "100.0", "1.0e4"));
		if (sent >= 3 && sent <= 5)
			B(k, "n_hit = wp.vec3(%s)", sent == 5 ? "wp.inf" : "wp.nan");
		else if (sent)
			B(k, "n_hit = wp.vec3(0.0)");
		if (rot)
			B(k, "R_hit = wp.mat33(%s)", sent == 8 ? "wp.inf" : "wp.nan");
		/* the sky, brighter towards the sun */
		B(k, "%s = %s", sent ? "sky" : "shade", ONE(g, "0.2 + 0.3 * wp.max(wp.dot(rd, l), 0.0)", "0.5 * (rd[1] + 1.0) * wp.abs(l[1])", "0.1 + 0.5 * wp.max(wp.dot(rd, l), 0.0)"));
		COV(g, stmt_for_dynamic);
		if (image) /* a scene of a few spheres: a pixel tests each */
			B(k, "for s in range(wp.min(%s.shape[0], %s)):", c, ONE(g, "8", "16", "32"));
		else
			B(k, "for s in range(%s.shape[0]):", c);
		k->ind++;
		B(k, "oc = ro - %s[s]", c);
		B(k, "b = wp.dot(oc, rd)");
		B(k, "disc = b * b - wp.dot(oc, oc) + %s[s] * %s[s]", r, r);
		/* grazing hits (disc near 0) are left out: there the root's
		 * derivative grows without bound */
		COV(g, stmt_if);
		B(k, "if disc > %s:", kit_num(k, 0.01, 0.05));
		k->ind++;
		B(k, "t = -b - wp.sqrt(disc)");
		COV(g, expr_and);
		if (sent == 2) {
			COV(g, expr_or);
			B(k, "if t > 0.0 and (wp.isnan(t_hit) or t < t_hit):");
		} else {
			B(k, "if t > 0.0 and t < t_min:");
		}
		k->ind++;
		B(k, "%s = t", tm);
		const char *lit = ONE(g, "", " + 0.1", " * 0.9 + 0.1");
		if (!sent) {
			B(k, "n = wp.normalize(oc + rd * t)");
			B(k, "shade = wp.max(wp.dot(n, l), 0.0)%s", lit);
			k->ind -= 3;
		} else {
			B(k, "n_hit = wp.normalize(oc + rd * t)");
			if (rot)
				B(k, "R_hit = %s[s]", rot);
			k->ind -= 3;
			/* a hit is shaded after the loop, fading with its distance */
			const char *fog = kit_num(k, 0.02, 0.2);
			/* the ambient term lit too, then faded with the rest */
			const char *lit_hit = F(k, strchr(lit, '+') ? "(wp.max(wp.dot(n_hit, l), 0.0)%s)" : "wp.max(wp.dot(n_hit, l), 0.0)%s", lit);
			/* the normal in the hit sphere's frame: bands along its
			 * local y axis */
			if (rot) {
				const char *base = kit_num(k, 0.5, 0.7);
				const char *depth = kit_num(k, 0.2, 0.3);
				const char *freq = kit_num(k, 4.0, 12.0);
				lit_hit = F(k, "%s * (%s + %s * wp.sin(%s * n_local[1]))", lit_hit, base, depth, freq);
			}
			int miss_first = chance(g, 50);
			/* per sentinel, the test when the hit comes first and when
			 * the miss does; for a vector or a matrix, the scalar
			 * overload that count_builtins takes wp.NAME( for, and the
			 * one it is */
			static const struct {
				const char *text;
				int scalar, vec;
			} tests[8][2] = {
				{{"wp.isfinite(t_min)", -1, -1}, {"wp.isinf(t_min)", -1, -1}},
				{{"not wp.isnan(t_hit)", -1, -1}, {"wp.isnan(t_hit)", -1, -1}},
				{{"wp.isfinite(n_hit)", GB_ISFINITE, GB_ISFINITE_V}, {"wp.isnan(n_hit)", GB_ISNAN, GB_ISNAN_V}},
				{{"not wp.isnan(n_hit)", GB_ISNAN, GB_ISNAN_V}, {"not wp.isfinite(n_hit)", GB_ISFINITE, GB_ISFINITE_V}},
				{{"not wp.isinf(n_hit)", GB_ISINF, GB_ISINF_V}, {"wp.isinf(n_hit)", GB_ISINF, GB_ISINF_V}},
				{{"not wp.isnan(R_hit)", GB_ISNAN, GB_ISNAN_M}, {"wp.isnan(R_hit)", GB_ISNAN, GB_ISNAN_M}},
				{{"wp.isfinite(R_hit)", GB_ISFINITE, GB_ISFINITE_M}, {"not wp.isfinite(R_hit)", GB_ISFINITE, GB_ISFINITE_M}},
				{{"not wp.isinf(R_hit)", GB_ISINF, GB_ISINF_M}, {"wp.isinf(R_hit)", GB_ISINF, GB_ISINF_M}},
			};
			const char *test = tests[sent - 1][miss_first].text;
			COV(g, stmt_if);
			COV(g, stmt_else);
			if (test[0] == 'n')
				COV(g, expr_not);
			const char *hit = F(k, "%s * wp.exp(-%s * %s)", lit_hit, fog, tm);
			B(k, "if %s:", test);
			k->ind++;
			if (rot && !miss_first)
				B(k, "n_local = wp.transpose(R_hit) * n_hit");
			B(k, "shade = %s", miss_first ? "sky" : hit);
			k->ind--;
			B(k, "else:");
			k->ind++;
			if (rot && miss_first)
				B(k, "n_local = wp.transpose(R_hit) * n_hit");
			B(k, "shade = %s", miss_first ? hit : "sky");
			k->ind--;
			if (tests[sent - 1][miss_first].vec >= 0) {
				g->cov->b[tests[sent - 1][miss_first].scalar]--;
				g->cov->b[tests[sent - 1][miss_first].vec]++;
			}
		}
	} else if (prim == 1) {
		/* a plane, lit with a distance falloff */
		const char *pn = kit_scalar(k, ONE(g, "plane_normal", "normal", "plane_n"), "wp.vec3");
		/* a ground plane, tilted: the camera's rays cross its horizon */
		B(k, "n = wp.normalize(%s + wp.vec3(0.0, %s, 0.0))", pn, kit_num(k, 1.5, 3.0));
		B(k, "denom = wp.dot(rd, n)");
		/* the sky, brighter towards the sun, where the ray misses */
		B(k, "l = wp.normalize(%s)", light);
		B(k, "shade = %s", ONE(g, "0.2 + 0.3 * wp.max(wp.dot(rd, l), 0.0)", "0.5 * (rd[1] + 1.0) * wp.abs(l[1])", "0.1 + 0.5 * wp.max(wp.dot(rd, l), 0.0)"));
		COV(g, stmt_if);
		B(k, "if wp.abs(denom) > %s:", kit_num(k, 0.2, 0.3));
		k->ind++;
		B(k, "t = -(wp.dot(ro, n) + %s) / denom", kit_num(k, 0.25, 1.0));
		B(k, "if t > 0.0:");
		k->ind++;
		B(k, "hit = ro + rd * t");
		B(k, "shade = wp.abs(wp.dot(n, l)) / (1.0 + %s * wp.length_sq(hit))", kit_num(k, 0.05, 0.2));
		k->ind -= 2;
	} else {
		/* a triangle per ray, Moller-Trumbore */
		static const char *const corners[][3] = {{"v0", "v1", "v2"}, {"tri_a", "tri_b", "tri_c"}, {"p0", "p1", "p2"}};
		int c = rnd(g, 3);
		const char *v0 = kit_arr(k, corners[c][0], "wp.vec3", 1);
		const char *v1 = kit_arr(k, corners[c][1], "wp.vec3", 1);
		const char *v2 = kit_arr(k, corners[c][2], "wp.vec3", 1);
		const char *ix = t;
		B(k, "a = %s[%s]", v0, ix);
		B(k, "e1 = %s[%s] - a", v1, ix);
		B(k, "e2 = %s[%s] - a", v2, ix);
		/* a shadow ray towards the triangle, jittered */
		const char *aim = kit_num(k, 0.25, 0.4);
		B(k, "rd = wp.normalize(a + (e1 + e2) * %s - ro + rd * %s)", aim, kit_num(k, 0.5, 0.8));
		B(k, "pv = wp.cross(rd, e2)");
		B(k, "det = wp.dot(e1, pv)");
		B(k, "shade = float(0.0)");
		COV(g, stmt_if);
		B(k, "if wp.abs(det) > %s:", kit_num(k, 0.05, 0.2));
		k->ind++;
		B(k, "inv_det = 1.0 / det");
		B(k, "tv = ro - a");
		B(k, "bu = wp.dot(tv, pv) * inv_det");
		B(k, "qv = wp.cross(tv, e1)");
		B(k, "bv = wp.dot(rd, qv) * inv_det");
		B(k, "t = wp.dot(e2, qv) * inv_det");
		COV(g, expr_and);
		B(k, "if bu >= 0.0 and bv >= 0.0 and bu + bv <= 1.0 and t > 0.0:");
		k->ind++;
		B(k, "n = wp.normalize(wp.cross(e1, e2))");
		B(k, "shade = wp.abs(wp.dot(n, wp.normalize(%s))) + %s * t", light, kit_num(k, 0.01, 0.1));
		k->ind -= 2;
	}
	if (image) {
		B(k, "%s[i, j] = shade", img);
	} else {
		const char *o = kit_arr(k, ONE(g, "radiance", "shade_out", "hits"), "float", 1);
		B(k, "%s[%s] = shade", o, t);
	}
	kit_end(k, image ? ONE(g, "render", "raycast_image", "draw") : ONE(g, "trace_rays", "intersect", "cast_rays"));
}

/* ---- Monte Carlo with Warp's random numbers -------------------------------- */

/* Supersampled lookups of a 2-D field: per pixel, jittered taps --
 * uniform, Gaussian or stratified over a sub-grid -- of a bilinear or a
 * nearest lookup, clamped at the edges or wrapped (a tiled texture);
 * averaged alike or weighted by a Gaussian reconstruction filter, maybe
 * with the taps' variance beside; the mean tone-mapped or not, and
 * blended into the previous frame's (progressive rendering) */
static void supersample(Kit *k, const char *seed)
{
	G *g = k->g;
	const char *f = kit_arr(k, ONE(g, "field", "texture", "img"), "float", 2);
	kit_tid_line(k, 2, "i", "j");
	B(k, "rng = wp.rand_init(%s, i * %s.shape[1] + j)", seed, f);
	B(k, "nx = %s.shape[0]", f);
	B(k, "ny = %s.shape[1]", f);
	static const int pw[] = {40, 35, 25};
	int pat = wpick(g, pw, 3);
	const char *taps = pat == 2 ? ONE(g, "4", "9", "16") : ONE(g, "4", "8", "6", "9", "12", "16");
	int m = pat == 2 ? (taps[0] == '4' ? 2 : taps[0] == '9' ? 3 : 4) : 0;
	int weighted = pat != 1 && chance(g, 35);
	int var = !weighted && chance(g, 25);
	int wrap = chance(g, 35);
	int nearest = chance(g, 25);
	B(k, "acc = float(0.0)");
	if (weighted)
		B(k, "wsum = float(0.0)");
	if (var)
		B(k, "acc2 = float(0.0)");
	COV(g, stmt_for_range1);
	B(k, "for s in range(%s):", taps);
	k->ind++;
	if (pat == 0) {
		const char *r = kit_num(k, 0.25, 1.0);
		B(k, "dx = wp.randf(rng, -%s, %s)", r, r);
		B(k, "dy = wp.randf(rng, -%s, %s)", r, r);
	} else if (pat == 1) {
		/* Gaussian taps */
		const char *sg = kit_num_not(k, 0.3, 1.5, "1.0");
		B(k, "dx = %s * wp.randn(rng)", sg);
		B(k, "dy = %s * wp.randn(rng)", sg);
	} else {
		/* one tap in each cell of an M x M grid over the footprint */
		double r = 0.25 + 0.05 * rnd(g, 16);
		const char *cell = kit_dec(k, 2.0 * r / m);
		const char *half = kit_dec(k, r);
		B(k, "dx = (float(s %% %d) + wp.randf(rng)) * %s - %s", m, cell, half);
		B(k, "dy = (float(s // %d) + wp.randf(rng)) * %s - %s", m, cell, half);
	}
	if (wrap) {
		B(k, "fx = float(i) + dx");
		B(k, "fy = float(j) + dy");
	} else {
		B(k, "fx = wp.clamp(float(i) + dx, 0.0, float(nx - 1))");
		B(k, "fy = wp.clamp(float(j) + dy, 0.0, float(ny - 1))");
	}
	if (nearest) {
		if (wrap) {
			B(k, "x0 = (int(wp.floor(fx + 0.5)) %% nx + nx) %% nx");
			B(k, "y0 = (int(wp.floor(fy + 0.5)) %% ny + ny) %% ny");
		} else {
			B(k, "x0 = int(fx + 0.5)");
			B(k, "y0 = int(fy + 0.5)");
		}
		B(k, "val = %s[x0, y0]", f);
	} else {
		if (wrap) {
			B(k, "x0 = int(wp.floor(fx))");
			B(k, "y0 = int(wp.floor(fy))");
			B(k, "tx = fx - float(x0)");
			B(k, "ty = fy - float(y0)");
			B(k, "x0 = (x0 %% nx + nx) %% nx");
			B(k, "y0 = (y0 %% ny + ny) %% ny");
			B(k, "x1 = (x0 + 1) %% nx");
			B(k, "y1 = (y0 + 1) %% ny");
		} else {
			B(k, "x0 = int(fx)");
			B(k, "y0 = int(fy)");
			B(k, "x1 = wp.min(x0 + 1, nx - 1)");
			B(k, "y1 = wp.min(y0 + 1, ny - 1)");
			B(k, "tx = fx - float(x0)");
			B(k, "ty = fy - float(y0)");
		}
		B(k, "top = wp.lerp(%s[x0, y0], %s[x1, y0], tx)", f, f);
		B(k, "bottom = wp.lerp(%s[x0, y1], %s[x1, y1], tx)", f, f);
		B(k, "val = wp.lerp(top, bottom, ty)");
	}
	if (weighted) {
		B(k, "wt = wp.exp(-%s * (dx * dx + dy * dy))", kit_num(k, 0.5, 3.0));
		B(k, "acc += wt * val");
		B(k, "wsum += wt");
	} else {
		B(k, "acc += val");
	}
	if (var)
		B(k, "acc2 += val * val");
	k->ind--;
	const char *o = kit_arr(k, ONE(g, "out", "filtered", "resampled"), "float", 2);
	B(k, "mean = acc / %s", weighted ? "wsum" : as_float(k, taps));
	const char *val = chance(g, 60) ? kit_response(k, "mean") : "mean";
	if (chance(g, 30)) {
		const char *prev = kit_arr(k, ONE(g, "prev", "history", "accum"), "float", 2);
		B(k, "%s[i, j] = wp.lerp(%s[i, j], %s, %s)", o, prev, val, kit_coef(k, ONE(g, "alpha", "blend", "mix"), 0.05, 0.5));
	} else {
		B(k, "%s[i, j] = %s", o, val);
	}
	if (var)
		B(k, "%s[i, j] = acc2 / %s - mean * mean", kit_arr(k, ONE(g, "variance", "var_out", "noise"), "float", 2), as_float(k, taps));
	kit_end(k, ONE(g, "supersample", "jitter_filter", "stochastic_blur"));
}

/* A random walk: 3-D or planar walkers, one step size or one per walker,
 * pulled back towards the origin or drifting in a force field (Langevin
 * dynamics); kept in a box or in a ball; the end point written, with the
 * squared displacement or the path's mean position beside */
static void random_walk(Kit *k, const char *ns)
{
	G *g = k->g;
	const char *t = k->tid;
	int two = chance(g, 25);
	const char *vt = two ? "wp.vec2" : "wp.vec3";
	const char *p = kit_arr(k, ONE(g, "x", "walkers", "positions"), vt, 1);
	const char *sig = chance(g, 70) ? kit_fparam(k, ONE(g, "sigma", "step_size", "diffusion"))
					: F(k, "%s[%s]", kit_arr(k, ONE(g, "sigma", "step_size", "diffusion"), "float", 1), t);
	int extra = rnd(g, 4); /* 1: the squared displacement, 2: the mean position */
	if (extra == 1) {
		B(k, "x0 = %s[%s]", p, t);
		B(k, "q = x0");
	} else {
		B(k, "q = %s[%s]", p, t);
	}
	if (extra == 2)
		B(k, "qsum = %s(0.0)", vt);
	COV(g, stmt_for_dynamic);
	B(k, "for s in range(%s):", ns);
	k->ind++;
	static const int dw[] = {50, 30, 20};
	int pull = wpick(g, dw, 3);
	if (pull == 0) {
		/* pulled back towards the origin (Ornstein-Uhlenbeck) */
		B(k, "q = q * %s", kit_num(k, 0.8, 0.99));
	} else if (pull == 1 && !two) {
		const char *step = kit_num(k, 0.05, 0.3);
		const char *drift = kit_field(k, "q");
		B(k, "q = q + %s * %s", step, drift);
	}
	if (two) {
		if (chance(g, 50))
			B(k, "q = q + %s * wp.sample_unit_disk(rng)", sig);
		else
			B(k, "q = q + %s * wp.vec2(wp.randn(rng), wp.randn(rng))", sig);
	} else if (chance(g, 50)) {
		B(k, "q = q + %s * wp.sample_unit_sphere(rng)", sig);
	} else {
		B(k, "q = q + %s * wp.vec3(wp.randn(rng), wp.randn(rng), wp.randn(rng))", sig);
	}
	if (chance(g, 65)) {
		const char *box = kit_num(k, 1.0, 3.0);
		if (two)
			B(k, "q = wp.vec2(wp.clamp(q[0], -%s, %s), wp.clamp(q[1], -%s, %s))", box, box, box, box);
		else
			B(k, "q = wp.vec3(wp.clamp(q[0], -%s, %s), wp.clamp(q[1], -%s, %s), wp.clamp(q[2], -%s, %s))", box, box, box,
			  box, box, box);
	} else {
		/* a ball of radius R: a walker past it is put back on it */
		kit_cap_length(k, "q", "r", kit_num(k, 0.8, 1.4));
	}
	if (extra == 2)
		B(k, "qsum += q");
	k->ind--;
	const char *o = kit_arr(k, ONE(g, "x_out", "final", "walked"), vt, 1);
	B(k, "%s[%s] = q", o, t);
	if (extra == 1)
		B(k, "%s[%s] = wp.dot(q - x0, q - x0)", kit_arr(k, ONE(g, "msd", "sq_disp", "spread"), "float", 1), t);
	else if (extra == 2)
		B(k, "%s[%s] = qsum / %s", kit_arr(k, ONE(g, "mean_pos", "x_mean", "centroid"), vt, 1), t, as_float(k, ns));
	kit_end(k, ONE(g, "random_walk", "brownian", "diffuse_walkers"));
}

/* An integral of a function with per-element parameters: uniform or
 * Gaussian draws, the integrand written in place or as a @wp.func,
 * antithetic pairs, the estimate as a mean or over the interval's
 * length, the variance of the samples beside */
static void estimate_integral(Kit *k, const char *ns)
{
	G *g = k->g;
	const char *t = k->tid;
	const char *a = kit_arr(k, ONE(g, "decay", "rate", "sigma"), "float", 1);
	const char *b = kit_arr(k, ONE(g, "shift", "offset", "center"), "float", 1);
	const char *integ;
	if (chance(g, 15))
		integ = F(k, "wp.exp(-a * a * (u - c) * (u - c))%s", chance(g, 25) ? "" : F(k, " * wp.cos(%s * a * u)", kit_num_not(k, 0.5, 4.0, "1.0")));
	else {
		const char *s1 = kit_response(k, "(a * u)");
		const char *s2 = kit_response(k, "(u - c)");
		integ = kit_prod(k, s1, s2);
	}
	const char *fn = 0;
	if (chance(g, 35)) {
		fn = kit_hname(k, ONE(g, "integrand", "f", "eval_f"));
		COV(g, stmt_return_func);
		H(k, "@wp.func");
		H(k, "def %s(u: float, a: float, c: float) -> float:", fn);
		H(k, "    return %s\n\n", integ);
	}
	int draw = rnd(g, 3);
	int anti = draw != 1 && chance(g, 25);
	int var = !anti && chance(g, 25);
	B(k, "a = %s[%s]", a, t);
	B(k, "c = %s[%s]", b, t);
	B(k, "acc = float(0.0)");
	if (var)
		B(k, "acc2 = float(0.0)");
	COV(g, stmt_for_dynamic);
	B(k, "for s in range(%s):", ns);
	k->ind++;
	if (draw == 0)
		B(k, "u = wp.randf(rng, -1.0, 1.0)");
	else if (draw == 1)
		B(k, "u = wp.randn(rng) * %s", kit_num(k, 0.3, 0.8));
	else
		B(k, "u = 2.0 * wp.randf(rng) - 1.0");
	if (anti) {
		/* antithetic pairs: u and -u */
		if (fn)
			B(k, "acc += 0.5 * (%s(u, a, c) + %s(-u, a, c))", fn, fn);
		else {
			B(k, "fu = %s", integ);
			B(k, "u = -u");
			B(k, "acc += 0.5 * (fu + %s)", integ);
		}
	} else if (var) {
		B(k, "fu = %s", fn ? F(k, "%s(u, a, c)", fn) : integ);
		B(k, "acc += fu");
		B(k, "acc2 += fu * fu");
	} else {
		B(k, "acc += %s", fn ? F(k, "%s(u, a, c)", fn) : integ);
	}
	k->ind--;
	const char *o = kit_arr(k, ONE(g, "estimate", "integral", "out"), "float", 1);
	if (var) {
		B(k, "mean = acc / %s", as_float(k, ns));
		B(k, "%s[%s] = mean", o, t);
		B(k, "%s[%s] = acc2 / %s - mean * mean", kit_arr(k, ONE(g, "variance", "var_out", "spread"), "float", 1), t, as_float(k, ns));
	} else if (draw != 1 && chance(g, 35)) {
		/* the integral over [-1, 1], not the mean */
		B(k, "%s[%s] = 2.0 * acc / %s", o, t, as_float(k, ns));
	} else {
		B(k, "%s[%s] = acc / %s", o, t, as_float(k, ns));
	}
	kit_end(k, ONE(g, "integrate_mc", "monte_carlo", "estimate_integral"));
}

static void fam_sampling(Kit *k)
{
	G *g = k->g;
	int kind = rnd(g, 5);
	int image = kind >= 3;
	const char *t = k->tid;
	const char *seed = kit_scalar(k, "seed", "int");
	if (image) {
		supersample(k, seed);
		return;
	}
	kit_tid_line(k, 1, t, 0);
	B(k, "rng = wp.rand_init(%s, %s)", seed, t);
	const char *ns = chance(g, 50) ? kit_scalar(k, ONE(g, "num_samples", "samples", "spp"), "int") : ONE(g, "8", "16", "4", "32", "64");
	if (kind == 0) {
		/* ambient occlusion over the hemisphere of a normal */
		const char *p = kit_arr(k, ONE(g, "points", "x", "hit_pos"), "wp.vec3", 1);
		const char *nrm = kit_arr(k, ONE(g, "normals", "nrm", "hit_normal"), "wp.vec3", 1);
		const char *occ = kit_scalar(k, ONE(g, "occluder", "sphere", "blocker"), "wp.vec3");
		B(k, "n = wp.normalize(%s[%s])", nrm, t);
		B(k, "o = %s[%s]", p, t);
		B(k, "visible = float(0.0)");
		COV(g, stmt_for_dynamic);
		B(k, "for s in range(%s):", ns);
		k->ind++;
		B(k, "d = wp.sample_unit_sphere_surface(rng)");
		COV(g, stmt_if);
		B(k, "if wp.dot(d, n) < 0.0:");
		k->ind++;
		B(k, "d = -d");
		k->ind--;
		B(k, "q = o + d * %s - %s", kit_num(k, 0.25, 1.0), occ);
		const char *e0 = kit_num(k, 0.05, 0.4);
		const char *e1 = kit_num(k, 0.5, 1.0);
		/* each direction counts alike, or by its cosine to the normal */
		if (chance(g, 50))
			B(k, "visible += wp.smoothstep(%s, %s, wp.length(q))", e0, e1);
		else
			B(k, "visible += wp.dot(d, n) * wp.smoothstep(%s, %s, wp.length(q))", e0, e1);
		k->ind--;
		const char *o = kit_arr(k, ONE(g, "ao", "occlusion", "visibility"), "float", 1);
		B(k, "%s[%s] = visible / %s", o, t, as_float(k, ns));
		kit_end(k, ONE(g, "ambient_occlusion", "estimate_ao", "sample_visibility"));
	} else if (kind == 1) {
		estimate_integral(k, ns);
	} else {
		random_walk(k, ns);
	}
}

/* ---- entry ---------------------------------------------------------------- */

void gen_idiom_kernel(G *g, uint64_t index)
{
	static Kit k;
	char d[21];
	g->sp = 0;
	g->nv = g->nh = 0;
	SCAT(g->suffix, sizeof g->suffix, "_", u64_str(d, index));
	kit_begin(&k, g, 30);
	switch (g->cat) {
	case CAT_PARTICLES: fam_particles(&k); break;
	case CAT_SPRINGS: fam_springs(&k); break;
	case CAT_STENCIL: fam_stencil(&k); break;
	case CAT_REDUCE: fam_reduce(&k); break;
	case CAT_RIGID: fam_rigid(&k); break;
	case CAT_FEM: fam_fem(&k); break;
	case CAT_NEIGHBORS: fam_neighbors(&k); break;
	case CAT_RAYCAST: fam_raycast(&k); break;
	default: fam_sampling(&k); break;
	}
}
