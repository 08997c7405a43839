#!/bin/bash
# How much of the Warp language its own example programs use ksynth takes:
# t/warp/extract.py puts each kernel of warp/examples (the installed
# package's) in a module of its own and sorts it into `language`, `tiles`
# (kernels on tiles without runtime objects) or `runtime` (meshes, BVHs,
# ... counted apart).  Every language kernel and every tile kernel goes
# through kparse; each rejection must be a located error.  The figures
# and the rejections grouped by cause go to the TAP diagnostics
# (doc/warp-differences.md, "Warp's own examples").
. "$(dirname "$0")/env.sh"

# The fewest language and tile kernels kparse must accept: raise them as
# the language grows, never lower them.
MIN_ACCEPTED=114
MIN_TILES_ACCEPTED=18

ex=$TMP/examples
n=0
t() { n=$((n + 1)); if "$@"; then echo "ok $n - $desc"; else echo "not ok $n - $desc"; fi; }

desc="extract.py extracts the examples' kernels"
t "$WARP_PY" t/warp/extract.py "$ex"
count() { awk -F'\t' -v g="$1" '$2 == g' "$ex/index.tsv" | wc -l; }
lang=$(count language) tiles=$(count tiles) rt=$(count runtime) nested=$(count nested)
desc="the examples hold language kernels ($lang), tile kernels ($tiles) and runtime-object ones ($rt)"
t test "$lang" -gt 0 -a "$tiles" -gt 0 -a "$rt" -gt 0

# accept GROUP: kparse every kernel of GROUP; sets acc (how many it
# accepts) and unlocated (those whose rejection is not a located error
# with exit status 1), and writes the first message of each rejection,
# without its place, to $ex/GROUP.rejects.
accept() {
	local k st first
	acc=0 unlocated=""
	: >"$ex/$1.rejects"
	for k in $(awk -F'\t' -v g="$1" '$2 == g { print $1 }' "$ex/index.tsv"); do
		if kparse "$ex/$k.py" >/dev/null 2>"$ex/$k.err"; then
			acc=$((acc + 1))
		else
			st=$?
			first=$(head -1 "$ex/$k.err")
			case $first in
			"$ex/$k.py":*:*": error: "*) ;;
			*) unlocated="$unlocated $k(exit $st)" ;;
			esac
			[ $st -eq 1 ] || unlocated="$unlocated $k(exit $st)"
			echo "${first#*: error: }" >>"$ex/$1.rejects"
		fi
	done
}

# causes GROUP: the rejections of GROUP grouped by cause, as diagnostics.
causes() {
	sed -e 's/wp\.\([a-z_0-9]*\)() is not supported.*/wp.\1() is not supported/' \
		-e "s/unsupported type 'Any'.*/unsupported type 'Any'/" "$ex/$1.rejects" |
		sort | uniq -c | sort -rn | sed 's/^/#   /'
}

accept language
lang_acc=$acc
pct=$((100 * acc / lang))
desc="kparse accepts $acc of $lang language kernels ($pct%), at least $MIN_ACCEPTED"
t test "$acc" -ge "$MIN_ACCEPTED"
desc="every rejection of a language kernel is a located error with exit status 1"
t test -z "$unlocated"
[ -z "$unlocated" ] || echo "#   not located:$unlocated"

accept tiles
tiles_acc=$acc
tpct=$((100 * acc / tiles))
desc="kparse accepts $acc of $tiles tile kernels ($tpct%), at least $MIN_TILES_ACCEPTED"
t test "$acc" -ge "$MIN_TILES_ACCEPTED"
desc="every rejection of a tile kernel is a located error with exit status 1"
t test -z "$unlocated"
[ -z "$unlocated" ] || echo "#   not located:$unlocated"

echo "# examples: $lang language kernels, $tiles on tiles, $rt with runtime objects (counted apart), $nested defined inside functions (not extracted)"
echo "# accepted: $lang_acc of $lang language kernels ($pct%), $tiles_acc of $tiles tile kernels ($tpct%)"
echo "# language kernels rejected, by cause:"
causes language
echo "# tile kernels rejected, by cause:"
causes tiles
echo "1..$n"
