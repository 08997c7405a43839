#!/bin/bash
# Whole Warp modules (grammar/pieces.c, grammar/sema_module.c): the host
# Python around the kernels (imports of anything, dicts, lists, classes,
# host functions with try/except, lambdas, async defs, match, f-strings,
# `if __name__ == "__main__":`, CRLF line ends) is skipped, as is what the
# decorators' module= names, and the kernels
# come out as they do from the same kernels alone; a kernel that reads a
# name the host code binds is told what it is; a kernel factory is
# reported.  kparse --keep-going writes every def that compiles and
# reports each that does not as FILE:LINE:COL: error: kernel NAME: REASON,
# exit 1 when any was left out; krun --kernel NAME compiles that kernel and
# its funcs alone.  Host code that is not Python where the piece scanner
# sees it (brackets, strings) is a located error.
. "$(dirname "$0")/lib.sh"

D=t/host
nolines() { sed '/^source /d; s/ ![0-9]*:[0-9]*//g' "$1"; }

kparse -o "$TMP/m.kir" $D/module.py 2>"$TMP/err"
is "a module with host code: kparse exits 0, says nothing" "$?:$(cat "$TMP/err")" "0:"
is "... its struct, func and two kernels, and nothing of the host code" \
	"$(grep -oE '^(struct|func|kernel) @?[a-z_A-Z]+' "$TMP/m.kir" | tr '\n' ' ')" \
	"struct Spring func @spring_force kernel @step kernel @energy "
kparse -o "$TMP/k.kir" $D/module_kernels.py
same_file "... the IR of the kernels cut out by hand, but for the lines" <(nolines "$TMP/m.kir") <(nolines "$TMP/k.kir")
sed 's/$/\r/' $D/module.py >"$TMP/crlf.py"
kparse -o "$TMP/crlf.kir" "$TMP/crlf.py"
same_file "... and so with CRLF line ends" <(nolines "$TMP/crlf.kir") <(nolines "$TMP/m.kir")
kparse --keep-going -o "$TMP/kg.kir" $D/module.py 2>"$TMP/err"
is "--keep-going on a module that compiles: exit 0, nothing said" "$?:$(cat "$TMP/err")" "0:"
same_file "... the same IR" "$TMP/kg.kir" "$TMP/m.kir"

krun --dim 8 $D/module.py >"$TMP/cpu.json" && krun --device sim --dim 8 $D/module.py >"$TMP/sim.json"
is "krun runs the module's kernels on cpu and sim" "$?:$(grep -c . "$TMP/cpu.json"):$(grep -c . "$TMP/sim.json")" "0:2:2"
ok "... and they agree" python3 t/run/check.py agree "$TMP/cpu.json" "$TMP/sim.json"
ok "krun --gradcheck through kdiff on the module" krun --gradcheck --dim 8 $D/module.py

# a package (t/host/particles): sim.py imports a struct, constants, a
# generic func and a renamed one from physics.py, and the module as a name
# (physics.GRAVITY, physics.spring_force(...)); physics.py also holds a kernel
# of its own and host code
kparse -o "$TMP/p.kir" $D/particles/sim.py 2>"$TMP/err"
is "a module importing a sibling module: kparse exits 0, says nothing" "$?:$(cat "$TMP/err")" "0:"
is "... what its kernels use of the other, callees first; not that module's kernel" \
	"$(grep -oE '^(struct|func|kernel) @?[a-z_A-Z0-9]+' "$TMP/p.kir" | tr '\n' ' ')" \
	"struct Particle func @spring_force func @damp_vec3 func @damp_float kernel @integrate kernel @energy "
ok "... each imported function saying which file it is from" \
	grep -q '^func @spring_force(.*) -> vec3 !29:1 file "t/host/particles/physics.py" {$' "$TMP/p.kir"
(cd $D/particles && kparse sim.py) >"$TMP/p2.kir" 2>"$TMP/err"
ok "... named from the folder of a file given by its bare name without './'" \
	grep -q '^func @spring_force(.*) -> vec3 !29:1 file "physics.py" {$' "$TMP/p2.kir"
