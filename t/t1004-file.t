#!/bin/bash
# Tools that read IR work function by function (ir/file.c): a module read
# from a file and from a pipe gives the same bytes, comments that hold
# strings, braces and '@'s change nothing, a callee must come before its
# callers, and an error half-way through a module leaves no output.
. "$(dirname "$0")/lib.sh"

kgen -c all -s 3 -n 40 -o "$TMP/g.py" && kparse "$TMP/g.py" -o "$TMP/g.kir" &&
	kdiff "$TMP/g.kir" -o "$TMP/g.d.kir"
t_result $? "a generated module and its adjoints"

# M as it is; W with comments that hold a string, braces and a call
for f in g g.d; do
	cp "$TMP/$f.kir" "$TMP/$f.m.kir"
	{ cat "$TMP/$f.kir"; printf '# "a string" { @zz }\n\n# }\n'; } >"$TMP/$f.w.kir"
done

for f in g g.d; do
	kfmt "$TMP/$f.m.kir" >"$TMP/$f.m.out" && kfmt "$TMP/$f.w.kir" >"$TMP/$f.w.out"
	t_result $? "kfmt $f: both run"
	same_file "kfmt $f: comments change nothing" "$TMP/$f.m.out" "$TMP/$f.w.out"
	kfmt --hash "$TMP/$f.m.kir" >"$TMP/$f.m.hash" && kfmt --hash "$TMP/$f.w.kir" >"$TMP/$f.w.hash"
	same_file "kfmt --hash $f: comments change nothing" "$TMP/$f.m.hash" "$TMP/$f.w.hash"
	kfmt - <"$TMP/$f.m.kir" >"$TMP/$f.stdin.out"
	same_file "kfmt $f: standard input reads alike" "$TMP/$f.stdin.out" "$TMP/$f.m.out"
	for t in cpu cu; do
		kemit-$t "$TMP/$f.m.kir" >"$TMP/$f.m.$t" && kemit-$t - <"$TMP/$f.w.kir" >"$TMP/$f.w.$t"
		t_result $? "kemit-$t $f: both run"
		same_file "kemit-$t $f: a pipe and comments change nothing" "$TMP/$f.m.$t" "$TMP/$f.w.$t"
	done
done
kdiff "$TMP/g.m.kir" >"$TMP/g.m.adj" && kdiff - <"$TMP/g.w.kir" >"$TMP/g.w.adj"
t_result $? "kdiff: both run"
same_file "kdiff: a pipe and comments change nothing" "$TMP/g.m.adj" "$TMP/g.w.adj"
kdiff "$TMP/g.d.kir" 2>"$TMP/twice.err"
is "kdiff: a module with backward kernels is refused" "$?" 1
grep -q 'already has backward kernels' "$TMP/twice.err"
t_result $? "kdiff: with its message"
is "the module is not trivially small" "$(grep -c '^kernel' "$TMP/g.m.out")" 40

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
kemit-cu "$TMP/bad.kir" >"$TMP/bad.cu" 2>"$TMP/bad.cu.err"
is "kemit-cu: an error at the end fails" "$?" 1
is "kemit-cu: it is located" "$(head -n 1 "$TMP/bad.cu.err")" "$TMP/bad.kir:$line:23: error: undefined value %y"
is "kemit-cu: nothing on stdout" "$(wc -c <"$TMP/bad.cu")" 0
kdiff "$TMP/bad.kir" >"$TMP/bad.adj" 2>"$TMP/bad.adj.err"
is "kdiff: an error at the end fails" "$?" 1
is "kdiff: it is located" "$(head -n 1 "$TMP/bad.adj.err")" "$TMP/bad.kir:$line:23: error: undefined value %y"
is "kdiff: nothing on stdout" "$(wc -c <"$TMP/bad.adj")" 0
kemit-cpu "$TMP/bad.kir" -o "$TMP/badcpu.c" 2>/dev/null
ok "kemit-cpu -o: no output file" bash -c "! ls '$TMP'/badcpu.c* 2>/dev/null"
# a callee below its caller is refused by every tool, located at the call
{ printf 'ksynth-ir 1\nfunc @f(%%a: float) -> float !1:1 {\n  %%r: float = call @g %%a !2:1\n  ret %%r !3:3\n}\n\n'
  printf 'func @g(%%a: float) -> float !5:1 {\n  ret %%a !6:3\n}\n'; } >"$TMP/below.kir"
for t in kfmt kdiff kemit-cpu kemit-cu; do
	$t "$TMP/below.kir" >"$TMP/below.out" 2>"$TMP/below.err"
	is "$t: a callee below its caller fails" "$?" 1
	is "$t: it is located at the call" "$(head -n 1 "$TMP/below.err")" \
		"$TMP/below.kir:3:3: error: 'f' calls 'g', which is defined below it"
done

# a function named like one kdiff appends, defined after the function it
# is named after: kdiff's own takes another name
{ printf 'ksynth-ir 1\nfunc @f(%%a: float) -> float !1:1 {\n  %%r: float = sin %%a !2:1\n  ret %%r !3:3\n}\n\n'
  printf 'func @f_adj(%%a: float) -> float !5:1 {\n  %%r: float = call @f %%a !6:1\n  ret %%r !7:3\n}\n'; } >"$TMP/names.kir"
kdiff "$TMP/names.kir" >"$TMP/names.adj"
t_result $? "kdiff: f and f_adj"
is "kdiff: f's adjoint is f_adj2" "$(grep -c '^func @f_adj2(' "$TMP/names.adj")" 1
is "kdiff: f_adj's adjoint is f_adj_adj" "$(grep -c '^func @f_adj_adj(' "$TMP/names.adj")" 1
kfmt "$TMP/names.adj" >/dev/null
t_result $? "kdiff: its output reads back"
done_testing
