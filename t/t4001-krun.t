#!/bin/bash
# krun's machinery on hand-written code in the emitted ABI (t/run/abi.c,
# abi.cu: every kind of parameter), independent of the emitters: the
# launchers pass every argument right on cpu (libtcc and cc) and sim, the
# inputs follow the documented law, the output is deterministic, and every
# error ends with its documented status and no stray output or files.
. "$(dirname "$0")/lib.sh"

CHECK="python3 t/run/check.py"
KIR=t/run/abi.kir
export TMPDIR=$TMP/tmp
mkdir -p "$TMPDIR"

for dev in cpu cc tcc sim; do
	case $dev in
	cpu) args="$KIR t/run/abi.c" ;;
	cc) args="--cc $KIR t/run/abi.c" ;;
	tcc) args="--tcc $KIR t/run/abi.c" ;;
	sim) args="$KIR t/run/abi.cu" ;;
	esac
	if [ $dev = tcc ] && krun --tcc $KIR t/run/abi.c 2>&1 >/dev/null | grep -q "built without libtcc"; then
		skip "krun $args" "this krun was built without libtcc"
		continue
	fi
	# shellcheck disable=SC2086
	ok "krun $args runs" krun $args
	# shellcheck disable=SC2086
	krun $args >"$TMP/$dev.json" 2>"$TMP/err"
	ok "$dev: every argument reaches the kernel (outputs worked out in float32)" $CHECK abi "$TMP/$dev.json"
	ok "$dev: the inputs follow the law in doc/runtime.md" $CHECK law "$TMP/$dev.json"
done
[ -f "$TMP/tcc.json" ] && is "libtcc and cc give the same bytes" "$(cat "$TMP/tcc.json")" "$(cat "$TMP/cc.json")"
is "cpu and sim records differ only in the device" \
	"$(sed 's/"device": "cpu"/"device": "sim"/' "$TMP/cpu.json")" "$(cat "$TMP/sim.json")"
krun $KIR t/run/abi.c >"$TMP/again.json"
same_file "the same run gives the same bytes" "$TMP/again.json" "$TMP/cpu.json"

# the grid-stride loop: fewer threads than dim, and more than dim
krun --grid 2x3 --dim 20 $KIR t/run/abi.cu >"$TMP/g1.json"
krun --grid 3x64 --dim 20 $KIR t/run/abi.cu >"$TMP/g2.json"
krun --dim 20 $KIR t/run/abi.c >"$TMP/g0.json"
ok "sim --grid 2x3 (6 threads, dim 20) agrees with cpu" $CHECK agree "$TMP/g0.json" "$TMP/g1.json"
ok "sim --grid 3x64 (192 threads, dim 20) agrees with cpu" $CHECK agree "$TMP/g0.json" "$TMP/g2.json"

# inputs depend on (seed, kernel, parameter) only
krun --kernel scale $KIR t/run/abi.c >"$TMP/scale.json"
is "--kernel runs the one named, with the same inputs" "$(cat "$TMP/scale.json")" "$(sed -n 2p "$TMP/cpu.json")"
krun --seed 2 --kernel scale $KIR t/run/abi.c >"$TMP/seed2.json"
ok "--seed 2 follows the law" $CHECK law "$TMP/seed2.json"
[ "$(cat "$TMP/seed2.json")" != "$(cat "$TMP/scale.json")" ]
t_result $? "--seed 2 gives other inputs"
krun --dim 1 --seed 18446744073709551615 $KIR t/run/abi.c >"$TMP/big.json"
ok "--dim 1 and the largest seed follow the law" $CHECK law "$TMP/big.json"
krun --set n=-7 --set=a=0.5 --kernel abi $KIR t/run/abi.c >"$TMP/set.json"
ok "--set NAME=VALUE and --set=NAME=VALUE replace int and float scalars" \
	python3 -c 'import json,sys; r=json.loads(open(sys.argv[1]).read()); sys.exit(not (r["inputs"]["n"] == -7 and r["inputs"]["a"] == 0.5))' "$TMP/set.json"
