/*
 * kpack: assembles the dataset's records (doc/dataset.md).
 *
 *   kpack shard --dir DIR --seed S --cats CATS --device D --check C [-o OUT]
 *   kpack assemble --n N --out DIR --seed S --cats CATS --device D --check C
 *                  [--near J] [--reference SIGS] SHARD...
 *   kpack signatures [-o OUT] FILE.py...
 *   kpack near [--near J] [--reference SIGS] [-v] SIGS...
 *
 * `shard` reads DIR/check.st, the status of every kernel of one shard
 * (`I NAME ok` or `I NAME STAGE: reason`, written by mk/dataset.sh), the
 * NVRTC that checked the shard's CUDA code (DIR/check.nvrtc: `NVRTC 13.0`
 * or `none`) and the files the steps left beside it (NAME.py, NAME.kir,
 * NAME.hash, the emitted NAME.f.c/.b.c/.f.cu/.b.cu), and writes one line
 * per record or reject:
 *     G <TAB> IR_HASH <TAB> INDEX <TAB> CATEGORY <TAB> LINES <TAB> GRAD <TAB> SIG <TAB> JSON
 *     X <TAB> INDEX <TAB> REASON-JSON
 * SIG is the kernel's MinHash signature (pack/near.h).
 * `assemble` reads the shards in kernel order, drops later duplicates of an
 * ir_hash, then kernels like one of the reference's (--reference: the
 * signatures `kpack signatures` wrote for Warp's own kernels, say), then
 * near duplicates of an earlier kernel (--near, default 0.7; none keeps
 * them), keeps the first N good kernels and writes the Hugging Face
 * layout: OUT/data/{train,validation,test}-00000-of-00001.jsonl (split by
 * ir_hash: 90/5/5), OUT/rejects.jsonl, OUT/stats.json and OUT/README.md
 * (the card, which says what checked the records: their meta.checks);
 * with --plots, the data for mk/dataset.gp's plots (DATADIR/categories.dat,
 * lines.dat, gradcheck.dat: the gradient check's worst error over its
 * tolerance per record) and a card that shows OUT/plots/{categories,lines,
 * gradcheck}.png; with --no-plots, a card that says why it has none.
 * stats.json records the tools' version (KS_VERSION, $(O)/gen/version.h:
 * a hash of their sources), which kverify compares with its own.
 * Every file is written under a temporary name and renamed (out_open).
 * `signatures` writes a line per @wp.kernel of each module, `FILE:LINE
 * <TAB> NAME <TAB> SIGNATURE`; `near` takes such lines in order as
 * assemble takes records and counts (-v: names) what it would drop.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gen/gen.h"
#include "lib/ks.h"
#include "pack/json.h"
#include "pack/near.h"
#include "pack/record.h"
#include "version.h"

/* clang-format off */
static const char usage_text[] =
	"usage: kpack shard --dir DIR --seed S --cats CATS --device D --check C [-o OUT]\n"
	"       kpack assemble --n N --out DIR --seed S --cats CATS --device D --check C\n"
	"                      [--near J] [--reference SIGS [--reference-name NAME]]\n"
	"                      [--plots DATADIR | --no-plots REASON] SHARD...\n"
	"       kpack signatures [-o OUT] FILE.py...\n"
	"       kpack near [--near J] [--reference SIGS] [-v] SIGS...\n";
/* clang-format on */

static KS_NORETURN void usage(void)
{
	fputs(usage_text, stderr);
	exit(2);
}

static const char *o_dir, *o_out, *o_plots, *o_noplots, *o_cats = "all", *o_device = "cpu", *o_check = "full";
static const char *o_reference, *o_refname;
static unsigned long long o_seed = 1;
static long o_n = -1;
static double o_near = 0.7;
static int o_verbose;

/* ---- files --------------------------------------------------------- */

/* The whole of DIR/NAME, or NULL when it does not exist. */
static char *slurp(const char *dir, const char *name, size_t *len)
{
	char path[4096];
	if (dir)
		snprintf(path, sizeof path, "%s/%s", dir, name);
	else
		snprintf(path, sizeof path, "%s", name);
	FILE *f = fopen(path, "rb");
	if (!f) {
		if (errno == ENOENT)
			return NULL;
		ks_fatal("%s:", path);
	}
	Buf b = {0};
	char tmp[65536];
	size_t k;
	while ((k = fread(tmp, 1, sizeof tmp, f)) > 0)
		buf_put(&b, tmp, k);
	if (ferror(f))
		ks_fatal("%s:", path);
	fclose(f);
	buf_putc(&b, 0);
	*len = b.n - 1;
	return b.p;
}

static char *need(const char *dir, const char *name, const char *ext, size_t *len)
{
	char f[512];
	snprintf(f, sizeof f, "%s%s", name, ext);
	char *s = slurp(dir, f, len);
	if (!s)
		ks_fatal("%s/%s is missing (was the step before interrupted?)", dir, f);
	return s;
}

/* ---- kpack shard ----------------------------------------------------- */

/* What checked a record's code (its meta.checks): the compile check's
 * compiler, `none` when nothing compiled the code for its device (CUDA
 * code where there was no NVRTC), and where the code was executed. */
typedef struct Checks {
	int compiled, executed, gradcheck;
	const char *compiler, *executed_on;
} Checks;

static Checks record_checks(int cuda, const char *nvrtc)
{
	int full = !strcmp(o_check, "full"), comp = full || !strcmp(o_check, "compile");
	Checks c = {comp, full, full, "none", "none"};
	if (comp && !cuda)
		c.compiler = "cc";
	else if (comp && strcmp(nvrtc, "none"))
		c.compiler = nvrtc;
	else
		c.compiled = 0;
	if (full)
		c.executed_on = cuda ? "sim" : "cpu";
	return c;
}

/* The gradient check's worst figures for a record (its krun --gradcheck
 * record, DIR/NAME.cpu.json: the largest worst_ratio, error over
 * tolerance, and worst_rel of its kernels) as "RATIO REL", or "-" when
 * the check did not run.  A CUDA record's sim gradients equal these byte
 * for byte (mk/dataset.sh, stage agree), so the figures are theirs too. */
