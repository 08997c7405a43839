"""bench/variety.py: how like real Warp code a set of kernels reads.

    python3 bench/variety.py --name kgen FILE.py... [--real DIR...]

For the kernels (functions decorated @wp.kernel, with arguments or not)
of the files given, and of the .py files under each --real folder (Warp's
examples and library, say), prints a Markdown table of: kernels; float
literals per kernel; the share of kernels that call a helper (a function
of their module decorated @wp.func, or one reached through a module other
than wp); the share that use tiles (a wp.tile* call); and the
Jensen-Shannon divergence (base 2, in [0, 1]) of the frequencies of their
wp.* calls to those of the real code, with that of one half of the real
files to the other as the floor.  Files Python cannot parse are counted
and left out.  Near duplicates are kpack near's (bench/bench.sh, j).
"""
import argparse
import ast
import collections
import math
import os
import sys


def decorated(fn, attr):
    """Whether fn is decorated @wp.ATTR, with arguments or not."""
    for d in fn.decorator_list:
        d = d.func if isinstance(d, ast.Call) else d
        if isinstance(d, ast.Attribute) and d.attr == attr:
            return True
    return False


def root_name(node):
    while isinstance(node, ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def dotted(node):
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
    return ".".join(reversed(parts))


def measure(files):
    m = {"kernels": 0, "floats": 0, "helper": 0, "tiles": 0, "calls": collections.Counter(), "unparsed": 0}
    for f in files:
        try:
            tree = ast.parse(open(f, encoding="utf-8", errors="replace").read())
        except (SyntaxError, ValueError):
            m["unparsed"] += 1
            continue
        fns = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
        helpers = {n.name for n in fns if decorated(n, "func")}
        for k in fns:
            if not decorated(k, "kernel"):
                continue
            m["kernels"] += 1
            helper = tiles = False
            for n in ast.walk(k):
                if isinstance(n, ast.Constant) and isinstance(n.value, float):
                    m["floats"] += 1
                if not isinstance(n, ast.Call):
                    continue
                root = root_name(n.func)
                if isinstance(n.func, ast.Name) and n.func.id in helpers:
                    helper = True
                elif root in ("wp", "warp") and isinstance(n.func, ast.Attribute):
                    name = "wp." + dotted(n.func).split(".", 1)[1]
                    m["calls"][name] += 1
                    tiles |= name.startswith("wp.tile")
                elif isinstance(n.func, ast.Attribute) and root not in (None, "self"):
                    helper = True
            m["helper"] += helper
            m["tiles"] += tiles
    return m


def jsd(p, q):
    keys = set(p) | set(q)
    sp, sq = sum(p.values()) or 1, sum(q.values()) or 1
    d = 0.0
    for k in keys:
        a, b = p[k] / sp, q[k] / sq
        mm = (a + b) / 2
        if a:
            d += a / 2 * math.log2(a / mm)
        if b:
            d += b / 2 * math.log2(b / mm)
    return d


def py_files(d):
    out = []
    for root, _, names in os.walk(d):
        out += [os.path.join(root, n) for n in names if n.endswith(".py")]
    return sorted(out)


def row(name, m, real):
    k = m["kernels"] or 1
    d = "%.3f" % jsd(m["calls"], real["calls"]) if real else "-"
    return "| %s | %d | %.2f | %.1f%% | %.1f%% | %s |" % (
        name, m["kernels"], m["floats"] / k, 100.0 * m["helper"] / k, 100.0 * m["tiles"] / k, d)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--name", default="kernels")
    ap.add_argument("--real", action="append", default=[])
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    mine = measure(a.files)
    real_files = [f for d in a.real for f in py_files(d)]
    real = measure(real_files) if real_files else None
    print("| kernels of | kernels | float literals per kernel | call a helper | use tiles | JSD of wp.* calls to real code |")
    print("|---|---|---|---|---|---|")
    print(row(a.name, mine, real))
    if real:
        print(row("real code (%s)" % ", ".join(a.real), real, real))
        half = [measure(real_files[0::2]), measure(real_files[1::2])]
        print("| one half of the real files to the other | | | | | %.3f |" % jsd(half[0]["calls"], half[1]["calls"]))
        if real["unparsed"]:
            print("\n(%d real files Python could not parse were left out.)" % real["unparsed"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
