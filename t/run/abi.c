/*
 * abi.c: hand-written code in the emitted CPU ABI, for t/t4001-krun.t:
 * every kind of parameter, so that a launcher passing one wrongly shows.
 */
#include "ksynth.h"

void abi_cpu_forward(int dim, int n, float a, ks_vec3 v, ks_mat22 m, float *xs, int *ks, ks_vec3 *vs, ks_mat33 *ms, float *out);
void scale_cpu_forward(int dim, float s, float *ys);

static void abi_thread(int i, int n, float a, ks_vec3 v, ks_mat22 m, float *xs, int *ks, ks_vec3 *vs, ks_mat33 *ms, float *out)
{
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

void abi_cpu_forward(int dim, int n, float a, ks_vec3 v, ks_mat22 m, float *xs, int *ks, ks_vec3 *vs, ks_mat33 *ms, float *out)
{
	for (int i = 0; i < dim; i++)
		abi_thread(i, n, a, v, m, xs, ks, vs, ms, out);
}

void scale_cpu_forward(int dim, float s, float *ys)
{
	for (int i = 0; i < dim; i++)
		ys[i] = ys[i] * s;
}
