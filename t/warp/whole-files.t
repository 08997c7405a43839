#!/bin/bash
# Every .py of the installed warp-lang's examples and tests that holds a
# kernel, whole, through kparse --keep-going (hundreds of real modules, a
# corpus no one here wrote): each run ends with exit status 0 or 1, never a
# signal or the 20-second bound (nor a sanitizer's report, with the tools
# of build/san), and an exit of 1 says why in located errors.  What comes out goes on through kdiff (exit 0, or 1 with a
# located refusal: never an internal error) and, where kdiff takes it,
# through both emitters (exit 0).  How many kernels come out, and the
# causes of the rest grouped, go to the TAP diagnostics; the count must not
# fall below MIN_KERNELS.
. "$(dirname "$0")/env.sh"

# the fewest kernels the whole files must give: raise it as the language
# grows, never lower it
MIN_KERNELS=1178

WARP_DIR=$("$WARP_PY" -c 'import os, warp; print(os.path.dirname(warp.__file__))')
n=0 kernels=0 bad="" dbad=""
: >"$TMP/errors"
for f in $(grep -rl --include='*.py' '@wp.kernel' "$WARP_DIR/examples" "$WARP_DIR/tests" | sort); do
	timeout 20 kparse --keep-going -o "$TMP/out.kir" "$f" 2>"$TMP/err"
	st=$?
	n=$((n + 1))
	if [ $st -gt 1 ]; then
		bad="$bad ${f#$WARP_DIR/}($st)"
		continue
	fi
	[ $st = 1 ] && ! grep -q '^[^ ]*:[0-9]*:[0-9]*: error: ' "$TMP/err" && bad="$bad ${f#$WARP_DIR/}(unlocated)"
	# a sanitizer's report (KS_BIN=build/san/bin) is a failure too
	grep -q 'Sanitizer\|runtime error' "$TMP/err" && bad="$bad ${f#$WARP_DIR/}(sanitizer)"
	grep ': error: ' "$TMP/err" >>"$TMP/errors"
	if [ -f "$TMP/out.kir" ]; then
		kernels=$((kernels + $(grep -c '^kernel ' "$TMP/out.kir")))
		timeout 60 kdiff -o "$TMP/out.d.kir" "$TMP/out.kir" 2>"$TMP/err"
		st=$?
		if [ $st = 0 ]; then
			for e in kemit-cpu kemit-cu; do
				timeout 60 $e -o "$TMP/out.c" "$TMP/out.d.kir" 2>/dev/null || dbad="$dbad ${f#$WARP_DIR/}($e)"
			done
		elif [ $st != 1 ] || ! grep -q '^[^ ]*:[0-9]*:[0-9]*: error: ' "$TMP/err"; then
			dbad="$dbad ${f#$WARP_DIR/}(kdiff $st: $(head -c 80 "$TMP/err"))"
		fi
	fi
	rm -f "$TMP/out.kir" "$TMP/out.d.kir"
done
echo "1..4"
if [ -z "$bad" ]; then echo "ok 1 - $n whole files: kparse --keep-going exits 0 or 1 on each"; else
	echo "not ok 1 - $n whole files: kparse --keep-going exits 0 or 1 on each"
	echo "# crashed, hung or said nothing located:$bad"
fi
if [ "$kernels" -ge $MIN_KERNELS ]; then echo "ok 2 - $kernels kernels come out (at least $MIN_KERNELS)"; else
	echo "not ok 2 - $kernels kernels come out (at least $MIN_KERNELS)"
fi
errs=$(grep -c . "$TMP/errors")
if [ "$errs" -gt 0 ]; then echo "ok 3 - what stops the rest: $errs located errors"; else
	echo "not ok 3 - what stops the rest: no error reported"
fi
if [ -z "$dbad" ]; then echo "ok 4 - kdiff takes what comes out or refuses it located; kemit-cpu and kemit-cu what it takes"; else
	echo "not ok 4 - kdiff takes what comes out or refuses it located; kemit-cpu and kemit-cu what it takes"
	echo "# failed:$dbad"
fi
sed -E 's/^[^ ]+ error: (kernel|function|struct) [A-Za-z0-9_?]+: /  /; s/^[^ ]+ error: /  /' "$TMP/errors" |
	sed -E "s/'[^']*'/'X'/g; s/[0-9]+/N/g" | sort | uniq -c | sort -rn | head -25 | sed 's/^/# /'
