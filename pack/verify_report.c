/*
 * verify_report.c: kverify report, the failures and the summary
 * (verify.h).
 *
 * It reads index.txt and every K.ver, prints a line per failure
 * (`FAIL ID (FILE:LINE): REASON: DETAIL`) and the summary with the
 * quality figures, writes them to verify.json (DATASET/verify.json
 * unless --json) and exits 0 only when every record and every file
 * passed.  Where the dataset's tools' version is not these tools', a
 * record whose bytes differ from what they make is reported, not failed.
 * A record of a shard that has no K.ver is not verified, a failure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/gen.h"
#include "lib/ks.h"
#include "pack/record.h"
#include "pack/verify.h"
#include "version.h"

typedef struct RRec {
	char *id, *where, *cat, *dev, *hash;
	long lines[3], shard;
	int failed, done, degen; /* degen: -1 unknown */
	double ratio, rel;       /* < 0: no gradient check */
} RRec;

typedef struct Fail {
	long rec; /* -1: a finding on the dataset's files */
	char *where, *reason, *detail;
} Fail;

typedef struct Report {
	RRec *rec;
	long nrec;
	Fail *fail;
	long nfail;
	Set ids;
	Buf lines; /* what index.txt and the K.ver hold, kept for the strings */
} Report;

static void add_fail(Report *rp, long rec, char *where, char *reason, char *detail)
{
	rp->fail = xrealloc(rp->fail, sizeof *rp->fail * (size_t)(rp->nfail + 1));
	rp->fail[rp->nfail++] = (Fail){rec, where, reason, detail};
	if (rec >= 0)
		rp->rec[rec].failed = 1;
}

/* split LINE at tabs into at most N fields; the count */
static int fields(char *line, char **f, int n)
{
	int k = 0;
	for (char *p = line; k < n;) {
		f[k++] = p;
		char *t = strchr(p, '\t');
		if (!t)
			break;
		*t = 0;
		p = t + 1;
	}
	return k;
}

static int cmp_fail(const void *a, const void *b)
{
	const Fail *x = a, *y = b;
	return x->rec < y->rec ? -1 : x->rec > y->rec;
}

/* a tally of names (reasons, fields, checks): count and a first detail */
enum { TMAX = 64 };
typedef struct Tally {
	const char *name[TMAX], *first[TMAX];
	long n[TMAX];
	int k;
} Tally;

static void tally(Tally *t, const char *name, const char *first)
{
	int i;
	for (i = 0; i < t->k && strcmp(t->name[i], name); i++)
		;
	if (i == t->k) {
		if (t->k == TMAX)
			return;
		t->name[t->k] = name;
		t->first[t->k] = first;
		t->n[t->k++] = 0;
	}
	t->n[i]++;
}

static void tally_json(Buf *b, const Tally *t)
{
	buf_putc(b, '{');
	for (int i = 0; i < t->k; i++) {
		buf_puts(b, i ? ", " : "");
		json_cstr(b, t->name[i]);
		buf_printf(b, ": %ld", t->n[i]);
	}
	buf_putc(b, '}');
}

static void tally_text(Buf *b, const Tally *t)
{
	for (int i = 0; i < t->k; i++)
		buf_printf(b, "%s%s %ld", i ? ", " : "", t->name[i], t->n[i]);
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;
	return x < y ? -1 : x > y;
}

