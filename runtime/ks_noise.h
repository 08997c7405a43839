/*
 * ks_noise.h: Warp's Perlin noise, bit for bit: wp.noise, wp.pnoise and
 * wp.curlnoise of 1 to 4 dimensions, with the gradients and second
 * derivatives their adjoints need.
 *
 * The noise of N dimensions at x: the lattice cell that holds x has the
 * corners x0 = floor(x) and x1 = x0 + 1 on each axis (pnoise wraps both by
 * its periods with C's %, as Warp does).  Each corner c has a gradient g_c
 * drawn by Warp's generator (ks_rand.h) from a hash of the corner and the
 * state: a uniform draw in [-1, 1] in one dimension, else a point of the
 * cube [-1/2, 1/2)^N normalized.  The value at c is dot(d - c, g_c), d
 * the offset of x in the cell, and the 2^N values are interpolated with
 * the quintic fade 6t^5 - 15t^4 + 10t^3 along x, then y, z and t.  Every
 * float operation of the value and of its gradient is Warp's, in Warp's
 * order, so both have Warp's bits.  The gradient goes through the same
 * interpolations (noise's and pnoise's adjoints, and curlnoise itself,
 * use it); the Hessian too, for curlnoise's adjoint, by the product rule
 * on each interpolation.
 *
 * curlnoise sums octaves (frequency times lacunarity, amplitude times
 * gain at each): in two dimensions the curl of one noise field, (-dN/dy,
 * dN/dx); in three and four the curl of three fields, the state stepped by
 * rand_init between them and kept stepping from octave to octave, as
 * Warp's does.  Its adjoint is the octaves' Jacobians, transposed, times
 * the result's adjoint.
 */

/* The primes that hash a lattice point's coordinates. */
KS_FUNC uint32_t ks_noise_prime(int k)
{
	return k == 0 ? 73856093u : k == 1 ? 19349663u : k == 2 ? 53471161u : 10000019u;
}

/* The gradient at lattice point ix (n coordinates) into g. */
KS_FUNC void ks_noise_lattice(uint32_t state, int n, const int *ix, KS_REAL *g)
{
	uint32_t h = (uint32_t)ix[n - 1] * ks_noise_prime(n - 1) + state;
	for (int k = n - 2; k >= 0; k--)
		h ^= (uint32_t)ix[k] * ks_noise_prime(k);
	if (n == 1) {
		g[0] = ks_randf_range(&h, -1.0f, 1.0f);
		return;
	}
	for (int k = 0; k < n; k++)
		g[k] = ks_randf(&h) - 0.5f;
	KS_REAL l = g[0] * g[0];
	for (int k = 1; k < n; k++)
		l = l + g[k] * g[k];
	l = sqrtf(l);
	for (int k = 0; k < n; k++)
		g[k] = l > 0.0f ? g[k] / l : 0.0f;
}

KS_FUNC KS_REAL ks_noise_fade(KS_REAL t) { return t * t * t * (t * (t * 6.0f - 15.0f) + 10.0f); }
KS_FUNC KS_REAL ks_noise_fade_d(KS_REAL t) { return 30.0f * t * t * (t * (t - 2.0f) + 1.0f); }
KS_FUNC KS_REAL ks_noise_fade_dd(KS_REAL t) { return 60.0f * t * (t * (t * 2.0f - 3.0f) + 1.0f); }

/* The noise of n dimensions in the cell with corners x0, x1 at offset d:
 * its value, and where grad (n) and hess (n by n, row-major) are given,
 * its gradient and Hessian.  Corner c's bit k says x1 (1) or x0 (0) on
 * axis k; each level of the interpolation halves the corners, pairing
 * those that differ on its axis. */
