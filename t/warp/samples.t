#!/bin/bash
# Every sample module against Warp: acceptance, forward, gradients
# (t/warp/wdiff.py says what is compared and how), a sample on tiles
# launched as samples/tile/options.tsv says.
. "$(dirname "$0")/env.sh"
"$WARP_PY" t/warp/wdiff.py --grad --options samples/tile/options.tsv samples/*/*.py
