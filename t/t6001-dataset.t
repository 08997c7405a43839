#!/bin/bash
# make dataset (doc/dataset.md): records with exactly DESIGN.md's fields,
# valid JSON parsed by python3, verified (CHECK=full), deduplicated on
# ir_hash, the Hugging Face layout with its card and stats; a second run
# does nothing; raising N builds only the new shards; a batch (krun, or a
# tool's --each) that dies leaves its shard's remaining kernels to be made
# and checked one by one; two runs of a step on one shard do not mix.
. "$(dirname "$0")/lib.sh"

mk() { make --no-print-directory O="$KS_BUILD" SAN="$KS_SAN" DATASET_BIN="$TMP/bin" DATASET_WORK="$TMP/work" MARGIN=6 "$@"; }
KS_BUILD=${KS_BUILD:-$T_ROOT/build}
unset MAKEFLAGS MFLAGS MAKELEVEL # the make that runs the suite passes its own flags
# a private copy of the tools: make dataset never rebuilds them under us
mkdir -p "$TMP/bin" && cp -p "$KS_BIN"/k* "$TMP/bin/"
# the tools' precompiled headers for sim (doc/runtime.md) beside the copy
if [ -d "$KS_BIN/../pch" ]; then ln -s "$KS_BIN/../pch" "$TMP/pch"; fi
KS_SAN=${KS_SAN:-}

ok "make dataset N=10 DEVICE=cpu CHECK=full" mk dataset N=6 SHARD=3 DEVICE=cpu CHECK=full OUT="$TMP/cpu"
o=$TMP/cpu
ok "the layout" test -s "$o/data/train-00000-of-00001.jsonl" -a -f "$o/data/validation-00000-of-00001.jsonl" \
	-a -f "$o/data/test-00000-of-00001.jsonl" -a -s "$o/README.md" -a -s "$o/stats.json" \
	-a -s "$o/timing.json" -a -f "$o/rejects.jsonl"
ok "records: valid JSON, DESIGN.md's fields, checks, unique ir_hash, N kernels" python3 - "$o" 6 cpu full <<'PY'
import json, sys, glob, os
o, n, dev, check = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
keys = ["id", "name", "category", "seed", "source", "ir", "device", "forward", "backward", "meta"]
mkeys = ["source_lines", "forward_lines", "backward_lines", "ir_hash", "checks"]
seen, recs = set(), 0
for sp in ["train", "validation", "test"]:
    for line in open(f"{o}/data/{sp}-00000-of-00001.jsonl", encoding="utf-8"):
        r = json.loads(line)
        assert list(r) == keys, list(r)
        assert list(r["meta"]) == mkeys, list(r["meta"])
        assert r["device"] in (["cpu", "cuda"] if dev == "all" else [dev]), r["device"]
        assert r["name"] in r["source"] and "@wp.kernel" in r["source"]
        assert r["meta"]["source_lines"] == r["source"].count("\n") + (not r["source"].endswith("\n"))
        c = r["meta"]["checks"]
        assert c == {"compiled": check != "none", "compiler": "cc" if check != "none" else "none",
                     "executed": check == "full", "executed_on": "cpu" if check == "full" else "none",
                     "gradcheck": check == "full"}, c
        assert ("_cpu_backward" if r["device"] == "cpu" else "_cuda_backward") in r["backward"]
        key = (r["meta"]["ir_hash"], r["device"])
        assert key not in seen, key
        seen.add(key)
        recs += 1
assert recs == n * (2 if dev == "all" else 1), recs
st = json.load(open(f"{o}/stats.json"))
assert st["records"] == recs and sum(v["records"] for v in st["splits"].values()) == recs
json.load(open(f"{o}/timing.json"))
for line in open(f"{o}/rejects.jsonl"):
    assert "reason" in json.loads(line)
assert st["checks"]["compiler"] == {"cc": recs} and st["checks"]["executed_on"] == {"cpu": recs}, st["checks"]
card = open(f"{o}/README.md").read()
assert card.startswith("---\n") and "configs:" in card and "dataset_info:" in card
assert "- name: compiler\n        dtype: string" in card and "- name: executed_on\n        dtype: string" in card
assert "The CUDA code" not in card
PY
ok "every record's backward code compiles and passes --gradcheck with the runtime headers alone" python3 - "$o" "$TMP" <<'PY'
import json, sys, subprocess
o, tmp = sys.argv[1], sys.argv[2]
r = json.loads(open(f"{o}/data/train-00000-of-00001.jsonl").readline())
open(f"{tmp}/k.py", "w").write(r["source"])
open(f"{tmp}/k.c", "w").write(r["backward"])
subprocess.run(["kdiff", "-o", f"{tmp}/k.kir", "-"], input=subprocess.run(["kparse", f"{tmp}/k.py"], capture_output=True, check=True).stdout, check=True)
subprocess.run(["krun", "--gradcheck", f"{tmp}/k.kir", f"{tmp}/k.c"], capture_output=True, check=True)
subprocess.run(["cc", "-std=c11", "-c", "-Iruntime", "-o", f"{tmp}/k.o", f"{tmp}/k.c"], check=True)
open(f"{tmp}/f.c", "w").write(r["forward"])
subprocess.run(["cc", "-std=c11", "-c", "-Iruntime", "-o", f"{tmp}/f.o", f"{tmp}/f.c"], check=True)
PY

