#!/bin/bash
# Every kernel on tiles of Warp's own examples that kparse accepts (the
# `tiles` group of t/warp/extract.py, examples-accept.t), against Warp
# itself: forward on cpu and sim, and gradients (t/warp/wdiff.py --grad),
# each launched as t/warp/examples-tiles.tsv says (the example's grid of
# blocks and block_dim, or a smaller grid that keeps its tiles in bounds).
# A kernel without a row there would run on krun's default tiled launch,
# which no example's host code chose: one is a failure, to be given its row.
. "$(dirname "$0")/env.sh"
ex=$TMP/examples
tsv=t/warp/examples-tiles.tsv
"$WARP_PY" t/warp/extract.py "$ex" || { echo "1..1"; echo "not ok 1 - extract.py"; exit 0; }
files=() unlisted=""
for k in $(awk -F'\t' '$2 == "tiles" { print $1 }' "$ex/index.tsv"); do
	kparse "$ex/$k.py" >/dev/null 2>&1 || continue
	files+=("$ex/$k.py")
	grep -q "^$k	" "$tsv" || unlisted="$unlisted $k"
done
# wdiff.py's results follow this test's own, renumbered.
if [ -z "$unlisted" ]; then
	echo "ok 1 - every accepted tile kernel (${#files[@]}) has its launch in $tsv"
else
	echo "not ok 1 - every accepted tile kernel (${#files[@]}) has its launch in $tsv"
	echo "#   no row:$unlisted"
fi
"$WARP_PY" t/warp/wdiff.py --grad --name "warp/examples tiles" --options "$tsv" "${files[@]}" |
	awk '/^(not )?ok [0-9]+/ { sub(/ok [0-9]+/, "ok " ($(($1 == "not") + 2) + 1)) }
	     /^1\.\.[0-9]+$/ { $0 = "1.." (substr($0, 4) + 1) } { print }'
