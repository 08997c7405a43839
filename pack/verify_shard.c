/*
 * verify_shard.c: kverify shard K, and the shards of `kverify DATASET`
 * (verify.h).
 *
 * shard runs the tools (those of --bin, else those beside kverify) in
 * WORK/K/DEVICE on the records of shard K that WORK/K/index.st lists, a
 * batch per tool and check as make dataset does, the records of one
 * device at a time: first each record is made again by the tools and
 * compared with its bytes (verify_rederive.c), then its own code is
 * compiled, run and gradient-checked by krun (verify_run.c).  What it
 * finds goes to WORK/K.ver, the records' lines in index.st's order, then
 * the shard's coverage counts:
 *
 *   V <TAB> ID <TAB> fail|diff|skip <TAB> CHECK <TAB> DETAIL
 *   M <TAB> ID <TAB> DEGENERATE (0, 1, -) <TAB> GRADCHECK RATIO <TAB> REL (or -)
 *   C <TAB> KIND NAME <TAB> COUNT
 *
 * `kverify DATASET` runs the shards in children of its own, N at a time,
 * only those whose K.ver is older than what it was made from (as make
 * verify's graph would), with make verify's progress line.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/ks.h"
#include "pack/record.h"
#include "pack/verify.h"
#include "version.h"

/* ---- a record's lines of K.ver ------------------------------------------ */

static int same_version; /* the dataset's tools are these */

/* a line of K.ver on record R: V <TAB> ID <TAB> KIND <TAB> WHAT <TAB> DETAIL */
static void rec_line(VRec *r, const char *kind, const char *what, const char *fmt, va_list ap)
{
	char d[1024];
	vsnprintf(d, sizeof d, fmt, ap);
	buf_printf(&r->out, "V\t%s\t%s\t%s\t", r->id, kind, what);
	vf_one_line(&r->out, d);
	buf_putc(&r->out, '\n');
}

/* the record fails a check */
void vf_rec_fail(VRec *r, const char *reason, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	rec_line(r, "fail", reason, fmt, ap);
	va_end(ap);
}

/* a field is not what these tools make of it: a failure when the dataset
 * was made by these tools, else a difference, reported */
void vf_rec_code(VRec *r, const char *field, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	rec_line(r, same_version ? "fail" : "diff", field, fmt, ap);
	va_end(ap);
}

/* a check that cannot be made here */
void vf_rec_skip(VRec *r, const char *check, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	rec_line(r, "skip", check, fmt, ap);
	va_end(ap);
}

/* ---- kverify shard K ----------------------------------------------------- */

int verify_shard(long k)
{
	vf_find_bin();
	Env env;
	vf_read_env(&env);
	same_version = !strcmp(env.version, KS_VERSION);
	char *p = vf_pathf("%s/%ld/index.st", vf_opt.work, k);
	size_t n;
	char *s = vf_slurp(p, &n);
	if (!s)
		ks_fatal("%s is missing: run kverify index first", p);
	free(p);
	VRec *rec = NULL;
	int nrec = 0;
	for (char *l = s; *l; l += strcspn(l, "\n"), l += *l == '\n') {
		VRec v = {0};
		char dev[16];
		int compiled;
		if (sscanf(l, "%79s %15s %255s %llu %31s %31s %15s %d", v.id, dev, v.name, &v.idx, v.cat, v.hash,
			   v.on, &compiled) != 8 ||
		    !vf_is_name(v.name))
			ks_fatal("%s/%ld/index.st: a bad line", vf_opt.work, k);
		int d;
		if (!vf_parse_id(v.id, &v.seed, &v.idx, &d))
			ks_fatal("%s/%ld/index.st: a bad id '%s'", vf_opt.work, k, v.id);
		v.dev = !strcmp(dev, "cuda");
		rec = xrealloc(rec, sizeof *rec * (size_t)(nrec + 1));
		rec[nrec++] = v;
	}
	free(s);
	Cov cov = {0};
	for (int d = 0; d < 2; d++) {
		VRec **r = xmalloc(sizeof *r * (size_t)(nrec + 1));
		int m = 0;
		for (int i = 0; i < nrec; i++)
			if (rec[i].dev == d)
				r[m++] = &rec[i];
		if (m) {
			/* made again by the tools, then their own code run */
			char *dir = vf_pathf("%s/%ld/%s", vf_opt.work, k, vf_dev_name[d]);
			vf_rederive(dir, r, m, d, &env, &cov);
			vf_run_code(dir, r, m, d, &env);
			free(dir);
		}
		free(r);
	}
	Buf ver = {0};
	for (int i = 0; i < nrec; i++) {
		buf_put(&ver, rec[i].out.p, rec[i].out.n);
		buf_free(&rec[i].out);
	}
	for (int i = 0; i < cov.n; i++) {
		buf_printf(&ver, "C\t%s\t%llu\n", cov.row[i], cov.count[i]);
		free(cov.row[i]);
	}
	free(cov.row);
	free(cov.count);
	p = vf_pathf("%s/%ld.ver", vf_opt.work, k);
	out_write_whole(p, ver.p, ver.n);
	free(p);
	buf_free(&ver);
	free(rec);
	return 0;
}

