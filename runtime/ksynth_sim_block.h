/*
 * ksynth_sim_block.h: the threads of a block as cooperating fibers, for
 * sim (ksynth_sim.h includes it).
 *
 * Code that declares shared memory or calls __syncthreads() relies on the
 * threads of a block running together; run one after the other, each to
 * its end, a thread would read what the others have not written yet.
 * For such code krun's launcher calls ks_sim_run with coop set: each
 * block's threads are fibers (ucontext, a stack of their own) that the
 * scheduler below runs in turn, each until it waits at a barrier or
 * returns; when every thread waits, the barrier opens and the next
 * round begins.  Without coop, ks_sim_run runs the threads one after the
 * other on the caller's stack, as sim always has.
 *
 * krun compiles each `__shared__ T name[N];` or `__shared__ T name[N][M];`
 * declaration as KS_SIM_SHARED (a ks_sim_shared<T, N, M>, static: one for
 * the block, as blocks run one at a time), whose accesses are checked
 * against the others of the same round (between two barriers):
 *
 *   - a thread writing an element another thread reads or writes in the
 *     round is a data race (two threads, at least one writing, with no
 *     barrier between);
 *   - reading an element that no thread of the block has written yet
 *     reads uninitialised shared memory (the block starts with every
 *     byte 0xff, so such a read also gives a NaN or -1);
 *   - an index outside the array;
 *   - threads of one block that wait at a barrier while others have
 *     returned, or wait at different barriers (a barrier in divergent
 *     code).
 *
 * Each is reported through ks_sim_hazard, which krun points at a function
 * that names the array and both source lines as a located error; the
 * lines are the compiled code's (__builtin_LINE at each access), which
 * krun maps to the kernel source.  An atomic on an element (&s[i]) is not
 * counted as an access: atomics of several threads do not race.
 */
#ifndef KSYNTH_SIM_BLOCK_H
#define KSYNTH_SIM_BLOCK_H

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <type_traits>
#include <ucontext.h>

#include "ksynth_sim_hazard.h"

/* kind, the array (NULL for a barrier), the element, the block, then
 * the earlier access (thread, line) and the later one.  Global and not
 * mangled: krun finds it by name. */
typedef void (*ks_sim_hazard_fn)(int kind, const char *array, long long index, unsigned block, unsigned t1,
				 unsigned line1, unsigned t2, unsigned line2);
inline ks_sim_hazard_fn ks_sim_hazard = nullptr;

/* The round (barrier interval) running: each barrier and each block
 * starts a new one. */
inline unsigned ks_sim_round = 1;
inline unsigned ks_sim_tid = 0; /* the thread of the block running */

static inline void ks_sim_report(int kind, const char *array, long long index, unsigned t1, unsigned line1,
				 unsigned t2, unsigned line2)
{
	if (ks_sim_hazard)
		ks_sim_hazard(kind, array, index, blockIdx.x, t1, line1, t2, line2);
	abort();
}

/* An index with the line of the code that wrote it: the default
 * argument is evaluated where s[i] is. */
struct ks_sim_at {
	long long i;
	unsigned line;
	ks_sim_at(long long i_, unsigned line_ = __builtin_LINE()) : i(i_), line(line_) {}
};

/* What the round knows of one element: the thread that wrote it, the
 * first thread that read it and another that did (-1: none), where. */
struct ks_sim_cell {
	unsigned round;
	int wt, rt, rt2;
	unsigned wline, rline, rline2;
	unsigned char written; /* written since the block began */
};

struct ks_sim_shared_base {
	const char *name;
	void *data;
	size_t bytes, n;
	ks_sim_cell *cell;
	ks_sim_shared_base *next;
};

/* Every shared array of the module, to reset when a block begins. */
inline ks_sim_shared_base *ks_sim_shared_all = nullptr;

static inline void ks_sim_shared_reset(ks_sim_shared_base *s)
{
	memset(s->data, 0xff, s->bytes);
	memset(s->cell, 0, s->n * sizeof *s->cell);
}

static inline ks_sim_cell *ks_sim_cell_now(ks_sim_shared_base *s, long long i)
{
	ks_sim_cell *c = &s->cell[i];
	if (c->round != ks_sim_round) {
		c->round = ks_sim_round;
		c->wt = c->rt = c->rt2 = -1;
	}
	return c;
}

