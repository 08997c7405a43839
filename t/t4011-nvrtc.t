#!/bin/bash
# Which NVRTC krun takes (runtime/run_cuda.c, doc/runtime.md): the CUDA
# toolkit's ($CUDA_HOME, else /usr/local/cuda), then the build folder's
# (nvrtc/nvidia/*/lib, as pip installs PyPI's wheel), then the loader's
# path; in a folder the newest major first; only one whose major the
# driver supports (cuDriverGetVersion); `krun --nvrtc` and --verbose say
# which.  Fake NVRTCs (t/run/fake_nvrtc.c) of several versions and fake
# drivers (t/run/fake_cuda.c) stand in for toolkits and GPUs.  Where a real
# NVRTC is at hand and we are root, the build folder's NVRTC compiles with
# the loader's cache hidden: krun loads its builtins library itself.
. "$(dirname "$0")/lib.sh"

KS_BUILD=${KS_BUILD:-$T_ROOT/build}
CC=${CC:-cc}

fake_nvrtc() { # fake_nvrtc PATH MAJOR MINOR
	mkdir -p "$(dirname "$1")" &&
		$CC -shared -fPIC -DMAJOR="$2" -DMINOR="$3" -o "$1" t/run/fake_nvrtc.c
}
fake_driver() { # fake_driver DIR VERSION
	mkdir -p "$1" && $CC -shared -fPIC -DVERSION="$2" -o "$1/libcuda.so.1" t/run/fake_cuda.c
}
ok "fake NVRTCs and drivers build" sh -c "$(declare -f fake_nvrtc fake_driver); CC='$CC'
	fake_nvrtc '$TMP/tk12/lib64/libnvrtc.so.12' 12 4 && ln -s libnvrtc.so.12 '$TMP/tk12/lib64/libnvrtc.so' &&
	fake_nvrtc '$TMP/tk13/lib64/libnvrtc.so.13' 13 0 && fake_nvrtc '$TMP/tk13/lib64/libnvrtc.so.12' 12 8 &&
	fake_nvrtc '$TMP/tk13only/lib64/libnvrtc.so.13' 13 0 &&
	fake_nvrtc '$TMP/b/nvrtc/nvidia/cu13/lib/libnvrtc.so.13' 13 1 &&
	fake_nvrtc '$TMP/b/nvrtc/nvidia/cuda_nvrtc/lib/libnvrtc.so.12' 12 6 &&
	fake_driver '$TMP/drv11' 11080 && fake_driver '$TMP/drv12' 12080 && fake_driver '$TMP/drv13' 13000 &&
	mkdir -p '$TMP/b/bin' && cp '$KS_BIN/krun' '$TMP/b/bin/krun'" || done_testing

B=$TMP/b/bin/../nvrtc/nvidia
which() { # which CUDA_HOME DRIVER-DIR: krun --nvrtc's line, or its status and message
	local out st
	out=$(env CUDA_HOME="$1" LD_LIBRARY_PATH="$2" "$TMP/b/bin/krun" --nvrtc 2>&1)
	st=$?
	[ $st = 0 ] && echo "$out" || echo "exit $st: $out"
}

is "the toolkit (\$CUDA_HOME) first, libnvrtc.so.N before the libnvrtc.so link" \
	"$(which "$TMP/tk12" "")" "NVRTC 12.4: $TMP/tk12/lib64/libnvrtc.so.12 (driver: none)"
is "in a folder, the newest major first" \
	"$(which "$TMP/tk13" "")" "NVRTC 13.0: $TMP/tk13/lib64/libnvrtc.so.13 (driver: none)"
is "no toolkit: the build folder's, beside krun's bin/, the newest of nvidia/*/lib" \
	"$(which "$TMP/none" "")" "NVRTC 13.1: $B/cu13/lib/libnvrtc.so.13 (driver: none)"
is "a CUDA 12.8 driver: the toolkit's NVRTC 12, not its 13" \
	"$(which "$TMP/tk13" "$TMP/drv12")" "NVRTC 12.8: $TMP/tk13/lib64/libnvrtc.so.12 (driver: CUDA 12.8)"
is "a CUDA 12.8 driver, a toolkit with NVRTC 13 only: the build folder's NVRTC 12" \
	"$(which "$TMP/tk13only" "$TMP/drv12")" "NVRTC 12.6: $B/cuda_nvrtc/lib/libnvrtc.so.12 (driver: CUDA 12.8)"