int verify_report(void)
{
	Env env;
	vf_read_env(&env);
	Report rp = {0};
	char *p = vf_pathf("%s/index.txt", vf_opt.work);
	size_t n;
	char *idx = vf_slurp(p, &n);
	if (!idx)
		ks_fatal("%s is missing: run kverify index first", p);
	free(p);
	/* index.txt: F (a finding), R (a record), H (a shared ir_hash) */
	long hgroups = 0, hrecs = 0;
	Buf hlist = {0};
	for (char *l = idx, *nl; *l; l = nl + 1) {
		nl = strchr(l, '\n');
		if (!nl)
			break;
		*nl = 0;
		char *f[10];
		int k = fields(l, f, 10);
		if (f[0][0] == 'F' && k == 4) {
			add_fail(&rp, -1, f[1], f[2], f[3]);
		} else if (f[0][0] == 'R' && k >= 9) {
			rp.rec = xrealloc(rp.rec, sizeof *rp.rec * (size_t)(rp.nrec + 1));
			RRec *r = &rp.rec[rp.nrec];
			*r = (RRec){f[1], f[2], f[3], f[4], f[6], {0, 0, 0}, -1, 0, 0, -1, -1, -1};
			if (sscanf(f[5], "%ld %ld %ld", &r->lines[0], &r->lines[1], &r->lines[2]) != 3)
				r->lines[0] = -1;
			if (!strcmp(f[8], "ok")) {
				r->shard = strtol(f[7], NULL, 10);
				*vf_set_find(&rp.ids, r->id, 1) = rp.nrec;
				rp.nrec++;
			} else {
				rp.nrec++;
				add_fail(&rp, rp.nrec - 1, f[2], f[8], k > 9 ? f[9] : "");
			}
		} else if (f[0][0] == 'X' && k == 4) {
			long *ri = vf_set_find(&rp.ids, f[1], 0);
			if (ri)
				add_fail(&rp, *ri, rp.rec[*ri].where, f[2], f[3]);
		} else if (f[0][0] == 'H' && k == 3) {
			hgroups++;
			hrecs += strtol(f[2], NULL, 10);
			buf_printf(&hlist, "%s%s", hlist.n ? " " : "", f[1]);
		}
	}
	buf_putc(&hlist, 0);

	/* the shards' results: V (a check), M (figures), C (coverage) */
	p = vf_pathf("%s/shards", vf_opt.work);
	char *shards = vf_slurp(p, &n);
	if (!shards)
		ks_fatal("%s is missing: run kverify index first", p);
	free(p);
	Tally diffs = {0}, skips = {0};
	Cov cov = {0};
	char **vers = NULL;
	int nvers = 0;
	for (char *q = shards, *e; *q && *q != '\n'; q = e + (*e == ' ')) {
		long k = strtol(q, &e, 10);
		if (e == q)
			ks_fatal("%s/shards: a bad line", vf_opt.work);
		p = vf_pathf("%s/%ld.ver", vf_opt.work, k);
		char *v = vf_slurp(p, &n);
		free(p);
		if (!v)
			continue; /* its records are not done: below */
		vers = xrealloc(vers, sizeof *vers * (size_t)(nvers + 1));
		vers[nvers++] = v;
		for (char *l = v, *nl; *l; l = nl + 1) {
			nl = strchr(l, '\n');
			if (!nl)
				break;
			*nl = 0;
			char *f[5];
			int nf = fields(l, f, 5);
			long *ri = nf >= 2 ? vf_set_find(&rp.ids, f[1], 0) : NULL;
			if (f[0][0] == 'C' && nf == 3) {
				int i;
				for (i = 0; i < cov.n && strcmp(cov.row[i], f[1]); i++)
					;
				if (i == cov.n) {
					cov.row = xrealloc(cov.row, sizeof *cov.row * (size_t)(cov.n + 1));
					cov.count = xrealloc(cov.count, sizeof *cov.count * (size_t)(cov.n + 1));
					cov.row[cov.n] = f[1];
					cov.count[cov.n++] = 0;
				}
				cov.count[i] += strtoull(f[2], NULL, 10);
			} else if (!ri) {
				continue;
			} else if (f[0][0] == 'M' && nf == 5) {
				RRec *r = &rp.rec[*ri];
				r->done = 1;
				r->degen = f[2][0] == '-' ? -1 : f[2][0] == '1';
				if (f[3][0] != '-') {
					r->ratio = strtod(f[3], NULL);
					r->rel = strtod(f[4], NULL);
				}
			} else if (f[0][0] == 'V' && nf == 5) {
				if (!strcmp(f[2], "fail"))
					add_fail(&rp, *ri, rp.rec[*ri].where, f[3], f[4]);
				else if (!strcmp(f[2], "diff"))
					tally(&diffs, f[3], f[4]);
				else if (!strcmp(f[2], "skip"))
					tally(&skips, f[3], f[4]);
			}
		}
	}
	for (long i = 0; i < rp.nrec; i++)
		if (rp.rec[i].shard >= 0 && !rp.rec[i].done) {
			char *d = vf_pathf("its shard %ld was not verified (no %s/%ld.ver)", rp.rec[i].shard,
					   vf_opt.work, rp.rec[i].shard);
			add_fail(&rp, i, rp.rec[i].where, "not-verified", d);
		}
	if (rp.nfail) /* qsort(NULL, 0) is undefined */
		qsort(rp.fail, (size_t)rp.nfail, sizeof *rp.fail, cmp_fail);

	/* the failures, a line each, then the summary */
	Tally why_rec = {0}, why_files = {0};
	Buf out = {0}, js = {0};
	long failed = 0;
	json_cstr(&js, vf_opt.data);
	p = js.p;
	js = (Buf){0};
	buf_printf(&js, "{\"dataset\": %s,\n \"tools_version\": {\"dataset\": ", p);
	json_cstr(&js, env.version);
	buf_printf(&js, ", \"kverify\": \"%s\", \"same\": %s},\n \"failures\": [", KS_VERSION,
		   strcmp(env.version, KS_VERSION) ? "false" : "true");
	free(p);
	for (long i = 0; i < rp.nfail; i++) {
		Fail *f = &rp.fail[i];
		const char *id = f->rec >= 0 ? rp.rec[f->rec].id : "-";
		if (f->rec >= 0 && strcmp(f->where, "-") && strcmp(id, "-"))
			buf_printf(&out, "FAIL %s (%s): %s: %s\n", id, f->where, f->reason, f->detail);
		else if (f->rec >= 0 && strcmp(f->where, "-"))
			buf_printf(&out, "FAIL %s: %s: %s\n", f->where, f->reason, f->detail);
		else if (f->rec >= 0)
			buf_printf(&out, "FAIL %s: %s: %s\n", id, f->reason, f->detail);
		else
			buf_printf(&out, "FAIL %s: %s: %s\n", f->where, f->reason, f->detail);
		/* a record counts once per reason */
		int again = 0;
		for (long j = i - 1; j >= 0 && rp.fail[j].rec == f->rec && f->rec >= 0; j--)
			again |= !strcmp(rp.fail[j].reason, f->reason);
		if (!again)
			tally(f->rec >= 0 ? &why_rec : &why_files, f->reason, f->detail);
		if (f->rec >= 0 && (i == 0 || rp.fail[i - 1].rec != f->rec))
			failed++;
		buf_printf(&js, "%s\n  {\"id\": ", i ? "," : "");
		json_cstr(&js, id);
		buf_puts(&js, ", \"where\": ");
		json_cstr(&js, f->where);
		buf_puts(&js, ", \"reason\": ");
		json_cstr(&js, f->reason);
		buf_puts(&js, ", \"detail\": ");
		json_cstr(&js, f->detail);
		buf_putc(&js, '}');
	}
	int ok = rp.nfail == 0;
	buf_printf(&out, "kverify: %s: %ld records, made by tools %s (these tools: %s)\n", vf_opt.data, rp.nrec,
		   env.version,
		   strcmp(env.version, KS_VERSION) ? KS_VERSION
			   ", another version: code that differs is reported, not failed"
						   : "the same");
	buf_printf(&out, "  records: %ld checked, %ld passed, %ld failed", rp.nrec, rp.nrec - failed, failed);
	if (why_rec.k) {
		buf_puts(&out, " (");
		tally_text(&out, &why_rec);
		buf_putc(&out, ')');
	}
	buf_putc(&out, '\n');
	if (why_files.k) {
		long nf = 0;
		for (long i = 0; i < rp.nfail; i++)
			nf += rp.fail[i].rec < 0;
		buf_printf(&out, "  the dataset's files: %ld findings (", nf);
		tally_text(&out, &why_files);
		buf_puts(&out, ")\n");
	}
	buf_printf(
		&js,
		"],\n \"records\": {\"checked\": %ld, \"passed\": %ld, \"failed\": %ld},\n \"failed_by_reason\": ",
		rp.nrec, rp.nrec - failed, failed);
	tally_json(&js, &why_rec);
	buf_puts(&js, ",\n \"files_failed_by_reason\": ");
	tally_json(&js, &why_files);
	if (diffs.k) {
		buf_puts(&out, "  differ from these tools' (reported, not failed): ");
		tally_text(&out, &diffs);
		buf_putc(&out, '\n');
	}
	buf_puts(&js, ",\n \"differ\": ");
	tally_json(&js, &diffs);
	buf_puts(&js, ",\n \"not_checked\": {");
	for (int i = 0; i < skips.k; i++) {
		buf_printf(&out, "  not checked here: %s of %ld records (%s)\n", skips.name[i], skips.n[i],
			   skips.first[i]);
		buf_printf(&js, "%s\"%s\": {\"records\": %ld, \"why\": ", i ? ", " : "", skips.name[i], skips.n[i]);
		json_cstr(&js, skips.first[i]);
		buf_putc(&js, '}');
	}
	buf_puts(&js, "},\n \"checked_on\": {\"cpu\": \"cpu\", \"cuda\": ");
	json_cstr(&js, env.cuda);
	buf_puts(&js, ", \"nvrtc\": ");
	json_cstr(&js, env.nvrtc);
	buf_puts(&js, "},\n");
	int any_cuda = 0;
	for (long i = 0; i < rp.nrec; i++)
		any_cuda |= !strcmp(rp.rec[i].dev, "cuda");
	if (any_cuda)
		buf_printf(&out, "  CUDA code: compiled by %s, run on %s\n", env.nvrtc, env.cuda);

	/* categories: balance against kgen's mix, failures, degenerate
	 * records, the gradient check's worst */
	unsigned mix = cat_mix(env.cats);
	int wsum = 0;
	for (int c = 0; c < NCAT; c++)
		if (mix & 1u << c)
			wsum += gen_cat_weight[c];
	buf_puts(
		&out,
		"  by category: records (share; kgen's mix), failed, degenerate, gradient check's worst error/tolerance\n");
	buf_puts(&js, " \"categories\": {");
	double smin = -1, smax = 0, gworst = -1, gworst_rel = -1;
	long degen = 0, first = 1;
	Buf dlist = {0};
	for (long i = 0; i < rp.nrec; i++)
		if (rp.rec[i].degen == 1) {
			degen++;
			buf_printf(&dlist, "%s%s", dlist.n ? " " : "", rp.rec[i].id);
		}
	buf_putc(&dlist, 0);
	for (int c = 0; c < NCAT; c++) {
		long recs = 0, fl = 0, dg = 0;
		double q = -1, rl = -1;
		for (long i = 0; i < rp.nrec; i++) {
			RRec *r = &rp.rec[i];
			if (strcmp(r->cat, gen_cat_name[c]))
				continue;
			recs++;
			fl += r->failed;
			dg += r->degen == 1;
			q = r->ratio > q ? r->ratio : q;
			rl = r->rel > rl ? r->rel : rl;
		}
		double want = mix & 1u << c && wsum ? (double)gen_cat_weight[c] / wsum : 0;
		if (!recs && !want)
			continue;
		double share = rp.nrec ? (double)recs / (double)rp.nrec : 0;
		if (want) {
			smin = smin < 0 || share / want < smin ? share / want : smin;
			smax = share / want > smax ? share / want : smax;
		}
		gworst = q > gworst ? q : gworst;
		gworst_rel = rl > gworst_rel ? rl : gworst_rel;
		char gq[32] = "-";
		if (q >= 0)
			snprintf(gq, sizeof gq, "%.3g", q);
		buf_printf(&out, "    %-13s %6ld (%5.1f%%; %5.1f%%) %5ld %5ld  %s\n", gen_cat_name[c], recs,
			   100 * share, 100 * want, fl, dg, gq);
		buf_printf(&js,
			   "%s\n  \"%s\": {\"records\": %ld, \"share\": %.4f, \"mix\": %.4f, \"failed\": %ld, "
			   "\"degenerate\": %ld, \"gradcheck_worst_ratio\": ",
			   first ? "" : ",", gen_cat_name[c], recs, share, want, fl, dg);
		if (q >= 0)
			buf_printf(&js, "%.4g, \"gradcheck_worst_rel\": %.4g}", q, rl);
		else
			buf_puts(&js, "null, \"gradcheck_worst_rel\": null}");
		first = 0;
	}
	buf_printf(&out, "  balance: each category's share over its share of kgen's mix, %.2f to %.2f\n",
		   smin < 0 ? 0 : smin, smax);
	buf_printf(&js,
		   "},\n \"balance\": {\"share_over_mix_min\": %.4f, \"share_over_mix_max\": %.4f},\n \"lines\": {",
		   smin < 0 ? 0 : smin, smax);

	/* lines: min, median, mean, 90th percentile, max */
	static const char *lname[3] = {"source", "forward", "backward"};
	long *v = xmalloc(sizeof *v * (size_t)(rp.nrec + 1));
	buf_puts(&out, "  lines (min / median / mean / p90 / max):");
	for (int l = 0; l < 3; l++) {
		long m = 0;
		double sum = 0;
		for (long i = 0; i < rp.nrec; i++)
			if (rp.rec[i].lines[0] >= 0) {
				v[m++] = rp.rec[i].lines[l];
				sum += (double)rp.rec[i].lines[l];
			}
		qsort(v, (size_t)m, sizeof *v, cmp_long);
		long mn = m ? v[0] : 0, md = m ? v[(m - 1) / 2] : 0, p90 = m ? v[(m * 9 - 1) / 10] : 0,
		     mx = m ? v[m - 1] : 0;
		double mean = m ? sum / (double)m : 0;
		buf_printf(&out, "%s %s %ld / %ld / %.1f / %ld / %ld", l ? ";" : "", lname[l], mn, md, mean, p90,
			   mx);
		buf_printf(&js,
			   "%s\"%s\": {\"min\": %ld, \"median\": %ld, \"mean\": %.2f, \"p90\": %ld, \"max\": %ld}",
			   l ? ", " : "", lname[l], mn, md, mean, p90, mx);
	}
	free(v);
	buf_putc(&out, '\n');

	/* constructs covered: kgen's coverage rows of the records */
	int covered = 0;
	Buf never = {0};
	for (int i = 0; i < cov.n; i++) {
		covered += cov.count[i] > 0;
		if (!cov.count[i])
			buf_printf(&never, "%s%s", never.n ? ", " : "", cov.row[i]);
	}
	buf_putc(&never, 0);
	buf_printf(&out, "  constructs covered: %d of kgen's %d coverage rows", covered, cov.n);
	if (covered < cov.n)
		buf_printf(&out, " (never: %.300s%s)", never.p, strlen(never.p) > 300 ? "..." : "");
	buf_putc(&out, '\n');
	buf_printf(&js, "},\n \"coverage\": {\"rows\": %d, \"covered\": %d, \"never\": [", cov.n, covered);
	first = 1;
	for (int i = 0; i < cov.n; i++)
		if (!cov.count[i]) {
			buf_puts(&js, first ? "" : ", ");
			json_cstr(&js, cov.row[i]);
			first = 0;
		}
	buf_printf(&out, "  duplicate ir_hash: %ld records share %ld hashes%s%.200s\n", hrecs, hgroups,
		   hgroups ? ": " : "", hlist.p);
	buf_printf(&js, "]},\n \"duplicate_ir_hash\": {\"groups\": %ld, \"records\": %ld},\n", hgroups, hrecs);
	buf_printf(
		&out,
		"  degenerate (outputs that do not depend on the inputs, seeds 1 and 2): %ld records%s%.200s%s\n",
		degen, degen ? ": " : "", dlist.p, strlen(dlist.p) > 200 ? "..." : "");
	buf_printf(&js, " \"degenerate\": {\"records\": %ld, \"ids\": [", degen);
	first = 1;
	for (long i = 0; i < rp.nrec; i++)
		if (rp.rec[i].degen == 1) {
			buf_puts(&js, first ? "" : ", ");
			json_cstr(&js, rp.rec[i].id);
			first = 0;
		}
	buf_puts(&js, "]},\n \"gradcheck\": {\"worst_ratio\": ");
	if (gworst >= 0) {
		buf_printf(&out, "  gradient check: worst error/tolerance %.3g, worst relative error %.3g\n",
			   gworst, gworst_rel);
		buf_printf(&js, "%.4g, \"worst_rel\": %.4g}", gworst, gworst_rel);
	} else {
		buf_puts(&js, "null, \"worst_rel\": null}");
	}
	buf_printf(&js, ",\n \"ok\": %s}\n", ok ? "true" : "false");
	char *jp = vf_opt.json ? xstrdup(vf_opt.json) : vf_pathf("%s/verify.json", vf_opt.data);
	out_write_whole(jp, js.p, js.n);
	buf_printf(&out, "  verify.json: %s\nkverify: %s\n", jp, ok ? "ok" : "FAILED");
	fwrite(out.p, 1, out.n, stdout);
	if (fflush(stdout) || ferror(stdout))
		ks_fatal("write error:");
	free(jp);
	buf_free(&out);
	buf_free(&js);
	buf_free(&never);
	buf_free(&dlist);
	buf_free(&hlist);
	for (int i = 0; i < nvers; i++)
		free(vers[i]);
	free(vers);
	free(cov.row);
	free(cov.count);
	free(shards);
	free(rp.rec);
	free(rp.fail);
	vf_set_free(&rp.ids);
	free(idx);
	return ok ? 0 : 1;
}