krun --dim 8 $D/particles/sim.py >"$TMP/cpu.json" && krun --device sim --dim 8 $D/particles/sim.py >"$TMP/sim.json"
is "krun runs the package's kernels on cpu and sim" "$?:$(grep -c . "$TMP/cpu.json")" "0:2"
ok "... and they agree" python3 t/run/check.py agree "$TMP/cpu.json" "$TMP/sim.json"
ok "krun --gradcheck through kdiff on the package" krun --gradcheck --dim 8 $D/particles/sim.py
krun --dim 8 --kernel energy $D/particles/sim.py >"$TMP/one.json" 2>"$TMP/err"
is "krun --kernel NAME of the package" "$?:$(cat "$TMP/err"):$(grep -o '"kernel": "[a-z_]*"' "$TMP/one.json")" \
	'0::"kernel": "energy"'
mkdir -p "$TMP/elsewhere"
printf 'import warp as wp\nfrom particles.physics import DRAG, damp\nfrom particles.physics import NOPE\n\n@wp.kernel\ndef k(x: wp.array(dtype=float)):\n    x[0] = damp(x[0], DRAG)\n\n@wp.kernel\ndef bad(x: wp.array(dtype=float)):\n    x[0] = NOPE\n' >"$TMP/elsewhere/abs.py"
kparse --keep-going --path $D -o "$TMP/abs.kir" "$TMP/elsewhere/abs.py" 2>"$TMP/err"
is "an absolute import found along --path" \
	"$?:$(grep -oE '^(func|kernel) @[a-z_0-9]+' "$TMP/abs.kir" | tr '\n' ' ')" "1:func @damp_float kernel @k "
ok "... a name the module lacks, an error where a kernel reads it" \
	grep -q "abs.py:11:12: error: kernel bad: 'NOPE' is not something a kernel can use: module particles.physics has no 'NOPE' at its top level that a kernel can use (line 3)" "$TMP/err"
kparse -o "$TMP/abs.kir" "$TMP/elsewhere/abs.py" 2>"$TMP/err"
ok "... without --path, the import is host code's" grep -q "error: 'damp' is not something a kernel can use" "$TMP/err"

# a generic kernel and its overloads (t/warp/agree/generic_kernels.py)
kparse -o "$TMP/g.kir" t/warp/agree/generic_kernels.py 2>"$TMP/err"
is "a generic kernel: one kernel for each of its overloads, named after their types" \
	"$?:$(grep -oE '^kernel @[a-z_0-9]+' "$TMP/g.kir" | tr '\n' ' ')" \
	"0:kernel @scale_float_arr_float_float_arr kernel @scale_vec3_arr_float_vec3_arr kernel @fill_float64_arr_float64 kernel @fill_int_arr_int "
krun --dim 4 --kernel fill t/warp/agree/generic_kernels.py >"$TMP/one.json" 2>"$TMP/err"
is "... krun --kernel NAME runs the first overload, under its name" \
	"$?:$(cat "$TMP/err"):$(grep -o '"kernel": "[a-z_]*"' "$TMP/one.json")" '0::"kernel": "fill"'
ok "... of its types (a float64 array)" python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
sys.exit(0 if all(isinstance(x, float) for x in r["outputs"]["a"]) and len(set(r["outputs"]["a"])) == 1 else 1)' "$TMP/one.json"

kparse -o "$TMP/u.kir" $D/uses_host.py 2>"$TMP/err"
is "a kernel that reads what host code binds: exit 1" "$?" 1
ok "... located, naming the name" grep -q "^$D/uses_host.py:20:19: error: 'TABLE' is not a constant Warp can capture" "$TMP/err"
ok "... no output file" test ! -e "$TMP/u.kir"
kparse --keep-going -o "$TMP/u.kir" $D/uses_host.py 2>"$TMP/err"
is "--keep-going: exit 1 when a kernel is left out" "$?" 1
same_file "... each left out reported as kernel NAME: REASON, a caller of a broken func too" "$TMP/err" $D/uses_host.err
is "... the others written" "$(grep -oE '^(func|kernel) @[a-z_]+' "$TMP/u.kir" | tr '\n' ' ')" "kernel @good kernel @also_good "
ok "... and what is written is IR that goes on through kdiff and the emitters" \
	bash -c "kdiff '$TMP/u.kir' | kemit-cpu >/dev/null"

