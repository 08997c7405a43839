#!/bin/bash
# make check-cuda: every backward on the GPU.  For every sample, every
# t/grad case and $KS_GEN_N (default 20) kgen kernels a category, krun
# --gradcheck on cpu and on cuda: the outputs and the gradients agree
# (bounds and why in t/run/devagree.sh), and cuda's gradients, from the
# backward kernels kdiff writes run on the GPU (vector and matrix
# atomics, atomic_min/atomic_max, loops, functions), pass the finite
# differences of the double-precision forward on the host wherever cpu's
# do.  No GPU or driver: SKIP with krun's reason, a failure where a GPU
# is visible (t/run/gpu.sh).  KS_CUDA_STANDIN=sim runs it all on sim
# instead, to test the test; make check does so on a subset (t/t4009).
# The files run in parallel (t/run/devagree.sh's par).
. "$(dirname "$0")/lib.sh"
. t/run/cuda.sh
. t/run/devagree.sh
DEV=${KS_CUDA_STANDIN:-cuda}

if [ "$DEV" = cuda ]; then
	krun --device cuda --grad t/grad/saxpy.kir >/dev/null 2>"$TMP/err"
	st=$?
	if [ $st = 77 ]; then
		gpu_skip "every backward on the GPU agrees with cpu" "$(cat "$TMP/err")"
		done_testing
	fi
else
	diag "KS_CUDA_STANDIN=$DEV: $DEV stands in for cuda"
fi

for f in samples/*/*.py t/grad/*.py t/grad/*.kir; do
	call grad_pair "--gradcheck on cpu and $DEV agree on $f" "$TOL_FWD" "$f"
done >"$TMP/list"
gen=$(gen_set "$TMP/gen" "${KS_GEN_N:-20}") || { t_result 1 "kgen makes the generated set"; done_testing; }
for f in $gen; do
	call grad_pair "--gradcheck on cpu and $DEV agree on kgen's ${f#"$TMP/gen/"}" "$TOL_GEN" "$f"
done >>"$TMP/list"
par "$TMP/list"
done_testing