static void grad_figures(char *out, size_t n, const char *name)
{
	size_t len;
	char f[512];
	snprintf(f, sizeof f, "%s.cpu.json", name);
	char *s = slurp(o_dir, f, &len);
	double ratio = -1, rel = -1;
	Arena a = {0};
	for (char *line = s; line && *line;) {
		size_t k = strcspn(line, "\n");
		JVal *g = json_get(json_parse(&a, line, k, NULL, 0, NULL, NULL), "gradcheck");
		line += k + (line[k] == '\n');
		JVal *q = json_get(g, "worst_ratio"), *r = json_get(g, "worst_rel");
		if (q && q->kind == J_NUM && q->num > ratio)
			ratio = q->num;
		if (r && r->kind == J_NUM && r->num > rel)
			rel = r->num;
	}
	arena_free(&a);
	free(s);
	if (ratio < 0 || rel < 0)
		snprintf(out, n, "-");
	else
		snprintf(out, n, "%.4g %.4g", ratio, rel);
}

typedef struct Wanted {
	const char *name;
	NearSig sig;
	int found;
} Wanted;

static void take_sig(void *ctx, int line, const char *name, const NearSig *sig)
{
	Wanted *w = ctx;
	(void)line;
	if (!w->found && !strcmp(name, w->name)) {
		w->sig = *sig;
		w->found = 1;
	}
}

static void put_record(Buf *b, const char *hash, unsigned long long idx, const char *cat, const char *name,
		       const char *dev, const Checks *ck, const char *src, size_t srcn, const char *ir, size_t irn,
		       const char *fw, size_t fwn, const char *bw, size_t bwn)
{
	/* the kernel's MinHash signature, for kpack assemble's near
	 * duplicates */
	Wanted w = {name, {{0}}, 0};
	near_kernels(src, srcn, take_sig, &w);
	if (!w.found)
		ks_fatal("%s/%s.py has no @wp.kernel named %s", o_dir, name, name);
	char sig[4 * NEAR_K + 1];
	near_hex(sig, &w.sig);
	long sl = count_lines(src, srcn), fl = count_lines(fw, fwn), bl = count_lines(bw, bwn);
	char grad[64] = "-";
	if (ck->gradcheck)
		grad_figures(grad, sizeof grad, name);
	buf_printf(b, "G\t%s\t%llu\t%s\t%ld %ld %ld\t%s\t%s\t", hash, idx, cat, sl, fl, bl, grad, sig);
	buf_printf(b, "{\"id\": \"s%llu-%07llu-%s\", \"name\": ", o_seed, idx, dev);
	json_cstr(b, name);
	buf_printf(b, ", \"category\": \"%s\", \"seed\": %llu, \"source\": ", cat, o_seed);
	json_str(b, src, srcn);
	buf_puts(b, ", \"ir\": ");
	json_str(b, ir, irn);
	buf_printf(b, ", \"device\": \"%s\", \"forward\": ", dev);
	json_str(b, fw, fwn);
	buf_puts(b, ", \"backward\": ");
	json_str(b, bw, bwn);
	buf_printf(b,
		   ", \"meta\": {\"source_lines\": %ld, \"forward_lines\": %ld, \"backward_lines\": %ld, "
		   "\"ir_hash\": \"%s\", \"checks\": {\"compiled\": %s, \"compiler\": ",
		   sl, fl, bl, hash, ck->compiled ? "true" : "false");
	json_cstr(b, ck->compiler);
	buf_printf(b, ", \"executed\": %s, \"executed_on\": \"%s\", \"gradcheck\": %s}}}\n",
		   ck->executed ? "true" : "false", ck->executed_on, ck->gradcheck ? "true" : "false");
}

/* DIR/check.nvrtc's line: the NVRTC that compiled the shard's CUDA code
 * (`NVRTC 13.0`), or `none`. */
static char *shard_nvrtc(void)
{
	size_t n;
	char *s = slurp(o_dir, "check.nvrtc", &n);
	if (!s)
		ks_fatal("%s/check.nvrtc is missing (was the check step interrupted?)", o_dir);
	s[strcspn(s, "\n")] = 0;
	if (!*s)
		ks_fatal("%s/check.nvrtc is empty", o_dir);
	return s;
}

static int do_shard(void)
{
	if (!o_dir)
		usage();
	unsigned mix = cat_mix(o_cats);
	if (!mix)
		ks_fatal("--cats %s: an unknown category", o_cats);
	size_t stn;
	char *st = slurp(o_dir, "check.st", &stn);
	if (!st)
		ks_fatal("%s/check.st is missing", o_dir);
	/* the CUDA code's compile check names the NVRTC that made it */
	int cuda = strcmp(o_device, "cpu") != 0;
	char *nvrtc = cuda && strcmp(o_check, "none") ? shard_nvrtc() : xstrdup("none");
	Checks ck[2] = {record_checks(0, nvrtc), record_checks(1, nvrtc)};
	Buf b = {0};
	for (char *line = st, *nl; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		if (!nl)
			ks_fatal("%s/check.st: unterminated line", o_dir);
		*nl = 0;
		unsigned long long idx;
		char name[256];
		int used;
		if (sscanf(line, "%llu %255s %n", &idx, name, &used) != 2)
			ks_fatal("%s/check.st: bad line '%s'", o_dir, line);
		const char *status = line + used;
		const char *cat = gen_cat_name[gen_pick_category(o_seed, idx, mix)];
		if (strcmp(status, "ok")) {
			buf_printf(&b, "X\t%llu\t{\"id\": \"s%llu-%07llu\", \"name\": ", idx, o_seed, idx);
			json_cstr(&b, name);
			buf_printf(&b, ", \"category\": \"%s\", \"reason\": ", cat);
			json_cstr(&b, status);
			buf_puts(&b, "}\n");
			continue;
		}
		size_t srcn, irn, hn, fwn, bwn;
		char *src = need(o_dir, name, ".py", &srcn);
		char *ir = need(o_dir, name, ".kir", &irn);
		/* NAME.hash is kfmt --hash's output: `FUNC HASH` per function */
		char *hashes = need(o_dir, name, ".hash", &hn), *hash = NULL;
		size_t namel = strlen(name);
		for (char *p = hashes; *p && !hash; p += strcspn(p, "\n"), p += *p == '\n') {
			if (!strncmp(p, name, namel) && p[namel] == ' ')
				hash = p + namel + 1;
		}
		if (!hash)
			ks_fatal("%s/%s.hash has no line for %s", o_dir, name, name);
		hash[strcspn(hash, "\n")] = 0;
		for (int d = 0; d < 2; d++) {
			const char *dev = d ? "cuda" : "cpu";
			if (strcmp(o_device, "all") && strcmp(o_device, dev))
				continue;
			char *fw = need(o_dir, name, d ? ".f.cu" : ".f.c", &fwn);
			char *bw = need(o_dir, name, d ? ".b.cu" : ".b.c", &bwn);
			put_record(&b, hash, idx, cat, name, dev, &ck[d], src, srcn, ir, irn, fw, fwn, bw, bwn);
			free(fw);
			free(bw);
		}
		free(src);
		free(ir);
		free(hashes);
	}
	FILE *f = out_open(o_out);
	if (b.n)
		fwrite(b.p, 1, b.n, f);
	if (fflush(f) || ferror(f))
		ks_fatal("write error:");
	out_commit();
	buf_free(&b);
	free(st);
	free(nvrtc);
	return 0;
}

