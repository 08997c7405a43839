#!/bin/bash
# krun --grad and --gradcheck (doc/runtime.md, "The backward pass").
#
# On the hand-written backward kernels of t/grad (saxpy in place, a vec3
# dot product with a vec3 scalar, a dynamic loop with loop-carried state
# and a float scalar): --gradcheck passes on cpu and sim, the records have
# the documented fields (seeds from their own stream, gradients shaped
# like the inputs), saxpy's gradients equal the hand-derived ones exactly,
# cpu and sim agree (1e-6 relative: the default sim grid runs the threads
# in the cpu's order, so even the float atomics add in the same order),
# libtcc and cc give the same bytes, and a wrong backward fails the check
# with exit 1.  (Every sample and the kernels of t/grad/*.py, through
# kdiff: t2003.)
. "$(dirname "$0")/lib.sh"

CHECK="python3 t/run/check.py"

for kir in t/grad/*.kir; do
	n=$(basename "$kir" .kir)
	for dev in cpu sim; do
		ok "$n: krun --gradcheck --device $dev" krun --gradcheck --device $dev "$kir"
		krun --gradcheck --device $dev "$kir" >"$TMP/$n.$dev.json" 2>"$TMP/err"
		ok "$n ($dev): seed_adj, grads, gradcheck as documented" $CHECK grads "$TMP/$n.$dev.json"
		ok "$n ($dev): the inputs and the seeds follow the law" $CHECK law "$TMP/$n.$dev.json"
	done
	ok "$n: cpu and sim agree on outputs and gradients" \
		$CHECK agree "$TMP/$n.cpu.json" "$TMP/$n.sim.json" --rel 1e-6
	krun --grad "$kir" >"$TMP/$n.grad.json"
	ok "$n: --grad without the check has the same gradients" \
		$CHECK agree "$TMP/$n.cpu.json" "$TMP/$n.grad.json"
	if krun --tcc t/grad/saxpy.kir >/dev/null 2>&1; then
		krun --grad --tcc "$kir" >"$TMP/tcc.json"
		krun --grad --cc "$kir" >"$TMP/cc.json"
		same_file "$n: libtcc and cc give the same bytes" "$TMP/tcc.json" "$TMP/cc.json"
	fi
done
ok "saxpy, project: gradients worked out by hand" $CHECK saxpy-grad "$TMP/saxpy.cpu.json"
ok "saxpy, project: ... on sim too" $CHECK saxpy-grad "$TMP/saxpy.sim.json"

krun --gradcheck --seed 5 --dim 7 --set n=5 t/grad/loop.kir >"$TMP/loop5.json"
ok "loop: another seed, dim and trip count" $CHECK grads "$TMP/loop5.json"

# a wrong adjoint (d/dc summed with the wrong value) fails the check
sed 's/%ac: float = add %ac, %ap/%ac: float = add %ac, %ax/' t/grad/loop.kir >"$TMP/bad.kir"
krun --gradcheck "$TMP/bad.kir" >"$TMP/bad.json" 2>"$TMP/err"
is "a wrong backward: --gradcheck exits 1" "$?" 1
ok "... and says where" grep -q "gradcheck failed on cpu" "$TMP/err"
ok "... and the record says ok: false" grep -q '"ok": false' "$TMP/bad.json"
krun --grad "$TMP/bad.kir" >/dev/null
is "... while --grad alone exits 0" "$?" 0

# the backward reads the final value of an atomic_min / atomic_max target
cat >"$TMP/amin.kir" <<'KIR'
ksynth-ir 1

kernel @lo(%x: float[], %m: float[]) !1:1 {
  %i: int = tid !2:5
  %0: float = load %x, %i !3:5
  atomic_min %m, 0, %0 !3:5
}

backward @lo(%x: float[], %m: float[], %adj_x: float[], %adj_m: float[]) !1:1 {
  %i: int = tid !2:5
  %0: float = load %x, %i !3:5
  %1: float = load %m, 0 !3:5
  %2: bool = eq %0, %1 !3:5
  if %2 !3:5 {
    %3: float = load %adj_m, 0 !3:5
    atomic_add %adj_x, %i, %3 !3:5
    store %adj_m, 0, 0.0 !3:5
  }
}
KIR
ok "atomic_min: the backward gets the final array (the winner's gradient checks)" \
	krun --gradcheck "$TMP/amin.kir"

# a backward with the wrong signature is an error, not a crash
sed 's/, %adj_c: float\[\])/)/; s/atomic_add %adj_c, 0, %ac !1:1//' t/grad/loop.kir >"$TMP/sig.kir"
krun --grad "$TMP/sig.kir" >"$TMP/sig.out" 2>"$TMP/err"
is "a backward with the wrong parameters: exit 1" "$?" 1
ok "... with a message" grep -q "adjoint array per float-valued parameter" "$TMP/err"

done_testing
