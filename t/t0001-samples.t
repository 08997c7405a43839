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
# a tool that fails half-way (kemit-cpu reads IR function by function)
# writes nothing to it; the empty open after it only lets the reader go
head -c 3000 "$TMP/plain.kir" >"$TMP/cut.kir"
echo "garbage" >>"$TMP/cut.kir"
timeout 20 cat "$TMP/fifo" >"$TMP/fifo.bad" &
kemit-cpu -o "$TMP/fifo" "$TMP/cut.kir" 2>/dev/null
is "kemit-cpu -o FIFO on bad IR exits 1" $? 1
timeout 5 sh -c ': >"$1"' sh "$TMP/fifo"
wait
is "... and writes nothing to the FIFO" "$(wc -c <"$TMP/fifo.bad")" 0
done_testing