static inline void ks_sim_read(ks_sim_shared_base *s, long long i, unsigned line)
{
	ks_sim_cell *c = ks_sim_cell_now(s, i);
	int t = (int)ks_sim_tid;
	if (c->wt >= 0 && c->wt != t)
		ks_sim_report(KS_SIM_RACE_WR, s->name, i, (unsigned)c->wt, c->wline, ks_sim_tid, line);
	if (!c->written)
		ks_sim_report(KS_SIM_UNINIT, s->name, i, ks_sim_tid, line, ks_sim_tid, line);
	if (c->rt < 0) {
		c->rt = t;
		c->rline = line;
	} else if (c->rt != t && c->rt2 < 0) {
		c->rt2 = t;
		c->rline2 = line;
	}
}

static inline void ks_sim_write(ks_sim_shared_base *s, long long i, unsigned line)
{
	ks_sim_cell *c = ks_sim_cell_now(s, i);
	int t = (int)ks_sim_tid;
	if (c->wt >= 0 && c->wt != t)
		ks_sim_report(KS_SIM_RACE_WW, s->name, i, (unsigned)c->wt, c->wline, ks_sim_tid, line);
	if (c->rt >= 0 && c->rt != t)
		ks_sim_report(KS_SIM_RACE_RW, s->name, i, (unsigned)c->rt, c->rline, ks_sim_tid, line);
	if (c->rt2 >= 0 && c->rt2 != t)
		ks_sim_report(KS_SIM_RACE_RW, s->name, i, (unsigned)c->rt2, c->rline2, ks_sim_tid, line);
	c->wt = t;
	c->wline = line;
	c->written = 1;
}

/* One element: reading it converts it, assigning writes it. */
template <typename T> struct ks_sim_ref {
	ks_sim_shared_base *s;
	T *p;
	long long i;
	unsigned line;

	operator T() const
	{
		ks_sim_read(s, i, line);
		return *p;
	}
	T *operator&() const { return p; }
	ks_sim_ref &operator=(T v)
	{
		ks_sim_write(s, i, line);
		*p = v;
		return *this;
	}
	ks_sim_ref &operator=(const ks_sim_ref &o)
	{
		T v = o;
		return *this = v;
	}
	template <typename U> ks_sim_ref &operator+=(U v) { return *this = (T)(T(*this) + v); }
	template <typename U> ks_sim_ref &operator-=(U v) { return *this = (T)(T(*this) - v); }
	template <typename U> ks_sim_ref &operator*=(U v) { return *this = (T)(T(*this) * v); }
	template <typename U> ks_sim_ref &operator/=(U v) { return *this = (T)(T(*this) / v); }
};

static inline long long ks_sim_index(ks_sim_shared_base *s, ks_sim_at a, long long n)
{
	if (a.i < 0 || a.i >= n)
		ks_sim_report(KS_SIM_BOUNDS, s->name, a.i, ks_sim_tid, a.line, ks_sim_tid, a.line);
	return a.i;
}

/* A row of a two-dimensional shared array. */
template <typename T, size_t M> struct ks_sim_row {
	ks_sim_shared_base *s;
	T *p;
	long long base;
	ks_sim_ref<T> operator[](ks_sim_at a) const
	{
		long long j = ks_sim_index(s, a, (long long)M);
		return ks_sim_ref<T>{s, p + j, base + j, a.line};
	}
};

/* `__shared__ T name[N][M]` (M = 0 for `name[N]`). */
template <typename T, size_t N, size_t M = 0> struct ks_sim_shared : ks_sim_shared_base {
	static constexpr size_t count = M ? N * M : N;
	T v[count];
	ks_sim_cell c[count];

	explicit ks_sim_shared(const char *nm)
	{
		name = nm;
		data = v;
		bytes = sizeof v;
		n = count;
		cell = c;
		next = ks_sim_shared_all;
		ks_sim_shared_all = this;
		ks_sim_shared_reset(this);
	}
	ks_sim_shared(const ks_sim_shared &) = delete;
	ks_sim_shared &operator=(const ks_sim_shared &) = delete;

	template <size_t K = M> typename std::enable_if<K == 0, ks_sim_ref<T>>::type operator[](ks_sim_at a)
	{
		long long i = ks_sim_index(this, a, (long long)N);
		return ks_sim_ref<T>{this, &v[i], i, a.line};
	}
	template <size_t K = M> typename std::enable_if<K != 0, ks_sim_row<T, K>>::type operator[](ks_sim_at a)
	{
		long long i = ks_sim_index(this, a, (long long)N);
		return ks_sim_row<T, K>{this, &v[i * (long long)K], i * (long long)K};
	}
};

#define KS_SIM_SHARED(T, name, ...) static ks_sim_shared<T, __VA_ARGS__> name(#name)

/* ---- the fibers of a block ------------------------------------------------ */

enum { KS_SIM_RUN, KS_SIM_WAIT, KS_SIM_DONE };

struct ks_sim_fiber {
	ucontext_t ctx;
	int state;
	unsigned line; /* of the barrier it waits at */
};

