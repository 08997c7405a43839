#!/bin/bash
# Warp's random numbers, bit for bit: long streams of every random builtin
# over many seeds and offsets, on cpu and sim (t/warp/rand.py).
. "$(dirname "$0")/env.sh"
"$WARP_PY" t/warp/rand.py
