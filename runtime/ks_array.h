/*
 * ks_array.h: arrays as the emitted code passes them: a 1-D array is a
 * pointer to its elements, one of more dimensions a view, ks_array_<elem>
 * (its elements and its shape), for every element type; and in checked
 * mode (C only) the index functions that check each access against its
 * extent and report one outside it with its source position.
 */
#ifndef KS_ARRAY_H
#define KS_ARRAY_H

/* An array of two or more dimensions is a view: its elements, row-major,
 * and its shape; a[i, j] is a.data[i * a.shape[1] + j].  (A 1-D array is
 * a pointer to its elements.) */
/* clang-format off */
#define KS_ARRAY(EN, ET) typedef struct { ET *data; int shape[4]; } ks_array_##EN;
#define KS_ARRAY_VECS(SN, ST, V2, V3, V4)                                            \
	KS_ARRAY(SN, ST) KS_ARRAY(V2, ks_##V2) KS_ARRAY(V3, ks_##V3) KS_ARRAY(V4, ks_##V4)
KS_ARRAY(bool, bool)
KS_ARRAY_VECS(int8, int8_t, vec2b, vec3b, vec4b)
KS_ARRAY_VECS(uint8, uint8_t, vec2ub, vec3ub, vec4ub)
KS_ARRAY_VECS(int16, int16_t, vec2s, vec3s, vec4s)
KS_ARRAY_VECS(uint16, uint16_t, vec2us, vec3us, vec4us)
KS_ARRAY_VECS(int, int, vec2i, vec3i, vec4i)
KS_ARRAY_VECS(uint32, uint32_t, vec2ui, vec3ui, vec4ui)
KS_ARRAY_VECS(int64, int64_t, vec2l, vec3l, vec4l)
KS_ARRAY_VECS(uint64, uint64_t, vec2ul, vec3ul, vec4ul)
#define KS_ARRAY_FLOATS(SN, ST, V2, V3, V4, V6, M2, M3, M4, M6, Q, X)                \
	KS_ARRAY_VECS(SN, ST, V2, V3, V4)                                           \
	KS_ARRAY(V6, ks_##V6) KS_ARRAY(M2, ks_##M2) KS_ARRAY(M3, ks_##M3)           \
	KS_ARRAY(M4, ks_##M4) KS_ARRAY(M6, ks_##M6) KS_ARRAY(Q, ks_##Q) KS_ARRAY(X, ks_##X)
KS_ARRAY_FLOATS(float, KS_REAL, vec2, vec3, vec4, spatial_vector, mat22, mat33, mat44,
		spatial_matrix, quat, transform)
KS_ARRAY_FLOATS(float16, ks_half, vec2h, vec3h, vec4h, spatial_vectorh, mat22h, mat33h,
		mat44h, spatial_matrixh, quath, transformh)
KS_ARRAY_FLOATS(float64, double, vec2d, vec3d, vec4d, spatial_vectord, mat22d, mat33d,
		mat44d, spatial_matrixd, quatd, transformd)
/* clang-format on */

/* Checked mode (kemit-cpu --checked, krun's own cpu build; C only): every
 * array, a 1-D one too, is a view, and every access a[i, j] is
 * a.data[ks_index2(a.shape, i, j, "a", LINE, COL)], the source position
 * of the access.  An index outside its extent calls ks_bounds_error, which
 * the program that loads the code (krun) points at a function that
 * reports the access and does not return; left unset, the program
 * aborts. */
#if defined(KS_CHECKED) && !KS_CUDA
#include <stdlib.h>
void (*ks_bounds_error)(const char *array, int line, int col, int rank, const long long *index, const int *shape);

KS_FUNC long long ks_index_checked(const int *shape, int rank, const long long *index, const char *array, int line,
				   int col)
{
	long long at = 0;
	for (int k = 0; k < rank; k++) {
		if (index[k] < 0 || index[k] >= shape[k]) {
			if (ks_bounds_error)
				ks_bounds_error(array, line, col, rank, index, shape);
			abort();
		}
		at = at * shape[k] + index[k];
	}
	return at;
}
KS_FUNC long long ks_index1(const int *shape, long long i, const char *array, int line, int col)
{
	long long index[1] = {i};
	return ks_index_checked(shape, 1, index, array, line, col);
}
KS_FUNC long long ks_index2(const int *shape, long long i, long long j, const char *array, int line, int col)
{
	long long index[2] = {i, j};
	return ks_index_checked(shape, 2, index, array, line, col);
}
KS_FUNC long long ks_index3(const int *shape, long long i, long long j, long long k, const char *array, int line,
			    int col)
{
	long long index[3] = {i, j, k};
	return ks_index_checked(shape, 3, index, array, line, col);
}
KS_FUNC long long ks_index4(const int *shape, long long i, long long j, long long k, long long l, const char *array,
			    int line, int col)
{
	long long index[4] = {i, j, k, l};
	return ks_index_checked(shape, 4, index, array, line, col);
}
#endif

#endif
