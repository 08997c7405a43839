#!/bin/sh
# mk/dataset.sh: one step of one shard of `make dataset` (mk/dataset.mk).
#
#   sh mk/dataset.sh STEP DIR FIRST COUNT
#
# with KS_BIN (absolute), DS_ROOT (the repository: the step runs in DIR),
# DS_NSHARD (the build's shards, for the progress line), DS_SEED, DS_CATS,
# DS_DEVICE and DS_CHECK in the environment, and for the check step DS_NVRTC (`NVRTC 13.0`, `none`, or
# empty: ask krun) and DS_NVRTC_MODE (auto or require).  STEP is gen, parse, diff, emit or check.  A step reads the
# previous step's status DIR/PREV.st, one line per kernel, `I NAME ok` or
# `I NAME STAGE: reason`, works on the kernels that are ok and writes
# DIR/STEP.st under a temporary name, renamed once the step is done: Make
# takes the .st files as the step's product.  The per-kernel files
# (NAME.py, NAME.kir, NAME.hash, NAME.d.kir, NAME.{f,b}.{c,cu}) lie beside
# them, each written atomically by the tool (-o, kgen --split).  The tools
# run inside DIR on NAME.py, so the IR and the code name their source
# `NAME.py`, not a path.
#
#   sh mk/dataset.sh started DIR [costly]
#   sh mk/dataset.sh progress LABEL K WORK RECORDS PRODUCT DEP SHARD...
#
# The progress line of `make dataset` (LABEL SHARD, said as each shard's
# check step ends) and `make verify` (VERIFY, as each `kverify shard`
# ends).  A run is what WORK/.run names: make writes it as it reads the
# makefiles, after the tools were built, and empties WORK/.progress, the
# run's log.  `started` notes there when the run's first step began (`t
# TIME`) and, with `costly`, when shard DIR's costly step began (`s K
# TIME`, once a run): the check step, which takes most of a shard's time
# (make runs the cheap steps of every shard first).  `progress` notes
# that shard K is done with RECORDS records (`d K RECORDS TIME`) and says
# on stderr how many shards are done of all (SHARD...: WORK/PRODUCT with
# % for the shard is done when this run made it, or made it before and
# it is newer than every tool, mk/dataset.sh, runtime/*.h and WORK/DEP,
# i.e. Make leaves it), the records/s of this run and the ETA, on one
# updating line on a terminal, plain lines otherwise.  The rate is the
# records of the shards this run made over the time since its first step
# began, the shards whose costly step is under way counted in part (the
# time each has run over the mean time of those done, at most 0.95), so
# that the first shards to finish side by side under make -j do not make
# it climb as the others follow; the ETA is the shards left at the pace
# of the costly steps.  (DS_NOW, when set, is the time: for the tests.)
#
#   sh mk/dataset.sh assemble OUT WORK CHECK KPACK ARGS...
#
# `kpack assemble` (KPACK ARGS...) and the card's plots: gnuplot ($GNUPLOT,
# default gnuplot) draws them (mk/dataset.gp) from the data kpack writes
# to WORK; where it is not
# installed, or fails, the card says why it has none, and so does a line
# on stderr, as it does when there is no gradient-check plot (CHECK).
set -u
# started DIR [costly]: a step of shard DIR began (above)
started() {
	s_work=${1%/*}
	[ -f "$s_work/.run" ] || return 0
	s_run=$(cat "$s_work/.run")
	if [ ! -e "$s_work/.t0.$s_run" ]; then
		rm -f "$s_work"/.t0.*
		(set -C && : >"$s_work/.t0.$s_run") 2>/dev/null && echo "t $(date +%s.%N)" >>"$s_work/.progress"
	fi
	[ "${2-}" = costly ] && [ ! -e "$1/.started.$s_run" ] || return 0
	mkdir -p "$1" && rm -f "$1"/.started.* && : >"$1/.started.$s_run"
	echo "s ${1##*/} $(date +%s.%N)" >>"$s_work/.progress"
}
if [ "$1" = started ]; then
	started "$2" "${3-}"
	exit 0
