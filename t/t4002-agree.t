#!/bin/bash
# For every sample and every kernel in it, the emitted C run on the cpu
# device and the emitted CUDA run on the sim device agree.
#
# Bound: both run the same float32 operations in the same order (FMA
# contraction off, no fast math) and call the same host libm for the
# transcendentals, and the default sim grid covers dim in one pass, so
# threads run in the cpu's order 0..dim-1: the records must agree to
# 1e-6 relative (they are in practice identical).  With --grid 3x4 the
# grid-stride loop runs 12 threads over dim 16, which reorders float
# atomics; a sum of 16 terms of magnitude <= 1 then may differ by
# 16 * 16 * 2^-24 < 2e-5, so that run is held to 1e-6 relative or 2e-5
# absolute.  Integer outputs and nulls must be equal.  Every kernel's
# grid-stride loop is the same code, so that second run (a C++ compile
# each) is done for the first sample of each category only.  A sample is
# launched as the options.tsv beside it says, if it has a row there.
. "$(dirname "$0")/lib.sh"

for py in samples/*/*.py; do
	opts=$(sample_opts "$py")
	# shellcheck disable=SC2086
	krun --device cpu $opts "$py" >"$TMP/cpu.json" 2>"$TMP/err" ||
		{ t_result 1 "krun --device cpu $py"; diag "$(head -c 3000 "$TMP/err")"; continue; }
	n=$(wc -l <"$TMP/cpu.json")
	# shellcheck disable=SC2086
	krun --device sim $opts "$py" >"$TMP/sim.json" 2>"$TMP/err" ||
		{ t_result 1 "krun --device sim $py"; diag "$(head -c 3000 "$TMP/err")"; continue; }
	# (a sum of a tile of each thread's value adds 64 numbers in a tree
	# on sim, one at a time on the cpu)
	rel=1e-6
	grep -q 'wp.tile(' "$py" && rel=1e-5
	ok "cpu and sim agree on $py ($n kernels)" python3 t/run/check.py agree "$TMP/cpu.json" "$TMP/sim.json" --rel $rel
	dir=${py%/*}
	[ "$dir" = "${last:-}" ] && continue
	last=$dir
	# (a kernel on tiles has blocks of --block-dim threads, 64 unless the
	# sample's options say)
	grid=3x4
	bd=$(echo "$opts" | grep -oE -- '--block-dim [0-9]+' | cut -d' ' -f2)
	grep -q 'wp.tile_' "$py" && grid=3x${bd:-64}
	# shellcheck disable=SC2086
	krun --device sim --grid $grid $opts "$py" >"$TMP/grid.json" 2>"$TMP/err" ||
		{ t_result 1 "krun --device sim --grid $grid $py"; diag "$(head -c 3000 "$TMP/err")"; continue; }
	ok "... and sim with a grid-stride loop (--grid $grid)" python3 t/run/check.py agree "$TMP/cpu.json" "$TMP/grid.json" --rel 1e-6 --abs 2e-5
done
done_testing
