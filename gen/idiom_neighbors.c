/*
 * idiom_neighbors.c: neighbour loops: SPH, DEM and n-body, a particle
 * per thread looping over its neighbours (a list in a 2-D int array) or
 * over all particles.
 *
 * SPH density with a @wp.func poly6 kernel, XSPH velocity smoothing,
 * soft contacts with damping, softened n-body gravity (its force, its
 * potential or the system's energy).  A distance is softened where the
 * two indices may coincide.
 */
#include <string.h>

#include "gen/idiom.h"

void idiom_neighbors(Kit *k)
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
	const char *cnt_arr =
		counted ? kit_arr(k, ONE(g, "neighbor_count", "num_neighbors", "counts"), "int", 1) : 0;
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
		const char *cnt = chance(g, 30)
					  ? F(k, "%s.shape[0]", x)
					  : kit_scalar(k, ONE(g, "num_particles", "n_particles", "count"), "int");
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
		const char *kdmp = chance(g, 25) ? kit_fparam(k, ONE(g, "kd", "contact_kd", "damping"))
						 : kit_num(k, 0.05, 0.5);
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
			B(k, "r = r - wp.vec3(wp.round(r[0] / %s), wp.round(r[1] / %s), wp.round(r[2] / %s)) * %s",
			  L, L, L, L);
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
		const char *c =
			chance(g, 25) ? kit_fparam(k, ONE(g, "xsph_c", "viscosity", "eps")) : kit_num(k, 0.1, 0.5);
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
			B(k, "%s[%s] = touching",
			  kit_arr(k, ONE(g, "contacts", "num_touching", "coordination"), "int", 1), t);
		if (pot && law == 0 && chance(g, 40)) {
			/* the system's potential energy, each pair counted once
			 * from either end */
			const char *po = kit_arr(k, ONE(g, "energy", "pe_total", "potential"), "float", 1);
			B(k, "wp.atomic_add(%s, 0, 0.5 * %s[%s] * phi)", po, mass_arr, t);
		} else if (pot) {
			const char *po = kit_arr(k, ONE(g, "potential", "phi_out", "energy"), "float", 1);
			B(k, "%s[%s] = phi", po, t);
		}
		kit_end(k, kind == 1  ? ONE(g, "contact_forces", "dem_forces", "collide")
			   : law == 0 ? ONE(g, "nbody", "gravity_forces", "attract")
			   : law == 1 ? ONE(g, "electrostatics", "coulomb_forces", "charges")
				      : ONE(g, "repulsion", "soft_forces", "spread_particles"));
	}
}
