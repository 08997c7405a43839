/*
 * ks_atomic.h: the atomics of every number type (add, sub, min, max, the
 * bitwise ones, exchange, compare-and-swap): CUDA's own, or a
 * compare-and-swap loop where CUDA has none, on the GPU; a plain
 * read-modify-write on the CPU.  Vectors, matrices, quaternions and
 * transforms are updated component by component.
 */
#ifndef KS_ATOMIC_H
#define KS_ATOMIC_H

/* Each returns the value before the update.  The CPU runs threads one
 * after another, so there a plain read-modify-write is atomic. */
#if KS_CUDA
KS_FUNC KS_REAL ks_atomic_add_float(KS_REAL *p, KS_REAL v) { return atomicAdd(p, v); }
KS_FUNC double ks_atomic_add_float64(double *p, double v) { return atomicAdd(p, v); }
KS_FUNC int ks_atomic_add_int(int *p, int v) { return atomicAdd(p, v); }
KS_FUNC uint32_t ks_atomic_add_uint32(uint32_t *p, uint32_t v) { return atomicAdd((unsigned *)p, (unsigned)v); }
KS_FUNC uint64_t ks_atomic_add_uint64(uint64_t *p, uint64_t v)
{
	return atomicAdd((unsigned long long *)p, (unsigned long long)v);
}
KS_FUNC int64_t ks_atomic_add_int64(int64_t *p, int64_t v)
{
	return (int64_t)atomicAdd((unsigned long long *)p, (unsigned long long)v);
}
KS_FUNC KS_REAL ks_atomic_sub_float(KS_REAL *p, KS_REAL v) { return atomicAdd(p, -v); }
KS_FUNC double ks_atomic_sub_float64(double *p, double v) { return atomicAdd(p, -v); }
KS_FUNC int ks_atomic_sub_int(int *p, int v) { return atomicSub(p, v); }
KS_FUNC uint32_t ks_atomic_sub_uint32(uint32_t *p, uint32_t v)
{
	return atomicAdd((unsigned *)p, 0u - (unsigned)v);
}
KS_FUNC uint64_t ks_atomic_sub_uint64(uint64_t *p, uint64_t v)
{
	return atomicAdd((unsigned long long *)p, 0ull - (unsigned long long)v);
}
KS_FUNC int64_t ks_atomic_sub_int64(int64_t *p, int64_t v)
{
	return (int64_t)atomicAdd((unsigned long long *)p, 0ull - (unsigned long long)v);
}
KS_FUNC int ks_atomic_min_int(int *p, int v) { return atomicMin(p, v); }
KS_FUNC int ks_atomic_max_int(int *p, int v) { return atomicMax(p, v); }
KS_FUNC uint32_t ks_atomic_min_uint32(uint32_t *p, uint32_t v) { return atomicMin((unsigned *)p, (unsigned)v); }
KS_FUNC uint32_t ks_atomic_max_uint32(uint32_t *p, uint32_t v) { return atomicMax((unsigned *)p, (unsigned)v); }
KS_FUNC int64_t ks_atomic_min_int64(int64_t *p, int64_t v) { return atomicMin((long long *)p, (long long)v); }
KS_FUNC int64_t ks_atomic_max_int64(int64_t *p, int64_t v) { return atomicMax((long long *)p, (long long)v); }
KS_FUNC uint64_t ks_atomic_min_uint64(uint64_t *p, uint64_t v)
{
	return atomicMin((unsigned long long *)p, (unsigned long long)v);
}
KS_FUNC uint64_t ks_atomic_max_uint64(uint64_t *p, uint64_t v)
{
	return atomicMax((unsigned long long *)p, (unsigned long long)v);
}
/* No float atomicMin/atomicMax: a compare-and-swap loop on the bits,
 * storing only when the new value wins (v < old, Warp's min). */
