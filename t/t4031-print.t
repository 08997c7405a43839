#!/bin/bash
# wp.printf, print and Warp's expect_* checks (doc/language.md):
# t/run/print/values.py prints
# every kind of value and every printf conversion; the log on cpu and sim
# is t/run/print/values.log (what Warp 1.19 prints for it, checked by
# t/warp/print.t), on stderr, with stdout holding the JSON alone; --grad
# prints the forward's lines once (kdiff keeps printf in the forward
# only); the CUDA code compiles with NVRTC where there is one.
. "$(dirname "$0")/lib.sh"

PY=t/run/print/values.py
for dev in cpu sim; do
	krun --device $dev --dim 2 $PY >"$TMP/$dev.json" 2>"$TMP/$dev.log"
	is "$dev: krun exits 0" $? 0
	same_file "$dev: the log is Warp's" "$TMP/$dev.log" t/run/print/values.log
	ok "$dev: stdout is one JSON record" python3 -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1])]' "$TMP/$dev.json"
	krun --device $dev --dim 2 --grad $PY >/dev/null 2>"$TMP/$dev.grad.log"
	same_file "$dev --grad: the forward's lines, once" "$TMP/$dev.grad.log" t/run/print/values.log
done

# wp.expect_eq/neq/near print Warp's messages where they fail (and assert
# is left out, as in Warp's release builds): expects.log is Warp's log
EX=t/run/print/expects.py
for dev in cpu sim; do
	krun --device $dev --dim 3 --grad $EX >"$TMP/$dev.json" 2>"$TMP/$dev.log"
	is "$dev: krun exits 0 on the expects" $? 0
	same_file "$dev: the expects' log is Warp's" "$TMP/$dev.log" t/run/print/expects.log
done
is "the expects' outputs are computed all the same" \
	"$(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())["outputs"]["out"])' "$TMP/cpu.json")" \
	"[0.0, 0.5, 1.0]"
kparse $EX | kemit-cpu >"$TMP/expects.c"
is "assert leaves no code" "$(grep -c assert "$TMP/expects.c")" 0
kparse $PY | kdiff >"$TMP/adj.kir"
is "kdiff: no printf in the backward kernel" \
	"$(sed -n '/^backward/,/^}/p' "$TMP/adj.kir" | grep -c printf)" 0
is "kfmt reads and prints printf's format as kdiff wrote it" "$(kfmt "$TMP/adj.kir" | cmp - "$TMP/adj.kir" && echo same)" same
for py in $PY $EX; do
	krun --device cuda --compile-only --arch sm_90 --grad $py >/dev/null 2>"$TMP/err"
	st=$?
	if [ $st = 77 ]; then
		skip "NVRTC compiles $py" "$(head -1 "$TMP/err")"
	else
		is "NVRTC compiles $py and its backward" "$st $(cat "$TMP/err")" "0 "
	fi
done
done_testing
