/*
 * idiom_particles.c: particle integration, a particle per thread or a
 * node of a cloth grid per thread of a 2-D launch.
 *
 * One skeleton -- read the state, add up the acceleration, step, meet
 * the boundary, write the state back -- with its choices drawn: gravity,
 * applied forces, drag, an anchor spring or a force field; semi-implicit
 * or explicit Euler, or position Verlet; a ground plane, a spherical
 * obstacle or a box; jitter from wp.sample_unit_*; vec3 or vec2 states.
 */
#include "gen/idiom.h"

void idiom_particles(Kit *k)
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
			acc = F(k, "%s - (v0 - %s) * %s", acc, kit_scalar(k, ONE(g, "wind", "wind_v", "air_v"), vt),
				cd);
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
			B(k, "x1 = x1 + %s * %s(rng)", sigma,
			  ONE(g, "wp.sample_unit_sphere", "wp.sample_unit_cube"));
	}
	/* the boundary */
	if (bnd == 0) {
		/* a ground plane, the normal velocity reflected; a particle
		 * rests on it at its radius, or at a height for all */
		const char *e = kit_num(k, 0.3, 0.8);
		const char *y = two ? "x1[1]" : ONE(g, "x1[1]", "x1.y");
		COV(g, stmt_if);
		const char *ground =
			chance(g, 30) ? F(k, "%s[%s]",
					  kit_arr(k, ONE(g, "radius", "particle_radius", "r"), "float", nd), t)
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
