# t/lib.sh: a small TAP library for the shell tests in t/.
#
#   . "$(dirname "$0")/lib.sh"
#   ok "description" command args...     passes when the command exits 0
#   is "description" "$got" "$want"      string equality, '# left/# right'
#   same_file "description" got want     byte equality, 'diff -u' as '#'
#   skip "description" "reason"          a SKIP; with one argument, that is
#                                        the reason (no description)
#   diag "text"
#   done_testing                         prints the plan; exit 1 on failure
#
# Tests run from the repository root with the tools of the build under
# test first on PATH ($KS_BIN, set by `make check`), and a private
# scratch folder in $TMP that is removed on exit.

set -u
T_ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$T_ROOT" || exit 1
KS_BIN=${KS_BIN:-$T_ROOT/build/bin}
PATH=$KS_BIN:$PATH
export PATH KS_BIN
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ks-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
t_n=0
t_failed=0

t_result() { # t_result STATUS DESC
	t_n=$((t_n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $t_n - $2"
	else
		echo "not ok $t_n - $2"
		t_failed=$((t_failed + 1))
	fi
}

diag() { printf '%s\n' "$@" | sed 's/^/# /'; }

ok() {
	local desc=$1
	shift
	"$@" >"$TMP/ok.out" 2>&1
	local st=$?
	t_result $st "$desc"
	[ $st = 0 ] || { diag "command: $* (exit $st)"; head -c 4000 "$TMP/ok.out" | diag "$(cat)"; }
	return $st
}

is() {
	if [ "$2" = "$3" ]; then
		t_result 0 "$1"
	else
		t_result 1 "$1"
		diag "left:  $2" "right: $3"
		return 1
	fi
}

same_file() {
	if cmp -s "$2" "$3"; then
		t_result 0 "$1"
	else
		t_result 1 "$1"
		diff -u "$3" "$2" 2>&1 | head -40 | sed 's/^/# /'
		return 1
	fi
}

skip() {
	t_n=$((t_n + 1))
	if [ $# -ge 2 ]; then
		echo "ok $t_n - $1 # SKIP $2"
	else
		echo "ok $t_n # SKIP ${1-}"
	fi
}

# sample_opts FILE.py: the krun options of the module's row in the
# options.tsv beside it (NAME<TAB>OPTIONS<TAB>WHY, as t/warp/wdiff.py
# --options reads it: a launch the module's kernels need), or nothing
sample_opts() {
	local tsv=${1%/*}/options.tsv name=${1##*/}
	[ -f "$tsv" ] && awk -F'\t' -v n="${name%.py}" '$1 == n { print $2 }' "$tsv"
	return 0
}

done_testing() {
	echo "1..$t_n"
	[ "$t_failed" = 0 ]
	exit $?
}
