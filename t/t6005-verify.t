#!/bin/bash
# make verify (doc/dataset.md): passes on a dataset make dataset just
# built, with its figures in the summary and verify.json; fails, naming
# the record, on copies with one record's forward changed, a backward
# with one operator changed (a wrong derivative: run with RUN_FOREIGN=1,
# its gradient check fails), records with hostile code (not run, or run
# confined), a duplicate id, a truncated line, a split file gone; a different tools' version is
# reported, not failed; kverify never crashes on garbage.  One dataset
# (DEVICE=all: cpu and cuda records) and one work folder serve every
# case, so that a copy re-checks only the shards whose records changed.
. "$(dirname "$0")/lib.sh"

KS_BUILD=${KS_BUILD:-$T_ROOT/build}
KS_SAN=${KS_SAN:-}
unset MAKEFLAGS MFLAGS MAKELEVEL # the make that runs the suite passes its own flags
# a private copy of the tools: make never rebuilds them under us
mkdir -p "$TMP/bin" && cp -p "$KS_BIN"/k* "$TMP/bin/"
# the tools' precompiled headers for sim (doc/runtime.md) beside the copy
if [ -d "$KS_BIN/../pch" ]; then ln -s "$KS_BIN/../pch" "$TMP/pch"; fi
mk() { make --no-print-directory O="$KS_BUILD" SAN="$KS_SAN" DATASET_BIN="$TMP/bin" "$@"; }
verify() { mk verify VERIFY_WORK="$TMP/vwork" SHARD=8 DATASET="$1" >"$2" 2>&1; }

D=$TMP/ds
ok "make dataset N=24 DEVICE=all" mk dataset N=24 SHARD=8 MARGIN=12 DEVICE=all CHECK=full OUT="$D" DATASET_WORK="$TMP/work"
verify "$D" "$TMP/v.out"
is "make verify passes on it" "$?" 0 || diag "$(tail -30 "$TMP/v.out")"
ok "... every record checked and passed" grep -q '^  records: 48 checked, 48 passed, 0 failed$' "$TMP/v.out"
ok "... a progress line per shard" grep -q '^  VERIFY  [0-9]*  [0-9]*/[0-9]* done, [0-9.]* records/s, ETA ' "$TMP/v.out"
ok "... the summary's figures" grep -q '^  constructs covered: [0-9]* of kgen' "$TMP/v.out"
ok "verify.json: the counts and the quality figures" python3 - "$D/verify.json" "$D/stats.json" <<'PY'
import json, sys
v, st = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert v["ok"] is True and v["failures"] == [], v["failures"]
assert v["records"] == {"checked": 48, "passed": 48, "failed": 0}, v["records"]
assert v["tools_version"]["same"] is True and v["tools_version"]["dataset"] == st["tools_version"]
cats = {c: n["records"] for c, n in v["categories"].items() if n["records"]}
assert cats == {c: n["total"] for c, n in st["categories"].items()}, (cats, st["categories"])
assert abs(sum(n["share"] for n in v["categories"].values()) - 1) < 1e-3
for l in ("source", "forward", "backward"):
    s = v["lines"][l]
    assert s["min"] == st["lines"][l]["min"] and s["max"] == st["lines"][l]["max"], (l, s)
    assert s["min"] <= s["median"] <= s["p90"] <= s["max"], (l, s)
assert 100 < v["coverage"]["rows"] and 0 < v["coverage"]["covered"] <= v["coverage"]["rows"], v["coverage"]
assert v["duplicate_ir_hash"] == {"groups": 0, "records": 0}, v["duplicate_ir_hash"]
assert v["degenerate"]["records"] == len(v["degenerate"]["ids"])
assert v["degenerate"]["records"] == 0, v["degenerate"]  # kgen --verify drew them again
assert 0 <= v["gradcheck"]["worst_ratio"] <= 1, v["gradcheck"]
for c, n in v["categories"].items():
    if n["records"]:
        assert n["gradcheck_worst_ratio"] <= 1 and n["failed"] == 0, (c, n)
