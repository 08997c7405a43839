/*
 * ks_base.h: what the other runtime headers stand on.  Which compiler the
 * code is for (KS_CUDA) and KS_FUNC, the qualifiers of every runtime
 * function; the fixed-width ints (defined here under NVRTC, which has no
 * libc headers); the macros of a CUDA entry's options; double mode
 * (KS_REAL); infinity and NaN on each device;
 * float16, ks_half, with its two conversions from and to float32; and
 * the threads of a block.
 */
#ifndef KS_BASE_H
#define KS_BASE_H

#if defined(__CUDACC__) || defined(KS_CUDA_SIM)
#define KS_CUDA 1
#else
#define KS_CUDA 0
#endif

#if KS_CUDA
#define KS_FUNC static __device__ __forceinline__
#else
#include <math.h>
#include <stdbool.h>
#define KS_FUNC static inline
#endif

/* What a kernel's CUDA options ask of its entry (@wp.kernel(
 * cuda_max_registers=N, cluster_dim=N, enable_cuda_smem_spilling=True)),
 * each where the toolkit and the architecture have it and nothing
 * elsewhere (sim, older toolkits and GPUs): __maxnreg__ from CUDA 12.4,
 * clusters of blocks on compute capability 9.0 and later, registers
 * spilled to shared memory from CUDA 13. */
#if defined(__CUDACC__) && (__CUDACC_VER_MAJOR__ > 12 || (__CUDACC_VER_MAJOR__ == 12 && __CUDACC_VER_MINOR__ >= 4))
#define KS_MAXNREG(n) __maxnreg__(n)
#else
#define KS_MAXNREG(n)
#endif
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define KS_CLUSTER_DIMS(n) __cluster_dims__(n, 1, 1)
#else
#define KS_CLUSTER_DIMS(n)
#endif
#if defined(__CUDACC__) && __CUDACC_VER_MAJOR__ >= 13
#define KS_SMEM_SPILLING() asm volatile(".pragma \"enable_smem_spilling\";")
#else
#define KS_SMEM_SPILLING() ((void)0)
#endif

#if defined(__CUDACC_RTC__)
typedef signed char int8_t;
typedef unsigned char uint8_t;
typedef short int16_t;
typedef unsigned short uint16_t;
typedef int int32_t;
typedef unsigned int uint32_t;
typedef long long int64_t;
typedef unsigned long long uint64_t;
#else
#include <stdint.h>
#endif

/* Double mode (CPU only): compiled with -DKS_REAL_DOUBLE, the same emitted
 * C computes in double precision, for krun --gradcheck's finite
 * differences.  The emitted code stays readable (`float`); here, after the
 * headers, every float libm call that the runtime or the emitted code
 * makes is mapped to its double twin, the runtime's float32 is KS_REAL,
 * a double, and after the atomics (ksynth.h) `float` itself becomes
 * `double`, so the ks_ types (ks_vec3 holds doubles), the ks_ functions,
 * the parameters and the locals are all double; float16 (ks_half) is a
 * double too.  Float literals (0.5f) stay float constants, promoted to
 * double where they are used. */
#if defined(KS_REAL_DOUBLE) && !KS_CUDA
#define KS_DOUBLE_MODE 1
#define sinf sin
#define cosf cos
#define tanf tan
#define asinf asin
#define acosf acos
#define atanf atan
#define atan2f atan2
#define sinhf sinh
#define coshf cosh
#define tanhf tanh
#define expf exp
#define logf log
#define log2f log2
#define log10f log10
#define sqrtf sqrt
#define powf pow
#define floorf floor
#define ceilf ceil
#define fabsf fabs
#define fmodf fmod
#define roundf round
#define rintf rint
#define truncf trunc
#define cbrtf cbrt
#define erff erf
#define erfcf erfc
#define copysignf copysign
#define KS_REAL double
#else
#define KS_DOUBLE_MODE 0
#define KS_REAL float
#endif

