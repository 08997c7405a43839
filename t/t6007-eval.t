#!/bin/bash
# make eval (doc/eval.md): on a small dataset made here, the records' own
# code as predictions scores 1 on both fields; in one predictions file,
# against one cpu record, a forward with the sign of a stored value
# flipped fails that record only, one that writes the record's own seed-1
# outputs as constants fails, one that writes nothing fails (left
# unwritten: krun --sentinel), one that calls system() fails confined
# and does nothing, a backward with the right forward and zero gradients
# fails; pass@k as Chen et al.'s estimator; a sample that never ends fails
# at the time limit; EVAL_SEED fixes the inputs, which otherwise change;
# bad predictions are located errors and write no eval.json; make
# eval-prompts writes a prompt per record and field.
. "$(dirname "$0")/lib.sh"

KS_BUILD=${KS_BUILD:-$T_ROOT/build}
KS_SAN=${KS_SAN:-}
unset MAKEFLAGS MFLAGS MAKELEVEL
mkdir -p "$TMP/bin" && cp -p "$KS_BIN"/k* "$TMP/bin/"
if [ -d "$KS_BIN/../pch" ]; then ln -s "$KS_BIN/../pch" "$TMP/pch"; fi
mk() { make --no-print-directory O="$KS_BUILD" SAN="$KS_SAN" DATASET_BIN="$TMP/bin" EVAL_BIN="$TMP/bin" "$@"; }

# krun --sentinel: the arrays the kernel only stores to start at -1536
cat >"$TMP/w.py" <<'PY'
import warp as wp

@wp.kernel
def part(x: wp.array(dtype=float), out: wp.array(dtype=float), acc: wp.array(dtype=float)):
    i = wp.tid()
    if i < 3:
        out[i] = x[i] * 2.0
    acc[i] = acc[i] + x[i]
PY
krun --dim 4 --sentinel "$TMP/w.py" >"$TMP/w.json" 2>&1
ok "krun --sentinel fills a store-only array, leaves a read one, and shows what no thread wrote" python3 - "$TMP/w.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["inputs"]["out"] == [-1536.0] * 4, r["inputs"]
assert r["outputs"]["out"][3] == -1536.0 and r["outputs"]["out"][0] == 2 * r["inputs"]["x"][0], r["outputs"]
assert -1 <= min(r["inputs"]["acc"]) and max(r["inputs"]["acc"]) < 1, r["inputs"]
PY

D=$TMP/ds
ok "make dataset N=4 DEVICE=all" mk dataset N=4 SHARD=8 MARGIN=4 DEVICE=all CHECK=full OUT="$D" DATASET_WORK="$TMP/work"

keval --references "$D" >"$TMP/refs.jsonl"
is "keval --references: the records' code, a line per record and field" "$(grep -c . "$TMP/refs.jsonl")" 16
mk eval DATASET="$D" PRED="$TMP/refs.jsonl" EVAL_JSON="$TMP/refs.json" EVAL_SEED=11 >"$TMP/refs.out" 2>&1
is "make eval of the dataset's own code" "$?" 0 || diag "$(tail -20 "$TMP/refs.out")"
ok "... scores 1: compiled, correct, pass@1 on both fields; per_id all true" python3 - "$TMP/refs.json" <<'PY'
import json, sys
e = json.load(open(sys.argv[1]))
for f in ("forward", "backward"):
    s = e[f]
    assert s["samples"] == 8 and s["compiled"] == 1 and s["correct"] == 1 and s["pass@1"] == 1, (f, s, e["failures"])
assert len(e["per_id"]) == 8 and all(v == {"forward": [True], "backward": [True]} for v in e["per_id"].values())
assert e["input_seeds"][0] not in (1, 2) and e["input_seeds"][1] not in (1, 2), e["input_seeds"]
assert e["cuda"]["run_on"] in ("sim", "cuda") and ("no_gpu" in e["cuda"]) == (e["cuda"]["run_on"] == "sim")
assert e["timing"]["measured"] == (e["cuda"]["run_on"] == "cuda"), e["timing"]
assert e["categories"] and e["failures"] == []
PY
ok "... the summary names the fields and the time a sample" grep -q '^  forward  8 samples of 8 problems: compiled 1.000, correct 1.000, pass@1 1.000$' "$TMP/refs.out"

