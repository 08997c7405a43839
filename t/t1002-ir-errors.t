#!/bin/bash
# Malformed IR: each t/ir-errors/X.kir is rejected with exit status 1 and
# exactly the message in X.err; with -o no output file is left behind.
. "$(dirname "$0")/lib.sh"

for kir in t/ir-errors/*.kir; do
	want=${kir%.kir}.err
	kfmt -o "$TMP/out.kir" "$kir" >/dev/null 2>"$TMP/err"
	is "$kir exits 1" "$?" 1
	same_file "$kir message" "$TMP/err" "$want"
	ok "$kir leaves no output file" test ! -e "$TMP/out.kir"
done
ok "no temporary files left" test -z "$(ls "$TMP" | grep tmp)"
done_testing
