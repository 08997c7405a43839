#!/bin/bash
# --timeout bounds a whole krun run, compiles included (default 60 s):
# past it, whatever krun is doing, it stops the compiler it waits for,
# removes its temporary files and exits 1 with one line naming the kernels
# and what was going on.  Fake compilers that never finish stand for a
# compile that hangs; t/t4001 has a kernel that never finishes.
. "$(dirname "$0")/lib.sh"

export TMPDIR=$TMP/tmp
mkdir -p "$TMPDIR"
PY=samples/arithmetic/saxpy_rational.py
# a compiler that writes its pid and sleeps (exec: the pid is the sleep's)
printf '#!/bin/sh\necho $$ >"%s/$(basename "$0").pid"\nexec sleep 300\n' "$TMP" >"$TMP/stuck-cc"
cp "$TMP/stuck-cc" "$TMP/stuck-cxx"
chmod +x "$TMP/stuck-cc" "$TMP/stuck-cxx"

# timed DESC WANT-STDERR-LINE KRUN-ARGS...: exit 1 after about 2 s, that one
# line on stderr, nothing on stdout, no temporary folder, no compiler left
timed() {
	local desc=$1 want=$2
	shift 2
	rm -f "$TMP"/*.pid
	local t0=$SECONDS
	krun --timeout 2 "$@" >"$TMP/out" 2>"$TMP/err"
	local st=$? took=$((SECONDS - t0))
	is "$desc: exit 1" "$st" 1
	ok "... within 2 s and a little ($took s)" test "$took" -le 10
	is "... one line naming what did not finish" "$(cat "$TMP/err")" "$want"
	is "... nothing on stdout" "$(wc -c <"$TMP/out")" 0
	is "... no temporary folder left" "$(ls -A "$TMPDIR")" ""
	local pid
	pid=$(cat "$TMP"/*.pid 2>/dev/null)
	if [ -n "$pid" ]; then
		sleep 0.2
		if kill -0 "$pid" 2>/dev/null; then
			t_result 1 "... the compiler is stopped"
			kill "$pid"
		else
			t_result 0 "... the compiler is stopped"
		fi
	else
		t_result 1 "... the compiler ran"
	fi
}

KSYNTH_CC=$TMP/stuck-cc timed "cpu, a C compiler that never finishes" \
	"krun: $PY: compiling saxpy, rational_blend ($TMP/stuck-cc) did not finish within 2 s (--timeout)" \
	--cc "$PY"
KSYNTH_CXX=$TMP/stuck-cxx timed "sim, a C++ compiler that never finishes" \
	"krun: $PY: compiling saxpy, rational_blend ($TMP/stuck-cxx) did not finish within 2 s (--timeout)" \
	--device sim "$PY"
KSYNTH_CC=$TMP/stuck-cc timed "--gradcheck, the double-precision build's compiler" \
	"krun: $PY: compiling the double-precision build of saxpy ($TMP/stuck-cc) did not finish within 2 s (--timeout)" \
	--device sim --cc --gradcheck --kernel saxpy "$PY"
printf '%s %s %s\n' "$PY" "$TMP/s.c" "$TMP/s.json" >"$TMP/list"
kparse "$PY" | kemit-cpu >"$TMP/s.c"
KSYNTH_CC=$TMP/stuck-cc timed "--batch, the group's compile" \
	"krun: $TMP/list (1 files): compiling ($TMP/stuck-cc) did not finish within 2 s (--timeout)" \
	--cc --batch "$TMP/list"

# the bound is the whole run's, not each step's: two kernels that take
# 4 s each finish within 7 s alone, not together (the 3 s to spare are
# the compile's, on a loaded machine)
cat >"$TMP/slow.c" <<'EOC'
#include <time.h>
#include "ksynth.h"
static void wait_a_while(void)
{
	struct timespec t = {4, 0};
	nanosleep(&t, NULL);
}
void saxpy_cpu_forward(int dim, float a, float *x, float *y, float *out)
{
	wait_a_while();
	for (int i = 0; i < dim; i++)
		out[i] = a * x[i] + y[i];
}
void rational_blend_cpu_forward(int dim, float *x, float *y, float *out)
{
	wait_a_while();
	for (int i = 0; i < dim; i++)
		out[i] = x[i] + y[i];
}
EOC
kparse "$PY" >"$TMP/s.kir"
for k in saxpy rational_blend; do
	krun --cc --timeout 7 --kernel $k "$TMP/s.kir" "$TMP/slow.c" >"$TMP/out" 2>"$TMP/err"
	is "a 4 s kernel alone within a 7 s bound: exit 0" "$?:$(cat "$TMP/err")" "0:"
done
krun --cc --timeout 7 "$TMP/s.kir" "$TMP/slow.c" >"$TMP/out" 2>"$TMP/err"
is "both in one run: exit 1" "$?" 1
is "... naming the kernel that was running" "$(cat "$TMP/err")" \
	"krun: rational_blend did not finish within 7 s (--timeout)"
is "... the first kernel's record stays" "$(wc -l <"$TMP/out")" 1
krun --cc --timeout 0 "$TMP/s.kir" "$TMP/slow.c" >"$TMP/out" 2>"$TMP/err"
is "--timeout 0: no bound" "$?:$(cat "$TMP/err")" "0:"
ok "the documented default is 60 s" grep -q '| `--timeout S` | 60 |' doc/runtime.md
done_testing