PY
# some of the records are kernels kgen --verify drew again: their sources
# are not plain kgen's, and make verify passed them
mkdir -p "$TMP/plain"
kgen -c all -s 1 -n 36 --split "$TMP/plain" >"$TMP/plain.list"
redrawn=$(python3 -c '
import glob, json, sys
plain = dict(l.split() for l in open(sys.argv[1] + ".list"))
n = 0
for f in glob.glob(sys.argv[2] + "/data/*.jsonl"):
    for l in open(f):
        r = json.loads(l)
        i = str(int(r["id"].split("-")[1]))
        n += r["source"] != open(sys.argv[1] + "/" + plain[i] + ".py").read()
print(n)' "$TMP/plain" "$D")
ok "... $redrawn of its records are redrawn kernels (kgen --verify)" test "$redrawn" -gt 0
verify "$D" "$TMP/v2.out"
is "a second make verify passes" "$?" 0
is "... and re-checks no shard" "$(grep -c 'VERIFY  ' "$TMP/v2.out")" 0
kverify --work "$TMP/vwork" --shard 8 --json "$TMP/k.json" "$D" >"$TMP/k.out" 2>&1
is "kverify DIR (its work folder shared) passes too" "$?" 0
same_file "... and writes the same verify.json" "$TMP/k.json" "$D/verify.json"

# copy NAME CASE: a copy of the dataset, changed by CASE (python below),
# which prints the id of the record it changed
copy() {
	rm -rf "${TMP:?}/$1" && cp -r "$D" "$TMP/$1" && rm -f "$TMP/$1/verify.json" &&
		python3 - "$TMP/$1" "$2" "$TMP" <<'PY'
import json, os, re, subprocess, sys
d, case, tmp = sys.argv[1:4]
files = {sp: f"{d}/data/{sp}-00000-of-00001.jsonl" for sp in ("train", "validation", "test")}
def lines(sp):
    return open(files[sp], encoding="utf-8").read().split("\n")[:-1]
def write(sp, ls):
    open(files[sp], "w", encoding="utf-8").write("".join(l + "\n" for l in ls))
ls = lines("train")
changed = []
if case == "forward":  # a cuda record's forward: one operator changed
    for k, l in enumerate(ls):
        r = json.loads(l)
        if r["device"] == "cuda" and " + " in r["forward"]:
            r["forward"] = r["forward"].replace(" + ", " - ", 1)
            ls[k] = json.dumps(r, ensure_ascii=False)
            changed.append(r["id"])
            break
elif case == "backward":  # a cpu record's adjoint: the first `+` (or `+=`) of a line with an adjoint that makes krun's gradcheck fail as `-`
    w = f"{tmp}/mut"
    os.makedirs(w, exist_ok=True)
    for k, l in enumerate(ls):
        r = json.loads(l)
        if r["device"] != "cpu" or changed:
            continue
        open(f"{w}/{r['name']}.py", "w").write(r["source"])
        subprocess.run(["kparse", f"{r['name']}.py", "-o", "k.kir"], cwd=w, check=True)
        subprocess.run(["kdiff", "k.kir", "-o", "k.d.kir"], cwd=w, check=True)
        bw = r["backward"].split("\n")
        for i, b in enumerate(bw):
            # an adjoint's line: its first sum a difference, or += a -=
            if "adj_" not in b or not (" + " in b or " += " in b):
                continue
            b2 = b.replace(" += ", " -= ", 1) if " += " in b else b.replace(" + ", " - ", 1)
            bw2 = bw[:i] + [b2] + bw[i + 1:]
            open(f"{w}/k.c", "w").write("\n".join(bw2))
            if subprocess.run(["krun", "--gradcheck", "k.d.kir", "k.c"], cwd=w, capture_output=True).returncode == 1:
                r["backward"] = "\n".join(bw2)
                ls[k] = json.dumps(r, ensure_ascii=False)
                changed.append(r["id"])
                break
elif case == "hostile":  # cpu records whose code runs a process, opens a file for writing, forks
    def inject(code, entry, stmt):
        ls2 = code.split("\n")
        at = next(k for k, x in enumerate(ls2) if entry in x and x.rstrip().endswith(")"))
        return "\n".join(ls2[: at + 2] + ["\t" + stmt] + ls2[at + 2 :])
    mark = tmp + "/pwned"
    evil = [
        ("forward", lambda c: "#include <stdlib.h>\n__attribute__((constructor)) static void evil(void) { system(\"touch %s-ctor\"); }\n" % mark + c),
        ("forward", lambda c: "#include <stdlib.h>\n" + inject(c, "_cpu_forward(", 'system("touch %s-system");' % mark)),
        ("backward", lambda c: "#include <stdio.h>\n" + inject(c, "_cpu_backward(", '{ FILE *f = fopen("%s-fopen", "w"); if (f) fclose(f); }' % mark)),
        ("forward", lambda c: "#include <unistd.h>\n" + inject(c, "_cpu_forward(", "{ static int once; if (!once++) fork(); }")),
    ]
    for k, l in enumerate(ls):
        r = json.loads(l)
        if r["device"] != "cpu" or not evil:
            continue
        field, f = evil.pop(0)
        new = f(r[field])
        r["meta"][field + "_lines"] += new.count("\n") - r[field].count("\n")
        r[field] = new
        ls[k] = json.dumps(r, ensure_ascii=False)
        changed.append(r["id"])
elif case == "duplicate":  # a line twice
    ls.insert(4, ls[3])
    changed.append(json.loads(ls[3])["id"])
elif case == "truncated":  # a line cut in the middle of its code
    changed.append(json.loads(ls[5])["id"])
    ls[5] = ls[5][: len(ls[5]) // 2]
elif case == "split":  # the smallest split file that has records, gone
    sp = min((sp for sp in files if lines(sp)), key=lambda sp: len(lines(sp)))
    changed = [json.loads(l)["id"] for l in lines(sp)]
    os.remove(files[sp])
elif case == "version":  # made by other tools, as stats.json says, whose emitter wrote another header
    st = json.load(open(f"{d}/stats.json"))
    st["tools_version"] = "0123456789abcdef"
    json.dump(st, open(f"{d}/stats.json", "w"))
    r = json.loads(ls[2])
    r["forward"] = r["forward"].replace("Generated by ksynth", "Generated by KSYNTH", 1)
    ls[2] = json.dumps(r, ensure_ascii=False)
    changed.append(r["id"])
print("\n".join(changed))
if case != "split":
    write("train", ls)
PY
}

# fails CASE REASON: make verify fails on the copy, with a FAIL line
# naming each record the copy changed and the reason
fails() {
	ids=$(copy "c-$1" "$1") || { t_result 1 "a copy with $1"; return; }
	verify "$TMP/c-$1" "$TMP/c-$1.out"
	st=$?
	is "a copy with $1: make verify fails" "$st" 2
	missing=0
	for id in $ids; do
		grep -q "^FAIL $id \?[(:].*$2" "$TMP/c-$1.out" || missing=$((missing + 1))
	done
	is "... naming the records it changed ($(echo "$ids" | wc -w)) and the reason ($2)" "$missing" 0 ||
		diag "$(grep '^FAIL\|kverify' "$TMP/c-$1.out" | head -20)"
	[ -n "$ids" ] || t_result 1 "... the copy changed a record"
}
fails forward 'forward: not kemit-cu'"'"'s code of the IR'
fails backward 'backward: not kemit-cpu'"'"'s code'
ok "... its code not run" grep -q "^  not checked here: gradcheck of 1 records (not run: the backward code is not kemit-cpu's code" \
	"$TMP/c-backward.out"
mk verify VERIFY_WORK="$TMP/vwork" SHARD=8 DATASET="$TMP/c-backward" RUN_FOREIGN=1 >"$TMP/c-backward-run.out" 2>&1
ok "... with RUN_FOREIGN=1 it runs, and its gradient check fails" \
	grep -q "^FAIL .*gradcheck: on cpu: krun: .*gradcheck failed" "$TMP/c-backward-run.out"

# a hostile dataset: records whose code starts a process at load and in a
# kernel, opens a file for writing, forks.  Not run by default; run
# (RUN_FOREIGN=1), each is stopped by krun's confinement.  Nothing is
# ever created outside the work folder.
fails hostile 'not kemit-cpu'"'"'s code'
ok "... none of its code ran" bash -c "! ls '$TMP'/pwned-* 2>/dev/null"
ids=$(python3 -c '
import json, sys
for l in open(sys.argv[1] + "/data/train-00000-of-00001.jsonl"):
    r = json.loads(l)
    if "pwned" in r["forward"] + r["backward"] or "fork()" in r["forward"]:
        print(r["id"])' "$TMP/c-hostile")
mk verify VERIFY_WORK="$TMP/vwork" SHARD=8 DATASET="$TMP/c-hostile" RUN_FOREIGN=1 >"$TMP/c-hostile-run.out" 2>&1
is "run (RUN_FOREIGN=1): make verify fails" "$?" 2
n=0
for id in $ids; do
	grep -q "^FAIL $id .*forbidden system call" "$TMP/c-hostile-run.out" && n=$((n + 1))
done
# the constructor runs only where dlopen loads the code (krun --cc); libtcc runs none
ok "... the code of the records that start a process, open a file and fork is killed, named ($n of 4)" test "$n" -ge 3 ||
	diag "$(grep '^FAIL' "$TMP/c-hostile-run.out" | head)"
ok "... and none of it ran outside the confinement" bash -c "! ls '$TMP'/pwned-* 2>/dev/null"
fails duplicate 'duplicate-id: the id of data/train-00000-of-00001.jsonl:4 as well'
fails truncated 'truncated: the record is cut short'
ok "... at FILE:LINE:COL, the column where the text ends" \
	grep -q "^FAIL [^ ]* (data/train-00000-of-00001.jsonl:6:[1-9][0-9]*): truncated: " "$TMP/c-truncated.out"
ok "... and the record is not called missing too" bash -c "! grep -q '^FAIL .*: missing: ' '$TMP/c-truncated.out'"
fails split 'missing: kernel [0-9]* is not in the split files'
ok "... and names the split file gone" grep -q '^FAIL data/[a-z]*-00000-of-00001.jsonl: split-file: missing' "$TMP/c-split.out"

# another tools' version: code that differs is reported, not failed
id=$(copy c-version version)
verify "$TMP/c-version" "$TMP/c-version.out"
is "made by another tools' version: make verify passes" "$?" 0 || diag "$(grep '^FAIL' "$TMP/c-version.out" | head)"
ok "... and says which records' code differs" grep -q '^  differ from these tools'"'"' (reported, not failed): forward 1$' \
	"$TMP/c-version.out"
ok "... and that the versions differ" grep -q '^kverify: .*made by tools 0123456789abcdef (these tools: ' "$TMP/c-version.out"

# garbage: kverify says what is wrong (exit 1), never crashes, hangs or
# writes outside its folders (one work folder: the copies' validation and
# test records, the same in each, are checked once)
g=$TMP/garbage
mkdir -p "$g"
head -c 3000 /dev/urandom >"$TMP/random"
rec=$(head -n 1 "$D/data/train-00000-of-00001.jsonl")
mkg() { # mkg NAME: a copy of the dataset in $g/NAME whose train split is stdin
	rm -rf "${g:?}/$1" && cp -r "$D" "$g/$1" && rm -f "$g/$1/verify.json" && cat >"$g/$1/data/train-00000-of-00001.jsonl"
}
mkdir -p "$g/empty"
mkg random <"$TMP/random"
mkg deep < <(printf '%*s\n' 5000 '' | tr ' ' '[')
mkg utf8 < <(printf '{"id": "s1-0000000-cpu", "name": "\xff\xfe"}\n')
mkg surrogate < <(printf '{"id": "\\ud800x"}\n')
mkg nul < <(printf '{"id": "s1-\0"}\n\0\0\0\n')
mkg number < <(printf '1e999999\n-\n01\n[1,]\n{"a":1,"a":2}\n')
mkg types < <(echo "$rec" | sed 's/"seed": 1,/"seed": "1",/; s/"source_lines": [0-9]*/"source_lines": -3/')
mkg name < <(echo "$rec" | python3 -c '
import json, sys
r = json.loads(sys.stdin.read()); r["name"] = "../../../x"; print(json.dumps(r))')
mkg id < <(echo "$rec" | python3 -c '
import json, sys
r = json.loads(sys.stdin.read()); r["id"] = "s1-99999999999999-cpu"; print(json.dumps(r))')
mkg source < <(echo "$rec" | python3 -c '
import json, sys
r = json.loads(sys.stdin.read()); r["source"] = "import os\nwhile True: pass\n@wp.kernel\ndef k(x: wp.array(dtype=float)):\n    x[0] = os.sep\n"; r["meta"]["source_lines"] = 5; print(json.dumps(r))')
mkg code < <(echo "$rec" | python3 -c '
import json, sys
r = json.loads(sys.stdin.read()); r["backward"] = "int main(void) { for (;;); }\n#error no\n"; r["meta"]["backward_lines"] = 2; print(json.dumps(r))')
mkg long < <(head -c 3000000 /dev/zero | tr '\0' 'a'; echo)
cp -r "$g/random" "$g/stats" && cp "$TMP/random" "$g/stats/stats.json" && cp "$TMP/random" "$g/stats/README.md"
cp -r "$g/random" "$g/dir" && rm "$g/dir/data/test-00000-of-00001.jsonl" && mkdir "$g/dir/data/test-00000-of-00001.jsonl" &&
	touch "$g/dir/data/extra.txt" && rm -rf "$g/dir/rejects.jsonl" && mkdir "$g/dir/rejects.jsonl"
echo '{}' >"$g/nothing.json"
for c in empty random deep utf8 surrogate nul number types name id source code long stats dir; do
	timeout 300 kverify -j2 --work "$TMP/gwork" --json "$TMP/g-$c.json" "$g/$c" >"$TMP/g-$c.out" 2>&1
	st=$?
	is "garbage ($c): kverify fails, saying why (exit 1)" "$st" 1 || diag "$(tail -5 "$TMP/g-$c.out")"
	ok "... with a FAIL line, and verify.json" grep -q '^FAIL ' "$TMP/g-$c.out"
	python3 -c 'import json, sys; assert json.load(open(sys.argv[1]))["ok"] is False' "$TMP/g-$c.json" ||
		t_result 1 "... verify.json says it failed ($c)"
done
ok "a line that is not JSON: FAIL at FILE:LINE:COL" grep -q '^FAIL s1-0000000-cpu (data/train-00000-of-00001.jsonl:1:35): format: not JSON: ' "$TMP/g-utf8.out"
ok "a stats.json that is not JSON: FAIL at stats.json:LINE:COL" grep -q '^FAIL stats.json:[1-9][0-9]*:[1-9][0-9]*: stats: not JSON: ' "$TMP/g-stats.out"
ok "a bad name writes nothing outside the work folder" test ! -e "$TMP/x.py" -a ! -e "$TMP/gwork/x.py"
ok "a source kparse rejects: the record fails, named" grep -q '^FAIL s1-0000000-cpu (.*): ir: kparse: ' "$TMP/g-source.out"
ok "... and it is none of kgen's draws" grep -q "^FAIL s1-0000000-cpu (.*): source: not kgen's kernel 0 (draw 0 to 200): line 1 " "$TMP/g-source.out"
ok "backward code that does not compile: the record fails, named" grep -q '^FAIL s1-0000000-cpu (.*): compile: backward: ' "$TMP/g-code.out"
ok "usage: no dataset" bash -c '! kverify 2>/dev/null'
is "usage: exit 2" "$(kverify --bogus x >/dev/null 2>&1; echo $?)" 2
ok "make verify without DATASET says so" bash -c "make --no-print-directory O='$KS_BUILD' verify 2>&1 | grep -q 'DATASET=DIR'"
done_testing
