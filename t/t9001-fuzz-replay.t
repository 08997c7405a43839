#!/bin/bash
# The libFuzzer harnesses of t/fuzz (make fuzz) replayed without libFuzzer:
# each is built with t/fuzz/replay.c against this build's library (with
# its sanitizers under make check SAN=1) and run on what the fuzzers found
# (t/fuzz/findings: a name that made the emitters loop forever, an error
# in kdiff that leaked its scratch memory, a 0 / 0 kdiff's simplifier
# folded into a NaN the IR cannot say, a non-ASCII byte in a wp.printf
# format that leaked the text read before it) and on the seed corpus (for
# fuzz-near, kpack's near-duplicate measure, the Python inputs).  Each
# input must finish, bounded, and pass the harness's checks: a located
# error or IR that goes through kdiff and both emitters to code without a
# reserved name (for fuzz-gen, kgen's kernels, no error at all).
. "$(dirname "$0")/lib.sh"

BUILD=${KS_BUILD:-$T_ROOT/build}
LIB=$BUILD/libksynth.a
if [ ! -f "$LIB" ]; then
	skip "fuzz harness replay" "no $LIB (run make first)"
	done_testing
fi
FLAGS="-std=c11 -D_POSIX_C_SOURCE=200809L -I. -I$BUILD/gen -g -O1"
[ "${KS_SAN:-}" = 1 ] && FLAGS="$FLAGS -fsanitize=address,undefined -fno-sanitize-recover=all"

py=(t/fuzz/findings/*.py samples/*/*.py t/errors/*.py t/grad/*.py t/emit/*.py)
kir=(t/fuzz/findings/*.kir samples/*/*.kir t/ir/*.kir t/ir-errors/*.kir t/emit/*.kir t/grad/*.kir)
# fuzz-gen reads bytes that choose kgen's kernels: its seed corpus
# (t/fuzz/gen-corpus.sh) and what it found (t/fuzz/findings/*.gen)
mkdir -p "$TMP/gen" && bash t/fuzz/gen-corpus.sh "$TMP/gen"
gen=("$TMP"/gen/* $(ls t/fuzz/findings/*.gen 2>/dev/null))
# fuzz-simcode reads CUDA code: the tests' own
cu=(t/run/*.cu t/run/blocks/*.cu $(ls t/fuzz/findings/*.cu 2>/dev/null))
for h in front:py ir:kir pipe:py irpipe:kir gen:gen simcode:cu near:py; do
	name=${h%%:*}
	if ! cc $FLAGS -o "$TMP/replay-$name" t/fuzz/replay.c "t/fuzz/fuzz-$name.c" "$LIB" -lm \
		>"$TMP/err" 2>&1; then
		t_result 1 "fuzz-$name builds with replay.c"
		diag "$(head -c 3000 "$TMP/err")"
		continue
	fi
	case ${h#*:} in
	py) set -- "${py[@]}" ;;
	kir) set -- "${kir[@]}" ;;
	gen) set -- "${gen[@]}" ;;
	cu) set -- "${cu[@]}" ;;
	esac
	timeout 300 "$TMP/replay-$name" "$@" >"$TMP/out" 2>&1
	st=$?
	is "fuzz-$name: $# findings and seeds pass (status; 124: a hang)" "$st" 0 ||
		diag "$(tail -c 3000 "$TMP/out")"
done
done_testing
