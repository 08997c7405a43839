#!/bin/bash
# For every category, KGEN_N generated kernels (20 here, 200 under
# `make check-gen`) parse, run on the cpu and sim devices with finite
# outputs (krun exits 1 on any non-finite value), and the two devices
# agree to 1e-6 relative, as t/t4002-agree.t holds the samples; the
# first KGEN_GRAD_N of them (5 here, 200 under `make check-gen`) pass
# `krun --gradcheck` on cpu (kdiff accepts them, and their gradients
# match central differences).  t5006 checks the same kernels' gradients
# on sim.  The categories and their seeds are in t/gen/sweep.sh.
. "$(dirname "$0")/lib.sh"
. t/gen/sweep.sh

N=${KGEN_N:-20}
for cs in $GEN_SWEEP; do
	IFS=: read -r c seed <<<"$cs"
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
done
# kdiff accepts every kernel and its gradients match finite differences
gen_grad_sweep cpu
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
