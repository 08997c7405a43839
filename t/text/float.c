/*
 * float.c: ks_fmt_float against the search it stands for.  The text of a
 * float is the first of "%.1g" .. "%.9g" that strtof reads back as the
 * float (then positional notation from 1e-4 to 1e9, and ".0" after a whole
 * number): ks_fmt_float finds that precision with double arithmetic, and
 * must give the same text for every float.  Checked here on each
 * exponent's smallest, largest and middle significands, the floats
 * around each power of ten, those nearest to d * 10^k for d below 1000,
 * and N random bit patterns (argv[1]); prints the first differences and
 * exits 1 on any.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/ks.h"

static void by_search(char *out, size_t n, float f)
{
	int prec = 1;
	for (; prec <= 9; prec++) {
		snprintf(out, n, "%.*g", prec, (double)f);
		if (strtof(out, NULL) == f)
			break;
	}
	double a = fabs((double)f);
	if (strchr(out, 'e') && a >= 1e-4 && a < 1e9)
		for (; prec <= 17 && strchr(out, 'e'); prec++)
			snprintf(out, n, "%.*g", prec, (double)f);
	if (!strpbrk(out, ".eEni"))
		strncat(out, ".0", n - strlen(out) - 1);
}

static long checked, differ;

static void check_bits(uint32_t bits)
{
	float f;
	char got[64], want[64];
	memcpy(&f, &bits, sizeof f);
	ks_fmt_float(got, sizeof got, f);
	by_search(want, sizeof want, f);
	checked++;
	if (strcmp(got, want) && differ++ < 10)
		printf("# %08x: ks_fmt_float %s, the search %s\n", (unsigned)bits, got, want);
}

static void check_near(double x)
{
	float f = (float)x;
	uint32_t bits;
	memcpy(&bits, &f, sizeof bits);
	for (uint32_t d = 0; d < 3; d++)
		check_bits(bits - 1 + d);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100000;
	for (uint32_t e = 0; e < 256; e++)
		for (uint32_t m = 0; m < 32; m++) {
			check_bits(e << 23 | m);
			check_bits(e << 23 | (0x7fffffu - m));
			check_bits(e << 23 | (0x400000u + m));
		}
	for (int k = -45; k <= 38; k++) {
		check_near(pow(10.0, k));
		for (int d = 1; d < 1000; d++)
			check_near(d * pow(10.0, k));
	}
	uint64_t s = 88172645463325252u;
	for (long i = 0; i < n; i++) {
		s ^= s << 13;
		s ^= s >> 7;
		s ^= s << 17;
		check_bits((uint32_t)s);
		check_bits((uint32_t)(s >> 32) | 0x80000000u);
	}
	printf("# %ld floats, %ld written otherwise than the search writes them\n", checked, differ);
	return differ != 0;
}
