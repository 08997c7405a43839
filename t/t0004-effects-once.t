#!/bin/bash
# A target read, updated and written back level by level (d[f(i)].x += e)
# evaluates each of its nodes once: the IR of t/warp/agree/effects_once.py
# calls @bump as many times as its source does, kernel by kernel.
. "$(dirname "$0")/lib.sh"

py=t/warp/agree/effects_once.py
if ok "kparse $py" kparse -o "$TMP/e.kir" "$py"; then
	# kernel by kernel: name and count, in the IR and in the source
	awk '/^kernel @/ { k = $2; sub(/\(.*/, "", k); sub(/@/, "", k); n[k] = 0 }
	     /call @bump/ { n[k]++ }
	     END { for (k in n) print k, n[k] }' "$TMP/e.kir" | sort >"$TMP/ir"
	awk '/^@wp\.kernel/ { kern = 1; next }
	     /^def / && kern { k = $2; sub(/\(.*/, "", k); n[k] = 0; kern = 0; next }
	     /^(def|@)/ { k = "" }
	     k != "" { n[k] += gsub(/bump\(counter/, "") }
	     END { for (k in n) print k, n[k] }' "$py" | sort >"$TMP/src"
	is "call @bump: as many as in the kernels' source" \
		"$(grep -c 'call @bump' "$TMP/e.kir")" "$(awk '{ n += $2 } END { print n }' "$TMP/src")"
	same_file "... in every kernel" "$TMP/ir" "$TMP/src"
fi
# a component of a vector field by one subscript: the value is the third
# operand of the insert (it once took the place of a second index)
printf '%s\n' 'import warp as wp' '' '@wp.struct' 'class S:' '    v: wp.vec3' '' \
	'@wp.kernel' 'def k(d: wp.array(dtype=S)):' '    i = wp.tid()' '    d[i].v[2] = 2.0' >"$TMP/one.py"
ok "d[i].v[2] = 2.0 on a struct's vec3 field" kparse -o "$TMP/one.kir" "$TMP/one.py"
ok "... inserts 2.0 at 2" grep -q 'insert .*, 2, 2\.0' "$TMP/one.kir"
done_testing
