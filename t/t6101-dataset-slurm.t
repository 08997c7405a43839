#!/bin/bash
# make check-slurm: make dataset on a Slurm cluster (mk/slurm.mk), against
# a single-node cluster started on localhost (t/slurm/cluster.sh) and
# stopped at the end, whatever happens.
#  - LAUNCH=slurm, N=200 CHECK=compile: one job array and an assembly job
#    after it; OUT is byte for byte a local build's (CHECK=compile, not
#    full: full takes minutes of CPU on two cores, and which checks ran
#    does not change how shards are launched); a resubmission submits
#    nothing; with two shards' records gone, only those two are submitted.
#  - a shard that fails: dataset-status names it and its log, the assembly
#    job does not run; the resubmission retries that shard alone.
#  - LAUNCH=srun inside salloc: each shard step is a job step; the same bytes.
# Too slow for make check, which lists it as skipped.  KS_KEEP=1 keeps the
# scratch folder (the jobs' logs) for a look after a failure.
. "$(dirname "$0")/lib.sh"

if [ "${KS_CHECK_SLURM:-}" != 1 ]; then
	skip "$(basename "$0")" "run by make check-slurm"
	done_testing
fi
KS_BUILD=${KS_BUILD:-$T_ROOT/build}
KS_SAN=${KS_SAN:-}
unset MAKEFLAGS MFLAGS MAKELEVEL # the make that runs the suite passes its own flags
C=$KS_BUILD/slurm-cluster
trap 't/slurm/cluster.sh stop "$C"; [ -n "${KS_KEEP:-}" ] || rm -rf "$TMP"' EXIT
trap 'exit 130' INT TERM
t/slurm/cluster.sh start "$C" >"$TMP/start.out" 2>&1
st=$?
if [ $st = 77 ]; then
	skip "a single-node Slurm cluster" "$(tail -1 "$TMP/start.out")"
	done_testing
fi
if ! is "the test cluster starts" "$st" 0; then
	diag "$(cat "$TMP/start.out")"
	done_testing
fi
export SLURM_CONF=$C/slurm.conf
PATH=$PATH:/usr/sbin

mk() { make --no-print-directory O="$KS_BUILD" SAN="$KS_SAN" "$@"; }
# wait_done ARGS...: until dataset-status says the build is no longer
# running (at most 5 minutes); its output in $TMP/status
wait_done() {
	for _ in $(seq 300); do
		mk dataset-status "$@" >"$TMP/status" 2>&1
		case $(head -1 "$TMP/status") in
		"dataset: running" | "dataset: unknown"*) sleep 1 ;;
		*) return 0 ;;
		esac
	done
	return 1
}
# same_out A B: the same bytes but timing.json
same_out() { diff -r -x timing.json "$1" "$2"; }

# --- LAUNCH=slurm: the array, the assembly job, the bytes ---------------
A="N=200 CHECK=compile DATASET_WORK=$TMP/wa"
# shards: N plus MARGIN = N/2 + 16 kernels in shards of SHARD (50 by
# default), as doc/dataset.md says: 7 here, 8 for B below
nA=$(( (200 + 200 / 2 + 16 + 49) / 50 ))
nB=$(( (20 + 20 / 2 + 16 + 4) / 5 ))
ok "local build N=200 CHECK=compile" mk -j2 dataset $A OUT="$TMP/local" DATASET_WORK="$TMP/wl"
ok "LAUNCH=slurm submits and returns" mk dataset $A OUT="$TMP/slurm" LAUNCH=slurm
cp "$TMP/ok.out" "$TMP/submit1"
ok "it prints the array's and the assembly job's ids" \
	grep -Eq "submitted $nA shard\\(s\\) as job array [0-9]+" "$TMP/submit1"
ok "and the assembly job's dependency" grep -Eq 'assembly job [0-9]+ \(afterok:[0-9]+\)' "$TMP/submit1"
ok "the jobs are queued or running" test -n "$(squeue -h -o %A)"
ok "dataset-status ends" wait_done $A OUT="$TMP/slurm"
is "the build completes" "$(head -1 "$TMP/status")" "dataset: complete" || diag "$(cat "$TMP/status")"
ok "$nA array tasks ran, one per shard" test "$(ls "$TMP"/wa/*/slurm/log/task-*.out | wc -l)" = $nA
ok "LAUNCH=slurm: the same bytes as the local build" same_out "$TMP/local" "$TMP/slurm"

