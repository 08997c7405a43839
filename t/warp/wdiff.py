#!/usr/bin/env python3
"""wdiff.py: ksynth against NVIDIA Warp, kernel by kernel, as TAP.

    wdiff.py [--grad] [--name LABEL] [--options TSV] FILE.py ...

Each FILE.py is one Warp module (a sample, or a kgen module of many
kernels: Warp compiles per module, so batching many kernels in one is
what keeps this fast).  For each file:

  1. acceptance: the file, unchanged, imports and Warp builds its module
     for the CPU (forward and backward); a rejection fails, except in a
     reproducer of a documented difference (a line `# warp-rejects: ANCHOR`
     in the file, ANCHOR quoted in doc/warp-differences.md), where it is a
     TODO;
  2. forward: `krun --device cpu` and `--device sim` run every kernel on
     the inputs of the input law (doc/runtime.md); the same inputs are
     launched in Warp over the same dim (a kernel on tiles, whose record
     has block_dim, with wp.launch_tiled over the same grid and the cpu
     record's block_dim, or as wp.launch(..., block_dim=) where the record
     says untiled), and every output must agree (ints exactly,
     floats within FWD_RTOL/FWD_ATOL below);
  3. with --grad: `krun --grad` on cpu and sim gives ksynth's adjoints for
     the seeds of its record; the same seeds go into wp.Tape.backward.
     The float arrays the kernel never writes (the ones Warp's adjoints
     are defined for, see doc/warp-differences.md) must agree within
     GRAD_RTOL/GRAD_ATOL.  When they do not, the kernel must be one where
     Warp is wrong: `krun --gradcheck` (central differences in double)
     must pass for ksynth, Warp's gradient must miss ksynth's by more than
     the tolerance, and the kernel must be listed in
     doc/warp-differences.md.

With --options TSV, a line `NAME<TAB>OPTIONS<TAB>WHY` of TSV gives the
module NAME.py (its file name without .py) krun options (a launch, shapes,
--set values that keep a kernel written for one size in bounds) and
words of wdiff's own: `forward` compares the forward only (a kernel whose
adjoint kdiff refuses, said in WHY), `nofd` gradients from `krun --grad`
without central differences (a launch too large for --gradcheck's one
pair of runs per input component), so a disagreement with Warp fails;
`fwd-atol=X` compares the forward with FWD_ATOL X instead (an output that
Warp computes less accurately than ksynth, WHY saying by how much against
a reference in double).

A kernel Warp builds with enable_backward=False has no adjoint in Warp:
its gradients are ksynth's alone, and must pass --gradcheck (with nofd:
agree between cpu and sim).

The tools come from $KS_BIN (build/bin by default); Warp's kernel cache is
$WARP_CACHE (default build/warp-cache).  Warp is compiled with
fuse_fp=False, as ksynth's devices run without FMA contraction.

Tolerances (argued in doc/warp-differences.md): an output value w of Warp
and k of ksynth agree when |w - k| <= ATOL * max(1, max|k| over the
kernel's outputs) + RTOL * |k|.
"""

import ast
import json
import math
import os
import re
import subprocess
import sys
import importlib.util
import pickle
import signal

FWD_RTOL, FWD_ATOL = 1e-5, 1e-6
# float16 arrays: both sides round every value to half, so they agree to
# about one half ulp (2^-11 relative); two ulps of slack for a sum whose
# terms round apart.
HALF_RTOL, HALF_ATOL = 2e-3, 1e-3
PERTURB = 2.0 ** -20     # 8 ulps of float32: the conditioning probe
GRAD_RTOL, GRAD_ATOL = 1e-4, 1e-5

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KS_BIN = os.environ.get("KS_BIN", os.path.join(ROOT, "build", "bin"))
DOC = os.path.join(ROOT, "doc", "warp-differences.md")


class Tap:
    def __init__(self):
        self.n = 0
        self.failed = 0

    def result(self, good, desc, diag=(), directive=""):
        self.n += 1
        if not good:
            self.failed += 1 if not directive.startswith("TODO") else 0
        line = ("ok" if good else "not ok") + " %d - %s" % (self.n, desc)
        if directive:
            line += " # " + directive
        print(line, flush=True)
        for d in diag:
            for part in str(d).splitlines()[:40]:
                print("#   " + part, flush=True)

    def diag(self, text):
        for part in str(text).splitlines():
            print("# " + part, flush=True)

    def done(self):
        print("1..%d" % self.n, flush=True)
        return 0 if self.failed == 0 else 1


