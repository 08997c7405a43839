#!/bin/bash
# make dataset gives byte-identical OUT (all but timing.json) whatever -j
# and SHARD; a different SEED gives different records; DEVICE=cuda
# CHECK=full without NVRTC builds, checking the CUDA code on sim alone,
# says so in one line and in the records and card (NVRTC=require stops);
# with NVRTC the records name it.
. "$(dirname "$0")/lib.sh"

KS_BUILD=${KS_BUILD:-$T_ROOT/build}
unset MAKEFLAGS MFLAGS MAKELEVEL # the make that runs the suite passes its own flags
# a private copy of the tools: make dataset never rebuilds them under us
mkdir -p "$TMP/bin" && cp -p "$KS_BIN"/k* "$TMP/bin/"
# the tools' precompiled headers for sim (doc/runtime.md) beside the copy
if [ -d "$KS_BIN/../pch" ]; then ln -s "$KS_BIN/../pch" "$TMP/pch"; fi
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

# Without NVRTC: a driver older than every NVRTC (t/run/fake_cuda.c, CUDA
# 11.8) makes krun take none, as a machine without one does.
mkdir -p "$TMP/drv11" && ${CC:-cc} -shared -fPIC -DVERSION=11080 -o "$TMP/drv11/libcuda.so.1" t/run/fake_cuda.c
LD_LIBRARY_PATH=$TMP/drv11 mk dataset N=2 SHARD=2 DEVICE=cuda CHECK=full OUT="$TMP/nonv" >"$TMP/nonv.out" 2>&1
is "DEVICE=cuda CHECK=full without NVRTC builds" "$?" 0 || diag "$(tail -5 "$TMP/nonv.out")"
# The reason, on the one line: krun's (no NVRTC at all, or none that the
# fake driver supports), then, where there is no toolkit and mk/deps.sh
# could not install NVRTC (no network), why not.
why=$(LD_LIBRARY_PATH=$TMP/drv11 "$TMP/bin/krun" --nvrtc 2>&1 >/dev/null | sed 's/^krun: --nvrtc: //; s/[][\\.*^$]/\\&/g')
pin=$(sed -n 's/^NVRTC_WHEEL=//p' mk/deps.sh)==$(sed -n 's/^NVRTC_VERSION=//p' mk/deps.sh)
deps="pip install $pin failed: .*\|python3 -m venv failed (python3-venv: make deps): .*\|$pin holds no libnvrtc\.so (nvidia/\*/lib/)"
is "... and one line says so, with why" "$(grep -c "^make dataset: no NVRTC ($why\(; \($deps\)\)\?): the CUDA code is checked on sim alone, not compiled by NVRTC" "$TMP/nonv.out")" 1 ||
	diag "$(grep -A1 'no NVRTC' "$TMP/nonv.out")"
ok "... its records: executed on sim, not compiled by NVRTC" python3 -c '
import json, glob, sys
recs = [json.loads(l) for f in glob.glob(sys.argv[1] + "/data/*.jsonl") for l in open(f)]
want = {"compiled": False, "compiler": "none", "executed": True, "executed_on": "sim", "gradcheck": True}
assert len(recs) == 2 and all(r["meta"]["checks"] == want for r in recs), [r["meta"]["checks"] for r in recs]
' "$TMP/nonv"
ok "... the card says nothing ran on a GPU and nothing compiled the CUDA code" \
	grep -Pzq 'Nothing ran on a GPU: the CUDA code is codegen only.*\n(.*\n)*No CUDA compiler compiled it: there was no NVRTC' "$TMP/nonv/README.md"
LD_LIBRARY_PATH=$TMP/drv11 mk dataset N=2 SHARD=2 DEVICE=cuda CHECK=full NVRTC=require OUT="$TMP/req" >"$TMP/req.out" 2>&1
is "NVRTC=require without NVRTC fails" "$?" 2
ok "... saying so" grep -q 'make dataset: NVRTC=require, and there is no NVRTC: \(NVRTC (libnvrtc.so) not found\|no NVRTC that the driver\)' "$TMP/req.out"
ok "... and writes no dataset" test ! -e "$TMP/req/README.md"
ok "a bad NVRTC= is an error" bash -c "! make --no-print-directory O='$KS_BUILD' dataset DEVICE=cuda NVRTC=maybe OUT='$TMP/x' 2>/dev/null"

if nv=$(krun --nvrtc 2>"$TMP/nv.err"); then
	nv=$(echo "$nv" | sed 's/:.*//')
	ok "DEVICE=cuda CHECK=full with NVRTC" mk dataset N=3 SHARD=3 MARGIN=3 DEVICE=cuda CHECK=full OUT="$TMP/cu"
	ok "one NVRTC program per shard" test -s "$(dirname "$(ls -t "$TMP"/work/*/.run | head -1)")/0/shard.b.cu"
	ok "cuda records: every check passed, compiled by $nv, executed on sim" python3 -c '
import json, glob, sys
recs = [json.loads(l) for f in glob.glob(sys.argv[1] + "/data/*.jsonl") for l in open(f)]
want = {"compiled": True, "compiler": sys.argv[2], "executed": True, "executed_on": "sim", "gradcheck": True}
assert len(recs) == 3 and all(r["device"] == "cuda" and r["meta"]["checks"] == want for r in recs), recs[0]["meta"]
' "$TMP/cu" "$nv"
	ok "... the card names $nv and says nothing ran on a GPU" \
		grep -Pzq "Nothing ran on a GPU: the CUDA code is codegen only.*\n(.*\n)*$nv compiled it to an sm_90 cubin" "$TMP/cu/README.md"
	touch "$TMP/stamp"
	LD_LIBRARY_PATH=$TMP/drv11 mk dataset N=3 SHARD=3 MARGIN=3 DEVICE=cuda CHECK=full OUT="$TMP/cu" >/dev/null 2>&1
	ok "NVRTC gone: the shards are checked again, their records say so" python3 -c '
import json, glob, sys
recs = [json.loads(l) for f in glob.glob(sys.argv[1] + "/data/*.jsonl") for l in open(f)]
assert len(recs) == 3 and all(r["meta"]["checks"]["compiler"] == "none" for r in recs), recs[0]["meta"]
' "$TMP/cu"
else
	skip "DEVICE=cuda CHECK=full with NVRTC" "$(cat "$TMP/nv.err")"
fi
done_testing
