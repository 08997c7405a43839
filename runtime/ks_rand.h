/*
 * ks_rand.h: Warp's random numbers, bit for bit: the generator, its
 * draws and the samplers of ir/builtins.h.
 *
 * Warp's generator: the state is a uint32 and each draw replaces it by
 * pcg(state), the PCG hash of Jarzynski and Olano ("Hash Functions for
 * GPU Rendering", JCGT 2020); a draw is computed from the new state.  The
 * emitted code passes the state by address: a draw advances the variable
 * it names (ks_randf(&state)).
 *
 * Floats are made as Warp makes them, operation for operation and without
 * FMA contraction (Warp's fuse_fp=False, as everywhere in ksynth), so that
 * the same libm gives the same bits.  The two draws of randn are made left
 * to right, as Warp's compilers evaluate the operands of its one
 * expression.
 */
#ifndef KS_RAND_H
#define KS_RAND_H

#define KS_PI_F 3.14159265358979323846f

KS_FUNC uint32_t ks_pcg(uint32_t state)
{
	uint32_t b = state * 747796405u + 2891336453u;
	uint32_t c = ((b >> ((b >> 28u) + 4u)) ^ b) * 277803737u;
	return (c >> 22u) ^ c;
}

KS_FUNC uint32_t ks_rand_init(int seed) { return ks_pcg((uint32_t)seed); }

KS_FUNC uint32_t ks_rand_init_offset(int seed, int offset)
{
	return ks_pcg((uint32_t)seed + ks_pcg((uint32_t)offset));
}

KS_FUNC uint32_t ks_randu(uint32_t *state)
{
	*state = ks_pcg(*state);
	return *state;
}

/* low + state % (high - low) in uint32, wrapping as Warp's does; an empty
 * range (high == low) gives low, where Warp divides by zero. */
KS_FUNC uint32_t ks_randu_range(uint32_t *state, uint32_t low, uint32_t high)
{
	uint32_t n = high - low, r = ks_randu(state);
	return (n ? r % n : 0u) + low;
}

KS_FUNC int ks_randi(uint32_t *state) { return (int)ks_randu(state); }

KS_FUNC int ks_randi_range(uint32_t *state, int low, int high)
{
	return (int)ks_randu_range(state, (uint32_t)low, (uint32_t)high);
}

/* The top 24 bits, scaled to [0, 1 - 2^-24]: exact in a float. */
KS_FUNC KS_REAL ks_randf(uint32_t *state) { return (KS_REAL)(ks_randu(state) >> 8) * (1.0f / 16777216.0f); }

KS_FUNC KS_REAL ks_randf_range(uint32_t *state, KS_REAL low, KS_REAL high)
{
	return (high - low) * ks_randf(state) + low;
}

/* Box-Muller; the first draw is kept off 0 by 5.96e-8 (just under 2^-24). */
KS_FUNC KS_REAL ks_randn(uint32_t *state)
{
	KS_REAL u = ks_randf(state), v = ks_randf(state);
	return sqrtf(-2.0f * logf(u + 5.96e-8f)) * cosf(2.0f * KS_PI_F * v);
}

/* The first index whose value is not below a uniform draw, by bisection
 * (the last index when none is): inverse-transform sampling of a CDF. */
