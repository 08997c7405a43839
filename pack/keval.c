/*
 * keval: score a model's kernels by running them (doc/eval.md).
 *
 *   keval [--bin DIR] [--seed S] [--json FILE] [--work DIR] [--timeout S]
 *         DATASET PREDICTIONS
 *   keval --prompts | --references [--split NAME] DATASET
 *
 * PREDICTIONS is JSONL, one sample a line, {"id", "field", "completion"}:
 * the code a model wrote for a record's forward or backward field, several
 * lines for one id and field being k tries.  Each sample is compiled and
 * run, confined, by krun on inputs and a launch the record never used,
 * beside the record's own code, and compared with it (eval_run.c); the
 * scores go to eval.json and a summary (eval_report.c).  --prompts writes
 * what a model is given per record and field, --references the record's
 * own code as predictions (which score 1).  This file reads: the options,
 * the predictions (a line that is not a sample is a located error, and
 * nothing is run) and the records they name.
 */
#include "eval.h"
#include "json.h"
#include "record.h"
#include "verify.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

const char *const ev_field_name[NFIELD] = {"forward", "backward"};
EvOpts ev_opt = {.timeout = 30, .bench = 20};

static void usage(int status)
{
	fputs("usage: keval [--bin DIR] [--seed S] [--json FILE] [--work DIR] [--timeout S]\n"
	      "             DATASET PREDICTIONS.jsonl\n"
	      "       keval --prompts | --references [--split train|validation|test] DATASET\n"
	      "(a predictions line: {\"id\": ID, \"field\": \"forward\"|\"backward\", \"completion\": CODE})\n",
	      status ? stderr : stdout);
	exit(status);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The dataset's split files, data/NAME.jsonl (those of SPLIT alone when
 * given), sorted; NULL-terminated. */
static char **split_files(const char *data, const char *split)
{
	char *dir = vf_pathf("%s/data", data);
	DIR *d = opendir(dir);
	if (!d)
		ks_fatal("%s: cannot open it (a dataset has its records in DATASET/data/*.jsonl):", dir);
	char **f = NULL;
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);
		if (l < 7 || strcmp(e->d_name + l - 6, ".jsonl"))
			continue;
		if (split && (strncmp(e->d_name, split, strlen(split)) || e->d_name[strlen(split)] != '-'))
			continue;
		f = xrealloc(f, sizeof *f * (size_t)(n + 2));
		f[n++] = vf_pathf("%s/%s", dir, e->d_name);
	}
	closedir(d);
	if (!n)
		ks_fatal("%s: no %s%s.jsonl file", dir, split ? split : "", split ? "-*" : "*");
	qsort(f, (size_t)n, sizeof *f, cmp_str);
	f[n] = NULL;
	free(dir);
	return f;
}

static char *str_of(const JVal *o, const char *k)
{
	const JVal *v = json_get(o, k);
	return v && v->kind == J_STR ? v->s : NULL;
}

/* A line of a JSON Lines file, parsed: its text, where it is (its first
 * column not blank), its value. */
typedef struct JLine {
	const Src *src;
	const char *text;
	size_t len;
	long line;
	int col;
	const JVal *v;
} JLine;

/* Call EACH on every line of S that is not blank, its JSON parsed; a line
 * that does not parse is a located error. */
static void each_json_line(const Src *s, void (*each)(const JLine *l, void *ctx), void *ctx)
{
	long line = 0;
	for (size_t at = 0; at < s->len;) {
		const char *p = s->text + at, *nl = memchr(p, '\n', s->len - at);
		size_t n = nl ? (size_t)(nl - p) : s->len - at;
		line++;
		at += n + 1;
		size_t k = 0;
		while (k < n && (p[k] == ' ' || p[k] == '\t' || p[k] == '\r'))
			k++;
		if (k == n)
			continue;
		Arena a = {0};
		char err[200];
		size_t off;
		int trunc;
		JVal *v = json_parse(&a, p, n, err, sizeof err, &off, &trunc);
		if (!v)
			ks_error_at(s, (int)line, (int)off + 1, "not a JSON line: %s", err);
		JLine l = {s, p, n, line, (int)k + 1, v};
		each(&l, ctx);
		arena_free(&a);
	}
}

/* EACH and its context, for check_record */
typedef struct EachRec {
	void (*each)(const JVal *rec, void *ctx);
	void *ctx;
} EachRec;