/* ---- near duplicates (pack/near.h) ----------------------------------- */

/* --near J: a similarity in (0, 1], or `none` (nothing is dropped as a
 * near duplicate; returned as 2, which no similarity reaches). */
static double near_threshold(const char *s)
{
	if (!strcmp(s, "none"))
		return 2;
	char *e;
	double j = strtod(s, &e);
	if (e == s || *e || !(j > 0 && j <= 1))
		ks_fatal("--near %s: a similarity in (0, 1], or none", s);
	return j;
}

typedef struct SigOut {
	Buf *b;
	const char *file;
} SigOut;

static void put_sig(void *ctx, int line, const char *name, const NearSig *sig)
{
	SigOut *o = ctx;
	char hex[4 * NEAR_K + 1];
	near_hex(hex, sig);
	buf_printf(o->b, "%s:%d\t%s\t%s\n", o->file, line, name, hex);
}

/* kpack signatures: a line per kernel of each file, `FILE:LINE <TAB>
 * NAME <TAB> SIGNATURE`, in the files' order. */
static int do_signatures(int nfiles, char **files)
{
	Buf b = {0};
	for (int i = 0; i < nfiles; i++) {
		size_t n;
		char *s = slurp(NULL, files[i], &n);
		if (!s)
			ks_fatal("%s: no such file", files[i]);
		SigOut o = {&b, files[i]};
		near_kernels(s, n, put_sig, &o);
		free(s);
	}
	FILE *f = out_open(o_out ? o_out : "-");
	fwrite(b.p ? b.p : "", 1, b.n, f);
	if (fflush(f) || ferror(f))
		ks_fatal("write error:");
	out_commit();
	buf_free(&b);
	return 0;
}

/* The signatures of a file kpack signatures wrote: its lines, each cut
 * at its tabs (where, name, signature) into *where and *name (pointing
 * into *text, which the caller frees). */
typedef struct Sigs {
	char *text;
	char **where, **name;
	NearSig *sig;
	long n;
} Sigs;

static void read_sigs(Sigs *g, const char *path)
{
	size_t n;
	memset(g, 0, sizeof *g);
	g->text = slurp(NULL, path, &n);
	if (!g->text)
		ks_fatal("%s: no such file", path);
	Src src;
	src_from_mem(&src, path, g->text, n);
	long cap = 0;
	int line = 1;
	for (char *p = g->text, *nl; *p; p = nl + 1, line++) {
		nl = strchr(p, '\n');
		if (!nl)
			ks_error_at(&src, line, (int)strlen(p) + 1, "an unterminated line");
		*nl = 0;
		char *t1 = strchr(p, '\t'), *t2 = t1 ? strchr(t1 + 1, '\t') : NULL;
		if (g->n == cap) {
			cap = cap ? 2 * cap : 256;
			g->where = xrealloc(g->where, sizeof *g->where * (size_t)cap);
			g->name = xrealloc(g->name, sizeof *g->name * (size_t)cap);
			g->sig = xrealloc(g->sig, sizeof *g->sig * (size_t)cap);
		}
		if (!t2 || !near_unhex(&g->sig[g->n], t2 + 1, strlen(t2 + 1)))
			ks_error_at(&src, line, 1, "not a signature line (WHERE <TAB> NAME <TAB> %d hex digits)",
				    4 * NEAR_K);
		*t1 = *t2 = 0;
		g->where[g->n] = p;
		g->name[g->n++] = t1 + 1;
	}
	src_free(&src);
}

static void free_sigs(Sigs *g)
{
	free(g->text);
	free(g->where);
	free(g->name);
	free(g->sig);
}

/* The index of --reference's kernels (NULL without one). */
static NearIndex *reference_index(Sigs *ref)
{
	if (!o_reference)
		return NULL;
	read_sigs(ref, o_reference);
	NearIndex *ix = near_new(o_near);
	for (long i = 0; i < ref->n; i++)
		near_add(ix, &ref->sig[i], NULL);
	return ix;
}

/* ---- kpack assemble -------------------------------------------------- */

typedef struct Rec {
	char *hash, *cat, *json;
	unsigned long long idx;
	long lines[3];
	double grad_ratio, grad_rel; /* the gradient check's worst figures; < 0: none */
	int split;
} Rec;

enum { HBINS = 12 };

/* ---- what checked the records ---------------------------------------- */

/* Counts by a string value (a compiler, a device), in order of first
 * sight; the strings point into the records. */
enum { TALLY_MAX = 16 };
typedef struct Tally {
	const char *name[TALLY_MAX];
	int len[TALLY_MAX];
	long n[TALLY_MAX];
	int k;
} Tally;

static void tally_add(Tally *t, const char *s, int len)
{
	int i;
	for (i = 0; i < t->k; i++)
		if (t->len[i] == len && !memcmp(t->name[i], s, (size_t)len))
			break;
	if (i == t->k) {
		if (t->k == TALLY_MAX)
			return;
		t->name[t->k] = s;
		t->len[t->k++] = len;
	}
	t->n[i]++;
}

