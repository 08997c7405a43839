#!/usr/bin/env python3
"""codesize.py: lines of forward and backward code, Warp's against ksynth's.

    codesize.py FILE.py ...      (the venv's python: `make warp-codesize`)

For each kernel module, the C/C++ that Warp's code generator writes for
the CPU and for CUDA (its ModuleBuilder, the text Warp hands to its
compilers; no GPU is needed to produce the CUDA text) and the code ksynth
emits: `kparse | kdiff | kemit-cpu` and `... | kemit-cu`.

How lines are counted, the same way for both: the text is cut into its
top-level definitions (a header up to a `{` at brace depth 0, to the
matching `}`); `extern "C" {` is only a wrapper.  A definition whose name
holds `backward` or `replay`, or starts with `adj_` or ends in `_adj`,
is backward code, any other function
is forward code; structs, macros, includes and the preamble count in
neither.  Within a definition, blank lines, comment-only lines and
preprocessor lines are not counted.  Prints a Markdown table, one row per
module and a total row.
"""

import importlib.util
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KS_BIN = os.environ.get("KS_BIN", os.path.join(ROOT, "build", "bin"))


def count(text):
    """Return (forward lines, backward lines) of generated C/C++/CUDA."""
    fwd = bwd = 0
    depth = 0
    header = []
    kind = None
    body = 0
    for raw in text.splitlines():
        line = raw.strip()
        code = re.sub(r"//.*", "", line)
        code = re.sub(r'"(\\.|[^"\\])*"', '""', code)
        if depth == 0 and kind is None:
            if not code or code.startswith("#") or code.startswith("}"):
                continue
            header.append(code)
            if "{" in code:
                h = " ".join(header)
                nhead = len(header)
                header = []
                if h.startswith('extern "C"') and "(" not in h:
                    continue
                name = ""
                m = re.search(r"(\w+)\s*\(", h)
                if m and not h.startswith("struct"):
                    name = m.group(1)
                if not name:
                    kind = "other"
                elif re.search(r"backward|adj_|_adj$|replay", name):
                    kind = "bwd"
                else:
                    kind = "fwd"
                body = nhead
                depth = code.count("{") - code.count("}")
                if depth <= 0:
                    fwd += body if kind == "fwd" else 0
                    bwd += body if kind == "bwd" else 0
                    kind, depth = None, 0
            elif code.endswith(";"):
                header = []
            continue
        if kind is not None:
            if code and not code.startswith("#"):
                body += 1
            depth += code.count("{") - code.count("}")
            if depth <= 0:
                if kind == "fwd":
                    fwd += body
                elif kind == "bwd":
                    bwd += body
                kind, depth = None, 0
    return fwd, bwd


def tool(args, stdin=None):
    p = subprocess.run([os.path.join(KS_BIN, args[0])] + args[1:], input=stdin,
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("%s: %s" % (" ".join(args), p.stderr))
    return p.stdout


def main(files):
    import warp as wp
    from warp._src.context import ModuleBuilder
    wp.config.log_level = wp.LOG_WARNING
    wp.config.kernel_cache_dir = os.environ.get("WARP_CACHE", os.path.join(ROOT, "build", "warp-cache"))
    wp.init()
    print("| module | kernels | ksynth C fwd/bwd | Warp CPU fwd/bwd | ksynth CUDA fwd/bwd | Warp CUDA fwd/bwd |")
    print("|---|---:|---:|---:|---:|---:|")
    tot = [0] * 9
    for fi, path in enumerate(files):
        modname = "ksc_%d_%s" % (fi, re.sub(r"\W", "_", os.path.basename(path)[:-3]))
        spec = importlib.util.spec_from_file_location(modname, path)
        py = importlib.util.module_from_spec(spec)
        sys.modules[modname] = py
        spec.loader.exec_module(py)
        wm = wp.get_module(modname)
        opts = wm.options | {"output_arch": None}
        warp = {}
        for dev in ("cpu", "cuda"):
            warp[dev] = count(ModuleBuilder(wm, opts, target=dev).codegen(dev))
        kir = tool(["kparse", path])
        dkir = tool(["kdiff"], kir)
        ks = {"cpu": count(tool(["kemit-cpu"], dkir)), "cuda": count(tool(["kemit-cu"], dkir))}
        nk = len(re.findall(r"^kernel @", kir, re.M))
        row = [nk, *ks["cpu"], *warp["cpu"], *ks["cuda"], *warp["cuda"]]
        tot = [a + b for a, b in zip(tot, row)]
        name = os.path.relpath(path, ROOT) if os.path.isabs(path) else path
        print("| %s | %d | %d / %d | %d / %d | %d / %d | %d / %d |" % (name, *row))
    print("| **total** | %d | %d / %d | %d / %d | %d / %d | %d / %d |" % tuple(tot))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
