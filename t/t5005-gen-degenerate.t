#!/bin/bash
# Degenerate kernels (doc/kgen.md, "Branches that go both ways"): KGEN_DEG_N
# (200) kernels of `kgen -c all -s 1` run with krun --coverage under input
# seeds 1, 2 and 3; t/run/degenerate.py counts the kernels whose outputs do
# not depend on their inputs, that write nothing, that fill an array with
# one value, with an if that never takes one of its ways or a loop that
# never runs, and the counts stay under the bounds measured (doc/kgen.md,
# "Measured", with a margin); the script finds the planted ones of
# t/run/cover/branches.py.  kgen --verify makes none of them: 0 in every
# count over the same three seeds, the kernels it kept from their first
# draw byte for byte plain kgen's, each redrawn one degenerate in its
# first draw, and a kernel the same text whatever --first and -n.
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

# ---- --verify ------------------------------------------------------------------

kgen --verify -c all -s 1 -n "$N" -o "$TMP/v.py"
is "--verify: exit 0" "$?" 0
for s in 1 2 3; do
	krun --timeout 600 --coverage --seed $s "$TMP/v.py" >"$TMP/v$s.json"
done
$DEG "$TMP/v1.json" "$TMP/v2.json" "$TMP/v3.json" >"$TMP/v.out"
diag "$(cat "$TMP/v.out")"
is "--verify: no kernel independent of the inputs or writing nothing" \
	"$(sed -n 2p "$TMP/v.out")" "independent of the inputs 0, writing nothing 0"
is "... no one-way if and no loop that never runs, over seeds 1 to 3" \
	"$(sed -n 3p "$TMP/v.out")" \
	"with an if that never takes one way 0 (0.00%), with a loop that never runs 0 (0.00%)"
is "... and no array filled with one value" "$(sed -n 4p "$TMP/v.out")" "filling an array with one value 0 (0.00%)"
# the kernels one by one: plain kgen's text unless krun rejected it
split_kernels() { # FILE DIR: each kernel (with the helpers and structs before it) to DIR/NAME
	mkdir -p "$2" && python3 -c '
import re, sys
text = open(sys.argv[1]).read().split("\n\n\n")[1:]
chunk = []
for piece in text:
    chunk.append(piece)
    m = re.search(r"@wp.kernel\ndef (\w+)", piece)
    if m:
        open(sys.argv[2] + "/" + m.group(1), "w").write("\n\n\n".join(chunk).rstrip("\n") + "\n")
        chunk = []' "$1" "$2"
}
split_kernels "$TMP/k.py" "$TMP/plain"
split_kernels "$TMP/v.py" "$TMP/ver"
$DEG "$TMP/k1.json" "$TMP/k2.json" --list | sed -n 's/^[a-z-]* //p' | sort -u >"$TMP/bad2"
kept=0 redrawn=0 wrong=0
for f in "$TMP/plain"/*; do
	n=$(basename "$f")
	if cmp -s "$f" "$TMP/ver/$n"; then
		kept=$((kept + 1))
		grep -qx "$n" "$TMP/bad2" && wrong=$((wrong + 1))
	else
		redrawn=$((redrawn + 1))
		grep -qx "$n" "$TMP/bad2" || wrong=$((wrong + 1))
	fi
done
diag "kept $kept, redrawn $redrawn"
is "... a kernel is redrawn exactly when its first draw is degenerate under seeds 1 and 2" "$wrong" 0
ok "... and some were ($redrawn)" test "$redrawn" -gt 0
kgen --verify -c all -s 1 --first 37 -n 5 -o "$TMP/v5.py"
python3 -c '
import sys
a = open(sys.argv[1]).read().split("\n\n\n")[1:]
b = open(sys.argv[2]).read().split("\n\n\n")[1:]
print(all(p.rstrip("\n") in [q.rstrip("\n") for q in a] for p in b))' "$TMP/v.py" "$TMP/v5.py" >"$TMP/sub"
is "... kernels 37 to 41 alone are the text they are among 0 to $((N - 1))" "$(cat "$TMP/sub")" True

done_testing
