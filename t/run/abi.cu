/*
 * abi.cu: abi.c in the emitted CUDA ABI (a grid-stride loop per kernel).
 */
#include "ksynth.h"

extern "C" __global__ void abi_cuda_forward(int dim, int n, float a, ks_vec3 v, ks_mat22 m, float *xs, int *ks, ks_vec3 *vs, ks_mat33 *ms, float *out)
{
	for (int i = (int)(blockIdx.x * blockDim.x + threadIdx.x); i < dim;
	     i += (int)(blockDim.x * gridDim.x)) {
		float s = a;
		s = s + v.c[0] * 2.0f;
		s = s + v.c[1] * 3.0f;
		s = s + v.c[2] * 4.0f;
		s = s + m.c[0][1] * 5.0f;
		s = s + m.c[1][0] * 6.0f;
		s = s + xs[i] * 7.0f;
		s = s + (float)ks[i] * 8.0f;
		s = s + vs[i].c[2] * 9.0f;
		s = s + ms[i].c[1][2] * 10.0f;
		out[i] = s;
		ks[i] = ks[i] * 2 + n;
		vs[i].c[0] = -vs[i].c[0];
		ms[i].c[2][0] = (float)i;
	}
}

extern "C" __global__ void scale_cuda_forward(int dim, float s, float *ys)
{
	for (int i = (int)(blockIdx.x * blockDim.x + threadIdx.x); i < dim;
	     i += (int)(blockDim.x * gridDim.x))
		ys[i] = ys[i] * s;
}
