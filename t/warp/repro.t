#!/bin/bash
# The reproducers of doc/warp-differences.md (t/warp/repro/): each shows
# its difference as a TODO while Warp and ksynth still differ there.
. "$(dirname "$0")/env.sh"
"$WARP_PY" t/warp/wdiff.py --grad t/warp/repro/*.py
