/*
 * eval.h: keval's internals (doc/eval.md), shared by its files:
 *
 *   keval.c        the options; the predictions and the dataset's records
 *                  read; `--prompts` and `--references`
 *   eval_run.c     one record's reference and samples compiled and run by
 *                  krun (confined), their records compared
 *   eval_report.c  pass@k, eval.json and the summary
 *
 * A sample is one line of the predictions; a problem is a record and a
 * field (forward or backward), whose samples are k tries at it.
 */
#ifndef PACK_EVAL_H
#define PACK_EVAL_H

#include <stddef.h>
#include <stdint.h>

#include "lib/ks.h"
#include "verify.h"

/* krun --sentinel's value (runtime/run.h, RUN_SENTINEL) */
#define EV_SENTINEL (-1536.0)

enum { F_FWD, F_BWD, NFIELD };
extern const char *const ev_field_name[NFIELD]; /* forward, backward */

typedef struct Sample {
	char *code;
	size_t len;
	long line; /* in the predictions */
	int compiled, correct;
	char *why;      /* the failure's reason, NULL when correct */
	double speedup; /* on a GPU: the reference's time over its, else 0 */
} Sample;

typedef struct Rec {
	char *id, *name, *cat, *dev, *ir, *code[NFIELD];
	Sample *s[NFIELD];
	int n[NFIELD], cap[NFIELD];
	int found;
	char *note; /* what the evaluation of the record says (a launch changed) */
} Rec;

typedef struct EvOpts {
	const char *data, *pred, *json, *work;
	uint64_t seed; /* EVAL_SEED */
	unsigned timeout;
	int bench; /* launches timed per sample on a GPU */
} EvOpts;
extern EvOpts ev_opt;

/* What runs the records' CUDA here: NVRTC's name or "" (and why not),
 * and whether krun runs it on a GPU (else sim, and why not). */
typedef struct EvEnv {
	VfCuda cuda;
	uint64_t s1, s2; /* the input seeds of this evaluation */
} EvEnv;

/* ---- eval_run.c -------------------------------------------------------- */
/* Every sample of R scored in folder DIR (made, then left for the caller). */
void ev_record(Rec *r, const EvEnv *e, const char *dir);

/* ---- eval_report.c ----------------------------------------------------- */
/* pass@k of one problem: n samples, c correct (Chen et al. 2021). */
double ev_pass_at(int n, int c, int k);
/* eval.json and the summary on stdout; seconds the evaluation took */
void ev_report(Rec **r, int n, const EvEnv *e, double seconds);

#endif
