#!/bin/bash
# Random numbers (doc/language.md, "Random numbers"): Warp's PCG streams,
# checked without Warp against a model in exact integer arithmetic
# (t/run/random/model.py), and cpu and sim bit for bit alike on every
# random builtin (t/warp/random.t compares them with Warp itself); how a
# draw advances the state (t/run/random/rules.py); values Warp 1.19 gives;
# gradients of kernels that draw, on cpu and sim; NVRTC compiles the CUDA.
. "$(dirname "$0")/lib.sh"

S=t/warp/rand_streams.py
M="python3 t/run/random/model.py"

# the integer and randf streams against the model, 20 draws x 300 threads
for seed in 0 -5 2147483647; do
	for k in stream_randi stream_randu stream_randf; do
		krun --kernel $k --dim 300 --set n=20 --shape out=6000 --set seed=$seed $S
	done >"$TMP/streams$seed.json"
	krun --kernel stream_randi_range --dim 300 --set n=20 --shape out=6000 --set seed=$seed \
		--set low=-3 --set high=1000 $S >>"$TMP/streams$seed.json"
	krun --kernel stream_randi_range --dim 300 --set n=20 --shape out=6000 --set seed=$seed \
		--set low=-2147483648 --set high=2147483647 $S >>"$TMP/streams$seed.json"
	ok "seed $seed: randi, randi(low, high), randu, randf are the model's PCG streams" \
		$M streams "$TMP/streams$seed.json"
done

# every random builtin: cpu and sim give the same bits
cases="stream_randi: stream_randi_range:--set=low=-7,--set=high=9 stream_randu:
stream_randu_range:--set=low=3,--set=high=4000000000 stream_randf:
stream_randf_range:--set=low=-1.5,--set=high=2.25 stream_randn: stream_poisson:--set=lam=3.5
stream_poisson:--set=lam=0 stream_poisson:--set=lam=10 stream_poisson:--set=lam=250.5
stream_sample_cdf:--shape=cdf=37 stream_sample2:--shape=out=8000 stream_sample3:--shape=out=10000"
for c in $cases; do
	k=${c%%:*}
	opts=$(echo "${c#*:}" | tr ',=' ' =' | sed 's/--\(set\|shape\)=/--\1 /g')
	# shellcheck disable=SC2086
	krun --kernel $k --dim 100 --set n=20 --shape out=2000 --set seed=11 $opts $S >"$TMP/cpu.json"
	# shellcheck disable=SC2086
	krun --device sim --kernel $k --dim 100 --set n=20 --shape out=2000 --set seed=11 $opts $S \
		>"$TMP/sim.json"
	is "$k ${c#*:}: cpu and sim are bit for bit alike" \
		"$(sed 's/"device": "cpu"/"device": "sim"/' "$TMP/cpu.json")" "$(cat "$TMP/sim.json")"
done

# how draws advance a state: copies, wp.func arguments, branches, loops
for c in 0 3; do
	krun --dim 9 --set seed=3 --set c=$c --shape out=72 t/run/random/rules.py >"$TMP/rules.json"
	ok "rules.py c=$c: each draw advances the variable it names, and only it" \
		$M rules "$TMP/rules.json"
	krun --device sim --dim 9 --set seed=3 --set c=$c --shape out=72 t/run/random/rules.py \
		>"$TMP/rules-sim.json"
	ok "rules.py c=$c on sim" $M rules "$TMP/rules-sim.json"
done

# values Warp 1.19 gives (on its CPU, fuse_fp=False), printed as float32
# round-trips: draws 1 and 2 of thread 0 and of thread 3
first() { # first KERNEL SEED [OPTIONS]: out[0 .. 3] of thread 0 and out of thread 3
	local k=$1 seed=$2
	shift 2
	krun --kernel "$k" --dim 4 --set n=2 --shape out=8 --set seed="$seed" "$@" $S |
		python3 -c 'import json,sys; o=json.load(sys.stdin)["outputs"]["out"]; print(*o[:2], *o[6:])'
}
is "randf, rand_init(42, tid)" "$(first stream_randf 42)" \
	"0.86597514 0.1859147 0.10313505 0.26666623"
is "randn, rand_init(42, tid)" "$(first stream_randn 42)" \
	"0.21022405 0.7695994 -0.22280009 -0.47820196"
is "randi, rand_init(7 + tid)" "$(first stream_randi 7)" \
	"-2136546659 -527741709 1074987829 1808209270"
is "sample_unit_sphere, rand_init(42, tid)" \
	"$(krun --kernel stream_sample3 --dim 1 --set n=1 --shape out=5 --set seed=42 $S |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["outputs"]["out"][1])')" \
	"[0.8080334, -0.20516439, -0.43098918]"

# Perlin noise: zero at every lattice point, pnoise equal a period away,
# and the values Warp 1.19 gives, on cpu and sim alike
N=t/run/random/noise.py
out() {
	krun --kernel "$1" --dim 16 --set seed=42 --shape out=16 "${@:2}" $N |
		python3 -c 'import json,sys; print(*json.load(sys.stdin)["outputs"]["out"])'
}
zeros="0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0"
for d in cpu sim; do
	is "noise of 1 to 4 dimensions is 0 at the lattice points ($d)" "$(out lattice --device $d)" "$zeros"
	is "pnoise of 1 to 4 dimensions repeats a period away ($d)" "$(out periods --device $d)" "$zeros"
	is "noise and curlnoise at fixed points: Warp's values ($d)" "$(out values --device $d)" \
		"3.5633132 3.1477058 0.59048724 2.2966027 -0.6059387 0.05089718 -1.2288914 -1.3485957 0.17088717 0.98098326 -0.480515 -0.022787154 2.003387 1.9268503 1.9697843 0.7864959"
done

# gradients through draws: the backward replays the draws it needs
for py in samples/random/*.py; do
	ok "$py: krun --gradcheck (cpu)" krun --gradcheck "$py"
	ok "$py: krun --gradcheck (sim)" krun --gradcheck --device sim "$py"
done

# the CUDA code compiles with NVRTC where there is one
if krun --nvrtc >/dev/null 2>&1; then
	for py in $S samples/random/*.py; do
		ok "$py: NVRTC compiles the CUDA" krun --device cuda --compile-only "$py"
	done
else
	skip "NVRTC compiles the CUDA" "no NVRTC: $(krun --nvrtc 2>&1 | head -1)"
fi
done_testing
