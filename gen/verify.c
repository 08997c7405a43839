/*
 * verify.c: kgen --verify.  The kernels of a range go into one module in
 * a temporary folder, which krun runs on cpu with --coverage --vary under
 * input seeds 1 and 2: the check `make dataset` applies.  Each kernel
 * krun names (outputs that do not depend on the inputs, no array changed,
 * an array filled with one value, an if that takes one way only, a loop
 * body that never runs) is drawn
 * again from its next redraw key, and the redrawn kernels are run again,
 * until krun names none.  Which draw a kernel keeps depends on float32
 * arithmetic with FMA contraction off and on the C library's math
 * functions, so it is the same wherever those round alike.
 */
#include <stdlib.h>
#include <string.h>

#include "gen/gen.h"
#include "runtime/run.h"

static size_t count_lines(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return 0;
	size_t n = 0;
	for (int c; (c = getc(f)) != EOF;)
		n += c == '\n';
	fclose(f);
	return n;
}

/* Mark in bad[] the kernels that a line of krun's stderr names ("krun:
 * NAME: why"); returns 0 when some line names no kernel of the module. */
static int named(const Buf *log, char *const *names, size_t n, unsigned char *bad)
{
	int ok = 1;
	for (size_t at = 0; at < log->n;) {
		const char *p = log->p + at, *nl = memchr(p, '\n', log->n - at);
		size_t len = nl ? (size_t)(nl - p) : log->n - at;
		at += len + 1;
		const char *name = p + 6, *colon;
		if (len < 6 || memcmp(p, "krun: ", 6) || !(colon = memchr(name, ':', len - 6))) {
			ok = 0;
			continue;
		}
		size_t j = 0, l = (size_t)(colon - name);
		while (j < n && (strlen(names[j]) != l || memcmp(names[j], name, l)))
			j++;
		if (j == n)
			ok = 0;
		else
			bad[j] = 1;
	}
	return ok;
}

void gen_verify(uint64_t seed, unsigned mix, uint64_t first, uint64_t count, const GenKnobs *k, const char *krun,
		unsigned *redraw)
{
	uint64_t *pend = xmalloc(sizeof *pend * (size_t)(count + 1));
	char **names = xmalloc(sizeof *names * (size_t)(count + 1));
	unsigned char *bad = xmalloc((size_t)count + 1);
	size_t np = (size_t)count;
	for (size_t j = 0; j < np; j++) {
		pend[j] = j;
		redraw[j] = 0;
	}
	char *src = run_tmpfile("verify.py"), *out = run_tmpfile("verify.json");
	char *argv[] = {(char *)krun, "--device", "cpu", "--coverage", "--seed", "1", "--vary", "2", src, NULL};
	Buf mod = {0}, log = {0};
	while (np) {
		mod.n = 0;
		buf_puts(&mod, "import warp as wp\n\n\n");
		for (size_t j = 0; j < np; j++) {
			uint64_t i = first + pend[j];
			names[j] = xstrdup(gen_kernel(&mod, seed, gen_pick_category(seed, i, mix), i,
						      redraw[pend[j]], k, NULL));
		}
		FILE *f = fopen(src, "wb");
		if (!f || fwrite(mod.p, 1, mod.n, f) != mod.n || fclose(f))
			ks_fatal("%s:", src);
		log.n = 0;
		memset(bad, 0, np);
		int rc = run_cmd_out(argv, out, &log);
		if (rc < 0 || count_lines(out) != np || !named(&log, names, np, bad) || (rc && !memchr(bad, 1, np)))
			ks_fatal("--verify: %s failed on kernels %llu to %llu (exit status %d):\n%.*s", krun,
				 (unsigned long long)(first + pend[0]), (unsigned long long)(first + pend[np - 1]),
				 rc, (int)(log.n < 4000 ? log.n : 4000), log.p ? log.p : "");
		size_t nn = 0;
		for (size_t j = 0; j < np; j++) {
			if (bad[j]) {
				if (++redraw[pend[j]] > GEN_MAX_REDRAW)
					ks_fatal("--verify: kernel %llu is degenerate in %d draws",
						 (unsigned long long)(first + pend[j]), GEN_MAX_REDRAW);
				pend[nn++] = pend[j];
			}
			free(names[j]);
		}
		np = nn;
	}
	run_tmpdone(src);
	run_tmpdone(out);
	buf_free(&mod);
	buf_free(&log);
	free(pend);
	free(names);
	free(bad);
}
