#!/bin/bash
# make dataset DECONTAM=warp: the reference is the kernels of Warp's own
# examples and tests, from the warp-lang of mk/warp.mk (doc/dataset.md,
# "Decontamination"), every kernel there signed once into the work
# folder; the card and stats.json name it.  That a kernel like one of the
# reference's is dropped is t/t6008's (DECONTAM=DIR).
. "$(dirname "$0")/env.sh"
# t/lib.sh's TAP functions, with its own scratch folder for env.sh's
rm -rf "$TMP"
. t/lib.sh
cd "$W_ROOT" || exit 1

KS_BUILD=${KS_BUILD:-$W_ROOT/build}
unset MAKEFLAGS MFLAGS MAKELEVEL
mkdir -p "$TMP/bin" && cp -p "$KS_BIN"/k* "$TMP/bin/"
mk() { make --no-print-directory O="$KS_BUILD" SAN="${KS_SAN:-}" DATASET_BIN="$TMP/bin" DATASET_WORK="$TMP/work" \
	N=12 MARGIN=8 SHARD=10 DEVICE=cpu CHECK=none DECONTAM=warp dataset "$@"; }
ok "make dataset DECONTAM=warp" mk OUT="$TMP/d"
v=$("$WARP_PY" -c 'import warp; print(warp.config.version)')
ok "the reference: every kernel of Warp's examples and tests, signed" python3 - "$TMP/work" "$WARP_PY" <<'PY'
import glob, os, subprocess, sys
sig = glob.glob(sys.argv[1] + "/reference-*.sig")
assert len(sig) == 1, sig
w = subprocess.run([sys.argv[2], "-c", "import os, warp; print(os.path.dirname(warp.__file__))"],
                   capture_output=True, text=True, check=True).stdout.strip()
rows = [l.split("\t") for l in open(sig[0])]
files = {r[0].rsplit(":", 1)[0] for r in rows}
assert len(rows) > 1000 and all(f.startswith((w + "/examples/", w + "/tests/")) for f in files), (len(rows), list(files)[:3])
PY
is "stats.json names the reference" "$(python3 -c 'import json, sys; s = json.load(open(sys.argv[1])); print(s["parameters"]["reference"], s["contaminated"] == len(s["contaminated_kernels"]))' "$TMP/d/stats.json")" \
	"Warp $v's examples and tests True"
ok "the card too" grep -q "^A kernel as like one of Warp $v's examples and tests was dropped as well" "$TMP/d/README.md"
done_testing