krun --dim 8 --kernel also_good $D/uses_host.py >"$TMP/one.json" 2>"$TMP/err"
is "krun --kernel NAME runs a kernel of a file whose other kernels do not compile" \
	"$?:$(cat "$TMP/err"):$(grep -o '"kernel": "[a-z_]*"' "$TMP/one.json")" '0::"kernel": "also_good"'
krun --dim 8 --kernel calls_broken $D/uses_host.py >/dev/null 2>"$TMP/err"
is "... but not one that calls a func that does not" "$?:$(head -1 "$TMP/err")" \
	"1:$D/uses_host.py:25:12: error: 'float' object is not subscriptable"
krun --dim 8 --kernel plain $D/broken_struct.py >"$TMP/one.json" 2>"$TMP/err"
is "... and one of a file whose struct and func do not compile" \
	"$?:$(cat "$TMP/err"):$(grep -o '"kernel": "[a-z_]*"' "$TMP/one.json")" '0::"kernel": "plain"'
krun --dim 8 --kernel wide $D/broken_struct.py >/dev/null 2>"$TMP/err"
is "... but not one that uses that struct, told why where it does" "$?:$(head -1 "$TMP/err")" \
	"1:$D/broken_struct.py:24:28: error: 'Wide' is not something a kernel can use: its definition does not compile (line 8)"
krun --dim 8 --kernel nope $D/uses_host.py >/dev/null 2>"$TMP/err"
is "... and a name that is no kernel's is said so" "$?:$(cat "$TMP/err")" "1:krun: $D/uses_host.py: no kernel named nope"

kparse -o "$TMP/f.kir" $D/factory.py 2>"$TMP/err"
is "a kernel built inside a Python function: exit 1, no output" "$?:$(test -e "$TMP/f.kir" && echo out)" "1:"
ok "... said to be a kernel factory, located at its decorator" \
	grep -q "^$D/factory.py:7:5: error: kernel scale is defined inside a Python function" "$TMP/err"
kparse --keep-going -o "$TMP/f.kir" $D/factory.py 2>"$TMP/err"
same_file "--keep-going reports it so, and writes the module-level kernel" "$TMP/err" $D/factory.err
is "... which is there" "$(grep -oE '^kernel @[a-z_]+' "$TMP/f.kir")" "kernel @plain"

# what host code binds, read by a kernel: the message says what it is
cat >"$TMP/h.py" <<'PY'
import os
import warp as wp

CONFIG = {"k": 2.0}

@wp.kernel
def k(x: wp.array(dtype=float)):
    i = wp.tid()
    x[i] = CONFIG
PY
kparse "$TMP/h.py" 2>"$TMP/err" >/dev/null
ok "a dict at module level, read in a kernel: its line, why it was skipped" \
	grep -q "error: 'CONFIG' is not something a kernel can use: its statement is not the kernel language (dicts and sets are not supported in kernels), so it was skipped as host Python (line 4)" "$TMP/err"
printf 'import os.path as osp\nimport warp as wp\n\n@wp.kernel\ndef k(x: wp.array(dtype=float)):\n    x[0] = osp.sep\n' >"$TMP/i.py"
kparse "$TMP/i.py" 2>"$TMP/err" >/dev/null
ok "... an imported module too" grep -q "error: 'osp' is not something a kernel can use" "$TMP/err"

printf 'import os\nimport warp as wp\n\nPATHS = [os.sep]\n\ndef main():\n    print(PATHS)\n' >"$TMP/only.py"
kparse -o "$TMP/only.kir" "$TMP/only.py" 2>"$TMP/err"
is "a module of host code alone: exit 0, an IR module of no function" "$?:$(cat "$TMP/err"):$(grep -c '^kernel\|^func' "$TMP/only.kir")" "0::0"
ok "... which kdiff and both emitters take (in memory: t/fuzz/findings/host-only.py)" \
	bash -c "kdiff '$TMP/only.kir' | kemit-cpu >/dev/null && kemit-cu '$TMP/only.kir' >/dev/null && kfmt '$TMP/only.kir' >/dev/null"

