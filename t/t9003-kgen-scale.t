#!/bin/bash
# kgen's own kernels at scale: `kgen -c all` for each seed of
# KS_SCALE_SEEDS (default "1 2 3"), KS_SCALE_N kernels each (default 200,
# so that `make check` stays quick; `make check-scale` runs 20,000, 2,000
# under SAN=1), sent through kparse, kdiff, kemit-cpu and kemit-cu in
# chunks of KS_SCALE_CHUNK kernels, KS_SCALE_JOBS chunks at a time.  A
# chunk fails on any non-zero exit of a tool, a tool past KS_SCALE_TIMEOUT
# seconds (a hang), a sanitizer report on stderr, or a backward count that
# is not the chunk's kernel count.  A failed chunk is then run one kernel
# at a time to name the seed, the kernel index, the tool and the command
# that reproduces it.  One TAP line per seed.
#
# With --chunk SEED FIRST COUNT DIR (how xargs calls this file) it checks
# one chunk and writes DIR/SEED.FIRST: `ok`, or one `fail ...` line per
# failing kernel.

scale_san='ERROR: AddressSanitizer|ERROR: LeakSanitizer|runtime error:|Sanitizer'
scale_tools='kparse kdiff kemit-cpu kemit-cu'

# scale_run TIMEOUT TOOL IN OUT ERR: TOOL IN -o OUT under the time limit;
# prints nothing and returns 0 when clean, else prints the reason.
scale_run() {
	timeout -k 5 "$1" "$2" "$3" -o "$4" 2>"$5"
	local st=$?
	if [ $st = 124 ] || [ $st = 137 ]; then
		echo "$2 hung (over $1 s)"
	elif [ $st -gt 128 ]; then
		echo "$2 killed by signal $((st - 128)) $(grep -m1 -E "$scale_san" "$5" | cut -c1-200)"
	elif [ $st != 0 ]; then
		echo "$2 exit $st: $(grep -m1 -E "$scale_san|error" "$5" | cut -c1-200)"
	elif grep -qE "$scale_san" "$5"; then
		echo "$2 sanitizer report: $(grep -m1 -E "$scale_san" "$5" | cut -c1-200)"
	else
		return 0
	fi
	return 1
}

# scale_pipe SEED FIRST COUNT DIR TIMEOUT: generate and run every tool;
# prints the first failure's reason.
scale_pipe() {
	local p=$4/k
	timeout -k 5 "$5" kgen -c all -s "$1" -n "$3" --first "$2" -o "$p.py" 2>"$p.err" ||
		{ echo "kgen exit $?: $(head -c 200 "$p.err")"; return 1; }
	scale_run "$5" kparse "$p.py" "$p.kir" "$p.err" || return 1
	scale_run "$5" kdiff "$p.kir" "$p.adj.kir" "$p.err" || return 1
	scale_run "$5" kemit-cpu "$p.adj.kir" "$p.c" "$p.err" || return 1
	scale_run "$5" kemit-cu "$p.adj.kir" "$p.cu" "$p.err" || return 1
	local nb
	nb=$(grep -c '^backward @' "$p.adj.kir")
	[ "$nb" = "$3" ] || { echo "kdiff wrote $nb backward kernels for $3"; return 1; }
}

if [ "${1:-}" = --chunk ]; then
	seed=$2 first=$3 count=$4 dir=$5
	lim=${KS_SCALE_TIMEOUT:-120}
	PATH=${KS_BIN:-$(cd "$(dirname "$0")/.." && pwd)/build/bin}:$PATH
	work=$(mktemp -d "$dir/w.XXXXXX")
	res=$dir/$seed.$first
	if why=$(scale_pipe "$seed" "$first" "$count" "$work" "$lim"); then
		echo ok >"$res.tmp"
	else
		# one kernel at a time, to name the kernels (five at most)
		: >"$res.tmp"
		nf=0
		for ((i = first; i < first + count && nf < 5; i++)); do
			if w=$(scale_pipe "$seed" "$i" 1 "$work" "$lim"); then continue; fi
			nf=$((nf + 1))
			echo "fail seed $seed kernel $i: $w; reproduce: kgen -c all -s $seed -n 1 --first $i | kparse | kdiff | kemit-cpu >/dev/null (and kemit-cu)" >>"$res.tmp"
		done
		[ $nf -gt 0 ] || echo "fail seed $seed kernels $first..$((first + count - 1)) (only as a batch): $why; reproduce: kgen -c all -s $seed -n $count --first $first | kparse | kdiff | kemit-cu >/dev/null" >>"$res.tmp"
	fi
	mv "$res.tmp" "$res"
	rm -rf "$work"
	exit 0
fi

. "$(dirname "$0")/lib.sh"

N=${KS_SCALE_N:-200}
SEEDS=${KS_SCALE_SEEDS:-1 2 3}
CHUNK=${KS_SCALE_CHUNK:-500}
JOBS=${KS_SCALE_JOBS:-2}
export KS_BIN KS_SCALE_TIMEOUT

start=$SECONDS
for s in $SEEDS; do
	for ((f = 0; f < N; f += CHUNK)); do
		echo "$s $f $((f + CHUNK <= N ? CHUNK : N - f)) $TMP"
	done
done | xargs -P "$JOBS" -L 1 bash "$0" --chunk

for s in $SEEDS; do
	fails=
	missing=0
	for ((f = 0; f < N; f += CHUNK)); do
		if [ ! -f "$TMP/$s.$f" ]; then
			missing=$((missing + 1))
		elif [ "$(cat "$TMP/$s.$f")" != ok ]; then
			fails+=$(cat "$TMP/$s.$f")$'\n'
		fi
	done
	[ $missing = 0 ] || fails+="$missing chunks of seed $s gave no result"$'\n'
	t_result "$([ -z "$fails" ] && echo 0 || echo 1)" \
		"kgen -c all -s $s, $N kernels: $scale_tools exit 0, no hang, no sanitizer report"
	[ -z "$fails" ] || diag "${fails%$'\n'}"
done
diag "$(echo $SEEDS | wc -w) seeds x $N kernels in $((SECONDS - start)) s"
done_testing
