#!/bin/bash
# Kernels whose adjoint cannot be exact within kdiff's bound: each
# t/grad-errors/X.py parses, and kdiff rejects its IR with exit status 1
# and exactly the diagnostic in X.err (located in the kernel source);
# with -o no output file is left behind.
. "$(dirname "$0")/lib.sh"

for py in t/grad-errors/*.py; do
	want=${py%.py}.err
	kparse "$py" >"$TMP/a.kir" 2>/dev/null || { t_result 1 "$py parses"; continue; }
	kdiff -o "$TMP/out.kir" "$TMP/a.kir" >/dev/null 2>"$TMP/err"
	is "$py: kdiff exits 1" "$?" 1
	if [ -f "$want" ]; then
		same_file "$py message" "$TMP/err" "$want"
	else
		t_result 1 "$py has an expected message $want"
	fi
	ok "$py leaves no output file" test ! -e "$TMP/out.kir"
done
done_testing
