/* misc.c: hashing, joining strings and float formatting shared by every
 * tool. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks.h"

uint64_t ks_hash64(const void *p, size_t n, uint64_t seed)
{
	const unsigned char *s = p;
	uint64_t h = 0xcbf29ce484222325ULL ^ seed;
	for (size_t i = 0; i < n; i++) {
		h ^= s[i];
		h *= 0x100000001b3ULL;
	}
	/* final avalanche (splitmix64) so nearby inputs spread over all bits */
	h ^= h >> 30;
	h *= 0xbf58476d1ce4e5b9ULL;
	h ^= h >> 27;
	h *= 0x94d049bb133111ebULL;
	h ^= h >> 31;
	return h;
}

char *ks_join(char *out, size_t n, ...)
{
	size_t k = 0;
	va_list ap;
	va_start(ap, n);
	for (const char *s = va_arg(ap, const char *); s; s = va_arg(ap, const char *))
		for (; *s && k + 1 < n; s++)
			out[k++] = *s;
	va_end(ap);
	out[k] = 0;
	return out;
}

/* d * 10^k, by exact powers of ten: at most three roundings. */
static double scale10(double d, int k)
{
	static const double p10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
				       1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
	for (; k > 22; k -= 22)
		d *= 1e22;
	for (; k < -22; k += 22)
		d /= 1e22;
	return k >= 0 ? d * p10[k] : d / p10[-k];
}

/* The fewest significant digits p whose decimal (f rounded to p digits,
 * as printf rounds it) reads back as f, or 0 where double arithmetic
 * cannot tell: then the caller tries each p with snprintf and strtof.
 * For each p, f's digits are f * 10^k rounded to an integer N, and
 * N * 10^-k reads back as f when it lies strictly inside f's rounding
 * interval (halfway to each neighbour).  Both are computed in double
 * with a relative error below 2^-50, where f has 24 bits: a scaled value
 * within 2^-16 of a half, or a decimal within 2^-20 of the interval's
 * width from an end (where ties to even would decide), is left to the
 * exact route. */
static int float_digits(float f)
{
	if (!isfinite(f) || f == 0.0f)
		return 0;
	double d = fabs((double)f);
	float af = fabsf(f), up = nextafterf(af, INFINITY), dn = nextafterf(af, 0.0f);
	double lo = (d + (double)dn) / 2;
	double hi = isinf(up) ? d + (d - (double)dn) / 2 : (d + (double)up) / 2;
	double margin = (hi - lo) * 0x1p-20;
	int e = (int)floor(log10(d)); /* f's decimal exponent, made exact: */
	double x1 = scale10(d, -e);
	if (fabs(x1 - 1.0) < 0x1p-40 || fabs(x1 - 10.0) < 0x1p-36)
		return 0;
	e += x1 >= 10.0 ? 1 : x1 < 1.0 ? -1 : 0;
	for (int p = 1; p <= 9; p++) {
		int k = p - 1 - e;
		double x = scale10(d, k), r = floor(x), frac = x - r;
		if (fabs(frac - 0.5) < 0x1p-16)
			return 0;
		if (frac > 0.5)
			r += 1.0;
		double v = scale10(r, -k);
		if (v > lo + margin && v < hi - margin)
			return p;
		if (v > lo - margin && v < hi + margin)
			return 0;
	}
	return 0;
}

void ks_fmt_float(char *out, size_t n, float f)
{
	/* an integer of magnitude below 1e9 (-0 included) comes out of the
	 * search below as its digits and ".0": write that directly */
	if (f > -1e9f && f < 1e9f && f == (float)(long)f && n >= 16) {
		long v = (long)f;
		char s[16], *q = s + sizeof s;
		*--q = 0;
		*--q = '0';
		*--q = '.';
		q = ks_udec(q, (unsigned long)(v < 0 ? -v : v));
		if (signbit(f))
			*--q = '-';
		memcpy(out, q, (size_t)(s + sizeof s - q));
		return;
	}
	/* the search costs a few thousand instructions, and a module repeats
	 * its constants: the last spelling of each of a few hundred floats is
	 * kept */
	static struct {
		uint32_t bits;
		char s[27]; /* NUL-terminated; s[26] is 1 when the slot is used */
	} memo[512];
	uint32_t bits;
	memcpy(&bits, &f, sizeof bits);
	size_t slot = (bits * 0x9E3779B1u) >> 23;
	if (memo[slot].s[26] && memo[slot].bits == bits && n >= sizeof memo[slot].s - 1) {
		memcpy(out, memo[slot].s, strlen(memo[slot].s) + 1);
		return;
	}
	int prec = float_digits(f);
	if (prec)
		snprintf(out, n, "%.*g", prec, (double)f);
	else
		for (prec = 1; prec <= 9; prec++) {
			snprintf(out, n, "%.*g", prec, (double)f);
			if (strtof(out, NULL) == f)
				break;
		}
	/* 10 reads better than 1e+01: use positional notation for moderate
	 * magnitudes, with as many digits as the round trip needed */
	double a = f < 0 ? -(double)f : (double)f;
	if (strchr(out, 'e') && a >= 1e-4 && a < 1e9)
		for (; prec <= 17 && strchr(out, 'e'); prec++)
			snprintf(out, n, "%.*g", prec, (double)f);
	if (!strpbrk(out, ".eEni")) /* no '.', exponent, inf or nan */
		strncat(out, ".0", n - strlen(out) - 1);
	if (n >= sizeof memo[slot].s - 1 && strlen(out) < sizeof memo[slot].s - 1) {
		memo[slot].bits = bits;
		memcpy(memo[slot].s, out, strlen(out) + 1);
		memo[slot].s[26] = 1;
	}
}

