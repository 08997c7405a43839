#!/bin/sh
# mk/slurm.sh: `make dataset LAUNCH=slurm` and `make dataset-status`
# (mk/slurm.mk).  MAKEARGS are the make variables that name the dataset
# (N=, SEED=, ...); every make this script runs or submits gets exactly
# those and DATASET_BIN=WORK/slurm/bin, the copy of the tools that the
# jobs run, so it sees the graph the caller saw.
#
#   sh mk/slurm.sh submit WORK OUT -- MAKEARGS...
#       on the login node: refresh WORK/slurm/bin from DS_BIN; submit the
#       shards that are not done (nor queued or running in an earlier
#       submission) as one job array, then the assembly job after it;
#       print the job ids; nothing when OUT is up to date.
#       With DS_MAKE, DS_BIN, SBATCH, SLURM_ARGS, SLURM_TASKS and
#       SLURM_PARALLEL in the environment.
#   sh mk/slurm.sh status WORK OUT NSHARD -- MAKEARGS...
#       what is done, queued, running and failed, and what to do next
#   sh mk/slurm.sh task WORK S PER -- MAKEARGS...
#       array task SLURM_ARRAY_TASK_ID of submission S: the PER shards of
#       lines [i*PER, (i+1)*PER) of WORK/slurm/S.shards, one make each
#   sh mk/slurm.sh assemble WORK S T0 -- MAKEARGS...
#       the assembly job: every shard must be done; then `make dataset`
#
# WORK/slurm/ holds S.shards (one shard per line, in task order), S.jobs
# (`array ID tasks T per P assemble ID t0 T0`), log/K.log (shard K's latest
# make output), log/K.failed (one line: why its latest attempt failed),
# log/task-A_I.out and log/assemble-J.out (the jobs' own output), and
# S.assembled or S.assemble-failed once the assembly job has run.
set -u
# the make that runs us must not pass its jobserver or goals to ours
unset MAKEFLAGS MFLAGS MAKELEVEL
mode=$1 work=$2
shift 2
make=${DS_MAKE:-make}
sdir=$work/slurm
mkdir -p "$sdir/log" "$sdir/bin" || exit 1
bin=$(cd "$sdir/bin" && pwd) || exit 1
root=$(pwd)

# todo MAKEARGS...: the shards whose K.rec make would (re)make, one a line
todo() {
	"$make" -n --no-print-directory "$@" LAUNCH= dataset-shards >"$sdir/todo.tmp.$$" 2>"$sdir/todo.err.$$" || {
		cat "$sdir/todo.err.$$" >&2
		rm -f "$sdir/todo.tmp.$$" "$sdir/todo.err.$$"
		return 1
	}
	sed -n 's/^: dataset-shard \([0-9]*\)$/\1/p' "$sdir/todo.tmp.$$"
	rm -f "$sdir/todo.tmp.$$" "$sdir/todo.err.$$"
}

# inset [-v] SET FILE: FILE's lines that are (-v: are not) lines of SET
inset() {
	v=0
	[ "$1" = -v ] && { v=1; shift; }
	awk -v set="$1" -v v=$v 'BEGIN { while ((getline l < set) > 0) in_set[l] } (($0 in in_set) != v)' "$2"
}

# current MAKEARGS...: OUT is up to date
current() { "$make" -s --no-print-directory "$@" LAUNCH= dataset-current >/dev/null 2>&1; }

# field FILE NAME: the value after NAME in a `name value ...` line
field() { awk -v k="$2" '{ for (i = 1; i < NF; i += 2) if ($i == k) print $(i + 1) }' "$1"; }

# sq ARGS...: squeue; a job Slurm has forgotten is no error, any other
# failure (a controller that does not answer) is: it says so and fails,
# so that no job is taken for ended when it may be running
sq() {
	squeue "$@" 2>"$sdir/sq.err.$$" && { rm -f "$sdir/sq.err.$$"; return 0; }
	grep -q 'Invalid job id' "$sdir/sq.err.$$" && { rm -f "$sdir/sq.err.$$"; return 0; }
	echo "dataset: squeue failed: $(head -1 "$sdir/sq.err.$$")" >&2
	rm -f "$sdir/sq.err.$$"
	return 1
}

