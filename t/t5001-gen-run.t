#!/bin/bash
# For every category, KGEN_N generated kernels (20 here, 200 under
# `make check-gen`) parse, run on the cpu and sim devices with finite
# outputs (krun exits 1 on any non-finite value), and the two devices
# agree to 1e-6 relative, as t/t4002-agree.t holds the samples; the
# first KGEN_GRAD_N of them (5 here, 200 under `make check-gen`) pass
# `krun --gradcheck` on cpu and sim (kdiff accepts them, and their
# gradients match central differences).  The
# seed varies with the category so the sweep covers more ground.
. "$(dirname "$0")/lib.sh"

N=${KGEN_N:-20}
GN=${KGEN_GRAD_N:-5}
# gradcheck FILE WHAT: the kernels of FILE pass krun --gradcheck on cpu and
# sim.  The whole run may take minutes on a loaded machine (200 kernels,
# two central differences per input component): the time is bounded by
# the test harness, not krun's 60 s default.
gradcheck() {
	for d in cpu sim; do
		krun --device $d --gradcheck --timeout 900 "$1" >"$TMP/g.json" 2>"$TMP/err"
		is "$2: krun --device $d --gradcheck passes" "$?" 0 ||
			diag "$(grep -m 3 -A 2 'error\|failed' "$TMP/err" | head -c 3000)"
	done
}
seed=11
for c in arithmetic math vector matrix control_flow loop atomic function inplace combined \
	particles springs stencil reduce rigid fem neighbors raycast sampling; do
	seed=$((seed + 1))
	py=$TMP/$c.py
	kgen -c "$c" -s "$seed" -n "$N" -o "$py" || { t_result 1 "kgen -c $c"; continue; }
	ok "$N $c kernels parse (seed $seed)" kparse "$py" -o "$TMP/$c.kir" || continue
	krun --device cpu "$py" >"$TMP/cpu.json" 2>"$TMP/err" ||
		{ t_result 1 "krun --device cpu, $c"; diag "$(head -c 3000 "$TMP/err")"; continue; }
	krun --device sim "$py" >"$TMP/sim.json" 2>"$TMP/err" ||
		{ t_result 1 "krun --device sim, $c"; diag "$(head -c 3000 "$TMP/err")"; continue; }
	t_result 0 "$c runs on cpu and sim, every output finite"
	is "$c: one record per kernel" "$(wc -l <"$TMP/cpu.json")" "$N"
	ok "$c: cpu and sim agree" python3 t/run/check.py agree "$TMP/cpu.json" "$TMP/sim.json" --rel 1e-6
	# kdiff accepts every kernel and its gradients match finite differences
	kgen -c "$c" -s "$seed" -n "$GN" -o "$TMP/g.py"
	gradcheck "$TMP/g.py" "$GN $c kernels"
done
# Kernels that failed the gradient check under earlier generators (by
# category, seed and index; kernel i depends on nothing else).  Vector 86
# took the floor of wp.length_sq(wp.normalize(v)), 1 up to rounding; the
# others had a float tanh that rounds to +-1 where double's does not
# (16.0 * wp.tanh(float(n)) is 16.0 in float) feeding an int(), a floor
# or a comparison, so the float run and the double model took different
# sides.  Now a tanh argument stays within +-4 and no length of a
# normalized vector is written.
for k in arithmetic:201:370 arithmetic:201:578 vector:203:86 vector:203:257 \
	vector:203:278 vector:203:407 matrix:204:74 matrix:204:400 \
	matrix:204:729 atomic:207:348 atomic:207:895; do
	IFS=: read -r c s i <<<"$k"
	kgen -c "$c" -s "$s" --first "$i" -n 1 -o "$TMP/r.py"
	gradcheck "$TMP/r.py" "kgen -c $c -s $s, kernel $i"
done
# A larger dim and another input seed: indices stay in bounds, values
# finite.  The kernels launched over two or three dimensions run on a
# long, thin grid each way (1000 x 1000 would be a million threads a
# kernel).
kgen -c all -s 99 -n "$N" -o "$TMP/all.py"
mkdir -p "$TMP/split"
kgen -c all -s 99 -n "$N" --split "$TMP/split" >/dev/null
printf 'import warp as wp\n\n\n' >"$TMP/one.py"
cp "$TMP/one.py" "$TMP/two.py"
cp "$TMP/one.py" "$TMP/three.py"
for f in "$TMP"/split/*.py; do
	if grep -q '^    [a-z_]*, [a-z_]*, [a-z_]* = wp.tid()' "$f"; then
		tail -n +4 "$f" >>"$TMP/three.py"
	elif grep -q '^    [a-z_]*, [a-z_]* = wp.tid()' "$f"; then
		tail -n +4 "$f" >>"$TMP/two.py"
	else
		tail -n +4 "$f" >>"$TMP/one.py"
	fi
done
ok "a mix of $N kernels runs finite with --dim 1000 --seed 7 (1-D launches)" \
	krun --device cpu --dim 1000 --seed 7 "$TMP/one.py"
ok "... and with --dim 1000x2 and 2x1000 (2-D launches)" \
	sh -c "krun --device cpu --dim 1000x2 --seed 7 '$TMP/two.py' && krun --device cpu --dim 2x1000 --seed 7 '$TMP/two.py'"
ok "... and with --dim 1000x2x2, 2x1000x2 and 2x2x1000 (3-D launches)" \
	sh -c "krun --device cpu --dim 1000x2x2 --seed 7 '$TMP/three.py' && krun --device cpu --dim 2x1000x2 --seed 7 '$TMP/three.py' && krun --device cpu --dim 2x2x1000 --seed 7 '$TMP/three.py'"
ok "... and with --dim 1" krun --device cpu --dim 1 "$TMP/all.py"
done_testing
