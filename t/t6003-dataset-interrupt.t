#!/bin/bash
# An interrupted make dataset (kill -9 of the whole build at random
# moments) never leaves a truncated file visible, and the next make
# dataset completes to the same bytes as an uninterrupted build.
. "$(dirname "$0")/lib.sh"

KS_BUILD=${KS_BUILD:-$T_ROOT/build}
unset MAKEFLAGS MFLAGS MAKELEVEL # the make that runs the suite passes its own flags
# a private copy of the tools: make dataset never rebuilds them under us
mkdir -p "$TMP/bin" && cp -p "$KS_BIN"/k* "$TMP/bin/"
# the tools' precompiled headers for sim (doc/runtime.md) beside the copy
if [ -d "$KS_BIN/../pch" ]; then ln -s "$KS_BIN/../pch" "$TMP/pch"; fi
KS_SAN=${KS_SAN:-}
args="O=$KS_BUILD SAN=$KS_SAN DATASET_BIN=$TMP/bin MARGIN=2 N=10 SHARD=2 DEVICE=all CHECK=none"

ok "the uninterrupted build" make --no-print-directory $args DATASET_WORK="$TMP/w1" OUT="$TMP/ref" dataset
rm -f "$TMP/ref/timing.json"

valid_json() { # every visible .jsonl line and .json file parses
	python3 - "$@" <<'PY'
import json, sys, glob, os
for d in sys.argv[1:]:
    for f in glob.glob(d + "/**/*.json*", recursive=True):
        if ".tmp." in f:
            continue
        if f.endswith(".jsonl"):
            for line in open(f, encoding="utf-8"):
                json.loads(line)
        elif f.endswith(".json"):
            json.load(open(f))
PY
}

RANDOM=$$
for trial in 1 2 3 4 5; do
	setsid make --no-print-directory $args DATASET_WORK="$TMP/w2" OUT="$TMP/out" -j2 dataset >/dev/null 2>&1 &
	pid=$!
	sleep "0.$((RANDOM % 9 + 1))"
	kill -9 -- -"$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	ok "trial $trial: killed; every visible JSON file is whole" valid_json "$TMP/out" "$TMP/w2"
done
ok "the build after the kills" make --no-print-directory $args DATASET_WORK="$TMP/w2" OUT="$TMP/out" dataset
rm -f "$TMP/out/timing.json"
ok "gives the same bytes as the uninterrupted one" diff -r "$TMP/ref" "$TMP/out"
done_testing
