/*
 * kgen: seeded random kernels.  Writes one Warp module of COUNT kernels of
 * a category (or a mix); kernel I's text depends only on (SEED, category,
 * I), so any range of kernels can be made alone with --first.  With
 * --coverage it prints how often each construct was written instead;
 * with --split DIR it writes each kernel to a module of its own.
 * doc/kgen.md is the manual.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gen/gen.h"

static void usage(int status)
{
	FILE *f = status ? stderr : stdout;
	fputs("usage: kgen -c CATEGORY[,CATEGORY...]|all [-s SEED] [-n COUNT] [--first I]\n"
	      "            [--stmts N] [--depth N] [--nest N] [--params N]\n"
	      "            [--vec-pct P] [--int-pct P] [--coverage | --split DIR] [-o FILE]\n",
	      f);
	if (!status) {
		fputs("\n"
		      "  -c CATS       category, a comma list, or all (mix in doc/kgen.md):\n"
		      "                arithmetic math vector matrix control_flow loop atomic\n"
		      "                function inplace combined\n"
		      "  -s SEED       seed, 0 <= SEED < 2^64 (default 1)\n"
		      "  -n COUNT      number of kernels (default 1)\n"
		      "  --first I     index of the first kernel (default 0): kernel I is the\n"
		      "                same text whatever COUNT and --first\n"
		      "  --stmts N     body statements, about N/2 .. 3N/2 (default 6)\n"
		      "  --depth N     expression depth (default 3)\n"
		      "  --nest N      loop and branch nesting (default 2)\n"
		      "  --params N    array parameters, about (default 4)\n"
		      "  --vec-pct P   type mix: vector/matrix share, relative to 30 (default 30)\n"
		      "  --int-pct P   type mix: int share of scalars, relative to 20 (default 20)\n"
		      "  --coverage    print `KIND NAME COUNT` per construct instead of the\n"
		      "                kernels; exit 1 if any count is zero\n"
		      "  --split DIR   write kernel I to DIR/NAME.py, NAME its kernel's name,\n"
		      "                the same bytes as `-n 1 --first I`, and list `I NAME`\n"
		      "                per kernel to the output\n"
		      "  -o FILE       output (default stdout)\n",
		      f);
	}
	exit(status);
}

static unsigned long long num(const char *s, unsigned long long max)
{
	char *end;
	if (!s || !*s || *s == '-')
		usage(2);
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (*end || errno || v > max)
		usage(2);
	return v;
}

static unsigned cats(const char *s)
{
	if (!strcmp(s, "all"))
		return (1u << NCAT) - 1;
	unsigned m = 0;
	while (*s) {
		size_t n = strcspn(s, ",");
		int c;
		for (c = 0; c < NCAT; c++)
			if (strlen(gen_cat_name[c]) == n && !strncmp(gen_cat_name[c], s, n))
				break;
		if (c == NCAT) {
			fprintf(stderr, "kgen: unknown category '%.*s'\n", (int)n, s);
			usage(2);
		}
		m |= 1u << c;
		s += n;
		if (*s == ',' && *++s == 0)
			usage(2);
	}
	return m;
}

/* The name of the kernel in module text P[0 .. N): the def after
 * "@wp.kernel".  NAME holds CAP bytes. */
static void kernel_name(const char *p, size_t n, char *name, size_t cap)
{
	static const char mark[] = "@wp.kernel\ndef ";
	const char *e = p + n, *d = NULL;
	for (const char *q = p; q + sizeof mark - 1 <= e; q++)
		if (!memcmp(q, mark, sizeof mark - 1))
			d = q + sizeof mark - 1;
	size_t l = 0;
	while (d && d + l < e && d[l] != '(' && l + 1 < cap)
		l++;
	if (!d || !l || d + l == e || d[l] != '(')
		ks_fatal("internal: no kernel name in the module");
	memcpy(name, d, l);
	name[l] = 0;
}

int main(int argc, char **argv)
{
	const char *out = NULL, *split = NULL;
	unsigned mix = 0;
	unsigned long long seed = 1, count = 1, first = 0;
	int coverage = 0;
	GenKnobs k;
	gen_knobs_default(&k);
	ks_prog = "kgen";
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "-h") || !strcmp(a, "--help"))
			usage(0);
		else if (!strcmp(a, "--coverage"))
			coverage = 1;
		else if (!v)
			usage(2);
		else if (!strcmp(a, "-c"))
			mix = cats(argv[++i]);
		else if (!strcmp(a, "-s"))
			seed = num(argv[++i], ~0ULL);
		else if (!strcmp(a, "-n"))
			count = num(argv[++i], 1ULL << 40);
		else if (!strcmp(a, "--first"))
			first = num(argv[++i], 1ULL << 50);
		else if (!strcmp(a, "--stmts"))
			k.stmts = (int)num(argv[++i], 40);
		else if (!strcmp(a, "--depth"))
			k.depth = (int)num(argv[++i], 6);
		else if (!strcmp(a, "--nest"))
			k.nest = (int)num(argv[++i], 4);
		else if (!strcmp(a, "--params"))
			k.params = (int)num(argv[++i], 8);
		else if (!strcmp(a, "--vec-pct"))
			k.vec_pct = (int)num(argv[++i], 100);
		else if (!strcmp(a, "--int-pct"))
			k.int_pct = (int)num(argv[++i], 100);
		else if (!strcmp(a, "-o"))
			out = argv[++i];
		else if (!strcmp(a, "--split"))
			split = argv[++i];
		else
			usage(2);
	}
	if (!mix || (split && (coverage || !*split)))
		usage(2);
	GenCov *cov = coverage ? calloc(1, sizeof *cov) : NULL;
	FILE *f = out_open(out);
	Buf b = {0};
	if (split) {
		/* each module is written (and renamed into place) before its
		 * line is listed: a listed kernel's file is whole */
		Buf path = {0}, list = {0};
		for (unsigned long long i = first; i < first + count; i++) {
			char name[128], d[21];
			b.n = 0;
			buf_puts(&b, "import warp as wp\n\n\n");
			gen_kernel(&b, seed, gen_pick_category(seed, i, mix), i, &k, NULL);
			kernel_name(b.p, b.n, name, sizeof name);
			path.n = 0;
			buf_printf(&path, "%s/%s.py", split, name);
			buf_put(&path, "", 1);
			out_write_whole(path.p, b.p, b.n - 1); /* as -n 1: one newline at the end */
			list.n = 0;
			d[20] = 0;
			buf_printf(&list, "%s %s\n", ks_udec(d + 20, i), name);
			fwrite(list.p, 1, list.n, f);
		}
		buf_free(&path);
		buf_free(&list);
	}
	if (!coverage && !split)
		buf_puts(&b, "import warp as wp\n\n\n");
	for (unsigned long long i = first; i < first + count && !split; i++) {
		int c = gen_pick_category(seed, i, mix);
		gen_kernel(&b, seed, c, i, &k, cov);
		if (b.n >= (1u << 20) || coverage) {
			if (!coverage)
				fwrite(b.p, 1, b.n, f);
			b.n = 0;
		}
	}
	int zero = 0;
	if (coverage)
		zero = gen_cov_print(f, cov);
	else if (b.n > 1 && !split) /* drop the last blank line pair's second newline */
		fwrite(b.p, 1, b.n - 1, f);
	if (fflush(f) || ferror(f))
		ks_fatal("write error:");
	out_commit();
	buf_free(&b);
	free(cov);
	if (zero) {
		fprintf(stderr, "kgen: %d constructs were never produced\n", zero);
		return 1;
	}
	return 0;
}
