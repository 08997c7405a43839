#!/bin/bash
# make dataset gives byte-identical OUT (all but timing.json) whatever -j
# and SHARD; a different SEED gives different records; DEVICE=cuda
# CHECK=full without NVRTC stops and says what is missing.
. "$(dirname "$0")/lib.sh"

KS_BUILD=${KS_BUILD:-$T_ROOT/build}
unset MAKEFLAGS MFLAGS MAKELEVEL # the make that runs the suite passes its own flags
# a private copy of the tools: make dataset never rebuilds them under us
mkdir -p "$TMP/bin" && cp -p "$KS_BIN"/k* "$TMP/bin/"
KS_SAN=${KS_SAN:-}
mk() { make --no-print-directory O="$KS_BUILD" SAN="$KS_SAN" DATASET_BIN="$TMP/bin" DATASET_WORK="$TMP/work" MARGIN=3 "$@"; }

ok "N=16 SHARD=3 -j2" mk -j2 dataset N=16 SHARD=3 DEVICE=all CHECK=none OUT="$TMP/a"
ok "N=16 SHARD=16 -j1" mk -j1 dataset N=16 SHARD=16 DEVICE=all CHECK=none OUT="$TMP/b"
ok "N=16 SHARD=5 -j2 (built from N=9 first)" bash -c "make --no-print-directory O='$KS_BUILD' SAN='$KS_SAN' DATASET_BIN='$TMP/bin' DATASET_WORK='$TMP/work' MARGIN=3 dataset N=9 SHARD=5 DEVICE=all CHECK=none OUT='$TMP/c' &&
	make --no-print-directory O='$KS_BUILD' SAN='$KS_SAN' DATASET_BIN='$TMP/bin' DATASET_WORK='$TMP/work' MARGIN=3 -j2 dataset N=16 SHARD=5 DEVICE=all CHECK=none OUT='$TMP/c'"
rm -f "$TMP"/[abc]/timing.json
ok "SHARD=3 -j2 and SHARD=16 -j1: the same bytes" diff -r "$TMP/a" "$TMP/b"
ok "SHARD=5 after a smaller N: the same bytes" diff -r "$TMP/a" "$TMP/c"
ok "SEED=2 differs" bash -c "make --no-print-directory O='$KS_BUILD' DATASET_BIN='$TMP/bin' DATASET_WORK='$TMP/work' MARGIN=3 dataset N=16 SHARD=16 SEED=2 DEVICE=all CHECK=none OUT='$TMP/d' >/dev/null && ! cmp -s '$TMP/a/data/train-00000-of-00001.jsonl' '$TMP/d/data/train-00000-of-00001.jsonl'"

if krun --device cuda --compile-only t/run/abi.kir t/run/abi.cu >/dev/null 2>&1; [ $? = 77 ]; then
	mk dataset N=2 SHARD=2 DEVICE=cuda CHECK=full OUT="$TMP/cu" >"$TMP/cu.out" 2>&1
	is "DEVICE=cuda CHECK=full without NVRTC fails" "$?" 2
	ok "and says NVRTC is missing" grep -q 'needs NVRTC' "$TMP/cu.out"
	ok "and writes no dataset" test ! -e "$TMP/cu/README.md"
else
	skip "DEVICE=cuda CHECK=full without NVRTC" "NVRTC is here"
	ok "DEVICE=cuda CHECK=full with NVRTC" mk dataset N=3 SHARD=3 MARGIN=0 DEVICE=cuda CHECK=full OUT="$TMP/cu"
	ok "one NVRTC program per shard" test -s "$(dirname "$(ls -t "$TMP"/work/*/.t0 | head -1)")/0/shard.b.cu"
	ok "cuda records, all checks true" python3 -c '
import json, glob, sys
recs = [json.loads(l) for f in glob.glob(sys.argv[1] + "/data/*.jsonl") for l in open(f)]
assert len(recs) == 3 and all(r["device"] == "cuda" and all(r["meta"]["checks"].values()) for r in recs)
' "$TMP/cu"
fi
done_testing
