#!/bin/bash
# Every kernel of Warp's own examples that ksynth accepts (see
# examples-accept.t), against Warp itself: forward on cpu and sim, and
# gradients (t/warp/wdiff.py), under the launches and shapes of
# t/warp/examples.tsv where a kernel is written for a size of its own.
. "$(dirname "$0")/env.sh"
ex=$TMP/examples
"$WARP_PY" t/warp/extract.py "$ex" || { echo "1..1"; echo "not ok 1 - extract.py"; exit 0; }
files=()
for k in $(awk -F'\t' '$2 == "language" { print $1 }' "$ex/index.tsv"); do
	kparse "$ex/$k.py" >/dev/null 2>&1 && files+=("$ex/$k.py")
done
"$WARP_PY" t/warp/wdiff.py --grad --name "warp/examples" --options t/warp/examples.tsv "${files[@]}"
