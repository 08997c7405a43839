#!/bin/bash
# Gradients are exact: krun --gradcheck compares the backward kernel's
# gradients with central finite differences of the forward pass (double
# precision) on cpu and sim, for every sample and every kernel of the
# dedicated set t/grad/ (loops with carried state, nested loops, break,
# continue, while, overwrites, atomics, early return, scalar parameters,
# and the patterns of Warp issues #1694 #1552 #1293 #1697 #1740) and of
# the kernels Warp agrees on (t/warp/agree/, beside Warp in make
# check-warp); cpu and
# sim agree on the gradients (those --gradcheck prints before its check).
. "$(dirname "$0")/lib.sh"

# --gradcheck prints what --grad does (the gradients) and its check after
# them: the gradients are compared without the check and the device.  A
# sample is launched as the options.tsv beside it says, if it has a row;
# a finite difference per component, each a launch, may take more than
# krun's default minute under the sanitizers on a busy machine.
for py in samples/*/*.py t/grad/*.py t/warp/agree/*.py; do
	for dev in cpu sim; do
		ok "$py: gradcheck on $dev" sh -c 'krun --device $1 $4 --timeout 900 --gradcheck "$2" >"$3" 2>/dev/null' - $dev "$py" \
			"$TMP/$dev.out" "$(sample_opts "$py")"
		sed 's/"device": "[a-z]*"//; s/"block_dim": [0-9]*, //; s/, "gradcheck": {[^{}]*}//' "$TMP/$dev.out" >"$TMP/$dev.json"
	done
	if grep -q '"grads"' "$TMP/cpu.json" && ! grep -q '"gradcheck"' "$TMP/cpu.json" && grep -q 'wp.tile_' "$py"; then
		# on tiles, a number's adjoint adds the shares of a block's
		# threads: in CUDA 64 of them, on the cpu one, so the order differs
		ok "$py: cpu and sim gradients agree" python3 t/run/check.py agree "$TMP/cpu.out" "$TMP/sim.out" --rel 1e-5
	elif grep -q '"grads"' "$TMP/cpu.json" && ! grep -q '"gradcheck"' "$TMP/cpu.json"; then
		same_file "$py: cpu and sim gradients agree" "$TMP/sim.json" "$TMP/cpu.json"
	else
		t_result 1 "$py: krun --gradcheck prints gradients, then its check"
	fi
done
for py in t/grad/*.py; do
	for seed in 2 3; do
		ok "$py: gradcheck on cpu, seed $seed" krun --device cpu --seed $seed --gradcheck "$py"
	done
done
done_testing
