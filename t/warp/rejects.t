#!/bin/bash
# Code that kparse rejects because Warp does (t/errors/loop-constant-*.py:
# a name bound to a literal, changed in a loop Warp does not unroll):
# Warp must reject each file too, for that reason.
. "$(dirname "$0")/env.sh"
"$WARP_PY" - t/errors/loop-constant-*.py <<'PY'
import importlib.util, os, sys
import warp as wp
wp.config.quiet = True
if os.environ.get("WARP_CACHE"):
    wp.config.kernel_cache_dir = os.environ["WARP_CACHE"]
wp.init()
files = sys.argv[1:]
print("1..%d" % len(files))
for n, path in enumerate(files, 1):
    why = "accepted"
    try:
        spec = importlib.util.spec_from_file_location("rejects_%d" % n, path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        kernels = [v for v in vars(mod).values() if isinstance(v, wp.Kernel)]
        for k in kernels:
            k.module.load(wp.get_device("cpu"))
    except Exception as e:
        why = str(e)
    ok = "mutating a constant" in why
    print("%s %d - Warp rejects %s: a constant changed in a dynamic loop" % ("ok" if ok else "not ok", n, path))
    if not ok:
        print("#   Warp: " + why.splitlines()[0] if why else "#   Warp: (no message)")
PY
