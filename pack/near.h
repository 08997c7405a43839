/*
 * near.h: near-duplicate kernels, measured as training-data teams measure
 * them (doc/dataset.md, "Near duplicates").
 *
 * A kernel's text (its decorator and its def through the end of its
 * body) is cut into Python tokens; identifiers other than keywords,
 * builtins, `wp` and attribute names are renamed in order of first
 * appearance, numbers and strings become one placeholder each.  Its
 * 5-token shingles give a MinHash signature of NEAR_K values (the low 16
 * bits of each minimum: b-bit MinHash).  Two kernels are near-duplicates
 * when the share of equal values, an estimate of the Jaccard similarity
 * of their shingle sets, is at least the threshold; locality-sensitive
 * hashing (bands of values, as many as the threshold needs: 32 of 4 at
 * 0.7) finds the candidates.
 * A NearIndex takes kernels in order and says of each whether it
 * near-duplicates one taken before it, kept or not, and if so the first
 * kernel of that one's cluster: clusters grow in order, as union-find
 * over the pairs found would make them, but that two clusters a later
 * kernel bridges stay two (what was kept stays kept).
 */
#ifndef KS_NEAR_H
#define KS_NEAR_H

#include <stddef.h>
#include <stdint.h>

enum { NEAR_K = 128 };

typedef struct NearSig {
	uint16_t v[NEAR_K];
} NearSig;

/* The kernels of a Python module: for each `@wp.kernel` (with arguments
 * or not), its 1-based line, its name and its signature, given to fn. */
typedef void NearKernelFn(void *ctx, int line, const char *name, const NearSig *sig);
int near_kernels(const char *src, size_t n, NearKernelFn *fn, void *ctx);

/* The signature of a text taken whole, and what near_kernels computes. */
void near_sig(NearSig *sig, const char *src, size_t n);

/* The signature as 4 * NEAR_K hex digits (out holds 4 * NEAR_K + 1), and
 * back: 0 when s is not that. */
void near_hex(char *out, const NearSig *sig);
int near_unhex(NearSig *sig, const char *s, size_t n);

/* The share of equal values, in [0, 1]. */
double near_similarity(const NearSig *a, const NearSig *b);

typedef struct NearIndex NearIndex;
NearIndex *near_new(double threshold);
/* Takes a kernel: returns the id (the order of taking, from 0) of the
 * first kernel of the cluster it joins, or -1 when it is the first of a
 * new one; *sim, when sim is not NULL, is its similarity to the kernel it
 * matched. */
long near_add(NearIndex *ix, const NearSig *sig, double *sim);
/* The kernel taken before that sig is most like (of the first cluster
 * it touches), or -1; sig is not taken. */
long near_find(NearIndex *ix, const NearSig *sig, double *sim);
void near_free(NearIndex *ix);

#endif
