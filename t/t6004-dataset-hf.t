#!/bin/bash
# The dataset loads with the Hugging Face `datasets` library exactly as
# README.md shows: `load_dataset("dataset/cuda")` from the folder above
# the dataset reads the card's configs, with the splits, counts and fields
# of stats.json and DESIGN.md.
#
# The library comes from $KS_DATASETS_PYTHON when set, else from a venv of
# the build, $KS_BUILD/venv-hf, made on the first run (`pip install
# datasets`, bounded to 10 minutes) and kept: its stamp file says the
# install finished and imports.  SKIP only when pip cannot reach its
# package index (`pip download --no-deps datasets`, bounded in time, says
# so: no network) or python3 cannot make a venv (python3-venv: `make
# deps`).
. "$(dirname "$0")/lib.sh"

KS_BUILD=${KS_BUILD:-$T_ROOT/build}
unset MAKEFLAGS MFLAGS MAKELEVEL # the make that runs the suite passes its own flags
# a private copy of the tools: make dataset never rebuilds them under us
mkdir -p "$TMP/bin" && cp -p "$KS_BIN"/k* "$TMP/bin/"
# the tools' precompiled headers for sim (doc/runtime.md) beside the copy
if [ -d "$KS_BIN/../pch" ]; then ln -s "$KS_BIN/../pch" "$TMP/pch"; fi
KS_SAN=${KS_SAN:-}

# The repository names no network address (no URL, no host name): what is
# fetched is fetched by the package managers (apt, pip) from where they
# are told to look.
if git -C "$T_ROOT" rev-parse --git-dir >/dev/null 2>&1; then
	files() { git -C "$T_ROOT" ls-files -z -co --exclude-standard; }
else
	files() { (cd "$T_ROOT" && find . -path ./build -prune -o -path ./dataset -prune -o -path ./.git -prune -o -type f -print0); }
fi
addr=$(cd "$T_ROOT" && files | xargs -0 grep -I -n -i -E '[a-z][a-z0-9+.-]*://|\b[a-z0-9-]+(\.[a-z0-9-]+)*\.(org|com|net|edu|gov)\b' 2>/dev/null)
is "the repository names no network address" "$addr" ""

venv=$KS_BUILD/venv-hf
stamp=$venv/.ksynth-datasets
py=${KS_DATASETS_PYTHON:-$venv/bin/python}
if [ -z "${KS_DATASETS_PYTHON:-}" ] && ! { [ -f "$stamp" ] && "$py" -c 'import datasets' 2>/dev/null; }; then
	if ! python3 -c 'import ensurepip, venv' 2>/dev/null; then
		skip "load_dataset reads the dataset" "python3 cannot make a venv (apt-get install python3-venv, or make deps)"
		done_testing
	fi
	rm -rf "$venv"
	ok "a venv for datasets: $venv" python3 -m venv "$venv" || done_testing
	# pip itself says whether its index (whatever pip.conf or PIP_INDEX_URL
	# name) can be reached: the wheel alone, bounded in time
	if ! timeout 120 "$venv/bin/pip" download --disable-pip-version-check --no-input --progress-bar off -q \
		--no-deps --timeout 20 --retries 1 -d "$TMP/probe" datasets >"$TMP/probe.log" 2>&1; then
		skip "load_dataset reads the dataset" "pip could not reach its index to install datasets: $({ grep -m1 '^ERROR' "$TMP/probe.log" || tail -n 1 "$TMP/probe.log"; } | cut -c1-160)"
		done_testing
	fi
	ok "pip install datasets (its index is reachable)" timeout 600 "$venv/bin/pip" install --disable-pip-version-check \
		--no-input --progress-bar off -q datasets || done_testing
	ok "the venv imports datasets" "$py" -c 'import datasets' && date >"$stamp"
fi

mkdir -p "$TMP/dataset"
ok "make dataset N=8 CHECK=none DEVICE=cuda OUT=dataset/cuda" make --no-print-directory O="$KS_BUILD" SAN="$KS_SAN" \
	DATASET_BIN="$TMP/bin" DATASET_WORK="$TMP/work" MARGIN=2 N=8 SHARD=4 DEVICE=cuda CHECK=none \
	OUT="$TMP/dataset/cuda" dataset
ok "load_dataset(\"dataset/cuda\"), as README.md: the splits, counts and fields of the card" \
	env HF_HOME="$TMP/hf" HF_DATASETS_OFFLINE=1 sh -c 'cd "$1" && shift && "$@"' - "$TMP" "$py" -c '
import json
from datasets import load_dataset
ds = load_dataset("dataset/cuda")      # train, validation, test
st = json.load(open("dataset/cuda/stats.json"))
assert sorted(ds) == sorted(sp for sp, v in st["splits"].items() if v["records"]), (list(ds), st["splits"])
for sp, v in st["splits"].items():
    if v["records"]:
        assert ds[sp].num_rows == v["records"], (sp, ds[sp].num_rows)
assert sum(ds[sp].num_rows for sp in ds) == 8
r = ds["train"][0]
assert set(r) == {"id", "name", "category", "seed", "source", "ir", "device", "forward", "backward", "meta"}, list(r)
assert r["device"] == "cuda" and "__global__" in r["forward"] and "_cuda_backward" in r["backward"]
assert r["meta"]["checks"] == {"compiled": False, "compiler": "none", "executed": False, "executed_on": "none",
                              "gradcheck": False}, r["meta"]
'
done_testing
