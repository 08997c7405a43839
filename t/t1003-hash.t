#!/bin/bash
# The structural hash ignores names, temp numbers and locations, and sees
# every change of operation, constant, type or data flow.
. "$(dirname "$0")/lib.sh"

src=t/ir/control.kir
hash() { kfmt --hash "$1" | tr '\n' ' '; }
base=$(hash $src)
ok "hash lines are NAME HEX16" bash -c "kfmt --hash $src | grep -Eqx '[a-z_]+ [0-9a-f]{16}'"

sed -e 's/%y\b/%value/g' -e 's/%p\b/%acc/g' -e 's/!\([0-9]*\):/!9\1:/g' $src >"$TMP/renamed.kir"
is "renaming variables and moving lines keeps the hash" "$(hash "$TMP/renamed.kir")" "$base"

kfmt $src | sed 's/%0\b/%zz/; s/%1\b/%0/; s/%zz/%1/' >"$TMP/renum.kir"
is "renumbering temps keeps the hash" "$(hash "$TMP/renum.kir")" "$base"

sed 's/mul %y, 0.5/mul %y, 0.25/' $src >"$TMP/const.kir"
[ "$(hash "$TMP/const.kir")" != "$base" ]
t_result $? "changing a constant changes the hash"

sed 's/mul %p, %x/add %p, %x/' $src >"$TMP/op.kir"
[ "$(hash "$TMP/op.kir")" != "$(hash $src)" ]
t_result $? "changing an operation changes the hash"
h1=$(kfmt --hash "$TMP/op.kir" | awk '/^run/{print $2}')
h0=$(kfmt --hash $src | awk '/^run/{print $2}')
[ "$h1" != "$h0" ]
t_result $? "a change in a callee changes its callers' hash"

sed 's/%i: int = tid/%i: int = tid/; s/%0: float = load %xs, %i/%0: float = load %xs, %n/' $src >"$TMP/flow.kir"
[ "$(hash "$TMP/flow.kir")" != "$base" ]
t_result $? "changing which value an operand reads changes the hash"
done_testing