# the wrong samples, against one cpu record with a 1-D launch and arrays as pointers
mkdir -p "$TMP/m"
python3 - "$D" "$TMP/m" "$TMP/refs.jsonl" <<'PY' >"$TMP/pick.out" 2>&1
import glob, json, re, subprocess, sys
d, m, refs = sys.argv[1:4]
recs = [json.loads(l) for f in sorted(glob.glob(d + "/data/*.jsonl")) for l in open(f)]
def entry(code, name, kind):
    l = [x for x in code.split("\n") if (name + "_cpu_" + kind + "(") in x and x.startswith("void")][0]
    return l.rstrip().rstrip("{").rstrip()
def run(kir, code, *opts):
    p = subprocess.run(["krun", *opts, kir, code], capture_output=True, text=True)
    return p.returncode, p.stdout
for r in recs:
    if r["device"] != "cpu" or "ks_array_" in r["forward"] or re.search(r"%\w+: int, %\w+: int = tid", r["ir"]):
        continue
    kir, fc = m + "/r.kir", m + "/f.c"
    open(kir, "w").write(r["ir"]); open(fc, "w").write(r["forward"])
    rc, ref = run(kir, fc)
    if rc:
        continue
    # a stored value's sign flipped, one that changes the outputs
    lines, flipped = r["forward"].split("\n"), None
    for k, l in enumerate(lines):
        s = re.match(r"^(\s+)(\w+\[[^\]]*\]) = (.*);(  // line \d+)$", l)
        if not s:
            continue
        t = lines[:k] + [s.group(1) + s.group(2) + " = -(" + s.group(3) + ");" + s.group(4)] + lines[k + 1:]
        open(m + "/flip.c", "w").write("\n".join(t))
        rc, out = run(kir, m + "/flip.c")
        if rc == 0 and json.loads(out)["outputs"] != json.loads(ref)["outputs"]:
            flipped = "\n".join(t)
            break
    if flipped:
        break
else:
    sys.exit("no record to mutate")
name, fwd = r["name"], entry(r["forward"], r["name"], "forward")
o = json.loads(ref)
# the record's seed-1 outputs written as constants, for every float or int array
params = re.findall(r"(float|int) \*(\w+)", fwd)
body = []
for t, p in params:
    vals = o["outputs"][p]
    if vals == o["inputs"][p]:
        continue
    body.append("    static const %s c_%s[%d] = {%s};" % (t, p, len(vals), ", ".join(repr(v) + ("f" if t == "float" else "") for v in vals)))
    body.append("    for (int k = 0; k < dim; k++) %s[k] = c_%s[k %% %d];" % (p, p, len(vals)))
const = '#include "ksynth.h"\n\n%s\n{\n%s\n}\n' % (fwd, "\n".join(body))
nothing = '#include "ksynth.h"\n\n%s\n{\n    (void)dim;\n}\n' % fwd
hostile = '#include "ksynth.h"\n#include <stdlib.h>\n\n%s\n{\n    (void)dim;\n    if (system("touch %s/pwned") == 0) abort();\n}\n' % (fwd, m)
# the backward: the right forward, every adjoint zeroed
bwd = entry(r["backward"], name, "backward")
args = bwd[bwd.index("(") + 1:bwd.rindex(")")].split(", ")
fwd_ptr = {a.split("*")[-1] for a in args if "*" in a and not a.split("*")[-1].startswith("adj_")}
zero = []
for a in args:
    v = a.split("*")[-1] if "*" in a else None
    if v and v.startswith("adj_"):
        n = "dim" if v[4:] in fwd_ptr else "1"
        zero.append("    memset(%s, 0, sizeof *%s * (size_t)(%s));" % (v, v, n))