static void tally_json(Buf *b, const Tally *t)
{
	buf_putc(b, '{');
	for (int i = 0; i < t->k; i++) {
		buf_puts(b, i ? ", " : "");
		json_str(b, t->name[i], (size_t)t->len[i]);
		buf_printf(b, ": %ld", t->n[i]);
	}
	buf_putc(b, '}');
}

/* A record's meta.checks as put_record writes it: the text of a string
 * field (its length in *len), and whether a boolean field is true. */
static const char *checks_str(const char *ck, const char *key, int *len)
{
	char pat[64];
	snprintf(pat, sizeof pat, "\"%s\": \"", key);
	const char *p = strstr(ck, pat);
	if (!p)
		ks_fatal("a record's meta.checks has no %s", key);
	p += strlen(pat);
	*len = (int)strcspn(p, "\"");
	return p;
}

static int checks_true(const char *ck, const char *key)
{
	char pat[64];
	snprintf(pat, sizeof pat, "\"%s\": true", key);
	return strstr(ck, pat) != NULL;
}

typedef struct Checked {
	long compiled, executed, gradcheck, cuda;
	Tally compiler, executed_on, cuda_compiler;
} Checked;

static void checked_add(Checked *c, const char *json)
{
	/* meta is the last field and no string holds an unescaped quote */
	const char *ck = strstr(json, "\"meta\": {");
	ck = ck ? strstr(ck, "\"checks\": {") : NULL;
	if (!ck)
		ks_fatal("a record has no meta.checks");
	int len, cuda = strstr(json, "\"device\": \"cuda\"") != NULL;
	c->compiled += checks_true(ck, "compiled");
	c->executed += checks_true(ck, "executed");
	c->gradcheck += checks_true(ck, "gradcheck");
	const char *s = checks_str(ck, "compiler", &len);
	tally_add(&c->compiler, s, len);
	if (cuda) {
		c->cuda++;
		tally_add(&c->cuda_compiler, s, len);
	}
	s = checks_str(ck, "executed_on", &len);
	tally_add(&c->executed_on, s, len);
}

/* The card's words on what checked the CUDA code: never a GPU, and which
 * NVRTC compiled it, or none. */
static void card_cuda(Buf *c, const Checked *k)
{
	const Tally *t = &k->cuda_compiler;
	int full = !strcmp(o_check, "full"), none = !strcmp(o_check, "none");
	buf_puts(c, "### The CUDA code\n\n"
		    "Nothing ran on a GPU: the CUDA code is codegen only.\n");
	if (full)
		buf_puts(c, "It was executed on `sim`, ksynth's host device (the CUDA code compiled as C++\n"
			    "and run on the CPU), whose outputs must equal the C code's\n"
			    "(`meta.checks.executed_on`).\n");
	else
		buf_puts(c, "It was not executed.\n");
	if (none) {
		buf_puts(c, "It was not compiled either (CHECK=none).\n\n");
		return;
	}
	if (t->k == 1 && t->len[0] == 4 && !memcmp(t->name[0], "none", 4)) {
		buf_puts(c, "No CUDA compiler compiled it: there was no NVRTC where the dataset was built,\n"
			    "so `meta.checks.compiled` is false and `compiler` is `none` for every CUDA record\n"
			    "(`make deps` installs NVRTC; `NVRTC=require` stops a build that has none).\n\n");
		return;
	}
	if (t->k == 1) {
		buf_printf(c, "%.*s compiled it to an sm_90 cubin (`meta.checks.compiler`).\n\n", t->len[0],
			   t->name[0]);
		return;
	}
	buf_puts(c, "What compiled it to an sm_90 cubin (`meta.checks.compiler`; `none`: there was no\n"
		    "NVRTC where those records' shards were built, and no CUDA compiler compiled them):\n\n");
	for (int i = 0; i < t->k; i++)
		buf_printf(c, "- %.*s: %ld records\n", t->len[i], t->name[i], t->n[i]);
	buf_putc(c, '\n');
}

/* Has hash H been seen (a kernel index in *FIRST, the first with it)?
 * If not, it is now, with kernel KIDX. */
static int hash_seen(char **set, unsigned long long *idx, size_t cap, const char *h, unsigned long long kidx,
		     unsigned long long *first)
{
	size_t i = ks_hash64(h, strlen(h), 0) & (cap - 1);
	for (; set[i]; i = (i + 1) & (cap - 1))
		if (!strcmp(set[i], h)) {
			*first = idx[i];
			return 1;
		}
	set[i] = (char *)h;
	idx[i] = kidx;
	return 0;
}

static void write_file(const char *path, const Buf *b)
{
	FILE *f = out_open(path);
	if (b->n) /* an empty Buf has no memory: fwrite(NULL) is undefined */
		fwrite(b->p, 1, b->n, f);
	if (fflush(f) || ferror(f))
		ks_fatal("%s: write error:", path);
	out_commit();
}

static const char *size_cat(long n)
{
	return n < 1000      ? "n<1K"
	       : n < 10000   ? "1K<n<10K"
	       : n < 100000  ? "10K<n<100K"
	       : n < 1000000 ? "100K<n<1M"
			     : "1M<n<10M";
}