is "a CUDA 13.0 driver takes the toolkit's older NVRTC 12" \
	"$(which "$TMP/tk12" "$TMP/drv13")" "NVRTC 12.4: $TMP/tk12/lib64/libnvrtc.so.12 (driver: CUDA 13.0)"
got=$(which "$TMP/tk13only" "$TMP/drv11")
is "a CUDA 11.8 driver and every NVRTC newer: exit 77" "${got%%:*}" "exit 77"
ok "... naming the driver and the NVRTCs it cannot take" \
	grep -q "krun: --nvrtc: no NVRTC that the driver (CUDA 11.8) supports: newer are $TMP/tk13only/lib64/libnvrtc.so.13 (NVRTC 13), $B/cu13/lib/libnvrtc.so.13 (NVRTC 13), $B/cuda_nvrtc/lib/libnvrtc.so.12 (NVRTC 12)" <<<"$got"
is "... on one line" "$(wc -l <<<"$got" | tr -d ' ')" 1

CUDA_HOME=$TMP/tk12 "$TMP/b/bin/krun" --device cuda --compile-only --verbose t/run/abi.kir t/run/abi.cu \
	>"$TMP/out" 2>"$TMP/err"
is "--verbose --device cuda --compile-only: compiled" "$?" 0
is "... and one line says which NVRTC" "$(cat "$TMP/err")" \
	"krun: NVRTC 12.4: $TMP/tk12/lib64/libnvrtc.so.12 (driver: none)"
CUDA_HOME=$TMP/tk12 "$TMP/b/bin/krun" --device cuda --compile-only t/run/abi.kir t/run/abi.cu >"$TMP/out" 2>"$TMP/err"
is "without --verbose nothing is said" "$?:$(cat "$TMP/err")" "0:"
"$TMP/b/bin/krun" --nvrtc t/run/abi.kir >/dev/null 2>&1
is "--nvrtc takes no file" "$?" 2

# A real NVRTC in a build folder's layout, the loader's cache hidden (a
# private mount namespace binds an empty file over /etc/ld.so.cache): krun
# finds it, and its builtins, by itself.
real=
for f in "${CUDA_HOME:-/usr/local/cuda}"/lib64/libnvrtc.so.[0-9]* "$KS_BUILD"/nvrtc/nvidia/*/lib/libnvrtc.so.[0-9]*; do
	[ -e "$f" ] && ls "$(dirname "$f")"/libnvrtc-builtins.so.* >/dev/null 2>&1 && { real=$f; break; }
done
if [ -z "$real" ]; then
	skip "the build folder's NVRTC compiles without the loader's cache" "no NVRTC here (toolkit or build/nvrtc)"
elif [ "$(id -u)" != 0 ] || ! unshare -m true 2>/dev/null; then
	skip "the build folder's NVRTC compiles without the loader's cache" "needs root and unshare -m"
else
	lib=$TMP/r/nvrtc/nvidia/cu/lib
	mkdir -p "$lib" "$TMP/r/bin" && cp "$KS_BIN/krun" "$TMP/r/bin/" && : >"$TMP/empty"
	ln -s "$real" "$lib/$(basename "$real")"
	for f in "$(dirname "$real")"/libnvrtc-builtins.so.*; do ln -s "$f" "$lib/"; done
	hidden() {
		unshare -m sh -c 'mount --bind "$1" /etc/ld.so.cache && shift && exec "$@"' - "$TMP/empty" \
			env CUDA_HOME="$TMP/none" LD_LIBRARY_PATH= "$TMP/r/bin/krun" "$@"
	}
	hidden --verbose --device cuda --compile-only t/run/abi.kir t/run/abi.cu >"$TMP/out" 2>"$TMP/err"
	is "the build folder's real NVRTC compiles abi.cu, the loader's cache hidden" "$?" 0 || diag "$(cat "$TMP/err")"
	ok "... and --verbose names it" grep -q "^krun: NVRTC [0-9.]*: $TMP/r/bin/../nvrtc/nvidia/cu/lib/libnvrtc.so" "$TMP/err"
	rm "$lib"/libnvrtc-builtins.so.*
	hidden --device cuda --compile-only t/run/abi.kir t/run/abi.cu >"$TMP/out" 2>"$TMP/err"
	is "... the cache is hidden indeed: without the builtins beside it, it does not compile" "$?" 1
fi
done_testing
