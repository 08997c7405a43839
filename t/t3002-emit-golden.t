#!/bin/bash
# Golden output: kemit-cpu and kemit-cu of t/emit/*.kir and t/ir/control.kir
# are byte for byte t/emit/NAME.c and t/emit/NAME.cu.  After an intended
# change to the emitters, regenerate them with
#     for k in t/emit/*.kir t/ir/control.kir; do b=t/emit/$(basename $k .kir)
#         kemit-cpu -o $b.c $k; kemit-cu -o $b.cu $k; done
. "$(dirname "$0")/lib.sh"

for kir in t/emit/*.kir t/ir/control.kir; do
	b=t/emit/$(basename "$kir" .kir)
	kemit-cpu "$kir" >"$TMP/out.c" 2>&1
	same_file "kemit-cpu $kir == $b.c" "$TMP/out.c" "$b.c"
	kemit-cu "$kir" >"$TMP/out.cu" 2>&1
	same_file "kemit-cu $kir == $b.cu" "$TMP/out.cu" "$b.cu"
done
# malformed IR: a located error, exit 1, no output file
printf 'ksynth-ir 1\nkernel @k() !1:1 {\n  %%x: int = add 1, 2.0 !2:5\n}\n' >"$TMP/bad.kir"
kemit-cpu -o "$TMP/bad.c" "$TMP/bad.kir" 2>"$TMP/err"
is "kemit-cpu rejects ill-typed IR with status 1" "$?" 1
is "the error is located" "$(head -1 "$TMP/err" | cut -d: -f1-4)" "$TMP/bad.kir:3:3: error"
is "no output file is left behind" "$(ls "$TMP"/bad.c* 2>/dev/null)" ""
kemit-cu --bogus >/dev/null 2>&1
is "kemit-cu rejects an unknown option with status 2" "$?" 2
done_testing
