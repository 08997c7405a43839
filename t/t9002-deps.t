#!/bin/bash
# mk/deps.sh, what `make deps` runs: on a PATH that lacks the build's
# commands it names every missing Debian package with what needs it; -n
# (make deps-list) installs nothing and says the command; not root, it
# prints the command and fails; root, it gives apt-get exactly the missing
# packages.  NVRTC: the toolkit's when there is one, else the pinned wheel
# installed with pip into NVRTC_DIR, whole or not at all.  apt-get, id,
# python3 and pip are stand-ins here: nothing is installed.
. "$(dirname "$0")/lib.sh"

# a PATH with the shell and the few tools deps.sh uses, and stand-ins
mkdir -p "$TMP/p" "$TMP/log"
for c in sh cat sort tr tail grep mkdir rm mv ls cp; do
	ln -s "$(command -v $c)" "$TMP/p/$c"
done
stub() { # stub NAME BODY: a command on $TMP/p
	printf '#!/bin/sh\n%s\n' "$2" >"$TMP/p/$1" && chmod +x "$TMP/p/$1"
}
stub apt-get 'echo "$*" >>'"$TMP/log/apt"
stub id 'echo "${FAKE_UID:-0}"'
deps() { env -i PATH="$TMP/p" FAKE_UID="${FAKE_UID:-0}" CUDA_HOME="$TMP/none" NVRTC_DIR="$TMP/nv" \
	"$TMP/p/sh" mk/deps.sh "$@"; }
build_pkgs="g++ gcc gnuplot-nox lemon perl python3 python3-venv re2c tcc"

deps -n build >"$TMP/out" 2>&1
is "-n build: exit 0" "$?" 0
for p in $build_pkgs; do
	ok "-n build lists $p with what needs it" grep -q "^  $p  *[a-z]" "$TMP/out"
done
ok "-n build: the command, with every package" grep -q "^ksynth: would run:  apt-get update && apt-get install -y --no-install-recommends .*g++ gcc gnuplot-nox lemon perl python3 python3-venv re2c tcc" "$TMP/out"
is "-n build: apt-get not run" "$(cat "$TMP/log/apt" 2>/dev/null)" ""

FAKE_UID=1000 deps build >"$TMP/out" 2>&1
is "not root (no sudo): exit 1" "$?" 1
ok "... with the command to run as root" grep -q "^ksynth: run as root:  apt-get update && apt-get install -y --no-install-recommends " "$TMP/out"
is "... and apt-get not run" "$(cat "$TMP/log/apt" 2>/dev/null)" ""

deps build >"$TMP/out" 2>&1
is "root: exit 0" "$?" 0 || diag "$(cat "$TMP/out")"
is "root: apt-get update, then install of exactly the missing packages" "$(cat "$TMP/log/apt")" \
	"update -qq
install -y -qq --no-install-recommends $(sed 's/^  \([^ ]*\) .*/\1/p; d' "$TMP/out" | tr '\n' ' ' | sed 's/ $//')"
is "... which are the build's" "$(sed 's/^  \([^ ]*\) .*/\1/p; d' "$TMP/out" | grep -cvxF -f <(tr ' ' '\n' <<<"$build_pkgs libc6-dev libtcc-dev"))" 0

# NVRTC
mkdir -p "$TMP/tk/lib64" && : >"$TMP/tk/lib64/libnvrtc.so.13"
CUDA=$TMP/tk
is "nvrtc -n with a toolkit: its NVRTC" "$(env -i PATH="$TMP/p" CUDA_HOME="$TMP/tk" "$TMP/p/sh" mk/deps.sh -n nvrtc 2>&1)" \
	"ksynth: NVRTC, for make dataset DEVICE=cuda: the CUDA toolkit's, in $TMP/tk/lib64"