static void check_record(const JLine *l, void *ctx)
{
	const EachRec *e = ctx;
	const JVal *v = l->v;
	if (!str_of(v, "id") || !str_of(v, "ir") || !str_of(v, "device") || !str_of(v, "forward") ||
	    !str_of(v, "backward") || !str_of(v, "category"))
		ks_error_at(l->src, (int)l->line, l->col,
			    "not a record: it wants the strings id, category, ir, device, forward and backward");
	e->each(v, e->ctx);
}

/* Call EACH on every record of the files; a line that is not a record is
 * a located error. */
static void each_record(char **files, void (*each)(const JVal *rec, void *ctx), void *ctx)
{
	EachRec e = {each, ctx};
	for (char **f = files; *f; f++) {
		Src s;
		src_read(&s, *f);
		each_json_line(&s, check_record, &e);
		src_free(&s);
	}
}

/* ---- --prompts and --references ----------------------------------------- */

/* The declarations of the entries in CODE (a line holding NAME_DEV_forward
 * or _backward followed by '(' up to its ')'). */
static void entries(Buf *b, const char *code, const char *name, const char *dev)
{
	for (int f = 0; f < NFIELD; f++) {
		char key[300];
		snprintf(key, sizeof key, "%s_%s_%s(", name, dev, ev_field_name[f]);
		const char *p = strstr(code, key);
		if (!p)
			continue;
		const char *ls = p;
		while (ls > code && ls[-1] != '\n')
			ls--;
		const char *e = strchr(p, ')');
		if (!e)
			continue;
		buf_put(b, ls, (size_t)(e + 1 - ls));
		buf_puts(b, ";\n");
	}
}

typedef struct Out {
	int refs;
} Out;

static void prompt_of(const JVal *v, void *ctx)
{
	Out *o = ctx;
	const char *id = str_of(v, "id"), *dev = str_of(v, "device"), *name = str_of(v, "name");
	int cuda = !strcmp(dev, "cuda");
	for (int f = 0; f < NFIELD; f++) {
		const char *ref = str_of(v, ev_field_name[f]);
		Buf b = {0}, t = {0};
		buf_puts(&b, "{\"id\": ");
		json_cstr(&b, id);
		buf_printf(&b, ", \"field\": \"%s\", ", ev_field_name[f]);
		if (o->refs) {
			buf_puts(&b, "\"completion\": ");
			json_cstr(&b, ref);
			buf_puts(&b, "}\n");
			fwrite(b.p, 1, b.n, stdout);
			buf_free(&b);
			continue;
		}
		buf_puts(&b, "\"device\": ");
		json_cstr(&b, dev);
		buf_puts(&b, ", \"category\": ");
		json_cstr(&b, str_of(v, "category"));
		buf_printf(&t,
			   "Translate this NVIDIA Warp kernel into %s: its %s.\n\n```python\n%s```\n\n"
			   "The code is one translation unit that includes \"ksynth.h\" (ksynth's runtime "
			   "header: the ks_ types, ks_vec3, ks_array_float and the like, and their helpers) "
			   "and nothing else, and defines %s:\n\n",
			   cuda ? "CUDA C++" : "C11 for the CPU",
			   f == F_FWD ? "forward kernel" : "forward kernel and its reverse-mode adjoint",
			   str_of(v, "source"), f == F_FWD ? "this entry" : "these entries");
		entries(&t, ref, name ? name : "", cuda ? "cuda" : "cpu");
		buf_printf(
			&t,
			"\nThe forward entry computes thread i of the launch for i = 0 .. dim-1 (dim0, dim1, ... for "
			"a launch of more dimensions)%s; parameters in the kernel's order: a scalar by value, a 1-D "
			"array as a pointer to its elements, one of more dimensions as a view { T *data; int "
			"shape[4]; }, row-major.%s\n",
			cuda ? ", as extern \"C\" __global__ code launched over any grid (a grid-stride loop "
			       "over the indices)"
			     : ", one thread after the other",
			f == F_BWD
				? "  The backward entry takes the forward's parameters, then for each float-valued "
				  "parameter an adjoint array (a 1-element array for a scalar): for an array "
				  "the seed on entry, J^T seed on exit; for a scalar, zeroed, it receives the "
				  "gradient summed over all threads.  It reads the arrays as they were before "
				  "the forward run."
				: "");
		buf_puts(&b, ", \"prompt\": ");
		json_str(&b, t.p, t.n);
		buf_puts(&b, "}\n");
		fwrite(b.p, 1, b.n, stdout);
		buf_free(&b);
		buf_free(&t);
	}
}

