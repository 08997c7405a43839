/*
 * tape.c: t/t2005-tape.t's driver, compiled with the C that kemit-cpu
 * writes for t/diff/tape_loop.py (-include).  The protocol of the tape
 * (doc/autodiff.md): a run with tape[0] = -1 measures what a thread needs
 * into tape[1] and leaves the arrays alone; the gradient is the same, bit
 * for bit, whatever the words the tape gives a thread.  Prints `ok` lines
 * and the failures; exits 1 on one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DIM 5
#define N 7

static int failed;

static void check(int ok, const char *what)
{
	printf("%s %s\n", ok ? "ok" : "not ok", what);
	failed |= !ok;
}

int main(void)
{
	float x[DIM], out[DIM], adj_x[DIM], adj_out[DIM], ref[DIM], refv[DIM * 3];
	ks_vec3 v[DIM], adj_v[DIM];
	int hdr[4] = {-1, 0, DIM, 0};
	for (int i = 0; i < DIM; i++) {
		x[i] = 0.2f * (float)i - 0.45f;
		v[i] = ks_make_vec3(0.1f * (float)i, -0.3f, 0.5f);
		adj_out[i] = 1.0f;
		adj_x[i] = 0.0f;
		adj_v[i] = ks_zero_vec3();
	}
	/* measure: tape[1] is what a thread keeps with no bound, the arrays
	 * stay as they were */
	tape_loop_cpu_backward(DIM, x, v, out, N, adj_x, adj_v, adj_out, hdr);
	check(hdr[1] == (N - 1) * 4, "measuring: (n - 1) checkpoints of 4 words");
	int same = 1;
	for (int i = 0; i < DIM; i++)
		same &= adj_out[i] == 1.0f && adj_x[i] == 0.0f && adj_v[i].c[0] == 0.0f;
	check(same, "measuring: the adjoint arrays are left alone");
	/* every size of tape: the same gradient */
	for (int words = hdr[1]; words >= 0; words--) {
		int *t = malloc((4 + (size_t)DIM * (size_t)(words ? words : 1)) * sizeof *t);
		t[0] = words;
		t[1] = 0;
		t[2] = DIM;
		t[3] = 0;
		for (int i = 0; i < DIM; i++) {
			adj_out[i] = 1.0f;
			adj_x[i] = 0.0f;
			adj_v[i] = ks_zero_vec3();
		}
		tape_loop_cpu_backward(DIM, x, v, out, N, adj_x, adj_v, adj_out, t);
		if (words == hdr[1]) {
			memcpy(ref, adj_x, sizeof ref);
			for (int i = 0; i < DIM; i++)
				memcpy(&refv[3 * i], adj_v[i].c, sizeof adj_v[i].c);
		} else {
			int eq = !memcmp(ref, adj_x, sizeof ref);
			for (int i = 0; i < DIM; i++)
				eq &= !memcmp(&refv[3 * i], adj_v[i].c, sizeof adj_v[i].c);
			char what[80];
			snprintf(what, sizeof what, "a tape of %d words a thread: the same gradient", words);
			check(eq, what);
		}
		check(t[1] == hdr[1], words == hdr[1] ? "a run reports the need too" : "... and its need");
		free(t);
	}
	/* a nested loop: its checkpoints on top of the outer loop's */
	float nref[DIM];
	int nh[4] = {-1, 0, DIM, 0};
	tape_nested_cpu_backward(DIM, x, out, N, adj_x, adj_out, nh);
	check(nh[1] >= N - 1 + 2, "nested: the inner loop's need counted on top");
	for (int words = nh[1]; words >= 0; words--) {
		int *t = malloc((4 + (size_t)DIM * (size_t)(words ? words : 1)) * sizeof *t);
		t[0] = words;
		t[1] = 0;
		t[2] = DIM;
		t[3] = 0;
		for (int i = 0; i < DIM; i++) {
			adj_out[i] = 1.0f;
			adj_x[i] = 0.0f;
		}
		tape_nested_cpu_backward(DIM, x, out, N, adj_x, adj_out, t);
		if (words == nh[1]) {
			memcpy(nref, adj_x, sizeof nref);
		} else {
			char what[80];
			snprintf(what, sizeof what, "nested, a tape of %d words: the same gradient", words);
			check(!memcmp(nref, adj_x, sizeof nref), what);
		}
		free(t);
	}
	return failed;
}
