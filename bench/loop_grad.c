/*
 * loop_grad.c: times the forward and the backward of bench/loop_kernel.py
 * on the CPU, compiled with the C that kemit-cpu writes for it (-include;
 * bench/bench.sh, section f).
 *
 *   loop_grad N DIM   prints: N forward_seconds backward_seconds measure_seconds
 *
 * backward_seconds is the backward run with its tape allocated (the need
 * measured before), measure_seconds the run that measures the need (a
 * caller that knows it, or bounds it, skips that run).  Times are the
 * process's CPU time (one thread: its run time, whatever else the machine
 * runs).  Each figure is the fastest of runs lasting 0.2 s in all at
 * least (one run when a run is longer).  With -DNO_TAPE the backward has no tape parameter (the code
 * kdiff wrote before the tape): measure_seconds is 0.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: loop_grad N DIM\n");
		return 2;
	}
	int n = atoi(argv[1]), dim = atoi(argv[2]);
	float *x = malloc((size_t)dim * sizeof *x), *out = malloc((size_t)dim * sizeof *out);
	float *adj_x = malloc((size_t)dim * sizeof *adj_x), *adj_out = malloc((size_t)dim * sizeof *adj_out);
	for (int i = 0; i < dim; i++)
		x[i] = (float)((i * 7919) % 2000 - 1000) / 1000.0f;
	double fwd = 1e30, bwd = 1e30, meas = 0, spent = 0;
	while (spent < 0.2) {
		double t0 = now();
		loop_carried_cpu_forward(dim, x, out, n);
		double t = now() - t0;
		spent += t;
		if (t < fwd)
			fwd = t;
	}
#ifndef NO_TAPE
	int hdr[4] = {-1, 0, dim, 0};
	meas = 1e30;
	spent = 0;
	while (spent < 0.2) {
		hdr[0] = -1;
		hdr[1] = 0;
		double t0 = now();
		loop_carried_cpu_backward(dim, x, out, n, adj_x, adj_out, hdr);
		double t = now() - t0;
		spent += t;
		if (t < meas)
			meas = t;
	}
	int *tape = malloc((4 + (size_t)hdr[1] * (size_t)dim) * sizeof *tape);
#endif
	spent = 0;
	while (spent < 0.2) {
		for (int i = 0; i < dim; i++) {
			adj_x[i] = 0.0f;
			adj_out[i] = 1.0f;
		}
		double t0 = now();
#ifndef NO_TAPE
		tape[0] = hdr[1];
		tape[1] = 0;
		tape[2] = dim;
		tape[3] = 0;
		loop_carried_cpu_backward(dim, x, out, n, adj_x, adj_out, tape);
#else
		loop_carried_cpu_backward(dim, x, out, n, adj_x, adj_out);
#endif
		double t = now() - t0;
		spent += t;
		if (t < bwd)
			bwd = t;
	}
	printf("%d %.6g %.6g %.6g\n", n, fwd, bwd, meas);
#ifndef NO_TAPE
	free(tape);
#endif
	free(x);
	free(out);
	free(adj_x);
	free(adj_out);
	return 0;
}