ok "outputs under --set are still right" $CHECK abi "$TMP/set.json" abi

# the pipeline's entry points agree: FILE.py, its IR, IR and emitted code, stdin
PY=samples/arithmetic/saxpy_rational.py
krun "$PY" >"$TMP/py.json"
kparse "$PY" -o "$TMP/s.kir" && kemit-cpu "$TMP/s.kir" >"$TMP/s.c" && kemit-cu "$TMP/s.kir" >"$TMP/s.cu"
krun "$TMP/s.kir" >"$TMP/kir.json"
same_file "krun FILE.kir is krun FILE.py" "$TMP/kir.json" "$TMP/py.json"
krun "$TMP/s.kir" "$TMP/s.c" >"$TMP/kirc.json"
same_file "krun FILE.kir CODE.c (kemit-cpu) is krun FILE.py" "$TMP/kirc.json" "$TMP/py.json"
kparse "$PY" | krun - >"$TMP/stdin.json"
same_file "kparse FILE.py | krun - is krun FILE.py" "$TMP/stdin.json" "$TMP/py.json"
krun --device sim "$PY" >"$TMP/pysim.json"
krun "$TMP/s.kir" "$TMP/s.cu" >"$TMP/kircu.json"
same_file "krun FILE.kir CODE.cu (kemit-cu) is krun --device sim FILE.py" "$TMP/kircu.json" "$TMP/pysim.json"
krun --compile-only "$PY" >"$TMP/out" 2>&1 && krun --compile-only --device sim "$PY" >>"$TMP/out" 2>&1
is "--compile-only on cpu and sim: status 0, no output" "$?:$(cat "$TMP/out")" "0:"

# errors: status, message, nothing on stdout
status() { # status WANT DESC PATTERN krun-args...: exit WANT, stderr matching PATTERN, empty stdout
	local want=$1 desc=$2 pat=$3
	shift 3
	krun "$@" >"$TMP/out" 2>"$TMP/err"
	local st=$?
	if [ $st = "$want" ] && grep -q -- "$pat" "$TMP/err" && [ ! -s "$TMP/out" ]; then
		t_result 0 "$desc"
	else
		t_result 1 "$desc"
		diag "krun $* exited $st (want $want); stderr:" "$(head -c 2000 "$TMP/err")" "stdout: $(head -c 300 "$TMP/out")"
	fi
}
status 2 "no file: usage, status 2" "usage: krun"
status 2 "unknown option: status 2" "usage: krun" --frobnicate $KIR t/run/abi.c
status 2 "unknown device: status 2" "usage: krun" --device tpu $KIR t/run/abi.c
status 2 "--dim 0: status 2" "want an integer" --dim 0 $KIR t/run/abi.c
status 2 "--dim x: status 2" "want an integer" --dim x $KIR t/run/abi.c
status 2 "--grid without x: status 2" "usage: krun" --grid 4 $KIR t/run/abi.c
status 2 "C code on the sim device: status 2" "is C code" --device sim $KIR t/run/abi.c
status 2 "code that is neither .c nor .cu: status 2" "must be a .c or a .cu" $KIR t/run/abi.kir
status 1 "--kernel naming no kernel: status 1" "no kernel named nope" --kernel nope $KIR t/run/abi.c
status 1 "--set naming no scalar: status 1" "no kernel run has an int, float or bool parameter xs" --set xs=1 $KIR t/run/abi.c
status 1 "--set int from a non-integer: status 1" "is an int32; the value is not an integer in" --set n=1.5 $KIR t/run/abi.c
status 1 "--set float from nan: status 1" "is a float32; the value is not a finite float32" --set a=nan $KIR t/run/abi.c
status 1 "a missing file: status 1" "nope.c" $KIR nope.c
printf 'ksynth-ir 1\n\nkernel @scale(%%s: float, %%ys: float[]) !1:1 {\n  %%0: float = load %%s, 1 !2:5\n}\n' >"$TMP/bad.kir"
status 1 "malformed IR: status 1, located in the IR" "bad.kir:4:.*error" "$TMP/bad.kir" t/run/abi.c
status 1 "C given as the kernel source: status 1, no kernel to run" "abi.c: no kernel to run" t/run/abi.c

