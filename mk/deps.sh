#!/bin/sh
# deps.sh SET: make sure the Debian packages for SET are installed.
#   build  re2c, lemon, prove (perl), a C compiler, python3 (with venv),
#          libtcc and tcc
#   fuzz   clang and its libFuzzer runtime
#   slurm  slurm-wlm (slurmctld, slurmd, the clients) and munge, for the
#          single-node test cluster of `make check-slurm`
# Installs with apt-get when we are root or have password-less sudo;
# otherwise prints the exact command and fails.
set -u
set_name=${1:-build}
need=""

have_cmd() { command -v "$1" >/dev/null 2>&1; }

case $set_name in
build)
	have_cmd re2c || need="$need re2c"
	have_cmd lemon || need="$need lemon"
	[ -f /usr/share/lemon/lempar.c ] || need="$need lemon"
	have_cmd prove || need="$need perl"
	have_cmd cc || need="$need gcc"
	have_cmd python3 || need="$need python3"
	# t/t6004 installs the datasets library into a venv of the build
	python3 -c 'import ensurepip, venv' 2>/dev/null || need="$need python3-venv"
	# krun compiles emitted C in process with libtcc (else with cc)
	[ -f /usr/include/libtcc.h ] || need="$need libtcc-dev"
	have_cmd tcc || need="$need tcc"
	;;
fuzz)
	have_cmd clang || need="$need clang"
	ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1 ||
		need="$need libclang-rt-dev"
	;;
slurm)
	for c in slurmctld slurmd sbatch srun squeue scontrol sinfo; do
		have_cmd $c || [ -x /usr/sbin/$c ] || need="$need slurm-wlm"
	done
	have_cmd munged || [ -x /usr/sbin/munged ] || need="$need munge"
	;;
*)
	echo "deps.sh: unknown set '$set_name'" >&2
	exit 2
	;;
esac

[ -z "$need" ] && exit 0
need=$(echo $need | tr ' ' '\n' | sort -u | tr '\n' ' ')
echo "ksynth: missing Debian packages: $need" >&2
if [ "$(id -u)" = 0 ]; then
	sudo=""
elif have_cmd sudo && sudo -n true 2>/dev/null; then
	sudo="sudo -n"
else
	echo "ksynth: run as root:  apt-get update && apt-get install -y $need" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq >/dev/null || exit 1
# shellcheck disable=SC2086
$sudo apt-get install -y -qq --no-install-recommends $need >/dev/null || {
	echo "ksynth: apt-get install $need failed" >&2
	exit 1
}