# active S: the shards of submission S whose task is queued or running
active() {
	a=$(field "$sdir/$1.jobs" array) per=$(field "$sdir/$1.jobs" per)
	case $a in ""|-) return 0 ;; esac
	sq -h -r -j "$a" -o '%K' >"$sdir/sq.out.$$" || { rm -f "$sdir/sq.out.$$"; return 1; }
	while read -r t; do
		case $t in *[!0-9]*|'') continue ;; esac
		sed -n "$((t * per + 1)),$(((t + 1) * per))p" "$sdir/$1.shards"
	done <"$sdir/sq.out.$$"
	rm -f "$sdir/sq.out.$$"
}

# jobstate ID: PENDING, RUNNING, ... while Slurm knows the job, else empty
jobstate() {
	s=$(sq -h -j "$1" -o '%T') || return 1
	s=$(printf '%s\n' "$s" | head -1)
	[ -n "$s" ] || s=$(scontrol -o show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')
	printf '%s' "$s"
}

# subs: the submissions, oldest first
subs() { ls "$sdir" | sed -n 's/^\([0-9]*\)\.jobs$/\1/p' | sort -n; }

# mark FILE TEXT: write a one-line marker atomically
mark() { printf '%s\n' "$2" >"$1.tmp.$$" && mv "$1.tmp.$$" "$1"; }

# userargs MAKEARGS...: the parameters a user passes again, for messages
userargs() {
	for a; do
		case $a in O=build|SAN=|DATASET_BIN=*|DATASET_WORK=build/dataset) ;; *) printf ' %s' "$a" ;; esac
	done
}