# i, _, _ = wp.tid() (real code drops the indices it does not use)
printf 'import warp as wp\n\n@wp.kernel\ndef drop(x: wp.array3d(dtype=float)):\n    i, _, _ = wp.tid()\n    last = _\n    _, j, k = wp.tid()\n    x[i, j, k] = float(i * 100 + j * 10 + k + 1000 * last)\n' >"$TMP/d.py"
krun --dim 2x3x4 "$TMP/d.py" >"$TMP/d.json" 2>"$TMP/err"
is "i, _, _ = wp.tid(): a repeated _ drops its value" "$?:$(cat "$TMP/err")" "0:"
ok "... _ is the last one bound, as in Python" python3 - "$TMP/d.json" <<'PY'
import json, sys
x = json.loads(open(sys.argv[1]).readline())["outputs"]["x"]
assert all(x[i][j][k] == i * 100 + j * 10 + k + 1000 * k for i in range(2) for j in range(3) for k in range(4))
PY
krun --device sim --dim 2x3x4 "$TMP/d.py" >"$TMP/ds.json"
ok "... on sim too" python3 t/run/check.py agree "$TMP/d.json" "$TMP/ds.json"

# --keep-going past a def that fails inside a call's arguments and an
# overload that fails before its function is made: no crash, and the
# kernels after them come out
kparse --keep-going -o "$TMP/kg.kir" $D/keep_going_overloads.py 2>"$TMP/err"
is "--keep-going past failing overloads and calls: exit 1" "$?" 1
is "... the two overloads that compile and the two kernels that use them" \
	"$(grep -oE '^(func|kernel) @[a-z_0-9]+' "$TMP/kg.kir" | tr '\n' ' ')" \
	"func @scale_float_float func @scale_vec3_float kernel @first kernel @second "
is "... each failure located" "$(grep -c ': error: ' "$TMP/err")" 3

kparse --keep-going -o "$TMP/kg.kir" $D/keep_going_generics.py 2>"$TMP/err"
is "--keep-going past a generic's failing instance: exit 1" "$?" 1
is "... the instances that compile (one made for a kernel that then failed), before their callers" \
	"$(grep -oE '^(func|kernel) @[a-z_0-9]+' "$TMP/kg.kir" | tr '\n' ' ')" \
	"func @fine_float kernel @long_body func @fine_vec3 kernel @k3 "
is "... each failure located, for the kernel that asked for it" \
	"$(grep -oE 'error: kernel [a-z0-9]+: .*name .undefined_name.' "$TMP/err" | cut -d' ' -f3 | tr '\n' ' ')" "k: k2: "
is "... and named with the instances it is in and their calls" \
	"$(grep -c 'kernel k2: in outer(a: float) called at [^ ]*keep_going_generics.py:34: in inner(a: float) called at [^ ]*keep_going_generics.py:19: name' "$TMP/err")" 1

# host Python that is not Python, where the scanner of the pieces sees it
# (brackets, strings, continuations): a located error, no IR, exit 1,
# whatever stands after it
# (module_kernels.py with HOST-LINE after its import, which compiles with
# a line of Python there)
hostbad() { # hostbad DESC HOST-LINE WANT: WANT the first line kparse says on stderr
	sed "3a\\$2" $D/module_kernels.py >"$TMP/hb.py"
	kparse -o "$TMP/hb.kir" "$TMP/hb.py" 2>"$TMP/err"
	is "$1: exit 1, located, no IR" "$?:$(head -1 "$TMP/err" | sed "s|^$TMP/||"):$(ls "$TMP/hb.kir" 2>/dev/null)" "1:$3:"
}
sed "3a\\SIZES = (1, 2)" $D/module_kernels.py >"$TMP/hb.py"
ok "module_kernels.py with a line of host Python after its import compiles" kparse -o "$TMP/hb.kir" "$TMP/hb.py"
rm -f "$TMP/hb.kir"
hostbad "a bracket never closed" 'SIZES = (1, 2,' "hb.py:6:4: error: invalid syntax: '=' assigns; maybe you meant '=='?"
hostbad "a closing bracket of another kind" 'SIZES = [1, 2)' "hb.py:4:14: error: closing ')' does not match opening '['"
hostbad "a closing bracket that closes nothing" 'SIZES = 1, 2)' "hb.py:4:13: error: unmatched ')'"
hostbad "a triple-quoted string never closed" 'DOC = """the rest' "hb.py:4:7: error: unterminated triple-quoted string literal"
hostbad "a string not closed on its line" "NAME = 'step" "hb.py:4:8: error: unterminated string literal"
done_testing
