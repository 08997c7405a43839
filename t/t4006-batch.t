#!/bin/bash
# krun --batch LIST (doc/runtime.md, "Many files at once: --batch").
#
# A list of kgen kernels, each with its IR and emitted code, checked in one
# krun on cpu and on sim: every record file is byte for byte what a single
# krun writes on stdout, the status lines are in list order, and the code
# is compiled once per language and precision (counted through
# KSYNTH_CC/KSYNTH_CXX wrappers).  Bad lines fail alone with the reason a
# single krun gives first: a non-finite output, a kernel that crashes, one
# that runs past --timeout, code that does not compile (the others still
# pass, compiled one by one), a missing file.  Two files defining the same
# helper go to two compiles.  A malformed list is a located error; no run,
# whatever its end (SIGTERM, SIGINT in the middle of it included), leaves
# a krun.* folder in $TMPDIR.
. "$(dirname "$0")/lib.sh"

W=$TMP/w
mkdir -p "$W" "$TMP/tmpdir"
export TMPDIR=$TMP/tmpdir
cd "$W" || exit 1

# build K: NAME.kir, NAME.d.kir, NAME.b.c, NAME.b.cu from NAME.py
build() {
	kparse "$1.py" -o "$1.kir" && kdiff "$1.kir" -o "$1.d.kir" &&
		kemit-cpu "$1.d.kir" -o "$1.b.c" && kemit-cu "$1.d.kir" -o "$1.b.cu"
}
names=
for i in 0 1 2 3 4 5; do
	kgen -c all -s 11 -n 1 --first $i -o k.py
	n=$(awk '/^@wp\.kernel/ { getline; sub(/^def /, ""); sub(/\(.*/, ""); print; exit }' k.py)
	mv k.py "$n.py"
	build "$n" || { echo "Bail out! the pipeline fails on $n"; exit 1; }
	names="$names $n"
done
vec3=$(grep -l vec3 *.d.kir | wc -l)
diag "kernels:$names ($vec3 with vec3)"

# a kernel with a NaN, one made to crash, one made to spin, one not compiling
cat >bad.py <<'EOF'
import warp as wp


@wp.kernel
def KNAME(x: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = wp.log(x[i] - 2.0)
EOF
for b in nan crash spin broken; do
	sed "s/KNAME/$b/" bad.py >"$b.py"
	build "$b" || { echo "Bail out! the pipeline fails on $b"; exit 1; }
done
# insert STMT at the top of the forward entry in code file F
inject() {
	awk -v s="$2" '{ print } /_(cpu|cuda)_forward\(/ { getline; print; print "    " s }' "$1" >"$1.tmp" && mv "$1.tmp" "$1"
}
for e in c cu; do
	inject crash.b.$e '*(volatile int *)0 = 1;'
	inject spin.b.$e 'for (volatile int z = 0; ; z++) {}'
	inject broken.b.$e 'this does not compile;'
done

for dev in cpu sim; do
	e=c
	[ $dev = sim ] && e=cu
	: >$dev.list
	for n in $names nan crash broken; do
		printf '%s.d.kir %s.b.%s out/%s.%s.json\n' "$n" "$n" $e "$n" $dev >>$dev.list
	done
	mkdir -p out
	# --timeout is wall-clock time too: 120 s a line leaves the largest
	# kernels (3-D stencils, some 3,600 inputs to difference: 4-5 s of CPU
	# time, 10 s on a loaded machine) room on a busy one, sanitized too
	krun --device $dev --gradcheck --timeout 120 --batch $dev.list >$dev.status 2>$dev.err
	is "$dev: one bad line makes the batch exit 1" $? 1
	is "$dev: a status line per list line, in order" \
		"$(awk '{ print $1 }' $dev.status | tr '\n' ' ')" "$(awk '{ print $2 }' $dev.list | tr '\n' ' ')"
	# the spinning kernel in a batch of its own, beside a small kernel (a
	# copy of nan's): 10 s leaves room for the compile on a loaded machine
	for x in d.kir b.$e; do cp nan.$x nan2.$x; done
	printf 'spin.d.kir spin.b.%s out/spin.%s.json\nnan2.d.kir nan2.b.%s out/nan2.%s.json\n' $e $dev $e $dev >$dev.spin.list
	krun --device $dev --gradcheck --timeout 10 --batch $dev.spin.list >$dev.spin.status 2>>$dev.err
	is "$dev: a line past --timeout makes its batch exit 1" $? 1
	is "$dev: ... and the line after it is checked as alone" \
		"$(awk '$1 == "nan2.b.'$e'" { sub(/^[^ ]* /, ""); print }' $dev.spin.status)" \
		"$(awk '$1 == "nan.b.'$e'" { sub(/^[^ ]* /, ""); print }' $dev.status)"
	for n in $names nan crash spin broken; do
		# --timeout bounds a single krun's compiles too
		to=120
		[ $n = spin ] && to=10
		krun --device $dev --gradcheck --timeout $to $n.d.kir $n.b.$e >single.json 2>single.err
		st=$?
		want=$(grep -m1 -v '^[[:space:]]*$' single.err | tr '\t\r' '  ')
		[ $st = 0 ] && want=ok || want="error: $want"
		got=$(cat $dev.status $dev.spin.status | awk -v c=$n.b.$e '$1 == c { sub(/^[^ ]* /, ""); print }')
		is "$dev $n: status as a single krun's (exit $st)" "$got" "$want"
		case $n in
		crash | spin | broken) ;;
		*) same_file "$dev $n: the record file is the single krun's stdout" out/$n.$dev.json single.json ;;
		esac
	done
	ok "$dev: no temporary file beside a record" test -z "$(ls out | grep -v '\.json$')"
