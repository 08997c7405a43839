#!/bin/bash
# Near duplicates (pack/near.h, doc/dataset.md): `kpack signatures` finds
# a module's kernels, @wp.kernel with arguments or not, nested or not,
# and gives one signature to kernels that differ only in their names,
# numbers, strings, comments and layout; `kpack near` drops exactly the
# kernels whose signature agrees with an earlier one's at the threshold
# or more (checked against every pair, computed here in Python), each as
# a duplicate of its cluster's first, and with --reference those like a
# reference kernel; bad input is a located error.  make dataset drops
# both (NEAR, DECONTAM=DIR), names them in stats.json and the card, its
# bytes the same for any -j and shard size, and make verify accepts it.
. "$(dirname "$0")/lib.sh"

KS_BUILD=${KS_BUILD:-$T_ROOT/build}
unset MAKEFLAGS MFLAGS MAKELEVEL
kpack=$KS_BIN/kpack

cat >"$TMP/a.py" <<'EOF'
import warp as wp


@wp.func
def helper(x: float):
    return x * 2.0


@wp.kernel
def scale(src: wp.array(dtype=float), dst: wp.array(dtype=float), k: float):
    i = wp.tid()
    dst[i] = wp.sin(src[i]) * k + 0.5


@wp.kernel(enable_backward=False)
def clamp_all(
    values: wp.array(dtype=float),
    lo: float,
):
    i = wp.tid()
    if values[i] < lo:
        values[i] = lo


def make():
    @wp.kernel
    def inner(a: wp.array(dtype=int)):
        a[wp.tid()] = 1

    return inner
EOF
# scale again: other names, numbers, a comment, other spacing
cat >"$TMP/b.py" <<'EOF'
@wp.kernel
def other(xs: wp.array(dtype=float),   ys: wp.array(dtype=float), factor: float):
    # a comment
    t = wp.tid()
    ys[t] = wp.sin(xs[t])*factor + 1.25
@wp.kernel
def other_cos(xs: wp.array(dtype=float), ys: wp.array(dtype=float), factor: float):
    t = wp.tid()
    ys[t] = wp.cos(xs[t]) * factor + 1.25
EOF

ok "kpack signatures" sh -c "'$kpack' signatures '$TMP/a.py' '$TMP/b.py' >'$TMP/ab.sig'"
is "the kernels, their lines and names" "$(cut -f1,2 "$TMP/ab.sig" | sed "s|$TMP/||" | tr '\t\n' ' ;')" \
	"a.py:9 scale;a.py:15 clamp_all;a.py:26 inner;b.py:1 other;b.py:6 other_cos;"
is "renamed, renumbered, respaced: one signature" "$(sed -n 1p "$TMP/ab.sig" | cut -f3)" \
	"$(sed -n 4p "$TMP/ab.sig" | cut -f3)"
ok "kpack near -v" sh -c "'$kpack' near -v '$TMP/ab.sig' >'$TMP/ab.near'"
is "other near-duplicates scale (kernel 0) wholly, other_cos (cos for sin) in part" \
	"$(grep '^near' "$TMP/ab.near" | cut -f3,4,5 | tr '\t\n' ' ;')" "other kernel 0 1.000;other_cos kernel 0 0.812;"
is "the summary" "$(tail -1 "$TMP/ab.near")" \
	"kernels 5 near_duplicates 2 (40.0%) clusters 3 threshold 0.7"
ok "--near none keeps all" sh -c "'$kpack' near --near none '$TMP/ab.sig' | grep -q 'near_duplicates 0 '"

# the index against every pair, on kgen's kernels
"$KS_BIN/kgen" -c all -s 3 -n 600 -o "$TMP/g.py"
"$kpack" signatures "$TMP/g.py" >"$TMP/g.sig"
for j in 0.4 0.7 0.9; do
	"$kpack" near -v --near $j "$TMP/g.sig" >"$TMP/g.$j"
	ok "kpack near --near $j: the drops every pair gives" python3 - "$TMP/g.sig" "$TMP/g.$j" $j <<'PY'
import sys
sigs = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
v = [[s[2][i:i + 4] for i in range(0, len(s[2]), 4)] for s in sigs]
thr = float(sys.argv[3])
root, want = [], {}
for i, a in enumerate(v):
    best = None
    for j in range(i):
        q = sum(x == y for x, y in zip(a, v[j])) / len(a)
        if q >= thr and (best is None or root[j] < best):
            best = root[j]
    root.append(i if best is None else best)
    if best is not None:
        want[sigs[i][0]] = best
got = {}
for l in open(sys.argv[2]):
    f = l.rstrip("\n").split("\t")
    if f[0] == "near":
        got[f[1]] = int(f[3].split()[1])
assert got == want, (len(got), len(want), sorted(set(got.items()) ^ set(want.items()))[:5])
last = open(sys.argv[2]).read().splitlines()[-1].split()
assert int(last[3]) == len(want) and int(last[1]) == len(v), last
assert 0 < len(want) < len(v)
PY
done