# incremental: nothing to do the second time (how fast that is, is
# make bench's section c)
before=$(ls -l --time-style=+%s.%N "$TMP"/work/*/* "$o"/data/*)
mk dataset N=6 SHARD=3 DEVICE=cpu CHECK=full OUT="$o" >"$TMP/again" 2>&1
is "a second make dataset prints nothing" "$(cat "$TMP/again")" ""
is "... and rewrites no file" "$(ls -l --time-style=+%s.%N "$TMP"/work/*/* "$o"/data/*)" "$before"
# raising N builds only the new shards
old=$(ls -l --time-style=+%s.%N "$TMP"/work/*/0.rec)
mk dataset N=9 SHARD=3 DEVICE=cpu CHECK=full OUT="$o" >"$TMP/more" 2>&1
is "N=9 keeps shard 0" "$(ls -l --time-style=+%s.%N "$TMP"/work/*/0.rec)" "$old"
ok "N=9 builds new shards" grep -q 'SHARD   4 ' "$TMP/more"
is "N=9: 9 records" "$(cat "$o"/data/*.jsonl | wc -l)" 9

# the card's plots: three with CHECK=full; where gnuplot is missing or
# fails, the card and one line say so
if command -v gnuplot >/dev/null 2>&1; then
	ok "the card shows its three plots" test "$(grep -c '](plots/[a-z]*\.png)' "$o/README.md")" = 3 \
		-a -s "$o/plots/categories.png" -a -s "$o/plots/lines.png" -a -s "$o/plots/gradcheck.png"
else
	skip "the card shows its three plots" "gnuplot is not installed (make deps installs gnuplot-nox)"
fi
mk dataset N=9 SHARD=3 DEVICE=cpu CHECK=full OUT="$o" GNUPLOT=/nonexistent/gnuplot >"$TMP/nogp" 2>&1
is "no gnuplot: make dataset says so" "$(grep -c '^make dataset: the card has no plots: gnuplot is not installed' "$TMP/nogp")" 1
ok "... and so does the card, which shows none" grep -q '^No plots: gnuplot is not installed (make deps installs gnuplot-nox)\.$' "$o/README.md"
ok "... and no plots folder is left" test ! -e "$o/plots" -a -z "$(grep '](plots/' "$o/README.md")"
printf '#!/bin/sh\necho "gnuplot: no png terminal here" >&2\nexit 1\n' >"$TMP/badgp" && chmod +x "$TMP/badgp"
mk dataset N=9 SHARD=3 DEVICE=cpu CHECK=full OUT="$o" GNUPLOT="$TMP/badgp" >"$TMP/badgp.out" 2>&1
ok "gnuplot fails: make dataset and the card say why" grep -q '^make dataset: the card has no plots: gnuplot could not draw them: gnuplot: no png terminal here$' "$TMP/badgp.out"
ok "... the card" grep -q '^No plots: gnuplot could not draw them: gnuplot: no png terminal here\.$' "$o/README.md"
mk dataset N=9 SHARD=3 DEVICE=cpu CHECK=full OUT="$o" >/dev/null 2>&1

# the progress line: two shards side by side, the first done: the one
# under way counts in part, so the rate is not half the pace
P=$TMP/progress
mkdir -p "$P/0" "$P/1" && echo run >"$P/.run" && sleep 0.01 && touch "$P/0/check.st"
printf 't 1000\ns 0 1000\ns 1 1000\n' >"$P/.progress"
is "progress: the first of two shards side by side" \
	"$(DS_NOW=1010 sh mk/dataset.sh progress SHARD 0 "$P" 50 %/check.st %/emit.st 0 1 2>&1)" \
	"  SHARD   0  1/2 done, 9.8 records/s, ETA 0:00"

# DEVICE=all: one record per device
ok "make dataset DEVICE=all CHECK=none" mk dataset N=6 SHARD=4 DEVICE=all CHECK=none OUT="$TMP/all"

# a newer tool redoes the steps after it only (-j1: one shard at a time, so
# the first progress line comes before the second shard is remade)
w=$(dirname "$(ls -t "$TMP"/work/*/.run | head -1)")
touch "$TMP/stamp"
cp -p "$TMP/bin/kemit-cu" "$TMP/kemit-cu.keep"
touch "$TMP/bin/kemit-cu"
mk -j1 dataset N=6 SHARD=4 DEVICE=all CHECK=none OUT="$TMP/all" >"$TMP/touch" 2>&1
touch -r "$TMP/kemit-cu.keep" "$TMP/bin/kemit-cu"
ok "kemit-cu newer: the gen, parse and diff steps stay" test -z "$(find "$w" -name 'gen.st' -newer "$TMP/stamp" -o -name 'diff.st' -newer "$TMP/stamp")"
ok "kemit-cu newer: the emit steps are redone" test -n "$(find "$w" -name 'emit.st' -newer "$TMP/stamp")"
ok "kemit-cu newer: the shards are remade" grep -q 'SHARD   0 ' "$TMP/touch"
is "kemit-cu newer: the first progress line counts the remade shard only" \
	"$(grep -m1 'SHARD' "$TMP/touch" | awk '{ print $3 }')" "1/$(ls "$w"/*.rec | wc -l)"
