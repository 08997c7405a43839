#!/bin/bash
# The IR text is canonical: kfmt(kparse(x)) == kparse(x) and
# kfmt(kfmt(y)) == kfmt(y), byte for byte, for every sample and for the
# hand-written IR files in t/ir/.
. "$(dirname "$0")/lib.sh"

for py in samples/*/*.py; do
	kparse "$py" >"$TMP/a.kir" 2>/dev/null || { t_result 1 "$py parses"; continue; }
	kfmt "$TMP/a.kir" >"$TMP/b.kir" 2>"$TMP/err" || { t_result 1 "kfmt reads $py's IR"; diag "$(cat "$TMP/err")"; continue; }
	same_file "kfmt(kparse($py)) == kparse($py)" "$TMP/b.kir" "$TMP/a.kir"
	kparse - <"$py" | kfmt - >"$TMP/c.kir" 2>/dev/null
	# only the source name differs when reading stdin
	sed 's/^source .*/source X/' "$TMP/a.kir" >"$TMP/a2.kir"
	sed 's/^source .*/source X/' "$TMP/c.kir" >"$TMP/c2.kir"
	same_file "kparse - | kfmt - agrees for $py" "$TMP/c2.kir" "$TMP/a2.kir"
done
for kir in t/ir/*.kir; do
	kfmt "$kir" >"$TMP/a.kir" 2>"$TMP/err" || { t_result 1 "kfmt $kir"; diag "$(cat "$TMP/err")"; continue; }
	kfmt "$TMP/a.kir" >"$TMP/b.kir"
	same_file "kfmt(kfmt($kir)) == kfmt($kir)" "$TMP/b.kir" "$TMP/a.kir"
done
# a string of the IR (a source, a file) is written as C writes it, one way
kfmt t/ir/string-escapes.kir >"$TMP/s.kir" 2>"$TMP/err"
same_file "kfmt writes the strings of t/ir/string-escapes.kir as they are written" "$TMP/s.kir" t/ir/string-escapes.kir
done_testing
