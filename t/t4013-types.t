#!/bin/bash
# krun on every scalar type (doc/runtime.md): t/run/nd/scalars.py takes
# each as a parameter and as an array element, and composites of every
# kind; its outputs must repeat its inputs on cpu and sim, the inputs
# follow the law for each type (float16 rounded, narrow ints capped), the
# values print in their own width, and --set reaches every width and bool
# with its range checked.
. "$(dirname "$0")/lib.sh"

CHECK="python3 t/run/check.py"
PY=t/run/nd/scalars.py
export TMPDIR=$TMP/tmp
mkdir -p "$TMPDIR"

for dim in 16 300; do
	ok "krun --dim $dim $PY (cpu)" krun --dim $dim $PY
	krun --dim $dim $PY >"$TMP/cpu$dim.json"
	krun --device sim --dim $dim $PY >"$TMP/sim$dim.json"
	is "--dim $dim: cpu and sim records are the same bytes but the device" \
		"$(sed 's/"device": "cpu"/"device": "sim"/' "$TMP/cpu$dim.json")" "$(cat "$TMP/sim$dim.json")"
	ok "--dim $dim: every value comes back out as it went in, float16 in the fewest digits" \
		$CHECK types "$TMP/cpu$dim.json"
	ok "--dim $dim: the inputs follow the law for every type" $CHECK law "$TMP/cpu$dim.json" --ir $PY
done
is "int scalars are the launch's dimension, capped at their type's largest value" \
	"$(python3 -c 'import json,sys; i=json.loads(open(sys.argv[1]).readline())["inputs"]; print(*(i[k] for k in ("i8", "u8", "i16", "u16", "i32", "u64")))' "$TMP/cpu300.json")" \
	"127 255 300 300 300 300"
is "narrow int array elements stay below their cap (int8 < 128, uint8 < 256)" \
	"$(python3 -c 'import json,sys; r=[json.loads(l) for l in open(sys.argv[1])]; i=r[1]["inputs"]; print(max(i["i8"]) < 128 <= max(i["i16"]), max(i["u8"]) < 256 <= max(i["u16"]))' "$TMP/cpu300.json")" \
	"True True"
is "bools print as true and false, ints as integers, float64 as doubles" \
	"$(head -1 "$TMP/cpu16.json" | grep -o '"b": [a-z]*, "i8": [0-9]*,.*"d": [-0-9.e]*,' | sed 's/"h": [^,]*, "f": [^,]*, //')" \
	'"b": false, "i8": 16, "u8": 16, "i16": 16, "u16": 16, "i32": 16, "u32": 16, "i64": 16, "u64": 16, "d": 0.6829842329025269,'
is "a float16 input prints its float16 (the law's float32 rounded)" \
	"$(head -1 "$TMP/cpu16.json" | grep -o '"h": [^,]*, "f": [^,]*,')" '"h": -0.829, "f": 0.94275796,'

# kemit-cpu's unchecked code gives the same records
kparse $PY -o "$TMP/s.kir" && kemit-cpu "$TMP/s.kir" >"$TMP/s.c"
krun "$TMP/s.kir" "$TMP/s.c" >"$TMP/given.json"
same_file "krun FILE.kir CODE.c (kemit-cpu) is krun FILE.py" "$TMP/given.json" "$TMP/cpu16.json"
krun --cc --dim 16 $PY >"$TMP/cc.json"
same_file "cc gives the same bytes" "$TMP/cc.json" "$TMP/cpu16.json"

# --set: every width at its extremes, bool, float16 rounded
SETS="--set b=true --set i8=-128 --set u8=255 --set i16=-32768 --set u16=65535 --set i32=-2147483648
      --set u32=4294967295 --set i64=-9223372036854775808 --set u64=18446744073709551615
      --set h=0.1 --set f=0.1 --set d=0.1"
# shellcheck disable=SC2086
krun --kernel scalars --dim 3 $SETS $PY >"$TMP/set.json"
is "--set reaches every scalar type" \
	"$(grep -o '"inputs": {[^}]*}' "$TMP/set.json" | sed 's/, "ob".*//')" \
	'"inputs": {"b": true, "i8": -128, "u8": 255, "i16": -32768, "u16": 65535, "i32": -2147483648, "u32": 4294967295, "i64": -9223372036854775808, "u64": 18446744073709551615, "h": 0.1, "f": 0.1, "d": 0.1'
ok "... and the kernel stores those values" $CHECK types "$TMP/set.json"
is "a float16 --set is rounded to float16 (0.1 is 0.0999755859375 there)" \
	"$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(r["outputs"]["oh"][0], r["outputs"]["od"][0])' "$TMP/set.json")" "0.1 0.1"
ok "... and is 0.0999755859375" python3 -c 'import json,sys,struct; r=json.load(open(sys.argv[1])); sys.exit(struct.unpack("e", struct.pack("e", r["outputs"]["oh"][0]))[0] != 0.0999755859375)' "$TMP/set.json"

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
status 1 "--set int8 out of range: status 1" "i8=128: scalars's i8 is an int8; the value is not an integer in \[-128, 127\]" \
	--kernel scalars --set i8=128 $PY
status 1 "--set uint8 negative" "is a uint8; the value is not an integer in \[0, 255\]" --kernel scalars --set u8=-1 $PY
status 1 "--set uint64 past 2^64 - 1" "is a uint64" --kernel scalars --set u64=18446744073709551616 $PY
status 1 "--set int64 past its range" "is an int64" --kernel scalars --set i64=9223372036854775808 $PY
status 1 "--set float16 past its range (65520 rounds to infinity)" "is a float16; the value is not a finite float16" \
	--kernel scalars --set h=65520 $PY
status 1 "--set float32 past its range" "is a float32; the value is not a finite float32" --kernel scalars --set f=1e39 $PY
status 1 "--set bool from 2" "is a bool; the value is not true, false, 1 or 0" --kernel scalars --set b=2 $PY
# shellcheck disable=SC2086
krun --kernel scalars --set h=65504 --set b=0 --dim 2 $PY >"$TMP/max.json"
is "float16's largest value and a bool from 0" \
	"$(grep -o '"b": [a-z]*\|"h": [^,]*' "$TMP/max.json" | head -2 | tr '\n' ' ')" '"b": false "h": 65504.0 '

is "no temporary file is left behind" "$(ls -A "$TMPDIR")" ""
done_testing
