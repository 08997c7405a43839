/*
 * verify.h: kverify's internals, shared by its files (doc/dataset.md,
 * "make verify"):
 *
 *   verify_util.c      the options, files and paths, a string set, record
 *                      ids, running a tool
 *   verify_read.c      kverify index: the dataset read and checked once,
 *                      the work folder written (WORK/env, WORK/K/...)
 *   verify_shard.c     kverify shard: one shard's records, its K.ver; and
 *                      the shards of `kverify DATASET`, N at a time
 *   verify_rederive.c  a shard's records made again by the tools
 *   verify_run.c       a shard's records' own code compiled and run by
 *                      krun, confined
 *   verify_report.c    kverify report: the failures, the summary,
 *                      verify.json
 *
 * The steps talk through the work folder alone: index writes it, shard
 * reads a shard's part and writes K.ver, report reads index.txt and every
 * K.ver; a step's state lives in its file.
 */
#ifndef PACK_VERIFY_H
#define PACK_VERIFY_H

#include <stddef.h>

#include "lib/ks.h"

/* kverify's options: main sets them, the steps read them */
typedef struct VfOpts {
	const char *work, *bin, *json, *data;
	int run_foreign; /* --run-foreign: run code that is not these tools' */
	long shard, jobs;
} VfOpts;
extern VfOpts vf_opt;

/* ---- verify_util.c ---------------------------------------------------- */

/* The whole of PATH, or NULL when it is not a regular file that can be
 * read (the dataset's files may be anything). */
char *vf_slurp(const char *path, size_t *len);
char *vf_pathf(const char *fmt, ...) KS_PRINTF(1, 2);

/* TEXT cut to one line of at most 200 bytes, control characters as spaces */
void vf_one_line(Buf *b, const char *s);

/* A set of strings (ids, names) with a value each, open addressing. */
typedef struct Set {
	char **key;
	long *val;
	size_t cap, n;
} Set;

/* K's value, or NULL when K is not in S; ADD puts it in (value 0). */
long *vf_set_find(Set *s, const char *k, int add);
void vf_set_free(Set *s);

/* The folder of the tools: --bin, else kverify's own (vf_find_bin). */
extern char vf_bin_dir[4096];
void vf_find_bin(void);

/* Run ARGV (ARGV[0] a tool's name, found in vf_bin_dir) in folder CWD,
 * its stdout to OUT and stderr to ERR (NULL: /dev/null); its exit
 * status, or 128 + the signal that ended it. */
int vf_run(const char *cwd, const char *const *argv, const char *out, const char *err);

/* The first non-blank line of file PATH (a failed run's reason). */
char *vf_first_line_of(const char *path);

/* Write P[0 .. N) to PATH unless it holds those bytes already (so that
 * its time stamp says when its content last changed). */
void vf_write_if_changed(const char *path, const char *p, size_t n);

/* What runs CUDA code here, as krun finds it from folder DIR (which
 * exists; the probe's files are left there): the NVRTC it compiles with
 * (`NVRTC 13.0`, else "" and why none), and whether a one-line kernel
 * runs on a GPU (else why not).  kverify and keval both ask it. */
typedef struct VfCuda {
	char nvrtc[300], no_nvrtc[300];
	int gpu;
	char no_gpu[300];
} VfCuda;
void vf_probe_cuda(VfCuda *c, const char *dir);

/* The status lines of a batch (`KEY ok` | `KEY error: REASON`): KEY's
 * reason, "" for ok, or NULL when the batch gave KEY no line. */
char *vf_status_of(const char *st, const char *key);

/* free WHY[0 .. N) and set them NULL */
void vf_free_why(char **why, int n);

enum { CPU, CUDA };
extern const char *const vf_dev_name[2]; /* cpu, cuda */

int vf_is_name(const char *s);

/* id = s<SEED>-<INDEX, 7 digits or more>-<cpu|cuda> */
int vf_parse_id(const char *id, unsigned long long *seed, unsigned long long *idx, int *dev);

/* ---- verify_read.c ---------------------------------------------------- */

/* WORK/env, as the index wrote it */
typedef struct Env {
	unsigned long long seed;
	char cats[256], version[64], nvrtc[300], cuda[300];
	int gpu;         /* krun runs CUDA on a GPU here */
	int run_foreign; /* foreign code is run (--run-foreign) */
} Env;

void vf_read_env(Env *e);

/* kverify index: 0 (what it finds goes to WORK/index.txt) */
int verify_index(void);

/* ---- verify_shard.c --------------------------------------------------- */

/* A record of the shard, as WORK/K/index.st gives it, and what is found */
typedef struct VRec {
	char id[80], name[256], cat[32], hash[32], on[16];
	unsigned long long idx, seed;
	int dev, src_ok, have_dkir;
	int foreign_f, foreign_b; /* its forward, backward code is not these tools' */
	Buf out;                  /* its lines of K.ver */
} VRec;

/* the record fails a check */
void vf_rec_fail(VRec *r, const char *reason, const char *fmt, ...) KS_PRINTF(3, 4);
/* a field is not what these tools make of it: a failure when the dataset
 * was made by these tools, else a difference, reported */
void vf_rec_code(VRec *r, const char *field, const char *fmt, ...) KS_PRINTF(3, 4);
/* a check that cannot be made here */
void vf_rec_skip(VRec *r, const char *check, const char *fmt, ...) KS_PRINTF(3, 4);

/* The coverage counts of the shard's records, rows in kgen's order. */
typedef struct Cov {
	char **row;
	unsigned long long *count;
	int n;
} Cov;

/* kverify shard K: 0 (what it finds goes to WORK/K.ver) */
int verify_shard(long k);

/* kverify shard on the shards WORK/shards lists, vf_opt.jobs at a time,
 * each in a child: EVERY one, else those whose K.ver is not up to date;
 * with make verify's progress line.  1 when one of them failed, else 0. */
int verify_shards(int every);

/* ---- verify_rederive.c, verify_run.c: the records of one device of a
 * shard, in DIR ---------------------------------------------------------- */

/* the record's source, IR, ir_hash, forward and backward code against
 * what the tools make of them; kgen's coverage rows added to COV */
void vf_rederive(const char *dir, VRec **r, int n, int dev, const Env *env, Cov *cov);

/* the record's own code compiled, run and gradient-checked */
void vf_run_code(const char *dir, VRec **r, int n, int dev, const Env *env);

/* ---- verify_report.c -------------------------------------------------- */

/* kverify report: 0 when every record and every file passed, else 1 */
int verify_report(void);

#endif
