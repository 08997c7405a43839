#!/bin/bash
# wp.printf, print and the expect_* checks against Warp: the lines Warp's
# CPU prints for t/run/print/values.py and expects.py are the golden logs
# that t/t4031-print.t holds cpu and sim to.
. "$(dirname "$0")/env.sh"
echo "1..4"
n=0
for name in values:2 expects:3; do
	py=t/run/print/${name%:*}.py log=t/run/print/${name%:*}.log
	"$WARP_PY" t/warp/print-log.py $py ${name#*:} >"$TMP/warp.log" 2>"$TMP/err"
	if [ $? = 0 ]; then echo "ok $((n += 1)) - Warp runs $py"; else
		echo "not ok $((n += 1)) - Warp runs $py"
		sed 's/^/# /' "$TMP/err" | tail -5
	fi
	if cmp -s "$TMP/warp.log" $log; then
		echo "ok $((n += 1)) - Warp prints $log"
	else
		echo "not ok $((n += 1)) - Warp prints $log"
		diff -u $log "$TMP/warp.log" | head -30 | sed 's/^/# /'
	fi
done