# decontamination: a.py as the reference
ok "kpack near --reference" sh -c "'$kpack' near -v --reference '$TMP/ab.sig' '$TMP/g.sig' '$TMP/ab.sig' >'$TMP/ref.near'"
is "the reference's own kernels are found in it, nothing of kgen's" \
	"$(grep -c '^contaminated' "$TMP/ref.near") $(grep '^contaminated' "$TMP/ref.near" | grep -c g.py)" "5 0"

# errors
printf 'a.py:1\tk\t%0512d\nbroken line\n' 0 >"$TMP/bad.sig"
"$kpack" near "$TMP/bad.sig" >"$TMP/bad.out" 2>&1
is "a bad signature line: located, exit 1" "$? $(head -1 "$TMP/bad.out")" \
	"1 $TMP/bad.sig:2:1: error: not a signature line (WHERE <TAB> NAME <TAB> 512 hex digits)"
printf 'a.py:1\tk\t%0511dg\n' 0 >"$TMP/bad2.sig"
"$kpack" near --reference "$TMP/bad2.sig" "$TMP/ab.sig" >"$TMP/bad.out" 2>&1
is "a bad hex digit in the reference: located, exit 1" "$? $(head -1 "$TMP/bad.out" | cut -d: -f2-4)" \
	"1 1:1: error"
"$kpack" near --near 1.5 "$TMP/ab.sig" >"$TMP/bad.out" 2>&1
is "--near 1.5: exit 1" "$? $(cat "$TMP/bad.out")" "1 kpack: --near 1.5: a similarity in (0, 1], or none"
"$kpack" signatures "$TMP/none.py" >"$TMP/bad.out" 2>&1
is "a missing module: exit 1" "$? $(cat "$TMP/bad.out")" "1 kpack: $TMP/none.py: no such file"

# make dataset: NEAR=0.3 drops some at a small N; DECONTAM=DIR holds
# kernel 2 under another name
mkdir -p "$TMP/bin" "$TMP/ref" && cp -p "$KS_BIN"/k* "$TMP/bin/"
if [ -d "$KS_BIN/../pch" ]; then ln -s "$KS_BIN/../pch" "$TMP/pch"; fi
"$KS_BIN/kgen" -c all -s 1 --first 2 -n 1 | sed 's/def \([a-z_]*\)/def copied_\1/' >"$TMP/ref/mine.py"
mk() { make --no-print-directory O="$KS_BUILD" SAN="${KS_SAN:-}" DATASET_BIN="$TMP/bin" \
	DATASET_WORK="$TMP/work$1" N=30 MARGIN=10 DEVICE=cpu CHECK=compile NEAR=0.3 DECONTAM="$TMP/ref" dataset "${@:2}"; }
ok "make dataset NEAR=0.3 DECONTAM=DIR" mk 1 SHARD=8 OUT="$TMP/d1"
ok "the same with -j3 and SHARD=5" mk 2 -j3 SHARD=5 OUT="$TMP/d2"
ok "the same bytes" diff -r "$TMP/d1" "$TMP/d2" -x timing.json
ok "stats.json and the card: the drops named, none among the records, as kpack near finds them" \
	python3 - "$TMP/d1" <<'PY'
import glob, json, re, sys
o = sys.argv[1]
st = json.load(open(o + "/stats.json"))
recs = [json.loads(l) for f in sorted(glob.glob(o + "/data/*.jsonl")) for l in open(f)]
ids = {r["id"].rsplit("-", 1)[0] for r in recs}
near, cont = st["near_duplicate_kernels"], st["contaminated_kernels"]
assert st["near_duplicates"] == len(near) > 0, st
assert st["contaminated"] == len(cont) == 1 and "s1-0000002" in cont, cont
assert cont["s1-0000002"]["similarity"] == 1.0 and cont["s1-0000002"]["kernel"].startswith("copied_"), cont
assert not (set(near) | set(cont)) & ids
for k, v in near.items():
    assert v["of"] < k and 0.3 <= v["similarity"] <= 1, (k, v)
assert st["parameters"]["near"] == 0.3 and st["parameters"]["reference"].endswith("/ref"), st["parameters"]
assert len(recs) == 30 == st["kernels"]
assert st["generated"] == 30 + st["duplicates"] + st["near_duplicates"] + st["contaminated"] + st["rejected"], st
card = open(o + "/README.md").read()
assert re.search(r"of at least 0\.3\n\(%d dropped;" % len(near), card), card
assert "(1 dropped; `stats.json`'s\n`contaminated_kernels`" in card, card
PY
ok "make verify accepts it" make --no-print-directory O="$KS_BUILD" SAN="${KS_SAN:-}" verify DATASET="$TMP/d1" \
	VERIFY_WORK="$TMP/vwork" SHARD=8
ok "NEAR=none: no near duplicates dropped" mk 1 SHARD=8 OUT="$TMP/d3" NEAR=none
is "stats.json says so" "$(python3 -c "import json,sys; s=json.load(open(sys.argv[1])); print(s['near_duplicates'], s['parameters']['near'])" "$TMP/d3/stats.json")" "0 none"

done_testing
