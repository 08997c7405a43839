/*
 * kgen: seeded random kernels.  Writes one Warp module of COUNT kernels of
 * a category (or a mix); kernel I's text depends only on (SEED, category,
 * I), so any range of kernels can be made alone with --first.  With
 * --coverage it prints how often each construct was written instead;
 * with --split DIR it writes each kernel to a module of its own; with
 * --verify each kernel is the first of its draws that krun finds not
 * degenerate (gen/verify.c).
 * doc/kgen.md is the manual.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gen/gen.h"

static void usage(int status)
{
	FILE *f = status ? stderr : stdout;
	fputs("usage: kgen -c CATEGORY[,CATEGORY...]|all [-s SEED] [-n COUNT] [--first I]\n"
	      "            [--stmts N] [--depth N] [--nest N] [--params N]\n"
	      "            [--vec-pct P] [--int-pct P] [--verify | --draw N]\n"
	      "            [--coverage | --split DIR] [-o FILE]\n",
	      f);
	if (!status) {
		fputs("\n"
		      "  -c CATS       category, a comma list, or all (mix in doc/kgen.md):\n"
		      "                particles springs stencil reduce rigid fem neighbors\n"
		      "                raycast sampling (the idioms); arithmetic math vector\n"
		      "                matrix control_flow loop atomic function inplace\n"
		      "                combined (the constructs)\n"
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
		      "  --verify      run the kernels with krun --coverage --vary (cpu, input\n"
		      "                seeds 1 and 2) and draw again each one whose outputs do\n"
		      "                not depend on its inputs, that fills an array with one\n"
		      "                value, with an if that takes one way only or a loop\n"
		      "                body that never runs; krun is the one beside kgen,\n"
		      "                else $KSYNTH_KRUN, else on the PATH\n"
		      "  --draw N      make draw N of each kernel (0 plain kgen's; --verify\n"
		      "                keeps the first draw krun accepts)\n"
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

/* Kernels are made a chunk at a time: with --verify, krun runs a chunk's
 * kernels in one module. */
#define CHUNK 250

typedef struct Run {
	uint64_t seed;
	unsigned mix;
	const GenKnobs *k;
	const char *krun;   /* --verify: the krun to run; NULL without */
	unsigned draw;      /* --draw N */
	unsigned rd[CHUNK]; /* the chunk's draw numbers */
} Run;

/* The chunk of kernels from first (at most CHUNK, none past end): their
 * draw numbers into r->rd; returns how many. */
static uint64_t draws(Run *r, uint64_t first, uint64_t end)
{
	uint64_t n = end - first < CHUNK ? end - first : CHUNK;
	if (r->krun)
		gen_verify(r->seed, r->mix, first, n, r->k, r->krun, r->rd);
	else
		for (uint64_t j = 0; j < n; j++)
			r->rd[j] = r->draw;
	return n;
}

/* --verify's krun: $KSYNTH_KRUN, else the krun in kgen's own folder,
 * else krun on the PATH. */
static const char *find_krun(void)
{
	const char *e = getenv("KSYNTH_KRUN");
	if (e && *e)
		return e;
	static char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 8);
	if (n > 0) {
		self[n] = 0;
		char *slash = strrchr(self, '/');
		if (slash) {
			strcpy(slash + 1, "krun");
			if (!access(self, X_OK))
				return self;
		}
	}
	return "krun";
}

/* --split: kernel I to DIR/NAME.py, the bytes `-n 1 --first I` writes,
 * each written whole and renamed into place before its `I NAME` line goes
 * to F, so a listed kernel's file is whole. */
static void write_split(FILE *f, const char *dir, Run *r, uint64_t first, uint64_t count)
{
	Buf b = {0}, path = {0};
	for (uint64_t c = first, m; c < first + count; c += m) {
		m = draws(r, c, first + count);
		for (uint64_t i = c; i < c + m; i++) {
			b.n = 0;
			buf_puts(&b, "import warp as wp\n\n\n");
			const char *name = gen_kernel(&b, r->seed, gen_pick_category(r->seed, i, r->mix), i,
						      r->rd[i - c], r->k, NULL);
			path.n = 0;
			buf_printf(&path, "%s/%s.py", dir, name);
			buf_put(&path, "", 1);
			out_write_whole(path.p, b.p, b.n - 1); /* as -n 1: one newline at the end */
			char d[21];
			d[20] = 0;
			fprintf(f, "%s %s\n", ks_udec(d + 20, i), name);
		}
	}
	buf_free(&b);
	buf_free(&path);
}

int main(int argc, char **argv)
{
	const char *out = NULL, *split_dir = NULL;
	unsigned mix = 0;
	unsigned long long seed = 1, count = 1, first = 0;
	int coverage = 0, verify = 0, draw_set = 0;
	unsigned long long draw = 0;
	GenKnobs k;
	gen_knobs_default(&k);
	ks_prog = "kgen";
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "-h") || !strcmp(a, "--help"))
			usage(0);
		else if (!strcmp(a, "--coverage"))
			coverage = 1;
		else if (!strcmp(a, "--verify"))
			verify = 1;
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
			split_dir = argv[++i];
		else if (!strcmp(a, "--draw"))
			draw = num(argv[++i], 1000000), draw_set = 1;
		else
			usage(2);
	}
	if (!mix || (split_dir && (coverage || !*split_dir)) || (verify && draw_set))
		usage(2);
	GenCov *cov = coverage ? calloc(1, sizeof *cov) : NULL;
	static Run r;
	r.seed = seed;
	r.mix = mix;
	r.k = &k;
	r.krun = verify ? find_krun() : NULL;
	r.draw = (unsigned)draw;
	FILE *f = out_open(out);
	int zero = 0;
	if (split_dir) {
		write_split(f, split_dir, &r, first, count);
	} else {
		Buf b = {0};
		if (!coverage)
			buf_puts(&b, "import warp as wp\n\n\n");
		for (uint64_t c = first, m; c < first + count; c += m) {
			m = draws(&r, c, first + count);
			for (uint64_t i = c; i < c + m; i++) {
				gen_kernel(&b, seed, gen_pick_category(seed, i, mix), i, r.rd[i - c], &k, cov);
				if (b.n >= (1u << 20) || coverage) {
					if (!coverage)
						fwrite(b.p, 1, b.n, f);
					b.n = 0;
				}
			}
		}
		if (coverage)
			zero = gen_cov_print(f, cov);
		else if (b.n > 1) /* drop the last blank line pair's second newline */
			fwrite(b.p, 1, b.n - 1, f);
		buf_free(&b);
	}
	if (fflush(f) || ferror(f))
		ks_fatal("write error:");
	out_commit();
	free(cov);
	if (zero) {
		fprintf(stderr, "kgen: %d constructs were never produced\n", zero);
		return 1;
	}
	return 0;
}