KS_FUNC KS_REAL ks_noise_cell(uint32_t state, int n, const int *x0, const int *x1, const KS_REAL *d, KS_REAL *grad,
			      KS_REAL *hess)
{
	KS_REAL v[16], gv[16][4], hv[16][16];
	int nc = 1 << n;
	for (int c = 0; c < nc; c++) {
		int ix[4];
		KS_REAL g[4], dc[4];
		for (int k = 0; k < n; k++) {
			ix[k] = c >> k & 1 ? x1[k] : x0[k];
			dc[k] = c >> k & 1 ? d[k] - 1.0f : d[k];
		}
		ks_noise_lattice(state, n, ix, g);
		v[c] = dc[0] * g[0];
		for (int k = 1; k < n; k++)
			v[c] = v[c] + dc[k] * g[k];
		for (int k = 0; k < n; k++)
			gv[c][k] = g[k];
		for (int k = 0; k < n * n; k++)
			hv[c][k] = 0.0f;
	}
	for (int axis = 0; axis < n; axis++) {
		KS_REAL t = d[axis], s = ks_noise_fade(t), s1 = ks_noise_fade_d(t), s2 = ks_noise_fade_dd(t);
		nc >>= 1;
		for (int j = 0; j < nc; j++) {
			int a = 2 * j, b = 2 * j + 1;
			KS_REAL dv = v[b] - v[a];
			if (hess) {
				KS_REAL h[16];
				for (int p = 0; p < n; p++)
					for (int q = 0; q < n; q++) {
						KS_REAL dh = hv[b][p * n + q] - hv[a][p * n + q];
						KS_REAL x = dh * s + hv[a][p * n + q];
						if (p == axis)
							x = x + s1 * (gv[b][q] - gv[a][q]);
						if (q == axis)
							x = x + s1 * (gv[b][p] - gv[a][p]);
						if (p == axis && q == axis)
							x = x + dv * s2;
						h[p * n + q] = x;
					}
				for (int k = 0; k < n * n; k++)
					hv[j][k] = h[k];
			}
			if (grad || hess)
				for (int k = 0; k < n; k++)
					gv[j][k] = (gv[b][k] - gv[a][k]) * s + dv * s1 * (k == axis ? 1.0f : 0.0f) +
						   gv[a][k];
			v[j] = dv * s + v[a];
		}
	}
	for (int k = 0; grad && k < n; k++)
		grad[k] = gv[0][k];
	for (int k = 0; hess && k < n * n; k++)
		hess[k] = hv[0][k];
	return v[0];
}

/* The cell of x (n coordinates): corners and offset; with periods p, the
 * corners wrapped as Warp's pnoise wraps them. */
KS_FUNC void ks_noise_locate(int n, const KS_REAL *x, const int *p, int *x0, int *x1, KS_REAL *d)
{
	for (int k = 0; k < n; k++) {
		d[k] = x[k] - floorf(x[k]);
		x0[k] = (int)floorf(x[k]);
		if (p)
			x0[k] = ks_mod_int(x0[k], p[k]);
		x1[k] = p ? ks_mod_int(x0[k] + 1, p[k]) : x0[k] + 1;
	}
}

KS_FUNC KS_REAL ks_noise_at(uint32_t state, int n, const KS_REAL *x, const int *p, KS_REAL *grad)
{
	int x0[4], x1[4];
	KS_REAL d[4];
	ks_noise_locate(n, x, p, x0, x1, d);
	return ks_noise_cell(state, n, x0, x1, d, grad, (KS_REAL *)0);
}

/* wp.noise and wp.pnoise, and their gradients in x (internal builtins,
 * for the adjoints) */
KS_FUNC KS_REAL ks_noise_uint32(uint32_t state, KS_REAL x)
{
	return ks_noise_at(state, 1, &x, (int *)0, (KS_REAL *)0);
}
KS_FUNC KS_REAL ks_noise_uint32_vec2(uint32_t state, ks_vec2 x)
{
	return ks_noise_at(state, 2, x.c, (int *)0, (KS_REAL *)0);
}
KS_FUNC KS_REAL ks_noise_uint32_vec3(uint32_t state, ks_vec3 x)
{
	return ks_noise_at(state, 3, x.c, (int *)0, (KS_REAL *)0);
}
KS_FUNC KS_REAL ks_noise_uint32_vec4(uint32_t state, ks_vec4 x)
{
	return ks_noise_at(state, 4, x.c, (int *)0, (KS_REAL *)0);
}
KS_FUNC KS_REAL ks_pnoise_uint32(uint32_t state, KS_REAL x, int px)
{
	return ks_noise_at(state, 1, &x, &px, (KS_REAL *)0);
}
KS_FUNC KS_REAL ks_pnoise_uint32_vec2(uint32_t state, ks_vec2 x, int px, int py)
{
	int p[2] = {px, py};
	return ks_noise_at(state, 2, x.c, p, (KS_REAL *)0);
}
KS_FUNC KS_REAL ks_pnoise_uint32_vec3(uint32_t state, ks_vec3 x, int px, int py, int pz)
{
	int p[3] = {px, py, pz};
	return ks_noise_at(state, 3, x.c, p, (KS_REAL *)0);
}
KS_FUNC KS_REAL ks_pnoise_uint32_vec4(uint32_t state, ks_vec4 x, int px, int py, int pz, int pt)
{
	int p[4] = {px, py, pz, pt};
	return ks_noise_at(state, 4, x.c, p, (KS_REAL *)0);
}

