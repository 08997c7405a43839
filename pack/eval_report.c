/*
 * eval_report.c: the scores of an evaluation (doc/eval.md, "The report"):
 * per field (forward, backward) the share of samples that compiled and
 * that were correct, pass@k for each k up to the most samples a problem
 * has (the unbiased estimator of Chen et al. 2021, averaged over the
 * problems with at least k samples), the same by category, every
 * sample's verdict per id and every failure's reason, in eval.json; a
 * summary on stdout with the worst cases.
 */
#include "eval.h"
#include "record.h"
#include "verify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 1 - C(n-c, k) / C(n, k), as the product of Chen et al.'s code: stable
 * for any n. */
double ev_pass_at(int n, int c, int k)
{
	if (k > n || k < 1)
		return 0;
	if (n - c < k)
		return 1;
	double q = 1;
	for (int i = n - c + 1; i <= n; i++)
		q *= 1.0 - (double)k / i;
	return 1 - q;
}

typedef struct Score {
	long samples, compiled, correct, problems;
	int maxn;
	double pass[64];
	long pass_n[64];
	long faster, timed;
} Score;

static void add(Score *s, const Rec *r, int f)
{
	int n = r->n[f], c = 0;
	if (!n)
		return;
	s->problems++;
	for (int j = 0; j < n; j++) {
		const Sample *sm = &r->s[f][j];
		s->samples++;
		s->compiled += sm->compiled;
		s->correct += sm->correct;
		c += sm->correct;
		if (sm->correct && sm->speedup > 0) {
			s->timed++;
			s->faster += sm->speedup > 1;
		}
	}
	if (n > s->maxn)
		s->maxn = n > 64 ? 64 : n;
	for (int k = 1; k <= n && k <= 64; k++) {
		s->pass[k - 1] += ev_pass_at(n, c, k);
		s->pass_n[k - 1]++;
	}
}

static void score_json(Buf *b, const Score *s, int gpu)
{
	buf_printf(b, "{\"samples\": %ld, \"problems\": %ld, \"compiled\": %.4f, \"correct\": %.4f", s->samples,
		   s->problems, s->samples ? (double)s->compiled / s->samples : 0,
		   s->samples ? (double)s->correct / s->samples : 0);
	buf_printf(b, ", \"pass@1\": %.4f, \"pass@k\": {", s->pass_n[0] ? s->pass[0] / s->pass_n[0] : 0);
	for (int k = 1; k <= s->maxn; k++)
		buf_printf(b, "%s\"%d\": %.4f", k > 1 ? ", " : "", k, s->pass[k - 1] / s->pass_n[k - 1]);
	buf_puts(b, "}");
	if (gpu)
		buf_printf(b, ", \"fast_1\": %.4f", s->samples ? (double)s->faster / s->samples : 0);
	buf_puts(b, "}");
}

static int cmp_cat(const void *a, const void *b)
{
	const Rec *x = *(Rec *const *)a, *y = *(Rec *const *)b;
	int c = strcmp(x->cat, y->cat);
	return c ? c : strcmp(x->id, y->id);
}

