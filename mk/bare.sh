#!/bin/bash
# mk/bare.sh: `make check-bare`, the README's quick start on a bare Debian.
#
#   bash mk/bare.sh BUILD-FOLDER
#
# Builds a minimal Debian 12 (bookworm) root with debootstrap (variant
# minbase, and git and make: what a new user starts from), from the mirror
# the machine's apt uses (BARE_MIRROR= to choose another), in a new folder
# under $TMPDIR (default /var/tmp): nothing is kept from one run to the
# next.  It copies the repository's files (those git tracks or would add)
# into /root/ksynth there and runs, as root in a chroot, exactly the
# README's two commands, N smaller:
#
#     make dataset N=$BARE_N DEVICE=cuda      (BARE_N, default 100)
#     make check
#
# with nothing installed by hand: the commands install what they need
# (mk/deps.sh), NVRTC included, which with no CUDA toolkit there is PyPI's
# wheel in build/nvrtc.  Then it checks what the quick start promises: N
# records, each compiled by that NVRTC (krun found it with no
# LD_LIBRARY_PATH) and executed on sim, and the card's plots (gnuplot).
# Then, in a new copy of the repository in the same root, the two commands
# again with PyPI out of reach (a network namespace with no route) and no
# CUDA toolkit: make dataset (N=BARE_OFFLINE_N, default 20) builds, checked
# on sim alone, and says why in one line; make check runs the tests that
# NVRTC, pip or a CUDA device concern (BARE_OFFLINE_TESTS; BARE_OFFLINE=0
# skips the round).
#
# Each step has a time limit, well beyond what it takes (on the 2-core
# development machine: debootstrap 41 s, make dataset 124 s, make check
# 683 s, the offline round 111 s, 16 minutes in all), there to end a
# hang, not to time the suite; a
# failure names the command, its exit status and the end of its output
# (the logs stay in BUILD-FOLDER/bare/).  The
# chroot's /proc, /sys and /dev are mounted in a mount namespace of the
# step's own, unmounted when the step ends, by a trap, and by the kernel
# with the namespace whatever happens: no mount outlives a step, and none
# is ever seen outside it.  The root is removed at the end.
set -u
cd "$(dirname "$0")/.." || exit 1
build=${1:-build}
N=${BARE_N:-100}
logs=$build/bare
t_start=$(date +%s)

say() { echo "check-bare: $*"; }
die() { say "FAILED: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "needs root (debootstrap, chroot, mount)"
sh mk/deps.sh bare || die "debootstrap cannot be installed"
PATH=$PATH:/usr/sbin:/sbin

# The mirror that apt here takes bookworm from: a deb822 .sources stanza
# or a one-line `deb URI bookworm ...`.
mirror() {
	local m
	m=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null | awk 'BEGIN { RS = "" } {
		n = split($0, l, "\n"); types = suites = uri = ""
		for (i = 1; i <= n; i++) {
			gsub(/\t/, " ", l[i])
			if (l[i] ~ /^Types:/) types = " " substr(l[i], 7) " "
			else if (l[i] ~ /^Suites:/) suites = " " substr(l[i], 8) " "
			else if (l[i] ~ /^URIs:/) { split(substr(l[i], 6), u, " "); uri = u[1] }
		}
		if (types ~ / deb / && suites ~ / bookworm / && uri != "") { print uri; exit }
	}')
	[ -n "$m" ] || m=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null | awk '$1 == "deb" {
		for (i = 2; i < NF; i++) if ($i ~ /^[a-z+]+:\/\//) { if ($(i + 1) == "bookworm") { print $i; exit } break }
	}')
	echo "$m"
}
MIRROR=${BARE_MIRROR:-$(mirror)}
[ -n "$MIRROR" ] || die "apt's sources name no Debian bookworm mirror to build the root from: set BARE_MIRROR=URI"

mkdir -p "$logs" && rm -f "$logs"/*.log
root=$(mktemp -d "${TMPDIR:-/var/tmp}/ksynth-bare.XXXXXX") && chmod 755 "$root" || die "mktemp failed"
# the root is removed only when nothing is mounted under it (the steps'
# namespaces are gone by then, so nothing can be)
cleanup() {
	case $root in */ksynth-bare.??????) ;; *) return ;; esac
	if grep -q " $root/" /proc/mounts; then
		say "$root still has mounts; left in place" >&2
	else
		rm -rf --one-file-system "$root"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

# tail_of LOG: the end of a step's output, indented
tail_of() {
	local from
	from=$(grep -n 'Test Summary Report' "$1" | tail -n 1 | cut -d: -f1)
	if [ -n "$from" ]; then tail -n +"$from" "$1"; else tail -n 25 "$1"; fi | sed 's/^/    /'
}

