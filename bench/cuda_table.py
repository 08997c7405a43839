#!/usr/bin/env python3
"""cuda_table.py: the bench-cuda section of bench/RESULTS.md, from the
JSON lines of `krun --bench` and bench/warp_bench.py (bench/bench_cuda.sh
calls it; the arguments are its).  Prints Markdown."""

import json
import math
import os
import sys


def load(path):
    recs = {}
    errors = []
    if not os.path.exists(path):
        return recs, errors
    for line in open(path):
        r = json.loads(line)
        if r.get("error"):
            errors.append(r)
        else:
            recs[(r["file"], r["kernel"])] = r
    return recs, errors


def us(ms):
    return "—" if ms is None else "%.1f" % (ms * 1e3)


def ratio(a, b):
    return a / b if a is not None and b else None


def geomean(xs):
    xs = [x for x in xs if x]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def fmt_ratio(x):
    return "—" if x is None else "%.2f" % x


def main(argv):
    (ks_path, warp_path, root, date, commit, gpu, device, dim, reps, gen_n, warp_ver,
     warp_why) = argv[1:13]
    ks, ks_err = load(ks_path)
    wp, wp_err = load(warp_path)
    rel = lambda f: os.path.relpath(f, root) if f.startswith(root) else f
    say = print
    say("## g. GPU kernel times: ksynth beside Warp (`make bench-cuda`)")
    say("")
    say(f"Written by `make bench-cuda` (bench/bench_cuda.sh) on {date}, commit `{commit}`.")
    say(f"Device: {gpu}.  Warp: " + (f"{warp_ver}, on the same device." if not warp_why
                                    else f"not measured ({warp_why})."))
    if device != "cuda":
        say(f"**A dry run on {device}, not a GPU: these are not GPU times.**")
    say("")
    say(f"Every sample and {gen_n} kgen kernels a category (seed 1), at dim {dim}, every int scalar "
        "64 (so that a loop it bounds stays short).  A figure is the time per launch, in µs, of "
        f"{reps} launches back to back between two CUDA events, after one untimed launch: "
        f"`krun --device cuda --grad --bench {reps}` for ksynth (256 threads a block, "
        "⌈dim/256⌉ blocks), bench/warp_bench.py for Warp (its default launch, 256 threads a "
        "block; the launches captured in a CUDA graph, so that Python's launch overhead is not "
        "counted).  Both without FMA contraction (`--fmad=false`, Warp's `fuse_fp=False`).  "
        "Backward: each side's adjoint kernel, which replays the forward itself.  Ratio: "
        "ksynth / Warp, below 1 when ksynth's kernel is faster.")
    say("")
    say("| module | kernel | fwd ksynth | fwd Warp | ratio | bwd ksynth | bwd Warp | ratio |")
    say("|---|---|---:|---:|---:|---:|---:|---:|")
    gen = {}
    for key in sorted(set(ks) | set(wp), key=lambda k: (rel(k[0]), k[1])):
        f, k = key
        a, b = ks.get(key, {}), wp.get(key, {})
        fa, fb = a.get("forward_ms"), b.get("forward_ms")
        ba, bb = a.get("backward_ms"), b.get("backward_ms")
        if "/gen/" in f:
            cat = os.path.basename(os.path.dirname(f))
            gen.setdefault(cat, []).append((ratio(fa, fb), ratio(ba, bb), fa, ba))
            continue
        say(f"| {rel(f)} | {k} | {us(fa)} | {us(fb)} | {fmt_ratio(ratio(fa, fb))} | "
            f"{us(ba)} | {us(bb)} | {fmt_ratio(ratio(ba, bb))} |")
    say("")
    if gen:
        say(f"kgen kernels ({gen_n} a category): geometric means of the per-kernel ratios, and "
            "ksynth's median times.")
        say("")
        say("| category | kernels | fwd ratio | bwd ratio | fwd ksynth µs | bwd ksynth µs |")
        say("|---|---:|---:|---:|---:|---:|")
        allr = []
        for cat in sorted(gen):
            rows = gen[cat]
            allr += rows
            med = lambda xs: sorted(xs)[len(xs) // 2] if xs else None
            say(f"| {cat} | {len(rows)} | {fmt_ratio(geomean(r[0] for r in rows))} | "
                f"{fmt_ratio(geomean(r[1] for r in rows))} | "
                f"{us(med([r[2] for r in rows if r[2] is not None]))} | "
                f"{us(med([r[3] for r in rows if r[3] is not None]))} |")
        say(f"| **all** | {len(allr)} | **{fmt_ratio(geomean(r[0] for r in allr))}** | "
            f"**{fmt_ratio(geomean(r[1] for r in allr))}** | | |")
        say("")
    if ks_err or wp_err:
        say("Not timed:")
        say("")
        for side, errs in (("ksynth", ks_err), ("Warp", wp_err)):
            for r in errs:
                say(f"- {side}: {rel(r['file'])}{' ' + r['kernel'] if r.get('kernel') else ''}: "
                    f"{r['error'][:300]}")
        say("")


if __name__ == "__main__":
    main(sys.argv)
