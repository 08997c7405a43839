"""Time NVIDIA Warp's code generation for a module of kernels, no compile.

    python warp_codegen.py MODULE.py [RUNS]

Prints one line of JSON: the kernel count and, for each run, the seconds
Warp spends on
  load    executing the module (Python parses it, @wp.kernel records it),
  build   building every kernel's forward and adjoint (ModuleBuilder),
  cpu     writing the C++ source for the CPU,
  cuda    writing the CUDA source,
and the lines of the two sources.  Warp's codegen needs no GPU; NVRTC and
the C++ compiler are never called.  ModuleBuilder is Warp's own internal
class (warp._src.context in 1.19), the one Module.load() uses before it
compiles.
"""

import importlib.util
import json
import sys
import time

import warp as wp
import warp._src.context as wpctx


def load(path, tag):
    spec = importlib.util.spec_from_file_location(f"ksbench_{tag}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def main():
    path = sys.argv[1]
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    wp.config.quiet = True
    wp.init()
    out = {"runs": []}
    for r in range(runs):
        t0 = time.perf_counter()
        mod = load(path, r)
        wmod = wp.get_module(mod.__name__)
        t1 = time.perf_counter()
        builder = wpctx.ModuleBuilder(wmod, dict(wmod.options), hasher=None)
        t2 = time.perf_counter()
        cpu = builder.codegen("cpu")
        t3 = time.perf_counter()
        cuda = builder.codegen("cuda")
        t4 = time.perf_counter()
        out["kernels"] = sum(1 for k in builder.kernels) if hasattr(builder, "kernels") else None
        out["cpu_lines"] = cpu.count("\n")
        out["cuda_lines"] = cuda.count("\n")
        out["runs"].append({"load": t1 - t0, "build": t2 - t1, "cpu": t3 - t2, "cuda": t4 - t3})
    print(json.dumps(out))


if __name__ == "__main__":
    main()
