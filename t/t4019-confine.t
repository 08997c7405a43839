#!/bin/bash
# krun's confinement (runtime/run_confine.c, doc/runtime.md): code handed
# to krun (K.kir K.c, K.kir K.cu, --batch lines) runs in a child confined
# before the code is loaded.  Code that starts a process (system(), at
# load in a constructor and in a kernel), opens a file for writing, forks
# (once, from the first thread), opens a socket or blocks its signals
# first is killed with "K: the kernel's code made a forbidden system call
# (NAME)", exit 1, and leaves nothing behind; an endless loop is bounded
# by --timeout, a memory bomb by --memory; the same in --batch, where the
# other lines pass.  The code itself, unchanged, runs as before.
. "$(dirname "$0")/lib.sh"

cat >"$TMP/k.py" <<'EOF'
import warp as wp

@wp.kernel
def scale(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = 2.0 * x[i]
EOF
kparse "$TMP/k.py" -o "$TMP/k.kir" && kemit-cpu "$TMP/k.kir" -o "$TMP/k.c" && kemit-cu "$TMP/k.kir" -o "$TMP/k.cu"
M=$TMP/pwned
# evil NAME EXT HEADER STMT: the kernel's code with STMT first in its entry
evil() {
	python3 - "$TMP/k.$2" "$TMP/$1.$2" "$3" "$4" <<'PY'
import sys
src, dst, head, stmt = sys.argv[1:5]
ls = open(src).read().split("\n")
at = next(k for k, x in enumerate(ls) if "scale_c" in x and "_forward(" in x and x.rstrip().endswith(")"))
ls = ls[: at + 2] + ["\t" + stmt] + ls[at + 2 :]
open(dst, "w").write(head + "\n" + "\n".join(ls))
PY
}
for e in c cu; do
	evil ctor $e '#include <stdlib.h>
__attribute__((constructor)) static void evil(void) { system("touch '"$M"'-ctor-'$e'"); }' ';'
	evil system $e '#include <stdlib.h>' 'system("touch '"$M"'-system-'$e'");'
	evil fopen $e '#include <stdio.h>' '{ FILE *f = fopen("'"$M"'-fopen-'$e'", "w"); if (f) fclose(f); }'
	evil fork $e '#include <unistd.h>' '{ static int once; if (!once++) fork(); }'
	evil socket $e '#include <sys/socket.h>' 'socket(AF_INET, SOCK_STREAM, 0);'
	evil blocked $e '#include <signal.h>
#include <stdio.h>' '{ sigset_t s; sigfillset(&s); sigprocmask(SIG_BLOCK, &s, 0); FILE *f = fopen("'"$M"'-blocked-'$e'", "w"); if (f) fclose(f); }'
	evil loop $e '' 'for (volatile int spin = 0; spin >= 0; spin += 0) ;'
	evil bomb $e '#include <stdlib.h>
#include <string.h>' 'for (;;) memset(malloc(1 << 24), 1, 1 << 24);'
done

ok "the code unchanged runs (C)" krun "$TMP/k.kir" "$TMP/k.c"
ok "the code unchanged runs (CUDA on sim)" krun "$TMP/k.kir" "$TMP/k.cu"

# killed NAME EXT CALL [KRUN OPTIONS]: killed, the call named
killed() {
	local n=$1 e=$2 call=$3
	shift 3
	krun "$@" "$TMP/k.kir" "$TMP/$n.$e" >"$TMP/out" 2>"$TMP/err"
	is "$n ($e${1:+ $*}): exit 1, named: $call" "$?:$(head -1 "$TMP/err")" \
		"1:krun: scale: the kernel's code made a forbidden system call ($call)"
}
for e in c cu; do
	killed fopen $e openat
	killed fork $e clone
	killed socket $e socket
done
killed fopen c openat --cc
# system() blocks every signal before it starts the process: the call goes unnamed
for e in c cu; do
	krun "$TMP/k.kir" "$TMP/system.$e" >/dev/null 2>"$TMP/err"
	is "system() ($e): exit 1, a forbidden system call" "$?:$(head -1 "$TMP/err")" \
		"1:krun: scale: the kernel's code made a forbidden system call (unnamed: it had blocked signals)"
	krun "$TMP/k.kir" "$TMP/blocked.$e" >/dev/null 2>"$TMP/err"
	is "signals blocked, then open ($e): exit 1" "$?:$(head -1 "$TMP/err")" \
		"1:krun: scale: the kernel's code made a forbidden system call (unnamed: it had blocked signals)"
done
# a constructor runs where dlopen loads the code: sim's C++ and krun --cc;
# libtcc (krun's C by default) runs no constructor
krun --cc "$TMP/k.kir" "$TMP/ctor.c" >/dev/null 2>"$TMP/err"
is "a constructor (C, --cc): exit 1, at load" "$?:$(head -1 "$TMP/err")" \
	"1:krun: $TMP/ctor.c: the code made a forbidden system call as it was loaded (unnamed: it had blocked signals)"
krun "$TMP/k.kir" "$TMP/ctor.cu" >/dev/null 2>"$TMP/err"
is "a constructor (CUDA on sim): exit 1, at load" "$?:$(head -1 "$TMP/err")" \
	"1:krun: $TMP/ctor.cu: the code made a forbidden system call as it was loaded (unnamed: it had blocked signals)"
krun "$TMP/k.kir" "$TMP/ctor.c" >/dev/null 2>&1
is "a constructor (C, libtcc): never run, the kernel runs" "$?" 0
ok "nothing the code tried was done" bash -c "! ls '$M'-* 2>/dev/null"

start=$(date +%s)
krun --timeout 2 "$TMP/k.kir" "$TMP/loop.c" >/dev/null 2>"$TMP/err"
is "an endless loop: stopped at --timeout" "$?:$(head -1 "$TMP/err")" "1:krun: scale did not finish within 2 s (--timeout)"
ok "... within a few seconds" test $(($(date +%s) - start)) -lt 30
krun --memory 256 "$TMP/k.kir" "$TMP/bomb.c" >/dev/null 2>"$TMP/err"
is "a memory bomb under --memory 256: exit 1" "$?" 1
# (malloc gives NULL and the kernel crashes; under ASan its allocator ends the run)
ok "... named" grep -q '^krun: scale[: ]' "$TMP/err"
krun --memory 256 "$TMP/k.kir" "$TMP/bomb.cu" >/dev/null 2>"$TMP/err"
is "a memory bomb on sim: exit 1" "$?" 1

# --batch: the hostile lines fail alone, with the same first line
printf '%s\n' "$TMP/k.kir $TMP/k.c $TMP/good.json" "$TMP/k.kir $TMP/fopen.c $TMP/bad.json" \
	"$TMP/k.kir $TMP/fork.c $TMP/fork.json" >"$TMP/list"
krun --batch "$TMP/list" >"$TMP/status" 2>"$TMP/err"
is "--batch: exit 1" "$?" 1
is "... the good line passes, the hostile lines fail, named" "$(cat "$TMP/status")" \
	"$TMP/k.c ok
$TMP/fopen.c error: krun: scale: the kernel's code made a forbidden system call (openat)
$TMP/fork.c error: krun: scale: the kernel's code made a forbidden system call (clone)"
ok "... the good line's records are a single krun's" bash -c "krun '$TMP/k.kir' '$TMP/k.c' | cmp -s - '$TMP/good.json'"
ok "... no output file for a killed line" test ! -e "$TMP/bad.json" -a ! -e "$TMP/fork.json"
ok "... and nothing the code tried was done" bash -c "! ls '$M'-* 2>/dev/null"
done_testing