ok "resubmitted when complete" mk dataset $A OUT="$TMP/slurm" LAUNCH=slurm
cp "$TMP/ok.out" "$TMP/submit2"
ok "it submits nothing" grep -q 'is up to date, nothing to submit' "$TMP/submit2"
w=$(ls -d "$TMP"/wa/*/)
rm -f "$w/1.rec" "$w/3.rec"
ok "resubmitted with shards 1 and 3 gone" mk dataset $A OUT="$TMP/slurm" LAUNCH=slurm
cp "$TMP/ok.out" "$TMP/submit3"
ok "it submits those two shards alone" grep -q 'submitted 2 shard(s)' "$TMP/submit3"
is "the array's shard list" "$(cat "$w/slurm/2.shards" | tr '\n' ' ')" "1 3 "
ok "dataset-status ends" wait_done $A OUT="$TMP/slurm"
is "the build completes again" "$(head -1 "$TMP/status")" "dataset: complete" || diag "$(cat "$TMP/status")"
ok "the same bytes after the resubmission" same_out "$TMP/local" "$TMP/slurm"

# --- a failing shard, reported, retried alone ---------------------------
# kgen fails for shard 2's kernels (10..14) while $TMP/fail exists
mkdir -p "$TMP/bin" && cp -p "$KS_BIN"/k* "$TMP/bin/" && mv "$TMP/bin/kgen" "$TMP/bin/kgen.real"
# the tools' precompiled headers for sim (doc/runtime.md) beside the copy
if [ -d "$KS_BIN/../pch" ]; then ln -s "$KS_BIN/../pch" "$TMP/pch"; fi
cat >"$TMP/bin/kgen" <<EOF
#!/bin/sh
case " \$* " in *" --first 1"[0-4]" "*) [ -e "$TMP/fail" ] && { echo "kgen: injected failure" >&2; exit 3; } ;; esac
exec "$TMP/bin/kgen.real" "\$@"
EOF
chmod +x "$TMP/bin/kgen"
B="N=20 SHARD=5 CHECK=none DATASET_BIN=$TMP/bin"
ok "local build N=20 CHECK=none" mk -j2 dataset $B OUT="$TMP/local-b" DATASET_WORK="$TMP/wl"
touch "$TMP/fail"
ok "LAUNCH=slurm with shard 2 failing: submitted" mk dataset $B OUT="$TMP/fb" DATASET_WORK="$TMP/wb" LAUNCH=slurm
if [ -f "$TMP/pch/ksynth_sim_all.h.gch" ]; then
	ok "the jobs' copy of the tools has sim's precompiled headers beside it" \
		cmp "$TMP/pch/ksynth_sim_all.h.gch" "$(echo "$TMP"/wb/*/slurm/pch/ksynth_sim_all.h.gch)"
else
	skip "the jobs' copy of the tools has sim's precompiled headers" "the build made none (c++ is not GCC)"
fi
ok "dataset-status ends" wait_done $B OUT="$TMP/fb" DATASET_WORK="$TMP/wb"
is "the build failed" "$(head -1 "$TMP/status")" "dataset: failed" || diag "$(cat "$TMP/status")"
ok "dataset-status names the shard and its log" grep -q '^failed shard 2: .*make exited.*; log .*/slurm/log/2.log' "$TMP/status"
ok "and shows the error" grep -q 'kgen: injected failure' "$TMP/status"
ok "and that the assembly job did not run" grep -q '^assembly job [0-9]*: cancelled' "$TMP/status"
ok "and how to retry" grep -q '^to build the missing shards and assemble: make dataset LAUNCH=slurm' "$TMP/status"
ok "$((nB - 1)) of $nB shards done" grep -q "^shards: $((nB - 1)) of $nB done, 0 queued or running, 1 failed" "$TMP/status"
ok "no OUT" test ! -e "$TMP/fb/data"
rm -f "$TMP/fail"
ok "the retry" mk dataset $B OUT="$TMP/fb" DATASET_WORK="$TMP/wb" LAUNCH=slurm
cp "$TMP/ok.out" "$TMP/submit4"
ok "submits the failed shard alone" grep -q 'submitted 1 shard(s)' "$TMP/submit4"
is "shard 2" "$(cat "$TMP"/wb/*/slurm/2.shards)" 2
ok "dataset-status ends" wait_done $B OUT="$TMP/fb" DATASET_WORK="$TMP/wb"
is "the build completes" "$(head -1 "$TMP/status")" "dataset: complete" || diag "$(cat "$TMP/status")"
ok "the same bytes as the local build" same_out "$TMP/local-b" "$TMP/fb"

# --- LAUNCH=srun inside an allocation -----------------------------------
(unset SLURM_JOB_ID; mk dataset $B OUT="$TMP/x" DATASET_WORK="$TMP/wx" LAUNCH=srun) >"$TMP/nosrun" 2>&1
is "LAUNCH=srun outside an allocation fails" "$?" 2
ok "and says to run it inside one" grep -q 'inside salloc or sbatch' "$TMP/nosrun"
steps0=$(grep -c 'launch task StepId=' "$C/log/slurmd.log")
ok "LAUNCH=srun inside salloc -n2, make -j2" salloc -n2 make --no-print-directory O="$KS_BUILD" SAN="$KS_SAN" \
	-j2 dataset $B OUT="$TMP/srun" DATASET_WORK="$TMP/ws" LAUNCH=srun
steps=$(($(grep -c 'launch task StepId=' "$C/log/slurmd.log") - steps0))
is "each shard's six recipes ran as job steps ($nB shards)" "$steps" $((6 * nB))
ok "LAUNCH=srun: the same bytes as the local build" same_out "$TMP/local-b" "$TMP/srun"

mk dataset N=1 LAUNCH=bogus DATASET_WORK="$TMP/wx" >"$TMP/bogus" 2>&1
is "LAUNCH=bogus is refused" "$?" 2
ok "with the choices" grep -q 'LAUNCH=bogus: empty (or local), srun or slurm' "$TMP/bogus"
done_testing
