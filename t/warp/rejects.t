#!/bin/bash
# Code that kparse rejects because Warp does: Warp must reject each file
# too, for the same reason (a line of its message).  t/errors/
# loop-constant-*.py change a name bound to a literal in a loop Warp does
# not unroll; the others build a vector or a transform from values of
# another scalar type, which Warp does not convert, or pass wp.printf more
# values than it takes.
. "$(dirname "$0")/env.sh"
args=()
for f in t/errors/loop-constant-*.py; do args+=("$f=mutating a constant"); done
args+=("t/errors/vec2-float64-args.py=values used to initialize this vector are expected to be of the type \`float32\`"
	"t/errors/vec3f-float64-arg.py=values used to initialize this vector are expected to be of the type \`float32\`"
	"t/errors/vec3h-float32-arg.py=values used to initialize this vector are expected to be of the type \`float16\`"
	"t/errors/transformd-from-transform.py=copy constructing a transform requires matching source and target dtypes"
	"t/errors/printf-33-args.py=the maximum number of variadic arguments that can be passed to \`printf\` is 32")
"$WARP_PY" - "${args[@]}" <<'PY'
import importlib.util, os, sys
import warp as wp
wp.config.quiet = True
if os.environ.get("WARP_CACHE"):
    wp.config.kernel_cache_dir = os.environ["WARP_CACHE"]
wp.init()
cases = [a.split("=", 1) for a in sys.argv[1:]]
print("1..%d" % len(cases))
for n, (path, want) in enumerate(cases, 1):
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
    ok = want in why
    print("%s %d - Warp rejects %s: %s" % ("ok" if ok else "not ok", n, path, want))
    if not ok:
        print("#   Warp: " + (why.splitlines()[-1] if why else "(no message)"))
PY
