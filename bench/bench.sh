#!/bin/bash
# bench/bench.sh: the figures of bench/RESULTS.md (`make bench`).
#
#   bash bench/bench.sh BIN WORK OUT
#
# BIN holds the tools, WORK is a scratch folder, OUT the Markdown file to
# write.  Environment: RUNS (repeats of the timed runs, default 3), WARP_PY
# (a Python with warp-lang; its codegen is timed beside ksynth's when set),
# DS_N (records of the verified dataset build, default 2000), NOOP_N
# (records of the no-op rebuild, default 10000), SCALE (codegen sizes,
# default "1000 10000 100000"), RSS_N (section d's large module, default
# 100000), BEFORE (a commit: sections a's and f's figures
# for the code it builds too, beside this tree's; unset: this tree's
# only), SECTIONS (the sections to run, default "a b c d e f"; when not all,
# OUT keeps its other sections and those run replace theirs, each stamped
# with its own date, commit and parameters).  Each figure is the median of RUNS runs unless it says
# otherwise; every command is printed in the results.  Section h (the
# confinement's cost) takes H_N (default 1000) and H_RUNS (default 2) for
# the dataset builds, H_K (default 60) and H_PAIRS (default 10) for krun
# alone.  Section j (variety) measures VAR_N (default 10000) kernels of
# kgen.
set -euo pipefail
BT='`'
BIN=$(cd "$1" && pwd)
WORK=$2
OUT=$3
RUNS=${RUNS:-3}
DS_N=${DS_N:-2000}
NOOP_N=${NOOP_N:-10000}
SCALE=${SCALE:-1000 10000 100000}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BEFORE=${BEFORE:-}
SECTIONS=${SECTIONS:-a b c d e f h j}
VAR_N=${VAR_N:-10000}
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
MD=$WORK/results.md
: >"$MD"

say() { printf '%s\n' "$*" >>"$MD"; }
note() { printf 'bench: %s\n' "$*" >&2; }
now() { date +%s.%N; }
# median of the numbers on stdin
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
fmt() { awk -v x="$1" 'BEGIN { printf "%.3g", x }'; }
# has X: section X is to run
has() { case " $SECTIONS " in *" $1 "*) return 0 ;; esac; return 1; }
PART=
for x in a b c d e f h j; do has $x || PART=1; done
# stamp: under a section's heading when only some sections run, what the
# header says for a whole run
stamp() {
	[ -n "$PART" ] || return 0
	say "Run on its own by ${BT}make bench SECTIONS=\"$SECTIONS\" RUNS=$RUNS DS_N=$DS_N${BEFORE:+ BEFORE=$BEFORE}${BT} on"
	say "$(date -u +%Y-%m-%d), commit ${BT}$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)${BT}, load average at the start $LOAD0"
	say "(the header's machine; the other sections are from the header's run)."
	say ""
}
LOAD0=$(cut -d' ' -f1-3 /proc/loadavg)

# codegen DIR N FIRST: the whole chain for kernels [FIRST, FIRST+N) in DIR,
# one process after another (one core); prints the seconds
codegen() {
	local d=$1 n=$2 first=$3 bin=${4:-$BIN} t0
	mkdir -p "$d"
	t0=$(now)
	"$bin/kgen" -c all -s 1 -n "$n" --first "$first" -o "$d/k.py"
	"$bin/kparse" "$d/k.py" -o "$d/k.kir"
	"$bin/kdiff" "$d/k.kir" -o "$d/k.d.kir"
	"$bin/kemit-cpu" "$d/k.d.kir" -o "$d/k.c"
	"$bin/kemit-cu" "$d/k.d.kir" -o "$d/k.cu"
	awk -v a="$t0" -v b="$(now)" 'BEGIN { print b - a }'
}

# codegen2 N: the same split in two halves run at once (-j2)
codegen2() {
	local n=$1 h=$(($1 / 2)) t0
	t0=$(now)
	codegen "$WORK/cg/a" "$h" 0 >/dev/null &
	codegen "$WORK/cg/b" $((n - h)) "$h" >/dev/null &
	wait
	awk -v a="$t0" -v b="$(now)" 'BEGIN { print b - a }'
}

cpu=$(awk -F: '/model name/ { sub(/^ */, "", $2); print $2; exit }' /proc/cpuinfo)
mem=$(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)
say "# ksynth benchmarks"
say ""
say "Written by ${BT}make bench${BT} (bench/bench.sh) on $(date -u +%Y-%m-%d), commit"
say "${BT}$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)${BT}."
say ""
say "Machine: $cpu, $(nproc) cores, $mem, $(. /etc/os-release && echo "$PRETTY_NAME"),"
say "$(cc --version | head -1), $(nvcc --version 2>/dev/null | tail -2 | head -1 || echo 'no nvcc')."
say "Figures are medians of $RUNS runs unless marked; times are wall-clock."
say "Parameters: RUNS=$RUNS WN=${WN:-1000} DS_N=$DS_N NOOP_N=$NOOP_N SCALE=\"$SCALE\" BEFORE=${BEFORE:-none};"
say "load average at the start: $LOAD0."
say ""

