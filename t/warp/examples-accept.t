#!/bin/bash
# How much of the Warp language its own example programs use ksynth takes:
# t/warp/extract.py puts each kernel of warp/examples (the installed
# package's) in a module of its own and sorts it into `language` or
# `runtime` (tiles, meshes, BVHs, ... counted apart).  Every language
# kernel goes through kparse; each rejection must be a located error.
# The figures and the rejections grouped by cause go to the TAP
# diagnostics (doc/warp-differences.md, "Warp's own examples").
. "$(dirname "$0")/env.sh"

# The fewest language kernels kparse must accept: raise it as the
# language grows, never lower it.
MIN_ACCEPTED=113

ex=$TMP/examples
n=0
t() { n=$((n + 1)); if "$@"; then echo "ok $n - $desc"; else echo "not ok $n - $desc"; fi; }

desc="extract.py extracts the examples' kernels"
t "$WARP_PY" t/warp/extract.py "$ex"
lang=$(awk -F'\t' '$2 == "language"' "$ex/index.tsv" | wc -l)
rt=$(awk -F'\t' '$2 == "runtime"' "$ex/index.tsv" | wc -l)
nested=$(awk -F'\t' '$2 == "nested"' "$ex/index.tsv" | wc -l)
desc="the examples hold language kernels ($lang) and runtime-object ones ($rt)"
t test "$lang" -gt 0 -a "$rt" -gt 0

acc=0 unlocated=""
: >"$ex/rejects"
for k in $(awk -F'\t' '$2 == "language" { print $1 }' "$ex/index.tsv"); do
	if kparse "$ex/$k.py" >/dev/null 2>"$ex/$k.err"; then
		acc=$((acc + 1))
		echo "$k" >>"$ex/accepted"
	else
		st=$?
		first=$(head -1 "$ex/$k.err")
		case $first in
		"$ex/$k.py":*:*": error: "*) ;;
		*) unlocated="$unlocated $k(exit $st)" ;;
		esac
		[ $st -eq 1 ] || unlocated="$unlocated $k(exit $st)"
		echo "${first#*: error: }" >>"$ex/rejects"
	fi
done
pct=$((100 * acc / lang))
desc="kparse accepts $acc of $lang language kernels ($pct%), at least $MIN_ACCEPTED"
t test "$acc" -ge "$MIN_ACCEPTED"
desc="every rejection is a located error with exit status 1"
t test -z "$unlocated"
[ -z "$unlocated" ] || echo "#   not located:$unlocated"

echo "# examples: $lang language kernels, $rt with runtime objects (counted apart), $nested defined inside functions (not extracted)"
echo "# accepted: $acc of $lang ($pct%)"
echo "# rejected, by cause:"
sed -e 's/wp\.\([a-z_0-9]*\)() is not supported.*/wp.\1() is not supported/' \
	-e "s/unsupported type 'Any'.*/unsupported type 'Any'/" "$ex/rejects" |
	sort | uniq -c | sort -rn | sed 's/^/#   /'
echo "1..$n"
