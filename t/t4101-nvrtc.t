#!/bin/bash
# make check-cuda: the CUDA krun runs on the GPU compiles with NVRTC to
# an sm_90 cubin (krun --device cuda --compile-only: no driver needed),
# without a warning: every sample, forward alone and with the backward
# kdiff writes (--grad), every t/grad case, t/run/int_edges.py,
# t/emit/names.py and $KS_GEN_N (default 20) kgen kernels a category.  No
# NVRTC: SKIP with the reason, a failure where a GPU is visible
# (t/run/gpu.sh).
. "$(dirname "$0")/lib.sh"
. t/run/cuda.sh

krun --device cuda --compile-only t/run/abi.kir t/run/abi.cu >/dev/null 2>"$TMP/err"
if [ $? = 77 ]; then
	gpu_skip "NVRTC compiles every sample" "$(cat "$TMP/err")"
	done_testing
fi
. t/run/devagree.sh
gen=$(gen_set "$TMP/gen" "${KS_GEN_N:-20}") || t_result 1 "kgen makes the generated set"
nvrtc_ok() { # nvrtc_ok DESC KRUN-ARGS...
	local desc=$1
	shift
	krun --device cuda --compile-only --arch sm_90 "$@" >"$TMP/out" 2>"$TMP/err"
	local st=$?
	if [ $st = 0 ] && [ ! -s "$TMP/err" ]; then
		t_result 0 "$desc"
	else
		t_result 1 "$desc"
		diag "exit $st" "$(head -c 3000 "$TMP/err")"
	fi
}
for py in samples/*/*.py; do
	nvrtc_ok "NVRTC compiles $py for sm_90 without a warning" "$py"
done
for f in samples/*/*.py t/grad/*.py t/grad/*.kir t/run/int_edges.py t/emit/names.py $gen; do
	nvrtc_ok "NVRTC compiles ${f#"$TMP/gen/"} with its backward (--grad) for sm_90 without a warning" --grad "$f"
done
for py in samples/*/*.py t/grad/*.py t/diff/tape_loop.py; do
	{ kparse "$py" | kdiff >"$TMP/d.kir"; } 2>"$TMP/err" ||
		{ t_result 1 "kdiff $py"; diag "$(cat "$TMP/err")"; continue; }
	krun --device cuda --compile-only --arch sm_90 "$TMP/d.kir" >"$TMP/out" 2>"$TMP/err"
	st=$?
	if [ $st = 0 ] && [ ! -s "$TMP/err" ]; then
		t_result 0 "NVRTC compiles $py's backward for sm_90 without a warning"
	else
		t_result 1 "NVRTC compiles $py's backward for sm_90 without a warning"
		diag "exit $st" "$(head -c 3000 "$TMP/err")"
	fi
done
done_testing
