#!/bin/bash
# Golden records: krun's output for a few kernels, byte for byte against
# the files in t/run/golden/, whose values t/run/check.py works out by hand
# from the printed inputs (in float32: saxpy with --set a=2 is a*x+y
# rounded once per operation, the histogram's counts grow by exactly dim,
# ...).  A change of the input law or of the record's format shows here.
. "$(dirname "$0")/lib.sh"

CHECK="python3 t/run/check.py"
G=t/run/golden

golden() { # golden NAME CHECK krun-args...
	local name=$1 check=$2
	shift 2
	krun "$@" >"$TMP/$name.json" 2>"$TMP/err" ||
		{ t_result 1 "krun $*"; diag "$(head -c 3000 "$TMP/err")"; return; }
	ok "$name: the outputs are the ones worked out by hand" $CHECK "$check" "$TMP/$name.json"
	ok "$name: the inputs follow the law" $CHECK law "$TMP/$name.json" a
	same_file "$name: krun $* is $G/$name.json" "$TMP/$name.json" "$G/$name.json"
}

golden abi abi --dim 4 t/run/abi.kir t/run/abi.c
golden saxpy saxpy --dim 8 --set a=2 --kernel saxpy samples/arithmetic/saxpy_rational.py
golden histogram histogram --dim 8 --kernel histogram samples/atomic/histogram.py
golden weighted weighted --dim 8 --seed 3 --kernel weighted_histogram samples/atomic/histogram.py
golden swizzle swizzle --dim 4 --kernel swizzle samples/vector/components.py
golden gram gram --dim 4 --kernel gram_matrix samples/matrix/elements.py
krun --device sim --dim 8 --set a=2 --kernel saxpy samples/arithmetic/saxpy_rational.py >"$TMP/saxpy-sim.json" 2>&1
is "saxpy on sim is the golden record but for the device" "$(cat "$TMP/saxpy-sim.json")" \
	"$(sed 's/"device": "cpu"/"device": "sim"/' "$G/saxpy.json")"
done_testing
