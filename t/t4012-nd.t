#!/bin/bash
# krun on launches of 2 to 4 dimensions and arrays of 1 to 4
# (doc/runtime.md): the kernels of t/run/nd/grid.py give cpu and sim
# records that agree bit for bit, outputs worked out from the inputs, the
# law for every shape, --dim AxB and --shape and their errors; the
# backward ABI on float64, float16 and 2-D arrays (the hand-written
# backward kernels of t/run/nd/grad.kir); and an access out of bounds in
# krun's checked cpu code as a located error.
. "$(dirname "$0")/lib.sh"

CHECK="python3 t/run/check.py"
PY=t/run/nd/grid.py
export TMPDIR=$TMP/tmp
mkdir -p "$TMPDIR"

# ---- launches of 2, 3 and 4 dimensions ----------------------------------

# the default launch: 16x16, 8^3 and 4^4 threads
ok "krun $PY (cpu)" krun $PY
krun $PY >"$TMP/cpu.json"
krun --device sim $PY >"$TMP/sim.json"
is "cpu and sim records are the same bytes but the device" \
	"$(sed 's/"device": "cpu"/"device": "sim"/' "$TMP/cpu.json")" "$(cat "$TMP/sim.json")"
ok "the outputs, worked out from the inputs (float32, float64, float16 per operation)" \
	$CHECK grid "$TMP/cpu.json"
ok "the inputs follow the law, every array shaped by the launch" $CHECK law "$TMP/cpu.json" --ir $PY
is "dim is a list for an N-D launch" \
	"$(python3 -c 'import json,sys; print(" ".join(json.dumps(json.loads(l)["dim"]) for l in open(sys.argv[1])))' "$TMP/cpu.json")" \
	"[16, 16] [16, 16] [8, 8, 8] [4, 4, 4, 4] [16, 16]"
is "... and an N-D array is nested lists, row-major" \
	"$(python3 -c 'import json,sys; r=[json.loads(l) for l in open(sys.argv[1])]; print(len(r[2]["inputs"]["v"]), len(r[2]["inputs"]["v"][0]), len(r[2]["inputs"]["v"][0][0]), len(r[2]["inputs"]["v"][0][0][0]), len(r[3]["outputs"]["h"][3][3][3]))' "$TMP/cpu.json")" \
	"8 8 8 3 4"
krun --dim 16 $PY >"$TMP/cpu16.json"
is "--dim 16 given: 16 along every dimension of every launch" \
	"$(python3 -c 'import json,sys; print(" ".join(json.dumps(json.loads(l)["dim"]) for l in open(sys.argv[1])))' "$TMP/cpu16.json")" \
	"[16, 16] [16, 16] [16, 16, 16] [16, 16, 16, 16] [16, 16]"

krun --device sim --grid 3x7 --dim 5 $PY >"$TMP/grid.json"
krun --dim 5 $PY >"$TMP/cpu5.json"
ok "sim --grid 3x7 (a grid-stride loop over the product of the dimensions) agrees with cpu" \
	$CHECK agree "$TMP/cpu5.json" "$TMP/grid.json" --rel 1e-6

# krun's own cpu code is checked (every array a view); kemit-cpu's is not:
# the records are the same
kparse $PY -o "$TMP/grid.kir" && kemit-cpu "$TMP/grid.kir" >"$TMP/grid.c" && kemit-cu "$TMP/grid.kir" >"$TMP/grid.cu"
krun --dim 5 "$TMP/grid.kir" "$TMP/grid.c" >"$TMP/given.json"
same_file "krun FILE.kir CODE.c (kemit-cpu, unchecked) is krun FILE.py (checked)" "$TMP/given.json" "$TMP/cpu5.json"
krun --dim 5 "$TMP/grid.kir" "$TMP/grid.cu" >"$TMP/givencu.json"
is "krun FILE.kir CODE.cu (kemit-cu) agrees too" \
	"$(sed 's/"device": "sim"/"device": "cpu"/' "$TMP/givencu.json")" "$(cat "$TMP/cpu5.json")"
krun --dim 5 --cc $PY >"$TMP/cc.json"
same_file "the system compiler gives the same bytes" "$TMP/cc.json" "$TMP/cpu5.json"

# ---- --dim AxB and --shape -------------------------------------------------

krun --kernel blur --dim 4x6 $PY >"$TMP/d46.json"
ok "--dim 4x6: blur's outputs" $CHECK grid "$TMP/d46.json"
ok "--dim 4x6: the law, arrays of 4x6" $CHECK law "$TMP/d46.json" --ir $PY
is "--dim 4x6: dim [4, 6], src 4 rows of 6" \
	"$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(r["dim"], len(r["inputs"]["src"]), len(r["inputs"]["src"][0]))' "$TMP/d46.json")" \
	"[4, 6] 4 6"
