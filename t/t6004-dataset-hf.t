#!/bin/bash
# The dataset loads with the Hugging Face `datasets` library exactly as
# the card says: load_dataset(OUT) reads the card's configs.  Uses
# $KS_DATASETS_PYTHON, else python3; SKIP when neither has `datasets`
# (pip install datasets).
. "$(dirname "$0")/lib.sh"

KS_BUILD=${KS_BUILD:-$T_ROOT/build}
unset MAKEFLAGS MFLAGS MAKELEVEL # the make that runs the suite passes its own flags
# a private copy of the tools: make dataset never rebuilds them under us
mkdir -p "$TMP/bin" && cp -p "$KS_BIN"/k* "$TMP/bin/"
KS_SAN=${KS_SAN:-}
py=${KS_DATASETS_PYTHON:-python3}
if ! "$py" -c 'import datasets' 2>/dev/null; then
	skip "load_dataset reads the dataset" "no datasets module for $py (pip install datasets)"
	done_testing
fi
ok "make dataset N=8 CHECK=none DEVICE=all" make --no-print-directory O="$KS_BUILD" SAN="$KS_SAN" DATASET_BIN="$TMP/bin" \
	DATASET_WORK="$TMP/work" MARGIN=2 N=8 SHARD=4 DEVICE=all CHECK=none OUT="$TMP/ds" dataset
ok "load_dataset(OUT): the splits, counts and fields of the card" env HF_HOME="$TMP/hf" HF_DATASETS_OFFLINE=1 "$py" - "$TMP/ds" <<'PY'
import json, sys
from datasets import load_dataset
ds = load_dataset(sys.argv[1])
st = json.load(open(sys.argv[1] + "/stats.json"))
for sp, v in st["splits"].items():
    if v["records"]:
        assert ds[sp].num_rows == v["records"], (sp, ds[sp].num_rows)
r = ds["train"][0]
assert set(r) == {"id", "name", "category", "seed", "source", "ir", "device", "forward", "backward", "meta"}, r.keys()
assert r["meta"]["checks"]["compiled"] is False
PY
done_testing
