#!/bin/bash
# Kernels on points where ksynth once differed from Warp and now agrees
# (t/warp/agree/): int // flooring, bool flags declared bool(False), the
# CUDA options of @wp.kernel that Warp's CPU ignores, components of array
# elements assigned in place.  Warp
# must load each unchanged and agree on outputs and gradients.
. "$(dirname "$0")/env.sh"
"$WARP_PY" t/warp/wdiff.py --grad t/warp/agree/*.py