b = r["backward"]
i = b.index(bwd)
j = b.index("{", i + len(bwd))
zerob = '#include <string.h>\n' + b[:j + 1] + "\n" + "\n".join(zero) + "\n    return;\n" + b[j + 1:]
with open(m + "/pred.jsonl", "w") as f:
    for l in open(refs):
        s = json.loads(l)
        f.write(l)
        if s["id"] == r["id"] and s["field"] == "forward":
            for c in (flipped, const, nothing, hostile):
                f.write(json.dumps({"id": r["id"], "field": "forward", "completion": c}) + "\n")
        if s["id"] == r["id"] and s["field"] == "backward":
            f.write(json.dumps({"id": r["id"], "field": "backward", "completion": zerob}) + "\n")
print(r["id"])
PY
is "a cpu record to mutate" "$?" 0 || diag "$(cat "$TMP/pick.out")"
A=$(tail -1 "$TMP/pick.out")
mk eval DATASET="$D" PRED="$TMP/m/pred.jsonl" EVAL_JSON="$TMP/m.json" >"$TMP/m.out" 2>&1
is "make eval of the wrong samples" "$?" 0 || diag "$(tail -20 "$TMP/m.out")"
ok "... each wrong sample fails with its reason, the other records pass" python3 - "$TMP/m.json" "$A" <<'PY'
import json, sys
e, a = json.load(open(sys.argv[1])), sys.argv[2]
for i, v in e["per_id"].items():
    if i != a:
        assert v == {"forward": [True], "backward": [True]}, (i, v)
assert e["per_id"][a] == {"forward": [True, False, False, False, False], "backward": [True, False]}, e["per_id"][a]
why = {(f["field"], f["sample"]): f["reason"] for f in e["failures"]}
assert len(why) == 5, why
assert "the reference's" in why["forward", 1], why
assert "is the same under input seeds" in why["forward", 2], why
assert "left unwritten" in why["forward", 3] or "left as it was" in why["forward", 3], why
assert "forbidden system call" in why["forward", 4], why
assert "grads" in why["backward", 1] or "gradient check" in why["backward", 1], why
f = e["forward"]
assert f["samples"] == 12 and abs(f["correct"] - 8 / 12) < 1e-4 and f["compiled"] == 1, f
# pass@k: 7 problems of one right sample, one of 1 right in 5
assert abs(f["pass@1"] - (7 + 0.2) / 8) < 1e-4, f
assert f["pass@k"]["2"] == 0.4 and f["pass@k"]["5"] == 1, f["pass@k"]
assert e["backward"]["pass@k"]["2"] == 1 and abs(e["backward"]["pass@1"] - 7.5 / 8) < 1e-4, e["backward"]
PY
ok "... system() did nothing" test ! -e "$TMP/m/pwned"
ok "... the summary names the failures" grep -q "^  FAIL $A forward #4 (line [0-9]*): run: krun: .*forbidden system call" "$TMP/m.out"

# a sample that never ends fails at the time limit
python3 - "$TMP/m/pred.jsonl" "$A" >"$TMP/hang.jsonl" <<'PY'
import json, re, sys
for l in open(sys.argv[1]):
    s = json.loads(l)
    if s["id"] == sys.argv[2] and s["field"] == "forward" and "system(" in s["completion"]:
        s["completion"] = s["completion"].replace('if (system("touch', 'for (volatile int k = 0;; k++) {}\n    if (system("touch')
        print(json.dumps(s))
PY
mk eval DATASET="$D" PRED="$TMP/hang.jsonl" EVAL_JSON="$TMP/hang.json" EVAL_TIMEOUT=5 >"$TMP/hang.out" 2>&1
ok "a sample that never ends fails at EVAL_TIMEOUT" python3 -c '
import json, sys
e = json.load(open(sys.argv[1]))
assert e["forward"]["compiled"] == 1 and "did not finish within 5 s" in e["failures"][0]["reason"], e["failures"]' "$TMP/hang.json"

# EVAL_SEED fixes the inputs and launches; without it they change
head -1 "$TMP/refs.jsonl" >"$TMP/one.jsonl"
for k in 1 2; do keval --seed 5 --json "$TMP/s$k.json" "$D" "$TMP/one.jsonl" >/dev/null 2>&1; done
for k in 3 4; do keval --json "$TMP/s$k.json" "$D" "$TMP/one.jsonl" >/dev/null 2>&1; sleep 1; done
seeds() { python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["input_seeds"])' "$1"; }
is "the same EVAL_SEED, the same input seeds" "$(seeds "$TMP/s1.json")" "$(seeds "$TMP/s2.json")"
ok "without it, others" test "$(seeds "$TMP/s3.json")" != "$(seeds "$TMP/s4.json")"

