#!/bin/bash
# make check-cuda: for every sample and kernel, the cuda device agrees with
# the cpu device.  No GPU or driver: SKIP with krun's reason.
#
# Bound: 1e-5 relative or 2e-5 absolute.  CUDA's single-precision
# transcendentals (sinf, expf, powf, ...) are not correctly rounded: the
# CUDA C Programming Guide bounds them at 1 to 4 ulp (<= 2.4e-7 relative
# each) where glibc's are within 1 ulp, a kernel chains a few of them, and
# the GPU runs float atomics in its own order (a sum of 16 terms <= 1 may
# move by 16 * 16 * 2^-24 < 2e-5).  Integer outputs and nulls are exact.
. "$(dirname "$0")/lib.sh"
. t/run/cuda.sh

krun --device cuda t/run/abi.kir t/run/abi.cu >"$TMP/cuda.json" 2>"$TMP/err"
if [ $? = 77 ]; then
	skip "cuda agrees with cpu on every sample" "$(cat "$TMP/err")"
	done_testing
fi
krun t/run/abi.kir t/run/abi.c >"$TMP/cpu.json"
ok "cuda runs hand-written code with every kind of parameter exactly" \
	python3 t/run/check.py agree "$TMP/cpu.json" "$TMP/cuda.json"
for py in samples/*/*.py; do
	krun "$py" >"$TMP/cpu.json" 2>"$TMP/err" &&
		krun --device cuda "$py" >"$TMP/cuda.json" 2>>"$TMP/err" ||
		{ t_result 1 "krun --device cpu|cuda $py"; diag "$(head -c 3000 "$TMP/err")"; continue; }
	ok "cpu and cuda agree on $py" python3 t/run/check.py agree "$TMP/cpu.json" "$TMP/cuda.json" --rel 1e-5 --abs 2e-5
	krun --device cuda --dim 1000 --seed 7 "$py" >"$TMP/cuda.json" 2>"$TMP/err" &&
		krun --dim 1000 --seed 7 "$py" >"$TMP/cpu.json" 2>>"$TMP/err"
	ok "... and with --dim 1000 (4 blocks)" python3 t/run/check.py agree "$TMP/cpu.json" "$TMP/cuda.json" --rel 1e-5 --abs 2e-5
done
# the backward pass on the GPU: float atomics accumulate the adjoints in
# the GPU's order, hence the same bound
for kir in t/grad/*.kir; do
	krun --grad "$kir" >"$TMP/cpu.json" 2>"$TMP/err" &&
		krun --gradcheck --device cuda "$kir" >"$TMP/cuda.json" 2>>"$TMP/err" ||
		{ t_result 1 "krun --gradcheck --device cuda $kir"; diag "$(head -c 3000 "$TMP/err")"; continue; }
	ok "cpu and cuda agree on --grad for $kir" python3 t/run/check.py agree "$TMP/cpu.json" "$TMP/cuda.json" --rel 1e-5 --abs 2e-5
done
done_testing
