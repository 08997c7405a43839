#!/bin/bash
# kdiff appends adjoints that verify and print canonically: for every
# sample and every kernel of the dedicated set t/grad/, kfmt accepts
# kdiff's output and kfmt(kdiff(x)) == kdiff(x); every kernel gets a
# backward kernel and every func an _adj func.
. "$(dirname "$0")/lib.sh"

for py in samples/*/*.py t/grad/*.py; do
	kparse "$py" >"$TMP/a.kir" 2>/dev/null || { t_result 1 "$py parses"; continue; }
	kdiff "$TMP/a.kir" >"$TMP/b.kir" 2>"$TMP/err" || { t_result 1 "kdiff $py"; diag "$(cat "$TMP/err")"; continue; }
	kfmt "$TMP/b.kir" >"$TMP/c.kir" 2>"$TMP/err" || { t_result 1 "kfmt reads kdiff($py)"; diag "$(cat "$TMP/err")"; continue; }
	same_file "kfmt(kdiff($py)) == kdiff($py)" "$TMP/c.kir" "$TMP/b.kir"
	nk=$(grep -c '^kernel @' "$TMP/a.kir")
	nb=$(grep -c '^backward @' "$TMP/b.kir")
	nf=$(grep -c '^func @' "$TMP/a.kir")
	na=$(grep -c '^func @.*_adj' "$TMP/b.kir")
	is "$py: one backward per kernel, one _adj per func" "$nb $na" "$nk $nf"
	kdiff - <"$TMP/a.kir" >"$TMP/d.kir" 2>/dev/null
	same_file "kdiff - reads stdin ($py)" "$TMP/d.kir" "$TMP/b.kir"
done
# atomic_min/max: a thread that ties for the element takes its adjoint by an
# exchange with zero, so that two tied threads on a GPU cannot both read it
kparse t/grad/atomics.py | kdiff >"$TMP/mm.kir"
is "t/grad/atomics.py: the adjoints of atomic_min and atomic_max taken by atomic_exch with 0" \
	"$(grep -c 'atomic_exch %adj_\(lo\|hi\), [^,]*, 0.0' "$TMP/mm.kir") $(grep -c 'store %adj_\(lo\|hi\)' "$TMP/mm.kir")" "2 0"
kparse samples/loop/dynamic_loops.py | kdiff >"$TMP/once.kir"
kdiff "$TMP/once.kir" >/dev/null 2>"$TMP/err"
is "kdiff of kdiff output is an error" "$?" 1
done_testing
