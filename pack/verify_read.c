/*
 * verify_read.c: kverify index, the dataset read once into the work
 * folder (verify.h).
 *
 * It reads every line of the split files, stats.json, README.md and
 * rejects.jsonl once.  A record must be well formed (JSON, the fields of
 * doc/dataset.md in order with their types, an id that names its seed,
 * kernel index and device, the category kgen picks for that index, line
 * counts that are the fields', the split its ir_hash gives, an id no
 * other line has); the files must agree (the lines of each split file
 * with stats.json and the card, bytes, categories, line statistics, the
 * plots the card shows).  It writes the work folder: WORK/index.txt, a
 * line per record and per finding; WORK/env, what the shards depend on
 * (the dataset's seed, categories and tools' version, the NVRTC here,
 * whether a GPU runs CUDA here), rewritten only when it changes; and per
 * shard K (the records of kernels [K*S, (K+1)*S)) WORK/K/index.st and
 * each record's source, IR and code under WORK/K/DEVICE/, each file
 * rewritten only when its bytes change, so that Make remakes only the
 * shards whose records changed; WORK/shards lists the shards.
 *
 * A split file is read a line at a time (it may be far larger than
 * memory), each line parsed into an arena of its own; what the later
 * checks need of a record is kept in the Index.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gen/gen.h"
#include "lib/ks.h"
#include "pack/json.h"
#include "pack/record.h"
#include "pack/verify.h"

/* PATH and the folders above it */
static void mkdirs(const char *path)
{
	char *p = xstrdup(path);
	for (char *s = p + 1; *s; s++)
		if (*s == '/') {
			*s = 0;
			mkdir(p, 0777);
			*s = '/';
		}
	if (mkdir(p, 0777) && errno != EEXIST)
		ks_fatal("%s:", p);
	free(p);
}

/* What the index learns of the dataset's parameters (stats.json). */
typedef struct Params {
	unsigned long long seed;
	int seed_known;
	char cats[256], device[16], version[64];
	unsigned mix;
} Params;

typedef struct Index {
	Params par;
	Buf txt;                /* index.txt */
	Buf *shard;             /* per shard with records: its index.st lines */
	long *shard_k, nshard;  /* its number */
	Set shard_of;           /* shard number -> its slot above */
	Set ids, names, hashes; /* id, dev/name -> where (file << 32 | line); dev/hash -> records */
	Set rejects;            /* rejects.jsonl's ids */
	Set broken;             /* the ids of lines that failed before their id was taken */
	char *file[64];         /* the split files read */
	int nfile;
	long lines; /* record lines in the split files */
	long good;  /* well-formed records */
	long split_lines[SPLITS], split_bytes[SPLITS];
	int split_files[SPLITS];
	long cat_split[NCAT][SPLITS];
	long lmin[3], lmax[3];
	double lsum[3];
	int any_cuda;
} Index;

