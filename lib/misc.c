/* misc.c: hashing and float formatting shared by every tool. */
#include <math.h>
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
	int prec = 1;
	for (; prec <= 9; prec++) {
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
}
