# t/run/devagree.sh: a device against the cpu device, kernel file by
# kernel file: the comparisons make check-cuda makes on the GPU (t/t4103
# forward, t/t4104 backward) and make check makes on sim, which runs the
# same CUDA code on the host and stands in for the GPU (t/t4009), so that
# the comparisons themselves are tested where there is no GPU.  $DEV is
# the device; sourced after t/lib.sh.
#
# Bounds: |cpu - dev| <= max(rel * max(|cpu|, |dev|), abs); ints and nulls
# (non-finite values) must be equal.
#
#   TOL_FWD   forward at dim <= 1000: rel 1e-5, abs 2e-5.  CUDA's float
#             transcendentals (sinf, expf, powf, ...) are within 1 to 4 ulp
#             (the CUDA C Programming Guide), glibc's within 1 (2.4e-7
#             relative each); a kernel chains a few; the GPU sums float
#             atomics in its own order (16 terms <= 1 move by at most
#             16 * 16 * 2^-24 < 2e-5).
#   TOL_BIG   forward at --dim 100000 on a 40x128 grid (5120 threads, each
#             taking about 20 indices through the grid-stride loop): rel
#             2e-4, abs 2e-4.  A float atomic target may now sum 1e5 terms
#             in the GPU's order; each add rounds by up to half an ulp of
#             the partial sum, and those errors add up like a random walk,
#             about sqrt(1e5) * 2^-24 = 2e-5 of the partial sums' size:
#             the bound leaves a factor of 10.
#   TOL_GEN   forward of generated kernels: TOL_FWD, abs scaled by
#             max(1, the record's largest |output|): a generated value may
#             be the cancellation of much larger terms (doc/
#             warp-differences.md scales its bound so for the same reason).
#   TOL_GRAD  gradients: rel 1e-4, abs 1e-5 scaled by max(1, the record's
#             largest |gradient|): the backward chains two sweeps, the
#             forward recomputed and the reverse, and sums the adjoints of
#             float scalars over every thread through atomics.
#
# BIG_RUN is the run of TOL_BIG (BIG_GRID its grid and seed, for a run
# of another size); big_sets FILE adds --set NAME=64 for each
# int scalar of FILE's kernels, which the input law makes dim otherwise,
# so that a loop it bounds stays short (at dim, a kernel whose every
# thread loops n times is 1e10 iterations, minutes on the cpu device).
TOL_FWD="--rel 1e-5 --abs 2e-5"
TOL_BIG="--rel 2e-4 --abs 2e-4"
TOL_GEN="--rel 1e-5 --abs 2e-5 --scale"
TOL_GRAD="--grad-rel 1e-4 --grad-abs 1e-5"
BIG_GRID="--grid 40x128 --seed 7"
BIG_RUN="--dim 100000 $BIG_GRID"

# t_krun OUT ERR DESC ARGS...: krun ARGS >OUT 2>ERR; a failed test with
# krun's reason unless it exits 0
t_krun() {
	local out=$1 err=$2 desc=$3
	shift 3
	krun "$@" >"$out" 2>"$err"
	local st=$?
	[ $st = 0 ] && return 0
	t_result 1 "$desc"
	diag "krun $* exits $st:" "$(head -c 2000 "$err")"
	return 1
}

# fwd_pair DESC TOL KRUN-ARGS...: cpu and $DEV run the same kernels on the
# same inputs; their records agree within TOL
fwd_pair() {
	local desc=$1 tol=$2
	shift 2
	t_krun "$TMP/cpu.json" "$TMP/cpu.err" "$desc" "$@" || return 1
	t_krun "$TMP/dev.json" "$TMP/dev.err" "$desc" --device "$DEV" "$@" || return 1
	ok "$desc" python3 t/run/check.py agree "$TMP/cpu.json" "$TMP/dev.json" $tol
}

