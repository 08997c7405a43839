/*
 * idiom_springs.c: springs and constraints, their forces scattered with
 * atomics.
 *
 * A thread per spring reads its two ends, and adds its force to one and
 * takes it from the other (wp.atomic_add/atomic_sub, or the array
 * augmented assignments Warp makes atomic): softened lengths, damping,
 * strain limiting, a nonlinear response, the spring in a @wp.func; or a
 * position-based distance constraint split by inverse mass; or the
 * stretch springs of a cloth grid, a node per thread (springs_grid).
 */
#include <string.h>

#include "gen/idiom.h"

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

/* the stretch springs of a cloth grid, a node per thread: to the next
 * node along a row or a column (the last one to itself, a spring of no
 * length and no force), across the cell's diagonals, or two nodes on
 * (a bending spring) */
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
	const char *nb = dir == 0   ? "i1, j"
			 : dir == 1 ? "i, j1"
			 : dir == 2 ? "i1, j1"
			 : dir == 3 ? "i1, j0"
				    : "i2, j";
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

void idiom_springs(Kit *k)
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
	/* clang-format off */
	static const char *const ends[][2] = {{"spring_i", "spring_j"}, {"edge_a", "edge_b"}, {"springs_a", "springs_b"}};
	/* clang-format on */
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
		const char *stiff =
			chance(g, 25) ? F(k, "%s[%s]",
					  kit_arr(k, ONE(g, "stiffness", "relaxation", "alpha"), "float", 1), t)
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
	const char *ke =
		per ? F(k, "%s[%s]", kit_arr(k, ONE(g, "spring_ke", "stiffness", "k_spring"), "float", 1), t)
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
			H(k,
			  "def %s(xa: wp.vec3, xb: wp.vec3, va: wp.vec3, vb: wp.vec3, rest: float, ke: float, kd: float) -> wp.vec3:",
			  fn);
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
		const char *fs = damped ? F(k, "%s + kd * wp.dot(vb - va, dir)", kit_prod(k, "ke", law))
					: kit_prod(k, "ke", law);
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
			fs = F(k, "%s + %s * wp.dot(dv, dir)",
			       kit_prod(k, ke, chance(g, 40) ? "stretch" : kit_response(k, "stretch")), kd);
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
