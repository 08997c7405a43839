#!/bin/bash
# kemit-cpu and kemit-cu on every sample (through kparse, or its golden
# .kir), on the hand-written IR of t/ir, t/emit and t/grad (backward
# kernels) and on kdiff's output for every sample: the output is
# deterministic, the C compiles warning-free with gcc and tcc (also in
# double mode, -DKS_REAL_DOUBLE, and kemit-cpu --checked's), the CUDA
# with the host C++ compiler through runtime/ksynth_sim.h (the headers
# precompiled once), with nvcc -ptx and with NVRTC (compute_90).  A
# sample's forward code is compiled as part of kdiff's output for it,
# which holds it line for line.  What needs the CUDA toolkit is skipped
# when it is absent ($CUDA_HOME, else /usr/local/cuda).  Under the
# sanitizers (make check SAN=1) the emitters are what is tested: their
# output is compiled once each way that reads every line of it (gcc -O2,
# the checked mode, g++ through the shim, NVRTC), and the other compilers
# of the same bytes (tcc, the double mode, nvcc) are left to the plain run.
. "$(dirname "$0")/lib.sh"
SAN_ONLY="under the sanitizers the plain run's check (the same bytes)"

CUDA=${CUDA_HOME:-/usr/local/cuda}
NVCC=
if [ -x "$CUDA/bin/nvcc" ]; then NVCC=$CUDA/bin/nvcc; elif command -v nvcc >/dev/null; then NVCC=$(command -v nvcc); fi
NVRTC=
for l in "$CUDA"/lib64/libnvrtc.so "$CUDA"/lib64/libnvrtc.so.*; do
	case $l in *alt*|*builtins*) continue ;; esac
	[ -f "$l" ] && { NVRTC=$l; break; }
done

inputs=()
for py in samples/*/*.py; do
	kir=${py%.py}.kir
	b=$(echo "${py#samples/}" | tr / _)
	b=${b%.py}
	if [ -f "$kir" ]; then
		cp "$kir" "$TMP/$b.kir"
	elif ! kparse "$py" >"$TMP/$b.kir" 2>"$TMP/err"; then
		t_result 1 "kparse $py"
		diag "$(cat "$TMP/err")"
		continue
	fi
	inputs+=("$TMP/$b.kir")
done
for kir in t/ir/*.kir t/emit/*.kir t/grad/*.kir; do
	b=$(basename "$kir" .kir)
	cp "$kir" "$TMP/ir_$b.kir"
	inputs+=("$TMP/ir_$b.kir")
done
# the backward kernels kdiff appends to every sample
for py in samples/*/*.py; do
	b=$(echo "${py#samples/}" | tr / _)
	b=adj_${b%.py}
	if kparse "$py" 2>"$TMP/err" | kdiff >"$TMP/$b.kir" 2>>"$TMP/err"; then
		inputs+=("$TMP/$b.kir")
	else
		t_result 1 "kdiff $py"
		diag "$(head -c 3000 "$TMP/err")"
	fi
done

# the shim and ksynth.h precompiled once, warning-free with the flags of
# each file's compile below, which then reads only its own code (as krun
# --device sim does, doc/runtime.md)
SIM_CXX=
if command -v g++ >/dev/null; then
	mkdir -p "$TMP/pch" && printf '#include "ksynth_sim.h"\n#include "ksynth.h"\n' >"$TMP/pch/sim_all.h"
	ok "g++ precompiles ksynth_sim.h and ksynth.h without a warning" g++ -std=c++17 -Wall -Wextra -Werror \
		-I runtime -x c++-header -o "$TMP/pch/sim_all.h.gch" "$TMP/pch/sim_all.h" && SIM_CXX=g++
fi

# ksynth.h precompiled once for each way gcc compiles the C below (the
# same flags and macros as the compile that uses it, -Winvalid-pch
# making a header gcc cannot use an error): -O2, kemit-cpu --checked's
# KS_CHECKED, and the double mode's KS_REAL_DOUBLE, at -O0 (its flow is
# the float code's, which -O2 checks: the front end's warnings are
# what is left to see)
CW="-std=c11 -Wall -Wextra -Werror"
for m in "c -O2" "checked -O2 -DKS_CHECKED" "double -O0 -DKS_REAL_DOUBLE"; do
	set -- $m
	mkdir -p "$TMP/pch-$1"
	# shellcheck disable=SC2086
	ok "gcc precompiles ksynth.h ($*) without a warning" \
		gcc $CW "${@:2}" -I runtime -x c-header -o "$TMP/pch-$1/ksynth.h.gch" runtime/ksynth.h
done
pch() { echo "-Winvalid-pch -I $TMP/pch-$1 -I runtime"; }

