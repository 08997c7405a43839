#!/bin/bash
# runtime/ksynth.h against values worked out by hand (t/runtime/ops.c):
# built as C with gcc and tcc, and as simulated CUDA with g++ and
# runtime/ksynth_sim.h; each build's TAP lines become one test here.
. "$(dirname "$0")/lib.sh"

run_ops() { # run_ops DESC COMPILER...
	local desc=$1
	shift
	if ! "$@" -I runtime -o "$TMP/ops" t/runtime/ops.c -lm >"$TMP/err" 2>&1; then
		t_result 1 "$desc: builds"
		diag "$(cat "$TMP/err")"
		return
	fi
	"$TMP/ops" >"$TMP/tap" 2>&1
	local st=$?
	t_result $st "$desc: $(grep -c '^ok' "$TMP/tap") checks pass"
	[ $st = 0 ] || diag "$(grep -v '^ok' "$TMP/tap")"
}

run_ops "gcc" gcc -std=c11 -Wall -Wextra -Werror -O2
if command -v tcc >/dev/null; then run_ops "tcc" tcc; else skip "tcc" "tcc not installed"; fi
if command -v g++ >/dev/null; then
	run_ops "g++ with ksynth_sim.h" g++ -std=c++17 -Wall -Wextra -Werror -include runtime/ksynth_sim.h -x c++
	# krun --device sim loads such code as a shared object: one without
	# thread-local storage (LeakSanitizer's scan of a loaded module's
	# TLS crashes at exit under make check SAN=1)
	kparse samples/vector/triangles.py | kemit-cu >"$TMP/tri.cu"
	g++ -std=c++17 -O0 -shared -fPIC -I runtime -include runtime/ksynth_sim.h -x c++ \
		"$TMP/tri.cu" -o "$TMP/sim.so" 2>"$TMP/err"
	ok "a module built with ksynth_sim.h has no thread-local storage" \
		sh -c "test -s '$TMP/sim.so' && ! readelf -lW '$TMP/sim.so' | grep -q '^ *TLS '"
else
	skip "g++ with ksynth_sim.h" "g++ not installed"
fi
done_testing
