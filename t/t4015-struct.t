#!/bin/bash
# @wp.struct: t/struct/*.py lower to their golden IR, which kfmt prints
# back unchanged; both emitters' code runs under krun on cpu and sim with
# the same record; malformed structs get located errors (t/struct/bad-*).
. "$(dirname "$0")/lib.sh"

export TMPDIR=$TMP/tmp
mkdir -p "$TMPDIR"
for py in samples/struct/params.py samples/struct/nested.py samples/struct/particles.py samples/struct/empty.py; do
	kir=${py%.py}.kir
	kparse "$py" >"$TMP/out.kir"
	same_file "$py: IR matches $kir" "$TMP/out.kir" "$kir"
	kfmt "$kir" >"$TMP/rt.kir"
	same_file "$py: kfmt prints its IR back unchanged" "$TMP/rt.kir" "$kir"
	krun --dim 8 "$py" >"$TMP/cpu.json"
	krun --device sim --dim 8 "$py" >"$TMP/sim.json"
	is "$py: cpu and sim records agree" \
		"$(sed 's/"device": "cpu"/"device": "sim"/' "$TMP/cpu.json")" "$(cat "$TMP/sim.json")"
	for dev in cpu sim; do
		ok "$py: krun --gradcheck on $dev" krun --gradcheck --device $dev --dim 8 "$py"
	done
done
# a struct's adjoint: one adjoint parameter per float leaf of a struct
# parameter (arrays and values), its float fields summed over threads
kparse samples/struct/nested.py | kdiff >"$TMP/nested.adj.kir"
is "backward @step takes an adjoint per float leaf of s" \
	"$(grep -o '^backward @step([^)]*)' "$TMP/nested.adj.kir")" \
	"backward @step(%s: Scene, %out: vec3[], %adj_s_body_pos: vec3[], %adj_s_body_mass: float[], %adj_s_weights: float[], %adj_s_scale: float[], %adj_out: vec3[])"
is "func @moved_adj returns the adjoint of its struct parameter as a struct" \
	"$(grep -o '^func @moved_adj.*) -> [^!]*' "$TMP/nested.adj.kir")" \
	"func @moved_adj(%b: Body, %d: vec3, %adj_ret0: Body) -> Body, vec3 "
kparse samples/struct/particles.py | kdiff >"$TMP/particles.adj.kir"
is "a func's struct parameter brings the adjoint arrays of its float arrays" \
	"$(grep -o '^func @kinetic_adj([^)]*)' "$TMP/particles.adj.kir")" \
	"func @kinetic_adj(%p: Particles, %i: int, %adj_p_pos: vec3[], %adj_p_vel: vec3[], %adj_p_mass: float[], %adj_ret0: float)"
krun --grad --dim 4 --set c.dt=0.5 samples/struct/particles.py >"$TMP/g.json"
is "krun --grad prints a struct's gradients as an object of its float fields" \
	"$(python3 -c 'import json,sys; g=json.load(open(sys.argv[1]))["grads"]; print(*g, *g["p"], *g["c"])' "$TMP/g.json")" \
	"p c energy pos vel mass dt damping"
is "... its inputs as an object of all its fields, its outputs of its arrays" \
	"$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(*r["inputs"]["p"], *r["inputs"]["c"], "/", *r["outputs"], *r["outputs"]["p"], "/", *r["seed_adj"]["p"])' "$TMP/g.json")" \
	"pos vel mass count dt damping substeps / p energy pos vel mass / pos vel mass"
is "--set reaches a struct's field (c.dt)" \
	"$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["inputs"]["c"]["dt"])' "$TMP/g.json")" "0.5"
krun --dim 2 samples/struct/nested.py >"$TMP/n.json"
is "a nested struct is an object in an object, in the record's one line" \
	"$(grep -o '"inputs": {"s": {"body": {"pos": \[[^]]*\], "mass": [^}]*}, "weights": \[[^]]*\], "scale": [^}]*}' "$TMP/n.json" | sed 's/[-0-9.e]\{3,\}/N/g')" \
	'"inputs": {"s": {"body": {"pos": [N, N, N], "mass": N}, "weights": [N, N], "scale": N}'
is "... and its outputs just its arrays" \
	"$(grep -o '"outputs": {"s": {[^}]*}' "$TMP/n.json" | sed 's/[-0-9.e]\{3,\}/N/g')" '"outputs": {"s": {"weights": [N, N]}'

krun --dim 8 --shape s.weights=4 samples/struct/nested.py >"$TMP/oob.json" 2>"$TMP/oob.err"
is "an out-of-bounds index of a struct's array fails" $? 1
is "... and names the array by its field" "$(head -1 "$TMP/oob.err")" \
	"samples/struct/nested.py:28:31: error: s.weights[4] is out of bounds in kernel step: s.weights has 4 elements"
