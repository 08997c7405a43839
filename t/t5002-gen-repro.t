#!/bin/bash
# Kernel i's text depends only on (seed, category, i): made alone with
# --first i -n 1, inside -n 10, or inside a larger run, it is the same
# bytes; the same command gives the same file; and a kgen built by
# another C compiler (tcc, a build dependency, and clang where present)
# writes the same bytes, so no random draw hangs on the order in which a
# compiler evaluates a call's arguments.
. "$(dirname "$0")/lib.sh"

for c in loop function all; do
	kgen -c $c -s 7 -n 10 -o "$TMP/ten.py"
	kgen -c $c -s 7 -n 10 -o "$TMP/ten2.py"
	same_file "kgen -c $c is deterministic" "$TMP/ten2.py" "$TMP/ten.py"
	for i in 0 1 2 3 4 5 6 7 8 9; do
		kgen -c $c -s 7 --first $i -n 1 -o "$TMP/one$i.py"
	done
	ok "-c $c: kernels made one by one with --first equal -n 10" python3 -c '
import sys
body = lambda p: open(p).read().split("\n", 3)[3].rstrip("\n")
parts = [body(p) for p in sys.argv[2:]]
sys.exit(0 if "\n\n\n".join(parts) == body(sys.argv[1]) else 1)' "$TMP/ten.py" "$TMP"/one[0-9].py
	kgen -c $c -s 7 --first 3 -n 4 | tail -n +4 >"$TMP/mid.py"
	kgen -c $c -s 7 -n 40 | tail -n +4 >"$TMP/big.py"
	ok "-c $c: kernels 3..6 (--first 3 -n 4) appear verbatim in -n 40" \
		python3 -c 'import sys; a = open(sys.argv[1]).read().rstrip("\n"); b = open(sys.argv[2]).read(); sys.exit(0 if a in b else 1)' "$TMP/mid.py" "$TMP/big.py"
done
# --split: one module per kernel, the bytes of -n 1 --first I, listed
mkdir -p "$TMP/split"
kgen -c all -s 7 -n 12 --first 30 --split "$TMP/split" -o "$TMP/split.list"
is "--split lists one line per kernel" "$(wc -l <"$TMP/split.list" | tr -d ' ')" 12
is "--split writes one file per kernel" "$(ls "$TMP/split" | wc -l | tr -d ' ')" 12
bad=""
while read -r i name; do
	kgen -c all -s 7 -n 1 --first "$i" -o "$TMP/one.py"
	cmp -s "$TMP/one.py" "$TMP/split/$name.py" || bad="$bad $i"
	grep -q "^def $name(" "$TMP/one.py" || bad="$bad $i:name"
done <"$TMP/split.list"
is "each --split file is the bytes of -n 1 --first I (kernels that differ:$bad)" "$bad" ""
is "--split lists the indices in order" "$(cut -d' ' -f1 "$TMP/split.list" | tr '\n' ' ')" \
	"30 31 32 33 34 35 36 37 38 39 40 41 "
ok "--split into a missing folder fails" sh -c "! kgen -c all --split '$TMP/nope/x' 2>'$TMP/err'"
ok "... saying which file" grep -q "nope/x/.*\.py: No such file" "$TMP/err"
kgen -c loop -s 8 -n 3 -o "$TMP/s8.py"
kgen -c loop -s 9 -n 3 -o "$TMP/s9.py"
ok "another seed gives other kernels" sh -c "! cmp -s '$TMP/s8.py' '$TMP/s9.py'"

# kgen from the same sources with other compilers: tcc evaluates
# arguments left to right, gcc (on x86-64) right to left
srcs="gen/*.c ir/type.c lib/*.c runtime/run_host.c"
for cc in tcc clang; do
	if ! command -v $cc >/dev/null 2>&1; then
		skip "kgen built by $cc writes the same bytes" "$cc is not installed"
		continue
	fi
	# shellcheck disable=SC2086
	if ! $cc -std=c11 -D_POSIX_C_SOURCE=200809L -I. -o "$TMP/kgen-$cc" $srcs -lm >"$TMP/cc.log" 2>&1; then
		ok "kgen builds with $cc" sh -c "cat '$TMP/cc.log'; false"
		continue
	fi
	fail=""
	for c in all matrix vector control_flow atomic inplace combined function \
		particles springs stencil reduce rigid fem neighbors raycast sampling; do
		kgen -c $c -s 5 -n 300 -o "$TMP/ref.py"
		"$TMP/kgen-$cc" -c $c -s 5 -n 300 -o "$TMP/alt.py"
		cmp -s "$TMP/ref.py" "$TMP/alt.py" || fail="$fail $c"
	done
	kgen -c all -s 6 -n 300 --stmts 20 --depth 6 --nest 4 -o "$TMP/ref.py"
	"$TMP/kgen-$cc" -c all -s 6 -n 300 --stmts 20 --depth 6 --nest 4 -o "$TMP/alt.py"
	cmp -s "$TMP/ref.py" "$TMP/alt.py" || fail="$fail knobs"
	is "kgen built by $cc writes the same bytes (categories that differ:$fail)" "$fail" ""
done
# the largest knobs: every kernel made (no table of names overflows), and
# each one parses
kgen -c all -s 1 -n 3000 --stmts 40 --depth 6 --nest 4 --params 8 -o "$TMP/max.py" 2>"$TMP/max.err"
is "the largest knobs: 3000 kernels made (exit 0)" "$?" 0
kparse "$TMP/max.py" -o "$TMP/max.kir"
is "... and kparse takes them" "$?" 0

done_testing