# The tools of commit BEFORE, built in WORK/before (sections a and f).
BBIN=
if [ -n "$BEFORE" ]; then
	note "building $BEFORE"
	rm -rf "$WORK/before"
	mkdir -p "$WORK/before"
	git -C "$ROOT" archive "$BEFORE" | tar -x -C "$WORK/before"
	make -s -C "$WORK/before" -j"$(nproc)" >"$WORK/before.log" 2>&1 || { cat "$WORK/before.log" >&2; exit 1; }
	BBIN=$WORK/before/build/bin
fi

# ---- a. codegen throughput ---------------------------------------------------
CG_N=${CG_N:-10000}
if has a; then
	note "codegen throughput"
	: >"$WORK/cg1.runs"
	: >"$WORK/cgb.runs"
	for r in $(seq "$RUNS"); do
		[ -z "$BBIN" ] || codegen "$WORK/cg/before" $CG_N 0 "$BBIN" >>"$WORK/cgb.runs"
		codegen "$WORK/cg/one" $CG_N 0 >>"$WORK/cg1.runs"
	done
	median <"$WORK/cg1.runs" >"$WORK/cg1"
	for r in $(seq "$RUNS"); do codegen2 $CG_N; done | median >"$WORK/cg2"
	t1=$(cat "$WORK/cg1") t2=$(cat "$WORK/cg2")
	say "## a. Codegen throughput"
	say ""
	stamp
	say "The chain ${BT}kgen -c all -s 1 -n $CG_N | kparse | kdiff | kemit-cpu + kemit-cu${BT} (files"
	say "between the steps, no compile): a pair is one kernel's forward and backward"
	say "code for both targets."
	say ""
	say "| run | seconds | pairs/s |"
	say "|---|---|---|"
	if [ -n "$BBIN" ]; then
		tb=$(median <"$WORK/cgb.runs")
		say "| one core, the tools of ${BT}$BEFORE${BT} (runs alternating with the next row's) | $(fmt "$tb") | $(fmt "$(awk -v n=$CG_N -v t="$tb" 'BEGIN { print n / t }')") |"
	fi
	say "| one core | $(fmt "$t1") | $(fmt "$(awk -v n=$CG_N -v t="$t1" 'BEGIN { print n / t }')") |"
	say "| two halves at once (-j2) | $(fmt "$t2") | $(fmt "$(awk -v n=$CG_N -v t="$t2" 'BEGIN { print n / t }')") |"
	say ""
	if [ -n "${WARP_PY:-}" ] && "$WARP_PY" -c 'import warp' 2>/dev/null; then
		WN=${WN:-1000}
		"$BIN/kgen" -c all -s 1 -n $WN -o "$WORK/warp.py"
		"$WARP_PY" "$ROOT/bench/warp_codegen.py" "$WORK/warp.py" "$RUNS" 2>"$WORK/warp.err" | tail -1 >"$WORK/warp.json"
		for r in $(seq "$RUNS"); do codegen "$WORK/cg/w" $WN 0; done | median >"$WORK/cgw"
		read -r wl wb wc wu < <(python3 -c '
import json, statistics, sys
r = json.load(open(sys.argv[1]))["runs"]
print(*(statistics.median(x[k] for x in r) for k in ("load", "build", "cpu", "cuda")))' "$WORK/warp.json")
		tk=$(cat "$WORK/cgw")
		tw=$(awk -v a="$wl" -v b="$wb" -v c="$wc" -v d="$wu" 'BEGIN { print a + b + c + d }')
		say "NVIDIA Warp $("$WARP_PY" -c 'import warp; print(warp.__version__)' 2>/dev/null) on the same $WN kernel sources, in the same run"
		say "(bench/warp_codegen.py: Python loads the module, Warp's ModuleBuilder builds"
		say "every forward and adjoint, then writes the CPU and the CUDA source; nothing"
		say "is compiled):"
		say ""
		say "| $WN kernels | seconds | pairs/s | ms per kernel |"
		say "|---|---|---|---|"
		say "| Warp: load | $(fmt "$wl") | | $(fmt "$(awk -v t="$wl" -v n=$WN 'BEGIN { print 1000 * t / n }')") |"
		say "| Warp: build | $(fmt "$wb") | | $(fmt "$(awk -v t="$wb" -v n=$WN 'BEGIN { print 1000 * t / n }')") |"
		say "| Warp: codegen cpu | $(fmt "$wc") | | $(fmt "$(awk -v t="$wc" -v n=$WN 'BEGIN { print 1000 * t / n }')") |"
		say "| Warp: codegen cuda | $(fmt "$wu") | | $(fmt "$(awk -v t="$wu" -v n=$WN 'BEGIN { print 1000 * t / n }')") |"
		say "| **Warp, all** | $(fmt "$tw") | $(fmt "$(awk -v n=$WN -v t="$tw" 'BEGIN { print n / t }')") | $(fmt "$(awk -v t="$tw" -v n=$WN 'BEGIN { print 1000 * t / n }')") |"
		say "| **ksynth, whole chain** | $(fmt "$tk") | $(fmt "$(awk -v n=$WN -v t="$tk" 'BEGIN { print n / t }')") | $(fmt "$(awk -v t="$tk" -v n=$WN 'BEGIN { print 1000 * t / n }')") |"
		say ""
		say "Ratio (Warp time / ksynth time, one core each): **$(fmt "$(awk -v a="$tw" -v b="$tk" 'BEGIN { print a / b }')")x**."
	else
		say "Warp's codegen was not timed: no Python with warp-lang (WARP_PY=${WARP_PY:-unset})."
	fi
	say ""
fi

# ---- d. peak RSS ---------------------------------------------------------------
if has d; then
	note "peak RSS"
	say "## d. Peak RSS on a $CG_N-kernel input"
	say ""
	stamp
	say "| tool | command | peak RSS (MB) | seconds |"
	say "|---|---|---|---|"
	D=$WORK/cg/one
	[ -f "$D/k.d.kir" ] || codegen "$D" $CG_N 0 >/dev/null
	rss() {
		local name=$1
		shift
		/usr/bin/time -f '%M %e' -o "$WORK/rss" "$@" >/dev/null
		read -r kb s <"$WORK/rss"
		local cmd="${*/#$BIN\//}"
		say "| $name | ${BT}${cmd//$WORK\//}${BT} | $(awk -v k="$kb" 'BEGIN { printf "%.1f", k / 1024 }') | $s |"
	}
	rss kgen "$BIN/kgen" -c all -s 1 -n $CG_N -o "$WORK/rss.out"
	rss kparse "$BIN/kparse" "$D/k.py" -o "$WORK/rss.out"
	rss kfmt "$BIN/kfmt" --hash "$D/k.kir"
	rss kdiff "$BIN/kdiff" "$D/k.kir" -o "$WORK/rss.out"
	rss kemit-cpu "$BIN/kemit-cpu" "$D/k.d.kir" -o "$WORK/rss.out"
	rss kemit-cu "$BIN/kemit-cu" "$D/k.d.kir" -o "$WORK/rss.out"
	say ""
	# and on RSS_N kernels, whose module is ten times as large
	RSS_N=${RSS_N:-100000}
	say "The same on $RSS_N kernels:"
	say ""
	say "| tool | command | peak RSS (MB) | seconds |"
	say "|---|---|---|---|"
	D=$WORK/cg/big
	codegen "$D" "$RSS_N" 0 >/dev/null
	rss kparse "$BIN/kparse" "$D/k.py" -o "$WORK/rss.out"
	rss kfmt "$BIN/kfmt" --hash "$D/k.kir"
	rss kdiff "$BIN/kdiff" "$D/k.kir" -o "$WORK/rss.out"
	rss kemit-cpu "$BIN/kemit-cpu" "$D/k.d.kir" -o "$WORK/rss.out"
	rss kemit-cu "$BIN/kemit-cu" "$D/k.d.kir" -o "$WORK/rss.out"
	rm -rf "$D" "$WORK/rss.out"
	say ""
fi

# ---- e. scaling ------------------------------------------------------------------
if has e; then
	note "scaling"
	say "## e. Codegen time against N (one core)"
	say ""
	stamp
	say "| N | seconds | µs per kernel |"
	say "|---|---|---|"
	for n in $SCALE; do
		k=$RUNS mark=
		if [ "$n" -gt 10000 ]; then k=1 mark=" (one run)"; fi
		t=$(for r in $(seq "$k"); do codegen "$WORK/cg/s" "$n" 0; done | median)
		say "| $n$mark | $(fmt "$t") | $(fmt "$(awk -v t="$t" -v n="$n" 'BEGIN { print 1e6 * t / n }')") |"
	done
	rm -rf "$WORK/cg"
	say ""
fi

# ---- b. verified dataset against the compiler floor --------------------------------
tds=
if has b || has f; then
	note "make dataset N=$DS_N DEVICE=cuda CHECK=full"
	DSW=$WORK/ds
	rm -rf "$DSW"
	t0=$(now)
	make -s -C "$ROOT" dataset N="$DS_N" DEVICE=cuda CHECK=full OUT="$DSW/out" DATASET_WORK="$DSW/work" DATASET_BIN="$BIN" -j"$(nproc)" >/dev/null 2>"$DSW.log" ||
		{ cat "$DSW.log" >&2; exit 1; }
	tds=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { print b - a }')
fi
# the same build with the tools (and the makefiles) of BEFORE, for f
tdsb=
if has f && [ -n "$BBIN" ]; then
	rm -rf "$WORK/dsb"
	t0=$(now)
	make -s -C "$WORK/before" dataset N="$DS_N" DEVICE=cuda CHECK=full OUT="$WORK/dsb/out" DATASET_WORK="$WORK/dsb/work" DATASET_BIN="$BBIN" -j"$(nproc)" >/dev/null 2>"$WORK/dsb.log" ||
		{ cat "$WORK/dsb.log" >&2; exit 1; }
	tdsb=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { print b - a }')
	rm -rf "$WORK/dsb"
fi
if has b; then
	# The floor: NVRTC on each shard's forward and backward CUDA, and cc -O0 on
	# the shard's C, nothing else, the shards spread over the same cores.
	ls -d "$DSW"/work/*/*/ >"$WORK/shards"
	floor_one() {
		local s=$1 n
		cd "$s"
		: >floor.f.c; : >floor.b.c; : >floor.f.cu; : >floor.b.cu
		for n in $(awk '$3 == "ok" { print $2 }' emit.st); do
			cat "$n.f.c" >>floor.f.c; cat "$n.b.c" >>floor.b.c
			cat "$n.f.cu" >>floor.f.cu; cat "$n.b.cu" >>floor.b.cu
		done
		n=$(awk '$3 == "ok" { print $2; exit }' emit.st)
		{ echo "$(now)"
		"$BIN/krun" --device cuda --compile-only --arch sm_90 "$n.kir" floor.f.cu
		"$BIN/krun" --device cuda --compile-only --arch sm_90 "$n.d.kir" floor.b.cu
		cc -std=c11 -O0 -ffp-contract=off -I"$ROOT/runtime" -c floor.f.c -o /dev/null
		cc -std=c11 -O0 -ffp-contract=off -I"$ROOT/runtime" -c floor.b.c -o /dev/null
		echo "$(now)"; } | awk 'NR == 1 { a = $1 } END { print $1 - a }'
	}
	export -f floor_one now
	export BIN ROOT
	# concatenation is not part of the floor: time the compiles only, summed,
	# then spread over the cores as make -j spreads the shards
	tfl=$(xargs -a "$WORK/shards" -n1 -P1 bash -c 'floor_one "$0"' | awk -v p="$(nproc)" '{ s += $1 } END { print s / p }')
	say "## b. ${BT}make dataset N=$DS_N DEVICE=cuda CHECK=full${BT} against the compiler floor"
	say ""
	stamp
	say "One run (not a median: it is long).  The build includes generation, the"
	say "per-kernel tools, NVRTC, the CPU and sim runs and the gradient checks, on"
	say "$(nproc) cores (${BT}-j$(nproc)${BT}).  The floor is what no verified CUDA dataset can avoid:"
	say "for each shard, NVRTC compiling its forward and its backward CUDA to an"
	say "sm_90 cubin (one program each) and cc -O0 compiling its forward and backward"
	say "C, summed over the shards and divided by the $(nproc) cores."
	say ""
	say "| | seconds |"
	say "|---|---|"
	say "| make dataset | $(fmt "$tds") |"
	say "| compiler floor | $(fmt "$tfl") |"
	say "| **ratio** | **$(fmt "$(awk -v a="$tds" -v b="$tfl" 'BEGIN { print a / b }')")x** |"
	say ""
fi
rm -rf "$WORK/ds"

# ---- c. no-op rebuild ----------------------------------------------------------------
if has c; then
	note "no-op rebuild at N=$NOOP_N"
	NW=$WORK/noop
	rm -rf "$NW"
	make -s -C "$ROOT" dataset N="$NOOP_N" DEVICE=cpu CHECK=none OUT="$NW/out" DATASET_WORK="$NW/work" DATASET_BIN="$BIN" -j"$(nproc)" >/dev/null 2>"$NW.log" ||
		{ cat "$NW.log" >&2; exit 1; }
	tno=$(for r in $(seq "$RUNS"); do
		t0=$(now)
		make -s -C "$ROOT" dataset N="$NOOP_N" DEVICE=cpu CHECK=none OUT="$NW/out" DATASET_WORK="$NW/work" DATASET_BIN="$BIN" -j"$(nproc)" >/dev/null 2>&1
		awk -v a="$t0" -v b="$(now)" 'BEGIN { print b - a }'
	done | median)
	say "## c. No-op rebuild"
	say ""
	stamp
	say "${BT}make dataset N=$NOOP_N DEVICE=cpu CHECK=none${BT} again after it completed (the"
	say "graph has the same shards and steps whatever CHECK is): **$(fmt "$tno") s**."
	say ""
	rm -rf "$NW"
fi

# ---- f. adjoints ------------------------------------------------------------------------
if has f; then
	note "adjoints"
	AD=$WORK/adj
	rm -rf "$AD"
	mkdir -p "$AD"
	# trees: "after BIN RUNTIME" and, with BEFORE, "before BBIN ITS-RUNTIME"
	trees="after"
	[ -z "$BBIN" ] || trees="before after"
	tbin() { if [ "$1" = before ]; then echo "$BBIN"; else echo "$BIN"; fi; }
	trt() { if [ "$1" = before ]; then echo "$WORK/before/runtime"; else echo "$ROOT/runtime"; fi; }
	say "## f. Adjoints: the backward code and its cost"
	say ""
	stamp
	if [ -n "$BEFORE" ]; then
		say "Before: the tools of commit ${BT}$BEFORE${BT}, built from ${BT}git archive $BEFORE${BT} in"
		say "the scratch folder; after: this tree's.  Every figure below is taken with both in the same run."
	else
		say "This tree's tools only (set BEFORE=COMMIT for the figures of an earlier commit beside them)."
	fi
	say ""

	# code lines of the CUDA thread functions
	"$BIN/kgen" -c all -s 1 -n 1000 -o "$AD/g.py"
	say "**Code lines** of the CUDA thread functions over ${BT}kgen -c all -s 1 -n 1000${BT}"
	say "(${BT}kparse | kdiff | kemit-cu${BT}, then ${BT}python3 t/diff/scan.py --lines k.cu${BT}: lines"
	say "not blank, not only a comment or a brace, of each kernel's ${BT}K_thread${BT} and"
	say "${BT}K_backward_thread${BT}):"
	say ""
	say "| code | forward lines | backward lines | median backward/forward | largest (kernel) |"
	say "|---|---|---|---|---|"
	for t in $trees; do
		b=$(tbin $t)
		"$b/kparse" "$AD/g.py" -o "$AD/$t.kir"
		"$b/kdiff" "$AD/$t.kir" -o "$AD/$t.d.kir"
		"$b/kemit-cu" "$AD/$t.d.kir" -o "$AD/$t.d.cu"
		python3 "$ROOT/t/diff/scan.py" --lines "$AD/$t.d.cu" >"$AD/$t.lines"
		read -r _ med _ max kern < <(tail -1 "$AD/$t.lines")
		read -r fl bl < <(awk 'NF == 4 { f += $2; b += $3 } END { print f, b }' "$AD/$t.lines")
		say "| $t | $fl | $bl | $med | $max ($kern) |"
	done
	say ""

	# NVRTC on a 50-kernel shard
	"$BIN/kgen" -c all -s 1 -n 50 -o "$AD/s.py"
	say "**NVRTC** to an sm_90 cubin for a 50-kernel shard (${BT}kgen -c all -s 1 -n 50${BT};"
	say "${BT}krun --device cuda --compile-only --arch sm_90 k.kir k.cu${BT}, the forward alone from"
	say "${BT}kemit-cu k.kir${BT}, forward and backward from ${BT}kemit-cu k.d.kir${BT}; seconds, the median of $RUNS):"
	say ""
	say "| code | forward | forward + backward | the backward's part |"
	say "|---|---|---|---|"
	for t in $trees; do
		b=$(tbin $t)
		"$b/kparse" "$AD/s.py" -o "$AD/s$t.kir"
		"$b/kdiff" "$AD/s$t.kir" -o "$AD/s$t.d.kir"
		"$b/kemit-cu" "$AD/s$t.kir" -o "$AD/s$t.f.cu"
		"$b/kemit-cu" "$AD/s$t.d.kir" -o "$AD/s$t.d.cu"
		nv() {
			local t0
			t0=$(now)
			"$b/krun" --device cuda --compile-only --arch sm_90 "$@" || return 1
			awk -v a="$t0" -v b="$(now)" 'BEGIN { print b - a }'
		}
		if nv "$AD/s$t.kir" "$AD/s$t.f.cu" >/dev/null 2>"$AD/nv.err"; then
			nf=$(for r in $(seq "$RUNS"); do nv "$AD/s$t.kir" "$AD/s$t.f.cu"; done | median)
			nd=$(for r in $(seq "$RUNS"); do nv "$AD/s$t.d.kir" "$AD/s$t.d.cu"; done | median)
			say "| $t | $(fmt "$nf") | $(fmt "$nd") | $(fmt "$(awk -v a="$nd" -v b="$nf" 'BEGIN { print a - b }')") |"
		else
			say "| $t | no NVRTC: $(head -1 "$AD/nv.err") | | |"
		fi
	done
	say ""

	# run time of the loop kernel's backward against its forward
	LOOP_DIM=${LOOP_DIM:-1024}
	LOOP_BEFORE_DIM=${LOOP_BEFORE_DIM:-16}
	say "**Run time** of the backward against the forward on the cpu, for the loop-carried"
	say "dynamic loop of bench/loop_kernel.py (${BT}p = p * x[i] + wp.sin(p)${BT} over n trips),"
	say "dim $LOOP_DIM: ${BT}kparse | kdiff | kemit-cpu${BT}, then ${BT}cc -O2 -std=c11 -I runtime -include k.c"
	say "bench/loop_grad.c -lm${BT} (${BT}-DNO_TAPE${BT} for a backward without a tape), ${BT}loop_grad N DIM${BT}:"
	say "CPU time of one thread, the fastest of runs lasting 0.2 s at least.  \"backward\" is"
	say "the run with the tape allocated; \"measure\" the run that measures the tape's need, which"
	say "krun makes first (a caller that knows the need, or bounds it, skips it)."
	say ""
	say "| code | n | forward (s) | backward (s) | backward/forward | measure (s) | (backward + measure)/forward |"
	say "|---|---|---|---|---|---|---|"
	for t in $trees; do
		b=$(tbin $t)
		"$b/kparse" "$ROOT/bench/loop_kernel.py" | "$b/kdiff" | "$b/kemit-cpu" -o "$AD/l$t.c"
		def=
		grep -q 'int \*tape)' "$AD/l$t.c" || def=-DNO_TAPE
		cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L $def -I "$(trt $t)" -include "$AD/l$t.c" \
			"$ROOT/bench/loop_grad.c" -o "$AD/l$t" -lm
		for n in 10 100 1000 10000; do
			dim=$LOOP_DIM mark=
			if [ "$t" = before ] && [ "$n" -ge 10000 ]; then
				dim=$LOOP_BEFORE_DIM mark=" (dim $dim)"
			fi
			read -r _ f bw ms < <("$AD/l$t" "$n" "$dim")
			if [ -n "$def" ]; then
				say "| $t | $n$mark | $(fmt "$f") | $(fmt "$bw") | **$(fmt "$(awk -v a="$bw" -v b="$f" 'BEGIN { print a / b }')")** | | |"
			else
				say "| $t | $n | $(fmt "$f") | $(fmt "$bw") | **$(fmt "$(awk -v a="$bw" -v b="$f" 'BEGIN { print a / b }')")** | $(fmt "$ms") | $(fmt "$(awk -v a="$bw" -v m="$ms" -v b="$f" 'BEGIN { print (a + m) / b }')") |"
			fi
		done
	done
	say ""
	[ -z "$BBIN" ] || say "Before, at n = 10000, the backward recomputes the loop from its start for every trip (O(n²)): it runs at dim $LOOP_BEFORE_DIM, the ratio being that of one thread, the same at any dim (the threads run one after the other)."
	[ -z "$BBIN" ] || say ""

	say "**${BT}make dataset N=$DS_N DEVICE=cuda CHECK=full${BT}** wall time, one run each$(has b && echo " (section b's run for after)"):"
	say ""
	say "| code | seconds |"
	say "|---|---|"
	[ -z "$tdsb" ] || say "| before | $(fmt "$tdsb") |"
	say "| after | $(fmt "$tds") |"
	say ""
	[ -z "$PART" ] || { say "Load average at the end of the section: $(cut -d' ' -f1-3 /proc/loadavg)."; say ""; }
	rm -rf "$AD"
fi

# what was changed for these figures, and what each change bought
# the GPU section (make bench-cuda, on a GPU machine) stays as it was
# ---- h. confinement's cost -------------------------------------------------------------
# make dataset N=H_N DEVICE=cuda CHECK=full with this tree's tools and with
# the same tools but for the confinement: a copy of this tree whose
# run_confine and run_seal (runtime/run_confine.c) return at once, so that
# the child that runs the code is forked and waited for as always but has
# no rlimits and no seccomp filter.  H_RUNS runs each, alternating, in the
# same run; wall and CPU seconds (the build's children, user+sys), and the
# CPU seconds of each tool: every tool runs through a wrapper that has
# /usr/bin/time append its line to a log (the same wrapper for both).
if has h; then
	H_N=${H_N:-1000}
	H_RUNS=${H_RUNS:-2}
	note "building this tree without the confinement"
	rm -rf "$WORK/hfree" && mkdir -p "$WORK/hfree"
	git -C "$ROOT" ls-files -z | (cd "$ROOT" && xargs -0 tar -c) | tar -x -C "$WORK/hfree"
	rc=$WORK/hfree/runtime/run_confine.c
	sed -i -e '/^void run_confine(const char \*code, const RunLimits \*lim)$/{n;s/^{$/{\n\t(void)code;\n\t(void)lim;\n\treturn;/}' \
		-e '/^void run_seal(void)$/{n;s/^{$/{\n\treturn;/}' "$rc"
	[ "$(grep -c '^	return;$' "$rc")" -ge 2 ] || { echo "bench: cannot take the confinement out of $rc" >&2; exit 1; }
	make -s -C "$WORK/hfree" -j"$(nproc)" >"$WORK/hfree.log" 2>&1 || { cat "$WORK/hfree.log" >&2; exit 1; }
	# hwrap NAME BINDIR: WORK/hw.NAME, a wrapper per tool of BINDIR logging to WORK/h.NAME.tools
	hwrap() {
		rm -rf "$WORK/hw.$1" && mkdir -p "$WORK/hw.$1"
		for t in "$2"/*; do
			printf '#!/bin/sh\nexec /usr/bin/time -a -o %s -f "%%U %%S %s" %s "$@"\n' \
				"$WORK/h.$1.tools" "${t##*/}" "$t" >"$WORK/hw.$1/${t##*/}"
			chmod +x "$WORK/hw.$1/${t##*/}"
		done
	}
	# this tree's tools, copied: a rebuild during the run cannot change them
	rm -rf "$WORK/hconf" && cp -r "$BIN" "$WORK/hconf"
	hwrap free "$WORK/hfree/build/bin"
	hwrap confined "$WORK/hconf"
	# hrun NAME: one build with WORK/hw.NAME; prints "wall cpu"
	hrun() {
		rm -rf "$WORK/hds"
		bash -c 't0=$(date +%s.%N)
			make -s -C "$1" dataset N="$2" DEVICE=cuda CHECK=full OUT="$3/out" DATASET_WORK="$3/work" DATASET_BIN="$4" -j"$(nproc)" >/dev/null 2>"$3.log" || exit 1
			t1=$(date +%s.%N)
			times >"$3.times"
			tail -1 "$3.times" | sed "s/m/ /g; s/s//g" | awk -v a="$t0" -v b="$t1" "{ print b - a, \$1 * 60 + \$2 + \$3 * 60 + \$4 }"' _ "$ROOT" "$H_N" "$WORK/hds" "$WORK/hw.$1" ||
			{ cat "$WORK/hds.log" >&2; exit 1; }
	}
	# krun alone, paired: H_K kernels of kgen -c all -s 3, one file each, through
	# krun --gradcheck --batch with each build in turn, H_PAIRS pairs; CPU s
	H_K=${H_K:-60}
	H_PAIRS=${H_PAIRS:-10}
	rm -rf "$WORK/hk" && mkdir -p "$WORK/hk"
	for i in $(seq 0 $((H_K - 1))); do
		"$BIN/kgen" -c all -s 3 -n 1 --first "$i" >"$WORK/hk/k$i.py"
		"$BIN/kparse" "$WORK/hk/k$i.py" | "$BIN/kdiff" >"$WORK/hk/k$i.kir"
		"$BIN/kemit-cpu" "$WORK/hk/k$i.kir" >"$WORK/hk/k$i.c"
		echo "k$i.kir k$i.c k$i.json"
	done >"$WORK/hk/list"
	# hk BINDIR: CPU seconds of one krun --gradcheck --batch over the list
	hk() {
		(cd "$WORK/hk" && /usr/bin/time -f "%U %S" -o "$WORK/hk.t" "$1/krun" --gradcheck --batch list >/dev/null) &&
			awk '{ print $1 + $2 }' "$WORK/hk.t"
	}
	: >"$WORK/hk.pairs"
	for r in $(seq "$H_PAIRS"); do
		note "confinement: krun alone, pair $r of $H_PAIRS"
		echo "$(hk "$WORK/hfree/build/bin") $(hk "$WORK/hconf")" >>"$WORK/hk.pairs"
	done
	: >"$WORK/h.free"; : >"$WORK/h.confined"; : >"$WORK/h.free.tools"; : >"$WORK/h.confined.tools"
	for r in $(seq "$H_RUNS"); do
		note "confinement: run $r of $H_RUNS, without then with"
		hrun free >>"$WORK/h.free"
		hrun confined >>"$WORK/h.confined"
	done
	rm -rf "$WORK/hds"
	hw() { cut -d' ' -f1 "$1" | median; }
	hc() { cut -d' ' -f2 "$1" | median; }
	wb=$(hw "$WORK/h.free") wa=$(hw "$WORK/h.confined") cb=$(hc "$WORK/h.free") ca=$(hc "$WORK/h.confined")
	# htool NAME TOOL: TOOL's CPU seconds over NAME's runs, per run
	htool() { awk -v t="$2" -v n="$H_RUNS" '$3 == t { s += $1 + $2 } END { printf "%.1f", s / n }' "$WORK/h.$1.tools"; }
	say "## h. Confinement's cost: ${BT}make dataset N=$H_N DEVICE=cuda CHECK=full${BT}"
	say ""
	stamp
	say "The same build with this tree's tools and with a copy of them whose ${BT}run_confine${BT} and ${BT}run_seal${BT}"
	say "(runtime/run_confine.c) return at once: the child that runs each kernel's code is forked and waited"
	say "for in both, without rlimits and a seccomp filter in the copy.  H_RUNS=$H_RUNS runs each, alternating, in"
	say "one run of the script, $(nproc) cores; medians.  CPU is the build's children's user + system time."
	say ""
	say "| tools | wall s | CPU s |"
	say "|---|---|---|"
	say "| without confinement | $(fmt "$wb") | $(fmt "$cb") |"
	say "| confined | $(fmt "$wa") | $(fmt "$ca") |"
	say "| **ratio** | **$(fmt "$(awk -v a="$wa" -v b="$wb" 'BEGIN { print a / b }')")** | **$(fmt "$(awk -v a="$ca" -v b="$cb" 'BEGIN { print a / b }')")** |"
	say ""
	say "Each run, wall/CPU s: $(paste -d' ' "$WORK/h.free" "$WORK/h.confined" | awk '{ printf "%s(without %s/%s, confined %s/%s)", (NR > 1 ? "; " : ""), $1, $2, $3, $4 }')."
	say ""
	say "CPU seconds of each tool (user + system, its children included; mean per run), from a"
	say "${BT}/usr/bin/time${BT} wrapper around every tool in both builds:"
	say ""
	say "| tool | without | confined |"
	say "|---|---|---|"
	for t in kgen kparse kfmt kdiff kemit-cpu kemit-cu krun kpack; do
		say "| $t | $(htool free "$t") | $(htool confined "$t") |"
	done
	say ""
	# the tools the confinement does not touch: what the machine's load
	# alone moved between the two builds
	ofree=$(awk -v n="$H_RUNS" '$3 != "krun" { s += $1 + $2 } END { printf "%.1f", s / n }' "$WORK/h.free.tools")
	oconf=$(awk -v n="$H_RUNS" '$3 != "krun" { s += $1 + $2 } END { printf "%.1f", s / n }' "$WORK/h.confined.tools")
	say "The tools other than krun, which the confinement does not touch, took $ofree s and $oconf s"
	say "(ratio $(fmt "$(awk -v a="$oconf" -v b="$ofree" 'BEGIN { print a / b }')")): that much of the builds' difference is the machine's"
	say "load, not the confinement.  The paired runs of krun alone below are the finer measure."
	say ""
	say "krun alone, paired: ${BT}krun --gradcheck --batch LIST${BT} over $H_K kernels of ${BT}kgen -c all -s 3${BT}"
	say "(one file each, so one confined child each), the copy's krun and this tree's in turn,"
	say "$H_PAIRS pairs; CPU s (user + system) of each, and the ratio pair by pair:"
	say ""
	say "| | min | median | max |"
	say "|---|---|---|---|"
	hcol() { awk -v c="$1" '{ print $c }' "$WORK/hk.pairs" | sort -g | awk '{ v[NR] = $1 } END { printf "%s %s", v[1], v[NR] }'; }
	hrow() { # NAME COLUMN-OR-RATIO
		local lohi med
		if [ "$2" = r ]; then
			lohi=$(awk '{ print $2 / $1 }' "$WORK/hk.pairs" | sort -g | awk '{ v[NR] = $1 } END { print v[1], v[NR] }')
			med=$(awk '{ print $2 / $1 }' "$WORK/hk.pairs" | median)
		else
			lohi=$(hcol "$2")
			med=$(awk -v c="$2" '{ print $c }' "$WORK/hk.pairs" | median)
		fi
		say "| $1 | $(fmt "${lohi%% *}") | $(fmt "$med") | $(fmt "${lohi##* }") |"
	}
	hrow "without confinement" 1
	hrow "confined" 2
	hrow "**ratio**" r
	say ""
fi

# ---- j. variety ---------------------------------------------------------------------------
# kgen's kernels as a training-data team measures them (doc/dataset.md,
# "Near duplicates"; bench/variety.py): VAR_N kernels of kgen -c all -s 7
# --verify; their near duplicates at NEAR 0.5, 0.7 and 0.9 (kpack near);
# with Warp (WARP_PY): those like a kernel of Warp's examples or tests, and
# how their wp.* calls, float literals, helpers and tiles compare with
# Warp's examples and library (warp/_src).
if has j; then
	note "j: variety"
	VD=$WORK/variety
	rm -rf "$VD" && mkdir -p "$VD"
	t0=$(now)
	"$BIN/kgen" -c all -s 7 -n "$VAR_N" --verify -o "$VD/k.py"
	tgen=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { print b - a }')
	t0=$(now)
	"$BIN/kpack" signatures -o "$VD/k.sig" "$VD/k.py"
	for j in 0.5 0.7 0.9; do "$BIN/kpack" near --near $j "$VD/k.sig" >"$VD/near.$j"; done
	tnear=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { print b - a }')
	say "## j. Variety: near duplicates and real code"
	say ""
	stamp
	say "${BT}kgen -c all -s 7 -n $VAR_N --verify${BT} ($(fmt "$tgen") s), then ${BT}kpack signatures${BT} and"
	say "${BT}kpack near --near J${BT} ($(fmt "$tnear") s for the three): the kernels a dataset drops as near"
	say "duplicates of an earlier one (doc/dataset.md, \"Near duplicates\")."
	say ""
	say "| NEAR | kernels | near duplicates | share |"
	say "|---|---|---|---|"
	for j in 0.5 0.7 0.9; do
		read -r _ n _ d pct _ <"$VD/near.$j"
		say "| $j | $n | $d | ${pct//[()]/} |"
	done
	say ""
	if [ -n "${WARP_PY:-}" ]; then
		W=$("$WARP_PY" -c 'import os, warp; print(os.path.dirname(warp.__file__))')
		V=$("$WARP_PY" -c 'import warp; print(warp.config.version)')
		find "$W/examples" "$W/tests" -name '*.py' | LC_ALL=C sort >"$VD/ref.list"
		xargs "$BIN/kpack" signatures -o "$VD/ref.sig" <"$VD/ref.list"
		"$BIN/kpack" near --reference "$VD/ref.sig" "$VD/k.sig" >"$VD/cont"
		"$BIN/kpack" near "$VD/ref.sig" >"$VD/refnear"
		read -r _ rn _ rd rpct _ <"$VD/refnear"
		say "Against Warp $V's examples and tests ($(wc -l <"$VD/ref.sig") kernels in $(wc -l <"$VD/ref.list") files, the"
		say "reference of ${BT}make dataset DECONTAM=${BT}): $(sed 's/.*contaminated \([0-9]*\) (\([^)]*\)).*/\1 of kgen'"'"'s kernels (\2)/' "$VD/cont") are as"
		say "like one of them as 0.7. Warp's own kernels there are ${rpct//[()]/} near duplicates of one"
		say "another at 0.7 ($rd of $rn)."
		say ""
		python3 "$ROOT/bench/variety.py" --name "kgen -c all -s 7 -n $VAR_N --verify" \
			--real "$W/examples" --real "$W/_src" "$VD/k.py" | sed "s|$W/|warp/|g" >>"$MD"
		say ""
	else
		say "(No WARP_PY: nothing measured against Warp's kernels.)"
		say ""
	fi
	[ -z "$PART" ] || { say "Load average at the end of the section: $(cut -d' ' -f1-3 /proc/loadavg)."; say ""; }
fi

keep_cuda() {
	[ -f "$OUT" ] && grep -q '^<!-- make bench-cuda: from here -->$' "$OUT" || return 0
	say ""
	sed -n '/^<!-- make bench-cuda: from here -->$/,/^<!-- make bench-cuda: to here -->$/p' "$OUT" >>"$MD"
}
if [ -z "$PART" ] || [ ! -f "$OUT" ]; then
	[ ! -f "$ROOT/bench/changes.md" ] || cat "$ROOT/bench/changes.md" >>"$MD"
	keep_cuda
	mv "$MD" "$OUT"
else
	# the sections run replace theirs in OUT (a section OUT lacks goes
	# before the changes), OUT's header and other sections stay
	python3 - "$OUT" "$MD" <<'PY'
import re, sys
def sections(text):
    parts = re.split(r"(?m)^(?=## )", text)
    return parts[0], parts[1:]
out, new = (open(f).read() for f in sys.argv[1:3])
head, old = sections(out)
_, run = sections(new)
key = lambda s: re.match(r"## (\w)\. ", s).group(1) if re.match(r"## \w\. ", s) else None
run = {key(s): s for s in run}
merged = [run.pop(key(s), s) for s in old]
at = next((i for i, s in enumerate(merged) if key(s) is None), len(merged))
merged[at:at] = run.values()
open(sys.argv[1], "w").write(head + "".join(merged))
PY
	rm -f "$MD"
fi
note "wrote $OUT"