printf '#include "ksynth.h"\nvoid scale_cpu_forward(int dim, float s, float *ys) { ys[0] = s +; }\n' >"$TMP/bad.c"
if [ -f "$TMP/tcc.json" ]; then
	status 1 "C that does not compile (libtcc): status 1 with the compiler's message" "bad.c: the C code does not compile (libtcc)" --tcc --kernel scale $KIR "$TMP/bad.c"
	grep -q "bad.c:2: error" "$TMP/err"
	t_result $? "... and the message shows the compiler's error, located in the file"
fi
status 1 "C that does not compile (cc): status 1 with the compiler's message" "bad.c:2:.*error" --cc --kernel scale $KIR "$TMP/bad.c"
sed 's/void scale_cpu_forward.*/extern "C" __global__ void scale_cuda_forward(int dim, float s, float *ys) { ys[0] = s +; }/' \
	"$TMP/bad.c" >"$TMP/bad.cu"
status 1 "CUDA that does not compile (sim): status 1 with the compiler's message" "bad.cu:2:.*error" --kernel scale $KIR "$TMP/bad.cu"
printf '#include "ksynth.h"\nvoid other_cpu_forward(int dim) { (void)dim; }\n' >"$TMP/missing.c"
status 1 "code without the kernel's entry: status 1" "scale_cpu_forward" --kernel scale $KIR "$TMP/missing.c"

printf '#include "ksynth.h"\nvoid scale_cpu_forward(int dim, float s, float *ys) { (void)s; for (int i = 0; i < dim; i++) ys[i - 100000000] = 1.0f; }\n' >"$TMP/crash.c"
status 1 "a kernel that crashes: status 1, named" "scale crashed" --kernel scale $KIR "$TMP/crash.c"
printf '#include "ksynth.h"\nvoid scale_cpu_forward(int dim, float s, float *ys) { while (s == s) ys[0] += 1.0f; (void)dim; }\n' >"$TMP/loop.c"
status 1 "a kernel past --timeout 10: status 1, named (room for the compile on a loaded machine)" "scale did not finish within 10 s" --timeout 10 --kernel scale $KIR "$TMP/loop.c"

printf '#include "ksynth.h"\nvoid scale_cpu_forward(int dim, float s, float *ys) { for (int i = 0; i < dim; i++) ys[i] = i == 1 ? s / 0.0f : i == 2 ? 0.0f / 0.0f : s; }\n' >"$TMP/inf.c"
krun --kernel scale --dim 4 $KIR "$TMP/inf.c" >"$TMP/out" 2>"$TMP/err"
is "non-finite outputs: status 1" "$?" 1
is "... printed as null (JSON has no NaN or Infinity)" \
	"$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["outputs"]["ys"][1:3])' "$TMP/out")" "[None, None]"
ok "... with a message" grep -q "scale: 2 output values are not finite (printed as null)" "$TMP/err"

# an array field of a struct (h.values) and of an element of an array of
# structs (holders[0].values): the checked code compiles, and an index out
# of bounds is the located error that names the array
krun t/run/struct_field_oob.py >"$TMP/out" 2>"$TMP/err"
is "h.values[i + 1000]: krun exits 1" "$?" 1
ok "... the located bounds error names h.values" \
	grep -q "^t/run/struct_field_oob.py:10:14: error: h.values\[1000\] is out of bounds in kernel read_past: h.values has 16 elements" "$TMP/err"
kemit-cpu --checked t/emit/struct_elem_field.kir >"$TMP/sef.c"
ok "holders[0].values[i]: kemit-cpu --checked compiles" \
	gcc -std=c11 -Wall -Wextra -Werror -c -I runtime -o "$TMP/sef.o" "$TMP/sef.c"

is "no temporary file is left behind" "$(ls -A "$TMPDIR")" ""
done_testing
