/*
 * idiom_raycast.c: rays against spheres, planes and triangles: camera
 * rays per pixel (a 2-D launch) or rays read from arrays.
 *
 * The nearest hit of a few spheres (with a sky towards the sun), a
 * plane, or a triangle (Moller-Trumbore, jittered shadow rays); a
 * divisor is guarded by the branch that uses it.
 */
#include <string.h>

#include "gen/idiom.h"

void idiom_raycast(Kit *k)
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
		const char *rot =
			sent >= 6 ? kit_arr(k, ONE(g, "sphere_rot", "orientation", "frames"), "wp.mat33", 1) : 0;
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
		B(k, "%s = %s", sent ? "sky" : "shade",
		  ONE(g, "0.2 + 0.3 * wp.max(wp.dot(rd, l), 0.0)", "0.5 * (rd[1] + 1.0) * wp.abs(l[1])",
		      "0.1 + 0.5 * wp.max(wp.dot(rd, l), 0.0)"));
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
			const char *lit_hit = F(k,
						strchr(lit, '+') ? "(wp.max(wp.dot(n_hit, l), 0.0)%s)"
								 : "wp.max(wp.dot(n_hit, l), 0.0)%s",
						lit);
			/* the normal in the hit sphere's frame: bands along its
			 * local y axis */
			if (rot) {
				const char *base = kit_num(k, 0.5, 0.7);
				const char *depth = kit_num(k, 0.2, 0.3);
				const char *freq = kit_num(k, 4.0, 12.0);
				lit_hit = F(k, "%s * (%s + %s * wp.sin(%s * n_local[1]))", lit_hit, base, depth,
					    freq);
			}
			int miss_first = chance(g, 50);
			/* per sentinel, the test when the hit comes first and when
			 * the miss does; for a vector or a matrix, the scalar
			 * overload that count_builtins takes wp.NAME( for, and the
			 * one it is */
			/* clang-format off */
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
			/* clang-format on */
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
		B(k, "shade = %s",
		  ONE(g, "0.2 + 0.3 * wp.max(wp.dot(rd, l), 0.0)", "0.5 * (rd[1] + 1.0) * wp.abs(l[1])",
		      "0.1 + 0.5 * wp.max(wp.dot(rd, l), 0.0)"));
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
		/* clang-format off */
		static const char *const corners[][3] = {{"v0", "v1", "v2"}, {"tri_a", "tri_b", "tri_c"}, {"p0", "p1", "p2"}};
		/* clang-format on */
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
	kit_end(k,
		image ? ONE(g, "render", "raycast_image", "draw") : ONE(g, "trace_rays", "intersect", "cast_rays"));
}