pin=$(sed -n 's/^NVRTC_VERSION=//p' mk/deps.sh)
deps -n nvrtc >"$TMP/out" 2>&1
is "nvrtc -n without a toolkit: exit 0" "$?" 0
ok "... names the pinned wheel and where it goes" \
	grep -q "^ksynth: NVRTC, for make dataset DEVICE=cuda: none in $TMP/none/lib64 (CUDA_HOME), so PyPI's nvidia-cuda-nvrtc==$pin (220 MB installed), into $TMP/nv where krun finds it" "$TMP/out"
ok "... and the command" grep -q "^ksynth: would run:  python3 -m venv .* install --target .* nvidia-cuda-nvrtc==$pin" "$TMP/out"
ok "... and installs nothing" test ! -e "$TMP/nv" -a -z "$(ls "$TMP" | grep '^nv\.')"

# python3 -m venv DIR makes DIR/bin/pip; pip install --target T puts the
# wheel's layout under T (or fails, with FAKE_PIP_FAIL)
stub python3 'case "$1 $2" in "-m venv") mkdir -p "$3/bin" && cp '"$TMP"'/pip "$3/bin/pip" ;; *) exit 1 ;; esac'
cat >"$TMP/pip" <<'EOF'
#!/bin/sh
echo "$*" >>"$LOG/pip"
[ -z "${FAKE_PIP_FAIL:-}" ] || { echo "ERROR: Could not find a version that satisfies the requirement" >&2; exit 1; }
while [ "$1" != --target ]; do shift; done
mkdir -p "$2/nvidia/cu13/lib" && : >"$2/nvidia/cu13/lib/libnvrtc.so.13"
EOF
chmod +x "$TMP/pip"
env -i PATH="$TMP/p" LOG="$TMP/log" FAKE_PIP_FAIL=1 CUDA_HOME="$TMP/none" NVRTC_DIR="$TMP/nv" "$TMP/p/sh" mk/deps.sh nvrtc >"$TMP/out" 2>"$TMP/err"
is "a failed pip install: exit 1" "$?" 1
ok "... with pip's last line" grep -q "^ksynth: pip install nvidia-cuda-nvrtc==$pin failed: ERROR: Could not find a version" "$TMP/err"
ok "... and nothing left" test ! -e "$TMP/nv" -a -z "$(ls "$TMP" | grep '^nv\.')"
env -i PATH="$TMP/p" LOG="$TMP/log" CUDA_HOME="$TMP/none" NVRTC_DIR="$TMP/nv" "$TMP/p/sh" mk/deps.sh nvrtc >"$TMP/out" 2>"$TMP/err"
is "pip installs the wheel: exit 0" "$?" 0 || diag "$(cat "$TMP/err")"
ok "... pinned, with a short timeout" grep -q -- "--retries 1 --timeout 30 --target $TMP/nv.tmp.[0-9]* nvidia-cuda-nvrtc==$pin\$" "$TMP/log/pip"
ok "... into NVRTC_DIR, where krun looks (nvidia/*/lib)" test -e "$TMP/nv/nvidia/cu13/lib/libnvrtc.so.13"
is "... with the version it holds, and no pip venv" "$(cat "$TMP/nv/.version"):$(ls -A "$TMP/nv" | tr '\n' ' ')" \
	"nvidia-cuda-nvrtc==$pin:.version nvidia "
ok "... and says so" grep -q "^ksynth: NVRTC installed: $TMP/nv/nvidia/cu13/lib/libnvrtc.so.13" "$TMP/out"
: >"$TMP/log/pip"
env -i PATH="$TMP/p" LOG="$TMP/log" CUDA_HOME="$TMP/none" NVRTC_DIR="$TMP/nv" "$TMP/p/sh" mk/deps.sh nvrtc >"$TMP/out" 2>&1
is "installed: the next run does nothing" "$?:$(cat "$TMP/out" "$TMP/log/pip")" "0:"

ok "make deps-list runs" make --no-print-directory deps-list
ok "an unknown set is bad usage" sh -c "sh mk/deps.sh nope 2>/dev/null; test \$? = 2"
done_testing