fi
# progress LABEL K WORK RECORDS PRODUCT DEP SHARD...
progress() {
	p_label=$1 p_k=$2 p_work=$3 p_recs=$4 p_prod=$5 p_dep=$6
	shift 6
	echo "d $p_k $p_recs ${DS_NOW:-$(date +%s.%N)}" >>"$p_work/.progress"
	newest=$(ls -t "$KS_BIN"/k* mk/dataset.sh runtime/*.h 2>/dev/null | head -n 1)
	total=$# done=0
	for k; do
		f=$p_work/${p_prod%%%*}$k${p_prod#*%}
		[ -e "$f" ] || continue
		if [ ! "$f" -nt "$p_work/.run" ]; then
			[ -n "$newest" ] && [ "$f" -nt "$newest" ] || continue
			d=$p_work/${p_dep%%%*}$k${p_dep#*%}
			[ ! -e "$d" ] || [ "$f" -nt "$d" ] || continue
		fi
		done=$((done + 1))
	done
	line=$(awk -v label="$p_label" -v k="$p_k" -v d=$done -v t=$total -v now="${DS_NOW:-$(date +%s.%N)}" '
	$1 == "t" && (t0 == "" || $2 < t0) { t0 = $2 }
	$1 == "s" && !($2 in start) { start[$2] = $3; if (c0 == "" || $3 < c0) c0 = $3 }
	$1 == "d" && !($2 in end) { end[$2] = $4; recs += $3; n++ }
	END {
		took = 0; m = 0
		for (s in end) if (s in start) { took += end[s] - start[s]; m++ }
		part = 0
		if (m > 0 && took > 0)
			for (s in start) if (!(s in end)) {
				f = (now - start[s]) / (took / m)
				part += f > 0.95 ? 0.95 : f
			}
		if (t0 == "") t0 = c0
		if (c0 == "") c0 = t0
		e = t0 == "" ? 0 : now - t0; ec = c0 == "" ? 0 : now - c0; r = 0; eta = 0
		if (e > 0 && n > 0) r = recs / n * (n + part) / e
		if (n > 0) eta = (t - d - part) * ec / (n + part)
		if (eta < 0) eta = 0
		printf "  %-7s %s  %d/%d done, %.1f records/s, ETA %d:%02d", label, k, d, t, r, eta / 60, eta % 60
	}' "$p_work/.progress")
	if [ -t 2 ]; then printf '\r%s\033[K' "$line" >&2; else printf '%s\n' "$line" >&2; fi
}
if [ "$1" = progress ]; then
	shift
	progress "$@"
	exit 0
fi
if [ "$1" = assemble ]; then
	out=$2 work=$3 check=$4
	shift 4
	say() { echo "make dataset: $*" >&2; }
	why=
	gp=${GNUPLOT:-gnuplot}
	if ! command -v "$gp" >/dev/null 2>&1; then
		why="gnuplot is not installed (make deps installs gnuplot-nox)"
	else
		"$@" --plots "$work" || exit 1
		grad=0
		[ ! -s "$work/gradcheck.dat" ] || grad=1
		rm -rf "$out/plots.tmp" && mkdir -p "$out/plots.tmp" || exit 1
		if "$gp" -e "dat='$work'; png='$out/plots.tmp'; grad=$grad" mk/dataset.gp 2>"$work/gnuplot.err"; then
			for f in "$out"/plots.tmp/*.png.tmp; do mv "$f" "${f%.tmp}"; done
			rm -rf "$out/plots" && mv "$out/plots.tmp" "$out/plots" || exit 1
			[ $grad = 1 ] || say "no gradient-check plot in the card: CHECK=$check ran no gradient check"
			exit 0
		fi
		why="gnuplot could not draw them: $(grep -m1 -v '^[[:space:]]*$' "$work/gnuplot.err" | cut -c1-200)"
		rm -rf "$out/plots.tmp"
	fi
	say "the card has no plots: $why"
	rm -rf "$out/plots"
	"$@" --no-plots "$why"
	exit
fi
step=$1 dir=$2 first=$3 count=$4
B=$KS_BIN
started "$dir" "$([ "$step" != check ] || echo costly)"
mkdir -p "$dir" && cd "$dir" || exit 1
tmp=$step.st.tmp.$$
# this run's lists, statuses and merged lines: a folder of its own, so two
# runs of a step on one shard (two makes sharing a work folder) never
# write each other's files
run=.run.$$
trap 'rm -rf "$tmp" k.tmp.$$ check.nvrtc.tmp.$$ "$run"' EXIT
trap 'exit 130' INT TERM
: >"$tmp"
mkdir "$run" || exit 1

# tool ERRFILE TOOL IN OUT [OPTIONS]: TOOL OPTIONS IN -o OUT run alone, its
# messages to ERRFILE; killed by a signal, or failed without a word, the
# line `TOOL --each` writes for that is added, so that a kernel's reason is
# the same whether its batch gave it or the batch died and it ran alone
tool() {
	t_err=$1 t_tool=$2 t_in=$3 t_out=$4
	shift 4
	# the tool's own stderr to ERRFILE; the shell's "Segmentation fault"
	# for it, which dash writes to the command's stderr, to /dev/null
	(exec 2>>"$t_err" && exec "$B/$t_tool" "$@" "$t_in" -o "$t_out") 2>/dev/null
	t_st=$?
	if [ $t_st -gt 128 ]; then
		printf '%s: %s: killed by signal %d\n' "$t_tool" "$t_in" $((t_st - 128)) >>"$t_err"
	elif [ $t_st != 0 ] && ! grep -q . "$t_err"; then
		printf '%s: %s: exit status %d\n' "$t_tool" "$t_in" $t_st >>"$t_err"
	fi
	return $t_st
}

# fail I NAME STAGE ERRFILE: the kernel's status is its first error line
fail() {
	r=$(grep -m1 -v '^[[:space:]]*$' "$4" 2>/dev/null | tr '\t\r' '  ' | cut -c1-240)
	printf '%s %s %s: %s\n' "$1" "$2" "$3" "${r:-failed}" >>"$dst"
}
dst=$tmp

# each FILE: FILE's lines to $dst, work I NAME (returns 0: ok) run on each
# kernel that is ok, or only on those marked @redo when REDO is set
each() {
	while read -r i name st <&3; do
		if [ "$st" = @redo ] || { [ "$st" = ok ] && [ -z "${REDO-}" ]; }; then
			work "$i" "$name" && printf '%s %s ok\n' "$i" "$name" >>"$dst"
		else
			printf '%s %s %s\n' "$i" "$name" "$st" >>"$dst"
		fi
	done 3<"$1" </dev/null
}

# batch PREV LIST PAIRS TOOL [ARGS]: TOOL --each LIST, one process for the
# shard, LIST holding for each ok kernel of PREV a line `NAME.A NAME.B`
# per pair A:B of PAIRS; the status lines (`NAME.B ok`, `NAME.B error:
# REASON`) go to LIST.status, the messages to LIST.err
batch() {
	awk -v pairs="$3" '$3 == "ok" {
		n = split(pairs, p, " ")
		for (k = 1; k <= n; k++) { split(p[k], ab, ":"); print $2 ab[1], $2 ab[2] }
	}' "$1" >"$2"
	list=$2
	shift 3
	"$@" --each "$list" >"$list.status" 2>"$list.err" || :
}

# merge PREV STAGE OUTS STATUS...: PREV's lines, each ok kernel with the
# outcome of its files NAME.OUT (OUTS in order; OUT=S names the stage S of
# that file, else STAGE) in the STATUS files: ok when all are, `S: REASON`
# at the first that is not (REASON cut as fail() cuts it), @redo when one
# has no status line or a line cut short (the batch died), to be made
# alone by each().  STAGE hash also wants the kernel's own line in
# NAME.hash; with AGREE set, a kernel whose files are all ok must have
# NAME.cpu.json and NAME.sim.json equal but for the device and the
# gradcheck's figures (stage agree).
merge() {
	m_prev=$1 m_stage=$2 m_outs=$3
	shift 3
	for f; do # a status file not there (no kernel was ok): none of its lines
		shift
		[ ! -e "$f" ] || set -- "$@" "$f"
	done
	LC_ALL=C awk -v stage="$m_stage" -v outs="$m_outs" -v agree="${AGREE-}" '
	function norm(s) {
		sub(/"device": "[a-z]*"/, "", s)
		sub(/, "gradcheck": [{].*[}][}]$/, "}", s)
		return s
	}
	function same(a, b,   la, lb, ra, rb) {
		for (;;) {
			ra = (getline la < a) > 0
			rb = (getline lb < b) > 0
			if (!ra || !rb || norm(la) != norm(lb)) break
		}
		close(a); close(b)
		return !ra && !rb
	}
	FILENAME != ARGV[1] {
		f = $1; r = $0; sub(/^[^ ]* /, "", r)
		st[f] = r
		next
	}
	{ line[++n] = $0 }
	END {
		no = split(outs, o, " ")
		for (k = 1; k <= n; k++) {
			split(line[k], w, " ")
			if (w[3] != "ok") { print line[k]; continue }
			res = "ok"
			for (j = 1; j <= no && res == "ok"; j++) {
				sf = o[j]; s = stage
				if (index(sf, "=")) { s = substr(sf, index(sf, "=") + 1); sf = substr(sf, 1, index(sf, "=") - 1) }
				f = w[2] sf
				if (!(f in st) || (st[f] != "ok" && st[f] !~ /^error: /)) res = "@redo"
				else if (st[f] != "ok") {
					r = st[f]; sub(/^error: /, "", r); r = substr(r, 1, 240)
					if (r ~ /^[ \t]*$/) r = "failed"
					res = s ": " r
				}
			}
			if (res == "ok" && stage == "hash") {
				h = w[2] ".hash"; found = 0
				while (!found && (getline l < h) > 0)
					found = index(l, w[2] " ") == 1
				close(h)
				if (!found) res = stage ": failed"
			}
			if (res == "ok" && agree != "" && !same(w[2] ".cpu.json", w[2] ".sim.json"))
				res = "agree: cpu and sim outputs differ"
			print w[1], w[2], res
		}
	}' "$m_prev" "$@"
}

cuda() { [ "$DS_DEVICE" != cpu ]; }

case $step in
gen)
	# one kgen for the shard: kgen --split writes each kernel to NAME.py,
	# as `-n 1 --first I` would, and lists `I NAME`; --verify draws again
	# each kernel that the check's krun --coverage --vary would reject
	KSYNTH_KRUN="$B/krun" "$B/kgen" -c "$DS_CATS" -s "$DS_SEED" -n "$count" --first "$first" --verify --split . -o k.tmp.$$ || exit 1
	[ "$(wc -l <k.tmp.$$)" -eq "$count" ] || { echo "dataset.sh: kgen listed $(wc -l <k.tmp.$$) kernels of $count" >&2; exit 1; }
	sed 's/$/ ok/' k.tmp.$$ >>"$tmp" ;;
parse)
	# each of parse, hash, diff and emit: one batch (tool --each) for the
	# shard, a kernel the batch gave no status made alone
	batch gen.st "$run/parse.list" .py:.kir "$B/kparse"
	merge gen.st parse .kir "$run/parse.list.status" >"$run/parse.m1"
	work() { : >"$2.err" && tool "$2.err" kparse "$2.py" "$2.kir" || { fail "$1" "$2" parse "$2.err"; return 1; }; }
	dst="$run/parse.m2" REDO=1
	: >"$dst"
	each "$run/parse.m1"
	batch "$run/parse.m2" "$run/hash.list" .kir:.hash "$B/kfmt" --hash
	merge "$run/parse.m2" hash .hash "$run/hash.list.status" >"$run/parse.m3"
	work() {
		: >"$2.err" && tool "$2.err" kfmt "$2.kir" "$2.hash" --hash && grep -q "^$2 " "$2.hash" ||
			{ fail "$1" "$2" hash "$2.err"; return 1; }
	}
	dst=$tmp
	each "$run/parse.m3" ;;
diff)
	batch parse.st "$run/diff.list" .kir:.d.kir "$B/kdiff"
	merge parse.st diff .d.kir "$run/diff.list.status" >"$run/diff.m1"
	work() { : >"$2.err" && tool "$2.err" kdiff "$2.kir" "$2.d.kir" || { fail "$1" "$2" diff "$2.err"; return 1; }; }
	REDO=1 each "$run/diff.m1" ;;
emit)
	batch diff.st "$run/emit-cpu.list" ".kir:.f.c .d.kir:.b.c" "$B/kemit-cpu"
	batch diff.st "$run/emit-cu.list" ".kir:.f.cu .d.kir:.b.cu" "$B/kemit-cu"
	# the forward code with coverage counters, for the check's --vary run
	batch diff.st "$run/emit-cov.list" ".kir:.v.c" "$B/kemit-cpu" --coverage
	merge diff.st emit ".f.c .b.c .f.cu .b.cu .v.c" "$run/emit-cpu.list.status" "$run/emit-cu.list.status" \
		"$run/emit-cov.list.status" >"$run/emit.m1"
	work() {
		: >"$2.err" && tool "$2.err" kemit-cpu "$2.kir" "$2.f.c" && tool "$2.err" kemit-cpu "$2.d.kir" "$2.b.c" &&
			tool "$2.err" kemit-cu "$2.kir" "$2.f.cu" && tool "$2.err" kemit-cu "$2.d.kir" "$2.b.cu" &&
			tool "$2.err" kemit-cpu "$2.kir" "$2.v.c" --coverage ||
			{ fail "$1" "$2" emit "$2.err"; return 1; }
	}
	REDO=1 each "$run/emit.m1" ;;
check)
	# The NVRTC that compiles the CUDA code (make says which: DS_NVRTC),
	# `none` when there is none: then the CUDA code is checked on sim
	# alone, unless NVRTC=require.  check.nvrtc tells kpack.
	have_nvrtc=
	if cuda && [ "$DS_CHECK" != none ]; then
		nv=${DS_NVRTC-}
		if [ -z "$nv" ]; then
			nv=$("$B/krun" --nvrtc 2>"$run/nvrtc.err") && nv=$(echo "$nv" | awk '{ sub(/:$/, "", $2); print $1, $2 }') || nv=none
		fi
		if [ "$nv" = none ] && [ "${DS_NVRTC_MODE-}" = require ]; then
			echo "make dataset: NVRTC=require, and there is no NVRTC: $(cat "$run/nvrtc.err" 2>/dev/null)" >&2
			exit 1
		fi
		[ "$nv" = none ] || have_nvrtc=1
		echo "$nv" >check.nvrtc.tmp.$$ && mv check.nvrtc.tmp.$$ check.nvrtc || exit 1
	fi
	# nvrtc ERRFILE KIR CU: NVRTC to an sm_90 cubin; NVRTC gone since make
	# asked for it stops the build
	nvrtc() {
		"$B/krun" --device cuda --compile-only --arch sm_90 "$2" "$3" 2>"$1"
		rc=$?
		if [ $rc = 77 ]; then
			echo "make dataset: DEVICE=$DS_DEVICE CHECK=$DS_CHECK: NVRTC ($nv) cannot be had now:" >&2
			cat "$1" >&2
			exit 1
		fi
		return $rc
	}
	# One NVRTC program per shard for the forward code and one for the
	# backward code (kgen's names are unique per kernel, so the files
	# concatenate); only when one fails is each record compiled alone, so
	# the errors go to the records they belong to.
	shard_nvrtc=
	if [ -n "$have_nvrtc" ]; then
		set -- $(awk '$3 == "ok" { print $2 }' emit.st)
		if [ $# -gt 0 ]; then
			for n; do cat "$n.f.cu"; done >shard.f.cu.tmp.$$ && mv shard.f.cu.tmp.$$ shard.f.cu
			for n; do cat "$n.b.cu"; done >shard.b.cu.tmp.$$ && mv shard.b.cu.tmp.$$ shard.b.cu
			nvrtc "$run/shard.err" "$1.d.kir" shard.b.cu && nvrtc "$run/shard.err" "$1.kir" shard.f.cu && shard_nvrtc=ok
		fi
	fi
	# krun --batch: one krun, one compile per language and precision, for
	# every kernel of the shard and each check (doc/runtime.md); a status
	# line per kernel, `CODE ok` or `CODE error: REASON`.  A kernel with
	# no status line (the batch krun died before it) is checked alone.
	krun_batch() { # list=LIST krun_batch KRUN-OPTIONS...: LIST.status, whole or not
		rm -f "$list.status"
		"$B/krun" "$@" --batch "$list" >"$list.status.tmp" 2>"$list.err"
		mv "$list.status.tmp" "$list.status"
	}
	if [ "$DS_CHECK" != none ]; then
		set -- $(awk '$3 == "ok" { print $2 }' emit.st)
		if [ $# -gt 0 ]; then
			if [ "$DS_CHECK" = compile ]; then
				for n; do echo "$n.d.kir $n.b.c"; done >"$run/bc.list"
				list="$run/bc.list" krun_batch --compile-only
			else
				for n; do echo "$n.kir $n.f.c"; done >"$run/fc.list"
				list="$run/fc.list" krun_batch --compile-only
				for n; do echo "$n.d.kir $n.b.c $n.cpu.json"; done >"$run/cpu.list"
				list="$run/cpu.list" krun_batch --gradcheck
				# degenerate kernels: outputs that do not change between
				# two input seeds, an if that never takes a way, a loop
				# that never runs (krun --coverage --vary)
				for n; do echo "$n.kir $n.v.c $n.vary.json"; done >"$run/vary.list"
				list="$run/vary.list" krun_batch --coverage --vary 2
				if cuda; then
					# sim's gradients, no second gradient check: they
					# must equal cpu's byte for byte (agree, below), and
					# the check's central differences are the CPU code's
					# in double whatever the device (doc/runtime.md), so
					# sim's check would redo cpu's arithmetic and verdict
					for n; do echo "$n.d.kir $n.b.cu $n.sim.json"; done >"$run/sim.list"
					list="$run/sim.list" krun_batch --device sim --grad
				fi
			fi
		fi
	fi
	# krun1 LIST CODE ERRFILE KRUN-ARGS...: the kernel's status from the
	# batch, else krun alone (stdout to the record file when it has one)
	krun1() {
		r=$(awk -v c="$2" '$1 == c { sub(/^[^ ]* /, ""); print; exit }' "$1.status" 2>/dev/null)
		case $r in
		ok) return 0 ;;
		"error: "*) printf '%s\n' "${r#error: }" >"$3"; return 1 ;;
		esac
		l=$1 c=$2 e=$3
		shift 3
		o=$(awk -v c="$c" '$2 == c { print $3; exit }' "$l")
		if [ -n "$o" ]; then "$B/krun" "$@" >"$o" 2>"$e"; else "$B/krun" "$@" 2>"$e"; fi
	}
	work() {
		case $DS_CHECK in
		none) return 0 ;;
		compile)
			krun1 "$run/bc.list" "$2.b.c" "$2.err" --compile-only "$2.d.kir" "$2.b.c" || { fail "$1" "$2" compile-cpu "$2.err"; return 1; }
			[ -n "$have_nvrtc" ] && [ -z "$shard_nvrtc" ] || return 0
			nvrtc "$2.err" "$2.kir" "$2.f.cu" && nvrtc "$2.err" "$2.d.kir" "$2.b.cu" ||
				{ fail "$1" "$2" compile-cuda "$2.err"; return 1; }
			return 0 ;;
		esac
		krun1 "$run/fc.list" "$2.f.c" "$2.err" --compile-only "$2.kir" "$2.f.c" || { fail "$1" "$2" compile-cpu "$2.err"; return 1; }
		krun1 "$run/cpu.list" "$2.b.c" "$2.err" --gradcheck "$2.d.kir" "$2.b.c" || { fail "$1" "$2" check-cpu "$2.err"; return 1; }
		krun1 "$run/vary.list" "$2.v.c" "$2.err" --coverage --vary 2 "$2.kir" "$2.v.c" || { fail "$1" "$2" degenerate "$2.err"; return 1; }
		cuda || return 0
		if [ -n "$have_nvrtc" ] && [ -z "$shard_nvrtc" ]; then
			nvrtc "$2.err" "$2.kir" "$2.f.cu" && nvrtc "$2.err" "$2.d.kir" "$2.b.cu" ||
				{ fail "$1" "$2" compile-cuda "$2.err"; return 1; }
		fi
		krun1 "$run/sim.list" "$2.b.cu" "$2.err" --device sim --grad "$2.d.kir" "$2.b.cu" || { fail "$1" "$2" check-sim "$2.err"; return 1; }
		# cpu and sim agree: the same records, gradients included, but for
		# the device and cpu's gradient check
		sed 's/"device": "[a-z]*"//; s/, "gradcheck": {.*}}$/}/' "$2.cpu.json" >k.tmp.$$
		sed 's/"device": "[a-z]*"//; s/, "gradcheck": {.*}}$/}/' "$2.sim.json" | cmp -s - k.tmp.$$ ||
			{ echo "cpu and sim outputs differ" >"$2.err"; fail "$1" "$2" agree "$2.err"; return 1; }
	}
	# the statuses of the batches, one awk for the shard; a kernel they do
	# not settle, and every kernel when the shard's NVRTC failed, by work()
	nvrtc_ok() { [ -z "$have_nvrtc" ] || [ -n "$shard_nvrtc" ]; }
	if [ "$DS_CHECK" = full ] && nvrtc_ok; then
		if cuda; then
			AGREE=1 merge emit.st check ".f.c=compile-cpu .b.c=check-cpu .v.c=degenerate .b.cu=check-sim" \
				"$run/fc.list.status" "$run/cpu.list.status" "$run/vary.list.status" "$run/sim.list.status" >"$run/check.m1"
		else
			merge emit.st check ".f.c=compile-cpu .b.c=check-cpu .v.c=degenerate" "$run/fc.list.status" \
				"$run/cpu.list.status" "$run/vary.list.status" >"$run/check.m1"
		fi
		REDO=1 each "$run/check.m1"
	elif [ "$DS_CHECK" = compile ] && nvrtc_ok; then
		merge emit.st compile-cpu .b.c "$run/bc.list.status" >"$run/check.m1"
		REDO=1 each "$run/check.m1"
	else
		each emit.st
	fi ;;
*)
	echo "dataset.sh: unknown step $step" >&2
	exit 2 ;;
esac
mv "$tmp" "$step.st" || exit 1
# the progress line: the shard's records, its kernels that passed (both
# devices' with DEVICE=all), said once its check step is done
if [ "$step" = check ] && [ -n "${DS_NSHARD-}" ]; then
	work=${dir%/*}
	n=$(awk '$3 == "ok"' check.st | wc -l)
	[ "$DS_DEVICE" != all ] || n=$((2 * n))
	(cd "$DS_ROOT" && progress SHARD "${dir##*/}" "$work" "$n" %/check.st %/emit.st $(seq 0 $((DS_NSHARD - 1))))
fi
