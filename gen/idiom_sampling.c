/*
 * idiom_sampling.c: Monte Carlo with Warp's random streams
 * (wp.rand_init, wp.randf, wp.randn, wp.sample_*), a stream per thread
 * from a seed parameter and the thread's index.
 *
 * Ambient occlusion over the hemisphere, integrals of parameterized
 * responses (estimate_integral), random walks (random_walk), and
 * supersampled lookups of a 2-D field (supersample).
 */
#include "gen/idiom.h"

/* N (an int literal or an int's name) as a float */
static const char *as_float(Kit *k, const char *n)
{
	return n[0] >= '0' && n[0] <= '9' ? F(k, "%s.0", n) : F(k, "float(%s)", n);
}

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
		B(k, "%s[i, j] = wp.lerp(%s[i, j], %s, %s)", o, prev, val,
		  kit_coef(k, ONE(g, "alpha", "blend", "mix"), 0.05, 0.5));
	} else {
		B(k, "%s[i, j] = %s", o, val);
	}
	if (var)
		B(k, "%s[i, j] = acc2 / %s - mean * mean",
		  kit_arr(k, ONE(g, "variance", "var_out", "noise"), "float", 2), as_float(k, taps));
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
					: F(k, "%s[%s]",
					    kit_arr(k, ONE(g, "sigma", "step_size", "diffusion"), "float", 1), t);
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
			B(k,
			  "q = wp.vec3(wp.clamp(q[0], -%s, %s), wp.clamp(q[1], -%s, %s), wp.clamp(q[2], -%s, %s))",
			  box, box, box, box, box, box);
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
		B(k, "%s[%s] = wp.dot(q - x0, q - x0)", kit_arr(k, ONE(g, "msd", "sq_disp", "spread"), "float", 1),
		  t);
	else if (extra == 2)
		B(k, "%s[%s] = qsum / %s", kit_arr(k, ONE(g, "mean_pos", "x_mean", "centroid"), vt, 1), t,
		  as_float(k, ns));
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
		integ = F(k, "wp.exp(-a * a * (u - c) * (u - c))%s",
			  chance(g, 25) ? "" : F(k, " * wp.cos(%s * a * u)", kit_num_not(k, 0.5, 4.0, "1.0")));
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
		B(k, "%s[%s] = acc2 / %s - mean * mean",
		  kit_arr(k, ONE(g, "variance", "var_out", "spread"), "float", 1), t, as_float(k, ns));
	} else if (draw != 1 && chance(g, 35)) {
		/* the integral over [-1, 1], not the mean */
		B(k, "%s[%s] = 2.0 * acc / %s", o, t, as_float(k, ns));
	} else {
		B(k, "%s[%s] = acc / %s", o, t, as_float(k, ns));
	}
	kit_end(k, ONE(g, "integrate_mc", "monte_carlo", "estimate_integral"));
}

void idiom_sampling(Kit *k)
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
	const char *ns = chance(g, 50) ? kit_scalar(k, ONE(g, "num_samples", "samples", "spp"), "int")
				       : ONE(g, "8", "16", "4", "32", "64");
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
