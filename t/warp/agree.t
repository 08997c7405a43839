#!/bin/bash
# Kernels on points where ksynth once differed from Warp and now agrees
# (t/warp/agree/): int // flooring, bool flags declared bool(False), the
# CUDA options of @wp.kernel that Warp's CPU ignores
# (t/run/options/options.py), components of array elements assigned in
# place, overloads, tuple assignment, reversed ranges; kernels on tiles
# (t/tile/, launched with wp.launch_tiled over krun's grid, with the
# options of t/tile/options.tsv).  Warp must load each unchanged and
# agree on outputs and gradients.
. "$(dirname "$0")/env.sh"
"$WARP_PY" t/warp/wdiff.py --grad --options t/tile/options.tsv t/warp/agree/*.py t/run/options/options.py t/tile/*.py