static void finding(Index *x, const char *where, const char *reason, const char *fmt, ...) KS_PRINTF(4, 5);
static void finding(Index *x, const char *where, const char *reason, const char *fmt, ...)
{
	char d[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(d, sizeof d, fmt, ap);
	va_end(ap);
	buf_printf(&x->txt, "F\t%s\t%s\t", where, reason);
	vf_one_line(&x->txt, d);
	buf_putc(&x->txt, '\n');
}

/* A record line's failure here: R <TAB> ID <TAB> WHERE <TAB> CAT <TAB>
 * DEV <TAB> - <TAB> - <TAB> - <TAB> REASON <TAB> DETAIL */
static void bad_record(Index *x, const char *id, const char *where, const char *cat, const char *dev,
		       const char *reason, const char *fmt, ...) KS_PRINTF(7, 8);
static void bad_record(Index *x, const char *id, const char *where, const char *cat, const char *dev,
		       const char *reason, const char *fmt, ...)
{
	char d[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(d, sizeof d, fmt, ap);
	va_end(ap);
	buf_printf(&x->txt, "R\t%s\t%s\t%s\t%s\t-\t-\t-\t%s\t", id, where, cat, dev, reason);
	vf_one_line(&x->txt, d);
	buf_putc(&x->txt, '\n');
	/* a line that names its record: that record is this failure, not missing too */
	if (strcmp(id, "-") && strcmp(where, "-"))
		*vf_set_find(&x->broken, id, 1) = 1;
}

/* The id at the start of a line that did not parse, if it can be read:
 * `{"id": "s1-0000017-cpu"`. */
static void id_of_broken(const char *line, size_t n, char *id, size_t idn)
{
	snprintf(id, idn, "-");
	static const char pre[] = "{\"id\": \"";
	if (n < sizeof pre || memcmp(line, pre, sizeof pre - 1))
		return;
	size_t k = 0;
	const char *p = line + sizeof pre - 1;
	while (k + 1 < idn && p + k < line + n && p[k] != '"' && p[k] > ' ' && p[k] < 0x7f)
		k++;
	if (p + k < line + n && p[k] == '"' && k) {
		memcpy(id, p, k);
		id[k] = 0;
	}
}

static int is_hex16(const char *s)
{
	if (strlen(s) != 16)
		return 0;
	for (; *s; s++)
		if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f')))
			return 0;
	return 1;
}

/* OBJ's keys are exactly KEYS, in order: 1, else a message in WHY. */
static int keys_are(const JVal *obj, const char *const *keys, int n, const char *what, char *why, size_t whyn)
{
	int ok = obj->n == n;
	for (int k = 0; ok && k < n; k++)
		ok = !strcmp(obj->key[k], keys[k]);
	if (ok)
		return 1;
	Buf b = {0};
	for (int k = 0; k < obj->n && b.n < 300; k++)
		buf_printf(&b, "%s%s", k ? ", " : "", obj->key[k]);
	buf_putc(&b, 0);
	Buf w = {0};
	for (int k = 0; k < n; k++)
		buf_printf(&w, "%s%s", k ? ", " : "", keys[k]);
	buf_putc(&w, 0);
	snprintf(why, whyn, "%s has the fields (%s), not (%s)", what, b.p, w.p);
	buf_free(&b);
	buf_free(&w);
	return 0;
}

static const char *kind_name(JKind k)
{
	static const char *n[] = {"null", "a boolean", "a number", "a string", "an array", "an object"};
	return n[k];
}

/* Each FIELD of OBJ has its type (s: string, i: non-negative integer, b:
 * boolean, o: object): 1, else a message in WHY. */
static int types_are(const JVal *obj, const char *const *keys, const char *types, const char *what, char *why,
		     size_t whyn)
{
	for (int k = 0; types[k]; k++) {
		const JVal *v = obj->item[k];
		JKind want = types[k] == 's' ? J_STR : types[k] == 'i' ? J_NUM : types[k] == 'b' ? J_BOOL : J_OBJ;
		if (v->kind != want || (want == J_NUM && (!v->integral || v->i < 0))) {
			snprintf(why, whyn, "%s%s is %s, not %s", what, keys[k], kind_name(v->kind),
				 types[k] == 's'   ? "a string"
				 : types[k] == 'i' ? "a whole number >= 0"
				 : types[k] == 'b' ? "a boolean"
						   : "an object");
			return 0;
		}
	}
	return 1;
}

/* clang-format off */
static const char *const rec_keys[] = {"id", "name", "category", "seed", "source", "ir", "device", "forward", "backward", "meta"};
static const char *const meta_keys[] = {"source_lines", "forward_lines", "backward_lines", "ir_hash", "checks"};
/* clang-format on */
static const char *const check_keys[] = {"compiled", "compiler", "executed", "executed_on", "gradcheck"};

/* One record line: checked, and if it is well formed, its files written
 * to its shard; WHERE names it (FILE:LINE), SP is its file's split. */
static void index_record(Index *x, Arena *a, const char *line, size_t n, int last_no_nl, const char *where,
			 long line_no, int sp)
{
	char id[80], why[1024];
	size_t at;
	int trunc;
	x->lines++;
	id_of_broken(line, n, id, sizeof id);
	if (!n) {
		bad_record(x, id, where, "-", "-", "format", "an empty line");
		return;
	}
	JVal *r = json_parse(a, line, n, why, sizeof why, &at, &trunc);
	if (!r) {
		/* FILE:LINE:COL, the column the byte where the text stops being JSON */
		char at_col[640];
		snprintf(at_col, sizeof at_col, "%s:%zu", where, at + 1);
		if (trunc || last_no_nl)
			bad_record(x, id, at_col, "-", "-", "truncated", "the record is cut short (%zu bytes: %s)",
				   n, why);
		else
			bad_record(x, id, at_col, "-", "-", "format", "not JSON: %s", why);
		return;
	}
	if (r->kind != J_OBJ) {
		bad_record(x, id, where, "-", "-", "format", "%s, not an object", kind_name(r->kind));
		return;
	}
	/* clang-format off */
	if (!keys_are(r, rec_keys, 10, "the record", why, sizeof why) ||
	    !types_are(r, rec_keys, "sssisssss" "o", "", why, sizeof why)) {
		/* clang-format on */
		JVal *i = json_get(r, "id");
		bad_record(x, i && i->kind == J_STR && strlen(i->s) < 64 ? i->s : id, where, "-", "-", "format",
			   "%s", why);
		return;
	}
	const JVal *meta = r->item[9];
	snprintf(id, sizeof id, "%.79s", r->item[0]->s);
	unsigned long long seed, idx;
	int dev;
	const char *name = r->item[1]->s, *cat = r->item[2]->s, *device = r->item[6]->s;
	if (!vf_parse_id(r->item[0]->s, &seed, &idx, &dev) || strlen(r->item[0]->s) >= sizeof id) {
		bad_record(x, "-", where, "-", "-", "format", "the id '%.60s' is not s<SEED>-<INDEX>-<cpu|cuda>",
			   r->item[0]->s);
		return;
	}
	if (!keys_are(meta, meta_keys, 5, "meta", why, sizeof why) ||
	    !types_are(meta, meta_keys, "iiiso", "meta.", why, sizeof why) ||
	    !keys_are(meta->item[4], check_keys, 5, "meta.checks", why, sizeof why) ||
	    !types_are(meta->item[4], check_keys, "bsbsb", "meta.checks.", why, sizeof why)) {
		bad_record(x, id, where, "-", "-", "format", "%s", why);
		return;
	}
	if ((unsigned long long)r->item[3]->i != seed) {
		bad_record(x, id, where, "-", "-", "meta", "seed %lld, and the id says %llu", r->item[3]->i, seed);
		return;
	}
	if (strcmp(device, vf_dev_name[dev])) {
		bad_record(x, id, where, "-", "-", "meta", "device '%.20s', and the id says %s", device,
			   vf_dev_name[dev]);
		return;
	}
	if (x->par.seed_known && seed != x->par.seed) {
		bad_record(x, id, where, "-", vf_dev_name[dev], "meta",
			   "seed %llu; the dataset's is %llu (stats.json)", seed, x->par.seed);
		return;
	}
	if (strcmp(x->par.device, "all") && strcmp(x->par.device, vf_dev_name[dev])) {
		bad_record(x, id, where, "-", vf_dev_name[dev], "meta",
			   "a %s record in a DEVICE=%s dataset (stats.json)", vf_dev_name[dev], x->par.device);
		return;
	}
	if (!vf_is_name(name)) {
		bad_record(x, id, where, "-", vf_dev_name[dev], "format", "the name '%.60s' is not a Python name",
			   name);
		return;
	}
	int c;
	for (c = 0; c < NCAT && strcmp(gen_cat_name[c], cat); c++)
		;
	if (c == NCAT) {
		bad_record(x, id, where, "-", vf_dev_name[dev], "category",
			   "'%.40s' is not one of kgen's categories", cat);
		return;
	}
	int want = gen_pick_category(seed, idx, x->par.mix);
	if (want != c) {
		bad_record(x, id, where, cat, vf_dev_name[dev], "category",
			   "'%s', and kgen's kernel %llu of seed %llu (categories %s) is %s", cat, idx, seed,
			   x->par.cats, gen_cat_name[want]);
		return;
	}
	static const int field[3] = {4, 7, 8};
	long lines[3];
	for (int l = 0; l < 3; l++) {
		const JVal *f = r->item[field[l]];
		lines[l] = count_lines(f->s, f->len);
		if (meta->item[l]->i != lines[l]) {
			bad_record(x, id, where, cat, vf_dev_name[dev], "meta", "meta.%s is %lld; %s has %ld lines",
				   meta_keys[l], meta->item[l]->i, rec_keys[field[l]], lines[l]);
			return;
		}
	}
	const char *hash = meta->item[3]->s;
	if (!is_hex16(hash)) {
		bad_record(x, id, where, cat, vf_dev_name[dev], "meta", "meta.ir_hash '%.40s' is not 16 hex digits",
			   hash);
		return;
	}
	const JVal *ck = meta->item[4];
	const char *on = ck->item[3]->s;
	if (strcmp(on, "none") && strcmp(on, dev ? "sim" : "cpu") && strcmp(on, dev ? "cuda" : "cpu")) {
		bad_record(x, id, where, cat, vf_dev_name[dev], "meta",
			   "meta.checks.executed_on '%.20s' for a %s record", on, vf_dev_name[dev]);
		return;
	}
	if (split_of(hash) != sp) {
		bad_record(x, id, where, cat, vf_dev_name[dev], "split",
			   "in the %s split; its ir_hash %s puts it in %s", split_name[sp], hash,
			   split_name[split_of(hash)]);
		return;
	}
	long *seen = vf_set_find(&x->ids, id, 0), here = (long)(x->nfile - 1) << 32 | (long)line_no;
	if (seen) {
		bad_record(x, id, where, cat, vf_dev_name[dev], "duplicate-id", "the id of %s:%ld as well",
			   x->file[*seen >> 32], *seen & 0xffffffff);
		return;
	}
	*vf_set_find(&x->ids, id, 1) = here;
	char key[300];
	snprintf(key, sizeof key, "%s/%s", vf_dev_name[dev], name);
	seen = vf_set_find(&x->names, key, 0);
	if (seen) {
		bad_record(x, id, where, cat, vf_dev_name[dev], "duplicate-name",
			   "the name %s is that of the %s record at %s:%ld", name, vf_dev_name[dev],
			   x->file[*seen >> 32], *seen & 0xffffffff);
		return;
	}
	*vf_set_find(&x->names, key, 1) = here;

	/* well formed: its shard's files */
	long k = (long)(idx / (unsigned long long)vf_opt.shard), slot;
	char ks[32];
	snprintf(ks, sizeof ks, "%ld", k);
	long *sl = vf_set_find(&x->shard_of, ks, 0);
	if (sl) {
		slot = *sl;
	} else {
		slot = x->nshard++;
		*vf_set_find(&x->shard_of, ks, 1) = slot;
		x->shard = xrealloc(x->shard, sizeof *x->shard * (size_t)x->nshard);
		x->shard_k = xrealloc(x->shard_k, sizeof *x->shard_k * (size_t)x->nshard);
		x->shard[slot] = (Buf){0};
		x->shard_k[slot] = k;
	}
	char *dir = vf_pathf("%s/%ld/%s", vf_opt.work, k, vf_dev_name[dev]);
	mkdirs(dir);
	static const char *const ext[2][4] = {{".py", ".kir", ".f.c", ".b.c"}, {".py", ".kir", ".f.cu", ".b.cu"}};
	static const int fld[4] = {4, 5, 7, 8};
	for (int f = 0; f < 4; f++) {
		char *p = vf_pathf("%s/%s%s", dir, name, ext[dev][f]);
		vf_write_if_changed(p, r->item[fld[f]]->s, r->item[fld[f]]->len);
		free(p);
	}
	free(dir);
	/* ID DEV NAME INDEX CATEGORY IR_HASH CHECKED-ON COMPILED LINE-HASH */
	buf_printf(&x->shard[slot], "%s %s %s %llu %s %s %s %d %016llx\n", id, vf_dev_name[dev], name, idx, cat,
		   hash, on, ck->item[0]->b, (unsigned long long)ks_hash64(line, n, 0));
	buf_printf(&x->txt, "R\t%s\t%s\t%s\t%s\t%ld %ld %ld\t%s\t%ld\tok\n", id, where, cat, vf_dev_name[dev],
		   lines[0], lines[1], lines[2], hash, k);
	x->good++;
	x->any_cuda |= dev == CUDA;
	x->cat_split[c][sp]++;
	for (int l = 0; l < 3; l++) {
		x->lmin[l] = x->good == 1 || lines[l] < x->lmin[l] ? lines[l] : x->lmin[l];
		x->lmax[l] = lines[l] > x->lmax[l] ? lines[l] : x->lmax[l];
		x->lsum[l] += (double)lines[l];
	}
	snprintf(key, sizeof key, "%s/%s", vf_dev_name[dev], hash);
	(*vf_set_find(&x->hashes, key, 1))++;
}

/* A split file: its lines, each a record, read one at a time (a split
 * file may be far larger than memory). */
static void index_file(Index *x, const char *rel, int sp)
{
	char *path = vf_pathf("%s/%s", vf_opt.data, rel);
	struct stat st;
	FILE *f = stat(path, &st) || !S_ISREG(st.st_mode) ? NULL : fopen(path, "rb");
	free(path);
	if (!f) {
		finding(x, rel, "split-file", "not a file that can be read");
		return;
	}
	if (x->nfile == (int)KS_NELEM(x->file)) {
		finding(x, rel, "file", "more than %d split files", x->nfile);
		fclose(f);
		return;
	}
	x->file[x->nfile++] = xstrdup(rel);
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	long ln = 0;
	while ((n = getline(&line, &cap, f)) > 0) {
		int nl = line[n - 1] == '\n';
		char where[600];
		snprintf(where, sizeof where, "%s:%ld", rel, ++ln);
		Arena a = {0};
		index_record(x, &a, line, (size_t)n - (size_t)nl, !nl, where, ln, sp);
		arena_free(&a);
		x->split_lines[sp]++;
		x->split_bytes[sp] += (long)n;
	}
	if (ferror(f))
		finding(x, rel, "split-file", "a read error after line %ld", ln);
	free(line);
	fclose(f);
}

/* The card's counts: `  - name: SPLIT` `    num_bytes: B` `    num_examples: N`
 * under dataset_info's splits, and the table `| SPLIT | N | B |`. */
typedef struct Card {
	int ok;
	long yaml_n[SPLITS], yaml_bytes[SPLITS], table_n[SPLITS], table_bytes[SPLITS];
	int yaml_has[SPLITS], table_has[SPLITS], files_has[SPLITS];
} Card;

static void read_card(Index *x, Card *cd)
{
	char *path = vf_pathf("%s/README.md", vf_opt.data);
	size_t n;
	char *s = vf_slurp(path, &n);
	free(path);
	memset(cd, 0, sizeof *cd);
	if (!s) {
		finding(x, "README.md", "card", "the dataset card is missing");
		return;
	}
	if (strncmp(s, "---\n", 4) || !strstr(s + 4, "\n---\n")) {
		finding(x, "README.md", "card", "the card has no YAML front matter (--- ... ---)");
		free(s);
		return;
	}
	cd->ok = 1;
	char *end = strstr(s + 4, "\n---\n");
	int in_splits = 0, cur = -1;
	for (char *p = s, *nl; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		char l[512];
		size_t ll = (size_t)(nl - p) < sizeof l - 1 ? (size_t)(nl - p) : sizeof l - 1;
		memcpy(l, p, ll);
		l[ll] = 0;
		char w[64];
		long a, b;
		if (p < end) {
			if (!strcmp(l, "  splits:"))
				in_splits = 1;
			else if (strncmp(l, "  - ", 4) && strncmp(l, "    ", 4))
				in_splits = 0, cur = -1;
			if (sscanf(l, "  - split: %63s", w) == 1)
				for (int sp = 0; sp < SPLITS; sp++)
					cd->files_has[sp] |= !strcmp(w, split_name[sp]);
			if (in_splits && sscanf(l, "  - name: %63s", w) == 1) {
				cur = -1;
				for (int sp = 0; sp < SPLITS; sp++)
					if (!strcmp(w, split_name[sp]))
						cur = sp;
				if (cur >= 0)
					cd->yaml_has[cur] = 1;
			}
			if (in_splits && cur >= 0 && sscanf(l, "    num_bytes: %ld", &a) == 1)
				cd->yaml_bytes[cur] = a;
			if (in_splits && cur >= 0 && sscanf(l, "    num_examples: %ld", &a) == 1)
				cd->yaml_n[cur] = a;
		} else {
			if (sscanf(l, "| %63[a-z] | %ld | %ld |", w, &a, &b) == 3)
				for (int sp = 0; sp < SPLITS; sp++)
					if (!strcmp(w, split_name[sp])) {
						cd->table_has[sp] = 1;
						cd->table_n[sp] = a;
						cd->table_bytes[sp] = b;
					}
			/* the plots it shows: ![...](plots/NAME.png) */
			for (char *q = strstr(l, "](plots/"); q; q = strstr(q + 1, "](plots/")) {
				char img[256];
				if (sscanf(q + 2, "%255[^)]", img) != 1)
					continue;
				char *ip = vf_pathf("%s/%s", vf_opt.data, img);
				size_t in;
				char *png = vf_slurp(ip, &in);
				if (!png)
					finding(x, "README.md", "card", "the card shows %s, which is missing", img);
				else if (in < 8 || memcmp(png, "\x89PNG\r\n\x1a\n", 8))
					finding(x, "README.md", "card",
						"the card shows %s, which is not a PNG image", img);
				free(png);
				free(ip);
			}
		}
		if (!*nl)
			break;
	}
	free(s);
}

/* a number as written (NONE when there is none), for a message; four at a time */
static const char *num_text(const JVal *v, const char *none)
{
	static char b[4][64];
	static int k;
	if (!v)
		return none;
	k = (k + 1) % 4;
	snprintf(b[k], sizeof b[k], "%.*s", (int)(v->len < 63 ? v->len : 63), v->text);
	return b[k];
}

static const JVal *num_at(const JVal *v, const char *a, const char *b, const char *c)
{
	v = json_get(v, a);
	if (b)
		v = json_get(v, b);
	if (c)
		v = json_get(v, c);
	return v && v->kind == J_NUM ? v : NULL;
}

/* "NAME:LINE:COL" of byte AT of TEXT, into OUT */
static void text_pos(const char *text, size_t at, const char *name, char *out, size_t outn)
{
	size_t line = 1, col = 1;
	for (size_t i = 0; i < at; i++) {
		if (text[i] == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	snprintf(out, outn, "%s:%zu:%zu", name, line, col);
}

/* stats.json, read before the records: the parameters the records must
 * follow.  NULL when it is missing or not JSON (a finding). */
static JVal *read_stats(Index *x, Arena *a)
{
	char *path = vf_pathf("%s/stats.json", vf_opt.data);
	size_t n;
	char *s = vf_slurp(path, &n);
	free(path);
	if (!s) {
		finding(x, "stats.json", "stats", "stats.json is missing");
		return NULL;
	}
	char why[256], where[64];
	size_t at = 0;
	/* the numbers' text points into the text: it lives as long as the tree */
	char *text = arena_alloc(a, n + 1);
	memcpy(text, s, n + 1);
	free(s);
	JVal *st = json_parse(a, text, n, why, sizeof why, &at, NULL);
	if (!st) {
		text_pos(text, at, "stats.json", where, sizeof where);
		finding(x, where, "stats", "not JSON: %s", why);
		return NULL;
	}
	if (st->kind != J_OBJ) {
		finding(x, "stats.json", "stats", "not a JSON object");
		return NULL;
	}
	JVal *p = json_get(st, "parameters");
	const JVal *seed = num_at(st, "parameters", "seed", NULL);
	JVal *cats = json_get(p, "categories"), *dev = json_get(p, "device"), *ver = json_get(st, "tools_version");
	if (seed && seed->integral && seed->i >= 0) {
		x->par.seed = (unsigned long long)seed->i;
		x->par.seed_known = 1;
	} else {
		finding(x, "stats.json", "stats", "no parameters.seed");
	}
	if (cats && cats->kind == J_STR && cat_mix(cats->s) && strlen(cats->s) < sizeof x->par.cats)
		snprintf(x->par.cats, sizeof x->par.cats, "%s", cats->s);
	else
		finding(x, "stats.json", "stats", "parameters.categories is not kgen's categories");
	if (dev && dev->kind == J_STR &&
	    (!strcmp(dev->s, "cpu") || !strcmp(dev->s, "cuda") || !strcmp(dev->s, "all")))
		snprintf(x->par.device, sizeof x->par.device, "%s", dev->s);
	else
		finding(x, "stats.json", "stats", "parameters.device is not cpu, cuda or all");
	if (ver && ver->kind == J_STR && ver->len && ver->len < sizeof x->par.version &&
	    strspn(ver->s, "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_.-") == ver->len)
		snprintf(x->par.version, sizeof x->par.version, "%s", ver->s);
	return st;
}

/* The counts the card and stats.json give against the files'. */
static void check_counts(Index *x, const JVal *st, const Card *cd)
{
	long total = 0;
	for (int sp = 0; sp < SPLITS; sp++) {
		char rel[128];
		snprintf(rel, sizeof rel, "data/%s-00000-of-00001.jsonl", split_name[sp]);
		long lines = x->split_lines[sp], bytes = x->split_bytes[sp];
		total += lines;
		const JVal *r = num_at(st, "splits", split_name[sp], "records"),
			   *b = num_at(st, "splits", split_name[sp], "bytes");
		if (st && (!r || r->i != lines))
			finding(x, rel, "stats", "%ld records in the %s split; stats.json says %s", lines,
				split_name[sp], num_text(r, "nothing"));
		if (st && (!b || b->i != bytes))
			finding(x, rel, "stats", "%ld bytes in the %s split; stats.json says %s", bytes,
				split_name[sp], num_text(b, "nothing"));
		if (!cd->ok)
			continue;
		if (cd->yaml_n[sp] != lines || cd->yaml_bytes[sp] != bytes)
			finding(x, rel, "card",
				"%ld records, %ld bytes in the %s split; the card's dataset_info says %ld, %ld",
				lines, bytes, split_name[sp], cd->yaml_n[sp], cd->yaml_bytes[sp]);
		if (!cd->table_has[sp] || cd->table_n[sp] != lines || cd->table_bytes[sp] != bytes)
			finding(x, rel, "card",
				"%ld records, %ld bytes in the %s split; the card's table says %ld, %ld", lines,
				bytes, split_name[sp], cd->table_n[sp], cd->table_bytes[sp]);
		if (cd->files_has[sp] != (lines > 0))
			finding(x, rel, "card", "the card's data_files %s the %s split, which has %ld records",
				cd->files_has[sp] ? "list" : "leave out", split_name[sp], lines);
	}
	if (!st)
		return;
	const JVal *r = num_at(st, "records", NULL, NULL);
	if (!r || r->i != total)
		finding(x, "stats.json", "stats", "%ld records in the split files; stats.json says %s", total,
			num_text(r, "nothing"));
	/* by category and split: only where every record was read */
	if (x->good == x->lines) {
		for (int c = 0; c < NCAT; c++) {
			long t = x->cat_split[c][0] + x->cat_split[c][1] + x->cat_split[c][2];
			for (int sp = 0; sp <= SPLITS; sp++) {
				const char *k = sp < SPLITS ? split_name[sp] : "total";
				long have = sp < SPLITS ? x->cat_split[c][sp] : t;
				const JVal *v = num_at(st, "categories", gen_cat_name[c], k);
				if ((t || v) && (!v || v->i != have))
					finding(x, "stats.json", "stats",
						"%ld %s records in %s; stats.json says %s", have, gen_cat_name[c],
						k, num_text(v, "nothing"));
			}
		}
		static const char *lname[3] = {"source", "forward", "backward"};
		for (int l = 0; l < 3 && x->good; l++) {
			const JVal *mn = num_at(st, "lines", lname[l], "min"),
				   *mx = num_at(st, "lines", lname[l], "max"),
				   *mean = num_at(st, "lines", lname[l], "mean");
			double m = x->lsum[l] / (double)x->good;
			if (!mn || !mx || !mean || mn->i != x->lmin[l] || mx->i != x->lmax[l] ||
			    fabs(mean->num - m) > 0.006)
				finding(x, "stats.json", "stats",
					"%s lines: min %ld, max %ld, mean %.2f; stats.json says %s, %s, %s",
					lname[l], x->lmin[l], x->lmax[l], m, num_text(mn, "-"), num_text(mx, "-"),
					num_text(mean, "-"));
		}
	}
}

/* rejects.jsonl: a JSON object per line with the reject's fields, as many
 * as stats.json's rejected. */
static void check_rejects(Index *x, const JVal *st)
{
	char *path = vf_pathf("%s/rejects.jsonl", vf_opt.data);
	size_t n;
	char *s = vf_slurp(path, &n);
	free(path);
	if (!s) {
		finding(x, "rejects.jsonl", "rejects", "rejects.jsonl is missing");
		return;
	}
	long ln = 0;
	static const char *const keys[] = {"id", "name", "category", "reason"};
	for (size_t i = 0; i < n;) {
		size_t e = i;
		while (e < n && s[e] != '\n')
			e++;
		ln++;
		Arena a = {0};
		char why[256], where[64];
		size_t at = 0;
		JVal *r = json_parse(&a, s + i, e - i, why, sizeof why, &at, NULL);
		if (r)
			snprintf(where, sizeof where, "rejects.jsonl:%ld", ln);
		else
			snprintf(where, sizeof where, "rejects.jsonl:%ld:%zu", ln, at + 1);
		if (!r || r->kind != J_OBJ)
			finding(x, where, "rejects", "%s", r ? "not a JSON object" : why);
		else if (!keys_are(r, keys, 4, "the reject", why, sizeof why) ||
			 !types_are(r, keys, "ssss", "", why, sizeof why))
			finding(x, where, "rejects", "%s", why);
		else
			*vf_set_find(&x->rejects, r->item[0]->s, 1) = ln;
		arena_free(&a);
		i = e + 1;
	}
	const JVal *r = num_at(st, "rejected", NULL, NULL);
	if (st && (!r || r->i != ln))
		finding(x, "rejects.jsonl", "rejects", "%ld rejects; stats.json says %s", ln,
			num_text(r, "nothing"));
	free(s);
}

/* Every kernel kgen made for the dataset, [0, generated) of stats.json,
 * is a record (one per device), a reject or a duplicate of an earlier
 * one (stats.json's duplicate_kernels, near_duplicate_kernels and
 * contaminated_kernels): a record that is none of them is
 * missing (a line, or a split file, gone); one of a reject or a duplicate,
 * or past the kernels generated, should not be there. */
static void check_kernels(Index *x, const JVal *st)
{
	const JVal *g = num_at(st, "generated", NULL, NULL), *d = json_get(st, "duplicate_kernels");
	if (!g || !d || d->kind != J_OBJ || !x->par.seed_known)
		return; /* a dataset made before stats.json said which */
	long long gen = g->integral ? g->i : -1;
	if (gen < 0 || gen > 4 * (x->lines + (long long)x->rejects.n) + 1000) {
		finding(x, "stats.json", "stats", "generated: %s kernels, for %ld records and %zu rejects",
			num_text(g, "-"), x->lines, x->rejects.n);
		return;
	}
	Set dup = {0};
	for (int k = 0; k < d->n; k++)
		*vf_set_find(&dup, d->key[k], 1) = k;
	/* near duplicates and kernels like a reference's are dropped alike */
	static const char *const dropped[] = {"near_duplicate_kernels", "contaminated_kernels"};
	for (size_t m = 0; m < KS_NELEM(dropped); m++) {
		const JVal *o = json_get(st, dropped[m]);
		for (int k = 0; o && o->kind == J_OBJ && k < o->n; k++)
			*vf_set_find(&dup, o->key[k], 1) = d->n + k;
	}
	int want[2] = {strcmp(x->par.device, "cuda") != 0, strcmp(x->par.device, "cpu") != 0};
	for (long long i = 0; i < gen; i++) {
		char kid[64], id[80];
		snprintf(kid, sizeof kid, "s%llu-%07lld", x->par.seed, i);
		long *rj = vf_set_find(&x->rejects, kid, 0), *dp = vf_set_find(&dup, kid, 0);
		for (int dev = 0; dev < 2; dev++) {
			if (!want[dev])
				continue;
			snprintf(id, sizeof id, "%s-%s", kid, vf_dev_name[dev]);
			long *w = vf_set_find(&x->ids, id, 0);
			if (!rj && !dp && !w && !vf_set_find(&x->broken, id, 0))
				bad_record(
					x, id, "-",
					gen_cat_name[gen_pick_category(x->par.seed, (uint64_t)i, x->par.mix)],
					vf_dev_name[dev], "missing",
					"kernel %lld is not in the split files, nor a reject (rejects.jsonl) nor a duplicate (stats.json)",
					i);
			else if (w && rj)
				buf_printf(&x->txt,
					   "X\t%s\textra\tkernel %lld is a reject too (rejects.jsonl:%ld)\n", id, i,
					   *rj);
			else if (w && dp)
				buf_printf(
					&x->txt,
					"X\t%s\textra\tkernel %lld is a duplicate too (stats.json's duplicate_kernels)\n",
					id, i);
		}
	}
	for (size_t k = 0; k < x->ids.cap; k++) {
		unsigned long long seed, idx;
		int dev;
		if (x->ids.key[k] && vf_parse_id(x->ids.key[k], &seed, &idx, &dev) &&
		    idx >= (unsigned long long)gen)
			buf_printf(&x->txt,
				   "X\t%s\textra\tkernel %llu is past the %lld kernels generated (stats.json)\n",
				   x->ids.key[k], idx, gen);
	}
	vf_set_free(&dup);
}

/* What checks the CUDA code here: `nvrtc NVRTC 13.0` or `nvrtc none
 * (REASON)`, and `cuda cuda` where krun runs a kernel on a GPU, else
 * `cuda sim (REASON)`. */
static void probe_cuda(Buf *env)
{
	char *dir = vf_pathf("%s/probe", vf_opt.work);
	mkdirs(dir);
	VfCuda c;
	vf_probe_cuda(&c, dir);
	if (c.nvrtc[0])
		buf_printf(env, "nvrtc %s\n", c.nvrtc);
	else
		buf_printf(env, "nvrtc none (%s)\n", c.no_nvrtc);
	if (c.gpu)
		buf_puts(env, "cuda cuda\n");
	else
		buf_printf(env, "cuda sim (%s)\n", c.no_gpu);
	free(dir);
}

static const long *by_shard; /* cmp_shard's keys */
static int cmp_shard(const void *a, const void *b)
{
	long x = by_shard[*(const long *)a], y = by_shard[*(const long *)b];
	return x < y ? -1 : x > y;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int verify_index(void)
{
	if (vf_opt.shard < 1 || vf_opt.shard > 1000000)
		ks_fatal("--shard %ld: want 1 to 1000000 records", vf_opt.shard);
	mkdirs(vf_opt.work);
	vf_find_bin();
	Index x = {0};
	snprintf(x.par.cats, sizeof x.par.cats, "all");
	snprintf(x.par.device, sizeof x.par.device, "all");
	snprintf(x.par.version, sizeof x.par.version, "unknown");
	struct stat dst;
	if (stat(vf_opt.data, &dst) || !S_ISDIR(dst.st_mode))
		finding(&x, vf_opt.data, "file", "not a folder");
	Arena sa = {0};
	JVal *st = read_stats(&x, &sa);
	x.par.mix = cat_mix(x.par.cats);

	/* data/: the split files, SPLIT-NNNNN-of-NNNNN.jsonl, and nothing else */
	char *dpath = vf_pathf("%s/data", vf_opt.data);
	DIR *d = opendir(dpath);
	char **ents = NULL;
	size_t ne = 0;
	if (!d) {
		finding(&x, "data", "split-file", "the folder of the split files is missing");
	} else {
		struct dirent *de;
		while ((de = readdir(d)))
			if (de->d_name[0] != '.') { /* hidden files are no loader's business */
				ents = xrealloc(ents, sizeof *ents * (ne + 1));
				ents[ne++] = xstrdup(de->d_name);
			}
		closedir(d);
		if (ne)
			qsort(ents, ne, sizeof *ents, cmp_str);
	}
	free(dpath);
	for (int sp = 0; sp < SPLITS; sp++)
		for (size_t i = 0; i < ne; i++) {
			char name[64];
			int a, b, used = 0;
			size_t sl = strlen(split_name[sp]);
			if (strncmp(ents[i], split_name[sp], sl) || ents[i][sl] != '-' ||
			    sscanf(ents[i] + sl, "-%5d-of-%5d.jsonl%n", &a, &b, &used) != 2 ||
			    (size_t)used != strlen(ents[i] + sl))
				continue;
			snprintf(name, sizeof name, "data/%s", ents[i]);
			x.split_files[sp]++;
			index_file(&x, name, sp);
			ents[i][0] = 0;
		}
	/* every split has its file (kpack writes the three, empty or not) */
	for (int sp = 0; d && sp < SPLITS; sp++)
		if (!x.split_files[sp]) {
			char rel[128];
			snprintf(rel, sizeof rel, "data/%s-00000-of-00001.jsonl", split_name[sp]);
			const JVal *r = num_at(st, "splits", split_name[sp], "records");
			finding(&x, rel, "split-file", "missing: stats.json counts %s records in the %s split",
				num_text(r, "no"), split_name[sp]);
		}
	for (size_t i = 0; i < ne; i++) {
		if (ents[i][0])
			finding(&x, ents[i], "file", "data/%s is not a split file of the dataset", ents[i]);
		free(ents[i]);
	}
	free(ents);
	Card cd;
	read_card(&x, &cd);
	check_counts(&x, st, &cd);
	check_rejects(&x, st);
	check_kernels(&x, st);
	/* duplicate structural hashes (a figure, not a failure): H <TAB> DEV/HASH <TAB> RECORDS */
	for (size_t i = 0; i < x.hashes.cap; i++)
		if (x.hashes.key[i] && x.hashes.val[i] > 1)
			buf_printf(&x.txt, "H\t%s\t%ld\n", x.hashes.key[i], x.hashes.val[i]);

	/* what the shards depend on */
	Buf env = {0};
	buf_printf(&env, "seed %llu\ncats %s\nversion %s\nshard %ld\nforeign %s\n", x.par.seed, x.par.cats,
		   x.par.version, vf_opt.shard, vf_opt.run_foreign ? "run" : "not run");
	if (x.any_cuda)
		probe_cuda(&env);
	char *p = vf_pathf("%s/env", vf_opt.work);
	vf_write_if_changed(p, env.p, env.n);
	free(p);
	Buf sh = {0};
	long *order = xmalloc(sizeof *order * (size_t)(x.nshard + 1));
	for (long i = 0; i < x.nshard; i++)
		order[i] = i;
	by_shard = x.shard_k;
	qsort(order, (size_t)x.nshard, sizeof *order, cmp_shard);
	for (long o = 0; o < x.nshard; o++) {
		long i = order[o], k = x.shard_k[i];
		/* index.st: the shard's records in kernel order, cpu first */
		char **l = NULL;
		size_t nl = 0;
		buf_putc(&x.shard[i], 0);
		for (char *q = x.shard[i].p, *e; *q; q = e + 1) {
			e = strchr(q, '\n');
			*e = 0;
			l = xrealloc(l, sizeof *l * (nl + 1));
			l[nl++] = q;
		}
		qsort(l, nl, sizeof *l, cmp_str);
		Buf b = {0};
		for (size_t j = 0; j < nl; j++) {
			buf_puts(&b, l[j]);
			buf_putc(&b, '\n');
		}
		free(l);
		p = vf_pathf("%s/%ld/index.st", vf_opt.work, k);
		vf_write_if_changed(p, b.p, b.n);
		free(p);
		buf_free(&b);
		buf_free(&x.shard[i]);
		buf_printf(&sh, "%s%ld", sh.n ? " " : "", k);
	}
	free(order);
	buf_putc(&sh, '\n');
	p = vf_pathf("%s/shards", vf_opt.work);
	out_write_whole(p, sh.p, sh.n);
	free(p);
	p = vf_pathf("%s/index.txt", vf_opt.work);
	out_write_whole(p, x.txt.p, x.txt.n);
	free(p);
	buf_free(&sh);
	buf_free(&env);
	buf_free(&x.txt);
	free(x.shard);
	free(x.shard_k);
	vf_set_free(&x.shard_of);
	vf_set_free(&x.ids);
	vf_set_free(&x.names);
	vf_set_free(&x.broken);
	vf_set_free(&x.hashes);
	vf_set_free(&x.rejects);
	for (int i = 0; i < x.nfile; i++)
		free(x.file[i]);
	arena_free(&sa);
	return 0;
}

/* ---- WORK/env, read back ------------------------------------------------ */

/* WORK/env, as verify_index wrote it */
void vf_read_env(Env *e)
{
	char *p = vf_pathf("%s/env", vf_opt.work);
	size_t n;
	char *s = vf_slurp(p, &n);
	if (!s)
		ks_fatal("%s is missing: run kverify index first", p);
	memset(e, 0, sizeof *e);
	snprintf(e->nvrtc, sizeof e->nvrtc, "none (no CUDA record)");
	snprintf(e->cuda, sizeof e->cuda, "sim (no CUDA record)");
	for (char *l = s, *nl; *l; l = nl + 1) {
		nl = strchr(l, '\n');
		if (!nl)
			break;
		*nl = 0;
		if (!strncmp(l, "seed ", 5))
			e->seed = strtoull(l + 5, NULL, 10);
		else if (!strncmp(l, "cats ", 5))
			snprintf(e->cats, sizeof e->cats, "%s", l + 5);
		else if (!strncmp(l, "version ", 8))
			snprintf(e->version, sizeof e->version, "%s", l + 8);
		else if (!strncmp(l, "nvrtc ", 6))
			snprintf(e->nvrtc, sizeof e->nvrtc, "%s", l + 6);
		else if (!strncmp(l, "cuda ", 5))
			snprintf(e->cuda, sizeof e->cuda, "%s", l + 5);
		else if (!strcmp(l, "foreign run"))
			e->run_foreign = 1;
	}
	e->gpu = !strcmp(e->cuda, "cuda");
	free(s);
	free(p);
}