static int do_assemble(int nfiles, char **files)
{
	if (!o_out || o_n < 0)
		usage();
	int per = !strcmp(o_device, "all") ? 2 : 1;
	size_t cap = 1024;
	while (cap < (size_t)(o_n + 16) * 4 * (size_t)per)
		cap *= 2;
	char **seen = calloc(cap, sizeof *seen);
	unsigned long long *seen_idx = calloc(cap, sizeof *seen_idx);
	if (!seen || !seen_idx)
		ks_fatal("out of memory");
	Buf dupl = {0}; /* "DUPLICATE": "FIRST", the kernels dropped */
	/* near duplicates ("DROPPED": {"of": FIRST, "similarity": J}) and
	 * kernels like one of the reference's, in its own words */
	Buf nearl = {0}, contl = {0};
	long nears = 0, conts = 0, nnear = 0, ncap = 0;
	unsigned long long *near_idx = NULL;
	Sigs ref;
	NearIndex *rix = reference_index(&ref), *nix = near_new(o_near);
	Rec *recs = xmalloc(sizeof *recs * ((size_t)o_n * (size_t)per + 1));
	long nrec = 0, kernels = 0, dups = 0, generated = 0;
	Buf rej = {0};
	/* rejects by reason: the stage word before the colon */
	char *rwhy[64];
	long rcount[64], nwhy = 0, nrej = 0;
	unsigned long long last_idx = ~0ull;
	int taking = 1, kept_last = 0;
	char *blobs[4096];
	int nblobs = 0;
	for (int fi = 0; fi < nfiles && taking; fi++) {
		size_t n;
		char *s = slurp(NULL, files[fi], &n);
		if (!s)
			ks_fatal("%s is missing", files[fi]);
		if (nblobs < (int)KS_NELEM(blobs))
			blobs[nblobs++] = s;
		for (char *line = s, *nl; *line; line = nl + 1) {
			nl = strchr(line, '\n');
			if (!nl)
				ks_fatal("%s: unterminated line", files[fi]);
			*nl = 0;
			char *f[8];
			int k = 0;
			for (char *p = line; k < 8; k++) {
				f[k] = p;
				char *t = k < 7 ? strchr(p, '\t') : NULL;
				if (!t)
					break;
				*t = 0;
				p = t + 1;
			}
			if (line[0] == 'X' && k >= 2) {
				unsigned long long idx = strtoull(f[1], NULL, 10);
				if (kernels >= o_n && idx != last_idx) {
					taking = 0;
					break;
				}
				generated++;
				buf_puts(&rej, f[2]);
				buf_putc(&rej, '\n');
				nrej++;
				/* reason: "STAGE: ..." inside the JSON; take the word after "reason": " */
				const char *r = strstr(f[2], "\"reason\": \"");
				char why[32] = "other";
				if (r)
					sscanf(r + 11, "%31[a-z_-]", why);
				int w;
				for (w = 0; w < nwhy && strcmp(rwhy[w], why); w++)
					;
				if (w == nwhy && nwhy < 64) {
					rwhy[nwhy] = xstrdup(why);
					rcount[nwhy++] = 0;
				}
				if (w < nwhy)
					rcount[w]++;
				continue;
			}
			NearSig sig;
			if (line[0] != 'G' || k != 7 || !near_unhex(&sig, f[6], strlen(f[6])))
				ks_fatal("%s: bad line", files[fi]);
			unsigned long long idx = strtoull(f[2], NULL, 10);
			if (idx != last_idx) {
				if (kernels >= o_n) {
					taking = 0;
					break;
				}
				generated++;
				last_idx = idx;
				unsigned long long first;
				kept_last = !hash_seen(seen, seen_idx, cap, f[1], idx, &first);
				if (!kept_last) {
					buf_printf(&dupl, "%s\"s%llu-%07llu\": \"s%llu-%07llu\"", dups ? ", " : "",
						   o_seed, idx, o_seed, first);
					dups++;
					continue;
				}
				double q;
				long r = rix ? near_find(rix, &sig, &q) : -1;
				if (r >= 0) {
					/* like a kernel of the reference (Warp's own) */
					buf_printf(&contl, "%s\"s%llu-%07llu\": {\"kernel\": ", conts ? ", " : "",
						   o_seed, idx);
					json_cstr(&contl, ref.name[r]);
					buf_puts(&contl, ", \"where\": ");
					json_cstr(&contl, ref.where[r]);
					buf_printf(&contl, ", \"similarity\": %.3f}", q);
					conts++;
					kept_last = 0;
					continue;
				}
				long c = near_add(nix, &sig, &q);
				if (nnear == ncap) {
					ncap = ncap ? 2 * ncap : 1024;
					near_idx = xrealloc(near_idx, sizeof *near_idx * (size_t)ncap);
				}
				near_idx[nnear++] = idx;
				if (c >= 0) {
					buf_printf(
						&nearl,
						"%s\"s%llu-%07llu\": {\"of\": \"s%llu-%07llu\", \"similarity\": %.3f}",
						nears ? ", " : "", o_seed, idx, o_seed, near_idx[c], q);
					nears++;
					kept_last = 0;
					continue;
				}
				kernels++;
			}
			if (!kept_last)
				continue;
			Rec *r = &recs[nrec++];
			r->hash = f[1];
			r->idx = idx;
			r->cat = f[3];
			sscanf(f[4], "%ld %ld %ld", &r->lines[0], &r->lines[1], &r->lines[2]);
			r->grad_ratio = r->grad_rel = -1;
			sscanf(f[5], "%lf %lf", &r->grad_ratio, &r->grad_rel);
			r->json = f[7];
			r->split = split_of(f[1]);
		}
	}
	if (kernels < o_n) {
		fprintf(stderr,
			"kpack: only %ld good kernels of %ld generated (%ld rejected, %ld duplicates, %ld near "
			"duplicates, %ld like a reference kernel); N=%ld needs a larger MARGIN\n",
			kernels, generated, nrej, dups, nears, conts, o_n);
		return 1;
	}
	char path[4096];
	snprintf(path, sizeof path, "%s/data", o_out);
	mkdir(o_out, 0777);
	mkdir(path, 0777);
	long count[SPLITS] = {0}, bytes[SPLITS] = {0};
	for (int sp = 0; sp < SPLITS; sp++) {
		Buf b = {0};
		for (long i = 0; i < nrec; i++)
			if (recs[i].split == sp) {
				buf_puts(&b, recs[i].json);
				buf_putc(&b, '\n');
				count[sp]++;
			}
		bytes[sp] = (long)b.n;
		snprintf(path, sizeof path, "%s/data/%s-00000-of-00001.jsonl", o_out, split_name[sp]);
		write_file(path, &b);
		buf_free(&b);
	}
	snprintf(path, sizeof path, "%s/rejects.jsonl", o_out);
	write_file(path, &rej);

	/* stats.json */
	Buf st = {0};
	buf_printf(&st,
		   "{\"records\": %ld, \"kernels\": %ld, \"generated\": %ld, \"duplicates\": %ld, "
		   "\"near_duplicates\": %ld, \"contaminated\": %ld, \"rejected\": %ld,\n \"parameters\": {\"n\": "
		   "%ld, \"seed\": %llu, \"categories\": ",
		   nrec, kernels, generated, dups, nears, conts, nrej, o_n, o_seed);
	json_cstr(&st, o_cats);
	buf_printf(&st, ", \"device\": \"%s\", \"check\": \"%s\", \"near\": ", o_device, o_check);
	if (o_near > 1)
		buf_puts(&st, "\"none\"");
	else
		buf_printf(&st, "%g", o_near);
	buf_puts(&st, ", \"reference\": ");
	if (o_reference)
		json_cstr(&st, o_refname ? o_refname : o_reference);
	else
		buf_puts(&st, "null");
	buf_puts(&st, "},\n \"splits\": {");
	for (int sp = 0; sp < SPLITS; sp++)
		buf_printf(&st, "%s\"%s\": {\"records\": %ld, \"bytes\": %ld}", sp ? ", " : "", split_name[sp],
			   count[sp], bytes[sp]);
	buf_puts(&st, "},\n \"categories\": {");
	long ccount[NCAT][SPLITS] = {{0}};
	for (long i = 0; i < nrec; i++)
		for (int c = 0; c < NCAT; c++)
			if (!strcmp(recs[i].cat, gen_cat_name[c]))
				ccount[c][recs[i].split]++;
	int first = 1;
	for (int c = 0; c < NCAT; c++) {
		long t = ccount[c][0] + ccount[c][1] + ccount[c][2];
		if (!t)
			continue;
		buf_printf(&st, "%s\"%s\": {\"train\": %ld, \"validation\": %ld, \"test\": %ld, \"total\": %ld}",
			   first ? "" : ", ", gen_cat_name[c], ccount[c][0], ccount[c][1], ccount[c][2], t);
		first = 0;
	}
	buf_puts(&st, "},\n \"lines\": {");
	static const char *lname[3] = {"source", "forward", "backward"};
	for (int l = 0; l < 3; l++) {
		long mn = -1, mx = 0, sum = 0;
		long hist[HBINS] = {0};
		for (long i = 0; i < nrec; i++) {
			long v = recs[i].lines[l];
			mn = mn < 0 || v < mn ? v : mn;
			mx = v > mx ? v : mx;
			sum += v;
		}
		long width = mx / HBINS + 1;
		for (long i = 0; i < nrec; i++)
			hist[recs[i].lines[l] / width]++;
		buf_printf(
			&st,
			"%s\"%s\": {\"min\": %ld, \"max\": %ld, \"mean\": %.2f, \"bin_width\": %ld, \"histogram\": [",
			l ? ", " : "", lname[l], mn < 0 ? 0 : mn, mx, nrec ? (double)sum / (double)nrec : 0.0,
			width);
		for (int h = 0; h < HBINS; h++)
			buf_printf(&st, "%s%ld", h ? ", " : "", hist[h]);
		buf_puts(&st, "]}");
	}
	int full = !strcmp(o_check, "full"), comp = full || !strcmp(o_check, "compile");
	Checked ck = {0};
	for (long i = 0; i < nrec; i++)
		checked_add(&ck, recs[i].json);
	double share = nrec ? 1.0 / (double)nrec : 0.0;
	buf_printf(&st, "},\n \"checks\": {\"compiled\": %.4f, \"executed\": %.4f, \"gradcheck\": %.4f, ",
		   (double)ck.compiled * share, (double)ck.executed * share, (double)ck.gradcheck * share);
	buf_puts(&st, "\"compiler\": ");
	tally_json(&st, &ck.compiler);
	buf_puts(&st, ", \"executed_on\": ");
	tally_json(&st, &ck.executed_on);
	buf_printf(&st, ",\n  \"kernels_checked\": %ld, \"kernels_passed\": %ld, \"pass_rate\": %.4f},\n",
		   kernels + dups + nrej, kernels + dups,
		   generated ? (double)(kernels + dups) / (double)(kernels + dups + nrej) : 0.0);
	/* the gradient check's worst figures by category (records that ran it) */
	double gratio[NCAT] = {0}, grel[NCAT] = {0};
	long gn[NCAT] = {0}, gall = 0;
	for (long i = 0; i < nrec; i++)
		for (int c = 0; c < NCAT; c++)
			if (recs[i].grad_ratio >= 0 && !strcmp(recs[i].cat, gen_cat_name[c])) {
				gratio[c] =
					gn[c] && gratio[c] > recs[i].grad_ratio ? gratio[c] : recs[i].grad_ratio;
				grel[c] = gn[c] && grel[c] > recs[i].grad_rel ? grel[c] : recs[i].grad_rel;
				gn[c]++;
				gall++;
			}
	buf_puts(&st, " \"gradcheck\": {");
	first = 1;
	for (int c = 0; c < NCAT; c++)
		if (gn[c]) {
			buf_printf(&st, "%s\"%s\": {\"records\": %ld, \"worst_ratio\": %.4g, \"worst_rel\": %.4g}",
				   first ? "" : ", ", gen_cat_name[c], gn[c], gratio[c], grel[c]);
			first = 0;
		}
	buf_puts(&st, "},\n \"rejects\": {");
	for (int w = 0; w < nwhy; w++)
		buf_printf(&st, "%s\"%s\": %ld", w ? ", " : "", rwhy[w], rcount[w]);
	buf_puts(&st, "},\n \"duplicate_kernels\": {");
	if (dupl.n)
		buf_put(&st, dupl.p, dupl.n);
	buf_puts(&st, "},\n \"near_duplicate_kernels\": {");
	if (nearl.n)
		buf_put(&st, nearl.p, nearl.n);
	buf_puts(&st, "},\n \"contaminated_kernels\": {");
	if (contl.n)
		buf_put(&st, contl.p, contl.n);
	buf_puts(&st, "},\n \"tools_version\": \"" KS_VERSION "\"}\n");
	snprintf(path, sizeof path, "%s/stats.json", o_out);
	write_file(path, &st);
	buf_free(&st);

	/* README.md: the dataset card */
	Buf c = {0};
	buf_puts(&c, "---\nlicense: mit\ntask_categories:\n- text-generation\n- translation\n"
		     "tags:\n- code\n- cuda\n- autodiff\n- warp\n");
	buf_printf(&c, "size_categories:\n- %s\nconfigs:\n- config_name: default\n  data_files:\n", size_cat(nrec));
	/* an empty split is left out of the card: `datasets` refuses one */
	for (int sp = 0; sp < SPLITS; sp++)
		if (count[sp])
			buf_printf(&c, "  - split: %s\n    path: data/%s-*.jsonl\n", split_name[sp],
				   split_name[sp]);
	buf_puts(&c, "dataset_info:\n  features:\n");
	static const char *strf[] = {"id", "name", "category", "source", "ir", "device", "forward", "backward"};
	for (size_t i = 0; i < KS_NELEM(strf); i++)
		buf_printf(&c, "  - name: %s\n    dtype: string\n", strf[i]);
	buf_puts(&c,
		 "  - name: seed\n    dtype: int64\n  - name: meta\n    struct:\n"
		 "    - name: source_lines\n      dtype: int64\n    - name: forward_lines\n      dtype: int64\n"
		 "    - name: backward_lines\n      dtype: int64\n    - name: ir_hash\n      dtype: string\n"
		 "    - name: checks\n      struct:\n      - name: compiled\n        dtype: bool\n"
		 "      - name: compiler\n        dtype: string\n"
		 "      - name: executed\n        dtype: bool\n      - name: executed_on\n        dtype: string\n"
		 "      - name: gradcheck\n        dtype: bool\n"
		 "  splits:\n");
	long total = 0;
	for (int sp = 0; sp < SPLITS; sp++) {
		if (count[sp])
			buf_printf(&c, "  - name: %s\n    num_bytes: %ld\n    num_examples: %ld\n", split_name[sp],
				   bytes[sp], count[sp]);
		total += bytes[sp];
	}
	buf_printf(&c, "  download_size: %ld\n  dataset_size: %ld\n---\n\n", total, total);
	buf_printf(&c,
		   "# ksynth kernels (%s)\n\n"
		   "%ld records: Warp-style Python kernels, each with its typed IR and the code ksynth\n"
		   "generates for it on the `%s` device%s — the forward kernel and, in `backward`,\n"
		   "the forward kernel with its exact reverse-mode adjoint.  Both are complete\n"
		   "translation units that compile against ksynth's runtime header alone.\n\n",
		   o_device, nrec, o_device, per == 2 ? "s (one record per device)" : "");
	buf_printf(&c,
		   "## How it was made\n\n"
		   "`make dataset N=%ld DEVICE=%s SEED=%llu CATEGORIES=%s CHECK=%s` in ksynth.\n"
		   "`kgen` wrote kernel I from (seed, category, I) alone; `kparse` turned it into IR,\n"
		   "`kdiff` added the adjoint, `kemit-cpu` and `kemit-cu` wrote C and CUDA.\n"
		   "The build runs in shards that Make tracks, and gives the same bytes whatever\n"
		   "`-j` and shard size.  Kernels are taken in index order; one whose IR has the\n"
		   "structural hash (`kfmt --hash`) of an earlier one is dropped (%ld dropped),\n"
		   "and the split (train/validation/test, 90/5/5) is chosen from that hash.\n"
		   "The tools' version, a hash of their sources, is `%s` (`stats.json`'s\n"
		   "`tools_version`): `make verify` checks the code against it.\n\n",
		   o_n, o_device, o_seed, o_cats, o_check, dups, KS_VERSION);
	if (o_near <= 1)
		buf_printf(&c,
			   "Near duplicates are dropped too: a kernel whose text is like an earlier one's,\n"
			   "a MinHash estimate of the Jaccard similarity of their 5-token shingles (names\n"
			   "renamed in order, numbers and strings as placeholders) of at least %g\n"
			   "(%ld dropped; `stats.json`'s `near_duplicate_kernels` names the earlier one).\n",
			   o_near, nears);
	else
		buf_puts(&c, "Near duplicates were kept (NEAR=none).\n");
	if (o_reference)
		buf_printf(&c,
			   "A kernel as like one of %s was dropped as well, so that a\n"
			   "model trained here is not evaluated on what it saw (%ld dropped; `stats.json`'s\n"
			   "`contaminated_kernels` names the kernel each was like).\n\n",
			   o_refname ? o_refname : o_reference, conts);
	else
		buf_puts(&c, "No record was compared with a reference set of kernels (DECONTAM=none).\n\n");
	int cuda = strcmp(o_device, "cpu") != 0;
	buf_printf(&c, "## How it was verified (CHECK=%s)\n\n", o_check);
	if (full)
		buf_puts(&c, "Every kernel's C code was compiled (with libtcc or cc) and executed on seeded\n"
			     "inputs by `krun`, with finite outputs, and its backward kernel passed\n"
			     "`krun --gradcheck` against central finite differences in double precision.\n");
	else if (comp)
		buf_puts(&c, "Every kernel's C code was compiled (with libtcc or cc); it was not executed.\n");
	else
		buf_puts(&c, "The code was not checked.\n");
	buf_puts(&c, cuda && comp ? "The CUDA code was checked as the next section says.\n\n" : "\n");
	if (ck.cuda)
		card_cuda(&c, &ck);
	buf_printf(&c,
		   "%ld of %ld generated kernels failed a check and are listed with the reason\n"
		   "in `rejects.jsonl`; `meta.checks` says which checks each record passed, with\n"
		   "what compiler and on what device.\n\n",
		   nrej, generated);
	buf_puts(&c, "## Splits\n\n| split | records | bytes |\n|---|---|---|\n");
	for (int sp = 0; sp < SPLITS; sp++)
		buf_printf(&c, "| %s | %ld | %ld |\n", split_name[sp], count[sp], bytes[sp]);
	if (o_plots) {
		Buf d = {0};
		for (int cc = 0; cc < NCAT; cc++) {
			long t = ccount[cc][0] + ccount[cc][1] + ccount[cc][2];
			if (t)
				buf_printf(&d, "%s %ld\n", gen_cat_name[cc], t);
		}
		snprintf(path, sizeof path, "%s/categories.dat", o_plots);
		write_file(path, &d);
		d.n = 0;
		for (long i = 0; i < nrec; i++)
			buf_printf(&d, "%ld %ld %ld\n", recs[i].lines[0], recs[i].lines[1], recs[i].lines[2]);
		snprintf(path, sizeof path, "%s/lines.dat", o_plots);
		write_file(path, &d);
		d.n = 0;
		for (long i = 0; i < nrec; i++)
			if (recs[i].grad_ratio >= 0)
				buf_printf(&d, "%.4g\n", recs[i].grad_ratio);
		snprintf(path, sizeof path, "%s/gradcheck.dat", o_plots);
		write_file(path, &d);
		buf_free(&d);
		buf_puts(&c, "\n## Plots\n\n![records per category](plots/categories.png)\n\n"
			     "![source, forward and backward lines per record](plots/lines.png)\n\n");
		if (gall)
			buf_puts(
				&c,
				"![the gradient check's worst error over its tolerance, per record](plots/gradcheck.png)\n");
		else
			buf_printf(&c, "No gradient-check plot: CHECK=%s ran no gradient check.\n", o_check);
	} else if (o_noplots) {
		buf_printf(&c, "\n## Plots\n\nNo plots: %s.\n", o_noplots);
	}
	buf_puts(&c, "\n`stats.json` holds the counts by category and split, line-count histograms,\n"
		     "pass rates and rejects by reason.\n\n## Loading\n\n"
		     "    from datasets import load_dataset\n"
		     "    ds = load_dataset(\"json\", data_files={\"train\": \"data/train-*.jsonl\"})\n");
	snprintf(path, sizeof path, "%s/README.md", o_out);
	write_file(path, &c);
	buf_free(&c);
	buf_free(&rej);
	for (int i = 0; i < nblobs; i++)
		free(blobs[i]);
	free(recs);
	free(seen);
	free(seen_idx);
	buf_free(&dupl);
	buf_free(&nearl);
	buf_free(&contl);
	free(near_idx);
	near_free(nix);
	if (rix) {
		near_free(rix);
		free_sigs(&ref);
	}
	for (int w = 0; w < nwhy; w++)
		free(rwhy[w]);
	return 0;
}