# grad_pair DESC OUTPUT-TOL FILE: --gradcheck on cpu and on $DEV (the
# double-precision forward of the finite differences runs on the host,
# against $DEV's backward kernels).  The outputs agree within OUTPUT-TOL,
# the gradients within TOL_GRAD, and $DEV's gradients pass the gradcheck
# wherever cpu's do; where cpu's do not (a kernel the finite differences
# cannot follow), $DEV's are compared with cpu's only, and the test says so.
grad_pair() {
	local desc=$1 tol=$2 file=$3
	krun --gradcheck "$file" >"$TMP/cpu.json" 2>"$TMP/cpu.err"
	local sc=$?
	if [ $sc != 0 ] && ! grep -q 'gradcheck failed' "$TMP/cpu.err"; then
		t_result 1 "$desc"
		diag "krun --gradcheck $file exits $sc:" "$(head -c 2000 "$TMP/cpu.err")"
		return 1
	fi
	krun --device "$DEV" --gradcheck "$file" >"$TMP/dev.json" 2>"$TMP/dev.err"
	local sd=$?
	if [ $sd != 0 ] && { [ $sc = 0 ] || ! grep -q 'gradcheck failed' "$TMP/dev.err"; }; then
		t_result 1 "$desc"
		diag "krun --device $DEV --gradcheck $file exits $sd:" "$(head -c 2000 "$TMP/dev.err")"
		return 1
	fi
	if [ $sc != 0 ]; then
		diag "$file: the gradcheck fails on cpu too: $DEV's gradients compared with cpu's only"
	fi
	ok "$desc" python3 t/run/check.py agree "$TMP/cpu.json" "$TMP/dev.json" $tol $TOL_GRAD
}

# dims_for FILE N: --dim for FILE's kernels so that a launch has about N
# threads, whatever its rank: --dim gives every axis of a launch the same
# extent, so a 2-D kernel takes sqrt(N) and a 3-D one the cube root (at
# --dim 1000 a 3-D launch would be 1e9 threads)
dims_for() {
	local r
	r=$(kparse "$1" 2>/dev/null | grep -o '^ *%[^=]*= tid' | awk -F, '{ if (NF > m) m = NF } END { print m + 0 }')
	awk -v n="$2" -v r="${r:-1}" 'BEGIN { if (r < 1) r = 1; printf "--dim %d\n", int(n ^ (1 / r) + 0.5) }'
}

# par LIST: run each line of LIST (a call of fwd_pair, grad_pair or
# another test function) in a subshell of its own with a TMP of its own,
# $KS_JOBS (default: the processors) at a time, then print their TAP in
# LIST's order, numbered on.  A GPU run is mostly NVRTC and the driver's
# start, one process a kernel file: in parallel the whole sweep takes
# minutes, not tens of them.
par() {
	local list=$1 n=0 k line jobs=${KS_JOBS:-$(nproc)}
	mkdir -p "$TMP/par"
	while IFS= read -r line; do
		n=$((n + 1))
		(
			TMP=$TMP/par/$n
			mkdir -p "$TMP"
			t_n=0
			t_failed=0
			eval "$line"
		) >"$TMP/par/$n.tap" 2>&1 &
		while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
			wait -n
		done
	done <"$list"
	wait
	for ((k = 1; k <= n; k++)); do
		while IFS= read -r line; do
			case $line in
			"ok "*) t_result 0 "${line#ok * - }" ;;
			"not ok "*) t_result 1 "${line#not ok * - }" ;;
			*) printf '%s\n' "$line" ;;
			esac
		done <"$TMP/par/$k.tap"
	done
}

# call ARGS...: ARGS as one line of a par list, each word quoted
call() {
	printf '%q ' "$@"
	echo
}

big_sets() {
	kparse "$1" 2>/dev/null | grep '^kernel' | grep -o '%[A-Za-z_0-9]*: int[,)]' |
		sed 's/^%//; s/: int.$//' | sort -u | sed 's/.*/--set &=64/'
}

# gen_set DIR N: N kgen kernels a category (seed 1), one module a file,
# in DIR/CATEGORY; prints their paths
gen_set() {
	local dir=$1 n=$2 c
	for c in arithmetic math vector matrix control_flow loop atomic function inplace combined; do
		mkdir -p "$dir/$c"
		kgen -c $c -s 1 -n "$n" --split "$dir/$c" >/dev/null || return 1
	done
	ls "$dir"/*/*.py
}