case $mode in
submit)
	out=$1
	shift 2
	# the jobs' tools: replaced by rename, so a running job keeps its own
	# and their precompiled headers for sim beside them (doc/runtime.md),
	# which krun uses only when its copy is as new as the headers (cp -p)
	pch=$DS_BIN/../pch
	if [ -d "$pch" ]; then mkdir -p "$sdir/pch" || exit 1; else rm -rf "$sdir/pch"; fi
	for t in "$DS_BIN"/k* "$pch"/ksynth_sim_all.h "$pch"/ksynth_sim_all.h.gch; do
		if [ ! -f "$t" ]; then
			case $t in "$pch"/*) rm -f "$sdir/pch/${t##*/}" ;; esac
			continue
		fi
		d=$bin
		case $t in "$pch"/*) d=$sdir/pch ;; esac
		cmp -s "$t" "$d/${t##*/}" && [ ! "$t" -nt "$d/${t##*/}" ] && [ ! "$t" -ot "$d/${t##*/}" ] && continue
		cp -p "$t" "$d/.${t##*/}.tmp.$$" && mv "$d/.${t##*/}.tmp.$$" "$d/${t##*/}" || exit 1
	done
	set -- "$@" DATASET_BIN="$bin"
	# leave out the shards an earlier submission still has queued or running
	# (asked before make -n: a task that ends meanwhile has its shard done)
	busy=
	: >"$sdir/active.$$"
	for s in $(subs); do
		active "$s" >"$sdir/active1.$$" || { rm -f "$sdir/active.$$" "$sdir/active1.$$"; exit 1; }
		[ -s "$sdir/active1.$$" ] && busy="$busy $(field "$sdir/$s.jobs" array)"
		cat "$sdir/active1.$$" >>"$sdir/active.$$"
		# an earlier assembly job still waiting: this submission's replaces it
		j=$(field "$sdir/$s.jobs" assemble)
		[ "$(jobstate "$j")" = PENDING ] && scancel "$j" 2>/dev/null && echo "dataset: cancelled the earlier assembly job $j"
	done
	rm -f "$sdir/active1.$$"
	todo "$@" >"$sdir/todo1.$$" || { rm -f "$sdir/todo1.$$" "$sdir/active.$$"; exit 1; }
	inset -v "$sdir/active.$$" "$sdir/todo1.$$" >"$sdir/todo.$$"
	rm -f "$sdir/todo1.$$" "$sdir/active.$$"
	n=$(wc -l <"$sdir/todo.$$")
	if [ "$n" = 0 ] && [ -z "$busy" ] && current "$@"; then
		rm -f "$sdir/todo.$$"
		echo "dataset: $out is up to date, nothing to submit"
		exit 0
	fi
	s=$(($(subs | tail -1) + 1))
	mv "$sdir/todo.$$" "$sdir/$s.shards"
	t0=$(date +%s.%N)
	dep=
	array=
	tasks=0 per=0
	if [ "$n" -gt 0 ]; then
		tasks=$n per=1
		max=${SLURM_TASKS:-1000}
		if [ "$n" -gt "$max" ]; then per=$(((n + max - 1) / max)) tasks=$(((n + per - 1) / per)); fi
		while read -r k; do rm -f "$sdir/log/$k.failed"; done <"$sdir/$s.shards"
		# shellcheck disable=SC2086
		array=$($SBATCH --parsable --job-name=ksynth-shards --chdir="$root" \
			--array="0-$((tasks - 1))${SLURM_PARALLEL:+%$SLURM_PARALLEL}" \
			--output="$sdir/log/task-%A_%a.out" ${SLURM_ARGS:-} \
			mk/slurm.sh task "$work" "$s" "$per" -- "$@") || { echo "dataset: sbatch failed" >&2; exit 1; }
		array=${array%%;*}
		dep=afterok:$array
	fi
	for b in $busy; do dep=${dep:+$dep,}afterany:$b; done
	# shellcheck disable=SC2086
	asm=$($SBATCH --parsable --job-name=ksynth-assemble --chdir="$root" \
		--output="$sdir/log/assemble-%j.out" ${dep:+--dependency=$dep --kill-on-invalid-dep=yes} ${SLURM_ARGS:-} \
		mk/slurm.sh assemble "$work" "$s" "$t0" -- "$@") || {
		echo "dataset: sbatch of the assembly job failed" >&2
		[ -n "$array" ] && scancel "$array"
		exit 1
	}
	asm=${asm%%;*}
	mark "$sdir/$s.jobs" "array ${array:--} tasks $tasks per $per assemble $asm t0 $t0"
	if [ -n "$array" ]; then
		echo "dataset: submitted $n shard(s) as job array $array ($tasks task(s)); logs in $sdir/log/"
	else
		echo "dataset: no shard to build"
	fi
	[ -n "$busy" ] && echo "dataset: shards still queued or running in job(s)$busy are left to them"
	echo "dataset: submitted the assembly job $asm${dep:+ ($dep)}: $out"
	echo "dataset: follow it with: make dataset-status$(userargs "$@")"
	;;

task)
	s=$1 per=$2
	shift 3
	i=${SLURM_ARRAY_TASK_ID:?not an array task}
	rc=0
	for k in $(sed -n "$((i * per + 1)),$(((i + 1) * per))p" "$sdir/$s.shards"); do
		log=$sdir/log/$k.log
		rm -f "$sdir/log/$k.failed"
		echo "shard $k: job ${SLURM_ARRAY_JOB_ID:-?}_$i on $(hostname -s)"
		"$make" --no-print-directory "$@" LAUNCH= dataset-shards SHARDS="$k" >"$log" 2>&1
		st=$?
		if [ $st = 0 ]; then
			echo "shard $k: done"
		else
			mark "$sdir/log/$k.failed" "job ${SLURM_ARRAY_JOB_ID:-?}_$i on $(hostname -s) at $(date -u +%FT%TZ): make exited $st"
			echo "shard $k: failed (make exited $st); its log, $log, ends:"
			tail -n 5 "$log"
			rc=1
		fi
	done
	exit $rc ;;