KS_FUNC KS_REAL ks_noise_grad_uint32(uint32_t state, KS_REAL x)
{
	KS_REAL g;
	ks_noise_at(state, 1, &x, (int *)0, &g);
	return g;
}
#define KS_NOISE_GRAD(VT, N)                                                 \
	KS_FUNC ks_##VT ks_noise_grad_uint32_##VT(uint32_t state, ks_##VT x) \
	{                                                                    \
		ks_##VT g;                                                   \
		ks_noise_at(state, N, x.c, (int *)0, g.c);                   \
		return g;                                                    \
	}
KS_NOISE_GRAD(vec2, 2)
KS_NOISE_GRAD(vec3, 3)
KS_NOISE_GRAD(vec4, 4)
KS_FUNC KS_REAL ks_pnoise_grad_uint32(uint32_t state, KS_REAL x, int px)
{
	KS_REAL g;
	ks_noise_at(state, 1, &x, &px, &g);
	return g;
}
KS_FUNC ks_vec2 ks_pnoise_grad_uint32_vec2(uint32_t state, ks_vec2 x, int px, int py)
{
	int p[2] = {px, py};
	ks_vec2 g;
	ks_noise_at(state, 2, x.c, p, g.c);
	return g;
}
KS_FUNC ks_vec3 ks_pnoise_grad_uint32_vec3(uint32_t state, ks_vec3 x, int px, int py, int pz)
{
	int p[3] = {px, py, pz};
	ks_vec3 g;
	ks_noise_at(state, 3, x.c, p, g.c);
	return g;
}
KS_FUNC ks_vec4 ks_pnoise_grad_uint32_vec4(uint32_t state, ks_vec4 x, int px, int py, int pz, int pt)
{
	int p[4] = {px, py, pz, pt};
	ks_vec4 g;
	ks_noise_at(state, 4, x.c, p, g.c);
	return g;
}

/* The curl of the fields' gradients g (one field for n = 2, else three)
 * into c: (-g.y, g.x), or (g3.y - g2.z, g1.z - g3.x, g2.x - g1.y). */
KS_FUNC void ks_curl_of(int n, KS_REAL (*g)[4], KS_REAL *c)
{
	if (n == 2) {
		c[0] = -g[0][1];
		c[1] = g[0][0];
	} else {
		c[0] = g[2][1] - g[1][2];
		c[1] = g[0][2] - g[2][0];
		c[2] = g[1][0] - g[0][1];
	}
}

/* curlnoise of n = 2, 3 or 4 dimensions at x into out (2 components for
 * n = 2, else 3) as Warp sums it, octave by octave.  With adj (the
 * result's adjoint) given, adds instead the adjoints of x to adj_x and of
 * lacunarity and gain to adj_p[0] and adj_p[1]: an octave's Jacobian in x
 * is its amplitude times its frequency times the curl of the fields'
 * Hessians; the frequencies and amplitudes are carried with their
 * derivatives in lacunarity and gain. */