/* ---- the predictions ------------------------------------------------------ */

typedef struct Book {
	Set ids;
	Rec **r;
	int n;
} Book;

static Rec *rec_of(Book *bk, const char *id)
{
	long *v = vf_set_find(&bk->ids, id, 1);
	if (!*v) {
		bk->r = xrealloc(bk->r, sizeof *bk->r * (size_t)(bk->n + 1));
		Rec *r = calloc(1, sizeof *r);
		if (!r)
			ks_fatal("out of memory");
		r->id = xstrdup(id);
		bk->r[bk->n++] = r;
		*v = bk->n;
	}
	return bk->r[*v - 1];
}

/* One line of the predictions, a sample, into its record's list */
static void add_sample(const JLine *l, void *ctx)
{
	Book *bk = ctx;
	const JVal *v = l->v;
	const Src *s = l->src;
	int line = (int)l->line;
	if (v->kind != J_OBJ)
		ks_error_at(s, line, l->col, "a sample is an object {\"id\", \"field\", \"completion\"}");
	const char *id = str_of(v, "id"), *field = str_of(v, "field"), *code = str_of(v, "completion");
	if (!id || !*id)
		ks_error_at(s, line, l->col, "the sample has no \"id\" string");
	if (!field)
		ks_error_at(s, line, l->col, "the sample has no \"field\" string");
	int f = !strcmp(field, "forward") ? F_FWD : !strcmp(field, "backward") ? F_BWD : -1;
	if (f < 0) {
		const char *q = strstr(l->text, "\"field\"");
		ks_error_at(s, line, q && q < l->text + l->len ? (int)(q - l->text) + 1 : 1,
			    "unknown field \"%.40s\": want \"forward\" or \"backward\"", field);
	}
	if (!code)
		ks_error_at(s, line, l->col, "the sample has no \"completion\" string");
	Rec *r = rec_of(bk, id);
	if (r->n[f] == r->cap[f]) {
		r->cap[f] = r->cap[f] ? 2 * r->cap[f] : 4;
		r->s[f] = xrealloc(r->s[f], sizeof *r->s[f] * (size_t)r->cap[f]);
	}
	const JVal *cv = json_get(v, "completion");
	Sample *sm = &r->s[f][r->n[f]++];
	memset(sm, 0, sizeof *sm);
	sm->code = xmalloc(cv->len + 1);
	memcpy(sm->code, cv->s, cv->len);
	sm->code[cv->len] = 0;
	sm->len = cv->len;
	sm->line = l->line;
}

static void keep_record(const JVal *v, void *ctx)
{
	Book *bk = ctx;
	long *i = vf_set_find(&bk->ids, str_of(v, "id"), 0);
	if (!i || !*i)
		return;
	Rec *r = bk->r[*i - 1];
	if (r->found)
		return;
	r->found = 1;
	const char *name = str_of(v, "name");
	r->name = xstrdup(name ? name : "");
	r->cat = xstrdup(str_of(v, "category"));
	r->dev = xstrdup(str_of(v, "device"));
	r->ir = xstrdup(str_of(v, "ir"));
	for (int f = 0; f < NFIELD; f++)
		r->code[f] = xstrdup(str_of(v, ev_field_name[f]));
}

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static uint64_t mix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

