#!/bin/bash
# bench/bench_cuda.sh: GPU kernel times of ksynth beside Warp's own, into
# bench/RESULTS.md (`make bench-cuda`).
#
#   bash bench/bench_cuda.sh BIN WORK OUT
#
# BIN holds the tools, WORK is a scratch folder, OUT the Markdown file whose
# section between the bench-cuda markers is written (the rest is kept).
# Every sample and GEN_N kgen kernels a category (seed 1) run at DIM with
# `krun --device cuda --grad --bench REPS` (forward and backward kernels,
# REPS launches back to back between two CUDA events, after one untimed
# launch), and the same files through bench/warp_bench.py in WARP_PY's
# Warp on the same GPU.  Every int scalar is 64 on both sides (krun
# --set), so that a loop it bounds stays short at dim 1M.
#
# Environment: DIM (default 1000000), REPS (20), GEN_N (5), WARP_PY (a
# Python with warp-lang; without it, or when Warp cannot use the GPU, the
# section says why and has ksynth's times only), WARP_SKIP (a file holding
# why the Warp venv could not be made), DEVICE (cuda; sim or cpu try the
# script without a GPU, and then OUT must not be bench/RESULTS.md),
# SAMPLES (the sample files, a glob under the repository; samples/*/*.py).
# Without a GPU: exit 1 with krun's reason, OUT untouched.
set -uo pipefail
BIN=$(cd "$1" && pwd)
WORK=$2
OUT=$3
DIM=${DIM:-1000000}
REPS=${REPS:-20}
GEN_N=${GEN_N:-5}
DEVICE=${DEVICE:-cuda}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
export PATH=$BIN:$PATH
note() { printf 'bench-cuda: %s\n' "$*" >&2; }

case $DEVICE in
cuda) ;;
cpu | sim)
	[ "$(realpath -m "$OUT")" != "$(realpath -m "$ROOT/bench/RESULTS.md")" ] ||
		{ note "DEVICE=$DEVICE is a dry run: give another OUT than bench/RESULTS.md"; exit 2; } ;;
*) note "DEVICE=$DEVICE: cuda, sim or cpu"; exit 2 ;;
esac

# a GPU, or a clear no
if [ "$DEVICE" = cuda ]; then
	if ! krun --device cuda --bench 1 --dim 1 "$ROOT/t/run/abi.kir" "$ROOT/t/run/abi.cu" >/dev/null 2>"$WORK.probe"; then
		note "make bench-cuda needs a GPU: $(head -1 "$WORK.probe")"
		rm -f "$WORK.probe"
		exit 1
	fi
	rm -f "$WORK.probe"
fi
rm -rf "$WORK"
mkdir -p "$WORK/gen"
WORK=$(cd "$WORK" && pwd)

