#!/bin/bash
# make check-cuda: every sample's emitted CUDA (kparse | kemit-cu) compiles
# with nvcc -ptx -arch=sm_90 -Werror all-warnings, and so do the backward
# kernels of every sample and t/grad kernel (kparse | kdiff | kemit-cu).
# No nvcc: SKIP.
. "$(dirname "$0")/lib.sh"
. t/run/cuda.sh

if [ -z "$NVCC" ]; then
	skip "nvcc compiles every sample" "no nvcc in \$CUDA_HOME/bin ($CUDA_HOME/bin) or on PATH"
	done_testing
fi
diag "nvcc: $NVCC"
nvcc_ok() { # nvcc_ok DESC FILE.cu
	"$NVCC" -ptx -arch=sm_90 -Werror all-warnings -std=c++17 --fmad=false -Iruntime \
		-o "$TMP/out.ptx" "$2" >"$TMP/err" 2>&1
	local st=$?
	t_result $st "$1"
	[ $st = 0 ] || diag "$(head -c 3000 "$TMP/err")"
}
nvcc_ok "nvcc compiles t/run/abi.cu" t/run/abi.cu
for py in samples/*/*.py; do
	base=$(basename "$py" .py)
	kparse "$py" 2>"$TMP/err" | kemit-cu - >"$TMP/$base.cu" 2>>"$TMP/err" ||
		{ t_result 1 "kemit-cu $py"; diag "$(cat "$TMP/err")"; continue; }
	nvcc_ok "nvcc -ptx -arch=sm_90 -Werror all-warnings compiles $py" "$TMP/$base.cu"
done
for py in samples/*/*.py t/grad/*.py t/diff/tape_loop.py; do
	base=$(basename "$py" .py)
	{ kparse "$py" | kdiff | kemit-cu - >"$TMP/$base.d.cu"; } 2>"$TMP/err" ||
		{ t_result 1 "kdiff | kemit-cu $py"; diag "$(cat "$TMP/err")"; continue; }
	nvcc_ok "nvcc -ptx -arch=sm_90 -Werror all-warnings compiles $py's backward" "$TMP/$base.d.cu"
done
done_testing