/* kpack near: the kernels of SIGS taken in order, as make dataset takes
 * them: how many near-duplicate one before them, and (--reference) how
 * many one of the reference's; -v names each. */
static int do_near(int nfiles, char **files)
{
	Sigs ref;
	NearIndex *rix = reference_index(&ref), *ix = near_new(o_near);
	long total = 0, near = 0, contaminated = 0, clusters = 0;
	for (int fi = 0; fi < nfiles; fi++) {
		Sigs g;
		read_sigs(&g, files[fi]);
		for (long i = 0; i < g.n; i++, total++) {
			double q;
			long r = rix ? near_find(rix, &g.sig[i], &q) : -1;
			if (r >= 0) {
				contaminated++;
				if (o_verbose)
					printf("contaminated\t%s\t%s\t%s %s\t%.3f\n", g.where[i], g.name[i],
					       ref.where[r], ref.name[r], q);
				continue;
			}
			long c = near_add(ix, &g.sig[i], &q);
			if (c < 0)
				clusters++;
			else {
				near++;
				if (o_verbose)
					printf("near\t%s\t%s\tkernel %ld\t%.3f\n", g.where[i], g.name[i], c, q);
			}
		}
		free_sigs(&g);
	}
	double pct = total ? 100.0 * (double)near / (double)total : 0.0;
	printf("kernels %ld near_duplicates %ld (%.1f%%) clusters %ld", total, near, pct, clusters);
	if (rix)
		printf(" contaminated %ld (%.1f%%)", contaminated,
		       total ? 100.0 * (double)contaminated / (double)total : 0.0);
	printf(" threshold %g\n", o_near);
	near_free(ix);
	if (rix) {
		near_free(rix);
		free_sigs(&ref);
	}
	return 0;
}