cus=()
for kir in "${inputs[@]}"; do
	b=${kir%.kir}
	n=$(basename "$b")
	ok "kemit-cpu $n" kemit-cpu -o "$b.c" "$kir" || continue
	ok "kemit-cu $n" kemit-cu -o "$b.cu" "$kir" || continue
	kemit-cpu - <"$kir" >"$b.2.c"
	kemit-cu "$kir" >"$b.2.cu"
	# stdin or a file, run twice: the same bytes (the header names the IR's source)
	if cmp -s "$b.c" "$b.2.c" && cmp -s "$b.cu" "$b.2.cu"; then
		t_result 0 "$n: emitting twice gives the same bytes"
	else
		t_result 1 "$n: emitting twice gives the same bytes"
	fi
	# a sample's forward code is compiled as part of kdiff's output for
	# it, which holds it line for line (checked after the loop)
	[ -f "$TMP/adj_$n.kir" ] && continue
	# shellcheck disable=SC2046
	ok "$n.c: gcc -std=c11 -Wall -Wextra -Werror -O2" \
		gcc $CW -O2 -c $(pch c) -o "$b.o" "$b.c"
	if [ -n "${KS_SAN:-}" ]; then
		skip "$n.c: tcc" "$SAN_ONLY"
	elif command -v tcc >/dev/null; then
		ok "$n.c: tcc" tcc -c -I runtime -o "$b.tcc.o" "$b.c"
	else
		skip "$n.c: tcc" "tcc not installed"
	fi
	# double mode (krun --gradcheck): the same C with float made double
	if [ -n "${KS_SAN:-}" ]; then
		skip "$n.c: gcc -DKS_REAL_DOUBLE -Werror" "$SAN_ONLY"
	else
		# shellcheck disable=SC2046
		ok "$n.c: gcc -DKS_REAL_DOUBLE -Werror" \
			gcc $CW -O0 -DKS_REAL_DOUBLE -c $(pch double) -o "$b.d.o" "$b.c"
	fi
	if [ -n "${KS_SAN:-}" ]; then
		skip "$n.c: tcc -DKS_REAL_DOUBLE" "$SAN_ONLY"
	elif command -v tcc >/dev/null; then
		ok "$n.c: tcc -DKS_REAL_DOUBLE" tcc -DKS_REAL_DOUBLE -c -I runtime -o "$b.d.tcc.o" "$b.c"
	else
		skip "$n.c: tcc -DKS_REAL_DOUBLE" "tcc not installed"
	fi
	# the checked mode (krun's own cpu code): every array a view, every
	# access through ks_index
	kemit-cpu --checked "$kir" >"$b.k.c"
	# shellcheck disable=SC2046
	ok "$n.c: kemit-cpu --checked, gcc -Werror" \
		gcc $CW -O2 -c $(pch checked) -o "$b.k.o" "$b.k.c"
	if [ -n "$SIM_CXX" ]; then
		ok "$n.cu: g++ with ksynth_sim.h" g++ -std=c++17 -Wall -Wextra -Werror -Winvalid-pch -c \
			-I "$TMP/pch" -I runtime -include sim_all.h -x c++ -o "$b.sim.o" "$b.cu"
	elif command -v g++ >/dev/null; then
		t_result 1 "$n.cu: g++ with ksynth_sim.h (the headers did not precompile)"
	else
		skip "$n.cu: g++ with ksynth_sim.h" "g++ not installed"
	fi
	if [ -n "${KS_SAN:-}" ]; then
		skip "$n.cu: nvcc -ptx" "$SAN_ONLY"
	elif [ -n "$NVCC" ]; then
		ok "$n.cu: nvcc -ptx -arch=sm_90" "$NVCC" -ptx -arch=sm_90 -fmad=false -Werror all-warnings \
			-I runtime -o "$b.ptx" "$b.cu"
	else
		skip "$n.cu: nvcc -ptx" "no nvcc in $CUDA/bin or on PATH"
	fi
	cus+=("$b.cu")
done

# the forward code of each sample is all in the file of its forward and
# backward kernels, where the compilers above checked it
for a in "$TMP"/adj_*.kir; do
	b=${a%.kir}
	f=$TMP/${b#"$TMP"/adj_}
	n=$(basename "$f")
	if [ -s "$b.c" ] && [ -s "$b.cu" ] && ! diff "$f.c" "$b.c" | grep -q '^<' && ! diff "$f.cu" "$b.cu" | grep -q '^<'; then
		t_result 0 "$n: the forward code is all in adj_$n's, compiled there"
	else
		t_result 1 "$n: the forward code is all in adj_$n's"
		diag "$(diff "$f.c" "$b.c" | grep '^<' | head -5)"
	fi
done

if [ -n "$NVRTC" ] && gcc -std=c11 -Wall -Wextra -Werror -O2 -o "$TMP/nvrtc" t/runtime/nvrtc.c -ldl 2>"$TMP/err"; then
	ok "NVRTC compute_90 compiles all ${#cus[@]} CUDA files without a warning" "$TMP/nvrtc" "$NVRTC" "${cus[@]}"
else
	skip "NVRTC compiles the CUDA files" "no libnvrtc.so in $CUDA/lib64"
fi
done_testing