#define KS_ATOMIC_FLOAT_MINMAX(OP, SN, ST, WT, CMP, TOBITS, FROMBITS) \
	KS_FUNC ST ks_atomic_##OP##_##SN(ST *p, ST v)                 \
	{                                                             \
		WT *ip = (WT *)p;                                     \
		WT old = *ip, seen;                                   \
		while (v CMP FROMBITS(old)) {                         \
			seen = atomicCAS(ip, old, TOBITS(v));         \
			if (seen == old)                              \
				break;                                \
			old = seen;                                   \
		}                                                     \
		return FROMBITS(old);                                 \
	}
#define KS_DBITS(x) ((unsigned long long)__double_as_longlong(x))
#define KS_DVAL(x) __longlong_as_double((long long)(x))
KS_ATOMIC_FLOAT_MINMAX(min, float, KS_REAL, int, <, __float_as_int, __int_as_float)
KS_ATOMIC_FLOAT_MINMAX(max, float, KS_REAL, int, >, __float_as_int, __int_as_float)
KS_ATOMIC_FLOAT_MINMAX(min, float64, double, unsigned long long, <, KS_DBITS, KS_DVAL)
KS_ATOMIC_FLOAT_MINMAX(max, float64, double, unsigned long long, >, KS_DBITS, KS_DVAL)

/* The 8- and 16-bit types: a compare-and-swap loop on the aligned 32-bit
 * word that holds the value, replacing its bytes only. */
#define KS_ATOMIC_NARROW(OP, SN, ST, BITS, GET, PUT, UPDATE)                                   \
	KS_FUNC ST ks_atomic_##OP##_##SN(ST *p, ST v)                                          \
	{                                                                                      \
		unsigned *w = (unsigned *)((unsigned long long)p & ~3ull);                     \
		unsigned shift = (unsigned)((unsigned long long)p & 3ull) * 8u;                \
		unsigned mask = ((1u << (BITS)) - 1u) << shift, old = *w, seen;                \
		for (;;) {                                                                     \
			ST o = GET((old & mask) >> shift);                                     \
			ST n = UPDATE;                                                         \
			seen = atomicCAS(w, old, (old & ~mask) | ((unsigned)PUT(n) << shift)); \
			if (seen == old)                                                       \
				return o;                                                      \
			old = seen;                                                            \
		}                                                                              \
	}
