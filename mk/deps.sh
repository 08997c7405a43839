#!/bin/sh
# deps.sh: make sure what a set of targets needs is installed (mk/deps.mk).
#
#   sh mk/deps.sh [-n] SET...
#
#   build  the Debian packages of `make` and `make check`: re2c and lemon
#          (the front end's generators), prove (perl), gcc with the C
#          library headers (libc6-dev), a C++ compiler for krun's sim
#          device (g++), python3 with venv, libtcc and tcc, libseccomp
#          (krun's confinement of the code it runs), and gnuplot
#          (the dataset card's plots)
#   nvrtc  NVRTC, for `make dataset DEVICE=cuda`: the CUDA toolkit's when
#          there is one ($CUDA_HOME, else /usr/local/cuda), else PyPI's
#          nvidia-cuda-nvrtc wheel at the version pinned below, installed
#          with pip into $NVRTC_DIR (default build/nvrtc), where krun looks
#   fuzz   clang and its libFuzzer runtime
#   slurm  slurm-wlm (slurmctld, slurmd, the clients) and munge, for the
#          single-node test cluster of `make check-slurm`
#   bare   debootstrap, for the bare Debian root of `make check-bare`
#   format clang-format (Debian 12's is 14, whose layout .clang-format
#          describes), for `make check-format`
#
# Debian packages are installed with apt-get when we are root or have
# password-less sudo; otherwise the exact command is printed and the
# script fails.  With -n nothing is installed: what is missing is listed,
# each with what needs it, and the command that would install it.
set -u

# The NVRTC wheel: the toolkit's own NVRTC (CUDA 13.0's is this wheel's
# 13.0.88); its cubins load on every CUDA 13 driver.
NVRTC_WHEEL=nvidia-cuda-nvrtc
NVRTC_VERSION=13.0.88
NVRTC_DIR=${NVRTC_DIR:-build/nvrtc}

# -n: the listing is the product, on stdout; else it goes with the errors
dry= say=2
if [ "${1-}" = -n ]; then
	dry=1 say=1
	shift
fi
[ $# -gt 0 ] || set -- build

have_cmd() { command -v "$1" >/dev/null 2>&1; }

# why PACKAGE: what needs it
why() {
	case $1 in
	re2c) echo "generates the front end's lexer (grammar/lexer.re)" ;;
	lemon) echo "generates the front end's parser (grammar/parser.y)" ;;
	perl) echo "prove, which runs the test suite" ;;
	gcc) echo "the C compiler: the tools, and krun's C where libtcc is not used" ;;
	libc6-dev) echo "the C library's headers (errno.h, stdio.h): every C compile" ;;
	g++) echo "a C++ compiler: krun's sim device runs the CUDA code compiled as C++" ;;
	python3) echo "the tests' checkers (t/run/check.py), and pip for NVRTC" ;;
	python3-venv) echo "venvs: NVRTC from PyPI, the datasets library of t/t6004" ;;
	libtcc-dev) echo "libtcc: krun compiles C in process, without a cc per check" ;;
	libseccomp-dev) echo "libseccomp: krun runs kernel code in a child its seccomp filter confines" ;;
	tcc) echo "libtcc1.a, the runtime library libtcc links the kernels with" ;;
	gnuplot-nox) echo "gnuplot: the dataset card's plots" ;;
	clang) echo "libFuzzer's compiler (make fuzz)" ;;
	libclang-rt-dev) echo "libFuzzer's runtime (make fuzz)" ;;
	slurm-wlm) echo "the single-node Slurm cluster of make check-slurm" ;;
	munge) echo "Slurm's authentication (make check-slurm)" ;;
	debootstrap) echo "builds the bare Debian root of make check-bare" ;;
	clang-format) echo "lays out the C sources as .clang-format says (make format, make check-format)" ;;
	*) echo "" ;;
	esac
}

# ---- NVRTC ----------------------------------------------------------------

