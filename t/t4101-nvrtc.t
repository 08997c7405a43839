#!/bin/bash
# make check-cuda: every sample's emitted CUDA compiles with NVRTC to an
# sm_90 cubin (krun --device cuda --compile-only: no driver needed),
# without a warning.  No NVRTC: SKIP with the reason.
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
done_testing
