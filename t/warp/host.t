#!/bin/bash
# A Warp module as it is written, host Python and all (t/host/module.py:
# imports of anything, a dataclass, a class launching the kernels, an
# argparse main): Warp imports it unchanged, and its kernels, which
# kparse reads through the host code, agree with Warp forward and in
# their gradients, on cpu and sim; and so a module of a package
# (t/host/particles/sim.py) whose kernels use what it imports from its
# sibling (a struct, constants, a generic func), Warp importing it as
# Python does.
. "$(dirname "$0")/env.sh"
"$WARP_PY" t/warp/wdiff.py --grad t/host/module.py t/host/particles/sim.py