KS_FUNC int ks_sample_cdf(uint32_t *state, ks_array_float cdf)
{
	KS_REAL u = ks_randf(state);
	int lo = 0, hi = cdf.shape[0] - 1;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (cdf.data[mid] < u)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Barycentric coordinates (u, v) of a uniform point in a triangle. */
KS_FUNC ks_vec2 ks_sample_triangle(uint32_t *state)
{
	KS_REAL r = sqrtf(ks_randf(state));
	KS_REAL u = 1.0f - r;
	return ks_make_vec2(u, ks_randf(state) * r);
}

KS_FUNC ks_vec2 ks_sample_unit_ring(uint32_t *state)
{
	KS_REAL theta = ks_randf_range(state, 0.0f, 2.0f * KS_PI_F);
	return ks_make_vec2(cosf(theta), sinf(theta));
}

KS_FUNC ks_vec2 ks_sample_unit_disk(uint32_t *state)
{
	KS_REAL r = sqrtf(ks_randf(state));
	KS_REAL theta = ks_randf_range(state, 0.0f, 2.0f * KS_PI_F);
	return ks_make_vec2(r * cosf(theta), r * sinf(theta));
}

/* A point at polar angle phi, azimuth theta and radius r: the sphere and
 * hemisphere samplers draw phi (cos phi uniform), theta, then r. */
KS_FUNC ks_vec3 ks_spherical(KS_REAL r, KS_REAL phi, KS_REAL theta)
{
	return ks_make_vec3(r * cosf(theta) * sinf(phi), r * sinf(theta) * sinf(phi), r * cosf(phi));
}

KS_FUNC ks_vec3 ks_sample_unit_sphere_surface(uint32_t *state)
{
	KS_REAL phi = acosf(1.0f - 2.0f * ks_randf(state));
	KS_REAL theta = ks_randf_range(state, 0.0f, 2.0f * KS_PI_F);
	return ks_make_vec3(cosf(theta) * sinf(phi), sinf(theta) * sinf(phi), cosf(phi));
}

KS_FUNC ks_vec3 ks_sample_unit_sphere(uint32_t *state)
{
	KS_REAL phi = acosf(1.0f - 2.0f * ks_randf(state));
	KS_REAL theta = ks_randf_range(state, 0.0f, 2.0f * KS_PI_F);
	return ks_spherical(powf(ks_randf(state), 1.0f / 3.0f), phi, theta);
}

KS_FUNC ks_vec3 ks_sample_unit_hemisphere_surface(uint32_t *state)
{
	KS_REAL phi = acosf(1.0f - ks_randf(state));
	KS_REAL theta = ks_randf_range(state, 0.0f, 2.0f * KS_PI_F);
	return ks_make_vec3(cosf(theta) * sinf(phi), sinf(theta) * sinf(phi), cosf(phi));
}

KS_FUNC ks_vec3 ks_sample_unit_hemisphere(uint32_t *state)
{
	KS_REAL phi = acosf(1.0f - ks_randf(state));
	KS_REAL theta = ks_randf_range(state, 0.0f, 2.0f * KS_PI_F);
	return ks_spherical(powf(ks_randf(state), 1.0f / 3.0f), phi, theta);
}

KS_FUNC ks_vec2 ks_sample_unit_square(uint32_t *state)
{
	KS_REAL x = ks_randf(state) - 0.5f;
	return ks_make_vec2(x, ks_randf(state) - 0.5f);
}

KS_FUNC ks_vec3 ks_sample_unit_cube(uint32_t *state)
{
	KS_REAL x = ks_randf(state) - 0.5f;
	KS_REAL y = ks_randf(state) - 0.5f;
	return ks_make_vec3(x, y, ks_randf(state) - 0.5f);
}

/* log(Gamma(x)) for x >= 1, the series of Zhang and Jin (Computation of
 * Special Functions, 1996) at x + n >= 7, then down by log(x + k). */
KS_FUNC KS_REAL ks_log_gamma(KS_REAL x)
{
	/* clang-format off */
	const KS_REAL coef[10] = {
		8.333333333333333e-02f, -2.777777777777778e-03f, 7.936507936507937e-04f,
		-5.952380952380952e-04f, 8.417508417508418e-04f, -1.917526917526918e-03f,
		6.410256410256410e-03f, -2.955065359477124e-02f, 1.796443723688307e-01f,
		-1.39243221690590e+00f};
	/* clang-format on */
	if (x == 1.0f || x == 2.0f)
		return 0.0f;
	uint32_t n = x < 7.0f ? (uint32_t)(7 - x) : 0u;
	KS_REAL x0 = x + (KS_REAL)n;
	KS_REAL x2 = (1.0f / x0) * (1.0f / x0);
	KS_REAL s = coef[9];
	for (int i = 8; i >= 0; i--) {
		s *= x2;
		s += coef[i];
	}
	/* 1.8378770664093453f: log(2 pi) */
	KS_REAL gl = s / x0 + 0.5f * 1.8378770664093453f + (x0 - 0.5f) * logf(x0) - x0;
	for (uint32_t k = 1; k <= n; k++) {
		gl -= logf(x0 - 1.0f);
		x0 -= 1.0f;
	}
	return gl;
}

/* Poisson with mean lam: for lam < 10 by multiplying uniforms until the
 * product falls to exp(-lam) (Knuth); from 10 up by Hoermann's transformed
 * rejection ("The transformed rejection method for generating Poisson
 * random variables", 1993). */
KS_FUNC uint32_t ks_poisson(uint32_t *state, KS_REAL lam)
{
	if (lam >= 10.0f) {
		KS_REAL slam = sqrtf(lam), loglam = logf(lam);
		KS_REAL b = 0.931f + 2.53f * slam;
		KS_REAL a = -0.059f + 0.02483f * b;
		KS_REAL invalpha = 1.1239f + 1.1328f / (b - 3.4f);
		KS_REAL vr = 0.9277f - 3.6224f / (b - 2.0f);
		for (;;) {
			KS_REAL u = ks_randf(state) - 0.5f;
			KS_REAL v = ks_randf(state);
			KS_REAL us = 0.5f - fabsf(u);
			KS_REAL k = floorf((2.0f * a / us + b) * u + lam + 0.43f);
			if (us >= 0.07f && v <= vr)
				return (uint32_t)k;
			if (k < 0.0f || (us < 0.013f && v > us))
				continue;
			if (logf(v) + logf(invalpha) - logf(a / (us * us) + b) <=
			    -lam + k * loglam - ks_log_gamma(k + 1.0f))
				return (uint32_t)k;
		}
	}
	if (lam == 0.0f)
		return 0u;
	KS_REAL limit = expf(-lam), prod = 1.0f;
	uint32_t x = 0;
	for (;;) {
		prod *= ks_randf(state);
		if (!(prod > limit))
			return x;
		x++;
	}
}

#endif