void ks_fmt_double(char *out, size_t n, double f)
{
	int prec = 1;
	for (; prec <= 17; prec++) {
		snprintf(out, n, "%.*g", prec, f);
		if (strtod(out, NULL) == f)
			break;
	}
	double a = f < 0 ? -f : f;
	if (strchr(out, 'e') && a >= 1e-4 && a < 1e15)
		for (; prec <= 17 && strchr(out, 'e'); prec++)
			snprintf(out, n, "%.*g", prec, f);
	if (!strpbrk(out, ".eEni"))
		strncat(out, ".0", n - strlen(out) - 1);
}

/* The shortest text that a float16 reader (the decimal rounded to the
 * nearest float16) gives back as h: at most 5 significant digits, and
 * the float's own text when digits alone are not enough. */
void ks_fmt_half(char *out, size_t n, uint16_t h)
{
	float f = ks_half_to_float(h);
	if (!isfinite(f) || f == (float)(long)f) {
		ks_fmt_float(out, n, f);
		return;
	}
	int prec = 1;
	for (; prec <= 9; prec++) {
		snprintf(out, n, "%.*g", prec, (double)f);
		if (ks_half_from_float(strtof(out, NULL)) == h)
			break;
	}
	double a = fabs((double)f);
	if (strchr(out, 'e') && a >= 1e-4)
		for (; prec <= 9 && strchr(out, 'e'); prec++)
			snprintf(out, n, "%.*g", prec, (double)f);
	if (!strpbrk(out, ".eEni"))
		strncat(out, ".0", n - strlen(out) - 1);
}

/* Half precision: 1 sign bit, 5 exponent bits (bias 15), 10 fraction
 * bits.  The conversion rounds the float's 24-bit significand to the
 * half's 11 (fewer below 2^-14, where halves are subnormal) to nearest,
 * ties to even, working on the float's bits. */
uint16_t ks_half_from_float(float f)
{
	uint32_t x;
	memcpy(&x, &f, sizeof x);
	uint16_t sign = (uint16_t)((x >> 16) & 0x8000);
	uint32_t exp = (x >> 23) & 0xff, man = x & 0x7fffff;
	if (exp == 0xff) /* inf, NaN (quiet, some payload kept) */
		return (uint16_t)(sign | 0x7c00 | (man ? 0x200 | (man >> 13) : 0));
	int e = (int)exp - 127 + 15;
	if (e >= 0x1f)
		return (uint16_t)(sign | 0x7c00);
	uint32_t sig = man | (exp ? 0x800000u : 0); /* 24 bits with the hidden one */
	int shift = 13;                             /* to 11 bits */
	if (e <= 0) {                               /* subnormal half, or zero */
		shift = 14 - e;
		if (shift > 25)
			return sign;
		e = 0;
	}
	uint32_t h = sig >> shift, rest = sig & ((1u << shift) - 1), half = 1u << (shift - 1);
	if (rest > half || (rest == half && (h & 1)))
		h++;
	/* h holds the significand with its hidden bit; a carry out of it
	 * (or from a subnormal into the normal range) bumps the exponent,
	 * which adding the two fields does, up to infinity */
	uint32_t bits = e ? ((uint32_t)e << 10) + (h - 0x400) : h;
	return (uint16_t)(sign | bits);
}

float ks_half_to_float(uint16_t h)
{
	uint32_t sign = (uint32_t)(h & 0x8000) << 16, exp = (h >> 10) & 0x1f, man = h & 0x3ff, x;
	if (exp == 0x1f) {
		x = sign | 0x7f800000u | (man << 13);
	} else if (exp) {
		x = sign | ((exp - 15 + 127) << 23) | (man << 13);
	} else if (man) { /* subnormal: normalize */
		int e = -1;
		do {
			man <<= 1;
			e++;
		} while (!(man & 0x400));
		x = sign | ((uint32_t)(127 - 15 - e) << 23) | ((man & 0x3ff) << 13);
	} else {
		x = sign;
	}
	float f;
	memcpy(&f, &x, sizeof f);
	return f;
}
