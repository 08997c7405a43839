#!/bin/bash
# make check-cuda: the CUDA kemit-cu writes, forward and backward, compiles
# with nvcc -ptx -arch=sm_90 -Werror all-warnings: every sample and every
# t/grad case through kparse | kdiff | kemit-cu, the hand-written IR of
# t/grad and t/emit, t/run/int_edges.py, and $KS_GEN_N (default 20) kgen
# kernels a category.  nvcc is no GPU test: without one, SKIP.
. "$(dirname "$0")/lib.sh"
. t/run/cuda.sh
. t/run/devagree.sh

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
gen=$(gen_set "$TMP/gen" "${KS_GEN_N:-20}") || t_result 1 "kgen makes the generated set"
for f in samples/*/*.py t/grad/*.py t/run/int_edges.py t/grad/*.kir t/emit/*.kir $gen; do
	cu=$TMP/k.cu
	case $f in
	*.py) kparse "$f" 2>"$TMP/err" | kdiff 2>>"$TMP/err" | kemit-cu - >"$cu" 2>>"$TMP/err" ;;
	*.kir) kemit-cu "$f" >"$cu" 2>"$TMP/err" ;;
	esac
	st=$?
	[ $st = 0 ] || { t_result 1 "kemit-cu $f"; diag "$(cat "$TMP/err")"; continue; }
	nvcc_ok "nvcc -ptx -arch=sm_90 -Werror all-warnings compiles ${f#"$TMP/gen/"}, forward and backward" "$cu"
done
for py in samples/*/*.py t/grad/*.py t/diff/tape_loop.py; do
	base=$(basename "$py" .py)
	{ kparse "$py" | kdiff | kemit-cu - >"$TMP/$base.d.cu"; } 2>"$TMP/err" ||
		{ t_result 1 "kdiff | kemit-cu $py"; diag "$(cat "$TMP/err")"; continue; }
	nvcc_ok "nvcc -ptx -arch=sm_90 -Werror all-warnings compiles $py's backward" "$TMP/$base.d.cu"
done
done_testing