krun --kernel volume --dim 2x3x4 $PY >"$TMP/d234.json"
ok "--dim 2x3x4: volume's outputs (a 1-D array takes the first dimension)" $CHECK grid "$TMP/d234.json"
ok "--dim 2x3x4: the law" $CHECK law "$TMP/d234.json" --ir $PY
krun --kernel counts --dim 3x40 $PY >"$TMP/counts.json"
ok "ints are drawn in [0, smallest dimension): counts stay in bounds" $CHECK grid "$TMP/counts.json"
ok "... and follow the law" $CHECK law "$TMP/counts.json" --ir $PY
krun --kernel hyper --dim 2 --shape g=2x5 --shape h=2x2x2x5 $PY >"$TMP/shape.json" 2>"$TMP/err"
is "--shape NAME=AxB gives an array its extents" "$?:$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(len(r["inputs"]["g"][1]), len(r["inputs"]["h"][1][1][1]))' "$TMP/shape.json")" "0:5 5"
ok "... and the law with those shapes" $CHECK law "$TMP/shape.json" --ir $PY --shape g=2x5 --shape h=2x2x2x5
krun --kernel blur --dim 4x6 --shape src=5x7 $PY >"$TMP/src57.json"
ok "--shape on one array of two (src 5x7, dst 4x6 from the launch)" \
	$CHECK law "$TMP/src57.json" --ir $PY --shape src=5x7

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
status 1 "--dim AxB on kernels of another rank: status 1, the kernel named" \
	"--dim 4x6: kernel volume is launched over 3 dimensions" --dim 4x6 $PY
status 1 "--dim AxBxC on a 2-D kernel" "kernel blur is launched over 2 dimensions" --kernel blur --dim 2x2x2 $PY
status 2 "--dim of 5 dimensions: status 2" "at most 4 dimensions" --dim 1x2x3x4x5 $PY
status 2 "--dim 4x: status 2" "want an integer" --dim 4x $PY
status 2 "--dim 4x0: status 2" "want an integer" --dim 4x0 $PY
status 1 "--shape with the wrong number of extents: status 1" \
	"kernel blur's src is a float\[,\], of 2 dimensions; the shape gives 1" --kernel blur --shape src=4 $PY
status 1 "--shape naming no array: status 1" "no kernel run has an array parameter w" --kernel blur --shape w=4 $PY
status 2 "--shape without extents: status 2" "usage: krun" --shape src $PY
status 2 "--shape src=0x3: status 2" "want an integer" --shape src=0x3 $PY
status 1 "a launch of more than 2^24 threads: status 1" "a launch of 5000x5000 is 25000000 threads" \
	--kernel blur --dim 5000 $PY
status 1 "an array of more than 2^24 elements: status 1" "array src of shape 5000x5000 has more than" \
	--kernel blur --shape src=5000x5000 $PY
cat >"$TMP/deep.py" <<'EOF'
import warp as wp


@wp.kernel
def deep(a: wp.array4d(dtype=float)):
    i = wp.tid()
    a[i, 0, 0, 0] = 1.0
EOF
krun --dim 3 "$TMP/deep.py" >"$TMP/deep.json"
is "a 1-D launch: a 4-D array takes its dimension on every axis" \
	"$(python3 -c 'import json,sys; a=json.load(open(sys.argv[1]))["inputs"]["a"]; print(len(a), len(a[2]), len(a[2][2]), len(a[2][2][2]))' "$TMP/deep.json")" "3 3 3 3"
status 1 "... and one too large is an error, not an allocation" "array a of shape 200x200x200x200 has more than" \
	--dim 200 "$TMP/deep.py"

# ---- the backward pass -----------------------------------------------------

KIR=t/run/nd/grad.kir
for dev in cpu sim; do
	ok "grad.kir: krun --gradcheck --device $dev (float64, float16, 2-D)" krun --gradcheck --device $dev $KIR
	krun --gradcheck --device $dev $KIR >"$TMP/g.$dev.json" 2>"$TMP/err"
	ok "$dev: seed_adj, grads and gradcheck as documented, shaped like the inputs" $CHECK grads "$TMP/g.$dev.json"
	ok "$dev: the inputs and the seeds follow the law (float16 seeds rounded)" $CHECK law "$TMP/g.$dev.json" --ir $KIR
	ok "$dev: gradients worked out by hand in their precision" $CHECK nd-grad "$TMP/g.$dev.json"