done

# one compile per language and precision
cat >count-cc <<EOF
#!/bin/sh
echo "\$0" >>$W/cc.log
exec cc "\$@"
EOF
cat >count-cxx <<EOF
#!/bin/sh
echo "\$0" >>$W/cc.log
exec c++ "\$@"
EOF
chmod +x count-cc count-cxx
grep -v -e nan -e crash -e spin -e broken cpu.list >good-cpu.list
grep -v -e nan -e crash -e spin -e broken sim.list >good-sim.list
: >cc.log
ok "cpu --cc: the good lines pass" env KSYNTH_CC=$W/count-cc krun --cc --gradcheck --batch good-cpu.list
is "cpu --cc --gradcheck: two compiles (float, double) for 6 files" "$(wc -l <cc.log)" 2
: >cc.log
ok "sim: the good lines pass" env KSYNTH_CC=$W/count-cc KSYNTH_CXX=$W/count-cxx krun --cc --device sim --gradcheck --batch good-sim.list
is "sim --gradcheck: one c++ and one cc" "$(sort cc.log | uniq -c | awk '{ printf "%s ", $1 }')" "1 1 "
: >cc.log
ok "--compile-only: lines of two fields" sh -c "awk '{ print \$1, \$2 }' good-cpu.list >co.list &&
	KSYNTH_CC=$W/count-cc krun --cc --compile-only --batch co.list >co.status"
is "--compile-only: one compile" "$(wc -l <cc.log)" 1
is "--compile-only: every line ok" "$(grep -c ' ok$' co.status)" 6

# without --cc the double-precision code goes to libtcc, vec3 or not (a
# vec3 of doubles is no 12-byte struct), with the bits cc gives it
if krun --tcc "$T_ROOT/t/grad/saxpy.kir" >/dev/null 2>&1; then
	rm -rf out.cc && cp -r out out.cc
	: >cc.log
	ok "cpu --gradcheck (libtcc): the good lines pass" env KSYNTH_CC=$W/count-cc krun --gradcheck --batch good-cpu.list
	is "cpu --gradcheck: cc only for the float code of the vec3 files" "$(wc -l <cc.log)" $((vec3 > 0))
	: >cc.log
	ok "sim --gradcheck (libtcc): the good lines pass" env KSYNTH_CC=$W/count-cc KSYNTH_CXX=$W/count-cxx krun --device sim --gradcheck --batch good-sim.list
	is "sim --gradcheck: one c++ compile, no cc" "$(sed 's|.*/||' cc.log | tr '\n' ' ')" "count-cxx "
	for n in $names; do
		for dev in cpu sim; do
			same_file "$n on $dev: libtcc's double build gives cc's bytes" out/$n.$dev.json out.cc/$n.$dev.json
		done
	done
else
	skip "the double build by libtcc" "krun was built without libtcc"
fi