# The toolkit's NVRTC, or the wheel pip installs into NVRTC_DIR: krun finds
# either by itself (runtime/run_cuda.c).
nvrtc() {
	home=${CUDA_HOME:-/usr/local/cuda}
	pin=$NVRTC_WHEEL==$NVRTC_VERSION
	for f in "$home"/lib64/libnvrtc.so*; do
		[ -e "$f" ] || continue
		[ -z "$dry" ] || echo "ksynth: NVRTC, for make dataset DEVICE=cuda: the CUDA toolkit's, in $home/lib64"
		return 0
	done
	if [ "$(cat "$NVRTC_DIR/.version" 2>/dev/null)" = "$pin" ]; then
		[ -z "$dry" ] || echo "ksynth: NVRTC, for make dataset DEVICE=cuda: $pin, in $NVRTC_DIR"
		return 0
	fi
	echo "ksynth: NVRTC, for make dataset DEVICE=cuda: none in $home/lib64 (CUDA_HOME), so PyPI's $pin (220 MB installed), into $NVRTC_DIR where krun finds it"
	if [ -n "$dry" ]; then
		echo "ksynth: would run:  python3 -m venv $NVRTC_DIR.tmp/.pip && $NVRTC_DIR.tmp/.pip/bin/pip install --target $NVRTC_DIR.tmp $pin && mv $NVRTC_DIR.tmp $NVRTC_DIR"
		return 0
	fi
	tmp=$NVRTC_DIR.tmp.$$
	trap 'rm -rf "$tmp"' EXIT
	trap 'exit 130' INT TERM
	rm -rf "$tmp" && mkdir -p "$tmp" || return 1
	if ! out=$(python3 -m venv "$tmp/.pip" 2>&1); then
		echo "ksynth: python3 -m venv failed (python3-venv: make deps): $(echo "$out" | tail -n 1)" >&2
		return 1
	fi
	# one retry, 30 s a try: without network this fails in about a minute
	if ! out=$("$tmp/.pip/bin/pip" install --disable-pip-version-check --no-input --progress-bar off -q \
		--retries 1 --timeout 30 --target "$tmp" "$pin" 2>&1); then
		# pip's last line says only that nothing was found; why is earlier
		why=$(echo "$out" | grep -o 'Failed to establish a new connection: [^)]*\|Temporary failure in name resolution\|SSLError([^)]*\|CERTIFICATE_VERIFY_FAILED' | head -n 1 | sed "s/'$//")
		echo "ksynth: pip install $pin failed: $(echo "$out" | grep -v '^ *$' | tail -n 1)${why:+ (PyPI: $why)}" >&2
		return 1
	fi
	rm -rf "$tmp/.pip"
	set -- "$tmp"/nvidia/*/lib/libnvrtc.so.*
	if [ ! -e "$1" ]; then
		echo "ksynth: $pin holds no libnvrtc.so (nvidia/*/lib/)" >&2
		return 1
	fi
	echo "$pin" >"$tmp/.version" && rm -rf "$NVRTC_DIR" && mv "$tmp" "$NVRTC_DIR" || return 1
	echo "ksynth: NVRTC installed: $NVRTC_DIR/${1#"$tmp"/}"
}

# ---- Debian packages ------------------------------------------------------

need="" apt_sets=""
for set_name; do
	[ "$set_name" = nvrtc ] || apt_sets="$apt_sets $set_name"
	case $set_name in
	build)
		have_cmd re2c || need="$need re2c"
		have_cmd lemon || need="$need lemon"
		[ -f /usr/share/lemon/lempar.c ] || need="$need lemon"
		have_cmd prove || need="$need perl"
		have_cmd cc || need="$need gcc"
		[ -f /usr/include/errno.h ] || need="$need libc6-dev"
		have_cmd c++ || need="$need g++"
		have_cmd python3 || need="$need python3"
		python3 -c 'import ensurepip, venv' 2>/dev/null || need="$need python3-venv"
		[ -f /usr/include/libtcc.h ] || need="$need libtcc-dev"
		[ -f /usr/include/seccomp.h ] || need="$need libseccomp-dev"
		have_cmd tcc || need="$need tcc"
		have_cmd gnuplot || need="$need gnuplot-nox"
		;;
	nvrtc) ;; # after the packages: pip needs python3-venv
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
	bare)
		have_cmd debootstrap || [ -x /usr/sbin/debootstrap ] || need="$need debootstrap"
		;;
	format)
		have_cmd clang-format || need="$need clang-format"
		;;
	*)
		echo "deps.sh: unknown set '$set_name'" >&2
		exit 2
		;;
	esac
done

if [ -n "$need" ]; then
	need=$(echo $need | tr ' ' '\n' | sort -u | tr '\n' ' ')
	need=${need% }
	echo "ksynth: missing Debian packages:" >&$say
	for p in $need; do
		printf '  %-16s %s\n' "$p" "$(why "$p")" >&$say
	done
	cmd="apt-get update && apt-get install -y --no-install-recommends $need"
	if [ -n "$dry" ]; then
		echo "ksynth: would run:  $cmd"
	else
		if [ "$(id -u)" = 0 ]; then
			sudo=""
		elif have_cmd sudo && sudo -n true 2>/dev/null; then
			sudo="sudo -n"
		else
			echo "ksynth: run as root:  $cmd" >&2
			exit 1
		fi
		export DEBIAN_FRONTEND=noninteractive
		$sudo apt-get update -qq >/dev/null || exit 1
		# shellcheck disable=SC2086
		$sudo apt-get install -y -qq --no-install-recommends $need >/dev/null || {
			echo "ksynth: apt-get install $need failed" >&2
			exit 1
		}
	fi
elif [ -n "$dry" ] && [ -n "$apt_sets" ]; then
	echo "ksynth: no Debian package to install for:$apt_sets"
fi

for set_name; do
	[ "$set_name" != nvrtc ] || nvrtc || exit 1
done
exit 0
