#!/bin/bash
# wp.printf and print against Warp: the lines Warp's CPU prints for
# t/run/print/values.py are the golden log that t/t4031-print.t holds cpu
# and sim to.
. "$(dirname "$0")/env.sh"
echo "1..2"
"$WARP_PY" t/warp/print-log.py t/run/print/values.py 2 >"$TMP/warp.log" 2>"$TMP/err"
if [ $? = 0 ]; then echo "ok 1 - Warp runs the printing kernel"; else
	echo "not ok 1 - Warp runs the printing kernel"
	sed 's/^/# /' "$TMP/err" | tail -5
fi
if cmp -s "$TMP/warp.log" t/run/print/values.log; then
	echo "ok 2 - Warp prints t/run/print/values.log"
else
	echo "not ok 2 - Warp prints t/run/print/values.log"
	diff -u t/run/print/values.log "$TMP/warp.log" | head -30 | sed 's/^/# /'
fi
