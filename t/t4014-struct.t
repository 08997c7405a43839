#!/bin/bash
# @wp.struct: t/struct/*.py lower to their golden IR, which kfmt prints
# back unchanged; both emitters' code runs under krun on cpu and sim with
# the same record; malformed structs get located errors (t/struct/bad-*).
. "$(dirname "$0")/lib.sh"

export TMPDIR=$TMP/tmp
mkdir -p "$TMPDIR"
for py in t/struct/params.py t/struct/nested.py; do
	kir=${py%.py}.kir
	kparse "$py" >"$TMP/out.kir"
	same_file "$py: IR matches $kir" "$TMP/out.kir" "$kir"
	kfmt "$kir" >"$TMP/rt.kir"
	same_file "$py: kfmt prints its IR back unchanged" "$TMP/rt.kir" "$kir"
	krun --dim 8 "$py" >"$TMP/cpu.json"
	krun --device sim --dim 8 "$py" >"$TMP/sim.json"
	is "$py: cpu and sim records agree" \
		"$(sed 's/"device": "cpu"/"device": "sim"/' "$TMP/cpu.json")" "$(cat "$TMP/sim.json")"
done
krun --dim 8 --shape s.weights=4 t/struct/nested.py >"$TMP/oob.json" 2>"$TMP/oob.err"
is "an out-of-bounds index of a struct's array fails" $? 1
is "... and names the array by its field" "$(head -1 "$TMP/oob.err")" \
	"t/struct/nested.py:28:31: error: s.weights[4] is out of bounds in kernel step: s.weights has 4 elements"
for py in t/struct/bad-*.py; do
	err=${py%.py}.err
	! kparse -o "$TMP/bad.kir" "$py" 2>"$TMP/err"
	t_result $? "$py: rejected"
	same_file "$py: the located error of $err" "$TMP/err" "$err"
	ok "$py: no output file" test ! -e "$TMP/bad.kir"
done
done_testing