# the same helper name in two files: two compiles, the same records
first=${names# }
first=${first%% *}
for n in $names; do
	grep -q '^func @' $n.d.kir && { first=$n; break; }
done
sed "s/\b$first/twin_kernel/g" $first.d.kir >twin.d.kir
sed "s/\b$first/twin_kernel/g" $first.b.c >twin.b.c
awk '{ print $1, $2, $3 }' good-cpu.list >clash.list
echo "twin.d.kir twin.b.c out/twin.json" >>clash.list
: >cc.log
ok "names in common: every line passes" env KSYNTH_CC=$W/count-cc krun --cc --gradcheck --batch clash.list
krun --cc --gradcheck twin.d.kir twin.b.c >single.json
same_file "names in common: the twin's record as a single krun's" out/twin.json single.json
if grep -q '^func @' $first.d.kir; then
	is "names in common: a second group, two more compiles" "$(wc -l <cc.log)" 4
else
	skip "names in common: a second group" "kernel $first has no helper function"
fi

# a missing file fails its line only
printf 'nothere.d.kir nothere.b.c out/nothere.json\n' >missing.list
cat good-cpu.list >>missing.list
krun --gradcheck --batch missing.list >missing.status 2>/dev/null
is "a missing file: exit 1" $? 1
is "a missing file: its line fails, the others pass" \
	"$(awk '{ print $2 }' missing.status | sort | uniq -c | awk '{ printf "%s %s ", $1, $2 }')" "1 error: 6 ok "

# a malformed list: a located error, nothing run
printf '%s\nonly-one-field\n' "$(head -1 good-cpu.list)" >bad.list
krun --gradcheck --batch bad.list >bad.status 2>bad.err
is "a malformed list: exit 1" $? 1
is "a malformed list: FILE:LINE:COL: error" "$(head -1 bad.err | cut -d: -f1-4)" "bad.list:2:15: error"
is "a malformed list: no status line" "$(wc -c <bad.status)" 0
krun --batch good-cpu.list --gradcheck x.kir >/dev/null 2>&1
is "--batch with a file argument: usage, exit 2" $? 2
krun --device cuda --batch good-cpu.list >/dev/null 2>&1
is "--batch on cuda: usage, exit 2" $? 2

# SIGTERM and SIGINT in the middle of a batch (the spinning kernel runs)
for sig in TERM INT; do
	printf 'spin.d.kir spin.b.c out/sig.json\n' >spin.list
	krun --cc --gradcheck --timeout 60 --batch spin.list >/dev/null 2>&1 &
	pid=$!
	for _ in $(seq 100); do
		[ -z "$(ls "$TMPDIR")" ] || [ -n "$(ls out/sig.json.tmp.* 2>/dev/null)" ] && break
		sleep 0.1
	done
	sleep 0.5
	kill -$sig $pid
	wait $pid
	st=$?
	ok "SIG$sig: krun ends by the signal (status $st)" test $st -gt 128
	ok "SIG$sig: no krun.* folder left" test -z "$(ls "$TMPDIR")"
	ok "SIG$sig: no partial record left" test -z "$(ls out | grep -e sig\.json)"
done
# SIGTERM while the compiler runs (a slow one, which makes a temporary
# file in its $TMPDIR and a child that writes another later): the folder
# goes with the temporary, and none of the compiler's processes lives on
# to write into it
printf '#!/bin/sh\n: >"${TMPDIR:-/tmp}/cc-temp.$$"\n(sleep 2; : >"${TMPDIR:-/tmp}/cc-late.$$") &\nsleep 2\nexec cc "$@"\n' >slow-cc
chmod +x slow-cc
for b in "" "--batch good-cpu.list"; do
	if [ -n "$b" ]; then set -- $b; else set -- spin.d.kir spin.b.c; fi
	KSYNTH_CC=$W/slow-cc krun --cc --gradcheck "$@" >/dev/null 2>&1 &
	pid=$!
	for _ in $(seq 100); do
		[ -n "$(ls "$TMPDIR")" ] && break
		sleep 0.05
	done
	sleep 0.3
	kill -TERM $pid
	wait $pid
	ok "SIGTERM during a compile${b:+ (--batch)}: no krun.* folder or compiler's temporary left" test -z "$(ls "$TMPDIR")"
	sleep 2.5
	ok "... nor after the compiler's child would have written" test -z "$(ls "$TMPDIR")"
done
ok "after every run above: no krun.* folder left" test -z "$(ls "$TMPDIR")"

done_testing
