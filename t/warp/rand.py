#!/usr/bin/env python3
"""rand.py: ksynth's random numbers against NVIDIA Warp's, bit for bit, as TAP.

Each kernel of t/warp/rand_streams.py draws N values per thread over DIM
threads (100,000 draws of each function, 500,000 for the samplers that
return vectors), for several seeds and parameters (the ranges of randi,
randu and randf, poisson's mean on both sides of 10 and at 0; sample_cdf
bisects krun's input array, sorted or not).
ksynth runs them on cpu and on sim (`krun --set`); Warp runs the same
launch on the CPU, compiled with fuse_fp=False as in t/warp/wdiff.py.  Every
value must have the same bits: floats compared as float32 bit patterns.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import wdiff  # noqa: E402

DIM, N = 1000, 100
SEEDS = [0, 42, 2147483647]
SEED1 = -7  # the one seed of a kernel with several cases

# kernel, values per draw, --set values for each case
CASES = [
    ("stream_randi", 1, [{}]),
    ("stream_randi_range", 1, [{"low": 0, "high": 10}, {"low": -1000, "high": 7},
                               {"low": -2147483648, "high": 2147483647}, {"low": 5, "high": 6}]),
    ("stream_randu", 1, [{}]),
    ("stream_randu_range", 1, [{"low": 3, "high": 4000000000}, {"low": 0, "high": 17}]),
    ("stream_randf", 1, [{}]),
    ("stream_randf_range", 1, [{"low": -1.5, "high": 2.25}, {"low": 0.1, "high": 0.7},
                               {"low": 3.0, "high": -1e6}]),
    ("stream_randn", 1, [{}]),
    ("stream_poisson", 1, [{"lam": 0.0}, {"lam": 0.37}, {"lam": 4.5}, {"lam": 9.99},
                           {"lam": 10.0}, {"lam": 37.5}, {"lam": 12345.0}]),
    ("stream_sample_cdf", 1, [{}]),
    ("stream_sample2", 4, [{}]),
    ("stream_sample3", 5, [{}]),
]


INTS = {"stream_randi", "stream_randi_range", "stream_randu", "stream_randu_range", "stream_poisson",
        "stream_sample_cdf"}


def bits(values, dtype):
    a = np.array(values, dtype=dtype).reshape(-1)
    return a.view(np.uint32) if dtype == np.float32 else a


def main():
    import warp as wp
    wp.config.quiet = True
    wp.config.kernel_cache_dir = os.environ.get("WARP_CACHE", os.path.join(wdiff.ROOT, "build", "warp-cache"))
    wp.init()
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "rand_streams.py")
    mod = wdiff.WarpModule(wp, path, "rand_streams")
    tap = wdiff.Tap()
    for name, per, params in CASES:
        for p in params:
            for seed in SEEDS if len(params) == 1 else [SEED1]:
                sets = dict(p, seed=seed, n=N)
                args = ["--kernel", name, "--dim", str(DIM), "--shape", "out=%d" % (DIM * N * per)]
                if name == "stream_sample_cdf":
                    args += ["--shape", "cdf=37"]
                for k, v in sets.items():
                    args += ["--set", "%s=%r" % (k, v)]
                desc = "%s %s" % (name, " ".join("%s=%r" % kv for kv in sorted(sets.items())))
                recs = {}
                for dev in ("cpu", "sim"):
                    r, rc, err = wdiff.krun(["--device", dev] + args, path)
                    recs[dev] = r.get(name)
                    if rc != 0 or recs[dev] is None:
                        tap.result(False, "%s on %s runs" % (desc, dev), err.splitlines()[-3:])
                        break
                else:
                    fwd, _, crash = mod.run(name, recs["cpu"], False)
                    if crash or fwd is None:
                        tap.result(False, "%s in Warp" % desc, [crash])
                        continue
                    w = fwd["out"]
                    dt = np.int64 if name in INTS else np.float32
                    wb = bits(w, dt)
                    diag = []
                    for dev in ("cpu", "sim"):
                        kb = bits(recs[dev]["outputs"]["out"], dt)
                        bad = np.nonzero(kb != wb)[0]
                        if len(bad):
                            j = bad[0]
                            diag.append("%s: %d of %d differ, first at %d: warp %r ksynth %r"
                                        % (dev, len(bad), len(wb), j, np.array(w).reshape(-1)[j],
                                           np.array(recs[dev]["outputs"]["out"]).reshape(-1)[j]))
                    tap.result(not diag, "%s: %d values, cpu and sim bit for bit Warp's" % (desc, len(wb)),
                               diag)
    return tap.done()


if __name__ == "__main__":
    sys.exit(main())
