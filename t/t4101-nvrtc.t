#!/bin/bash
# make check-cuda: every sample's emitted CUDA compiles with NVRTC to an
# sm_90 cubin (krun --device cuda --compile-only: no driver needed),
# without a warning, and so do the backward kernels of every sample and
# t/grad kernel (kdiff's output).  No NVRTC: SKIP with the reason.
. "$(dirname "$0")/lib.sh"
. t/run/cuda.sh

krun --device cuda --compile-only t/run/abi.kir t/run/abi.cu >/dev/null 2>"$TMP/err"
if [ $? = 77 ]; then
	skip "NVRTC compiles every sample" "$(cat "$TMP/err")"
	done_testing
fi
for py in samples/*/*.py; do
	krun --device cuda --compile-only --arch sm_90 "$py" >"$TMP/out" 2>"$TMP/err"
	st=$?
	if [ $st = 0 ] && [ ! -s "$TMP/err" ]; then
		t_result 0 "NVRTC compiles $py for sm_90 without a warning"
	else
		t_result 1 "NVRTC compiles $py for sm_90 without a warning"
		diag "exit $st" "$(head -c 3000 "$TMP/err")"
	fi
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