int main(int argc, char **argv)
{
	ks_prog = "keval";
	const char *split = NULL, *arg[2] = {NULL, NULL};
	int mode = 0, nargs = 0, seed_set = 0; /* mode 1: --prompts, 2: --references */
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "-h") || !strcmp(a, "--help"))
			usage(0);
		else if (!strcmp(a, "--prompts"))
			mode = 1;
		else if (!strcmp(a, "--references"))
			mode = 2;
		else if (a[0] == '-' && a[1] == '-' && a[2]) {
			if (!v)
				usage(2);
			char *end;
			errno = 0;
			if (!strcmp(a, "--split"))
				split = v;
			else if (!strcmp(a, "--bin"))
				vf_opt.bin = v;
			else if (!strcmp(a, "--json"))
				ev_opt.json = v;
			else if (!strcmp(a, "--work"))
				ev_opt.work = v;
			else if (!strcmp(a, "--seed")) {
				ev_opt.seed = strtoull(v, &end, 10);
				if (errno || *end || !*v || *v == '-')
					ks_fatal("--seed %s: want an integer in [0, 2^64)", v);
				seed_set = 1;
			} else if (!strcmp(a, "--timeout")) {
				unsigned long t = strtoul(v, &end, 10);
				if (errno || *end || !*v || t < 1 || t > 3600)
					ks_fatal("--timeout %s: want seconds in [1, 3600]", v);
				ev_opt.timeout = (unsigned)t;
			} else
				usage(2);
			i++;
		} else if (nargs < 2)
			arg[nargs++] = a;
		else
			usage(2);
	}
	if (split && strcmp(split, "train") && strcmp(split, "validation") && strcmp(split, "test"))
		ks_fatal("--split %s: want train, validation or test", split);
	if (mode) {
		if (nargs != 1)
			usage(2);
		Out o = {mode == 2};
		char **files = split_files(arg[0], split);
		each_record(files, prompt_of, &o);
		for (char **f = files; *f; f++)
			free(*f);
		free(files);
		fflush(stdout);
		if (ferror(stdout))
			ks_fatal("writing the output:");
		return 0;
	}
	if (nargs != 2)
		usage(2);
	ev_opt.data = arg[0];
	ev_opt.pred = arg[1];
	vf_find_bin();
	double t0 = now_s();

	Book bk = {0};
	Src s;
	src_read(&s, ev_opt.pred);
	each_json_line(&s, add_sample, &bk);
	if (!bk.n)
		ks_fatal("%s: no sample in it", ev_opt.pred);
	char **files = split_files(ev_opt.data, NULL);
	each_record(files, keep_record, &bk);
	for (int i = 0; i < bk.n; i++)
		if (!bk.r[i]->found) {
			Rec *r = bk.r[i];
			long line = r->n[F_FWD] ? r->s[F_FWD][0].line : r->s[F_BWD][0].line;
			if (r->n[F_FWD] && r->n[F_BWD] && r->s[F_BWD][0].line < line)
				line = r->s[F_BWD][0].line;
			ks_error_at(&s, (int)line, 1, "no record \"%.80s\" in %s", r->id, ev_opt.data);
		}

	EvEnv env = {0};
	if (!seed_set) {
		uint64_t x = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
		ev_opt.seed = mix(&x) % 1000000000ULL;
	}
	uint64_t x = ev_opt.seed;
	/* two input seeds that no record used (1 and 2 are the dataset's) */
	env.s1 = 3 + mix(&x) % 1000000000ULL;
	env.s2 = env.s1 + 1 + mix(&x) % 1000ULL;

	const char *work = ev_opt.work;
	if (!work) {
		const char *td = getenv("TMPDIR");
		char *t = vf_pathf("%s/keval.XXXXXX", td && *td ? td : "/tmp");
		if (!mkdtemp(t))
			ks_fatal("%s:", t);
		work = t;
	} else {
		if (mkdir(work, 0777) && errno != EEXIST)
			ks_fatal("%s:", work);
		/* krun runs in a record's folder: the paths given to it are absolute */
		if (work[0] != '/') {
			char cwd[4096];
			if (!getcwd(cwd, sizeof cwd))
				ks_fatal("getcwd:");
			work = vf_pathf("%s/%s", cwd, work);
		}
	}
	vf_probe_cuda(&env.cuda, work);
	for (int i = 0; i < bk.n; i++) {
		char *dir = vf_pathf("%s/r%d", work, i);
		ev_record(bk.r[i], &env, dir);
		free(dir);
	}
	ev_report(bk.r, bk.n, &env, now_s() - t0);
	if (!ev_opt.work) {
		const char *rm[] = {"/bin/rm", "-rf", work, NULL};
		pid_t pid = fork();
		if (pid == 0) {
			execv(rm[0], (char *const *)rm);
			_exit(127);
		}
		int st;
		if (pid > 0)
			waitpid(pid, &st, 0);
	}
	for (int i = 0; i < bk.n; i++) {
		Rec *r = bk.r[i];
		for (int f = 0; f < NFIELD; f++) {
			for (int j = 0; j < r->n[f]; j++) {
				free(r->s[f][j].code);
				free(r->s[f][j].why);
			}
			free(r->s[f]);
			free(r->code[f]);
		}
		free(r->id);
		free(r->name);
		free(r->cat);
		free(r->dev);
		free(r->ir);
		free(r->note);
		free(r);
	}
	free(bk.r);
	vf_set_free(&bk.ids);
	for (char **f = files; *f; f++)
		free(*f);
	free(files);
	if (work != ev_opt.work)
		free((char *)work);
	src_free(&s);
	fflush(stdout);
	if (ferror(stdout))
		ks_fatal("writing the summary:");
	return 0;
}
