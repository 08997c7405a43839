#!/bin/bash
# Tools that read IR work function by function when every call goes to a
# function defined above it (ir/stream.c), and read the module whole
# otherwise.  Both ways give the same bytes, and an error half-way
# through a module leaves no output, as the whole-module path does.
. "$(dirname "$0")/lib.sh"

kgen -c all -s 3 -n 40 -o "$TMP/g.py" && kparse "$TMP/g.py" -o "$TMP/g.kir" &&
	kdiff "$TMP/g.kir" -o "$TMP/g.d.kir"
t_result $? "a generated module and its adjoints"

# M streams; W, the same module under a function that calls the last one
# (a call forward), is read whole.
last='func @zz_last(%x: float) -> float !900:1 {
  %0: float = mul %x, 2.0 !901:5
  ret %0 !901:5
}'
first='func @aa_first(%x: float) -> float !899:1 {
  %0: float = call @zz_last %x !899:5
  ret %0 !899:5
}'
for f in g g.d; do
	{ cat "$TMP/$f.kir"; printf '\n%s\n' "$last"; } >"$TMP/$f.m.kir"
	{ head -n 3 "$TMP/$f.kir"; printf '%s\n\n' "$first"; tail -n +4 "$TMP/$f.kir";
	  printf '\n%s\n' "$last"; } >"$TMP/$f.w.kir"
done
# the whole-module output without aa_first
drop_first() { awk '/^func @aa_first/{skip=1} !skip{print} skip&&/^}$/{skip=0; getline}' "$@"; }

for f in g g.d; do
	kfmt "$TMP/$f.m.kir" >"$TMP/$f.m.out" && kfmt "$TMP/$f.w.kir" | drop_first >"$TMP/$f.w.out"
	t_result $? "kfmt $f: both ways run"
	same_file "kfmt $f: streamed and whole agree" "$TMP/$f.m.out" "$TMP/$f.w.out"
	kfmt --hash "$TMP/$f.m.kir" >"$TMP/$f.m.hash" &&
		kfmt --hash "$TMP/$f.w.kir" | grep -v '^aa_first ' >"$TMP/$f.w.hash"
	same_file "kfmt --hash $f: streamed and whole agree" "$TMP/$f.m.hash" "$TMP/$f.w.hash"
	kfmt - <"$TMP/$f.m.kir" >"$TMP/$f.stdin.out"
	same_file "kfmt $f: standard input streams alike" "$TMP/$f.stdin.out" "$TMP/$f.m.out"
done
is "the streamed module is not trivially small" "$(grep -c '^kernel' "$TMP/g.m.out")" 40

# an error in the last function: located, no output at all
{ cat "$TMP/g.kir"; printf '\nfunc @zz_bad(%%x: float) -> float !1:1 {\n  %%0: float = add %%x, %%y !2:1\n  ret %%0 !3:1\n}\n'; } >"$TMP/bad.kir"
line=$(grep -n 'add %x, %y' "$TMP/bad.kir" | cut -d: -f1)
kfmt "$TMP/bad.kir" >"$TMP/bad.out" 2>"$TMP/bad.err"
is "kfmt: an error at the end fails" "$?" 1
is "kfmt: it is located" "$(head -n 1 "$TMP/bad.err")" "$TMP/bad.kir:$line:23: error: undefined value %y"
is "kfmt: nothing on stdout" "$(wc -c <"$TMP/bad.out")" 0
kfmt "$TMP/bad.kir" -o "$TMP/bad.o.kir" 2>/dev/null
ok "kfmt -o: no output file" test ! -e "$TMP/bad.o.kir"
ok "kfmt -o: no temporary file" bash -c "! ls '$TMP'/bad.o.kir* 2>/dev/null"
done_testing
