/*
 * idiom_stencil.c: grid stencils: 2-D grids (i, j = wp.tid()) and 3-D
 * volumes (i, j, k = wp.tid()), a thread per cell.
 *
 * A Grid names the indices, the extents and each axis's neighbours, so
 * that one stencil is written for two or three dimensions, its
 * neighbours clamped or periodic: diffusion (isotropic, per cell, per
 * axis, Perona-Malik's edge-stopping flux, the conservative form through
 * face coefficients), Jacobi sweeps and their residuals, gradients, a
 * level set's reinitialisation, upwind or semi-Lagrangian advection, a
 * pressure projection, a velocity's divergence, curl or strain rate and
 * vorticity confinement, a fixed boundary, a 3x3 (3x3x3) window, only
 * the active cells of a sparse grid.
 */
#include <stdlib.h>

#include "gen/idiom.h"

/* i, j, k = wp.tid() */
static void tid3_line(Kit *k)
{
	COV(k->g, stmt_assign);
	COV(k->g, stmt_tid3);
	COV(k->g, stmt_tuple_unpack);
	B(k, "i, j, k = wp.tid()");
}

/* A grid of 2 or 3 dimensions, one thread a cell: the index names, the
 * extents' names and the neighbours' names along each axis. */
typedef struct Grid {
	int nd;
	const char *at;    /* "i, j" or "i, j, k" */
	const char *ix[3]; /* i j k */
	const char *n[3];  /* nx ny nz */
	const char *lo[3]; /* left down back: the neighbour below, per axis */
	const char *hi[3]; /* right up front */
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
		if (!(*p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9')))
			return F(k, "(%s)", e);
	return e;
}

/* Diffusion through a coefficient that varies from cell to cell, in
 * the conservative form: each face's coefficient the mean of the two
 * cells it parts, times the difference across it.  The neighbours of
 * axis d are at LO[d] and HI[d] (indices), their values VLO[d], VHI[d];
 * writes lap, the coefficient inside it */
static void face_flux(Kit *k, const Grid *gr, const char *const lo[3], const char *const hi[3],
		      const char *const vlo[3], const char *const vhi[3])
{
	G *g = k->g;
	const char *kap = kit_arr(k, ONE(g, "kappa", "conductivity", "diffusivity"), "float", gr->nd), *t = "";
	B(k, "kc = %s[%s]", kap, gr->at);
	for (int d = 0; d < gr->nd; d++)
		t = F(k, "%s%s(%s + kc) * (%s - c) + (%s + kc) * (%s - c)", t, d ? " + " : "",
		      cell_at(k, gr, kap, d, lo[d]), vlo[d], cell_at(k, gr, kap, d, hi[d]), vhi[d]);
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
			H(k, "    %s0 = (%s0 %% %s + %s) %% %s", gr->ix[d], gr->ix[d], gr->n[d], gr->n[d],
			  gr->n[d]);
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
		B(k, "w = %s[%s] * %s", vel, gr->at,
		  kit_coef(k, ONE(g, "inv_dx", "inv_h", "cells_per_unit"), 1.0, 4.0));
	else
		B(k, "w = %s[%s]", vel, gr->at);
	B(k, "p = %s(%s) - w * %s", vt, nd == 2 ? "float(i), float(j)" : "float(i), float(j), float(k)", dt);
	const char *o = kit_arr(k, F(k, "%s_out", u), "float", nd);
	const char *next = F(k, "%s(%s, p)", fn, u);
	if (chance(g, 30)) /* a source over the step */
		next = F(k, "%s + %s * %s[%s]", next, dt,
			 kit_arr(k, ONE(g, "source", "inflow", "emission"), "float", nd), gr->at);
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
		const char *term = axes ? F(k, "(%s) * %s[%d]", dif[a] + (dif[a][0] == '-'), h, ax[a])
					: dif[a] + (dif[a][0] == '-');
		t = F(k, "%s%s%s", t,
		      !a                 ? (dif[a][0] == '-' ? "-" : "")
		      : dif[a][0] == '-' ? " - "
					 : " + ",
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
		B(k, "g = %s(%s)", vt,
		  nd == 2 ? "right - left, up - down" : "right - left, up - down, front - back");
		B(k, "n = g / (wp.length(g) + %s)", kit_soft_eps(k));
		const char *eps = kit_coef(k, ONE(g, "confinement", "eps_conf", "vorticity_scale"), 0.05, 0.5);
		if (chance(g, 50)) {
			/* scaled by the cell's size, so that it vanishes as the
			 * grid is refined */
			const char *dx = kit_coef(k, ONE(g, "dx", "h", "cell_size"), 0.01, 0.2);
			eps = is_lit(eps) && is_lit(dx) ? kit_dec(k, atof(eps) * atof(dx))
							: F(k, "%s * %s", eps, dx);
		}
		const char *f =
			nd == 2 ? F(k, "wp.vec2(n[1] * w, -n[0] * w) * %s", eps) : F(k, "wp.cross(n, w) * %s", eps);
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
		B(k, "L = wp.matrix_from_cols(%s) * %s",
		  nd == 2 ? "right - left, up - down" : "right - left, up - down, front - back",
		  h ? kit_times(k, 0.5, h) : "0.5");
		B(k, "S = 0.5 * (L + wp.transpose(L))");
		B(k, "rate = wp.sqrt(2.0 * wp.ddot(S, S) + %s)", kit_soft_eps(k));
		const char *nu =
			kit_prod(k, kit_coef(k, ONE(g, "c_smag", "cs2_dx2", "smagorinsky"), 0.001, 0.05), "rate");
		if (chance(g, 40))
			nu = F(k, "%s + %s", kit_coef(k, ONE(g, "nu", "nu_mol", "viscosity"), 0.001, 0.01), nu);
		grid_store(k, gr, kit_arr(k, ONE(g, "nu_t", "eddy_visc", "nu_turb"), "float", nd), nu, "0.0");
		if (chance(g, 30))
			B(k, "%s[%s] = S",
			  kit_arr(k, ONE(g, "strain", "strain_rate", "S_out"), nd == 2 ? "wp.mat22" : "wp.mat33",
				  nd),
			  at);
		kit_end(k, ONE(g, "smagorinsky", "eddy_viscosity", "strain_rate"));
		return;
	}
	/* 1 / dx (1 / (2 dx) central): a cell of unit size, the scale, or
	 * cells of another size along each axis */
	int unit = chance(g, 10), axes = !unit && chance(g, 20);
	const char *h = unit   ? 0
			: axes ? kit_scalar(k, ONE(g, "inv_h", "inv_spacing", "axis_scale"), vt)
			       : kit_coef(k, ONE(g, "inv_dx", "inv_h", "scale"), 1.0, 8.0);
	const char *dif[3] = {0}, *div = 0, *w = 0;
	int ax[3] = {0, 1, 2};
	if (mac) {
		/* face components: the divergence by the faces above less
		 * the cell's own, the curl at a cell's corner by the faces
		 * below */
		for (int d = 0; d < nd; d++)
			dif[d] = F(k, "%s - %s[%s]", cell_at(k, gr, vc[d], d, nb_index(k, gr, d, bnd, cl, 1)),
				   vc[d], at);
		if (what == 0) {
			div = over_h(k, nd, ax, dif, h, axes, 0);
		} else {
			int cx[2] = {0, 1};
			const char *cd[2] = {F(k, "%s[%s] - %s", vc[1], at,
					       cell_at(k, gr, vc[1], 0, nb_index(k, gr, 0, bnd, cl, 0))),
					     F(k, "-%s[%s] - %s", vc[0], at,
					       cell_at(k, gr, vc[0], 1, nb_index(k, gr, 1, bnd, cl, 0)))};
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
			/* clang-format off */
			static const int ca[3][2] = {{1, 2}, {2, 0}, {0, 1}}; /* the axes of each component's two terms */
			static const char *const lo[] = {"left", "down", "back"}, *const hi[] = {"right", "up", "front"};
			/* clang-format on */
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
			B(k, "wp.atomic_add(%s, 0, d * d)",
			  kit_arr(k, ONE(g, "div_norm", "residual", "div_sq"), "float", 1));
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
			B(k, "wp.atomic_add(%s, 0, %s)", e,
			  kit_prod(k, kit_times(k, 0.5, area), nd == 2 ? "w * w" : "wp.dot(w, w)"));
		}
	}
	kit_end(k, what == 0 ? ONE(g, "divergence", "compute_div", "velocity_div")
			     : ONE(g, "vorticity", "curl", "compute_curl"));
}

void idiom_stencil(Kit *k)
{
	G *g = k->g;
	/* a third of the grids are volumes, as in smoke and heat solvers */
	/* clang-format off */
	Grid gr = {chance(g, 30) ? 3 : 2, 0, {"i", "j", "k"}, {"nx", "ny", "nz"},
		   {"left", "down", "back"}, {"right", "up", "front"}};
	/* clang-format on */
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
			edge = F(k, "%s%s%s == 0 or %s == %s - 1", edge, d ? " or " : "", gr.ix[d], gr.ix[d],
				 gr.n[d]);
		B(k, "if %s:", edge);
		k->ind++;
		/* the boundary holds zero, its own value, a given one, or one
		 * given a cell */
		int bc = rnd(g, 4);
		B(k, "%s[%s] = %s", o, gr.at,
		  bc == 0   ? "0.0"
		  : bc == 1 ? F(k, "%s[%s]", u, gr.at)
		  : bc == 2 ? kit_fparam(k, ONE(g, "boundary_value", "wall_temp", "bc"))
			    : F(k, "%s[%s]",
				kit_arr(k, ONE(g, "bc_value", "wall_values", "dirichlet"), "float", nd), gr.at));
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
			B(k, "diag = %s[i - 1, j - 1] + %s[i - 1, j + 1] + %s[i + 1, j - 1] + %s[i + 1, j + 1]", u,
			  u, u, u);
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
		const char *rate =
			face ? "lap" : F(k, "%s * lap", coeff(k, &gr, ONE(g, "alpha", "kappa", "diffusivity")));
		if (chance(g, 40))
			rate = F(k, "%s + %s", rate, kit_response(k, "c"));
		if (chance(g, 40))
			rate = F(k, "%s - %s * c", rate, kit_num(k, 0.05, 0.5));
		if (chance(g, 30))
			rate = F(k, "%s + %s[%s]", rate,
				 kit_arr(k, ONE(g, "source", "heat_src", "emission"), "float", nd), gr.at);
		rate = tendency(k, &gr, rate);
		const char *next = chance(g, 60) ? F(k, "c + %s * %s", kit_coef(k, "dt", 0.01, 0.2), paren(k, rate))
						 : F(k, "c + %s", rate);
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
		/* clang-format off */
		switch (wk) {
		case 0: B(k, "w = 1.0 / (1.0 + %s * float(%s))", kit_num_not(k, 0.1, 3.0, "1.0"), r2); break;
		case 1: B(k, "w = wp.exp(-float(%s) * %s)", r2, kit_num(k, 0.2, 0.95)); break;
		case 2: B(k, "w = %s", range_w); break; /* bilateral: weights fall off with the difference */
		default: B(k, "w = %s * %s", range_w, F(k, "wp.exp(-float(%s) * %s)", r2, kit_num(k, 0.2, 0.95))); break;
		}
		/* clang-format on */
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
			B(k, "%s[%s] = c - acc / wsum",
			  kit_arr(k, ONE(g, "detail", "high_pass", "residual"), "float", nd), gr.at);
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
		B(k, "sx = %s[ip, jm] + 2.0 * %s[ip, j] + %s[ip, jp] - (%s[im, jm] + 2.0 * %s[im, j] + %s[im, jp])",
		  u, u, u, u, u, u);
		B(k, "sy = %s[im, jp] + 2.0 * %s[i, jp] + %s[ip, jp] - (%s[im, jm] + 2.0 * %s[i, jm] + %s[ip, jm])",
		  u, u, u, u, u, u);
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
				lap = F(k, "%s%s%s[%d] * (%s + %s - 2.0 * c)", lap, d ? " + " : "", kv, d, gr.lo[d],
					gr.hi[d]);
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
					t = F(k, "%s%s%s(%s, c) + %s(%s, c)", t, d ? " + " : "", fn, gr.lo[d], fn,
					      gr.hi[d]);
				B(k, "lap = %s", t);
			} else {
				B(k, "lap = %s - %d.0 * c", nb_sum(k, &gr), 2 * nd);
			}
			rate = face ? "lap"
				    : F(k, "%s * lap",
					coeff(k, &gr, ONE(g, "alpha", "kappa", "diffusivity", "nu")));
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
			rate = F(k, "%s + %s[%s]", rate,
				 kit_arr(k, ONE(g, "source", "heat_src", "emission"), "float", nd), gr.at);
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
			mean = F(k, "(%s[%s] + %s * (%s)) / %s", rhs, gr.at, a, nb_sum(k, &gr),
				 kit_dec(k, 1.0 + 2 * nd * atof(a)));
		} else if (chance(g, 25)) {
			/* the screened Poisson equation, lap u - s u = f: the
			 * screening adds s h^2 to the diagonal */
			screen = kit_num(k, 0.1, 4.0);
			const char *diag = is_lit(hh) ? kit_dec(k, 2 * nd + atof(screen) * atof(hh))
						      : F(k, "%d.0 + %s * %s", 2 * nd, screen, hh);
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
			const char *res = F(k, "%s * %s[%s] - (%s - %d.0 * %s[%s])", hh, rhs, gr.at, nb_sum(k, &gr),
					    2 * nd, u, gr.at);
			if (chance(g, 30)) {
				/* and its squared norm summed over the cells */
				B(k, "rc = %s", res);
				B(k, "%s[%s] = rc", r, gr.at);
				B(k, "wp.atomic_add(%s, 0, rc * rc)",
				  kit_arr(k, ONE(g, "res_norm", "norm_sq", "r_sum"), "float", 1));
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
		const char *h = unit   ? (diff    ? 0
					  : sobel ? "0.125"
						  : "0.5")
				: axes ? kit_scalar(k, ONE(g, "inv_h", "inv_spacing", "axis_scale"), vt)
				       : kit_coef(k, ONE(g, "inv_dx", "scale"), 1.0, 8.0);
		const char *cm = "";
		for (int d = 0; d < nd; d++)
			cm = F(k, "%s%s%s - %s", cm, d ? ", " : "", diff == 2 ? "c" : gr.hi[d],
			       diff == 1 ? "c" : gr.lo[d]);
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
			B(k, "%s[%s] = -%s * g", f, gr.at,
			  kit_coef(k, ONE(g, "strength", "stiffness", "k_pot"), 0.1, 4.0));
		} else if (down < 50) {
			/* or the heat flux, by Fourier's law through a
			 * conductivity a cell */
			const char *q = kit_arr(k, ONE(g, "flux", "heat_flux", "q"), vt, nd);
			B(k, "%s[%s] = -%s[%s] * g", q, gr.at,
			  kit_arr(k, ONE(g, "conductivity", "k_cell", "kappa"), "float", nd), gr.at);
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
					B(k, "%s = %s[%s] + %s", wn[d], ri, gr.at,
					  cell_at(k, &gr, ri, d, nb_index(k, &gr, d, mode, cl, 0)));
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
			const char *lift =
				F(k, "%s * %s[%s]", alpha,
				  kit_arr(k, ONE(g, "temperature", "temp_field", "heat"), "float", nd), gr.at);
			if (chance(g, 50)) {
				const char *beta = kit_coef(k, ONE(g, "beta", "smoke_weight", "weight"), 0.05, 0.5);
				lift = F(k, "%s - %s * %s[%s]", lift, beta,
					 kit_arr(k, ONE(g, "smoke", "soot", "concentration"), "float", nd), gr.at);
			}
			B(k, "b = %s", lift);
		}
		if (chance(g, 45))
			damp = kit_num(k, 0.9, 0.995);
		if (comp) {
			for (int d = 0; d < nd; d++) {
				const char *next =
					face ? F(k, "%s[%s] - (%s) * %s * %s", vc[d], gr.at, dd[d], wn[d], sc)
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
				cm = F(k, "%s%s%s", cm, d ? ", " : "",
				       face ? F(k, "(%s) * %s", dd[d], wn[d]) : dd[d]);
			B(k, "dp = %s(%s)", vt, cm);
			/* cells of another size along each axis */
			const char *next =
				chance(g, 20)
					? F(k, "%s[%s] - wp.cw_mul(dp, %s) * %s", vel, gr.at,
					    kit_scalar(k, ONE(g, "inv_h", "inv_spacing", "axis_scale"), vt), sc)
					: F(k, "%s[%s] - dp * %s", vel, gr.at, sc);
			if (gv)
				next = F(k, "%s + %s * %s", next, gv, gdt);
			else if (gy)
				next = F(k, "%s + %s * %s", next,
					 nd == 2 ? F(k, "wp.vec2(0.0, -%s)", gy)
						 : F(k, "wp.vec3(0.0, -%s, 0.0)", gy),
					 gdt);
			else if (force == 3)
				next = F(k, "%s + %s * %s", next,
					 nd == 2 ? "wp.vec2(0.0, b)" : "wp.vec3(0.0, b, 0.0)", gdt);
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
				/* clang-format off */
				static const char *const keep[3][3] = {{"0.0", "v[1]", "v[2]"}, {"v[0]", "0.0", "v[2]"}, {"v[0]", "v[1]", "0.0"}};
				/* clang-format on */
				for (int d = 0; d < nd; d++) {
					COV(g, stmt_if);
					COV(g, expr_or);
					B(k, "if %s == 0 or %s == %s - 1:", gr.ix[d], gr.ix[d], gr.n[d]);
					k->ind++;
					B(k, "v = %s(%s, %s%s%s)", vt, keep[d][0], keep[d][1], nd == 3 ? ", " : "",
					  nd == 3 ? keep[d][2] : "");
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
				B(k, "wp.atomic_add(%s, 0, %s)", e,
				  kit_prod(k, kit_times(k, 0.5, m), "wp.dot(v, v)"));
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
			B(k, "w = %s[%s] * %s", vel, gr.at,
			  kit_coef(k, ONE(g, "inv_dx", "inv_h", "cells_per_unit"), 1.0, 4.0));
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
		const char *flux =
			nd == 2 ? "w[0] * dudx + w[1] * dudy" : "w[0] * dudx + w[1] * dudy + w[2] * dudz";
		if (central) {
			B(k, "lap = %s - %d.0 * c", nb_sum(k, &gr), 2 * nd);
			flux = F(k, "%s - %s * lap", flux,
				 kit_coef(k, ONE(g, "nu", "viscosity", "diffusion"), 0.05, 0.25));
		}
		if (chance(g, 40))
			flux = F(k, "%s - %s", flux, kit_response(k, "c"));
		if (chance(g, 30))
			flux = F(k, "%s - %s[%s]", flux,
				 kit_arr(k, ONE(g, "source", "inflow", "emission"), "float", nd), gr.at);
		const char *next = F(k, "c - %s * (%s)", dt, flux);
		if (chance(g, 40)) /* dissipated a little each step, as smoke fades */
			next = F(k, "(%s) * %s", next, kit_num(k, 0.9, 0.999));
		if (chance(g, 25))
			next = F(k, "wp.max(%s, 0.0)", next);
		grid_store(k, &gr, o, next, "c");
		kit_end(k, ONE(g, "advect", "upwind", "transport"));
	}
}
