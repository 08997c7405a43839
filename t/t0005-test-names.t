#!/bin/bash
# The test files' names: every file of t/ that prove runs is tNNNN-WHAT.t,
# and no two share a number (a failure report names a test by it).
. "$(dirname "$0")/lib.sh"

cd "$T_ROOT/t" || exit 1
is "every test file is named tNNNN-WHAT.t" "$(ls *.t | grep -v '^t[0-9][0-9][0-9][0-9]-[a-z0-9-]*\.t$' | tr '\n' ' ')" ""
dup=$(ls *.t | cut -c1-5 | sort | uniq -d | tr '\n' ' ')
is "no two test files share a number" "$dup" ""
[ -z "$dup" ] || diag "$(for n in $dup; do ls $n-*.t; done | tr '\n' ' ')"
done_testing
