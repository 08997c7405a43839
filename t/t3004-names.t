#!/bin/bash
# Names C and C++ reserve (a leading '_', "__" anywhere) and ksynth.h's
# ks_/KS_: kernels, funcs, parameters, locals and loop variables named so,
# with one or two underscores, and names that clash once renamed, go
# through kparse, kdiff and both emitters (each bounded: they once looped
# forever on a leading underscore) to C and CUDA that hold no reserved
# name, compile warning-free, and run: cpu and sim agree on --grad and the
# gradients pass --gradcheck.  t/emit/names.py (all at once) also has
# golden output (t/t3002).
. "$(dirname "$0")/lib.sh"

CUDA=${CUDA_HOME:-/usr/local/cuda}
NVCC=
if [ -x "$CUDA/bin/nvcc" ]; then NVCC=$CUDA/bin/nvcc; elif command -v nvcc >/dev/null; then NVCC=$(command -v nvcc); fi

# reserved FILE: the identifiers outside comments that start with '_' or
# hold "__" (CUDA's own qualifiers aside), one a line
reserved() {
	python3 - "$1" <<'EOP'
import re, sys
code = open(sys.argv[1]).read()
code = re.sub(r"/\*.*?\*/", " ", code, flags=re.S)
code = re.sub(r"//[^\n]*", " ", code)
own = {"__global__", "__device__", "__host__", "__forceinline__", "__restrict__"}
for name in sorted(set(re.findall(r"\b[A-Za-z_]\w*", code))):
    if (name.startswith("_") or "__" in name) and name not in own:
        print(name)
EOP
}

# case NAME: the module on stdin, through every tool and compiler
case_() {
	local n=$1
	cat >"$TMP/$n.py"
	local st=0
	timeout 20 kparse "$TMP/$n.py" >"$TMP/$n.kir" 2>"$TMP/err" &&
		timeout 20 kdiff "$TMP/$n.kir" >"$TMP/$n.adj.kir" 2>>"$TMP/err" &&
		timeout 20 kemit-cpu "$TMP/$n.adj.kir" >"$TMP/$n.c" 2>>"$TMP/err" &&
		timeout 20 kemit-cu "$TMP/$n.adj.kir" >"$TMP/$n.cu" 2>>"$TMP/err" || st=$?
	is "$n: kparse, kdiff, kemit-cpu and kemit-cu finish (status, 124 a hang)" "$st" 0 ||
		{ diag "$(head -c 2000 "$TMP/err")"; return; }
	is "$n: no reserved name in the C" "$(reserved "$TMP/$n.c" | tr '\n' ' ')" ""
	is "$n: no reserved name in the CUDA" "$(reserved "$TMP/$n.cu" | tr '\n' ' ')" ""
	ok "$n: gcc -Wall -Wextra -Werror compiles the C" \
		gcc -std=c11 -Wall -Wextra -Werror -Iruntime -c -o "$TMP/$n.o" "$TMP/$n.c"
	ok "$n: g++ -Wall -Wextra -Werror compiles the CUDA (sim)" \
		g++ -std=c++17 -Wall -Wextra -Werror -Iruntime -include runtime/ksynth_sim.h -x c++ \
		-c -o "$TMP/$n.o" "$TMP/$n.cu"
	if [ -n "$NVCC" ]; then
		ok "$n: nvcc -arch=sm_90 -Werror all-warnings compiles the CUDA" \
			"$NVCC" -ptx -arch=sm_90 -Werror all-warnings -std=c++17 --fmad=false -Iruntime \
			-o "$TMP/$n.ptx" "$TMP/$n.cu"
	fi
	krun --gradcheck "$TMP/$n.py" >"$TMP/$n.cpu.json" 2>"$TMP/err"
	is "$n: krun --gradcheck passes on cpu" "$?" 0 || diag "$(head -c 2000 "$TMP/err")"
}

case_ kernel_one <<'EOF'
import warp as wp
@wp.kernel
def _k(x: wp.array(dtype=float)):
    i = wp.tid()
    x[i] = x[i] * 2.0
