#!/bin/bash
# krun --coverage and --vary (doc/runtime.md): per if and loop of a kernel
# and the functions it calls, the threads and times each way was taken,
# worked out by hand for t/run/cover/branches.py; the same on sim, with
# the code kemit-cpu --coverage writes, and in --batch; the emitted code
# without --coverage has no counters; --vary rejects a kernel whose
# outputs do not depend on its inputs or that writes nothing, or that
# fills an array with one value (a parameter's, a constant's), and with
# --coverage an if that never takes a way or a loop that never runs.
. "$(dirname "$0")/lib.sh"

PY=t/run/cover/branches.py
export TMPDIR=$TMP/tmp
mkdir -p "$TMPDIR"
cov() { # cov JSONFILE KERNEL: the coverage as "func:line:kind:threads:times" lines
	python3 -c '
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r["kernel"] == sys.argv[2]:
        print(" ".join("%s:%d:%s:%s:%s" % (c["func"], c["line"], c["kind"], ",".join(map(str, c["threads"])), ",".join(map(str, c["times"]))) for c in r["coverage"]))' "$1" "$2"
}
# what the inputs say: per thread of sweep, a[i] > 0.5, else a[i] < -0.5
expect() { # expect JSONFILE: the coverage of sweep worked out from its inputs
	python3 -c '
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r["kernel"] != "sweep":
        continue
    a, n = r["inputs"]["a"], r["inputs"]["n"]
    hi = sum(x > 0.5 for x in a); lo = sum(x < -0.5 for x in a); t = len(a)
    print("limit:6:if:%d,%d:%d,%d limit:8:if:%d,%d:%d,%d sweep:17:loop:%d:%d sweep:20:loop:0:0" % (
        hi, t - hi, hi, t - hi, lo, t - hi - lo, lo, t - hi - lo,
        t if n % 3 else 0, t * (n % 3)))' "$1"
}

krun --coverage $PY >"$TMP/c.json" 2>"$TMP/c.err"
is "exit 0 without --vary, whatever the coverage" "$?" 0
is "sweep: the ifs of limit, the for and the while, worked out from the inputs" \
	"$(cov "$TMP/c.json" sweep)" "$(expect "$TMP/c.json")"
krun --coverage --dim 37 --seed 5 $PY >"$TMP/c37.json"
is "... at --dim 37 --seed 5" "$(cov "$TMP/c37.json" sweep)" "$(expect "$TMP/c37.json")"
is "grid: its if (16 of 256 threads on the diagonal) and limit's, called from the else way" \
	"$(cov "$TMP/c.json" grid | cut -d' ' -f3)" "grid:28:if:16,240:16,240"
is "a kernel with no if or loop has an empty list" "$(cov "$TMP/c.json" constant)" ""
krun --coverage --device sim --grid 2x5 $PY >"$TMP/s.json"
is "sim (a grid-stride loop) counts the same" "$(cov "$TMP/s.json" sweep)" "$(cov "$TMP/c.json" sweep)"
krun $PY >"$TMP/plain.json"
is "the records are the same but for the coverage" \
	"$(sed 's/, "coverage": \[.*\]}$/}/' "$TMP/c.json")" "$(cat "$TMP/plain.json")"

kparse $PY -o "$TMP/b.kir"
kemit-cpu --coverage "$TMP/b.kir" -o "$TMP/b.v.c"
kemit-cpu "$TMP/b.kir" -o "$TMP/b.f.c"
ok "kemit-cpu --coverage writes KS_COVER per way" grep -q 'KS_COVER(0, 1);' "$TMP/b.v.c"
ok "... and kemit-cpu alone none" sh -c "! grep -q KS_COVER '$TMP/b.f.c'"
krun --coverage "$TMP/b.kir" "$TMP/b.v.c" >"$TMP/g.json"
is "krun --coverage on kemit-cpu --coverage's code counts the same" \
	"$(cov "$TMP/g.json" sweep)" "$(cov "$TMP/c.json" sweep)"
krun --coverage "$TMP/b.kir" "$TMP/b.f.c" >/dev/null 2>"$TMP/e"
is "code without counters: exit 1" "$?" 1
like() { case $2 in *"$3"*) ok "$1" true ;; *) ok "$1 (got: $2)" false ;; esac; }
like "... saying so" "$(cat "$TMP/e")" "the code has no coverage counters"
echo "$TMP/b.kir $TMP/b.v.c $TMP/batch.json" >"$TMP/l.list"
krun --coverage --batch "$TMP/l.list" >/dev/null 2>&1
is "--batch: the same coverage" "$(cov "$TMP/batch.json" sweep)" "$(cov "$TMP/c.json" sweep)"

# ---- --vary ------------------------------------------------------------------

krun --vary 2 --kernel sweep $PY >/dev/null 2>"$TMP/e"
is "--vary: sweep's outputs change with the seed (exit 0)" "$?" 0
krun --vary 2 --kernel constant $PY >/dev/null 2>"$TMP/e"
is "constant: exit 1" "$?" 1
is "... outputs that do not depend on the inputs" "$(cat "$TMP/e")" \
	"krun: constant: its outputs are the same under seeds 1 and 2: they do not depend on the inputs"
