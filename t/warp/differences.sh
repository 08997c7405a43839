#!/bin/bash
# t/warp/differences.sh: the tables of doc/warp-differences.md ("Results"
# and "Every kernel on which Warp's gradient is wrong"), printed from a run
# of t/warp/wdiff.py over what `make check-warp` compares: the samples, the
# generated modules (WARP_GEN_N, WARP_GEN_SEED) and the reproducers.  Run
# by `make warp-differences`; paste its output into the doc.
. "$(dirname "$0")/env.sh"
cats="arithmetic math vector matrix control_flow loop atomic function inplace combined
	particles springs stencil reduce rigid fem neighbors raycast sampling"
warp_gen $cats
wd() { "$WARP_PY" t/warp/wdiff.py --grad "$@"; }
gen="kgen -s $WARP_GEN_SEED -n $WARP_GEN_N"
# Two at a time, as prove -j2 runs the tests.
{ wd samples/*/*.py; wd t/warp/repro/*.py t/warp/agree/*.py; } >"$TMP/a.tap" &
wd --name "$gen" $(for c in $cats; do echo "$TMP/$c.py"; done) >"$TMP/b.tap"
wait
"$WARP_PY" - "$TMP/a.tap" "$TMP/b.tap" <<'PY'
import re, sys
rows, sums, fails, other = [], [], 0, []
pat = {}
for f in sys.argv[1:]:
    blk = None
    for line in list(open(f)) + ["ok"]:
        if line.startswith(("ok", "not ok")):
            if blk and not any("listed in doc/warp-differences.md: NO" in d for d in blk):
                other.append(blk)
            blk = None
        if line.startswith("not ok") and "# TODO" not in line:
            fails += 1
            blk = [line.rstrip()]
        elif blk is not None and line.startswith("#   "):
            blk.append(line.rstrip())
        if line.startswith("# summary\t"):
            sums.append(line.split("\t", 1)[1].strip())
        if line.startswith("# ill-conditioned\t"):
            print("ill-conditioned: " + line.split("\t", 1)[1].strip())
        if not line.startswith("# warp-wrong\t"):
            continue
        _, tag, name, haz, q, at = line.rstrip("\n").split("\t")
        m = re.match(r"kgen -s (\S+) -n (\S+): (\w+)\.py$", tag)
        mod = "`kgen -c %s -s %s -n %s`" % (m.group(3), m.group(1), m.group(2)) if m else tag
        at = re.sub(r"^(cpu|sim) grad ", "", at)
        at = re.sub(r"-?\d+\.\d+(e-?\d+)?", lambda n: "%.4f" % float(n.group()) if "e" not in n.group()
                    else "%.4g" % float(n.group()), at)
        rows.append((m is None, mod, name, haz.replace(",", ", "), at))
        for h in haz.split(","):
            pat[h] = pat.get(h, 0) + 1
print("Runs:")
for s in sums:
    print("    " + s)
print("    not ok (not TODO): %d, of which %d not for a kernel missing from the list below" % (fails, len(other)))
for b in other:
    print("\n".join("    " + x for x in b))
print("Patterns: " + ", ".join("%s %d" % kv for kv in sorted(pat.items(), key=lambda kv: -kv[1])))
print()
print("| module | kernel | patterns | Warp's worst gradient (cpu) |")
print("|---|---|---|---|")
for _, mod, name, haz, at in sorted(rows):
    print("| %s | `%s` | %s | %s |" % (mod, name, haz, at))
PY
