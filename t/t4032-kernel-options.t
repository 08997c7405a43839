#!/bin/bash
# @wp.kernel's options for the CUDA build (doc/language.md): kparse records
# them on the kernel and kdiff on its backward, kfmt keeps them, kemit-cu
# puts them on the entries (__launch_bounds__, KS_MAXNREG, KS_CLUSTER_DIMS,
# KS_SMEM_SPILLING; a thread per index without the grid-stride loop) and
# kemit-cpu leaves them out; krun keeps a launch within them, and cpu, sim
# and (with a GPU) cuda agree.  NVRTC compiles the entries for sm_90 and
# sm_80 (clusters only exist on the first).
. "$(dirname "$0")/lib.sh"
. t/run/gpu.sh

PY=t/run/options/options.py
kparse $PY | kdiff >"$TMP/o.kir"
is "kparse and kdiff exit 0" "${PIPESTATUS[*]}" "0 0"
is "scale's options, on the kernel and its backward" \
	"$(grep -c '@scale(.*) launch_bounds(128, 2) no_grid_stride smem_spilling !' "$TMP/o.kir")" 2
is "wave's options, on the kernel and its backward" \
	"$(grep -c '@wave(.*) max_registers(64) cluster_dim(4) !' "$TMP/o.kir")" 2
is "shift: the defaults are not recorded, the bound is" \
	"$(grep -c '@shift(.*) launch_bounds(64) !' "$TMP/o.kir")" 2
ok "kfmt prints the options as it reads them" cmp "$TMP/o.kir" <(kfmt "$TMP/o.kir")

kemit-cu "$TMP/o.kir" >"$TMP/o.cu"
is "__launch_bounds__ on scale's two entries" \
	"$(grep -c '__global__ void __launch_bounds__(128, 2) scale_cuda_' "$TMP/o.cu")" 2
is "KS_MAXNREG and KS_CLUSTER_DIMS on wave's two entries" \
	"$(grep -c '__global__ void KS_MAXNREG(64) KS_CLUSTER_DIMS(4) wave_cuda_' "$TMP/o.cu")" 2
is "scale's entries: a thread per index, no grid-stride loop" \
	"$(grep -c '^    if (tid < dim)$' "$TMP/o.cu") $(sed -n '/scale_cuda_/,/^}/p' "$TMP/o.cu" | grep -c 'gridDim')" "2 0"
is "scale's entries allow spilling to shared memory" "$(grep -c 'KS_SMEM_SPILLING();' "$TMP/o.cu")" 2
is "wave and shift keep the grid-stride loop" "$(grep -c 'tid += blockDim.x \* gridDim.x' "$TMP/o.cu")" 4
is "the C code knows nothing of them" \
	"$(kemit-cpu "$TMP/o.kir" | grep -c 'launch_bounds\|MAXNREG\|CLUSTER\|SPILL')" 0

# cpu and sim agree, forward and backward, on the launch krun shapes
for dev in cpu sim; do
	krun --device $dev --grad --dim 200 --seed 3 $PY >"$TMP/$dev.json"
	is "krun --device $dev exits 0" $? 0
done
TOL="--rel 1e-5 --abs 2e-5 --grad-rel 1e-4 --grad-abs 1e-5"
ok "cpu and sim agree on every kernel" python3 t/run/check.py agree "$TMP/cpu.json" "$TMP/sim.json" $TOL

krun --device sim --dim 200 --grid 2x64 --kernel scale $PY >/dev/null 2>"$TMP/err"
is "a grid short of the indices of a kernel without a grid-stride loop: exit 1" $? 1
is "... and why" "$(cat "$TMP/err")" \
	"krun: --grid 2x64: kernel scale has no grid-stride loop (grid_stride=False), so its launch needs a thread for each of its 200 indices"
krun --device sim --dim 200 --grid 2x256 --kernel scale $PY >/dev/null 2>"$TMP/err"
is "more threads to a block than launch_bounds: exit 1" $? 1
is "... and why" "$(cat "$TMP/err")" \
	"krun: --grid 2x256: kernel scale takes at most 128 threads to a block (its launch_bounds)"
krun --device sim --dim 200 --grid 1x64 --kernel shift $PY >"$TMP/short.json"
is "a short grid is fine with a grid-stride loop" $? 0

for arch in sm_90 sm_80; do
	krun --device cuda --compile-only --arch $arch --grad $PY >/dev/null 2>"$TMP/err"
	st=$?
	if [ $st = 77 ]; then
		skip "NVRTC compiles the entries for $arch" "$(head -1 "$TMP/err")"
	else
		is "NVRTC compiles the entries for $arch" "$st $(cat "$TMP/err")" "0 "
	fi
done

krun --device cuda --grad --dim 200 --seed 3 $PY >"$TMP/cuda.json" 2>"$TMP/err"
st=$?
if [ $st = 77 ]; then
	gpu_skip "cuda runs the kernels as their options say" "$(head -1 "$TMP/err")"
else
	is "cuda runs the kernels as their options say" "$st" 0
	ok "cuda agrees with cpu" python3 t/run/check.py agree "$TMP/cpu.json" "$TMP/cuda.json" $TOL
fi
done_testing
