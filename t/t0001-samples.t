#!/bin/bash
# Every sample parses, and its IR is the committed golden file beside it.
. "$(dirname "$0")/lib.sh"

for py in samples/*/*.py; do
	kir=${py%.py}.kir
	if kparse "$py" >"$TMP/out.kir" 2>"$TMP/err"; then
		if [ -f "$kir" ]; then
			same_file "$py: IR matches $kir" "$TMP/out.kir" "$kir"
		else
			t_result 1 "$py: golden $kir exists"
		fi
	else
		t_result 1 "$py parses"
		diag "$(head -5 "$TMP/err")"
	fi
done
n=$(ls samples/*/*.py | wc -l)
cats=$(ls -d samples/*/ | wc -l)
ok "at least 20 samples ($n)" test "$n" -ge 20
ok "ten categories ($cats)" test "$cats" -ge 10

# -o to something not a regular file (a FIFO here, /dev/null alike) writes
# through it: renaming a temporary over it would replace it
mkfifo "$TMP/fifo"
timeout 20 cat "$TMP/fifo" >"$TMP/fifo.out" &
kparse -o "$TMP/fifo" samples/vector/triangles.py
wait
kparse samples/vector/triangles.py >"$TMP/plain.kir"
same_file "kparse -o FIFO: the reader gets the IR" "$TMP/fifo.out" "$TMP/plain.kir"
ok "... and the FIFO is still a FIFO" test -p "$TMP/fifo"
ok "... with no temporary beside it" test -z "$(ls "$TMP" | grep '\.tmp\.')"
done_testing
