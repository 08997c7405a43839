/*
 * ksynth_sim.h: lets the CUDA code that kemit-cu emits compile with the
 * host C++ compiler, so that krun --device sim can run it on the CPU:
 *
 *     g++ -std=c++17 -I runtime -include ksynth_sim.h -x c++ FILE.cu
 *
 * It defines KS_CUDA_SIM (ksynth.h then takes its CUDA branch), makes the
 * CUDA qualifiers empty, declares threadIdx/blockIdx/blockDim/gridDim as
 * variables the simulator sets before it calls a __global__ function for
 * each thread in turn, and implements the atomics and bit casts that
 * ksynth.h uses as plain sequential operations: the simulator runs one
 * thread at a time, so a read-modify-write cannot be interleaved.  Code
 * with shared memory or barriers runs a block's threads as cooperating
 * fibers, its shared arrays checked for races (ksynth_sim_block.h).
 */
#ifndef KSYNTH_SIM_H
#define KSYNTH_SIM_H

#ifndef __cplusplus
#error "ksynth_sim.h is for the host C++ compiler (-x c++)"
#endif

#define KS_CUDA_SIM 1

#include <math.h>
#include <string.h>

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...) /* a launch's shape is krun's to keep within it */
/* one per block, as blocks run one at a time; krun compiles a shared
 * array as a checked one (KS_SIM_SHARED), this is for the rest */
#define __shared__ static

struct ks_sim_dim3 {
	unsigned x, y, z;
};

/* C++17 inline variables: one instance however many translation units
 * include the shim.  Not thread_local: the simulator runs one thread at a
 * time (the atomics below rely on it), and a loaded module with thread-
 * local storage is what LeakSanitizer's thread scan trips over (a crash
 * at exit, "Tracer caught signal 11", in `make check SAN=1`). */
inline ks_sim_dim3 threadIdx = {0, 0, 0};
inline ks_sim_dim3 blockIdx = {0, 0, 0};
inline ks_sim_dim3 blockDim = {1, 1, 1};
inline ks_sim_dim3 gridDim = {1, 1, 1};

/* Set the launch shape (1-D, as ksynth launches), then the thread. */
static inline void ks_sim_grid(unsigned grid, unsigned block)
{
	gridDim = {grid, 1, 1};
	blockDim = {block, 1, 1};
}

static inline void ks_sim_thread(unsigned block, unsigned thread)
{
	blockIdx = {block, 0, 0};
	threadIdx = {thread, 0, 0};
}

static inline int __float_as_int(float f)
{
	int i;
	memcpy(&i, &f, sizeof i);
	return i;
}

static inline float __int_as_float(int i)
{
	float f;
	memcpy(&f, &i, sizeof f);
	return f;
}

static inline long long __double_as_longlong(double d)
{
	long long i;
	memcpy(&i, &d, sizeof i);
	return i;
}

static inline double __longlong_as_double(long long i)
{
	double d;
	memcpy(&d, &i, sizeof d);
	return d;
}

/* The atomics ksynth.h calls, for each type CUDA has them for (float,
 * double, int, unsigned, long long, unsigned long long; the bitwise ones
 * and atomicExch for the ints).  The type comes from the pointer alone, the
 * value converting to it as CUDA's overloads convert it: a shared element
 * sim checks (ksynth_sim_block.h) is read as it is passed. */
template <typename T> struct ks_sim_same {
	typedef T type;
};
#define KS_SIM_VAL(T) typename ks_sim_same<T>::type
template <typename T> static inline T atomicAdd(T *p, KS_SIM_VAL(T) v)
{
	T old = *p;
	*p = old + v;
	return old;
}

template <typename T> static inline T atomicSub(T *p, KS_SIM_VAL(T) v)
{
	T old = *p;
	*p = old - v;
	return old;
}

template <typename T> static inline T atomicMin(T *p, KS_SIM_VAL(T) v)
{
	T old = *p;
	*p = v < old ? v : old;
	return old;
}

template <typename T> static inline T atomicMax(T *p, KS_SIM_VAL(T) v)
{
	T old = *p;
	*p = v > old ? v : old;
	return old;
}

template <typename T> static inline T atomicExch(T *p, KS_SIM_VAL(T) v)
{
	T old = *p;
	*p = v;
	return old;
}

template <typename T> static inline T atomicAnd(T *p, KS_SIM_VAL(T) v)
{
	T old = *p;
	*p = old & v;
	return old;
}

template <typename T> static inline T atomicOr(T *p, KS_SIM_VAL(T) v)
{
	T old = *p;
	*p = old | v;
	return old;
}

template <typename T> static inline T atomicXor(T *p, KS_SIM_VAL(T) v)
{
	T old = *p;
	*p = old ^ v;
	return old;
}

template <typename T> static inline T atomicCAS(T *p, KS_SIM_VAL(T) compare, KS_SIM_VAL(T) v)
{
	T old = *p;
	if (old == compare)
		*p = v;
	return old;
}

#include "ksynth_sim_block.h"

#endif
