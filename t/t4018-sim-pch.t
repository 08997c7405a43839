#!/bin/bash
# sim's precompiled headers (runtime/run_host.c, mk/runtime.mk): where c++
# is GCC the build precompiles the shim and ksynth.h, krun --device sim
# compiles with them (--verbose says so; a copy of krun's folder whose
# header text beside the .gch is an #error still compiles, so GCC reads
# the .gch alone), and the records (one sample a folder, with gradients)
# are the bytes of a compile without them ($KSYNTH_CXX set).  krun passes
# over a precompiled header older than the runtime headers, and one GCC
# cannot use (a .gch that is no PCH) gives the same records as none.
. "$(dirname "$0")/lib.sh"

unset KSYNTH_CXX
PCH=$(dirname "$(command -v krun)")/../pch
if ! c++ -dM -E -x c++ /dev/null 2>/dev/null | grep -q __GNUC__ ||
	c++ -dM -E -x c++ /dev/null | grep -q __clang__; then
	skip "sim's precompiled headers" "c++ is not GCC: the build makes none"
	done_testing
	exit 0
fi

ok "the build precompiled the headers" test -s "$PCH/ksynth_sim_all.h.gch"
one=$(ls samples/*/*.py | head -1)
krun --verbose --device sim "$one" >"$TMP/pch.json" 2>"$TMP/err"
if [ $? = 0 ] && grep -q "^krun: c++, precompiled headers .*/pch/ksynth_sim_all.h.gch$" "$TMP/err" &&
	! grep -q "Winvalid-pch" "$TMP/err"; then
	t_result 0 "krun --verbose: c++ with the precompiled headers, GCC finds them valid"
else
	t_result 1 "krun --verbose: c++ with the precompiled headers, GCC finds them valid"
	diag "$(head -5 "$TMP/err")"
fi

# one sample a folder, forward and backward
for d in samples/*/; do
	py=$(ls "$d"*.py | tail -1)
	krun --device sim --grad "$py" >"$TMP/a.json" 2>"$TMP/a.err"
	sa=$?
	KSYNTH_CXX=c++ krun --device sim --grad "$py" >"$TMP/b.json" 2>"$TMP/b.err"
	sb=$?
	if [ $sa != 0 ] || [ $sb != 0 ] || [ ! -s "$TMP/a.json" ]; then
		t_result 1 "$py: krun --device sim --grad runs, with and without the precompiled headers"
		diag "$(head -3 "$TMP/a.err" "$TMP/b.err")"
		continue
	fi
	if ! cmp -s "$TMP/a.json" "$TMP/b.json"; then
		t_result 1 "$py: the same records with and without the precompiled headers"
		diag "$(diff "$TMP/a.json" "$TMP/b.json" | head -4)"
		continue
	fi
	t_result 0 "$py: the same records with and without the precompiled headers"
done
KSYNTH_CXX=c++ krun --verbose --device sim "$one" 2>"$TMP/err" >/dev/null
ok "with \$KSYNTH_CXX set, no precompiled headers" grep -q "no precompiled headers: \$KSYNTH_CXX is set" "$TMP/err"

# a copy of krun's folder: the .gch with an #error for the text beside it
# (GCC reads the .gch alone), then a .gch older than the headers, then one
# no GCC reads
mkdir -p "$TMP/k/bin" "$TMP/k/pch"
cp "$(command -v krun)" "$TMP/k/bin/"
cp -p "$PCH/ksynth_sim_all.h.gch" "$TMP/k/pch/"
echo '#error the text, not the precompiled header' >"$TMP/k/pch/ksynth_sim_all.h"
"$TMP/k/bin/krun" --verbose --device sim "$one" >"$TMP/gch.json" 2>"$TMP/err"
ok "GCC compiles with the .gch and never reads the header's text" test $? = 0
ok "... which krun chose (--verbose)" grep -q "^krun: c++, precompiled headers $TMP/k/bin/../pch/" "$TMP/err"
same_file "... the same records" "$TMP/gch.json" "$TMP/pch.json"
cp "$PCH/ksynth_sim_all.h" "$TMP/k/pch/"
echo "no PCH" >"$TMP/k/pch/ksynth_sim_all.h.gch"
touch -d 2000-01-01 "$TMP/k/pch/ksynth_sim_all.h.gch"
"$TMP/k/bin/krun" --verbose --device sim "$one" >"$TMP/old.json" 2>"$TMP/err"
ok "a .gch older than the runtime headers is passed over" \
	grep -q "no precompiled headers: the runtime headers changed since the build" "$TMP/err"
same_file "and the records are those with it" "$TMP/old.json" "$TMP/pch.json"
touch "$TMP/k/pch/ksynth_sim_all.h.gch"
"$TMP/k/bin/krun" --verbose --device sim "$one" >"$TMP/bad.json" 2>"$TMP/err"
ok "a .gch GCC cannot use: GCC says so (krun --verbose)" grep -q "Winvalid-pch" "$TMP/err"
same_file "and parses the headers: the same records" "$TMP/bad.json" "$TMP/pch.json"
done_testing
