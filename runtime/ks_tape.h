/*
 * ks_tape.h: the tape of a backward kernel, which keeps the checkpoints
 * of its loops.
 *
 * A backward kernel whose loops keep checkpoints (doc/autodiff.md) takes a
 * last parameter `int *tape`: four ints the caller fills, then the words
 * of every thread.
 *
 *   tape[0]  words each thread may use; -1: only measure (see below)
 *   tape[1]  set to 0 by the caller; the kernel raises it to the words a
 *            thread would use with no bound (the largest over the threads)
 *   tape[2]  the number of threads (dim)
 *   tape[3]  0
 *
 * so tape holds 4 + dim * tape[0] ints.  Thread t's word w is tape[4 + t *
 * tape[0] + w] on the CPU, tape[4 + w * dim + t] in CUDA (the threads of a
 * warp touch neighbouring words).  With tape[0] = -1 every thread runs its
 * forward sweep, raises tape[1] and stops, leaving the arrays as they were:
 * a caller measures with a 4-int tape, then allocates.  A tape too small,
 * even of no words, gives the same gradient, recomputing more.
 *
 * A loop keeps the state its trips begin with, every `every` trips:
 * every one while the tape has room; when it is full, every other
 * checkpoint goes and `every` doubles (every = 0: not even one fits).
 * Trip 0's state is the loop's entry, which the code keeps itself.  In
 * double precision (KS_REAL_DOUBLE, which never runs a backward kernel) the
 * tape has no words.  A value is stored word by word as its float or int
 * components.
 */
#ifndef KS_TAPE_H
#define KS_TAPE_H

typedef struct ks_tape {
	int *base;     /* the tape (header and words), or NULL */
	int tid, len;  /* this thread; the words it may use */
	int stride;    /* CUDA: the threads, the distance between two of its words */
	int measuring; /* tape[0] was -1 */
	int top;       /* words in use */
	int vtop, vin; /* with no bound: words in use; inner loops' words in a trip */
	int need;      /* with no bound: the most words in use */
} ks_tape;

/* the checkpoints of one run of a loop */
typedef struct ks_trips {
	int base, vbase; /* top and vtop when the run began */
	int width;       /* words of a checkpoint */
	int every;       /* a checkpoint every `every` trips; 0: none */
	int cur;         /* the checkpoint ks_tape_back chose, 0: the entry */
} ks_trips;

KS_FUNC ks_tape ks_tape_open(int *tape, int tid)
{
	ks_tape t;
	t.base = tape;
	t.tid = tid;
	t.len = tape ? tape[0] : 0;
	t.measuring = t.len < 0;
	t.stride = tape ? tape[2] : 0;
#if defined(KS_REAL_DOUBLE) && !KS_CUDA
	t.len = 0;
#endif
	if (t.len < 0)
		t.len = 0;
	t.top = t.vtop = t.vin = t.need = 0;
	return t;
}

KS_FUNC int *ks_tape_word(ks_tape *t, int w)
{
#if KS_CUDA
	return t->base + 4 + (long long)w * t->stride + t->tid;
#else
	return t->base + 4 + (long long)t->tid * t->len + w;
#endif
}

KS_FUNC void ks_tape_raise(ks_tape *t, long long words)
{
	int n = words > 0x7fffffff ? 0x7fffffff : (int)words;
	if (n > t->need)
		t->need = n;
}

/* a loop handle before its loop runs */
KS_FUNC ks_trips ks_tape_none(void)
{
	ks_trips L = {0, 0, 0, 0, 0};
	return L;
}

KS_FUNC ks_trips ks_tape_loop(ks_tape *t, int width)
{
	ks_trips L;
	L.base = t->top;
	L.vbase = t->vtop;
	L.width = width;
	L.every = width > 0 ? 1 : 0;
	L.cur = 0;
	return L;
}

/* Trip `trip` begins: keep its state (the ks_tape_put_* that follow)? */
KS_FUNC bool ks_tape_keep(ks_tape *t, ks_trips *L, int trip)
{
	long long v = (long long)L->vbase + (long long)trip * L->width;
	t->vtop = v > 0x7fffffff ? 0x7fffffff : (int)v;
	t->vin = 0;
	ks_tape_raise(t, v);
	if (trip == 0 || L->every == 0 || trip % L->every || t->measuring)
		return false;
	while (t->top + L->width > t->len) {
		/* full: keep checkpoints 2, 4, 6, ... as 1, 2, 3, ... */
		int n = (t->top - L->base) / L->width;
		if (n == 0) {
			L->every = 0;
			return false;
		}
		for (int q = 1; 2 * q <= n; q++)
			for (int w = 0; w < L->width; w++)
				*ks_tape_word(t, L->base + (q - 1) * L->width + w) =
					*ks_tape_word(t, L->base + (2 * q - 1) * L->width + w);
		t->top = L->base + n / 2 * L->width;
		L->every *= 2;
		if (trip % L->every)
			return false;
	}
	return true;
}

/* A trip of an inner loop, in a run that only recomputes: with no bound,
 * its checkpoints would sit on top of the outer loop's. */
KS_FUNC void ks_tape_count(ks_tape *t, int width)
{
	t->vin += width;
	ks_tape_raise(t, (long long)t->vtop + t->vin);
}

/* The reverse is at trip `trip`: go back to its checkpoint (dropping the
 * later ones), and return the trip it was kept at (0: the loop's entry). */
