#!/bin/bash
# make dataset when a tool fails on one kernel of a shard: the kernel is
# rejected with its reason (rejects.jsonl, counted in stats.json) and the
# build goes on.  A kdiff that crashes (SIGSEGV) on kernel 2, alone and as
# the batch (`kdiff --each` makes every other kernel, then dies as a
# crash would), stands in for a kdiff bug: the dataset is the one the
# real kdiff makes less kernel 2's record, its reject says `diff: kdiff:
# NAME.kir: killed by signal 11` (the reason `--each` gives a child that
# crashes), one more kernel is made to keep N records, and the bytes are
# the same under -j1 and -j3.
. "$(dirname "$0")/lib.sh"

KS_BUILD=${KS_BUILD:-$T_ROOT/build}
unset MAKEFLAGS MFLAGS MAKELEVEL
mk() { make --no-print-directory O="$KS_BUILD" SAN="${KS_SAN:-}" MARGIN=6 "$@"; }
mkdir -p "$TMP/bin" && cp -p "$KS_BIN"/k* "$TMP/bin/"
mkdir -p "$TMP/bad" && cp -p "$KS_BIN"/k* "$TMP/bad/"
mv "$TMP/bad/kdiff" "$TMP/bad/kdiff.real"
cat >"$TMP/bad/kdiff" <<'EOF'
#!/bin/sh
real=$0.real
case " $* " in
*" --each "*)
	n=$# p=
	for a; do
		case $p in --each) grep -v '_2\.kir ' "$a" >"$a.part"; a=$a.part ;; esac
		set -- "$@" "$a"
		p=$a
	done
	shift $n
	"$real" "$@"
	kill -SEGV $$ ;;
*"_2.kir "*) kill -SEGV $$ ;;
esac
exec "$real" "$@"
EOF
chmod +x "$TMP/bad/kdiff"

args="dataset N=8 SHARD=4 DEVICE=cpu CHECK=none"
ok "make dataset with the real tools" mk $args OUT="$TMP/good" DATASET_BIN="$TMP/bin" DATASET_WORK="$TMP/wg"
ok "make dataset -j3 with a kdiff that crashes on kernel 2" \
	mk -j3 $args OUT="$TMP/j3" DATASET_BIN="$TMP/bad" DATASET_WORK="$TMP/w3"
ok "make dataset -j1 with that kdiff" mk -j1 $args OUT="$TMP/j1" DATASET_BIN="$TMP/bad" DATASET_WORK="$TMP/w1"
ok "kernel 2 rejected with its reason, counted; the others' records as the real kdiff's" \
	python3 - "$TMP/good" "$TMP/j3" <<'PY'
import glob, json, sys
def load(o):
    recs = sorted(l for f in glob.glob(o + "/data/*.jsonl") for l in open(f))
    rej = [json.loads(l) for l in open(o + "/rejects.jsonl")]
    return recs, rej, json.load(open(o + "/stats.json"))
grecs, grej, gst = load(sys.argv[1])
brecs, brej, bst = load(sys.argv[2])
mine = [r for r in brej if r not in grej]
assert len(mine) == 1, (grej, brej)
text = json.dumps(mine[0])
assert "_2" in text and "diff: kdiff: " in text and "_2.kir: killed by signal 11" in text, text
assert bst["rejected"] == gst["rejected"] + 1, (gst, bst)
name = json.loads(text)["name"]
gone = [l for l in grecs if json.loads(l)["name"] == name]
assert len(gone) == 1 and gone[0] not in brecs, "kernel 2's record is gone"
assert set(grecs) - set(gone) <= set(brecs), "the other records are the real kdiff's"
assert len(brecs) == len(grecs), "N records: one more kernel made in its place"
PY
for f in data/train-00000-of-00001.jsonl data/validation-00000-of-00001.jsonl data/test-00000-of-00001.jsonl \
	rejects.jsonl stats.json; do
	same_file "-j1 and -j3: $f the same" "$TMP/j1/$f" "$TMP/j3/$f"
done
done_testing
