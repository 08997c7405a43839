#!/bin/bash
# gen-corpus.sh DIR: fuzz-gen's seed corpus (t/fuzz/fuzz-gen.c reads the
# layout): one input per category and one for all (mix 0), each at seeds
# 1 to 3 and an index that differs between them, the knobs at kgen's
# defaults.  Used by make fuzz and by t/t9001-fuzz-replay.t.
set -eu
dir=$1
ncat=$(grep -c '^	CAT_[A-Z_]*,$' "$(dirname "$0")/../../gen/gen.h")
le() { # le VALUE BYTES: VALUE little-endian as printf escapes
	local v=$1 k
	for ((k = 0; k < $2; k++)); do
		printf '\\%03o' $((v & 255))
		v=$((v >> 8))
	done
}
for ((c = 0; c <= ncat; c++)); do
	mix=$((c < ncat ? 1 << c : 0))
	for s in 1 2 3; do
		printf "$(le $mix 3)$(le $s 8)$(le $((c * 97 + s * 1013)) 8)" >"$dir/gen-c$c-s$s"
	done
done