KS_FUNC int ks_tape_back(ks_tape *t, ks_trips *L, int trip)
{
	int j = L->every ? trip / L->every : 0;
	long long v = (long long)L->vbase + (long long)trip * L->width;
	t->vtop = v > 0x7fffffff ? 0x7fffffff : (int)v;
	L->cur = j;
	t->top = L->base + j * L->width;
	return j * L->every;
}

/* After the forward sweep: report the need; stop if only measuring. */
KS_FUNC bool ks_tape_measured(ks_tape *t)
{
	if (t->base) {
#if KS_CUDA
		atomicMax(&t->base[1], t->need);
#else
		if (t->need > t->base[1])
			t->base[1] = t->need;
#endif
	}
	return t->measuring;
}

KS_FUNC int ks_tape_float_bits(float x)
{
#if KS_CUDA
	return __float_as_int(x);
#else
	union {
		float f;
		int i;
	} u;
	u.f = x;
	return u.i;
#endif
}

KS_FUNC float ks_tape_bits_float(int i)
{
#if KS_CUDA
	return __int_as_float(i);
#else
	union {
		float f;
		int i;
	} u;
	u.i = i;
	return u.f;
#endif
}

/* word `off` of the checkpoint chosen */
KS_FUNC int ks_tape_at(ks_tape *t, const ks_trips *L, int off)
{
	return *ks_tape_word(t, L->base + (L->cur - 1) * L->width + off);
}

KS_FUNC void ks_tape_put_int(ks_tape *t, int x) { *ks_tape_word(t, t->top++) = x; }
KS_FUNC void ks_tape_put_bool(ks_tape *t, bool x) { ks_tape_put_int(t, x ? 1 : 0); }
KS_FUNC void ks_tape_put_float(ks_tape *t, float x) { ks_tape_put_int(t, ks_tape_float_bits(x)); }
/* the value kept at word off of the checkpoint chosen, or x0, the loop's
 * entry value, when that is the loop's entry */
KS_FUNC int ks_tape_get_int(ks_tape *t, const ks_trips *L, int off, int x0)
{
	return L->cur ? ks_tape_at(t, L, off) : x0;
}
/* a random-number state: its bits in one word */
KS_FUNC void ks_tape_put_uint32(ks_tape *t, uint32_t x) { ks_tape_put_int(t, (int)x); }
KS_FUNC uint32_t ks_tape_get_uint32(ks_tape *t, const ks_trips *L, int off, uint32_t x0)
{
	return L->cur ? (uint32_t)ks_tape_at(t, L, off) : x0;
}
KS_FUNC bool ks_tape_get_bool(ks_tape *t, const ks_trips *L, int off, bool x0)
{
	return L->cur ? ks_tape_at(t, L, off) != 0 : x0;
}
KS_FUNC float ks_tape_get_float(ks_tape *t, const ks_trips *L, int off, float x0)
{
	return L->cur ? ks_tape_bits_float(ks_tape_at(t, L, off)) : x0;
}

#define KS_TAPE_VEC(N)                                                                             \
	KS_FUNC void ks_tape_put_vec##N(ks_tape *t, ks_vec##N x)                                   \
	{                                                                                          \
		for (int i = 0; i < N; i++)                                                        \
			ks_tape_put_float(t, x.c[i]);                                              \
	}                                                                                          \
	KS_FUNC ks_vec##N ks_tape_get_vec##N(ks_tape *t, const ks_trips *L, int off, ks_vec##N x0) \
	{                                                                                          \
		if (L->cur)                                                                        \
			for (int i = 0; i < N; i++)                                                \
				x0.c[i] = ks_tape_bits_float(ks_tape_at(t, L, off + i));           \
		return x0;                                                                         \
	}
#define KS_TAPE_MAT(N)                                                                                      \
	KS_FUNC void ks_tape_put_mat##N##N(ks_tape *t, ks_mat##N##N x)                                      \
	{                                                                                                   \
		for (int i = 0; i < N; i++)                                                                 \
			for (int j = 0; j < N; j++)                                                         \
				ks_tape_put_float(t, x.c[i][j]);                                            \
	}                                                                                                   \
	KS_FUNC ks_mat##N##N ks_tape_get_mat##N##N(ks_tape *t, const ks_trips *L, int off, ks_mat##N##N x0) \
	{                                                                                                   \
		if (L->cur)                                                                                 \
			for (int i = 0; i < N; i++)                                                         \
				for (int j = 0; j < N; j++)                                                 \
					x0.c[i][j] = ks_tape_bits_float(ks_tape_at(t, L, off + N * i + j)); \
		return x0;                                                                                  \
	}
KS_TAPE_VEC(2)
KS_TAPE_VEC(3)
KS_TAPE_VEC(4)
KS_TAPE_MAT(2)
KS_TAPE_MAT(3)
KS_TAPE_MAT(4)
/* a quaternion and a transform: their components in order */
#define KS_TAPE_COMPS(T, N)                                                               \
	KS_FUNC void ks_tape_put_##T(ks_tape *t, ks_##T x)                                \
	{                                                                                 \
		for (int i = 0; i < N; i++)                                               \
			ks_tape_put_float(t, x.c[i]);                                     \
	}                                                                                 \
	KS_FUNC ks_##T ks_tape_get_##T(ks_tape *t, const ks_trips *L, int off, ks_##T x0) \
	{                                                                                 \
		if (L->cur)                                                               \
			for (int i = 0; i < N; i++)                                       \
				x0.c[i] = ks_tape_bits_float(ks_tape_at(t, L, off + i));  \
		return x0;                                                                \
	}
KS_TAPE_COMPS(quat, 4)
KS_TAPE_COMPS(transform, 7)

#endif