#define KS_INT_GET(ST) (ST)
#define KS_BITS_OF(x) (x)
#define KS_ATOMIC_NARROW_INT(SN, ST, BITS, UT)                                 \
	KS_ATOMIC_NARROW(add, SN, ST, BITS, (ST)(UT), (UT), ks_add_##SN(o, v)) \
	KS_ATOMIC_NARROW(sub, SN, ST, BITS, (ST)(UT), (UT), ks_sub_##SN(o, v)) \
	KS_ATOMIC_NARROW(min, SN, ST, BITS, (ST)(UT), (UT), ks_min_##SN(o, v)) \
	KS_ATOMIC_NARROW(max, SN, ST, BITS, (ST)(UT), (UT), ks_max_##SN(o, v))
KS_ATOMIC_NARROW_INT(int8, int8_t, 8, uint8_t)
KS_ATOMIC_NARROW_INT(uint8, uint8_t, 8, uint8_t)
KS_ATOMIC_NARROW_INT(int16, int16_t, 16, uint16_t)
KS_ATOMIC_NARROW_INT(uint16, uint16_t, 16, uint16_t)
KS_FUNC ks_half ks_half_bits(unsigned b)
{
	ks_half h;
	h.bits = (uint16_t)b;
	return h;
}
#define KS_HALF_BITS(h) (h).bits
KS_ATOMIC_NARROW(add, float16, ks_half, 16, ks_half_bits, KS_HALF_BITS, ks_add_float16(o, v))
KS_ATOMIC_NARROW(sub, float16, ks_half, 16, ks_half_bits, KS_HALF_BITS, ks_sub_float16(o, v))
KS_ATOMIC_NARROW(min, float16, ks_half, 16, ks_half_bits, KS_HALF_BITS, ks_min_float16(o, v))
KS_ATOMIC_NARROW(max, float16, ks_half, 16, ks_half_bits, KS_HALF_BITS, ks_max_float16(o, v))
#else
#define KS_ATOMIC_SCALAR(SN, ST)                   \
	KS_FUNC ST ks_atomic_add_##SN(ST *p, ST v) \
	{                                          \
		ST old = *p;                       \
		*p = ks_add_##SN(old, v);          \
		return old;                        \
	}                                          \
	KS_FUNC ST ks_atomic_sub_##SN(ST *p, ST v) \
	{                                          \
		ST old = *p;                       \
		*p = ks_sub_##SN(old, v);          \
		return old;                        \
	}                                          \
	KS_FUNC ST ks_atomic_min_##SN(ST *p, ST v) \
	{                                          \
		ST old = *p;                       \
		if (ks_lt_##SN(v, old))            \
			*p = v;                    \
		return old;                        \
	}                                          \
	KS_FUNC ST ks_atomic_max_##SN(ST *p, ST v) \
	{                                          \
		ST old = *p;                       \
		if (ks_gt_##SN(v, old))            \
			*p = v;                    \
		return old;                        \
	}
KS_ATOMIC_SCALAR(int8, int8_t)
KS_ATOMIC_SCALAR(uint8, uint8_t)
KS_ATOMIC_SCALAR(int16, int16_t)
KS_ATOMIC_SCALAR(uint16, uint16_t)
KS_ATOMIC_SCALAR(int, int)
KS_ATOMIC_SCALAR(uint32, uint32_t)
KS_ATOMIC_SCALAR(int64, int64_t)
KS_ATOMIC_SCALAR(uint64, uint64_t)
KS_ATOMIC_SCALAR(float16, ks_half)
KS_ATOMIC_SCALAR(float, KS_REAL)
KS_ATOMIC_SCALAR(float64, double)
#endif

/* Bitwise atomics (ints), exchange and compare-and-swap (every number
 * type).  Each returns the old value.  Compare-and-swap compares bits,
 * as the GPU does, on every device: a float's -0.0 is not 0.0 there, and
 * a NaN matches the same NaN. */
#if KS_CUDA
#define KS_ATOMIC_WORD(SN, ST, WT)                                                             \
	KS_FUNC ST ks_atomic_and_##SN(ST *p, ST v) { return (ST)atomicAnd((WT *)p, (WT)v); }   \
	KS_FUNC ST ks_atomic_or_##SN(ST *p, ST v) { return (ST)atomicOr((WT *)p, (WT)v); }     \
	KS_FUNC ST ks_atomic_xor_##SN(ST *p, ST v) { return (ST)atomicXor((WT *)p, (WT)v); }   \
	KS_FUNC ST ks_atomic_exch_##SN(ST *p, ST v) { return (ST)atomicExch((WT *)p, (WT)v); } \
	KS_FUNC ST ks_atomic_cas_##SN(ST *p, ST c, ST v) { return (ST)atomicCAS((WT *)p, (WT)c, (WT)v); }
KS_ATOMIC_WORD(int, int, int)
KS_ATOMIC_WORD(uint32, uint32_t, unsigned)
KS_ATOMIC_WORD(int64, int64_t, unsigned long long)
KS_ATOMIC_WORD(uint64, uint64_t, unsigned long long)
#define KS_ATOMIC_FLOAT_SWAP(SN, ST, WT, TOBITS, FROMBITS)                                                   \
	KS_FUNC ST ks_atomic_exch_##SN(ST *p, ST v) { return FROMBITS(atomicExch((WT *)p, (WT)TOBITS(v))); } \
	KS_FUNC ST ks_atomic_cas_##SN(ST *p, ST c, ST v)                                                     \
	{                                                                                                    \
		return FROMBITS(atomicCAS((WT *)p, (WT)TOBITS(c), (WT)TOBITS(v)));                           \
	}
KS_ATOMIC_FLOAT_SWAP(float, KS_REAL, int, __float_as_int, __int_as_float)
KS_ATOMIC_FLOAT_SWAP(float64, double, unsigned long long, KS_DBITS, KS_DVAL)
/* the 8- and 16-bit types: the loop on the word that holds them */
#define KS_ATOMIC_NARROW_CAS(SN, ST, BITS, GET, PUT)                                           \
	KS_FUNC ST ks_atomic_cas_##SN(ST *p, ST c, ST v)                                       \
	{                                                                                      \
		unsigned *w = (unsigned *)((unsigned long long)p & ~3ull);                     \
		unsigned shift = (unsigned)((unsigned long long)p & 3ull) * 8u;                \
		unsigned mask = ((1u << (BITS)) - 1u) << shift, old = *w, seen;                \
		for (;;) {                                                                     \
			ST o = GET((old & mask) >> shift);                                     \
			if ((unsigned)PUT(o) != ((unsigned)PUT(c) & ((1u << (BITS)) - 1u)))    \
				return o;                                                      \
			seen = atomicCAS(w, old, (old & ~mask) | ((unsigned)PUT(v) << shift)); \
			if (seen == old)                                                       \
				return o;                                                      \
			old = seen;                                                            \
		}                                                                              \
	}
#define KS_ATOMIC_NARROW_BITS(SN, ST, BITS, UT)                          \
	KS_ATOMIC_NARROW(and, SN, ST, BITS, (ST)(UT), (UT), (ST)(o & v)) \
	KS_ATOMIC_NARROW(or, SN, ST, BITS, (ST)(UT), (UT), (ST)(o | v))  \
	KS_ATOMIC_NARROW(xor, SN, ST, BITS, (ST)(UT), (UT), (ST)(o ^ v)) \
	KS_ATOMIC_NARROW(exch, SN, ST, BITS, (ST)(UT), (UT), v)          \
	KS_ATOMIC_NARROW_CAS(SN, ST, BITS, (ST)(UT), (UT))
KS_ATOMIC_NARROW_BITS(int8, int8_t, 8, uint8_t)
KS_ATOMIC_NARROW_BITS(uint8, uint8_t, 8, uint8_t)
KS_ATOMIC_NARROW_BITS(int16, int16_t, 16, uint16_t)
KS_ATOMIC_NARROW_BITS(uint16, uint16_t, 16, uint16_t)
KS_ATOMIC_NARROW(exch, float16, ks_half, 16, ks_half_bits, KS_HALF_BITS, v)
KS_ATOMIC_NARROW_CAS(float16, ks_half, 16, ks_half_bits, KS_HALF_BITS)
#else
#define KS_ATOMIC_BITWISE(SN, ST)                  \
	KS_FUNC ST ks_atomic_and_##SN(ST *p, ST v) \
	{                                          \
		ST old = *p;                       \
		*p = (ST)(old & v);                \
		return old;                        \
	}                                          \
	KS_FUNC ST ks_atomic_or_##SN(ST *p, ST v)  \
	{                                          \
		ST old = *p;                       \
		*p = (ST)(old | v);                \
		return old;                        \
	}                                          \
	KS_FUNC ST ks_atomic_xor_##SN(ST *p, ST v) \
	{                                          \
		ST old = *p;                       \
		*p = (ST)(old ^ v);                \
		return old;                        \
	}
/* SAME(a, b): are the bits of a and b the same? */
#define KS_ATOMIC_SWAP(SN, ST, SAME)                     \
	KS_FUNC ST ks_atomic_exch_##SN(ST *p, ST v)      \
	{                                                \
		ST old = *p;                             \
		*p = v;                                  \
		return old;                              \
	}                                                \
	KS_FUNC ST ks_atomic_cas_##SN(ST *p, ST c, ST v) \
	{                                                \
		ST old = *p;                             \
		if (SAME(old, c))                        \
			*p = v;                          \
		return old;                              \
	}
#define KS_SAME_INT(a, b) ((a) == (b))
#if KS_DOUBLE_MODE
#define KS_SAME_HALF(a, b) ks_same_float64(a, b)
#else
#define KS_SAME_HALF(a, b) ((a).bits == (b).bits)
#endif
KS_FUNC int ks_same_float(KS_REAL a, KS_REAL b)
{
#if KS_DOUBLE_MODE
	union {
		KS_REAL f;
		uint64_t u;
	} x = {a}, y = {b};
#else
	union {
		KS_REAL f;
		uint32_t u;
	} x = {a}, y = {b};
#endif
	return x.u == y.u;
}
KS_FUNC int ks_same_float64(double a, double b)
{
	union {
		double f;
		uint64_t u;
	} x = {a}, y = {b};
	return x.u == y.u;
}
#define KS_ATOMIC_INT_BITS(SN, ST) KS_ATOMIC_BITWISE(SN, ST) KS_ATOMIC_SWAP(SN, ST, KS_SAME_INT)
KS_ATOMIC_INT_BITS(int8, int8_t)
KS_ATOMIC_INT_BITS(uint8, uint8_t)
KS_ATOMIC_INT_BITS(int16, int16_t)
KS_ATOMIC_INT_BITS(uint16, uint16_t)
KS_ATOMIC_INT_BITS(int, int)
KS_ATOMIC_INT_BITS(uint32, uint32_t)
KS_ATOMIC_INT_BITS(int64, int64_t)
KS_ATOMIC_INT_BITS(uint64, uint64_t)
KS_ATOMIC_SWAP(float16, ks_half, KS_SAME_HALF)
KS_ATOMIC_SWAP(float, KS_REAL, ks_same_float)
KS_ATOMIC_SWAP(float64, double, ks_same_float64)
#endif

/* Vector, matrix, quaternion and transform atomics: componentwise (each component is atomic,
 * the value as a whole is not, as in Warp). */
#define KS_VEC_ATOMIC(VT, N, SN)                                         \
	KS_FUNC ks_##VT ks_atomic_add_##VT(ks_##VT *p, ks_##VT v)        \
	{                                                                \
		ks_##VT old;                                             \
		for (int i = 0; i < N; i++)                              \
			old.c[i] = ks_atomic_add_##SN(&p->c[i], v.c[i]); \
		return old;                                              \
	}                                                                \
	KS_FUNC ks_##VT ks_atomic_sub_##VT(ks_##VT *p, ks_##VT v)        \
	{                                                                \
		ks_##VT old;                                             \
		for (int i = 0; i < N; i++)                              \
			old.c[i] = ks_atomic_sub_##SN(&p->c[i], v.c[i]); \
		return old;                                              \
	}
#define KS_MAT_ATOMIC(MT, N, SN)                                                          \
	KS_FUNC ks_##MT ks_atomic_add_##MT(ks_##MT *p, ks_##MT v)                         \
	{                                                                                 \
		ks_##MT old;                                                              \
		for (int i = 0; i < N; i++)                                               \
			for (int j = 0; j < N; j++)                                       \
				old.c[i][j] = ks_atomic_add_##SN(&p->c[i][j], v.c[i][j]); \
		return old;                                                               \
	}                                                                                 \
	KS_FUNC ks_##MT ks_atomic_sub_##MT(ks_##MT *p, ks_##MT v)                         \
	{                                                                                 \
		ks_##MT old;                                                              \
		for (int i = 0; i < N; i++)                                               \
			for (int j = 0; j < N; j++)                                       \
				old.c[i][j] = ks_atomic_sub_##SN(&p->c[i][j], v.c[i][j]); \
		return old;                                                               \
	}
/* The exchange of a float vector's or matrix's components, each by itself
 * (kdiff's taking of an adjoint that several threads may reach). */
#define KS_VEC_EXCH(VT, N, SN)                                            \
	KS_FUNC ks_##VT ks_atomic_exch_##VT(ks_##VT *p, ks_##VT v)        \
	{                                                                 \
		ks_##VT old;                                              \
		for (int i = 0; i < N; i++)                               \
			old.c[i] = ks_atomic_exch_##SN(&p->c[i], v.c[i]); \
		return old;                                               \
	}
#define KS_MAT_EXCH(MT, N, SN)                                                             \
	KS_FUNC ks_##MT ks_atomic_exch_##MT(ks_##MT *p, ks_##MT v)                         \
	{                                                                                  \
		ks_##MT old;                                                               \
		for (int i = 0; i < N; i++)                                                \
			for (int j = 0; j < N; j++)                                        \
				old.c[i][j] = ks_atomic_exch_##SN(&p->c[i][j], v.c[i][j]); \
		return old;                                                                \
	}
/* clang-format off */
#define KS_VEC_ATOMICS(SN, V2, V3, V4)                                               \
	KS_VEC_ATOMIC(V2, 2, SN) KS_VEC_ATOMIC(V3, 3, SN) KS_VEC_ATOMIC(V4, 4, SN)
#define KS_FLOAT_ATOMICS(SN, V2, V3, V4, V6, M2, M3, M4, M6)                         \
	KS_VEC_ATOMICS(SN, V2, V3, V4) KS_VEC_ATOMIC(V6, 6, SN)                     \
	KS_MAT_ATOMIC(M2, 2, SN) KS_MAT_ATOMIC(M3, 3, SN) KS_MAT_ATOMIC(M4, 4, SN)  \
	KS_MAT_ATOMIC(M6, 6, SN)                                                     \
	KS_VEC_EXCH(V2, 2, SN) KS_VEC_EXCH(V3, 3, SN) KS_VEC_EXCH(V4, 4, SN)        \
	KS_VEC_EXCH(V6, 6, SN) KS_MAT_EXCH(M2, 2, SN) KS_MAT_EXCH(M3, 3, SN)        \
	KS_MAT_EXCH(M4, 4, SN) KS_MAT_EXCH(M6, 6, SN)
KS_FLOAT_ATOMICS(float, vec2, vec3, vec4, spatial_vector, mat22, mat33, mat44, spatial_matrix)
KS_FLOAT_ATOMICS(float16, vec2h, vec3h, vec4h, spatial_vectorh, mat22h, mat33h, mat44h,
		 spatial_matrixh)
KS_FLOAT_ATOMICS(float64, vec2d, vec3d, vec4d, spatial_vectord, mat22d, mat33d, mat44d,
		 spatial_matrixd)
KS_VEC_ATOMIC(quat, 4, float) KS_VEC_ATOMIC(transform, 7, float)
KS_VEC_ATOMIC(quath, 4, float16) KS_VEC_ATOMIC(transformh, 7, float16)
KS_VEC_ATOMIC(quatd, 4, float64) KS_VEC_ATOMIC(transformd, 7, float64)
KS_VEC_ATOMICS(int8, vec2b, vec3b, vec4b)
KS_VEC_ATOMICS(uint8, vec2ub, vec3ub, vec4ub)
KS_VEC_ATOMICS(int16, vec2s, vec3s, vec4s)
KS_VEC_ATOMICS(uint16, vec2us, vec3us, vec4us)
KS_VEC_ATOMICS(int, vec2i, vec3i, vec4i)
KS_VEC_ATOMICS(uint32, vec2ui, vec3ui, vec4ui)
KS_VEC_ATOMICS(int64, vec2l, vec3l, vec4l)
KS_VEC_ATOMICS(uint64, vec2ul, vec3ul, vec4ul)
/* clang-format on */

#endif
