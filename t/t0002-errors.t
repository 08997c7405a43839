#!/bin/bash
# Bad input: each t/errors/X.py is rejected with exit status 1 and exactly
# the diagnostic in X.err (FILE:LINE:COL: error: message, the line, a
# caret); with -o no output file is left behind.
. "$(dirname "$0")/lib.sh"

for py in t/errors/*.py; do
	want=${py%.py}.err
	kparse -o "$TMP/out.kir" "$py" >/dev/null 2>"$TMP/err"
	is "$py exits 1" "$?" 1
	if [ -f "$want" ]; then
		same_file "$py message" "$TMP/err" "$want"
	else
		t_result 1 "$py has an expected message $want"
	fi
	ok "$py leaves no output file" test ! -e "$TMP/out.kir"
done
ok "no temporary files left" test -z "$(ls "$TMP" | grep tmp)"
done_testing
