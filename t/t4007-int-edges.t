#!/bin/bash
# Integer division and modulo by 0 and by -1, and float -> int of NaN and
# out-of-range values: C leaves them undefined (x86 traps on a / 0), so the
# emitted code goes through ksynth.h's ks_div_int, ks_mod_int,
# ks_floordiv_int and ks_to_int_float, and every device gives the answers of
# doc/language.md, checked here by t/run/check.py int-edges (worked out with
# Python's integers) on cpu (libtcc and cc) and sim.  make check-cuda does
# the same on the GPU (t/t4104).
. "$(dirname "$0")/lib.sh"

PY=t/run/int_edges.py
for dev in "cpu" "cpu --cc" "sim"; do
	for dim in 25 40; do
		krun --device $dev --dim $dim "$PY" >"$TMP/out.json" 2>"$TMP/err"
		is "krun --device $dev --dim $dim $PY: no trap, no error" "$?:$(cat "$TMP/err")" "0:"
		ok "... every answer is the documented one" python3 t/run/check.py int-edges "$TMP/out.json"
	done
done
krun --dim 25 "$PY" >"$TMP/cpu.json" && krun --device sim --dim 25 "$PY" >"$TMP/sim.json"
ok "cpu and sim agree exactly" python3 t/run/check.py agree "$TMP/cpu.json" "$TMP/sim.json"

# what the emitters write: plain C where it is defined, the helpers elsewhere
kparse "$PY" | kemit-cpu >"$TMP/k.c"
ok "a variable divisor goes through ks_div_int, ks_mod_int, ks_floordiv_int" \
	grep -q 'quot\[i\] = ks_div_int(a, b);.*rem\[i\] = ks_mod_int(a, b);.*floor_quot\[i\] = ks_floordiv_int(a, b);' \
	<(tr '\n' ' ' <"$TMP/k.c")
ok "... so do the constant divisors 0 and -1" grep -q 'ks_div_int(a, 0) + ks_mod_int(a, 0) + ks_floordiv_int(a, 0)' "$TMP/k.c"
ok "a constant divisor other than 0 and -1 stays C's / and %" grep -q 'dividend(i / 5)' "$TMP/k.c"
ok "int(x) of a float goes through ks_to_int_float" grep -q 'out\[i\] = ks_to_int_float(x + zero);' "$TMP/k.c"
printf 'import warp as wp\n@wp.kernel\ndef k(out: wp.array(dtype=int)):\n    out[0] = int(2.5) + int(-3.0e9)\n' >"$TMP/c.py"
kparse "$TMP/c.py" | kemit-cpu >"$TMP/c.c"
ok "... but for a constant in range, which stays a cast" grep -qF '(int)2.5f + ks_to_int_float(-3e+09f)' "$TMP/c.c"
done_testing