# bad predictions: located errors, nothing run, no eval.json
bad() { # bad DESC WANT (the predictions in $TMP/bad.jsonl)
	rm -f "$TMP/bad.json"
	keval --json "$TMP/bad.json" "$D" "$TMP/bad.jsonl" >"$TMP/bad.out" 2>&1
	local st=$?
	t_result $([ $st = 1 ] && grep -q "$2" "$TMP/bad.out" && [ ! -e "$TMP/bad.json" ] && echo 0 || echo 1) "$1"
	[ $st = 1 ] || diag "exit $st"
	grep -q "$2" "$TMP/bad.out" || diag "$(head -5 "$TMP/bad.out")"
}
ID=$(python3 -c 'import json, sys; print(json.loads(open(sys.argv[1]).readline())["id"])' "$TMP/refs.jsonl")
printf '{"id": "%s", "field": "forward", "completion": "x"}\nnot json\n' "$ID" >"$TMP/bad.jsonl"
bad "a line that is not JSON" "bad.jsonl:2:1: error: not a JSON line"
printf '{"id": "%s", "field": "forward", "compl' "$ID" >"$TMP/bad.jsonl"
bad "a truncated line" "bad.jsonl:1:[0-9]*: error: not a JSON line"
printf '{"id": "nope", "field": "forward", "completion": "x"}\n' >"$TMP/bad.jsonl"
bad "an unknown id" 'bad.jsonl:1:1: error: no record "nope"'
printf '\n\n{"id": "%s", "field": "sideways", "completion": "x"}\n' "$ID" >"$TMP/bad.jsonl"
bad "an unknown field" 'bad.jsonl:3:[0-9]*: error: unknown field "sideways"'
printf '{"id": "%s", "field": "forward"}\n' "$ID" >"$TMP/bad.jsonl"
bad "no completion" 'bad.jsonl:1:1: error: the sample has no "completion"'
printf '[1, 2]\n' >"$TMP/bad.jsonl"
bad "not an object" "bad.jsonl:1:1: error: a sample is an object"
head -c 3000 /dev/urandom >"$TMP/bad.jsonl"
bad "random bytes" "bad.jsonl:[0-9]*:[0-9]*: error: "
: >"$TMP/bad.jsonl"
bad "an empty file" "no sample in it"
printf '{"id": "%s", "field": "forward", "completion": "  \\n"}\n' "$ID" >"$TMP/empty.jsonl"
keval --json "$TMP/empty.json" "$D" "$TMP/empty.jsonl" >"$TMP/empty.out" 2>&1
ok "an empty completion is a failed sample with its reason" python3 -c '
import json, sys
e = json.load(open(sys.argv[1]))
assert e["failures"][0]["reason"] == "empty completion" and e["forward"]["compiled"] == 0, e' "$TMP/empty.json"

# the prompts
mk eval-prompts DATASET="$D" SPLIT=train PROMPTS="$TMP/prompts.jsonl" >"$TMP/p.out" 2>&1
ok "make eval-prompts: a prompt per record of the split and field, with the entries to define" python3 - "$TMP/prompts.jsonl" "$D" <<'PY'
import json, sys
ps = [json.loads(l) for l in open(sys.argv[1])]
recs = [json.loads(l) for l in open(sys.argv[2] + "/data/train-00000-of-00001.jsonl")]
assert len(ps) == 2 * len(recs) > 0, (len(ps), len(recs))
for p in ps:
    r = [r for r in recs if r["id"] == p["id"]][0]
    dev = "cuda" if r["device"] == "cuda" else "cpu"
    assert r["source"] in p["prompt"] and p["device"] == r["device"], p
    assert "%s_%s_forward(" % (r["name"], dev) in p["prompt"]
    assert ("%s_%s_backward(" % (r["name"], dev) in p["prompt"]) == (p["field"] == "backward")
PY
done_testing
