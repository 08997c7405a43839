#!/bin/bash
# Generated kernels against Warp, first half of the categories: one Warp
# module per category (t/warp/wdiff.py).
. "$(dirname "$0")/env.sh"
cats="arithmetic math vector matrix control_flow"
warp_gen $cats
"$WARP_PY" t/warp/wdiff.py --grad --name "kgen -s $WARP_GEN_SEED -n $WARP_GEN_N" $(for c in $cats; do echo "$TMP/$c.py"; done)