done
ok "cpu and sim gradients are the same bits" $CHECK agree "$TMP/g.cpu.json" "$TMP/g.sim.json"
# kernels of 2 and 3 dimensions with no float data: an empty backward, run
for dev in cpu sim; do
	krun --gradcheck --device $dev t/run/nd/intonly.py >"$TMP/int.$dev.json" 2>"$TMP/err"
	is "no float data, 2-D and 3-D ($dev): --gradcheck passes, no gradients" "$?:$(python3 -c '
import json, sys
print(" ".join("%s:%s:%s" % (r["kernel"], r["grads"], r["gradcheck"]["ok"]) for r in map(json.loads, open(sys.argv[1]))))' "$TMP/int.$dev.json")" \
		"0:index_sum:{}:True count_3d:{}:True"
done
is "the float16 kernels are checked against the float16 tolerance, the others against float32's" \
	"$(python3 -c 'import json,sys; print(" ".join("%s:%g" % (r["kernel"], r["gradcheck"]["rtol"]) for r in map(json.loads, open(sys.argv[1]))))' "$TMP/g.cpu.json")" \
	"poly64:0.001 poly16:0.03 stencil:0.001 square16:0.03 norms64:0.001"
is "where names an element of an N-D array and its component" \
	"$(python3 -c 'import json,sys,re; r=[json.loads(l) for l in open(sys.argv[1])]; print(all(re.fullmatch(r"v\[\d+, \d+\]\[\d\]", r[4]["gradcheck"]["where"]) for _ in [0]))' "$TMP/g.cpu.json")" "True"
krun --gradcheck --dim 5x3 --kernel stencil $KIR >"$TMP/g53.json"
ok "stencil at --dim 5x3" $CHECK nd-grad "$TMP/g53.json"
krun --grad --cc $KIR >"$TMP/gcc.json" && krun --grad $KIR >"$TMP/gtcc.json"
same_file "--grad: libtcc (or cc) and cc give the same bytes" "$TMP/gcc.json" "$TMP/gtcc.json"
sed 's/%3: float = mul %ds, %w !15:5/%3: float = mul %ds, %b !15:5/' $KIR >"$TMP/bad.kir"
krun --gradcheck --kernel stencil "$TMP/bad.kir" >"$TMP/bad.json" 2>"$TMP/err"
is "a wrong 2-D adjoint: --gradcheck exits 1" "$?" 1
ok "... and names a 2-D element" grep -q "worst at src\[[0-9]*, [0-9]*\]" "$TMP/err"
sed 's/%2: float16 = add %1, 1.0:float16 !9:5/%2: float16 = add %1, 0.5:float16 !9:5/' $KIR >"$TMP/bad16.kir"
krun --gradcheck --kernel poly16 "$TMP/bad16.kir" >"$TMP/bad16.json" 2>"$TMP/err"
is "a wrong float16 adjoint fails the float16 tolerance" "$?" 1

# ---- an index out of bounds ------------------------------------------------

OOB=t/run/nd/oob.py
status 1 "x[i + 1]: a located error at the access, with the index and the extent" \
	"^$OOB:9:12: error: x\[16\] is out of bounds in kernel shift: x has 16 elements" --kernel shift $OOB
ok "... with the source line and a caret" grep -qx "               ^" "$TMP/err"
status 1 "a negative index in an atomic" "^$OOB:15:5: error: y\[-1\] is out of bounds in kernel back: y has 16 elements" \
	--kernel back $OOB
status 1 "a 2-D access: the axis, its extent and the shape" \
	"^$OOB:21:5: error: a\[0, 5\] is out of bounds in kernel grid: index 5 along axis 1 is not in \[0, 5) (a has shape 4x5)" \
	--kernel grid --dim 4x5 --set k=3 $OOB
kparse $OOB -o "$TMP/oob.kir"
status 1 "from the IR: located in the source its source line names" "^$OOB:9:12: error: x\[16\]" --kernel shift "$TMP/oob.kir"
krun --kernel grid --set k=0 $OOB >"$TMP/inb.json"
is "in bounds, the same kernel runs" "$?" 0
kemit-cpu --checked "$TMP/oob.kir" >"$TMP/checked.c"
ok "kemit-cpu --checked: every access through ks_index" grep -q 'x.data\[ks_index1(x.shape, i + 1, "x", 9, 12)\]' "$TMP/checked.c"
ok "... and the checked C compiles warning-free" cc -std=c11 -Wall -Wextra -Werror -Iruntime -c -o "$TMP/checked.o" "$TMP/checked.c"

is "no temporary file is left behind" "$(ls -A "$TMPDIR")" ""
done_testing