# arrays of structs: each element's fields drawn by the law of their
# types, printed as objects; C's layout of the struct (padding, float16,
# float64 and bool fields, a nested struct) on cpu, sim and cc alike
for run in samples/struct/array_of_structs.py:4 samples/struct/array_of_nested.py:8x2; do
	py=${run%:*}
	kparse "$py" >"$TMP/out.kir"
	same_file "$py: IR matches ${py%.py}.kir" "$TMP/out.kir" "${py%.py}.kir"
	ok "$py: krun" krun --dim "${run#*:}" "$py"
	krun --dim "${run#*:}" "$py" >"$TMP/cpu.json"
	krun --device sim --dim "${run#*:}" "$py" >"$TMP/sim.json"
	krun --cc --dim "${run#*:}" "$py" >"$TMP/cc.json"
	is "$py: cpu and sim records agree" \
		"$(sed 's/"device": "cpu"/"device": "sim"/' "$TMP/cpu.json")" "$(cat "$TMP/sim.json")"
	same_file "$py: cc and tcc records agree" "$TMP/cc.json" "$TMP/cpu.json"
done
ok "an array of structs is a list of objects, which the kernel copies field by field" python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
a, b = r["inputs"]["a"], r["outputs"]["b"]
for x, y in zip(a, b):
    assert set(x) == {"i8", "inner", "m"} and set(x["inner"]) == {"h", "d", "b"}
    assert y["i8"] == x["i8"] and y["inner"]["h"] == x["inner"]["h"] and y["inner"]["b"] == x["inner"]["b"]
    assert abs(y["inner"]["d"] - x["inner"]["d"] - 1) < 1e-12
    assert all(abs(y["m"][p][q] - 2 * x["m"][p][q]) < 1e-6 for p in range(2) for q in range(2))
assert len({x["i8"] for x in a} | {x["inner"]["b"] for x in a}) > 1
' "$TMP/cpu.json"
krun --gradcheck --dim 8 samples/struct/array_of_structs.py >"$TMP/g.json"
is "--gradcheck of an array of structs: every float field of every element, named by its field" \
	"$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); c=r["gradcheck"]; print(c["ok"], c["components"], c["where"].split(".")[-1] in ("pos", "mass"))' "$TMP/g.json")" \
	"True 91 True"
is "... its gradients and seeds are objects, the int fields zero" \
	"$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(*r["grads"]["ps"][0], {e["alive"] for e in r["grads"]["ps"] + r["seed_adj"]["moved"]})' "$TMP/g.json")" \
	"pos mass alive {0}"
kparse samples/struct/array_of_structs.py | kdiff | kemit-cpu >"$TMP/aos.c"
is "the gather into an array of structs adds each float field atomically" \
	"$(sed -n '/^KS_FUNC void ks_atomic_add_Particle/,/^}/p' "$TMP/aos.c")" \
	"KS_FUNC void ks_atomic_add_Particle(Particle *p, Particle v)
{
    ks_atomic_add_vec3(&p->pos, v.pos);
    ks_atomic_add_float(&p->mass, v.mass);
}"
# a module of more than 256 structs (kgen's modules of 2,000 kernels hold
# about 300): the helpers of a struct far down the list are written too,
# the gather's ks_atomic_add_S and a loop's ks_tape_put_S / ks_tape_get_S
for src in samples/struct/array_of_structs.py t/grad/struct_loop.py; do
	many=$TMP/many_${src##*/}
	{
		echo 'import warp as wp'
		for k in $(seq 300); do printf '\n@wp.struct\nclass Pad%d:\n    x: float\n' "$k"; done
		grep -v '^import warp' "$src"
	} >"$many"
	ok "$src after 300 other structs: krun --gradcheck" krun --gradcheck --dim 8 "$many"
done
# --device cuda: the kernels with struct parameters (values, arrays, nested
# structs, arrays of structs) and their backwards compile with NVRTC
for run in samples/struct/particles.py:--grad samples/struct/nested.py:--grad t/grad/struct_loop.py:--grad \
	samples/struct/array_of_structs.py:--grad samples/struct/array_of_nested.py:--grad; do
	py=${run%:*}
	krun --device cuda --compile-only ${run#*:} "$py" >"$TMP/out" 2>"$TMP/err"
	st=$?
	if [ $st = 77 ]; then
		skip "NVRTC compiles $py ${run#*:}" "$(head -1 "$TMP/err")"
	else
		is "NVRTC compiles $py ${run#*:} without a word" "$st $(cat "$TMP/err")" "0 "
	fi
done
# floats only in a struct's arrays: a backward with their adjoints
for d in cpu sim; do
	ok "t/struct/arrays_only.py: krun --device $d --gradcheck" krun --device $d --gradcheck t/struct/arrays_only.py
done
ok "... the backward takes adj_b_src and adj_b_dst" \
	sh -c "kparse t/struct/arrays_only.py | kdiff | grep -q '^backward @scale_into(%b: Buffers, %adj_b_src: float\[\], %adj_b_dst: float\[\])'"
for py in t/struct/bad-*.py; do
	err=${py%.py}.err
	! kparse -o "$TMP/bad.kir" "$py" 2>"$TMP/err"
	t_result $? "$py: rejected"
	same_file "$py: the located error of $err" "$TMP/err" "$err"
	ok "$py: no output file" test ! -e "$TMP/bad.kir"
done
done_testing
