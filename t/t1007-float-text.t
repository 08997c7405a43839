#!/bin/bash
# The text of a float (what krun's JSON and the IR printer write): the
# shortest that reads back, which lib/misc.c works out in double
# arithmetic, is the text the search over snprintf precisions gives, for
# 476,576 floats of every exponent (t/text/float.c).
. "$(dirname "$0")/lib.sh"

BUILD=${KS_BUILD:-$T_ROOT/build}
LIB=$BUILD/libksynth.a
FLAGS="-std=c11 -D_POSIX_C_SOURCE=200809L -I. -O1"
[ "${KS_SAN:-}" = 1 ] && FLAGS="$FLAGS -fsanitize=address,undefined -fno-sanitize-recover=all"
# shellcheck disable=SC2086
ok "t/text/float.c builds against $LIB" ${CC:-cc} $FLAGS -o "$TMP/float" t/text/float.c "$LIB" -lm
"$TMP/float" 100000 >"$TMP/out"
is "ks_fmt_float writes each float as the search does" "$?" 0 || diag "$(cat "$TMP/out")"
done_testing
