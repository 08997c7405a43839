/* misc.c: hashing and float formatting shared by every tool. */
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
	for (int prec = 1; prec <= 9; prec++) {
		snprintf(out, n, "%.*g", prec, (double)f);
		if (strtof(out, NULL) == f)
			break;
	}
	if (!strpbrk(out, ".eEni")) /* no '.', exponent, inf or nan */
		strncat(out, ".0", n - strlen(out) - 1);
}