int main(int argc, char **argv)
{
	ks_prog = "kpack";
	if (argc < 2)
		usage();
	const char *cmd = argv[1];
	int nfiles = 0;
	char **files = xmalloc(sizeof *files * (size_t)argc);
	for (int i = 2; i < argc; i++) {
		const char *a = argv[i];
		int has = i + 1 < argc;
		if (!strcmp(a, "--dir") && has)
			o_dir = argv[++i];
		else if ((!strcmp(a, "-o") || !strcmp(a, "--out")) && has)
			o_out = argv[++i];
		else if (!strcmp(a, "--seed") && has)
			o_seed = strtoull(argv[++i], NULL, 10);
		else if (!strcmp(a, "--cats") && has)
			o_cats = argv[++i];
		else if (!strcmp(a, "--device") && has)
			o_device = argv[++i];
		else if (!strcmp(a, "--check") && has)
			o_check = argv[++i];
		else if (!strcmp(a, "--plots") && has)
			o_plots = argv[++i];
		else if (!strcmp(a, "--no-plots") && has)
			o_noplots = argv[++i];
		else if (!strcmp(a, "--n") && has)
			o_n = strtol(argv[++i], NULL, 10);
		else if (!strcmp(a, "--near") && has)
			o_near = near_threshold(argv[++i]);
		else if (!strcmp(a, "--reference") && has)
			o_reference = argv[++i];
		else if (!strcmp(a, "--reference-name") && has)
			o_refname = argv[++i];
		else if (!strcmp(a, "-v"))
			o_verbose = 1;
		else if (a[0] == '-' && a[1])
			usage();
		else
			files[nfiles++] = argv[i];
	}
	int rc;
	if (!strcmp(cmd, "shard") && !nfiles)
		rc = do_shard();
	else if (!strcmp(cmd, "assemble"))
		rc = do_assemble(nfiles, files);
	else if (!strcmp(cmd, "signatures") && nfiles)
		rc = do_signatures(nfiles, files);
	else if (!strcmp(cmd, "near") && nfiles)
		rc = do_near(nfiles, files);
	else
		usage();
	free(files);
	return rc;
}