krun --vary 2 --kernel untouched $PY >/dev/null 2>"$TMP/e"
is "untouched: changes no array" "$(cat "$TMP/e")" "krun: untouched: changes no array under seeds 1 and 2"
krun --coverage --vary 2 --kernel sweep $PY >"$TMP/v.json" 2>"$TMP/e"
is "--coverage --vary: the while of sweep never runs: exit 1" "$?" 1
is "... saying where" "$(cat "$TMP/e")" "krun: sweep: sweep, line 20: the loop body never runs under seeds 1 and 2"
krun --coverage --seed 2 --kernel sweep $PY >"$TMP/c2.json"
python3 -c '
import json, sys
v, a, b = (json.loads(open(f).readline())["coverage"] for f in sys.argv[1:4])
print(all(x["threads"] == [p + q for p, q in zip(y["threads"], z["threads"])] for x, y, z in zip(v, a, b)))' \
	"$TMP/v.json" "$TMP/c.json" "$TMP/c2.json" >"$TMP/sum"
is "... the record's coverage is summed over both seeds" "$(cat "$TMP/sum")" True
krun --coverage --vary 2 --kernel grid $PY >/dev/null
is "grid: every if both ways under the two seeds (exit 0)" "$?" 0
krun --vary 1 $PY >/dev/null 2>&1
is "--vary equal to --seed: usage error" "$?" 2
krun --coverage --gradcheck $PY >/dev/null 2>&1
is "--coverage --gradcheck: usage error" "$?" 2

# a kernel of no if and no loop: no sites, an empty coverage, no error
cat >"$TMP/flat.py" <<'EOF2'
import warp as wp


@wp.kernel
def scale(a: wp.array(dtype=float), b: wp.array(dtype=float)):
    i = wp.tid()
    b[i] = 2.0 * a[i]
EOF2
krun --coverage --vary 2 "$TMP/flat.py" >"$TMP/flat.json" 2>"$TMP/flat.err"
is "a kernel with no if or loop: exit 0 under --coverage --vary" "$?" 0
is "... its coverage is empty" "$(cov "$TMP/flat.json" scale)" ""
is "... and nothing on stderr" "$(cat "$TMP/flat.err")" ""

# outputs that differ between the seeds only in the sign of a zero are the
# same numbers: they do not depend on the inputs
cat >"$TMP/zero.py" <<'EOF2'
import warp as wp


@wp.kernel
def signed_zero(a: wp.array(dtype=float), b: wp.array(dtype=float)):
    i = wp.tid()
    b[i] = 0.0 * a[i]
EOF2
krun --vary 2 "$TMP/zero.py" >/dev/null 2>"$TMP/e"
is "outputs +0 under one seed and -0 under the other: the same" "$(cat "$TMP/e")" \
	"krun: signed_zero: its outputs are the same under seeds 1 and 2: they do not depend on the inputs"

# an output filled with one value, beside one that depends on the inputs:
# a constant, or a parameter's value (one value in each run); an array of
# one element, or written in some elements only, is not filled
cat >"$TMP/fill.py" <<'EOF2'
import warp as wp


@wp.kernel
def filled(a: wp.array(dtype=float), b: wp.array(dtype=float), c: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    b[i] = a[i] * 2.0
    c[i] = wp.vec2(0.5, 1.0)


@wp.kernel
def broadcast(a: wp.array(dtype=float), b: wp.array(dtype=float), v: float, c: wp.array(dtype=float)):
    i = wp.tid()
    b[i] = a[i] * 2.0
    c[i] = v


@wp.kernel
def part(a: wp.array(dtype=float), b: wp.array(dtype=float), total: wp.array(dtype=float)):
    i = wp.tid()
    if a[i] > 0.0:
        b[i] = 1.0
    wp.atomic_add(total, 0, a[i])
EOF2
krun --vary 2 --kernel filled "$TMP/fill.py" >/dev/null 2>"$TMP/e"
is "an array filled with a constant: exit 1, naming it" "$?:$(cat "$TMP/e")" \
	"1:krun: filled: it writes one value to every element of c under seeds 1 and 2"
krun --vary 2 --kernel broadcast "$TMP/fill.py" >/dev/null 2>"$TMP/e"
is "... with a parameter's value" "$?:$(cat "$TMP/e")" \
	"1:krun: broadcast: it writes one value to every element of c under seeds 1 and 2"
krun --vary 2 --kernel part --shape total=1 "$TMP/fill.py" >/dev/null 2>"$TMP/e"
is "some elements written with one value, and an array of one element: exit 0" "$?:$(cat "$TMP/e")" "0:"

# a struct parameter: the second seed's arguments are laid out as the
# first's, its fields one by one (a crash before)
cat >"$TMP/st.py" <<'EOF2'
import warp as wp


@wp.struct
class Step:
    dt: float
    drift: wp.vec3


@wp.kernel
def advance(x: wp.array(dtype=wp.vec3), y: wp.array(dtype=wp.vec3), s: Step):
    i = wp.tid()
    y[i] = x[i] + s.dt * s.drift
EOF2
krun --coverage --vary 2 "$TMP/st.py" >"$TMP/st.json" 2>"$TMP/st.err"
is "a struct parameter: exit 0 under --coverage --vary" "$?" 0
is "... and nothing on stderr" "$(cat "$TMP/st.err")" ""

done_testing