void ev_report(Rec **r, int n, const EvEnv *e, double seconds)
{
	Score all[NFIELD] = {{0}};
	for (int i = 0; i < n; i++)
		for (int f = 0; f < NFIELD; f++)
			add(&all[f], r[i], f);
	int any_cuda = 0;
	for (int i = 0; i < n; i++)
		any_cuda |= !strcmp(r[i]->dev, "cuda");
	Buf b = {0};
	buf_puts(&b, "{\"dataset\": ");
	json_cstr(&b, ev_opt.data);
	buf_puts(&b, ", \"predictions\": ");
	json_cstr(&b, ev_opt.pred);
	buf_printf(&b, ", \"eval_seed\": %llu, \"input_seeds\": [%llu, %llu], \"sentinel\": %g",
		   (unsigned long long)ev_opt.seed, (unsigned long long)e->s1, (unsigned long long)e->s2,
		   EV_SENTINEL);
	buf_puts(&b, ", \"cuda\": {\"compiler\": ");
	json_cstr(&b, e->cuda.nvrtc[0] ? e->cuda.nvrtc : "none");
	if (!e->cuda.nvrtc[0]) {
		buf_puts(&b, ", \"no_nvrtc\": ");
		json_cstr(&b, e->cuda.no_nvrtc);
	}
	buf_printf(&b, ", \"run_on\": \"%s\"", e->cuda.gpu ? "cuda" : "sim");
	if (!e->cuda.gpu) {
		buf_puts(&b, ", \"no_gpu\": ");
		json_cstr(&b, e->cuda.no_gpu);
	}
	buf_puts(&b, "}, \"timing\": ");
	if (e->cuda.gpu && any_cuda)
		buf_printf(&b, "{\"measured\": true, \"reps\": %d}", ev_opt.bench);
	else
		buf_printf(&b, "{\"measured\": false, \"why\": \"%s\"}",
			   any_cuda ? "no GPU here: the CUDA samples ran on sim, whose times say nothing of a GPU's"
				    : "no CUDA record");
	for (int f = 0; f < NFIELD; f++) {
		buf_printf(&b, ", \"%s\": ", ev_field_name[f]);
		score_json(&b, &all[f], e->cuda.gpu && any_cuda);
	}
	/* by category */
	Rec **by = xmalloc(sizeof *by * (size_t)(n ? n : 1));
	memcpy(by, r, sizeof *by * (size_t)n);
	qsort(by, (size_t)n, sizeof *by, cmp_cat);
	buf_puts(&b, ", \"categories\": {");
	for (int i = 0, c = 0; i < n;) {
		int j = i;
		Score sc[NFIELD] = {{0}};
		for (; j < n && !strcmp(by[j]->cat, by[i]->cat); j++)
			for (int f = 0; f < NFIELD; f++)
				add(&sc[f], by[j], f);
		buf_puts(&b, c++ ? ", " : "");
		json_cstr(&b, by[i]->cat);
		buf_puts(&b, ": {");
		for (int f = 0; f < NFIELD; f++) {
			buf_printf(&b, "%s\"%s\": ", f ? ", " : "", ev_field_name[f]);
			score_json(&b, &sc[f], e->cuda.gpu && any_cuda);
		}
		buf_puts(&b, "}");
		i = j;
	}
	buf_puts(&b, "}, \"per_id\": {");
	for (int i = 0; i < n; i++) {
		buf_puts(&b, i ? ", " : "");
		json_cstr(&b, by[i]->id);
		buf_puts(&b, ": {");
		for (int f = 0, c = 0; f < NFIELD; f++) {
			if (!by[i]->n[f])
				continue;
			buf_printf(&b, "%s\"%s\": [", c++ ? ", " : "", ev_field_name[f]);
			for (int j = 0; j < by[i]->n[f]; j++)
				buf_printf(&b, "%s%s", j ? ", " : "", by[i]->s[f][j].correct ? "true" : "false");
			buf_puts(&b, "]");
		}
		buf_puts(&b, "}");
	}
	buf_puts(&b, "}, \"failures\": [");
	int nf = 0;
	for (int i = 0; i < n; i++)
		for (int f = 0; f < NFIELD; f++)
			for (int j = 0; j < by[i]->n[f]; j++) {
				const Sample *sm = &by[i]->s[f][j];
				if (sm->correct)
					continue;
				buf_puts(&b, nf++ ? ", " : "");
				buf_puts(&b, "{\"id\": ");
				json_cstr(&b, by[i]->id);
				buf_printf(&b, ", \"field\": \"%s\", \"sample\": %d, \"line\": %ld, \"reason\": ",
					   ev_field_name[f], j, sm->line);
				json_cstr(&b, sm->why ? sm->why : "");
				buf_puts(&b, "}");
			}
	buf_puts(&b, "], \"speedups\": [");
	for (int i = 0, c = 0; i < n; i++)
		for (int f = 0; f < NFIELD; f++)
			for (int j = 0; j < by[i]->n[f]; j++)
				if (by[i]->s[f][j].speedup > 0) {
					buf_puts(&b, c++ ? ", " : "");
					buf_puts(&b, "{\"id\": ");
					json_cstr(&b, by[i]->id);
					buf_printf(&b, ", \"field\": \"%s\", \"sample\": %d, \"speedup\": %.4g}",
						   ev_field_name[f], j, by[i]->s[f][j].speedup);
				}
	buf_puts(&b, "], \"notes\": [");
	for (int i = 0, c = 0; i < n; i++)
		if (by[i]->note) {
			buf_puts(&b, c++ ? ", " : "");
			buf_puts(&b, "{\"id\": ");
			json_cstr(&b, by[i]->id);
			buf_puts(&b, ", \"note\": ");
			json_cstr(&b, by[i]->note);
			buf_puts(&b, "}");
		}
	long ns = all[0].samples + all[1].samples;
	buf_printf(&b, "], \"seconds\": %.2f, \"seconds_per_sample\": %.3f}\n", seconds, ns ? seconds / ns : 0);
	char *path = ev_opt.json ? xstrdup(ev_opt.json) : vf_pathf("%s/eval.json", ev_opt.data);
	out_write_whole(path, b.p, b.n);

	/* the summary */
	printf("keval: %s against %s (input seeds %llu, %llu; EVAL_SEED=%llu)\n", ev_opt.pred, ev_opt.data,
	       (unsigned long long)e->s1, (unsigned long long)e->s2, (unsigned long long)ev_opt.seed);
	if (any_cuda)
		printf("  CUDA: compiled by %s, run on %s%s%s\n",
		       e->cuda.nvrtc[0] ? e->cuda.nvrtc : "sim's C++ (no NVRTC)",
		       e->cuda.gpu ? "the GPU" : "sim (no GPU: ", e->cuda.gpu ? "" : e->cuda.no_gpu,
		       e->cuda.gpu ? "" : ")");
	for (int f = 0; f < NFIELD; f++) {
		const Score *s = &all[f];
		if (!s->samples)
			continue;
		printf("  %-8s %ld samples of %ld problems: compiled %.3f, correct %.3f, pass@1 %.3f",
		       ev_field_name[f], s->samples, s->problems, (double)s->compiled / s->samples,
		       (double)s->correct / s->samples, s->pass[0] / s->pass_n[0]);
		if (s->maxn > 1)
			printf(", pass@%d %.3f", s->maxn, s->pass[s->maxn - 1] / s->pass_n[s->maxn - 1]);
		printf("\n");
		if (e->cuda.gpu && any_cuda)
			printf("           faster than the reference: %ld of %ld timed\n", s->faster, s->timed);
	}
	if (!(e->cuda.gpu && any_cuda))
		printf("  timing: not measured (%s)\n", any_cuda ? "no GPU here" : "no CUDA record");
	int notes = 0;
	for (int i = 0; i < n; i++)
		notes += by[i]->note != NULL;
	if (notes)
		printf("  %d record%s evaluated at %s own launch or inputs: the notes of %s\n", notes,
		       notes == 1 ? "" : "s", notes == 1 ? "its" : "their", path);
	/* the worst first: the problems no sample of which is correct (pass 0),
	 * then the failed samples of the others (pass 1) */
	int shown = 0;
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < n; i++)
			for (int f = 0; f < NFIELD; f++) {
				int c = 0;
				for (int j = 0; j < by[i]->n[f]; j++)
					c += by[i]->s[f][j].correct;
				if ((c > 0) != pass)
					continue;
				for (int j = 0; j < by[i]->n[f]; j++) {
					const Sample *sm = &by[i]->s[f][j];
					if (sm->correct || shown++ >= 20)
						continue;
					Buf l = {0};
					vf_one_line(&l, sm->why ? sm->why : "");
					buf_putc(&l, 0);
					printf("  FAIL %s %s #%d (line %ld)%s: %s\n", by[i]->id, ev_field_name[f],
					       j, sm->line, c ? "" : " (no sample right)", l.p);
					buf_free(&l);
				}
			}
	if (shown > 20)
		printf("  ... and %d more failures (%s)\n", shown - 20, path);
	printf("  %.1f s, %.2f s a sample; %s\n", seconds, ns ? seconds / ns : 0, path);
	fflush(stdout);
	free(path);
	free(by);
	buf_free(&b);
}