assemble)
	s=$1 t0=$2
	shift 3
	rm -f "$sdir/$s.assembled" "$sdir/$s.assemble-failed"
	missing=$(todo "$@") || { mark "$sdir/$s.assemble-failed" "make -n failed"; exit 1; }
	if [ -n "$missing" ]; then
		missing=$(echo $missing)
		mark "$sdir/$s.assemble-failed" "shards not built: $missing"
		echo "dataset: shards not built: $missing; make dataset-status tells why"
		exit 1
	fi
	"$make" --no-print-directory "$@" LAUNCH= DS_T0="$t0" dataset || {
		mark "$sdir/$s.assemble-failed" "make dataset exited $?"
		exit 1
	}
	mark "$sdir/$s.assembled" "job ${SLURM_JOB_ID:-?} at $(date -u +%FT%TZ)"
	;;

status)
	out=$1 nshard=$2
	shift 3
	# the tools of the last submission, else (none yet) DATASET_BIN's
	if [ -x "$bin/kpack" ]; then set -- "$@" DATASET_BIN="$bin"; else set -- "$@" DATASET_BIN="$DS_BIN"; fi
	# the jobs first, then make -n: a task that ends in between has its
	# shard done, never counted as neither running nor done
	: >"$sdir/active.$$"
	for s in $(subs); do
		active "$s" >>"$sdir/active.$$" || {
			echo "dataset: unknown (Slurm does not answer; try again)"
			rm -f "$sdir/active.$$"
			exit 1
		}
	done
	todo "$@" >"$sdir/todo.$$" || { rm -f "$sdir/todo.$$" "$sdir/active.$$"; exit 1; }
	ndo=$(wc -l <"$sdir/todo.$$")
	nact=$(inset "$sdir/todo.$$" "$sdir/active.$$" | wc -l)
	failed=
	while read -r k; do
		grep -qxF "$k" "$sdir/active.$$" || [ ! -e "$sdir/log/$k.failed" ] || failed="$failed $k"
	done <"$sdir/todo.$$"
	nfail=$(echo $failed | wc -w)
	last=$(subs | tail -1)
	asm="" astate=""
	if [ -n "$last" ]; then
		asm=$(field "$sdir/$last.jobs" assemble)
		astate=$(jobstate "$asm") || {
			echo "dataset: unknown (Slurm does not answer; try again)"
			rm -f "$sdir/todo.$$" "$sdir/active.$$"
			exit 1
		}
		if [ -e "$sdir/$last.assembled" ]; then astate="done"
		elif [ -e "$sdir/$last.assemble-failed" ]; then astate="failed: $(cat "$sdir/$last.assemble-failed")"
		else
			case $astate in
			PENDING|RUNNING|CONFIGURING|COMPLETING) ;;
			*) astate="cancelled, did not run (${astate:-gone}: a shard failed, so its dependency could not be met)" ;;
			esac
		fi
	fi
	# (asked after the jobs' state: an assembly that ends meanwhile is seen done)
	if [ "$ndo" = 0 ] && current "$@"; then state=complete
	elif [ "$nact" -gt 0 ] || [ "$astate" = PENDING ] || [ "$astate" = RUNNING ]; then state=running
	elif [ "$nfail" -gt 0 ] || [ "${astate%%:*}" = failed ] || [ "${astate%%,*}" = cancelled ]; then state=failed
	elif [ -z "$last" ]; then state=not-submitted
	else state=incomplete
	fi
	echo "dataset: $state"
	echo "shards: $((nshard - ndo)) of $nshard done, $nact queued or running, $nfail failed ($work)"
	for k in $failed; do
		echo "failed shard $k: $(cat "$sdir/log/$k.failed"); log $sdir/log/$k.log"
		tail -n 3 "$sdir/log/$k.log" | sed 's/^/    /'
	done
	[ -n "$last" ] && echo "assembly job $asm: $astate; log $sdir/log/assemble-$asm.out"
	[ "$state" = complete ] && echo "output: $out"
	case $state in failed|incomplete|not-submitted)
		echo "to build the missing shards and assemble: make dataset LAUNCH=slurm$(userargs "$@")" ;;
	esac
	rm -f "$sdir/todo.$$" "$sdir/active.$$"
	;;

*)
	echo "slurm.sh: unknown mode $mode" >&2
	exit 2 ;;
esac
