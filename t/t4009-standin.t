#!/bin/bash
# The comparisons make check-cuda makes on the GPU (t/t4103, t/t4104,
# t/run/devagree.sh), made here with sim standing in for cuda: sim runs the
# same CUDA code on the host, so every check must pass, and the test shows
# that the checks run and what they catch.  On a subset: every t/grad
# case and one kgen kernel a category through --gradcheck on both
# devices, two samples at --dim 100000 on a 40x128 grid; then records
# altered by less and by more than the bounds.
. "$(dirname "$0")/lib.sh"
. t/run/devagree.sh
DEV=sim

for f in t/grad/*.py t/grad/*.kir; do
	grad_pair "--gradcheck on cpu and sim agree on $f" "$TOL_FWD" "$f"
done
gen=$(gen_set "$TMP/gen" 1) || t_result 1 "kgen makes the generated set"
for f in $gen; do
	grad_pair "--gradcheck on cpu and sim agree on kgen's ${f#"$TMP/gen/"}" "$TOL_GEN" "$f"
done
for py in samples/atomic/reductions.py samples/loop/dynamic_loops.py; do
	fwd_pair "cpu and sim agree on $py with $BIG_RUN" "$TOL_BIG" $BIG_RUN $(big_sets "$py") "$py"
done
python3 - "$TMP/cpu.json" <<'EOP' >"$TMP/lines"
import json, sys
r = json.loads(open(sys.argv[1]).readline())
print(r["dim"], len(r["inputs"]["x"]))
EOP
is "... the big run has dim 100000 and arrays of that length" "$(cat "$TMP/lines")" "100000 100000"

# what the bounds catch: a --grad record, and copies with one value moved
krun --grad samples/atomic/springs_scatter.py >"$TMP/a.json"
alter() { # alter FIELD REL|ABS AMOUNT: the record with its first float in FIELD moved
	python3 - "$TMP/a.json" "$@" <<'EOP'
import json, sys
path, field, how, amount = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
for line in open(path):
    r = json.loads(line)
    done = False
    for name, v in r[field].items():
        flat = v if not isinstance(v[0], list) else [c for e in v for c in e]
        if isinstance(flat[0], float):
            x = v[0] if not isinstance(v[0], list) else v[0][0]
            y = x * (1 + amount) if how == "rel" else x + amount
            if isinstance(v[0], list):
                v[0][0] = y
            else:
                v[0] = y
            done = True
            break
    print(json.dumps(r))
EOP
}
agree_() { python3 t/run/check.py agree "$TMP/a.json" "$TMP/b.json" $TOL_FWD $TOL_GRAD >/dev/null; }
alter grads rel 1e-6 >"$TMP/b.json"
agree_
is "a gradient 1e-6 off: within the bound" "$?" 0
alter grads rel 1e-3 >"$TMP/b.json"
agree_
is "a gradient 1e-3 off: caught" "$?" 1
alter outputs rel 1e-6 >"$TMP/b.json"
agree_
is "an output 1e-6 off: within the bound" "$?" 0
alter outputs rel 1e-4 >"$TMP/b.json"
agree_
is "an output 1e-4 off: caught" "$?" 1
krun samples/atomic/springs_scatter.py >"$TMP/b.json"
agree_
is "a record without gradients against one with: caught" "$?" 1
krun --grad --seed 2 samples/atomic/springs_scatter.py >"$TMP/b.json"
agree_
is "other inputs: caught" "$?" 1
krun --dim 20 samples/arithmetic/int_buckets.py >"$TMP/a.json"
python3 -c '
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    for name, v in r["outputs"].items():
        if isinstance(v[0], int):
            v[3] += 1
            break
    print(json.dumps(r))' "$TMP/a.json" >"$TMP/b.json"
agree_
is "an int output off by one: caught" "$?" 1
done_testing