EOF
case_ kernel_two <<'EOF'
import warp as wp
@wp.kernel
def __k__(x: wp.array(dtype=float)):
    i = wp.tid()
    x[i] = x[i] * 2.0
EOF
case_ kernel_clash <<'EOF'
import warp as wp
@wp.kernel
def k_(x: wp.array(dtype=float)):
    i = wp.tid()
    x[i] = x[i] * 2.0
@wp.kernel
def _k(x: wp.array(dtype=float)):
    i = wp.tid()
    x[i] = x[i] * 3.0
@wp.kernel
def v_k(x: wp.array(dtype=float)):
    i = wp.tid()
    x[i] = x[i] * 4.0
@wp.kernel
def k(x: wp.array(dtype=float)):
    i = wp.tid()
    x[i] = x[i] * 5.0
EOF
case_ func <<'EOF'
import warp as wp
@wp.func
def _h(x: float):
    return x * 2.0
@wp.func
def __h(x: float):
    return x + 2.0
@wp.func
def v_h(x: float):
    return x - 2.0
@wp.func
def _pair(x: float):
    _r = x * x
    __r = _r + x
    return _r, __r
@wp.kernel
def k(x: wp.array(dtype=float)):
    i = wp.tid()
    p, q = _pair(x[i])
    x[i] = _h(p) + __h(q) + v_h(x[i])
EOF
case_ params <<'EOF'
import warp as wp
@wp.kernel
def k(_a: wp.array(dtype=float), __a: wp.array(dtype=float), a_: float, a: float, ks_s: float, KS_s: float, v_ks_s: float):
    i = wp.tid()
    _a[i] = __a[i] * a_ + a * ks_s + KS_s * v_ks_s
EOF
case_ locals <<'EOF'
import warp as wp
@wp.kernel
def k(x: wp.array(dtype=float)):
    i = wp.tid()
    _y = x[i]
    __y = _y * 2.0
    y_ = __y + 1.0
    v_y = y_ * _y
    y = v_y - __y
    _ = 0.0
    for __ in range(3):
        _ = _ + y
    for _i in range(2):
        _ = _ * 0.5
    x[i] = _
EOF
case_ clash_after <<'EOF'
import warp as wp
@wp.kernel
def k(a__b: wp.array(dtype=float), a_b: wp.array(dtype=float), a___b: float, _int: float, __dim: float, _tid: float):
    i = wp.tid()
    a__b[i] = a_b[i] * a___b + _int * __dim + _tid
EOF

# all at once, and run on both host devices
krun --grad t/emit/names.py >"$TMP/cpu.json" 2>"$TMP/err"
is "t/emit/names.py: krun --grad on cpu" "$?" 0 || diag "$(cat "$TMP/err")"
krun --grad --device sim t/emit/names.py >"$TMP/sim.json" 2>"$TMP/err"
is "t/emit/names.py: krun --grad on sim" "$?" 0 || diag "$(cat "$TMP/err")"
ok "... cpu and sim agree" python3 t/run/check.py agree "$TMP/cpu.json" "$TMP/sim.json" --rel 1e-6
is "... a record for each kernel, under its source name" \
	"$(python3 -c 'import json,sys; print(" ".join(json.loads(l)["kernel"] for l in open(sys.argv[1])))' "$TMP/cpu.json")" \
	"_k v_k k_ __"
krun --gradcheck t/emit/names.py >/dev/null 2>"$TMP/err"
is "... and --gradcheck passes" "$?" 0 || diag "$(cat "$TMP/err")"
krun --device cuda --compile-only t/emit/names.py >/dev/null 2>"$TMP/err"
st=$?
if [ $st = 77 ]; then
	skip "t/emit/names.py: NVRTC compiles it" "$(cat "$TMP/err")"
else
	is "t/emit/names.py: NVRTC compiles it without a warning" "$st:$(cat "$TMP/err")" "0:"
fi
done_testing
