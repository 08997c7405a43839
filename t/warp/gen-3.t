#!/bin/bash
# Generated kernels against Warp, the idioms (particles, springs, grid
# stencils, reductions, rigid bodies, elements, neighbour loops, rays,
# sampling): one Warp module per category (t/warp/wdiff.py).
. "$(dirname "$0")/env.sh"
cats="particles springs stencil reduce rigid fem neighbors raycast sampling"
warp_gen $cats
"$WARP_PY" t/warp/wdiff.py --grad --name "kgen -s $WARP_GEN_SEED -n $WARP_GEN_N" $(for c in $cats; do echo "$TMP/$c.py"; done)