/* ---- kverify DATASET: the shards, N at a time --------------------------- */

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_REALTIME, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int mtime(const char *path, struct timespec *t)
{
	struct stat st;
	if (stat(path, &st))
		return 0;
	*t = st.st_mtim;
	return 1;
}

static int newer(struct timespec a, struct timespec b)
{
	return a.tv_sec > b.tv_sec || (a.tv_sec == b.tv_sec && a.tv_nsec > b.tv_nsec);
}

/* Is WORK/K.ver newer than what it was made from: the shard's records,
 * WORK/env and the tools?  (What make verify's graph says.) */
static int up_to_date(long k)
{
	/* clang-format off */
	static const char *const tools[] = {"kgen", "kparse", "kfmt", "kdiff", "kemit-cpu", "kemit-cu", "krun", "kverify"};
	/* clang-format on */
	struct timespec v, t;
	char *p = vf_pathf("%s/%ld.ver", vf_opt.work, k);
	int ok = mtime(p, &v);
	free(p);
	p = vf_pathf("%s/%ld/index.st", vf_opt.work, k);
	ok = ok && mtime(p, &t) && newer(v, t);
	free(p);
	p = vf_pathf("%s/env", vf_opt.work);
	ok = ok && mtime(p, &t) && newer(v, t);
	free(p);
	for (size_t i = 0; ok && i < KS_NELEM(tools); i++) {
		p = vf_pathf("%s/%s", vf_bin_dir, tools[i]);
		ok = mtime(p, &t) && newer(v, t);
		free(p);
	}
	return ok;
}

static long count_records(long k)
{
	char *p = vf_pathf("%s/%ld/index.st", vf_opt.work, k);
	size_t n;
	char *s = vf_slurp(p, &n);
	long c = s ? count_lines(s, n) : 0;
	free(s);
	free(p);
	return c;
}

/* The shards of WORK/shards: EVERY one, or those not up to date. */
int verify_shards(int every)
{
	char *p = vf_pathf("%s/shards", vf_opt.work);
	size_t n;
	char *sh = vf_slurp(p, &n);
	free(p);
	long *ks = NULL, nk = 0, all = 0;
	for (char *q = sh, *e; q && *q && *q != '\n'; q = e + (*e == ' ')) {
		long k = strtol(q, &e, 10);
		if (e == q)
			break;
		all++;
		if (every || !up_to_date(k)) {
			ks = xrealloc(ks, sizeof *ks * (size_t)(nk + 1));
			ks[nk++] = k;
		}
	}
	free(sh);
	/* the shards, vf_opt.jobs at a time; the progress line as make verify's */
	pid_t *pid = xmalloc(sizeof *pid * (size_t)(nk + 1));
	double *start = xmalloc(sizeof *start * (size_t)(nk + 1)), t0 = now(), took = 0;
	long next = 0, running = 0, done = 0, recs = 0;
	int tty = isatty(2), bad = 0;
	while (done < nk) {
		while (running < vf_opt.jobs && next < nk) {
			fflush(stdout);
			fflush(stderr);
			pid[next] = fork();
			if (pid[next] < 0)
				ks_fatal("fork:");
			if (!pid[next]) {
				int rc = verify_shard(ks[next]);
				free(ks);
				free(pid);
				free(start);
				exit(rc);
			}
			start[next++] = now();
			running++;
		}
		int st;
		pid_t w = wait(&st);
		if (w < 0)
			ks_fatal("wait:");
		long i;
		for (i = 0; i < next && pid[i] != w; i++)
			;
		if (i == next)
			continue;
		running--;
		done++;
		pid[i] = 0;
		bad |= !WIFEXITED(st) || WEXITSTATUS(st);
		recs += count_records(ks[i]);
		double t = now();
		took += t - start[i];
		double part = 0;
		for (long j = 0; j < next; j++)
			if (pid[j]) {
				double f = (t - start[j]) / (took / (double)done);
				part += f > 0.95 ? 0.95 : f;
			}
		double e = t - t0, rate = e > 0 ? (double)recs / (double)done * ((double)done + part) / e : 0;
		double eta = ((double)(nk - done) - part) * e / ((double)done + part);
		if (eta < 0)
			eta = 0;
		fprintf(stderr, "%s  VERIFY  %ld  %ld/%ld done, %.1f records/s, ETA %d:%02d%s", tty ? "\r" : "",
			ks[i], all - nk + done, all, rate, (int)eta / 60, (int)eta % 60, tty ? "\033[K" : "\n");
	}
	if (tty && nk)
		fputc('\n', stderr);
	free(pid);
	free(start);
	free(ks);
	return bad;
}