KS_FUNC void ks_curlnoise_run(uint32_t state, int n, const KS_REAL *x, uint32_t octaves, KS_REAL lacunarity,
			      KS_REAL gain, KS_REAL *out, const KS_REAL *adj, KS_REAL *adj_x, KS_REAL *adj_p)
{
	KS_REAL sum[3][4] = {{0.0f}}, freq = 1.0f, amplitude = 1.0f, dfreq = 0.0f, damp = 0.0f;
	int nf = n == 2 ? 1 : 3, nout = n == 2 ? 2 : 3;
	for (uint32_t i = 0; i < octaves; i++) {
		KS_REAL pt[4], d[4], g[3][4], h[3][16];
		int x0[4], x1[4];
		for (int k = 0; k < n; k++)
			pt[k] = freq * x[k];
		ks_noise_locate(n, pt, (int *)0, x0, x1, d);
		for (int f = 0; f < nf; f++) {
			if (f > 0)
				state = ks_rand_init_offset((int)state, f == 1 ? 10019689 : 13112221);
			ks_noise_cell(state, n, x0, x1, d, g[f], adj ? h[f] : (KS_REAL *)0);
			for (int k = 0; k < n; k++)
				sum[f][k] = sum[f][k] + amplitude * g[f][k];
		}
		if (adj) {
			KS_REAL c[3], dx = 0.0f, dg = 0.0f;
			for (int q = 0; q < n; q++) {
				KS_REAL hq[3][4], a = 0.0f;
				for (int f = 0; f < nf; f++)
					for (int k = 0; k < n; k++)
						hq[f][k] = h[f][k * n + q];
				ks_curl_of(n, hq, c);
				for (int r = 0; r < nout; r++)
					a += c[r] * adj[r];
				adj_x[q] += amplitude * freq * a;
				dx += a * x[q];
			}
			ks_curl_of(n, g, c);
			for (int r = 0; r < nout; r++)
				dg += c[r] * adj[r];
			adj_p[0] += amplitude * dfreq * dx;
			adj_p[1] += damp * dg;
		}
		damp = damp * gain + amplitude;
		dfreq = dfreq * lacunarity + freq;
		amplitude *= gain;
		freq *= lacunarity;
	}
	if (!adj) {
		KS_REAL c[3];
		ks_curl_of(n, sum, c);
		for (int r = 0; r < nout; r++)
			out[r] = c[r];
	}
}

KS_FUNC ks_vec2 ks_curlnoise_uint32_vec2(uint32_t state, ks_vec2 x, uint32_t octaves, KS_REAL lacunarity,
					 KS_REAL gain)
{
	ks_vec2 r;
	ks_curlnoise_run(state, 2, x.c, octaves, lacunarity, gain, r.c, (KS_REAL *)0, (KS_REAL *)0, (KS_REAL *)0);
	return r;
}
#define KS_CURLNOISE(VT, N)                                                                                       \
	KS_FUNC ks_vec3 ks_curlnoise_uint32_##VT(uint32_t state, ks_##VT x, uint32_t octaves, KS_REAL lacunarity, \
						 KS_REAL gain)                                                    \
	{                                                                                                         \
		ks_vec3 r;                                                                                        \
		ks_curlnoise_run(state, N, x.c, octaves, lacunarity, gain, r.c, (KS_REAL *)0, (KS_REAL *)0,       \
				 (KS_REAL *)0);                                                                   \
		return r;                                                                                         \
	}
KS_CURLNOISE(vec3, 3)
KS_CURLNOISE(vec4, 4)

/* curlnoise's adjoints: of x, and of lacunarity and gain (a vec2) */
#define KS_CURLNOISE_ADJ(VT, N, GT)                                                                      \
	KS_FUNC ks_##VT ks_curlnoise_adj_uint32_##VT(uint32_t state, ks_##VT x, uint32_t octaves,        \
						     KS_REAL lacunarity, KS_REAL gain, ks_##GT g)        \
	{                                                                                                \
		ks_##VT r = ks_zero_##VT();                                                              \
		KS_REAL p[2] = {0.0f, 0.0f};                                                             \
		ks_curlnoise_run(state, N, x.c, octaves, lacunarity, gain, (KS_REAL *)0, g.c, r.c, p);   \
		return r;                                                                                \
	}                                                                                                \
	KS_FUNC ks_vec2 ks_curlnoise_adj_params_uint32_##VT(uint32_t state, ks_##VT x, uint32_t octaves, \
							    KS_REAL lacunarity, KS_REAL gain, ks_##GT g) \
	{                                                                                                \
		ks_##VT r = ks_zero_##VT();                                                              \
		ks_vec2 p = ks_zero_vec2();                                                              \
		ks_curlnoise_run(state, N, x.c, octaves, lacunarity, gain, (KS_REAL *)0, g.c, r.c, p.c); \
		return p;                                                                                \
	}
KS_CURLNOISE_ADJ(vec2, 2, vec2)
KS_CURLNOISE_ADJ(vec3, 3, vec3)
KS_CURLNOISE_ADJ(vec4, 4, vec3)
