#!/bin/bash
# The cuda device.  Where there is no GPU or driver (as on most build
# machines) krun --device cuda exits 77 with a one-line reason and no
# output; where there is one, its records agree with the cpu device.
# Where a GPU is visible (nvidia-smi -L lists one, or KS_REQUIRE_GPU=1)
# exit 77 is a failure with krun's reason: t/run/gpu.sh.  Compiling with
# NVRTC needs no driver and is tested wherever NVRTC is.  make check-cuda
# (t/t41xx) does the same for every sample.
. "$(dirname "$0")/lib.sh"
. t/run/gpu.sh

CHECK="python3 t/run/check.py"
KIR=t/run/abi.kir

krun --device cuda $KIR t/run/abi.cu >"$TMP/cuda.json" 2>"$TMP/err"
st=$?
if [ $st = 77 ] && [ -n "$GPU_VISIBLE" ]; then
	gpu_fail "a GPU is visible ($GPU_VISIBLE): --device cuda runs" "krun --device cuda exits 77: $(cat "$TMP/err")"
elif [ $st = 77 ]; then
	t_result 0 "no GPU here: --device cuda exits 77"
	diag "reason: $(cat "$TMP/err")"
	is "... with a one-line reason" "$(wc -l <"$TMP/err" | tr -d ' '):$(grep -c '^krun: --device cuda: ' "$TMP/err")" "1:1"
	is "... and nothing on stdout" "$(cat "$TMP/cuda.json")" ""
	krun --device cuda samples/arithmetic/saxpy_rational.py >"$TMP/out" 2>"$TMP/err"
	is "... for a sample too" "$?" 77
else
	is "a GPU: --device cuda runs" "$st" 0 || diag "$(head -c 3000 "$TMP/err")"
	ok "cuda: every argument reaches the kernel, both kernels' records" $CHECK abi "$TMP/cuda.json"
	krun --device cuda --grid 2x3 --dim 20 $KIR t/run/abi.cu >"$TMP/g.json" 2>"$TMP/err"
	is "cuda --grid 2x3 --dim 20 runs" "$?" 0 || diag "$(head -c 3000 "$TMP/err")"
	krun --dim 20 $KIR t/run/abi.c >"$TMP/c.json"
	ok "... and agrees with cpu" $CHECK agree "$TMP/c.json" "$TMP/g.json"
	krun --device cuda samples/arithmetic/saxpy_rational.py >"$TMP/s.json" 2>"$TMP/err"
	is "cuda runs a sample" "$?" 0 || diag "$(head -c 3000 "$TMP/err")"
	krun samples/arithmetic/saxpy_rational.py >"$TMP/c.json"
	ok "... and agrees with cpu" $CHECK agree "$TMP/c.json" "$TMP/s.json" --rel 1e-6
fi

krun --device cuda --compile-only $KIR t/run/abi.cu >"$TMP/out" 2>"$TMP/err"
st=$?
if [ $st = 77 ]; then
	gpu_skip "NVRTC compiles abi.cu to a cubin" "$(cat "$TMP/err")"
else
	is "NVRTC compiles abi.cu to an sm_90 cubin (--compile-only)" "$st" 0 || diag "$(cat "$TMP/err")"
	is "... without a warning" "$(cat "$TMP/err")" ""
	printf '#include "ksynth.h"\nextern "C" __global__ void scale_cuda_forward(int dim, float s, float *ys) { ys[0] = s +; }\n' >"$TMP/bad.cu"
	krun --device cuda --compile-only --kernel scale $KIR "$TMP/bad.cu" >"$TMP/out" 2>"$TMP/err"
	is "CUDA that NVRTC rejects: status 1" "$?" 1
	ok "... with NVRTC's log, located in the file" grep -q "bad.cu(2): error" "$TMP/err"
fi
done_testing
