#!/bin/bash
# make check-cuda: the cuda device agrees with the cpu device, forward:
# hand-written code with every kind of parameter (exactly), the integer
# edge cases of doc/language.md (exactly), every sample at the default dim
# and at about 1000 threads (4 blocks), and through the grid-stride loop
# on a 40x128 grid every atomic sample at about 100000 threads (about 20
# indices a thread) and one sample of every other category at about 12000
# (int scalars 64 there, t/run/devagree.sh's big_sets).  A launch of 2 or
# 3 dimensions takes about as many threads (dims_for: a 2-D one at --dim
# 32, 110 and 316, a 3-D one at 10, 23 and 46).  The samples run in
# parallel (par).  An output that depends on the threads' order (the slot
# an atomic hands out) is compared as a multiset (doc/runtime.md).
# The bounds and why are in t/run/devagree.sh.  No GPU or driver: SKIP
# with krun's reason, a failure where a GPU is visible (t/run/gpu.sh).
# KS_CUDA_STANDIN=sim runs it all on sim instead, to test the test.
. "$(dirname "$0")/lib.sh"
. t/run/cuda.sh
. t/run/devagree.sh
DEV=${KS_CUDA_STANDIN:-cuda}

if [ "$DEV" = cuda ]; then
	krun --device cuda t/run/abi.kir t/run/abi.cu >"$TMP/dev.json" 2>"$TMP/err"
	st=$?
	if [ $st = 77 ]; then
		gpu_skip "cuda agrees with cpu on every sample" "$(cat "$TMP/err")"
		done_testing
	fi
	is "krun --device cuda runs t/run/abi.cu" "$st" 0 || diag "$(head -c 3000 "$TMP/err")"
else
	diag "KS_CUDA_STANDIN=$DEV: $DEV stands in for cuda"
	krun --device "$DEV" t/run/abi.kir t/run/abi.cu >"$TMP/dev.json" 2>"$TMP/err"
fi
krun t/run/abi.kir t/run/abi.c >"$TMP/cpu.json"
ok "$DEV runs hand-written code with every kind of parameter exactly" \
	python3 t/run/check.py agree "$TMP/cpu.json" "$TMP/dev.json"
ok "... both kernels' outputs as worked out in float32" python3 t/run/check.py abi "$TMP/dev.json"
for dim in 25 40; do
	t_krun "$TMP/ie.json" "$TMP/err" "t/run/int_edges.py on $DEV" --device "$DEV" --dim $dim t/run/int_edges.py &&
		ok "integer division by 0 and -1, float -> int: the documented answers on $DEV (dim $dim)" \
			python3 t/run/check.py int-edges "$TMP/ie.json"
done
for py in samples/*/*.py; do
	dim=$(dims_for "$py" 1000)
	call fwd_pair "cpu and $DEV agree on $py" "$TOL_FWD" "$py"
	call fwd_pair "... with $dim (4 blocks)" "$TOL_FWD" $dim --seed 7 "$py"
done >"$TMP/list"
# through the grid-stride loop: every atomic sample at about 100000
# threads (the GPU's order of atomics at scale), and the first sample of
# every other category at about 12000, 2 or 3 indices a thread, since a
# record of 100000 threads is up to 270 MB (special/decompose.py's
# matrices) and t/run/check.py holds it whole; a launch of 2 or 3
# dimensions takes about as many threads
for d in samples/*/; do
	case $d in */atomic/) set -- "$d"*.py ;; *) set -- "$(ls "$d"*.py | head -1)" ;; esac
	for py in "$@"; do
		case $d in */atomic/) big=$(dims_for "$py" 100000) ;; *) big=$(dims_for "$py" 12000) ;; esac
		call fwd_pair "cpu and $DEV agree on $py with $big $BIG_GRID (the grid-stride loop)" \
			"$TOL_BIG" $big $BIG_GRID $(big_sets "$py") "$py"
	done
done >>"$TMP/list"
par "$TMP/list"
done_testing
