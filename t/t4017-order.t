#!/bin/bash
# Outputs that depend on the order the threads run in (doc/runtime.md,
# ir/order.c): krun's record lists them as order_dependent, and
# t/run/check.py agree compares them as multisets, so that the cpu device
# and a GPU, which run the threads in different orders, agree on them.
. "$(dirname "$0")/lib.sh"

deps() { # deps FILE: "kernel: names" for each record, "-" for none
	python3 -c '
import json, sys
for line in sys.stdin:
    r = json.loads(line)
    print(r["kernel"] + ": " + " ".join(r.get("order_dependent", ["-"])))'
}

krun t/run/order/kernels.py >"$TMP/k.json"
is "krun runs t/run/order/kernels.py" "$?" 0
deps <"$TMP/k.json" >"$TMP/got"
cat >"$TMP/want" <<'EOW'
ticket: out
ticket_through_func: out
winner_flag: won
last_writer: last
early_exit: out
read_back: buf y
sums_only: -
take_counts: -
claim_own: -
shared_counts: counts n_out
moved_index: counts n_out
read_elsewhere: state y
EOW
same_file "order_dependent: an atomic's result stored, through a func, deciding a branch or a return, \
atomic_exch's target, loaded back; none where the results go unused or an array is the thread's own, \
but at another index, a reassigned one or with a load elsewhere" "$TMP/got" "$TMP/want"

for f in samples/*/*.py; do
	krun "$f" 2>/dev/null | deps
done | grep -v ': -$' >"$TMP/got"
printf '%s\n' "first_in_bin: first" "compact_indices: count index" >"$TMP/want"
same_file "of the samples, only first_in_bin and compact_indices use an atomic's result" "$TMP/got" "$TMP/want"

# agree: the order-dependent output in another order agrees; other values,
# or the key on one side only, do not
krun --dim 64 samples/builtins/bitmask.py >"$TMP/a.json"
edit() { # edit HOW: a.json's first_in_bin record changed
	python3 - "$TMP/a.json" "$1" <<'EOP'
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["kernel"] == "first_in_bin":
        v = r["outputs"]["first"]
        if sys.argv[2] == "reverse":
            v.reverse()
        elif sys.argv[2] == "flip":
            v[0] = 1 - v[0]
        elif sys.argv[2] == "unkey":
            del r["order_dependent"]
    print(json.dumps(r))
EOP
}
agree_() { python3 t/run/check.py agree "$TMP/a.json" "$TMP/b.json" >"$TMP/out"; }
edit reverse >"$TMP/b.json"
ok "... the set of first threads in another order: a precondition, it differs" \
	python3 -c 'import json,sys; a,b=[[json.loads(l) for l in open(p)] for p in sys.argv[1:]]; sys.exit(a[1]["outputs"]["first"] == b[1]["outputs"]["first"])' "$TMP/a.json" "$TMP/b.json"
agree_
is "an order-dependent output in another order agrees" "$?" 0
edit flip >"$TMP/b.json"
agree_
is "... one with a value changed does not" "$?" 1
edit unkey >"$TMP/b.json"
agree_
is "... nor a record that does not call it order-dependent" "$?" 1
ok "... and says so" grep -q "order_dependent differ" "$TMP/out"
done_testing
