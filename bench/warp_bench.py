#!/usr/bin/env python3
"""warp_bench.py: NVIDIA Warp's own kernels timed on a device, beside
`krun --bench` (make bench-cuda, bench/bench_cuda.sh).

    warp_bench.py [--device cuda] [--dim N] [--reps R] [--int V] FILE.py ...

Each FILE.py is a Warp module (a sample, a kgen module), imported as it
is; Warp builds it for the device with fuse_fp=False, as ksynth's code
runs without FMA contraction.  Every kernel is launched on dim N with
inputs like krun's: floats uniform in [-1, 1), int arrays uniform in
[0, N), every int scalar V (krun gets --set NAME=V, so that a loop bound by
one stays short).  The forward launch, then the backward (adjoint=True,
Warp's adjoint kernel, which replays the forward itself, as ksynth's
backward does), each: one untimed launch, then R launches back to back
between two events, captured in a CUDA graph on cuda so that Python's
launch overhead is not counted (krun launches from C, back to back).

Prints one JSON object per kernel: {"file", "kernel", "device", "dim",
"reps", "forward_ms", "backward_ms"} (milliseconds per launch), or
{"file", "kernel", "error"} when Warp rejects or fails it.
"""

import argparse
import importlib.util
import ast
import inspect
import json
import textwrap
import os
import sys

import numpy as np
import warp as wp


def launch_dims(k, dim):
    """A launch of about dim threads for kernel k: one dimension, or as
    many as its `i, j = wp.tid()` names, of equal extent (krun's --dim
    AxB... as bench/bench_cuda.sh gives it)."""
    rank = 1
    for node in ast.walk(ast.parse(textwrap.dedent(inspect.getsource(k.func)))):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and \
                ast.unparse(node.value.func) == "wp.tid" and isinstance(node.targets[0], ast.Tuple):
            rank = max(rank, len(node.targets[0].elts))
    n = int(round(dim ** (1.0 / rank)))
    return (n,) * rank if rank > 1 else dim


def make_value(t, dims, int_value, rng, device, adjoint):
    """An argument of type t: an array (its axes the launch's, the last one
    for any more), a vector, a matrix or a scalar; with adjoint, the zero
    (scalars) or random seed (arrays) of the adjoint launch."""
    dims = dims if isinstance(dims, tuple) else (dims,)
    if wp.types.is_array(t):
        dt = t.dtype
        scalar = getattr(dt, "_wp_scalar_type_", dt)
        length = getattr(dt, "_length_", 1)
        axes = tuple(dims[min(a, len(dims) - 1)] for a in range(t.ndim))
        shape = axes + tuple(getattr(dt, "_shape_", ())) if length > 1 else axes
        if scalar in (int, wp.int32):
            data = rng.integers(0, min(dims), size=shape, dtype=np.int32)
            return wp.array(data if not adjoint else np.zeros(shape, np.int32), dtype=dt,
                            device=device)
        data = rng.uniform(-1.0, 1.0, size=shape).astype(np.float32)
        return wp.array(data, dtype=dt, device=device)
    if wp.types.type_is_vector(t) or wp.types.type_is_matrix(t):
        n = int(np.prod(t._shape_))
        return t(*([0.0] * n if adjoint else rng.uniform(-1.0, 1.0, n).tolist()))
    if t in (int, wp.int32):
        return 0 if adjoint else int_value
    return 0.0 if adjoint else float(rng.uniform(-1.0, 1.0))


def time_launches(launch, device, reps):
    """Milliseconds per launch of reps back-to-back launches."""
    launch()
    wp.synchronize_device(device)
    if wp.get_device(device).is_cuda:
        try:
            with wp.ScopedCapture(device=device) as capture:
                for _ in range(reps):
                    launch()
            graph = capture.graph
        except Exception:  # capture unsupported here: plain launches
            graph = None
        start = wp.Event(device, enable_timing=True)
        end = wp.Event(device, enable_timing=True)
        wp.record_event(start)
        if graph is not None:
            wp.capture_launch(graph)
        else:
            for _ in range(reps):
                launch()
        wp.record_event(end)
        return wp.get_event_elapsed_time(start, end) / reps
    import time
    t0 = time.perf_counter()
    for _ in range(reps):
        launch()
    wp.synchronize_device(device)
    return (time.perf_counter() - t0) * 1e3 / reps


def bench_file(path, index, opts):
    modname = "warp_bench_%d" % index
    spec = importlib.util.spec_from_file_location(modname, path)
    py = importlib.util.module_from_spec(spec)
    sys.modules[modname] = py
    try:
        spec.loader.exec_module(py)
        wp.get_module(modname).options["fuse_fp"] = False
        wp.load_module(py, device=opts.device)
    except Exception as e:
        print(json.dumps({"file": path, "kernel": None, "error": "%s: %s" % (type(e).__name__, e)}))
        return
    kernels = [v for v in vars(py).values() if isinstance(v, wp.Kernel)]
    for k in kernels:
        rng = np.random.default_rng(1)
        rec = {"file": path, "kernel": k.key.split(".")[-1]}
        try:
            types = [a.type for a in k.adj.args]
            dims = launch_dims(k, opts.dim)
            args = [make_value(t, dims, opts.int, rng, opts.device, False) for t in types]
            adj = [make_value(t, dims, opts.int, rng, opts.device, True) for t in types]
            fwd = time_launches(lambda: wp.launch(k, dim=dims, inputs=args, device=opts.device,
                                                  record_tape=False), opts.device, opts.reps)
            bwd = time_launches(lambda: wp.launch(k, dim=dims, inputs=args, adj_inputs=adj,
                                                  adjoint=True, device=opts.device,
                                                  record_tape=False), opts.device, opts.reps)
            rec.update({"device": opts.device, "dim": list(dims) if isinstance(dims, tuple) else dims,
                        "reps": opts.reps,
                        "forward_ms": round(fwd, 6), "backward_ms": round(bwd, 6)})
        except Exception as e:
            rec["error"] = "%s: %s" % (type(e).__name__, e)
        print(json.dumps(rec), flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--device", default="cuda")
    ap.add_argument("--dim", type=int, default=1000000)
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--int", type=int, default=64)
    ap.add_argument("files", nargs="+")
    opts = ap.parse_args()
    wp.config.quiet = True
    cache = os.environ.get("WARP_CACHE")
    if cache:
        wp.config.kernel_cache_dir = cache
    wp.init()
    if opts.device.startswith("cuda") and not wp.is_cuda_available():
        sys.exit("warp_bench.py: Warp sees no CUDA device")
    for i, path in enumerate(opts.files):
        bench_file(path, i, opts)


if __name__ == "__main__":
    main()