struct ks_sim_block_state {
	ks_sim_fiber *f;
	ucontext_t sched;
	void (*body)(void *);
	void *arg;
};
inline ks_sim_block_state ks_sim_block;

static inline void ks_sim_fiber_main(void)
{
	ks_sim_block.body(ks_sim_block.arg);
	ks_sim_block.f[ks_sim_tid].state = KS_SIM_DONE;
}

/* Leave for context to: save this one in from, to come back here.  Not
 * swapcontext, which AddressSanitizer (krun built with SAN=1) intercepts
 * with a warning on stderr. */
static inline void ks_sim_switch(ucontext_t *from, const ucontext_t *to)
{
	volatile int back = 0;
	getcontext(from);
	if (!back) {
		back = 1;
		setcontext(to);
	}
}

/* In cooperative code, wait until every thread of the block is here. */
static inline void __syncthreads(unsigned line = __builtin_LINE())
{
	if (!ks_sim_block.f)
		return;
	ks_sim_fiber *me = &ks_sim_block.f[ks_sim_tid];
	me->state = KS_SIM_WAIT;
	me->line = line;
	ks_sim_switch(&me->ctx, &ks_sim_block.sched);
}

template <typename F> static void ks_sim_call(void *p) { (*(F *)p)(); }

/* Run body for every (block, thread) of the grid ks_sim_grid set; with
 * coop, a block's threads as fibers that meet at each barrier. */
template <typename F> static void ks_sim_run(unsigned blocks, unsigned threads, int coop, F body)
{
	if (!coop) {
		for (unsigned b = 0; b < blocks; b++)
			for (unsigned t = 0; t < threads; t++) {
				ks_sim_thread(b, t);
				body();
			}
		return;
	}
	/* 256 KiB of stack a thread, less for large blocks (64 MiB in all),
	 * never under 64 KiB */
	size_t page = 4096, stack = ((size_t)64 << 20) / threads;
	stack = stack > ((size_t)256 << 10)  ? (size_t)256 << 10
		: stack < ((size_t)64 << 10) ? (size_t)64 << 10
					     : stack;
	stack -= stack % page;
	size_t each = stack + page; /* a guard page below each stack */
	char *mem =
		(char *)mmap(nullptr, each * threads, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ks_sim_fiber *f = (ks_sim_fiber *)calloc(threads, sizeof *f);
	if (mem == (char *)MAP_FAILED || !f)
		abort();
	for (unsigned t = 0; t < threads; t++)
		mprotect(mem + each * t, page, PROT_NONE);
	ks_sim_block.f = f;
	ks_sim_block.body = ks_sim_call<F>;
	ks_sim_block.arg = &body;
	for (unsigned b = 0; b < blocks; b++) {
		ks_sim_round++;
		for (ks_sim_shared_base *s = ks_sim_shared_all; s; s = s->next)
			ks_sim_shared_reset(s);
		for (unsigned t = 0; t < threads; t++) {
			getcontext(&f[t].ctx);
			f[t].ctx.uc_stack.ss_sp = mem + each * t + page;
			f[t].ctx.uc_stack.ss_size = stack;
			f[t].ctx.uc_link = &ks_sim_block.sched;
			f[t].state = KS_SIM_RUN;
			makecontext(&f[t].ctx, ks_sim_fiber_main, 0);
		}
		for (;;) {
			for (unsigned t = 0; t < threads; t++) {
				if (f[t].state != KS_SIM_RUN)
					continue;
				ks_sim_thread(b, t);
				ks_sim_tid = t;
				ks_sim_switch(&ks_sim_block.sched, &f[t].ctx);
			}
			/* every thread waits or is done: open the barrier, or end */
			int wait = -1, done = -1;
			for (unsigned t = 0; t < threads; t++) {
				if (f[t].state == KS_SIM_WAIT && wait < 0)
					wait = (int)t;
				if (f[t].state == KS_SIM_DONE && done < 0)
					done = (int)t;
			}
			if (wait < 0)
				break;
			if (done >= 0)
				ks_sim_report(KS_SIM_DIVERGE, nullptr, 0, (unsigned)wait, f[wait].line,
					      (unsigned)done, 0);
			for (unsigned t = 0; t < threads; t++)
				if (f[t].line != f[wait].line)
					ks_sim_report(KS_SIM_TWO_BARRIERS, nullptr, 0, (unsigned)wait, f[wait].line,
						      t, f[t].line);
			for (unsigned t = 0; t < threads; t++)
				f[t].state = KS_SIM_RUN;
			ks_sim_round++;
		}
	}
	ks_sim_block.f = nullptr;
	free(f);
	munmap(mem, each * threads);
}

#endif