# step NAME LIMIT WHAT COMMAND...: COMMAND, bounded by LIMIT seconds, its
# output in $logs/NAME.log; a failure ends the run naming WHAT
step() {
	local name=$1 limit=$2 what=$3 st t0=$(date +%s)
	shift 3
	say "$what ..."
	timeout -k 30 "$limit" "$@" >"$logs/$name.log" 2>&1
	st=$?
	T=$(($(date +%s) - t0))
	if [ $st = 124 ] || [ $st = 137 ]; then
		say "FAILED: \`$what\` ran past its limit of $limit s in the bare Debian 12 root (log: $logs/$name.log); its last lines:" >&2
		tail_of "$logs/$name.log" >&2
		exit 1
	elif [ $st != 0 ]; then
		say "FAILED: \`$what\` exited $st after $T s in the bare Debian 12 root (log: $logs/$name.log); its last lines:" >&2
		tail_of "$logs/$name.log" >&2
		exit 1
	fi
	say "$what: ok, $T s"
}

# "${inside[@]}" COMMAND...: COMMAND as root in the root, from
# /root/ksynth, with a clean environment; /proc, /sys, /dev (and a
# /dev/shm of its own) mounted in a private mount namespace for it alone
inside=(unshare --mount --propagation private bash -c '
	root=$1
	shift
	trap "exit 143" TERM INT HUP
	trap "umount \"$root/dev/shm\" \"$root/dev/pts\" \"$root/dev\" \"$root/sys\" \"$root/proc\" 2>/dev/null" EXIT
	mount -t proc proc "$root/proc" && mount -t sysfs sysfs "$root/sys" &&
		mount --bind /dev "$root/dev" && mount --bind /dev/pts "$root/dev/pts" &&
		mount -t tmpfs shm "$root/dev/shm" || exit 125
	chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		${http_proxy:+http_proxy=$http_proxy} ${https_proxy:+https_proxy=$https_proxy} \
		${no_proxy:+no_proxy=$no_proxy} \
		/bin/sh -c "cd /root/ksynth && exec \"\$@\"" - "$@"
' - "$root")

say "a bare Debian 12 in $root, from $MIRROR; the logs in $logs/"
step debootstrap 300 "debootstrap --variant=minbase --include=git,make bookworm" \
	debootstrap --variant=minbase --include=git,make bookworm "$root" "$MIRROR"
T_DEBOOTSTRAP=$T
# bare indeed: what the commands need, they must install
for f in usr/bin/cc usr/bin/c++ usr/include/errno.h usr/bin/python3 usr/bin/gnuplot; do
	[ ! -e "$root/$f" ] || die "the root is not bare: it has /$f"
done
# The machine's network setting goes in with the files: its resolver, its
# proxy (the environment, below) and the certificate authorities it adds
# to Debian's (/usr/local/share/ca-certificates, which Debian's
# ca-certificates takes in when make installs it), where HTTPS goes
# through a proxy that signs with its own.
mkdir -p "$root/root/ksynth" && cp -L /etc/resolv.conf "$root/etc/resolv.conf" || die "cannot fill $root"
if ls /usr/local/share/ca-certificates/*.crt >/dev/null 2>&1; then
	mkdir -p "$root/usr/local/share/ca-certificates" &&
		cp -L /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/" ||
		die "cannot copy the local certificate authorities"
fi
git ls-files -z --cached --others --exclude-standard |
	tar --null --no-recursion --ignore-failed-read -T - -cf - 2>/dev/null | tar -C "$root/root/ksynth" -xf - ||
	die "cannot copy the repository into $root/root/ksynth"

step dataset 600 "make dataset N=$N DEVICE=cuda" "${inside[@]}" make dataset N="$N" DEVICE=cuda
T_DATASET=$T
# the packages went in before make read its makefiles again: the first
# build found libtcc (mk/deps.mk)
grep -q KS_HAVE_LIBTCC "$root/root/ksynth/build/runtime.flags" ||
	die "make dataset built krun without libtcc: the makefiles were read before the packages went in"
step check 2400 "make check" "${inside[@]}" make check
T_CHECK=$T

# What the quick start promises: krun finds the build folder's NVRTC by
# itself, and every record says that NVRTC compiled it and sim ran it; the
# card names it and shows the plots.
step nvrtc 60 "build/bin/krun --nvrtc" "${inside[@]}" build/bin/krun --nvrtc
nv=$(cat "$logs/nvrtc.log")
case $nv in
"NVRTC "*": /root/ksynth/build/bin/../nvrtc/nvidia/"*) ;;
*) die "krun --nvrtc in the root does not name the build folder's NVRTC: $nv" ;;
esac
nv=${nv%%:*}
ds=$root/root/ksynth/dataset/cuda
n=$(cat "$ds"/data/*.jsonl | wc -l)
c=$(cat "$ds"/data/*.jsonl | grep -c "\"checks\": {\"compiled\": true, \"compiler\": \"$nv\", \"executed\": true, \"executed_on\": \"sim\", \"gradcheck\": true}")
[ "$n" = "$N" ] || die "make dataset N=$N wrote $n records"
[ "$c" = "$n" ] || die "$((n - c)) of the $n records do not say that $nv compiled them and sim ran them"
grep -q "^$nv compiled it to an sm_90 cubin" "$ds/README.md" || die "the dataset card does not name $nv"
[ -s "$ds/plots/categories.png" ] && [ -s "$ds/plots/lines.png" ] || die "the dataset card has no plots (gnuplot)"
say "the $n records say $nv compiled them and sim ran them; the card says so and has its plots"

say "the README's two commands pass on a bare Debian 12: debootstrap $T_DEBOOTSTRAP s," \
	"make dataset N=$N DEVICE=cuda $T_DATASET s, make check $T_CHECK s; $(($(date +%s) - t_start)) s so far"

# The same two commands with PyPI out of reach and no CUDA toolkit: a new
# copy of the repository (no build folder, so no NVRTC in it) in the same
# root, whose Debian packages are in (apt has done its part), run in a
# network namespace of their own with no interface but loopback (unshare
# --net): pip's every connection fails, as on a machine without network.
# The dataset builds, checked on sim alone, and says why there is no
# NVRTC; make check runs only the tests whose outcome NVRTC, pip or a CUDA
# device changes (BARE_OFFLINE_TESTS), to keep the round short: the rest
# ran above and do not look for either.
if [ "${BARE_OFFLINE:-1}" = 1 ]; then
	NO=${BARE_OFFLINE_N:-20}
	OFFLINE_TESTS=${BARE_OFFLINE_TESTS:-$(cd t && ls t3004-*.t t4004-*.t t4011-*.t t4014-*.t t4015-*.t t4031-*.t \
		t4101-*.t t4103-*.t t4104-*.t t6002-*.t t6004-*.t 2>/dev/null | sed 's|^|t/|' | tr '\n' ' ')}
	[ ! -e "$root/usr/local/cuda" ] || die "the root has /usr/local/cuda: the offline round must see no CUDA toolkit"
	f=$(find "$root" -xdev -path "$root/root/ksynth" -prune -o -name 'libnvrtc*' -print | head -n 1)
	[ -z "$f" ] || die "the root has an NVRTC outside the repository (${f#"$root"}): the offline round must see none"
	mkdir -p "$root/root/ksynth-offline" &&
		git ls-files -z --cached --others --exclude-standard |
		tar --null --no-recursion --ignore-failed-read -T - -cf - 2>/dev/null | tar -C "$root/root/ksynth-offline" -xf - ||
		die "cannot copy the repository into $root/root/ksynth-offline"
	offline=(unshare --net "${inside[@]}" sh -c 'cd /root/ksynth-offline && exec "$@"' -)
	step offline-dataset 300 "make dataset N=$NO DEVICE=cuda (PyPI unreachable)" \
		"${offline[@]}" make dataset N="$NO" DEVICE=cuda
	T_ODATASET=$T
	grep -q '^make dataset: no NVRTC (NVRTC (libnvrtc.so) not found in .*; pip install nvidia-cuda-nvrtc==[0-9.]* failed: .*): the CUDA code is checked on sim alone' \
		"$logs/offline-dataset.log" ||
		die "make dataset without PyPI did not say, in one line, that there is no NVRTC and that pip failed (log: $logs/offline-dataset.log)"
	ds=$root/root/ksynth-offline/dataset/cuda
	n=$(cat "$ds"/data/*.jsonl | wc -l)
	c=$(cat "$ds"/data/*.jsonl | grep -c '"checks": {"compiled": false, "compiler": "none", "executed": true, "executed_on": "sim", "gradcheck": true}')
	[ "$n" = "$NO" ] || die "make dataset N=$NO without PyPI wrote $n records"
	[ "$c" = "$n" ] || die "$((n - c)) of the $n records made without PyPI do not say that sim alone checked them"
	step offline-check 600 "make check CHECK_TESTS='$OFFLINE_TESTS' (PyPI unreachable)" \
		"${offline[@]}" make check CHECK_TESTS="$OFFLINE_TESTS"
	T_OCHECK=$T
	say "without PyPI: make dataset N=$NO DEVICE=cuda $T_ODATASET s (sim alone, and it says why), make check of" \
		"$(echo $OFFLINE_TESTS | wc -w) tests $T_OCHECK s"
fi
say "done: $(($(date +%s) - t_start)) s in all"
