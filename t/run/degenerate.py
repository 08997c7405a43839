"""Degenerate kernels in krun --coverage records of the same kernels under
several input seeds (doc/kgen.md, "Measured"):

    python3 t/run/degenerate.py SEED1.json SEED2.json [SEED3.json ...] [--list]

A kernel's arrays that some run changed are its written arrays; it is
independent of its inputs when every written array ends the same under
every seed, writes nothing when no run changed an array, and fills an
array when a written array of two elements or more holds one value in
every element after every run (krun --vary's three checks).  An if is
one-way when, summed over the seeds, no thread took one of its ways; a
loop never runs when no thread ran its body.  Prints the counts, and with
--list the kernels."""
import json
import sys


def main(argv):
    files = [a for a in argv if not a.startswith("--")]
    runs = [[json.loads(l) for l in open(f)] for f in files]
    n = len(runs[0])
    assert all(len(r) == n for r in runs), "the files hold different kernels"
    indep, nowrite, oneway, noloop, filled = [], [], [], [], []
    nif = nloop = 0
    for k in range(n):
        rs = [r[k] for r in runs]
        name = rs[0]["kernel"]
        assert all(r["kernel"] == name for r in rs)
        written = {a for r in rs for a, v in r["outputs"].items() if r["inputs"][a] != v}
        if not written:
            nowrite.append(name)
        elif all(r["outputs"][a] == rs[0]["outputs"][a] for r in rs for a in written):
            indep.append(name)
        elif any(len(rs[0]["outputs"][a]) > 1 and all(v == r["outputs"][a][0] for r in rs for v in r["outputs"][a])
                 for a in written if isinstance(rs[0]["outputs"][a], list)):
            filled.append(name)
        bad_if = bad_loop = False
        for j, c in enumerate(rs[0]["coverage"]):
            ways = [sum(r["coverage"][j]["threads"][w] for r in rs) for w in range(len(c["threads"]))]
            if c["kind"] == "if":
                nif += 1
                bad_if |= min(ways) == 0
            else:
                nloop += 1
                bad_loop |= ways[0] == 0
        if bad_if:
            oneway.append(name)
        if bad_loop:
            noloop.append(name)
    bad = set(indep) | set(nowrite) | set(oneway) | set(noloop) | set(filled)
    print("kernels %d, seeds %d: ifs %d, loops %d" % (n, len(runs), nif, nloop))
    print("independent of the inputs %d, writing nothing %d" % (len(indep), len(nowrite)))
    print("with an if that never takes one way %d (%.2f%%), with a loop that never runs %d (%.2f%%)"
          % (len(oneway), 100.0 * len(oneway) / n, len(noloop), 100.0 * len(noloop) / n))
    print("filling an array with one value %d (%.2f%%)" % (len(filled), 100.0 * len(filled) / n))
    print("degenerate in any of these ways %d (%.2f%%)" % (len(bad), 100.0 * len(bad) / n))
    if "--list" in argv:
        for what, names in (("independent", indep), ("nowrite", nowrite), ("oneway-if", oneway),
                            ("loop-never-runs", noloop), ("filled", filled)):
            for x in names:
                print(what, x)


main(sys.argv[1:])
