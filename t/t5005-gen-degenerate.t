#!/bin/bash
# Degenerate kernels (doc/kgen.md, "Branches that go both ways"): KGEN_DEG_N
# (200) kernels of `kgen -c all -s 1` run with krun --coverage under input
# seeds 1, 2 and 3; t/run/degenerate.py counts the kernels whose outputs do
# not depend on their inputs, that write nothing, with an if that never
# takes one of its ways or a loop that never runs, and the counts stay
# under the bounds measured (doc/kgen.md, "Measured", with a margin); the
# script finds the planted ones of t/run/cover/branches.py.
. "$(dirname "$0")/lib.sh"

N=${KGEN_DEG_N:-200}
export TMPDIR=$TMP/tmp
mkdir -p "$TMPDIR"
DEG="python3 t/run/degenerate.py"

krun --coverage t/run/cover/branches.py >"$TMP/p1.json"
krun --coverage --seed 2 t/run/cover/branches.py >"$TMP/p2.json"
$DEG "$TMP/p1.json" "$TMP/p2.json" --list >"$TMP/p.out"
ok "the script finds the constant kernel" grep -qx "independent constant" "$TMP/p.out"
ok "... the kernel that writes nothing" grep -qx "nowrite untouched" "$TMP/p.out"
ok "... the loop that never runs" grep -qx "loop-never-runs sweep" "$TMP/p.out"
ok "... and no one-way if (grid's and limit's go both ways)" sh -c "! grep -q oneway-if '$TMP/p.out'"

kgen -c all -s 1 -n "$N" -o "$TMP/k.py"
for s in 1 2 3; do
	krun --timeout 600 --coverage --seed $s "$TMP/k.py" >"$TMP/k$s.json"
done
$DEG "$TMP/k1.json" "$TMP/k2.json" "$TMP/k3.json" >"$TMP/k.out"
diag "$(cat "$TMP/k.out")"
indep=$(sed -n 's/^independent of the inputs \([0-9]*\), writing nothing \([0-9]*\)$/\1 \2/p' "$TMP/k.out")
set -- $indep
ok "outputs independent of the inputs in at most 2% ($1 of $N)" test $((100 * $1)) -le $((2 * N))
ok "kernels writing nothing at most 2% ($2 of $N)" test $((100 * $2)) -le $((2 * N))
oneway=$(sed -n 's/^with an if that never takes one way \([0-9]*\) .*, with a loop that never runs \([0-9]*\) .*/\1 \2/p' "$TMP/k.out")
set -- $oneway
ok "a one-way if in at most 8% ($1 of $N; 31% before the rules, 6% with the blemishes redrawn and quantizers spread)" \
	test $((100 * $1)) -le $((8 * N))
ok "a loop that never runs in at most 2% ($2 of $N)" test $((100 * $2)) -le $((2 * N))

done_testing
