# t/gen/sweep.sh: what t5001 and t5006 share, so that prove runs the cpu
# and sim halves of the generator's gradient sweep side by side.
#
#   . t/gen/sweep.sh
#   for cs in $GEN_SWEEP; do IFS=: read -r c seed <<<"$cs"; ...; done
#   gen_gradcheck DEVICE FILE WHAT
#
# Each category is drawn with its own seed so the sweep covers more
# ground; the seeds are part of the test (a failure names one).

GEN_SWEEP=
gen_seed=11
for gen_c in arithmetic math vector matrix control_flow loop atomic function inplace combined \
	particles springs stencil reduce rigid fem neighbors raycast sampling; do
	gen_seed=$((gen_seed + 1))
	GEN_SWEEP="$GEN_SWEEP $gen_c:$gen_seed"
done
unset gen_c gen_seed

# Kernels that failed the gradient check under earlier generators (by
# category, seed and index; kernel i depends on nothing else).  Vector 86
# took the floor of wp.length_sq(wp.normalize(v)), 1 up to rounding; the
# others had a float tanh that rounds to +-1 where double's does not
# (16.0 * wp.tanh(float(n)) is 16.0 in float) feeding an int(), a floor
# or a comparison, so the float run and the double model took different
# sides.  Now a tanh argument stays within +-4 and no length of a
# normalized vector is written.
GEN_GRAD_REGRESSIONS="arithmetic:201:370 arithmetic:201:578 vector:203:86 vector:203:257
	vector:203:278 vector:203:407 matrix:204:74 matrix:204:400
	matrix:204:729 atomic:207:348 atomic:207:895"

# gen_gradcheck DEVICE FILE WHAT: the kernels of FILE pass krun --gradcheck
# on DEVICE.  The whole run may take minutes on a loaded machine (200
# kernels, two central differences per input component): the time is
# bounded by the test harness, not krun's 60 s default.
gen_gradcheck() {
	krun --device "$1" --gradcheck --timeout 900 "$2" >"$TMP/g.json" 2>"$TMP/err"
	is "$3: krun --device $1 --gradcheck passes" "$?" 0 ||
		diag "$(grep -m 3 -A 2 'error\|failed' "$TMP/err" | head -c 3000)"
}

# gen_grad_sweep DEVICE: the first KGEN_GRAD_N kernels of every category
# (5 under `make check`, 200 under `make check-gen`), then the
# regressions, pass the gradient check on DEVICE.
gen_grad_sweep() {
	local cs c seed i
	for cs in $GEN_SWEEP; do
		IFS=: read -r c seed <<<"$cs"
		kgen -c "$c" -s "$seed" -n "${KGEN_GRAD_N:-5}" -o "$TMP/g.py" ||
			{ t_result 1 "kgen -c $c"; continue; }
		gen_gradcheck "$1" "$TMP/g.py" "${KGEN_GRAD_N:-5} $c kernels (seed $seed)"
	done
	for cs in $GEN_GRAD_REGRESSIONS; do
		IFS=: read -r c seed i <<<"$cs"
		kgen -c "$c" -s "$seed" --first "$i" -n 1 -o "$TMP/r.py"
		gen_gradcheck "$1" "$TMP/r.py" "kgen -c $c -s $seed, kernel $i"
	done
}
