#!/bin/bash
# Every sample module against Warp: acceptance, forward, gradients
# (t/warp/wdiff.py says what is compared and how).
. "$(dirname "$0")/env.sh"
"$WARP_PY" t/warp/wdiff.py --grad samples/*/*.py
