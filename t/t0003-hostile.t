#!/bin/bash
# No input crashes or hangs the front end: hostile inputs made here (binary
# garbage, NUL bytes, 100,000 nested parentheses, a 10 MB line, deep
# nesting, every truncation of a sample) end in exit 0 or in exit 1 with a
# located error, within 20 seconds each.
. "$(dirname "$0")/lib.sh"

# run_hostile DESC FILE [want]: want is "error" (must be rejected) or "any"
run_hostile() {
	timeout 20 kparse "$2" >"$TMP/out" 2>"$TMP/err"
	local st=$?
	case "${3:-error}:$st" in
	error:1 | any:1)
		if grep -Eq '^[^:]+:[0-9]+:[0-9]+: error: ' "$TMP/err"; then
			t_result 0 "$1"
		else
			t_result 1 "$1: located message"
			diag "$(head -c 300 "$TMP/err")"
		fi
		;;
	any:0) t_result 0 "$1" ;;
	*)
		t_result 1 "$1 (exit $st)"
		diag "$(head -c 600 "$TMP/err")"
		;;
	esac
}

hdr='import warp as wp

@wp.kernel
def k(a: wp.array(dtype=float)):
'
perl -e 'srand(1); print map { chr(int(rand(256))) } 1..200000' >"$TMP/garbage.py"
run_hostile "200 kB of binary garbage" "$TMP/garbage.py"

{ printf '%s' "$hdr"; printf '    a[0] = 1.0\0\0\0\n'; } >"$TMP/nul.py"
run_hostile "NUL bytes" "$TMP/nul.py"

{ printf '%s    a[0] = ' "$hdr"; perl -e 'print "(" x 100000, "1.0", ")" x 100000, "\n"'; } >"$TMP/parens.py"
run_hostile "100,000 nested parentheses" "$TMP/parens.py"

{ printf '%s    a[0] = ' "$hdr"; perl -e 'print "(" x 100000, "\n"'; } >"$TMP/open.py"
run_hostile "100,000 unclosed parentheses" "$TMP/open.py"

{ printf '%s    a[0] = 1.0' "$hdr"; perl -e 'print " + 1.0" x 1750000, "\n"'; } >"$TMP/long.py"
run_hostile "a 10 MB expression line" "$TMP/long.py"

{ printf '%s    a[0] = 1.0  # ' "$hdr"; perl -e 'print "x" x 10000000, "\n"'; } >"$TMP/comment.py"
run_hostile "a 10 MB comment line parses" "$TMP/comment.py" any
ok "the 10 MB comment line is valid code" kparse "$TMP/comment.py"

{ printf '%s    a[0] = ' "$hdr"; perl -e 'print "-" x 100000, "1.0\n"'; } >"$TMP/neg.py"
run_hostile "100,000 unary minus signs" "$TMP/neg.py"

{ printf '%s    x = ' "$hdr"; perl -e 'print "not " x 100000, "True\n"'; } >"$TMP/not.py"
run_hostile "100,000 nots" "$TMP/not.py"

{ printf '%s' "$hdr"; perl -e 'for $i (1..150) { print "    " x $i, "if a[0] > 0.0:\n" } print "    " x 151, "pass\n"'; } >"$TMP/deep.py"
run_hostile "150 nested ifs" "$TMP/deep.py"

{ printf '%s    a[0] = ' "$hdr"; perl -e 'print "a[" x 100000, "0", "]" x 100000, "\n"'; } >"$TMP/index.py"
run_hostile "100,000 nested subscripts" "$TMP/index.py"

{ printf '%s    a[0] = "' "$hdr"; perl -e 'print "s" x 1000000'; } >"$TMP/str.py"
run_hostile "unterminated 1 MB string" "$TMP/str.py"

{ printf '%s    a[0] = 1' "$hdr"; perl -e 'print "9" x 5000, ".0\n"'; } >"$TMP/bigfloat.py"
run_hostile "a 5000-digit float literal" "$TMP/bigfloat.py"

{ printf '%s    a[0] = float(' "$hdr"; perl -e 'print "9" x 5000, ")\n"'; } >"$TMP/bigint.py"
run_hostile "a 5000-digit int literal" "$TMP/bigint.py"

printf '' >"$TMP/empty.py"
run_hostile "an empty file" "$TMP/empty.py" any

# Every truncation of two samples: a valid prefix or a located error.
fails=0
for s in samples/loop/dynamic_loops.py samples/function/multi_return.py; do
	size=$(wc -c <"$s")
	for ((n = 0; n < size; n += 7)); do
		head -c $n "$s" >"$TMP/cut.py"
		timeout 20 kparse "$TMP/cut.py" >/dev/null 2>"$TMP/err"
		st=$?
		if [ $st != 0 ] && { [ $st != 1 ] || ! grep -Eq '^[^:]+:[0-9]+:[0-9]+: error: ' "$TMP/err"; }; then
			fails=$((fails + 1))
			diag "$s cut at $n: exit $st: $(head -c 200 "$TMP/err")"
		fi
	done
done
is "every truncation of two samples is handled" "$fails" 0
done_testing