ok "DEVICE=all records" python3 -c '
import json, glob, sys
recs = [json.loads(l) for f in glob.glob(sys.argv[1] + "/data/*.jsonl") for l in open(f)]
assert len(recs) == 12 and sorted({r["device"] for r in recs}) == ["cpu", "cuda"]
assert all(("__global__" in r["forward"]) == (r["device"] == "cuda") for r in recs)
' "$TMP/all"
ok "DEVICE=all CHECK=none uses a work folder of its own" test "$(ls -d "$TMP"/work/*/ | wc -l)" = 2
# a batch krun, and batch kparse, kfmt, kdiff and emitters (--each),
# that die after their first kernel: the shard's other kernels are made
# and checked one by one, and the bytes are the same
mkdir -p "$TMP/bin2" && cp -p "$TMP/bin"/k* "$TMP/bin2/"
for t in krun kparse kfmt kdiff kemit-cpu kemit-cu; do
	mv "$TMP/bin2/$t" "$TMP/bin2/$t.real"
	cat >"$TMP/bin2/$t" <<'EOF'
#!/bin/sh
real=$0.real
case " $* " in *" --batch "* | *" --each "*) ;; *) exec "$real" "$@" ;; esac
echo "${0##*/}" >>"${0%/*}/batches.log"
n=$# p=
for a; do
	case $p in --batch | --each) head -n 1 "$a" >"$a.one"; a=$a.one ;; esac
	set -- "$@" "$a"
	p=$a
done
shift $n
"$real" "$@"
kill -KILL $$
EOF
	chmod +x "$TMP/bin2/$t"
done
ok "make dataset with batches that die" mk dataset N=9 SHARD=3 DEVICE=cpu CHECK=full OUT="$TMP/dead" \
	DATASET_BIN="$TMP/bin2" DATASET_WORK="$TMP/work2"
nshard=$(ls -d "$TMP"/work2/*/*/ | wc -l)
for t in kparse kfmt kdiff kemit-cpu kemit-cu krun; do
	want=$nshard
	[ $t = kemit-cpu ] && want=$((2 * nshard)) # the code and the code with coverage counters
	[ $t = krun ] && want=$((3 * nshard)) # the forward compile, the gradcheck and --vary
	is "... $t ran a batch (of one line) a shard" "$(grep -cx "$t" "$TMP/bin2/batches.log")" "$want"
done
is "... no run left its lists behind" "$(ls -a "$TMP"/work2/*/*/ | grep -c '^\.run\.')" 0
for f in data/train-00000-of-00001.jsonl data/validation-00000-of-00001.jsonl data/test-00000-of-00001.jsonl \
	rejects.jsonl stats.json README.md; do
	same_file "... the others one by one: $f the same" "$TMP/dead/$f" "$o/$f"
done
# two runs of a step on one shard at once (two makes sharing a work
# folder) each use lists of their own: the step's lines are whole
D=$TMP/race
(
	cd "$T_ROOT" || exit 1
	export KS_BIN="$TMP/bin" DS_SEED=1 DS_CATS=all DS_DEVICE=cpu DS_CHECK=none
	for s in gen parse diff emit; do sh mk/dataset.sh $s "$D" 0 30 || exit 1; done
	cp "$D/parse.st" "$TMP/race.parse" && cp "$D/emit.st" "$TMP/race.emit" || exit 1
	bad=0
	for r in 1 2 3 4 5 6; do
		for s in parse emit; do
			sh mk/dataset.sh $s "$D" 0 30 & sh mk/dataset.sh $s "$D" 0 30
			wait
			cmp -s "$D/$s.st" "$TMP/race.$s" || bad=$((bad + 1))
		done
	done
	echo $bad >"$TMP/race.bad"
)
is "two parse and two emit steps of one shard at once, 6 times: the same lines" "$(cat "$TMP/race.bad")" 0

# without -j the shards are built DS_JOBS at a time; an explicit -j1 stays
is "without -j, make dataset runs itself with -jDS_JOBS" \
	"$(mk -n dataset N=6 SHARD=3 DEVICE=cpu DS_JOBS=3 OUT="$o" 2>&1 | grep -m1 -o -- '-j[0-9]* dataset-build')" "-j3 dataset-build"
is "with -j1, make dataset stays at one job" \
	"$(mk -n -j1 dataset N=6 SHARD=3 DEVICE=cpu DS_JOBS=3 OUT="$o" 2>&1 | grep -m1 -- 'dataset-build' | grep -c -- ' -j')" 0
ok "bad DEVICE is an error" bash -c "! make --no-print-directory O='$KS_BUILD' dataset DEVICE=gpu OUT='$TMP/x' 2>/dev/null"
done_testing
