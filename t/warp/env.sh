# t/warp/env.sh: what every t/warp test sources.  Runs from the repository
# root with the tools of the build under test first on PATH ($KS_BIN) and
# Warp's virtual environment's python ($WARP_PY, set by `make check-warp`);
# without that python the test says SKIP with the reason (from $WARP_SKIP,
# written when pip could not install Warp) and exits.

set -u
W_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$W_ROOT" || exit 1
KS_BIN=${KS_BIN:-$W_ROOT/build/bin}
WARP_PY=${WARP_PY:-$W_ROOT/build/warp-venv/bin/python}
WARP_CACHE=${WARP_CACHE:-$W_ROOT/build/warp-cache}
WARP_GEN_N=${WARP_GEN_N:-50}
WARP_GEN_SEED=${WARP_GEN_SEED:-1}
PATH=$KS_BIN:$PATH
export PATH KS_BIN WARP_CACHE
if ! "$WARP_PY" -c 'import warp, numpy' >/dev/null 2>&1; then
	why="no Warp: $WARP_PY cannot import warp and numpy"
	[ -s "${WARP_SKIP:-}" ] && why=$(head -1 "$WARP_SKIP")
	echo "1..0 # SKIP $why"
	exit 0
fi
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ks-warp.XXXXXX")
export TMP
trap 'rm -rf "$TMP"' EXIT

# warp_gen CATEGORY...: one module of WARP_GEN_N kernels per category, in
# $TMP/CATEGORY.py (kgen -c CATEGORY -s WARP_GEN_SEED -n WARP_GEN_N).
warp_gen() {
	local c
	for c in "$@"; do
		kgen -c "$c" -s "$WARP_GEN_SEED" -n "$WARP_GEN_N" -o "$TMP/$c.py" || exit 1
	done
}