#if KS_CUDA
#define KS_INF __int_as_float(0x7f800000)
#define KS_NAN __int_as_float(0x7fffffff)
#define KS_INF_F64 __longlong_as_double(0x7ff0000000000000ll)
#define KS_NAN_F64 __longlong_as_double(0x7fffffffffffffffll)
#else
#define KS_INF INFINITY
#define KS_NAN NAN
#define KS_INF_F64 ((double)INFINITY)
#define KS_NAN_F64 ((double)NAN)
#endif

/* ---- float16 ---------------------------------------------------------- */

/* A float16 is its 16 bits; ks_half_of rounds a float to the nearest one
 * (ties to even, overflow to infinity), ks_half_to_float widens it.  Both
 * are done on the bits, identically on every device. */
#if KS_DOUBLE_MODE
typedef double ks_half;
KS_FUNC ks_half ks_half_of(double x) { return x; }
KS_FUNC double ks_half_to_float(ks_half h) { return h; }
#else
typedef struct {
	uint16_t bits;
} ks_half;

KS_FUNC KS_REAL ks_half_to_float(ks_half h)
{
	uint32_t sign = (uint32_t)(h.bits & 0x8000) << 16, exp = (h.bits >> 10) & 0x1f;
	uint32_t man = h.bits & 0x3ff, x;
	if (exp == 0x1f) {
		x = sign | 0x7f800000u | (man << 13);
	} else if (exp) {
		x = sign | ((exp - 15 + 127) << 23) | (man << 13);
	} else if (man) {
		int e = -1;
		do {
			man <<= 1;
			e++;
		} while (!(man & 0x400));
		x = sign | ((uint32_t)(127 - 15 - e) << 23) | ((man & 0x3ff) << 13);
	} else {
		x = sign;
	}
	union {
		uint32_t u;
		KS_REAL f;
	} v;
	v.u = x;
	return v.f;
}

KS_FUNC ks_half ks_half_of(KS_REAL f)
{
	union {
		KS_REAL f;
		uint32_t u;
	} v;
	v.f = f;
	uint32_t x = v.u, exp = (x >> 23) & 0xff, man = x & 0x7fffff;
	uint16_t sign = (uint16_t)((x >> 16) & 0x8000);
	ks_half h;
	if (exp == 0xff) {
		h.bits = (uint16_t)(sign | 0x7c00 | (man ? 0x200 | (man >> 13) : 0));
		return h;
	}
	int e = (int)exp - 127 + 15;
	if (e >= 0x1f) {
		h.bits = (uint16_t)(sign | 0x7c00);
		return h;
	}
	uint32_t sig = man | (exp ? 0x800000u : 0);
	int shift = 13;
	if (e <= 0) {
		shift = 14 - e;
		if (shift > 25) {
			h.bits = sign;
			return h;
		}
		e = 0;
	}
	uint32_t r = sig >> shift, rest = sig & ((1u << shift) - 1), half = 1u << (shift - 1);
	if (rest > half || (rest == half && (r & 1)))
		r++;
	/* a carry out of the significand bumps the exponent: adding the
	 * fields does it, up to infinity */
	h.bits = (uint16_t)(sign | (e ? ((uint32_t)e << 10) + (r - 0x400) : r));
	return h;
}
#endif

/* wp.block_dim(): the threads of the block, on the CPU 1 (each thread a
 * block of its own, as Warp runs tiles there); ks_lane_is: is this thread
 * the block's thread `thread` (kdiff's adjoint of wp.tile_from_thread)?
 * ks_lane_owns: does this thread compute a tile's element k, k modulo the
 * block's threads (kdiff's adjoint of t[i, j] = x)?  On the CPU the
 * block's one thread is each. */
#if KS_CUDA
KS_FUNC int ks_block_dim(void) { return (int)blockDim.x; }
KS_FUNC bool ks_lane_is(int thread) { return (int)threadIdx.x == thread; }
KS_FUNC bool ks_lane_owns(int k) { return k % (int)blockDim.x == (int)threadIdx.x; }
#else
KS_FUNC int ks_block_dim(void) { return 1; }
KS_FUNC bool ks_lane_is(int thread)
{
	(void)thread;
	return true;
}
KS_FUNC bool ks_lane_owns(int k)
{
	(void)k;
	return true;
}
#endif

#endif