# the files: every sample, GEN_N kgen kernels a category
files=()
for py in "$ROOT"/${SAMPLES:-samples/*/*.py}; do files+=("$py"); done
for c in arithmetic math vector matrix control_flow loop atomic function inplace combined; do
	mkdir -p "$WORK/gen/$c"
	kgen -c $c -s 1 -n "$GEN_N" --split "$WORK/gen/$c" >/dev/null || { note "kgen failed"; exit 1; }
done
for py in "$WORK"/gen/*/*.py; do files+=("$py"); done

# ksynth: one krun a file
note "ksynth: ${#files[@]} files at dim $DIM on $DEVICE"
: >"$WORK/ksynth.jsonl"
for py in "${files[@]}"; do
	# int parameters are set to 64 (a loop bound of n runs 64 times); a
	# kernel of R dimensions runs on about DIM threads, DIM^(1/R) along each
	# (krun's plain --dim N would give N along each), so a file with such
	# kernels runs one krun a kernel: lines "NAME DIMS SETS..." ("-": all);
	# a kernel on tiles launches blocks of 64 threads, DIM/64 of them
	runs=$(kparse "$py" 2>/dev/null | awk -v n="$DIM" '
		/^kernel @/ { name = substr($2, 2); sub(/\(.*/, "", name); r = 1; ks = ""; tiled = 0
			line = $0
			while (match(line, /%[A-Za-z_0-9]*: int[,)]/)) {
				p = substr(line, RSTART + 1, RLENGTH - 1); sub(/: int.$/, "", p)
				ks = ks " --set " p "=64"; all[p] = 1
				line = substr(line, RSTART + RLENGTH) } }
		/= tid / { k = gsub(/: int/, "&"); if (k > r) r = k }
		/: tile\(/ { tiled = 1 }
		/^}/ && name != "" { m = tiled ? (n >= 128 ? int(n / 64) : 2) : n
			e = int(exp(log(m) / r) + 0.5); s = r > 1 ? e : m
			for (i = 1; i < r; i++) s = s "x" e
			out = out name " " s ks "\n"; nd += r > 1 || tiled; name = "" }
		END { if (nd) { printf "%s", out; exit }
			printf "- %d", n; for (p in all) printf " --set %s=64", p; print "" }')
	: >"$WORK/one.jsonl"
	: >"$WORK/one.err"
	ok=1
	while read -r kname kdim ksets; do
		[ "$kname" = - ] && kname=
		# shellcheck disable=SC2086
		krun --device "$DEVICE" --grad --bench "$REPS" --dim "$kdim" --timeout 600 $ksets \
			${kname:+--kernel "$kname"} "$py" >>"$WORK/one.jsonl" 2>>"$WORK/one.err" || ok=0
	done <<<"$runs"
	if [ $ok = 1 ]; then
		python3 -c 'import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line); r["file"] = sys.argv[2]; print(json.dumps(r))' "$WORK/one.jsonl" "$py" >>"$WORK/ksynth.jsonl"
	else
		python3 -c 'import json, sys; print(json.dumps({"file": sys.argv[1], "kernel": None, "error": sys.argv[2]}))' \
			"$py" "$(grep -m1 -v '^[[:space:]]*$' "$WORK/one.err")" >>"$WORK/ksynth.jsonl"
	fi
done

# Warp: one process for all
WARP_WHY=
: >"$WORK/warp.jsonl"
if [ -z "${WARP_PY:-}" ] || [ ! -x "${WARP_PY:-}" ]; then
	WARP_WHY="no Warp venv${WARP_SKIP:+: $(cat "$WARP_SKIP" 2>/dev/null)}"
else
	note "Warp: the same files with $WARP_PY"
	if ! WARP_CACHE=$WORK/warp-cache "$WARP_PY" "$ROOT/bench/warp_bench.py" --device "${DEVICE/sim/cpu}" \
		--dim "$DIM" --reps "$REPS" --int 64 "${files[@]}" >"$WORK/warp.out" 2>"$WORK/warp.err"; then
		WARP_WHY="bench/warp_bench.py failed: $(grep -v '^[[:space:]]*$' "$WORK/warp.err" | tail -1)"
	fi
	grep '^{' "$WORK/warp.out" >"$WORK/warp.jsonl" 2>/dev/null
fi
[ -z "$WARP_WHY" ] || note "Warp's times left out: $WARP_WHY"

# the section
GPU=$DEVICE
if [ "$DEVICE" = cuda ] && command -v nvidia-smi >/dev/null; then
	GPU=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)
	GPU="$GPU (name, driver); CUDA $(nvidia-smi 2>/dev/null | grep -o 'CUDA Version: [0-9.]*' | cut -d' ' -f3)"
fi
WARP_VER=
[ -z "$WARP_WHY" ] && WARP_VER=$("$WARP_PY" -c 'import warp; print(warp.config.version)' 2>/dev/null)
python3 "$ROOT/bench/cuda_table.py" "$WORK/ksynth.jsonl" "$WORK/warp.jsonl" "$ROOT" \
	"$(date -u +%Y-%m-%d)" "$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null)" "$GPU" \
	"$DEVICE" "$DIM" "$REPS" "$GEN_N" "$WARP_VER" "$WARP_WHY" >"$WORK/section.md" || exit 1

# into OUT, between the markers (appended the first time)
python3 - "$OUT" "$WORK/section.md" <<'EOP'
import os, sys
out, section = sys.argv[1], open(sys.argv[2]).read()
begin, end = "<!-- make bench-cuda: from here -->\n", "<!-- make bench-cuda: to here -->\n"
text = open(out).read() if os.path.exists(out) else ""
block = begin + section + end
if begin in text and end in text:
    text = text[:text.index(begin)] + block + text[text.index(end) + len(end):]
else:
    text = text + ("\n" if text and not text.endswith("\n\n") else "") + block
open(out, "w").write(text)
EOP
note "wrote $OUT"
