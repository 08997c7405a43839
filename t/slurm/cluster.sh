#!/bin/bash
# t/slurm/cluster.sh: a single-node Slurm cluster on localhost for `make
# check-slurm` (t/t6101-dataset-slurm.t).
#
#   t/slurm/cluster.sh start DIR    start munged, slurmctld and slurmd
#   t/slurm/cluster.sh stop DIR     stop the daemons that `start` started
#
# Everything lives in DIR (a folder under the build folder): the munge key
# and socket, slurm.conf (t/slurm/slurm.conf.in with the host, two free
# ports and the CPU count filled in), the state, spool, pid and log files.
# Clients find the cluster with SLURM_CONF=DIR/slurm.conf.  `start` waits
# until the node takes jobs; when the daemons cannot be started (not root,
# Slurm or munge missing and not installable, a daemon that dies) it stops
# what it started, prints the reason on one line and exits 77.
set -u
cmd=${1:-} dir=${2:-}
[ -n "$cmd" ] && [ -n "$dir" ] || { echo "usage: cluster.sh start|stop DIR" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)

# stop_pid FILE NAME: end the daemon NAME whose pid FILE holds (when that
# process is still NAME: a stale file names nobody), and wait for it
stop_pid() {
	[ -s "$1" ] || return 0
	local pid
	pid=$(cat "$1")
	[ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$2" ] || { rm -f "$1"; return 0; }
	kill "$pid" 2>/dev/null
	for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
	kill -9 "$pid" 2>/dev/null
	rm -f "$1"
}

stop() {
	# first the jobs (their processes would outlive slurmd), at most 20 s
	if [ -s "$dir/slurmctld.pid" ] && kill -0 "$(cat "$dir/slurmctld.pid")" 2>/dev/null; then
		SLURM_CONF=$dir/slurm.conf scancel --user="$(id -un)" 2>/dev/null
		for _ in $(seq 100); do
			[ -z "$(SLURM_CONF=$dir/slurm.conf squeue -h -o %A 2>/dev/null)" ] && break
			sleep 0.2
		done
	fi
	stop_pid "$dir/slurmd.pid" slurmd
	stop_pid "$dir/slurmctld.pid" slurmctld
	stop_pid "$dir/munge/munged.pid" munged
	return 0
}

# give_up REASON: stop what started, say why, exit 77 (skipped)
give_up() {
	stop
	echo "$1"
	exit 77
}

# free_port: a TCP port nobody listens on now
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

case $cmd in
stop)
	stop
	exit 0 ;;
start) ;;
*)
	echo "cluster.sh: unknown command $cmd" >&2
	exit 2 ;;
esac

[ "$(id -u)" = 0 ] || give_up "the test cluster's slurmd must run as root"
sh "$here/../../mk/deps.sh" slurm >"$dir.deps.log" 2>&1 ||
	give_up "Slurm and munge are missing and could not be installed: $(tail -1 "$dir.deps.log")"
rm -f "$dir.deps.log"
for d in munged slurmctld slurmd sbatch srun squeue scontrol; do
	command -v $d >/dev/null 2>&1 || [ -x /usr/sbin/$d ] || give_up "$d is not installed"
done
PATH=$PATH:/usr/sbin

stop
rm -rf "$dir"
mkdir -p "$dir/munge" "$dir/state" "$dir/spool" "$dir/log" || give_up "cannot create $dir"
chmod 700 "$dir/munge"
host=$(hostname -s)
cpus=$(nproc)
sed -e "s|@HOST@|$host|g; s|@DIR@|$dir|g; s|@CPUS@|$cpus|g; s|@USER@|$(id -un)|g" \
	-e "s|@CTLD_PORT@|$(free_port)|g; s|@SLURMD_PORT@|$(free_port)|g" \
	"$here/slurm.conf.in" >"$dir/slurm.conf" || give_up "cannot write $dir/slurm.conf"
export SLURM_CONF=$dir/slurm.conf

# munge: a key of our own, the socket slurm.conf's AuthInfo names
dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none && chmod 400 "$dir/munge/munge.key" ||
	give_up "cannot write the munge key"
munged --force --socket="$dir/munge/munge.socket" --key-file="$dir/munge/munge.key" \
	--pid-file="$dir/munge/munged.pid" --log-file="$dir/log/munged.log" \
	--seed-file="$dir/munge/munged.seed" 2>"$dir/log/munged.err" ||
	give_up "munged did not start: $(tail -1 "$dir/log/munged.err")"

slurmctld -c 2>"$dir/log/slurmctld.err" ||
	give_up "slurmctld did not start: $(tail -1 "$dir/log/slurmctld.err")"
slurmd -c -N "$host" 2>"$dir/log/slurmd.err" ||
	give_up "slurmd did not start: $(tail -1 "$dir/log/slurmd.err" "$dir/log/slurmd.log" 2>/dev/null | tail -1)"

# wait (at most 60 s) for the node to take jobs
for _ in $(seq 300); do
	state=$(sinfo -h -n "$host" -o %T 2>/dev/null)
	case $state in idle*|mixed*|allocated*) exit 0 ;; esac
	for p in slurmctld slurmd; do
		[ -s "$dir/$p.pid" ] && kill -0 "$(cat "$dir/$p.pid")" 2>/dev/null ||
			give_up "$p died: $(grep -h error "$dir/log/$p.log" 2>/dev/null | tail -1)"
	done
	sleep 0.2
done
give_up "the node did not come up (state '${state:-?}'): $(grep -h error "$dir/log/slurmd.log" "$dir/log/slurmctld.log" 2>/dev/null | tail -1)"