def krun(args, path):
    """Run krun; return (records by kernel name, exit status, stderr)."""
    p = subprocess.run([os.path.join(KS_BIN, "krun")] + args + [path],
                       capture_output=True, text=True, timeout=600)
    recs = {}
    for line in p.stdout.splitlines():
        if line.strip():
            r = json.loads(line)
            recs[r["kernel"]] = r
    return recs, p.returncode, p.stderr


def kparse(path):
    p = subprocess.run([os.path.join(KS_BIN, "kparse"), path], capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("kparse %s: %s" % (path, p.stderr))
    return p.stdout


def written_params(ir_text):
    """For each kernel of the IR, the array parameters it writes (store or
    atomic, itself or through the funcs it calls), as {kernel: {param: kinds}}
    where kinds is the set of 'store', 'atomic_add', ... used on it."""
    blocks = {}      # name -> (kind, params, body lines)
    cur = None
    for line in ir_text.splitlines():
        m = re.match(r"(kernel|func) @(\w+)\((.*?)\)( ->.*)? !", line)
        if m:
            params = [p.split(":")[0].strip().lstrip("%") for p in m.group(3).split(",") if p.strip()]
            cur = (m.group(1), params, [])
            blocks[m.group(2)] = cur
            continue
        if line.startswith("}"):
            cur = None
        elif cur is not None:
            cur[2].append(re.sub(r"\s*!\S+\s*$", "", line))
    writes = {name: {} for name in blocks}
    calls = {name: [] for name in blocks}
    for name, (kind, params, body) in blocks.items():
        for line in body:
            m = re.search(r"\b(store|atomic_\w+) %(\w+)", line)
            if m:
                writes[name].setdefault(m.group(2), set()).add(m.group(1))
            m = re.search(r"\bcall @(\w+)((?: [^,]+,?)*)", line)
            if m:
                args = [a.strip() for a in m.group(2).split(",")]
                calls[name].append((m.group(1), args))
    changed = True
    while changed:
        changed = False
        for name, cl in calls.items():
            for callee, args in cl:
                if callee not in blocks:
                    continue
                cparams = blocks[callee][1]
                for j, a in enumerate(args):
                    if j < len(cparams) and cparams[j] in writes[callee] and a.startswith("%"):
                        before = set(writes[name].get(a[1:], set()))
                        kinds = writes[name].setdefault(a[1:], set())
                        kinds |= writes[callee][cparams[j]]
                        if kinds != before:
                            changed = True
    return {n: writes[n] for n, b in blocks.items() if b[0] == "kernel"}


def is_float(v):
    return isinstance(v, float) or (isinstance(v, list) and v and is_float(v[0]))


def flat(v):
    if isinstance(v, dict):
        v = list(v.values())
    if isinstance(v, (list, tuple)):
        out = []
        for x in v:
            out.extend(flat(x))
        return out
    return [v]


def leaves(section, prefix=""):
    """A record's section with its structs' fields as keys of their own:
    {"p": {"dt": 0.5, "pos": [...]}} -> {"p.dt": 0.5, "p.pos": [...]}."""
    out = {}
    for k, v in section.items():
        if isinstance(v, dict):
            out.update(leaves(v, prefix + k + "."))
        else:
            out[prefix + k] = v
    return out


def plain(x):
    """An element of a numpy array of structs as nested lists of numbers."""
    if isinstance(x, (tuple, list)):
        return [plain(y) for y in x]
    if hasattr(x, "tolist"):
        return x.tolist()
    return x


def tolerance(array, half, rtol, atol):
    """(rtol, atol) for an array: float16's when it is one of half."""
    return (HALF_RTOL, HALF_ATOL) if array in half else (rtol, atol)


def compare(w, k, rtol, atol, where):
    """Return (worst ratio, description) of Warp's values w against
    ksynth's k (nested lists; None is a non-finite ksynth value)."""
    fw, fk = flat(w), flat(k)
    if len(fw) != len(fk):
        return math.inf, "%s: %d values against %d" % (where, len(fw), len(fk))
    scale = max([1.0] + [abs(x) for x in fk if isinstance(x, (int, float)) and x is not None])
    worst, at = 0.0, ""
    for j, (a, b) in enumerate(zip(fw, fk)):
        if b is None or a is None or (isinstance(a, float) and not math.isfinite(a)):
            bad = not ((b is None) and (a is None or not math.isfinite(a)))
            q = math.inf if bad else 0.0
        elif isinstance(b, int) and not isinstance(b, bool) and isinstance(a, int):
            q = 0.0 if a == b else math.inf
        else:
            q = abs(a - b) / (atol * scale + rtol * abs(b))
        if q > worst:
            worst, at = q, "%s[%d]: warp %r ksynth %r" % (where, j, a, b)
    return worst, at


class WarpModule:
    """A kernel file imported as a Warp module."""

    def __init__(self, wp, path, modname):
        self.wp = wp
        package = self.package_name(path)
        if package:
            # a module of a package (its folder has __init__.py): imported
            # by its dotted name, so that its relative imports work
            modname = package
            self.py = importlib.import_module(modname)
        else:
            spec = importlib.util.spec_from_file_location(modname, path)
            self.py = importlib.util.module_from_spec(spec)
            sys.modules[modname] = self.py
            spec.loader.exec_module(self.py)
        self.module = wp.get_module(modname)
        self.module.options["fuse_fp"] = False
        wp.load_module(self.py, device="cpu")

    @staticmethod
    def package_name(path):
        """The dotted name of the module at path when its folder is a
        package (the folder above the outermost package then on sys.path),
        else None."""
        folder, base = os.path.split(os.path.abspath(path))
        parts = [base[:-3]]
        while os.path.exists(os.path.join(folder, "__init__.py")):
            folder, pkg = os.path.split(folder)
            parts.insert(0, pkg)
        if len(parts) == 1:
            return None
        if folder not in sys.path:
            sys.path.insert(0, folder)
        return ".".join(parts)

    def bind_instances(self, names):
        """ksynth writes a generic kernel once for each of its overloads,
        in their order, as NAME_TYPES: each such name of names (krun's, in
        its order) is bound to Warp's overload of that rank."""
        self.instances, seen = {}, {}
        for name in names:
            if hasattr(self.py, name):
                continue
            parts = name.split("_")
            for n in range(len(parts) - 1, 0, -1):
                k = getattr(self.py, "_".join(parts[:n]), None)
                if isinstance(k, self.wp.Kernel) and k.is_generic:
                    rank = seen.get(k.key, 0)
                    seen[k.key] = rank + 1
                    overloads = list(k.overloads.values())
                    if rank < len(overloads):
                        self.instances[name] = overloads[rank]
                    break

    def kernel(self, name):
        """The kernel ksynth calls name: the module's, or the overload of a
        generic kernel bound to it (bind_instances)."""
        if hasattr(self.py, name):
            return getattr(self.py, name)
        if name in getattr(self, "instances", {}):
            return self.instances[name]
        raise AttributeError("module %s has no kernel %s" % (self.py.__name__, name))

    def run(self, name, rec, grad, perturb=0.0):
        """run_here in a child process, so that a kernel that crashes Warp
        (a SIGFPE from an int division by zero in its backward pass, which
        reads the arrays as the forward left them) ends only that child.
        Returns (outputs, grads, crash): outputs None if the forward
        crashed, grads None if the backward did, crash what ended it."""
        rfd, wfd = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(rfd)
            with os.fdopen(wfd, "wb") as f:
                try:
                    self.run_here(name, rec, grad, perturb, lambda part: (pickle.dump(part, f), f.flush()))
                except BaseException as e:
                    pickle.dump(("error", "%s: %s" % (type(e).__name__, e)), f)
            os._exit(0)
        os.close(wfd)
        parts = {}
        with os.fdopen(rfd, "rb") as f:
            while True:
                try:
                    k, v = pickle.load(f)
                except EOFError:
                    break
                parts[k] = v
        _, status = os.waitpid(pid, 0)
        if "error" in parts:
            raise RuntimeError(parts["error"])
        crash = ""
        if os.WIFSIGNALED(status):
            crash = "Warp's %s pass died of %s" % ("forward" if "fwd" not in parts else "backward",
                                                   signal.Signals(os.WTERMSIG(status)).name)
        self.half = parts.get("half", set())
        return parts.get("fwd"), parts.get("grad", None if grad else {}), crash

    def run_here(self, name, rec, grad, perturb, send):
        """Launch kernel `name` on the record's inputs, every float input
        times 1 + perturb; send ("fwd", outputs), then with grad ("grad",
        grads of the float arrays), as nested lists."""
        wp = self.wp
        k = self.kernel(name)
        dim = tuple(rec["dim"]) if isinstance(rec["dim"], list) else rec["dim"]
        args, arrays = [], {}
        def scale(v):
            if isinstance(v, list):
                return [scale(x) for x in v]
            return v * (1.0 + perturb) if isinstance(v, float) else v
        from warp._src.codegen import Struct
        struct_arrays = {}

        def value(t, v, label):
            """The Warp value of type t of krun's input v; its arrays go
            into `arrays` by label (a struct's as "p.pos")."""
            if isinstance(t, Struct):
                inst = t()
                for f, var in t.vars.items():
                    setattr(inst, f, value(var.type, v[f], label + "." + f))
                return inst
            if wp.types.is_array(t):
                dt = t.dtype
                if isinstance(dt, Struct):
                    a = wp.array([value(dt, e, label) for e in flat_elems(v, t.ndim)], dtype=dt,
                                 shape=shape_of(v, t.ndim), device="cpu",
                                 requires_grad=grad and holds_float(dt))
                    struct_arrays[label] = a
                    return a
                fl = getattr(dt, "_wp_scalar_type_", dt) in (wp.float32, wp.float64, wp.float16, float)
                a = wp.array(v, dtype=dt, device="cpu", requires_grad=grad and fl)
                arrays[label] = a
                return a
            if (wp.types.type_is_vector(t) or wp.types.type_is_matrix(t)
                    or wp.types.type_is_quaternion(t) or wp.types.type_is_transformation(t)):
                return t(*flat(v))
            if t in (bool, wp.bool):
                return bool(v)
            if t is int or t in (wp.int8, wp.uint8, wp.int16, wp.uint16,
                                 wp.int32, wp.uint32, wp.int64, wp.uint64):
                return t(int(v)) if t is not int else int(v)
            if t in (wp.float16, wp.float64):
                return t(float(v))
            return float(v)

        def flat_elems(v, ndim):
            return v if ndim == 1 else [e for row in v for e in flat_elems(row, ndim - 1)]

        def shape_of(v, ndim):
            return (len(v),) + (shape_of(v[0], ndim - 1) if ndim > 1 and v else ())

        def holds_float(dt):
            if isinstance(dt, Struct):
                return any(holds_float(v.type) for v in dt.vars.values())
            return getattr(dt, "_wp_scalar_type_", dt) in (wp.float32, wp.float64, wp.float16, float)

        for arg in k.adj.args:
            # a struct of no fields has no key in krun's record
            v = scale(rec["inputs"].get(arg.label, {}) if isinstance(arg.type, Struct)
                      else rec["inputs"][arg.label])
            args.append(value(arg.type, v, arg.label))
        def holds_half(dt):
            if isinstance(dt, Struct):
                return any(holds_half(getattr(v.type, "dtype", v.type)) for v in dt.vars.values())
            return getattr(dt, "_wp_scalar_type_", dt) is wp.float16
        send(("half", {n for n, a in list(arrays.items()) + list(struct_arrays.items())
                       if holds_half(a.dtype)}))
        def outputs():
            out = {n: a.numpy().tolist() for n, a in arrays.items()}
            for n, a in struct_arrays.items():
                out[n] = plain(a.numpy().tolist())
            return out
        def launch():
            # a kernel on tiles (block_dim in its record): dim is its grid,
            # as wp.launch_tiled takes it, or with krun --untiled its
            # threads, as wp.launch takes them; the cpu record's block_dim
            # is 1, Warp's on the CPU
            if rec.get("untiled"):
                wp.launch(k, dim=dim, inputs=args, block_dim=rec["block_dim"], device="cpu")
            elif "block_dim" in rec:
                wp.launch_tiled(k, dim=dim, inputs=args, block_dim=rec["block_dim"], device="cpu")
            else:
                wp.launch(k, dim=dim, inputs=args, device="cpu")
        if not grad:
            launch()
            send(("fwd", outputs()))
            return
        tape = wp.Tape()
        with tape:
            launch()
        send(("fwd", outputs()))
        seeds = {}
        seed_adj = leaves(rec["seed_adj"])
        for n, a in arrays.items():
            if a.requires_grad:
                seeds[a] = wp.array(seed_adj[n], dtype=a.dtype, device="cpu")
        for n, a in struct_arrays.items():
            if a.requires_grad:
                dt = a.dtype
                seeds[a] = wp.array([value(dt, e, n) for e in flat_elems(seed_adj[n], a.ndim)],
                                    dtype=dt, shape=a.shape, device="cpu")
        tape.backward(grads=seeds)
        grads = {n: a.grad.numpy().tolist() for n, a in arrays.items() if a.requires_grad}
        for n, a in struct_arrays.items():
            if a.requires_grad:
                grads[n] = plain(a.grad.numpy().tolist())
        send(("grad", grads))


_doc = None


def listed_in_doc(name):
    """Whether doc/warp-differences.md names `name` (in backquotes)."""
    global _doc
    if _doc is None:
        try:
            with open(DOC) as f:
                _doc = f.read()
        except OSError:
            _doc = ""
    return ("`%s`" % name) in _doc


def rejects_marker(path):
    """The doc anchor of a reproducer that Warp rejects on purpose: a line
    `# warp-rejects: ANCHOR` in the file (t/warp/repro/), else None."""
    for line in open(path):
        m = re.match(r"#\s*warp-rejects:\s*(.+?)\s*$", line)
        if m:
            return m.group(1)
    return None


RANDOM_DRAWS = ("randi", "randu", "randf", "randn", "poisson", "sample_")


def hazards(path):
    """The patterns on which Warp's adjoints are known to be wrong, per
    kernel of module `path` (doc/warp-differences.md, "Gradients"), found
    in the source, through the wp.funcs a kernel calls:

      dynamic-loop   a `while`, or a `for` over a range that is not
                     constant (Warp unrolls only constant ranges of at most
                     16 trips, and none whose body has a `break`), assigns
                     a variable that lives across iterations
      inplace-array  an array is both read and written by the kernel
      component      a component of a local vector or matrix is assigned
      atomic-value   the value an atomic returns is used
      mod-divisor    a `%` or wp.mod whose divisor is not a literal (Warp's
                     adjoint of a float mod gives nothing to the divisor;
                     of wp.mod on vectors, nothing at all)
      frac           a wp.frac (Warp defines no adjoint for it; its
                     derivative is 1)
      atomic-minmax  an atomic_min or atomic_max (Warp leaves the seed of
                     the target element where the value that won took it)
      random-loop    a random draw in a dynamic loop (Warp's backward pass
                     replays the code after the loop without the loop's
                     draws, then the loop's draws in reverse order)
      tile-scan      a wp.tile_scan_inclusive, tile_scan_exclusive,
                     tile_scan_max_inclusive or tile_scan_min_inclusive
                     (Warp's adjoints of scans are empty: no gradient flows
                     back)
      tile-solve     a wp.tile_cholesky_solve or tile_upper_solve (Warp
                     does not differentiate them: no gradient reaches the
                     factor or the right-hand side)
      tile-sort      a wp.tile_sort (not differentiable in Warp: no gradient
                     follows the keys or values through the order)
      tile-reduce    a wp.tile_min, tile_max or tile_reduce (not differentiable
                     in Warp: no gradient reaches the reduced tile)
      tile-from-thread  a wp.tile_from_thread (not differentiable in Warp:
                     the value's gradient is 0)
      tile-diag-add  a wp.tile_diag_add (Warp's adjoint is empty: no
                     gradient flows back to either tile)
    """
    tree = ast.parse(open(path).read())
    defs = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            defs[node.name] = node

    def is_wp(call, prefix):
        f = call.func
        return isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "wp" \
            and f.attr.startswith(prefix)

    def const_range(it):
        if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range"):
            return False
        vals = []
        for a in it.args:
            try:
                vals.append(ast.literal_eval(a))
            except ValueError:
                return False
        return len(range(*vals)) <= 16

    def breaks(stmts):
        """Does a `break` of this loop (not of a loop inside it) occur?"""
        todo = list(stmts)
        while todo:
            st = todo.pop()
            if isinstance(st, ast.Break):
                return True
            if not isinstance(st, (ast.For, ast.While, ast.FunctionDef)):
                todo.extend(c for c in ast.iter_child_nodes(st) if isinstance(c, ast.stmt))
        return False

    def assigned(stmts):
        names = set()
        for st in stmts:
            for n in ast.walk(st):
                if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
                    for t in (n.targets if isinstance(n, ast.Assign) else [n.target]):
                        for m in ast.walk(t):
                            if isinstance(m, ast.Name):
                                names.add(m.id)
        return names

    memo = {}

    def scan(fn, seen):
        if fn.name in memo:
            return memo[fn.name]
        params = [a.arg for a in fn.args.args]
        arrays = {a.arg for a in fn.args.args if a.annotation is not None and "array" in ast.unparse(a.annotation)}
        found, reads, writes = set(), set(), set()
        for n in ast.walk(fn):
            if isinstance(n, (ast.While, ast.For)):
                if isinstance(n, ast.While) or not const_range(n.iter) or breaks(n.body):
                    inner = assigned(n.body)
                    if isinstance(n, ast.For):
                        inner.discard(n.target.id if isinstance(n.target, ast.Name) else "")
                    # a variable assigned in the loop that also exists outside it
                    outside = assigned([st for st in fn.body if st is not n]) | set(params)
                    if inner & outside:
                        found.add("dynamic-loop")
                    if any(isinstance(m, ast.Call) and any(is_wp(m, d) for d in RANDOM_DRAWS)
                           for st in n.body for m in ast.walk(st)):
                        found.add("random-loop")
            if isinstance(n, (ast.BinOp, ast.AugAssign)) and isinstance(n.op, ast.Mod) \
                    and not isinstance(n.right if isinstance(n, ast.BinOp) else n.value, ast.Constant):
                found.add("mod-divisor")
            if isinstance(n, ast.Call) and is_wp(n, "mod") and len(n.args) == 2 \
                    and not isinstance(n.args[1], ast.Constant):
                found.add("mod-divisor")
            if isinstance(n, ast.Call) and is_wp(n, "frac"):
                found.add("frac")
            if isinstance(n, ast.Call) and is_wp(n, "tile_scan_"):
                found.add("tile-scan")
            if isinstance(n, ast.Call) and (is_wp(n, "tile_cholesky_solve") or is_wp(n, "tile_upper_solve")):
                found.add("tile-solve")
            if isinstance(n, ast.Call) and (is_wp(n, "tile_min") or is_wp(n, "tile_max") or
                                            is_wp(n, "tile_reduce")):
                found.add("tile-reduce")
            if isinstance(n, ast.Call) and is_wp(n, "tile_sort"):
                found.add("tile-sort")
            if isinstance(n, ast.Call) and is_wp(n, "tile_from_thread"):
                found.add("tile-from-thread")
            if isinstance(n, ast.Call) and is_wp(n, "tile_diag_add"):
                found.add("tile-diag-add")
            if isinstance(n, (ast.Assign, ast.AugAssign)):
                for t in (n.targets if isinstance(n, ast.Assign) else [n.target]):
                    if isinstance(t, (ast.Subscript, ast.Attribute)) and isinstance(t.value, ast.Name):
                        if t.value.id in arrays:
                            writes.add(t.value.id)
                            if isinstance(n, ast.AugAssign):
                                reads.add(t.value.id)
                        else:
                            found.add("component")
            if isinstance(n, ast.Subscript) and isinstance(n.ctx, ast.Load) and isinstance(n.value, ast.Name) \
                    and n.value.id in arrays:
                reads.add(n.value.id)
            if isinstance(n, ast.Call) and is_wp(n, "atomic_") and n.args and isinstance(n.args[0], ast.Name):
                writes.add(n.args[0].id)
                if is_wp(n, "atomic_min") or is_wp(n, "atomic_max"):
                    found.add("atomic-minmax")
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in defs \
                    and n.func.id not in seen:
                sub, sreads, swrites = scan(defs[n.func.id], seen | {fn.name})
                found |= sub
                cparams = [a.arg for a in defs[n.func.id].args.args]
                for j, a in enumerate(n.args):
                    if isinstance(a, ast.Name) and j < len(cparams):
                        if cparams[j] in sreads:
                            reads.add(a.id)
                        if cparams[j] in swrites:
                            writes.add(a.id)
            # wp.tile_map(f, ...) calls f on each element (f takes no array)
            if isinstance(n, ast.Call) and is_wp(n, "tile_map") and n.args and isinstance(n.args[0], ast.Name) \
                    and n.args[0].id in defs and n.args[0].id not in seen:
                found |= scan(defs[n.args[0].id], seen | {fn.name})[0]
        for n in ast.walk(fn):
            if isinstance(n, ast.Expr):
                continue
            for m in ast.iter_child_nodes(n):
                if isinstance(m, ast.Call) and is_wp(m, "atomic_") and not isinstance(n, ast.Expr):
                    found.add("atomic-value")
        if reads & writes:
            found.add("inplace-array")
        memo[fn.name] = (found, reads, writes)
        return memo[fn.name]

    out = {}
    for name, fn in defs.items():
        if any(isinstance(d, ast.Attribute) and d.attr == "kernel" for d in fn.decorator_list):
            out[name] = sorted(scan(fn, set())[0])
    return out


def read_options(path):
    """{module name: (krun options, wdiff words)} from an --options TSV."""
    import shlex
    out = {}
    for line in open(path, encoding="utf-8"):
        if not line.strip() or line.startswith("#"):
            continue
        cols = line.rstrip("\n").split("\t")
        words = shlex.split(cols[1]) if len(cols) > 1 else []
        own = {w for w in words if w in ("forward", "nofd") or w.startswith("fwd-atol=")}
        out[cols[0]] = ([w for w in words if w not in own], own)
    return out


def main(argv):
    grad = False
    label = None
    only = None
    options = {}
    files = []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--grad":
            grad = True
        elif a == "--name":
            i += 1
            label = argv[i]
        elif a == "--kernel":
            i += 1
            only = argv[i]
        elif a == "--options":
            i += 1
            options = read_options(argv[i])
        else:
            files.append(a)
        i += 1
    tap = Tap()
    import warp as wp
    wp.config.log_level = wp.LOG_WARNING
    wp.config.kernel_cache_dir = os.environ.get("WARP_CACHE", os.path.join(ROOT, "build", "warp-cache"))
    wp.init()
    counts = dict.fromkeys(["kernels", "fwd", "fwd_illc", "grad", "grad_agree", "grad_warp_wrong",
                            "grad_ksynth_only", "arrays", "rejected"], 0)
    for fi, path in enumerate(files):
        tag = label + ": " + os.path.basename(path) if label else path
        modname = "ksw_%d_%s" % (fi, re.sub(r"\W", "_", os.path.basename(path)[:-3]))
        try:
            wm = WarpModule(wp, path, modname)
            tap.result(True, "Warp loads %s unchanged" % tag)
        except Exception as e:  # a rejection fails, unless a reproducer documents it
            msg = "%s: %s" % (type(e).__name__, e)
            counts["rejected"] += 1
            anchor = rejects_marker(path)
            known = anchor is not None and listed_in_doc(anchor)
            tap.result(False, "Warp loads %s unchanged" % tag, [msg.strip()],
                       "TODO Warp rejects `%s` (doc/warp-differences.md)" % anchor if known else "")
            continue
        # cpu: --gradcheck gives the gradients and checks them against
        # central differences in one double build per file.
        kopt, own = options.get(os.path.basename(path)[:-3], ([], set()))
        kopt = kopt + (["--kernel", only] if only else [])
        fgrad = grad and "forward" not in own
        fwd_atol = next((float(w.split("=", 1)[1]) for w in own if w.startswith("fwd-atol=")), FWD_ATOL)
        cpu, st_c, err_c = krun(kopt + (["--gradcheck" if "nofd" not in own else "--grad"] if fgrad else []),
                                path)
        sim, st_s, err_s = krun(kopt + (["--grad"] if fgrad else []) + ["--device", "sim"], path)
        if not cpu:
            tap.result(False, "krun runs %s" % tag, [err_c])
            continue
        haz = hazards(path) if fgrad else {}
        wm.bind_instances(list(cpu))
        for name in cpu:
            counts["kernels"] += 1
            rc, rs = cpu[name], sim.get(name)
            try:
                k = wm.kernel(name)
                # the kernel's option, else its module's (module_options)
                no_adj = k.options.get("enable_backward", k.module.options.get("enable_backward", True)) is False
                wout, wgrad, crash = wm.run(name, rc, fgrad and "grads" in rc and not no_adj)
            except Exception as e:
                tap.result(False, "%s %s: Warp runs it" % (tag, name), ["%s: %s" % (type(e).__name__, e)])
                continue
            if wout is None:
                tap.result(False, "%s %s: Warp runs it" % (tag, name), [crash])
                continue

            def fwd_worst(wout):
                worst, at = 0.0, ""
                for ref, dev in ((rc, "cpu"), (rs, "sim")):
                    if ref is None:
                        return math.inf, "no %s record" % dev
                    for p, v in leaves(ref["outputs"]).items():
                        rtol, atol = tolerance(p, wm.half, FWD_RTOL, fwd_atol)
                        q, w = compare(wout[p], v, rtol, atol, "%s %s" % (dev, p))
                        if q > worst:
                            worst, at = q, w
                return worst, at

            worst, at = fwd_worst(wout)
            desc = "%s %s: forward, Warp = cpu = sim" % (tag, name)
            if worst <= 1.0:
                counts["fwd"] += 1
                tap.result(True, desc)
            else:
                # Explained only if the output is ill-conditioned: Warp's own
                # output moves beyond the tolerance when every float input is
                # perturbed by PERTURB (a few ulps of float32).
                wp2, _, _ = wm.run(name, rc, False, PERTURB)
                moved, mat = 0.0, ""
                for p in (wp2 or {}):
                    q, w = compare(wp2[p], wout[p], FWD_RTOL, FWD_ATOL, "warp " + p)
                    if q > moved:
                        moved, mat = q, w
                illc = moved > 1.0 and listed_in_doc("ill-conditioned")
                counts["fwd_illc"] += illc
                tap.result(False, desc, ["worst %.3g x tolerance at %s" % (worst, at),
                                         "Warp's own output, inputs times 1 + %g: moves %.3g x tolerance at %s"
                                         % (PERTURB, moved, mat)],
                           "TODO ill-conditioned: float32 rounding decides the output (doc/warp-differences.md)"
                           if illc else "")
                if illc:
                    print("# ill-conditioned\t%s\t%s\t%.3g\t%s" % (tag, name, worst, at), flush=True)
                    continue
            if not (fgrad and "grads" in rc):
                continue
            counts["grad"] += 1
            if no_adj:
                # Warp has no adjoint to compare with: ksynth's passes central
                # differences, or (nofd) cpu's and sim's agree.
                if "gradcheck" in rc:
                    ok, what, why = rc["gradcheck"].get("ok", False), "passes --gradcheck", rc["gradcheck"]
                else:
                    q, why = math.inf, "no sim gradients"
                    if rs is not None and "grads" in rs:
                        q = 0.0
                        for p, g in leaves(rc["grads"]).items():
                            rtol, atol = tolerance(p, wm.half, GRAD_RTOL, GRAD_ATOL)
                            qp, w = compare(leaves(rs["grads"])[p], g, rtol, atol, "sim grad " + p)
                            if qp >= q:
                                q, why = qp, w
                    ok, what = q <= 1.0, "cpu = sim"
                counts["grad_ksynth_only"] += ok
                tap.result(ok, "%s %s: Warp builds no backward (enable_backward=False); ksynth's %s"
                           % (tag, name, what), [json.dumps(why)])
                continue
            gworst, gat = 0.0, ""
            if wgrad is None:
                gworst, gat, wgrad = math.inf, crash, {}
            for ref, dev in ((rc, "cpu"), (rs, "sim")):
                if ref is None or "grads" not in ref or crash:
                    continue
                for p in wgrad:
                    rtol, atol = tolerance(p, wm.half, GRAD_RTOL, GRAD_ATOL)
                    q, w = compare(wgrad[p], leaves(ref["grads"])[p], rtol, atol, "%s grad %s" % (dev, p))
                    if q > gworst:
                        gworst, gat = q, w
            counts["arrays"] += len(wgrad)
            desc = "%s %s: gradients of %s" % (tag, name, ", ".join(wgrad) or "no array")
            fd_ok = rc.get("gradcheck", {}).get("ok", False)
            if gworst <= 1.0:
                counts["grad_agree"] += 1
                tap.result(True, desc + ", Warp = cpu = sim")
                continue
            # Disagreement: ksynth must pass central differences, and the
            # kernel must hold a pattern on which Warp is known wrong.
            h = haz.get(name, [])
            listed = listed_in_doc(name)
            good = fd_ok and bool(h) and listed
            why = ["Warp misses ksynth by %.3g x tolerance at %s" % (gworst, gat),
                   "ksynth --gradcheck: %s" % ("ok" if fd_ok else "FAILED " + json.dumps(rc.get("gradcheck"))),
                   "Warp's known hazards in this kernel: %s" % (", ".join(h) or "NONE"),
                   "listed in doc/warp-differences.md: %s" % ("yes" if listed else "NO")]
            tap.result(good, desc + ": Warp is wrong (%s), ksynth passes --gradcheck" % ", ".join(h), why)
            counts["grad_warp_wrong"] += good
            if fd_ok and h:
                print("# warp-wrong\t%s\t%s\t%s\t%.3g\t%s" % (tag, name, ",".join(h), gworst, gat), flush=True)
    tap.diag("summary\t%s: %d modules (%d rejected), %d kernels; forward: %d agree, %d ill-conditioned; "
             "gradients: %d kernels, %d agree, %d Warp wrong, %d ksynth's alone (%d arrays compared)"
             % (label or "files", len(files), counts["rejected"], counts["kernels"], counts["fwd"],
                counts["fwd_illc"], counts["grad"], counts["grad_agree"], counts["grad_warp_wrong"],
                counts["grad_ksynth_only"], counts["arrays"]))
    return tap.done()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
