#!/usr/bin/env python3
"""check.py: checks on krun's JSON records for the 4xxx tests.

    check.py agree A.jsonl B.jsonl [--rel R] [--abs A] [--scale]
                   [--grad-rel GR] [--grad-abs GA]
        the same kernels, dims, seeds and inputs; every output value within
        |a - b| <= max(R * max(|a|, |b|), A), every gradient within GR and
        GA (default R and A); ints and nulls exactly equal; with --scale,
        A (GA) times max(1, the largest |value| of A's record in that field,
        outputs or grads)
    check.py law FILE.jsonl [--ir FILE.kir|FILE.py] [--shape NAME=AxB]... [--law NAME=spd]...
                 [NAME]...
        the inputs are those of the law in doc/runtime.md, recomputed here
        independently (splitmix64 from ks_hash64 of "SEED/KERNEL/INDEX"),
        and so are the seeds of --grad ("SEED/KERNEL/INDEX/adj"); the
        parameters' types come from the IR (a .py is read by kparse), or
        without --ir are guessed from the values (int, float32, bool,
        float32 vectors and matrices, 1-D arrays); every array has the
        shape the launch gives it unless a --shape says otherwise (a
        record with block_dim is a kernel on tiles: its dim is the grid,
        and an array 16 times the grid's extents, unless it says untiled;
        an array of --law NAME=spd each matrix's lower triangle's draws
        mirrored, its diagonal's plus its extent plus 1, in its type);
        a NAME is a scalar
        given by --set (its value is not checked)
    check.py grads FILE.jsonl
        --grad records: seed_adj has every float array, grads every float
        array and float scalar, shaped like the inputs; with --gradcheck
        the field says ok
    check.py saxpy-grad FILE.jsonl
        the gradients of t/grad/saxpy.kir's saxpy and project, worked out
        by hand
    check.py abi FILE.jsonl [KERNEL...]
        the outputs of t/run/abi.c, worked out in float32 from the inputs;
        the records must be those of the kernels named (default: abi and
        scale, both of t/run/abi.kir's, in order)
    check.py int-edges FILE.jsonl
        the outputs of t/run/int_edges.py (integer division by 0 and -1,
        float -> int of NaN and out-of-range values) from doc/language.md
    check.py grid FILE.jsonl
        the outputs of t/run/nd/grid.py's kernels, worked out from the
        inputs in the runtime's order and precision (float32, float64,
        float16 rounded after each operation), exactly
    check.py nd-grad FILE.jsonl
        the gradients of t/run/nd/grad.kir's poly64, stencil and square16,
        worked out by hand in their precision, exactly
    check.py tiles FILE.jsonl
        the outputs of t/tile/'s kernels on tiles (gemm, scale, lane,
        transpose), worked out from the inputs in float32 in the emitted
        order (a product's k-tiles summed in turn, each dot product in
        order; a tile's sum as the tree of halves), exactly, over the
        record's grid (dim); what no block writes keeps its input
    check.py types FILE.jsonl
        t/run/nd/scalars.py's outputs repeat its inputs, every float16 is
        printed in the fewest digits that read back to it, and a bool is
        true or false
    check.py saxpy|histogram|weighted|swizzle|gram FILE.jsonl
        the outputs of samples/arithmetic/saxpy_rational.py's saxpy,
        samples/atomic/histogram.py's two kernels, samples/vector/
        components.py's swizzle and samples/matrix/elements.py's
        gram_matrix, worked out by hand (exactly in float32, the last to
        1e-6 as its sum order is the runtime's)

Any failure prints '# ' lines saying where and exits 1.  Each record must
be valid JSON with its keys in the documented order (a kernel on tiles has
block_dim after dim, and untiled after it when launched over threads).
"""
import cmath
import json
import math
import os
import re
import struct
import subprocess
import sys

M = (1 << 64) - 1
TILE_SCALE = 16  # a kernel on tiles: an array's extent per block of the grid
KEYS = ["kernel", "device", "dim", "seed", "inputs", "outputs"]
GRAD_KEYS = KEYS + ["seed_adj", "grads"]
CHECK_KEYS = GRAD_KEYS + ["gradcheck"]


def f32(x):
    """Round a double to float32 (exact emulation of one float32 op when x
    is the double result of +, -, * or / of float32 values)."""
    return struct.unpack("f", struct.pack("f", x))[0]


def f16(x):
    """Round a double to float16 (to nearest, ties to even)."""
    return struct.unpack("e", struct.pack("e", x))[0]


class Num(float):
    """A JSON float: its value read back as the float32 it was printed
    from (krun prints a float32 as the shortest text that reads back to
    it), and .d, the text's value as a double (a float64's value, and a
    float16's before it is rounded to float16)."""

    def __new__(cls, text):
        n = float.__new__(cls, f32(float(text)))
        n.d = float(text)
        n.text = text
        return n


def load(path):
    """The records of a JSON-lines file, every float a Num."""
    recs = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            r = json.loads(line, parse_float=Num)
            keys = [k for k in r if k != "order_dependent"]
            if "block_dim" in keys:  # a kernel on tiles: right after dim
                if keys.index("block_dim") != keys.index("dim") + 1 or type(r["block_dim"]) is not int:
                    fail(f"{path}:{n}: block_dim must be an int right after dim")
                keys.remove("block_dim")
                if "untiled" in keys:  # launched over threads: right after block_dim
                    if list(r).index("untiled") != list(r).index("block_dim") + 1 or r["untiled"] is not True:
                        fail(f"{path}:{n}: untiled must be true right after block_dim")
                    keys.remove("untiled")
            if keys not in (KEYS, GRAD_KEYS, CHECK_KEYS):
                fail(f"{path}:{n}: keys {list(r)}, want {KEYS} (+ seed_adj, grads [, gradcheck])")
            recs.append(r)
    if not recs:
        fail(f"{path}: no record")
    return recs


bad = 0


def fail(msg):
    global bad
    bad += 1
    if bad <= 20:
        print("# " + msg)


def order_key(p):
    """Sorts the components of an order-dependent output: nulls first,
    then by value."""
    return (p is not None, 0 if p is None else (p.d if isinstance(p, Num) else p))


def flat(v):
    if isinstance(v, dict):  # a struct: its fields in order
        v = list(v.values())
    if isinstance(v, list):
        for x in v:
            yield from flat(x)
    else:
        yield v


def agree(a, b, rel, absol, scale=False, grel=None, gabs=None):
    grel = rel if grel is None else grel
    gabs = absol if gabs is None else gabs
    ra, rb = load(a), load(b)
    if len(ra) != len(rb):
        fail(f"{len(ra)} records against {len(rb)}")
    for x, y in zip(ra, rb):
        k = x["kernel"]
        for key in ("kernel", "dim", "seed", "inputs"):
            if x[key] != y[key]:
                fail(f"{k}: {key} differ")
        if list(x["outputs"]) != list(y["outputs"]):
            fail(f"{k}: output names differ")
        if ("grads" in x) != ("grads" in y):
            fail(f"{k}: one record has grads, the other not")
        if "seed_adj" in x and x["seed_adj"] != y.get("seed_adj"):
            fail(f"{k}: seed_adj differ")
        # an output that depends on the threads' order (doc/runtime.md):
        # the same values, in any order
        unordered = set(x.get("order_dependent", []))
        if unordered != set(y.get("order_dependent", [])):
            fail(f"{k}: order_dependent differ")
        vals = [("outputs", n) for n in x["outputs"]]
        vals += [("grads", n) for n in x.get("grads", {})]
        # --scale: the absolute bound is relative to the field's largest
        # float (a value that is the cancellation of larger terms)
        big = {}
        for field, name in vals:
            m = max((abs(p) for p in flat(x[field][name]) if isinstance(p, float)), default=0.0)
            big[field] = max(big.get(field, 1.0), m)
        for field, name in vals:
            u, v = list(flat(x[field][name])), list(flat(y.get(field, {}).get(name, [])))
            if len(u) != len(v):
                fail(f"{k}.{name}: lengths {len(u)} and {len(v)}")
                continue
            if field == "outputs" and name in unordered:
                u, v = sorted(u, key=order_key), sorted(v, key=order_key)
            r, t = (rel, absol) if field == "outputs" else (grel, gabs)
            tol_abs = t * big[field] if scale else t
            for i, (p, q) in enumerate(zip(u, v)):
                if p is None or q is None or isinstance(p, int) or isinstance(q, int):
                    if p != q or type(p) is not type(q):
                        fail(f"{k}.{name}: component {i}: {p} != {q}")
                    continue
                p, q = p.d, q.d
                if abs(p - q) > max(r * max(abs(p), abs(q)), tol_abs):
                    fail(f"{k}.{name} ({field}): component {i}: {p} and {q} differ by "
                         f"{abs(p - q):.3g} (bound {max(r * max(abs(p), abs(q)), tol_abs):.3g})")


# ---- the input law (doc/runtime.md) ----------------------------------------

def hash64(data, seed=0):
    h = 0xCBF29CE484222325 ^ seed
    for c in data:
        h ^= c
        h = (h * 0x100000001B3) & M
    h ^= h >> 30
    h = (h * 0xBF58476D1CE4E5B9) & M
    h ^= h >> 27
    h = (h * 0x94D049BB133111EB) & M
    h ^= h >> 31
    return h


class Stream:
    def __init__(self, seed, kernel, index, suffix=None):
        key = f"{seed}/{kernel}/{index}" + (f"/{suffix}" if suffix else "")
        self.s = hash64(key.encode())

    def next(self):
        self.s = (self.s + 0x9E3779B97F4A7C15) & M
        z = self.s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M
        return z ^ (z >> 31)

    def float(self):
        return ((self.next() >> 40) - (1 << 23)) / 8388608.0

    def int(self, dim):
        return ((self.next() >> 32) * dim) >> 32


def shape(v):
    """vector/matrix nesting of a JSON value: (), (n,), (n, n)"""
    s = []
    while isinstance(v, list):
        s.append(len(v))
        v = v[0] if v else 0
    return tuple(s)


# ---- types: ir/types.h's table, and the kernels' signatures from the IR ----

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
ROW = re.compile(r'^T\((\w+), (\w+), (\w+), (\d+), (\d+), "([^"]*)"')


def type_table():
    """IR name -> (kind, scalar IR name, rows, cols) for every named type."""
    rows = []
    with open(os.path.join(ROOT, "ir", "types.h")) as f:
        for line in f:
            m = ROW.match(line)
            if m:
                rows.append(m.groups())
    ir = {e: name for e, _, _, _, _, name in rows}
    return {name: (kind, ir[sc], int(r), int(c)) for e, kind, sc, r, c, name in rows}


TYPES = None
SIG = re.compile(r"^kernel @(\w+)\((.*)\) !")
PARAM = re.compile(r"%(\w+): (\w+(?:\[,*\])?)")


def signatures(path):
    """kernel name -> [(param, type)] from IR text, or from kparse's IR for
    a kernel source."""
    if path.endswith(".py"):
        kparse = os.path.join(os.environ.get("KS_BIN", ""), "kparse")
        text = subprocess.run([kparse if os.environ.get("KS_BIN") else "kparse", path],
                              capture_output=True, text=True, check=True).stdout
    else:
        with open(path) as f:
            text = f.read()
    sigs = {}
    for line in text.splitlines():
        m = SIG.match(line)
        if m:
            sigs[m.group(1)] = PARAM.findall(m.group(2))
    return sigs


def guess_type(v, is_array):
    """A parameter's type from its value, for records without IR: int,
    float, bool and float32 vectors and matrices, their 1-D arrays."""
    e = (v[0] if v else 0.0) if is_array else v
    t = ("bool" if isinstance(e, bool) else "int" if isinstance(e, int)
         else "float" if not isinstance(e, list)
         else f"mat{len(e)}{len(e)}" if isinstance(e[0], list) else f"vec{len(e)}")
    return t + "[]" if is_array else t


def int_max(scalar):
    bits = {"int8": 7, "uint8": 8, "int16": 15, "uint16": 16, "int": 31, "uint32": 32,
            "int64": 63, "uint64": 64}[scalar]
    return (1 << bits) - 1


def comp_ok(x, scalar, st, n):
    """Is x the next component of the law, of scalar type scalar?  (n: the
    range of the ints)"""
    if scalar == "bool":
        return x is bool(st.next() >> 63)
    if scalar in ("float", "float16", "float64"):
        want = st.float()
        if isinstance(x, bool) or not isinstance(x, float):
            return False
        if scalar == "float16":
            return f16(x.d) == f16(want)
        return (x.d if scalar == "float64" else x) == want
    c = min(n, int_max(scalar) + 1)
    return type(x) is int and x == st.int(c)


def value_ok(v, t, st, n):
    """Does the value v of type t (a named type) follow the law?"""
    kind, scalar, rows, cols = TYPES[t]
    if kind in ("TK_BOOL", "TK_SINT", "TK_UINT", "TK_FLOAT"):
        return comp_ok(v, scalar, st, n)
    if kind == "TK_MAT":
        if shape(v) != (rows, cols):
            return False
        return all(comp_ok(x, scalar, st, n) for row in v for x in row)
    if shape(v) != (rows,):
        return False
    return all(comp_ok(x, scalar, st, n) for x in v)


def elements(v, ext):
    """The elements of a nested list of extents ext, row-major; None when
    the nesting is not ext."""
    if not isinstance(v, list) or len(v) != ext[0]:
        return None
    if len(ext) == 1:
        return list(v)
    out = []
    for row in v:
        e = elements(row, ext[1:])
        if e is None:
            return None
        out += e
    return out


def spd(draws, ext, scalar):
    """--law NAME=spd: the draws of an array of float matrices (its last two
    axes) made symmetric positive definite, rounded to its float type."""
    m = ext[-1]
    rnd = {"float": f32, "float16": f16, "float64": float}[scalar]
    out = list(draws)
    for base in range(0, len(out), m * m):
        for i in range(m):
            for j in range(i + 1, m):
                out[base + i * m + j] = out[base + j * m + i]
            out[base + i * m + i] = rnd(out[base + i * m + i] + (m + 1))
    return out


def law(path, sets=(), ir=None, shapes=None, spds=()):
    global TYPES
    TYPES = TYPES or type_table()
    sigs = signatures(ir) if ir else None
    shapes = shapes or {}
    for r in load(path):
        dims, seed, k = r["dim"], r["seed"], r["kernel"]
        dims = dims if isinstance(dims, list) else [dims]
        n = min(dims)
        if sigs is not None and k not in sigs:
            fail(f"{k}: not a kernel of {ir}")
            continue
        types = dict(sigs[k]) if sigs is not None else {
            name: guess_type(v, name in r["outputs"]) for name, v in r["inputs"].items()}
        if list(types) != list(r["inputs"]):
            fail(f"{k}: inputs {list(r['inputs'])}, want the parameters {list(types)}")
            continue
        for idx, (name, v) in enumerate(r["inputs"].items()):
            st, t = Stream(seed, k, idx), types[name]
            if not t.endswith("]"):
                kind, scalar = TYPES[t][:2]
                if name in sets:
                    continue
                if kind in ("TK_SINT", "TK_UINT"):
                    want = min(n, int_max(scalar))
                    if type(v) is not int or v != want:
                        fail(f"{k}.{name}: int scalar {v}, want {want}")
                elif not value_ok(v, t, st, n):
                    fail(f"{k}.{name}: {v} is not the law's {t}")
                continue
            elem, rank = t[:t.index("[")], t.count(",") + 1
            # a kernel on tiles (block_dim in its record): 16 elements per
            # block along each axis, unless launched over threads
            scale = TILE_SCALE if "block_dim" in r and not r.get("untiled") else 1
            ext = shapes.get(name) or [scale * dims[min(a, len(dims) - 1)] for a in range(rank)]
            els = elements(v, ext)
            if els is None:
                fail(f"{k}.{name}: not an array of shape {ext}")
                continue
            if name in spds:
                scalar = TYPES[elem][1]
                want = spd([st.float() for _ in els], ext, scalar)
                got = [e.d if scalar == "float64" else e for e in els]
                bad = next((i for i, (g, w) in enumerate(zip(got, want)) if g != w), None)
                if bad is not None:
                    fail(f"{k}.{name}: element {bad}: {els[bad]} is not the spd law's {want[bad]}")
                continue
            for i, e in enumerate(els):
                if not value_ok(e, elem, st, n):
                    fail(f"{k}.{name}: element {i}: {e} is not the law's {elem}")
                    break
        names = list(r["inputs"])
        for name, v in r.get("seed_adj", {}).items():
            st = Stream(seed, k, names.index(name), "adj")
            t = types[name]
            elem = t[:t.index("[")]
            scalar = TYPES[elem][1]
            for x in flat(v):
                if not comp_ok(x, scalar, st, n):
                    fail(f"{k}: seed_adj.{name}: {x} is not the law's {scalar}")
                    break


def grads(path):
    for r in load(path):
        k = r["kernel"]
        if "grads" not in r:
            fail(f"{k}: no grads")
            continue
        want_seed, want_grad = [], []
        for name, v in r["inputs"].items():
            is_array = name in r["outputs"]
            leaf = next(flat(v))
            if isinstance(leaf, int):  # ints and bools have no adjoint
                continue
            want_grad.append(name)
            if is_array:
                want_seed.append(name)
                for f in ("seed_adj", "grads"):
                    g = r[f].get(name)
                    if g is None or shape(g) != shape(v):
                        fail(f"{k}.{name}: {f} not shaped like the input")
            elif shape(r["grads"].get(name, 0)) != shape(v):
                fail(f"{k}.{name}: grads not shaped like the input")
        if list(r["seed_adj"]) != want_seed:
            fail(f"{k}: seed_adj names {list(r['seed_adj'])}, want {want_seed}")
        if list(r["grads"]) != want_grad:
            fail(f"{k}: grads names {list(r['grads'])}, want {want_grad}")
        if "gradcheck" in r and r["gradcheck"].get("ok") is not True:
            fail(f"{k}: gradcheck {r['gradcheck']}")


def saxpy_grad(path):
    for r in load(path):
        i_, s, g = r["inputs"], r["seed_adj"], r["grads"]
        if r["kernel"] == "saxpy":
            # x is an array too: its seed passes through, plus a * seed_y
            want_x = [f32(sx + f32(i_["a"] * sy)) for sx, sy in zip(s["x"], s["y"])]
            if g["x"] != want_x:
                fail(f"saxpy: grads.x {g['x']} != {want_x}")
            if g["y"] != s["y"]:
                fail("saxpy: grads.y is not the seed (y is updated in place)")
            want_a = 0.0
            for x, sy in zip(i_["x"], s["y"]):
                want_a = f32(want_a + f32(x * sy))
            if g["a"] != want_a:
                fail(f"saxpy: grads.a {g['a']} != {want_a}")
        elif r["kernel"] == "project":
            want_p = [[f32(a + f32(s["s"][i] * c)) for a, c in zip(s["p"][i], i_["v"])]
                      for i in range(r["dim"])]
            if g["p"] != want_p:
                fail(f"project: grads.p {g['p']} != {want_p}")
            if any(x != 0 for x in g["s"]):
                fail("project: grads.s is not 0 (s is overwritten)")
            want_v = [0.0, 0.0, 0.0]
            for i in range(r["dim"]):
                want_v = [f32(w + f32(s["s"][i] * c)) for w, c in zip(want_v, i_["p"][i])]
            if g["v"] != want_v:
                fail(f"project: grads.v {g['v']} != {want_v}")


# ---- outputs worked out by hand --------------------------------------------

def check_abi(path, want):
    recs = load(path)
    names = [r["kernel"] for r in recs]
    if names != want:
        fail(f"records of {names}, want {want}")
    for r in recs:
        i_, o = r["inputs"], r["outputs"]
        if r["kernel"] == "scale":
            want = [f32(y * i_["s"]) for y in i_["ys"]]
            if o["ys"] != want:
                fail(f"scale: {o['ys']} != {want}")
            continue
        n, a, v, m = i_["n"], i_["a"], i_["v"], i_["m"]
        for i in range(r["dim"]):
            s = a
            for x, c in ((v[0], 2), (v[1], 3), (v[2], 4), (m[0][1], 5), (m[1][0], 6),
                         (i_["xs"][i], 7), (float(i_["ks"][i]), 8),
                         (i_["vs"][i][2], 9), (i_["ms"][i][1][2], 10)):
                s = f32(s + f32(x * c))
            vs = list(i_["vs"][i])
            vs[0] = -vs[0]
            ms = [list(row) for row in i_["ms"][i]]
            ms[2][0] = float(i)
            got = (o["out"][i], o["ks"][i], o["vs"][i], o["ms"][i], o["xs"][i])
            want = (s, i_["ks"][i] * 2 + n, vs, ms, i_["xs"][i])
            if got != want:
                fail(f"abi thread {i}: {got} != {want}")


def int_edges(path):
    """The outputs of t/run/int_edges.py, from the rules of doc/language.md
    worked out here with Python's integers: a / 0 = 0, a % 0 = a, a // 0 =
    0, INT_MIN / -1 wraps to INT_MIN, int(x) truncates, saturates and
    gives 0 for a NaN."""
    imin, imax = -(1 << 31), (1 << 31) - 1

    def wrap(v):
        return (v + (1 << 31)) % (1 << 32) - (1 << 31)

    def div(a, b):
        if b == 0:
            return 0
        q = abs(a) // abs(b)
        return wrap(q if (a < 0) == (b < 0) else -q)

    def mod(a, b):
        return a if b == 0 else wrap(a - b * div(a, b)) if b != -1 else 0

    def floordiv(a, b):
        return 0 if b == 0 else wrap(a // b)

    dividends = [7, -7, 0, imin, imax]
    seen = set()
    for r in load(path):
        k, o, dim = r["kernel"], r["outputs"], r["dim"]
        seen.add(k)
        if k == "int_division":
            for i in range(dim):
                a, b = dividends[(i // 5) % 5] if i < 25 else 7, i % 5 - 2
                want = (div(a, b), mod(a, b), floordiv(a, b))
                got = (o["quot"][i], o["rem"][i], o["floor_quot"][i])
                if got != want:
                    fail(f"int_division thread {i}: {a} / {b}, % and //: {got}, want {want}")
        elif k == "constant_divisors":
            for i in range(dim):
                a = dividends[i % 5]
                want = (div(a, 0) + mod(a, 0) + floordiv(a, 0) if i < 5 else div(a, -1) if i < 10
                        else mod(a, -1) if i < 15 else floordiv(a, -1))
                if o["out"][i] != wrap(want):
                    fail(f"constant_divisors thread {i}: {o['out'][i]}, want {wrap(want)}")
        elif k == "float_to_int":
            want = [0, imax, imin, imax, imin, imax, imin, 2147483520, -2, 2, 0]
            got = o["out"][:len(want)] + [0] * max(0, len(want) - dim)
            if dim < len(want) or got != want or any(o["out"][len(want):]):
                fail(f"float_to_int: {o['out']}, want {want} then zeros")
    if seen != {"int_division", "constant_divisors", "float_to_int"}:
        fail(f"records of {sorted(seen)}, want the three kernels of t/run/int_edges.py")


def check_sample(kind, path):
    for r in load(path):
        i_, o, dim = r["inputs"], r["outputs"], r["dim"]
        k = r["kernel"]
        if kind == "saxpy" and k == "saxpy":
            want = [f32(f32(i_["a"] * x) + y) for x, y in zip(i_["x"], i_["y"])]
            if o["out"] != want:
                fail(f"saxpy: {o['out']} != {want}")
            if o["x"] != i_["x"] or o["y"] != i_["y"]:
                fail("saxpy changed its inputs")
        elif kind == "histogram" and k == "histogram":
            n = i_["n"]
            want = list(i_["counts"])
            for key in i_["keys"]:
                want[(key * 3) % n] += 1
            if o["counts"] != want:
                fail(f"histogram: {o['counts']} != {want}")
            if sum(o["counts"]) - sum(i_["counts"]) != dim:
                fail("histogram: the counts do not grow by dim")
        elif kind == "swizzle" and k == "swizzle":
            want = [[v[2], f32(v[0] + v[1]), f32(v[0] * v[0])] for v in i_["p"]]
            if o["out"] != want:
                fail(f"swizzle: {o['out']} != {want}")
        elif kind == "gram" and k == "gram_matrix":
            # g = transpose(m) * m, then g00 += 1, g12 = (g12 + g21) / 2;
            # the sum order of the product is the runtime's, so 1e-6
            for m, g, t in zip(i_["a"], o["out"], o["trace"]):
                w = [[sum(m[r][a] * m[r][b] for r in range(3)) for b in range(3)] for a in range(3)]
                w[0][0] += 1.0
                w[1][2] = 0.5 * (w[1][2] + w[2][1])
                for a in range(3):
                    for b in range(3):
                        if abs(g[a][b] - w[a][b]) > 1e-6 * max(1.0, abs(w[a][b])):
                            fail(f"gram_matrix: g[{a}][{b}] = {g[a][b]}, want {w[a][b]}")
                tr = w[0][0] + w[1][1] + w[2][2]
                if abs(t - tr) > 1e-6 * max(1.0, abs(tr)):
                    fail(f"gram_matrix: trace {t}, want {tr}")
        elif kind == "weighted" and k == "weighted_histogram":
            want = list(i_["bins"])
            for key, w in zip(i_["keys"], i_["w"]):
                # threads run in order 0..dim-1 on the cpu device
                want[key // 4] = f32(want[key // 4] + f32(w * w))
            if o["bins"] != want:
                fail(f"weighted_histogram: {o['bins']} != {want}")


# ---- N-D launches and every type (t/run/nd) ---------------------------------

def h(x):
    """float16 arithmetic as the runtime does it: an operation on float16
    values is done in float32 (x: its double result, exact for + and * of
    two float16 values) and rounded to float16"""
    return f16(f32(x))


def nd_index(dims):
    """the thread indices of a launch, row-major (the cpu's order)"""
    idx = [[]]
    for d in dims:
        idx = [t + [k] for t in idx for k in range(d)]
    return idx


def check_grid(path):
    for r in load(path):
        i_, o, k = r["inputs"], r["outputs"], r["kernel"]
        dims = r["dim"]
        if k == "blur":
            src, w = i_["src"], i_["w"]
            n, m = len(src), len(src[0])
            for i, j in nd_index(dims):
                acc = src[i][j]
                if i > 0:
                    acc = f32(acc + f32(w * src[i - 1][j]))
                if j + 1 < m:
                    acc = f32(acc + f32(w * src[i][j + 1]))
                if i + 1 < n:
                    acc = f32(acc - f32(f32(w * w) * src[i + 1][j]))
                if o["dst"][i][j] != f32(acc * acc):
                    fail(f"blur: dst[{i}, {j}] = {o['dst'][i][j]}, want {f32(acc * acc)}")
        elif k == "row_sums":
            rows, cols, a = list(i_["rows"]), list(i_["cols"]), i_["a"]
            for i, j in nd_index(dims):
                rows[i] = f32(rows[i] + a[i][j])
                cols[j] = f32(cols[j] + f32(a[i][j] * a[i][j]))
            if o["rows"] != rows or o["cols"] != cols:
                fail(f"row_sums: {o['rows']}, {o['cols']} != {rows}, {cols}")
        elif k == "volume":
            for i, j, l in nd_index(dims):
                p = [x.d for x in i_["v"][i][j][l]]
                want = (p[0] * p[0] + p[1] * p[1] + p[2] * p[2]) * i_["s"][i].d + p[0] * j
                if o["out"][i][j][l].d != want:
                    fail(f"volume: out[{i}, {j}, {l}] = {o['out'][i][j][l].d}, want {want}")
        elif k == "hyper":
            c = f16(i_["c"].d)
            for i, j, q, l in nd_index(dims):
                x = f16(i_["h"][i][j][q][l].d)
                want = h(h(h(x * x) * c) + f16(i_["g"][i][l].d))
                got = f16(o["h"][i][j][q][l].d)
                if got != want:
                    fail(f"hyper: h[{i}, {j}, {q}, {l}] = {got}, want {want}")
        elif k == "counts":
            hist = list(i_["hist"])
            for i, j in nd_index(dims):
                if i_["flags"][i][j]:
                    hist[i_["keys"][i][j]] += 1
            if o["hist"] != hist:
                fail(f"counts: {o['hist']} != {hist}")
            if any(flat(o["flags"])):
                fail("counts: a flag is still set")


def check_nd_grad(path):
    for r in load(path):
        i_, s, g, k = r["inputs"], r["seed_adj"], r["grads"], r["kernel"]
        if k == "poly64":
            a, ga = i_["a"].d, 0.0
            for i, v in enumerate(x.d for x in i_["x"]):
                gy = s["y"][i].d
                want = s["x"][i].d + gy * (a * v * 2.0 + math.cos(v))
                if g["x"][i].d != want:
                    fail(f"poly64: grads.x[{i}] = {g['x'][i].d}, want {want}")
                ga += gy * (v * v)
            if g["a"].d != ga or any(y != 0 for y in g["y"]):
                fail(f"poly64: grads.a = {g['a'].d}, want {ga}; grads.y = {g['y']}")
        elif k == "stencil":
            src, w = i_["src"], i_["w"]
            n, m = len(src), len(src[0])
            want = [[s["src"][i][j] for j in range(m)] for i in range(n)]
            gw = 0.0
            for i, j in nd_index(r["dim"]):
                jn = (j + 1) % m
                a, b = src[i][j], src[i][jn]
                ds = f32(f32(f32(a + f32(w * b)) * 2.0) * s["dst"][i][j])
                want[i][j] = f32(want[i][j] + ds)
                want[i][jn] = f32(want[i][jn] + f32(ds * w))
                gw = f32(gw + f32(ds * b))
            if g["src"] != want or g["w"] != gw or any(x != 0 for x in flat(g["dst"])):
                fail(f"stencil: grads {g} != src {want}, w {gw}, dst 0")
        elif k == "square16":
            c, gc = f16(i_["c"].d), 0.0
            for i, j in nd_index(r["dim"]):
                x, gs = f16(i_["h"][i][j].d), f16(s["h"][i][j].d)
                want = h(gs * h(h(c * x) * 2.0))
                if f16(g["h"][i][j].d) != want:
                    fail(f"square16: grads.h[{i}, {j}] = {g['h'][i][j].d}, want {want}")
                gc = h(gc + h(gs * h(x * x)))
            if f16(g["c"].d) != gc:
                fail(f"square16: grads.c = {g['c'].d}, want {gc}")


# ---- kernels on tiles (t/tile) ------------------------------------------------

def tree_sum(v):
    """a tile's sum as the emitted code takes it: halves added pairwise,
    span n/2, n/4, ... 1, each addition in float32"""
    v = list(v)
    span = len(v) // 2
    while span > 0:
        for k in range(span):
            v[k] = f32(v[k] + v[k + span])
        span //= 2
    return v[0]


def bitonic_order(keys):
    """the order in which wp.tile_sort leaves a tile's keys: the bitonic
    network over the count rounded up to a power of two, the padding
    greater than any key, equal keys not swapped"""
    n, p = len(keys), 1
    while p < n:
        p *= 2
    at = list(range(p))
    first = lambda y, x: at[y] < n and (at[x] >= n or keys[at[y]] < keys[at[x]])
    size = 2
    while size <= p:
        span = size // 2
        while span > 0:
            for lo in range(p):
                hi = lo ^ span
                if hi > lo:
                    u, v = (lo, hi) if lo & size == 0 else (hi, lo)
                    if first(v, u):
                        at[lo], at[hi] = at[hi], at[lo]
            span //= 2
        size *= 2
    return at[:n]


def first_diff(name, got, want):
    """fail at the first element where nested lists got and want differ"""
    g, w = list(flat(got)), list(flat(want))
    at = next((q for q, (a, b) in enumerate(zip(g, w)) if a != b), None)
    if at is not None or len(g) != len(w):
        fail(f"{name}: element {at} (row-major) is {g[at] if at is not None else '...'}, want "
             f"{w[at] if at is not None else '...'}")


def near_diff(name, got, want, rel=1e-5, absol=1e-6):
    """fail at the first element of got not within rel (and absol) of want:
    outputs of libm functions (sin, cos), which the emitted code may round
    otherwise than Python's"""
    g, w = list(flat(got)), list(flat(want))
    for q, (a, b) in enumerate(zip(g, w)):
        if abs(float(a) - float(b)) > absol + rel * abs(float(b)):
            fail(f"{name}: element {q} (row-major) is {a}, want {b}")
            return
    if len(g) != len(w):
        fail(f"{name}: {len(g)} elements, want {len(w)}")


def map_funcs():
    """The wp.funcs that t/tile/map_func.py maps over tiles, in float32
    (float64 for cplx64), each op rounded as the code rounds it"""
    def relu(x):
        return max(x, 0.0)

    def cplx(x, y, r=f32):
        return [r(r(x[0] * y[0]) - r(x[1] * y[1])), r(r(x[0] * y[1]) + r(x[1] * y[0]))]

    def halve(x):
        n = 0
        while abs(x) > 0.25:
            x = f32(f32(x * 0.5) + f32(0.01))
            n += 1
        return f32(x * float(n + 1))

    def bumpy(x, y):
        s = f32(x * y) if x > y else f32(f32(math.sin(x)) - y)
        for _ in range(3):
            s = f32(f32(s * 0.5) + x)
        return s

    def nested(x):
        sq = f32(x * x)
        return f32(f32(sq + f32(math.cos(sq))) * 2.0)

    def blend(a, b, w):
        return f32(f32(a * w) + f32(b * f32(1.0 - w)))

    def soft(v):
        if isinstance(v, list):
            n = f32(1.0 + f32(math.sqrt(sum(f32(c * c) for c in v))))
            return [f32(c / n) for c in v]
        return f32(v / f32(1.0 + abs(v)))

    return relu, cplx, halve, bumpy, nested, blend, soft


def check_map_func(r, grid):
    """A kernel of t/tile/map_func.py (wp.tile_map of a wp.func): its
    outputs from its inputs, within libm's rounding"""
    i_, o, k = r["inputs"], r["outputs"], r["kernel"]
    relu, cplx, halve, bumpy, nested, blend, soft = map_funcs()
    n = 16 * grid[0]
    if k in ("map_cplx", "map_cplx64"):
        # float64: the values as printed (Num.d)
        d = (lambda v: v) if k == "map_cplx" else (lambda v: [[[e.d for e in el] for el in row] for row in v])
        a, b, c = d(i_["a"]), d(i_["b"]), [[list(e) for e in row] for row in d(i_["c"])]
        for row in range(4 * grid[0]):
            for col in range(4):
                c[row][col] = cplx(a[row][col], b[row][col], f32 if k == "map_cplx" else float)
        near_diff(k + ": c", d(o["c"]), c, 1e-6 if k == "map_cplx" else 1e-14, 0.0)
    elif k in ("map_relu", "map_halve", "map_nested"):
        f = {"map_relu": relu, "map_halve": lambda x: halve(f32(x * 3.0)), "map_nested": nested}[k]
        near_diff(k + ": y", o["y"], [f(x) for x in i_["x"][:n]])
    elif k == "map_bumpy":
        near_diff(k + ": z", o["z"], [bumpy(x, y) for x, y in zip(i_["x"], i_["y"])])
    elif k == "map_three":
        a, b, w = i_["a"], i_["b"], i_["w"]
        near_diff(k + ": c", o["c"], [blend(x, y, w) for x, y in zip(a, b)])
        near_diff(k + ": d", o["d"], [blend(y, x, x) for x, y in zip(a, b)])
    elif k == "map_generic":
        x, s = i_["x"], list(i_["s"])
        y = [[f32(c + c) for c in v] for v in x[:8 * grid[0]]] + [list(v) for v in i_["y"][8 * grid[0]:]]
        for q in range(8 * grid[0]):
            s[32 + q] = f32(s[q] + s[q])
        first_diff(k + ": y", o["y"], y)
        first_diff(k + ": s", o["s"], s)
    elif k == "map_overload":
        v, x, out = i_["v"], i_["x"], list(i_["out"])
        for q in range(8 * grid[0]):
            t = soft(list(v[q]))
            out[q] = f32(f32(f32(f32(t[0] * t[0]) + f32(t[1] * t[1])) + f32(t[2] * t[2])) + soft(x[q]))
        near_diff(k + ": out", o["out"], out)
    elif k == "map_index":
        valid, scan, base = i_["valid"], i_["scan"], i_["base"]
        index = [scan[q] + base + q // 16 - 1 if valid[q] == 1 else -1 for q in range(n)]
        first_diff(k + ": index", o["index"], index)
    else:
        return False
    return True


def dft_rows(a, rows, n, r0, sign):
    """The DFT along the rows of the (rows, n) tile of vec2 array a (lists
    of [re, im]) from row r0, column 0, in double (elements past a's end
    read 0): {(row, col): (re, im)}, unnormalised, e^(sign 2 pi i k m / n)."""
    out = {}
    for r in range(rows):
        x = [complex(*a[r0 + r][m]) if r0 + r < len(a) and m < len(a[0]) else 0j for m in range(n)]
        for k in range(n):
            z = sum(x[m] * cmath.exp(sign * 2j * math.pi * (k * m % n) / n) for m in range(n))
            out[(r0 + r, k)] = (z.real, z.imag)
    return out


def close_diff(name, got, want, tol):
    """fail at the first element where nested lists got and want differ by
    more than tol times the largest magnitude of want (float32 sums and
    libm's twiddles against a sum in double)"""
    g, w = list(flat(got)), list(flat(want))
    scale = max([1.0] + [abs(x) for x in w])
    at = next((q for q, (a, b) in enumerate(zip(g, w)) if abs(a - b) > tol * scale), None)
    if at is not None or len(g) != len(w):
        fail(f"{name}: element {at} (row-major) is {g[at] if at is not None else '...'}, want "
             f"{w[at] if at is not None else '...'} (within {tol} of {scale})")


def chol(a):
    """The lower Cholesky factor of the lists a, in double."""
    n = len(a)
    lf = [[0.0] * n for _ in range(n)]
    for j in range(n):
        d = math.sqrt(a[j][j] - sum(lf[j][q] ** 2 for q in range(j)))
        for r in range(j, n):
            lf[r][j] = d if r == j else (a[r][j] - sum(lf[r][q] * lf[j][q] for q in range(j))) / d
    return lf


def transpose(a):
    return [list(r) for r in zip(*a)]


def tri_solve(m, y, upper):
    """The x of m x = y (m's upper or lower triangle), y rows of columns."""
    n, x = len(m), [list(r) for r in y]
    rows = range(n - 1, -1, -1) if upper else range(n)
    for r in rows:
        for c in range(len(x[r])):
            others = range(r + 1, n) if upper else range(r)
            x[r][c] = (y[r][c] - sum(m[r][q] * x[q][c] for q in others)) / m[r][r]
    return x


def check_tiles(path):
    for r in load(path):
        i_, o, k = r["inputs"], r["outputs"], r["kernel"]
        grid = r["dim"] if isinstance(r["dim"], list) else [r["dim"]]
        if "block_dim" not in r:
            fail(f"{k}: a kernel on tiles, but its record has no block_dim")
        if k == "tile_gemm":
            A, B, C = i_["A"], i_["B"], [list(row) for row in i_["C"]]
            count = len(A[0]) // 8
            at = lambda m, x, y: m[x][y] if 0 <= x < len(m) and 0 <= y < len(m[0]) else 0.0
            for bi, bj in nd_index(grid[:2]):
                for row in range(8):
                    for col in range(4):
                        acc = 0.0
                        for kk in range(count):
                            dot = 0.0
                            for q in range(8):
                                dot = f32(dot + f32(at(A, 8 * bi + row, 8 * kk + q) * at(B, 8 * kk + q, 4 * bj + col)))
                            acc = f32(acc + dot)
                        x, y = 8 * bi + row, 4 * bj + col
                        if x < len(C) and y < len(C[0]):
                            C[x][y] = acc
            first_diff("tile_gemm: C", o["C"], C)
        elif k == "scale_sum":
            x, s = i_["x"], i_["s"]
            y, total = list(i_["y"]), list(i_["total"])
            for b in range(grid[0]):
                t = [x[16 * b + q] if 16 * b + q < len(x) else 0.0 for q in range(16)]
                u = [f32(f32(v * s) + 1.0) for v in t]
                for q in range(16):
                    if 16 * b + q < len(y):
                        y[16 * b + q] = u[q]
                total[b] = f32(tree_sum(u) + t[3])
            first_diff("scale_sum: y", o["y"], y)
            first_diff("scale_sum: total", o["total"], total)
        elif k == "lane_sum":
            x, out = i_["x"], list(i_["out"])
            # i, lane = wp.tid(): lane is the grid's second index, or with
            # a grid of one dimension the thread of the block; lane 0 writes
            for b in range(grid[0]):
                t = [x[16 * b + q] if 16 * b + q < len(x) else 0.0 for q in range(16)]
                out[b] = tree_sum([f32(v * v) for v in t])
            first_diff("lane_sum: out", o["out"], out)
        elif k == "tile_transpose":
            a, b = i_["a"], [list(row) for row in i_["b"]]
            for bi, bj in nd_index(grid[:2]):
                for rr in range(4):
                    for c in range(8):
                        x, y = 4 * bj + rr, 8 * bi + c
                        if x < len(b) and y < len(b[0]):
                            src = a[8 * bi + c][4 * bj + rr] if 8 * bi + c < len(a) and 4 * bj + rr < len(a[0]) else 0.0
                            b[x][y] = src
            first_diff("tile_transpose: b", o["b"], b)
        elif k == "spread":
            # t/tile/from_thread.py: thread 0's 2 s[i] over the tile
            x, sv, y = i_["x"], i_["s"], list(i_["y"])
            for b in range(grid[0]):
                v = f32(sv[b] * 2.0)
                for q in range(16):
                    if 16 * b + q < len(y):
                        y[16 * b + q] = f32(f32(v * x[16 * b + q]) + v)
            first_diff("spread: y", o["y"], y)
        elif k == "spread2d":
            x, sv, y = i_["x"], i_["s"], [list(row) for row in i_["y"]]
            for b in range(grid[0]):
                a = f32(f32(sv[b][0] * sv[b][0]) + f32(sv[b][1] * sv[b][1]))
                for rr in range(4):
                    for c in range(4):
                        if 4 * b + rr < len(y) and c < len(y[0]):
                            y[4 * b + rr][c] = f32(a * x[4 * b + rr][c])
            first_diff("spread2d: y", o["y"], y)
        elif k == "gather":
            # t/tile/indexed.py: rows 4i .. 4i+3 through indices 3, 2, 1, 0
            x, y, z = i_["x"], [list(row) for row in i_["y"]], [list(row) for row in i_["z"]]
            for b in range(grid[0]):
                for q in range(4):
                    for c in range(8):
                        v = x[4 * b + q][c] if 4 * b + q < len(x) and c < len(x[0]) else 0.0
                        if 4 * b + q < len(y) and c < len(y[0]):
                            y[4 * b + q][c] = f32(v * v)
                        if q < len(z) and c < len(z[0]):
                            z[q][c] += v
            first_diff("gather: y", o["y"], y)
            close_diff("gather: z", o["z"], z, 1e-6)
        elif k == "scatter_cols":
            x, y = i_["x"], [list(row) for row in i_["y"]]
            for b in range(grid[0]):
                for q in range(2):
                    for c, col in enumerate((-1, 1, 3, 5)):
                        if col >= 0 and 2 * b + q < len(y) and col < len(y[0]):
                            y[2 * b + q][col] = x[2 * b + q][c] if 2 * b + q < len(x) and c < len(x[0]) else 0.0
            first_diff("scatter_cols: y", o["y"], y)
        elif k == "prefix":
            # t/tile/scan.py: 24-element tiles scanned, within float32's
            # sums in another order
            x, y, z = i_["x"], list(i_["y"]), list(i_["z"])
            for b in range(grid[0]):
                t = [x[24 * b + q] if 24 * b + q < len(x) else 0.0 for q in range(24)]
                sq = [f32(v * v) for v in t]
                for q in range(24):
                    if 24 * b + q < len(y):
                        y[24 * b + q] = sum(sq[:q + 1])
                        z[24 * b + q] = sum(t[:q])
            close_diff("prefix: y", o["y"], y, 1e-6)
            close_diff("prefix: z", o["z"], z, 1e-6)
        elif k == "fresh":
            x, y = i_["x"], list(i_["y"])
            for b in range(grid[0]):
                t = [x[24 * b + q] if 24 * b + q < len(x) else 0.0 for q in range(24)]
                for q in range(24):
                    if 24 * b + q < len(y):
                        y[24 * b + q] = sum(t[:q + 1])
            close_diff("fresh: y", o["y"], y, 1e-6)
        elif k == "counts":
            flags, pos = i_["flags"], [list(row) for row in i_["pos"]]
            for b in range(grid[0]):
                f = [flags[4 * b + q // 8][q % 8] if 4 * b + q // 8 < len(flags) and q % 8 < len(flags[0]) else 0
                     for q in range(32)]
                for q in range(32):
                    r_, c = 4 * b + q // 8, q % 8
                    if r_ < len(pos) and c < len(pos[0]):
                        pos[r_][c] = sum(f[:q])
            first_diff("counts: pos", o["pos"], pos)
        elif k in ("factor", "upper"):
            # t/tile/cholesky.py: each block's diagonal 8x8 block of A
            # factored and solved with, in double here
            def dbl(v):  # float64 values as their doubles
                return [dbl(x) for x in v] if isinstance(v, list) else v.d if hasattr(v, "d") else v
            A = dbl(i_["A"])
            for b in range(grid[0]):
                o_ = 8 * b
                a = [[A[o_ + r][o_ + c] for c in range(8)] for r in range(8)]
                low = [[a[max(r, c)][min(r, c)] for c in range(8)] for r in range(8)]
                lf = chol(low)
                if k == "factor":
                    x = dbl(i_["x"][o_:o_ + 8])
                    want_y = tri_solve(transpose(lf), tri_solve(lf, [[v] for v in x], False), True)
                    close_diff("factor: L", [row[o_:o_ + 8] for row in dbl(o["L"][o_:o_ + 8])], lf, 1e-12)
                    close_diff("factor: y", dbl(o["y"][o_:o_ + 8]), [r[0] for r in want_y], 1e-12)
                else:
                    up = [[a[min(r, c)][max(r, c)] for c in range(8)] for r in range(8)]
                    uf = transpose(chol(transpose(up)))
                    xs = [r[:3] for r in i_["X"][o_:o_ + 8]]
                    want_y = tri_solve(uf, tri_solve(transpose(uf), xs, False), True)
                    want_z = tri_solve(uf, tri_solve(a, xs, False), True)
                    close_diff("upper: U", [row[o_:o_ + 8] for row in o["U"][o_:o_ + 8]], uf, 1e-5)
                    close_diff("upper: Y", [r[:3] for r in o["Y"][o_:o_ + 8]], want_y, 1e-5)
                    close_diff("upper: Z", [r[:3] for r in o["Z"][o_:o_ + 8]], want_z, 1e-5)
        elif k == "extremes":
            # t/tile/reduce_op.py: whole tiles of 24 reduced, the first
            # index of equal extremes
            x, lo, hi, s_, where = i_["x"], list(i_["lo"]), list(i_["hi"]), list(i_["s"]), list(i_["where"])
            for b in range(grid[0]):
                t = [x[24 * b + q] if 24 * b + q < len(x) else 0.0 for q in range(24)]
                sq = [f32(v * v) for v in t]
                lo[b], hi[b] = min(t), max(sq)
                s_[b] = f32(tree_sum(t + [0.0] * 8) + min(f32(2.0 * v) for v in t))
                where[2 * b], where[2 * b + 1] = t.index(min(t)), t.index(max(t))
            first_diff("extremes: lo", o["lo"], lo)
            first_diff("extremes: hi", o["hi"], hi)
            first_diff("extremes: s", o["s"], s_)
            first_diff("extremes: where", o["where"], where)
        elif k == "products":
            n, p_, rows = i_["n"], list(i_["p"]), list(i_["rows"])
            for b in range(grid[0]):
                t = [[n[2 * b + r_][c] if 2 * b + r_ < len(n) else 0 for c in range(3)] for r_ in range(2)]
                p_[b] = t[0][0] * t[0][1] * t[0][2] * t[1][0] * t[1][1] * t[1][2]
                rows[2 * b], rows[2 * b + 1] = sum(t[0]), sum(t[1])
            first_diff("products: p", o["p"], p_)
            first_diff("products: rows", o["rows"], rows)
        elif k == "scaled_product":
            x, p_ = i_["x"], list(i_["p"])
            for b in range(grid[0]):
                t = [f32(2.0 * x[12 * b + q]) if 12 * b + q < len(x) else 0.0 for q in range(12)]
                p_[b] = math.prod(t)
            close_diff("scaled_product: p", o["p"], p_, 1e-6)
        elif k == "tile_dots":
            # t/tile/dot.py: tiles of 16 floats, vec3 and mat22, against a
            # sum in double
            x, y, u, m, out = i_["x"], i_["y"], i_["u"], i_["m"], list(i_["out"])
            at = lambda arr, q, z: arr[q] if q < len(arr) else z
            for b in range(grid[0]):
                qs = range(16 * b, 16 * b + 16)
                out[3 * b] = sum(at(x, q, 0.0) * at(y, q, 0.0) for q in qs)
                out[3 * b + 1] = sum(2.0 * c * c for q in qs for c in at(u, q, [0.0] * 3))
                out[3 * b + 2] = sum(c * c for q in qs for row in at(m, q, [[0.0] * 2] * 2) for c in row)
            close_diff("tile_dots: out", o["out"], out, 1e-6)
        elif k == "int_dot":
            p_, q_ = i_["p"], list(i_["q"])
            for b in range(grid[0]):
                q_[b] = sum(v * v for r_ in (2 * b, 2 * b + 1) if r_ < len(p_) for v in p_[r_][:8])
            first_diff("int_dot: q", o["q"], q_)
        elif k == "running":
            # t/tile/scan_extremes.py: prefix maxima of 24-element tiles,
            # prefix minima of their squares
            x, hi, lo = i_["x"], list(i_["hi"]), list(i_["lo"])
            for b in range(grid[0]):
                t = [x[24 * b + q] if 24 * b + q < len(x) else 0.0 for q in range(24)]
                sq = [f32(v * v) for v in t]
                for q in range(24):
                    if 24 * b + q < len(hi):
                        hi[24 * b + q], lo[24 * b + q] = max(t[:q + 1]), min(sq[:q + 1])
            first_diff("running: hi", o["hi"], hi)
            first_diff("running: lo", o["lo"], lo)
        elif k == "levels":
            n, top = i_["n"], [list(row) for row in i_["top"]]
            for b in range(grid[0]):
                f = [n[4 * b + q // 8][q % 8] if 4 * b + q // 8 < len(n) and q % 8 < len(n[0]) else 0
                     for q in range(32)]
                for q in range(32):
                    r_, c = 4 * b + q // 8, q % 8
                    if r_ < len(top) and c < len(top[0]):
                        top[r_][c] = max(f[:q + 1]) - min(f[:q + 1])
            first_diff("levels: top", o["top"], top)
        elif k == "sort_pairs":
            # t/tile/sort.py: 24 float keys (a sort over 32) carrying
            # float values
            kk, v, ks, vs = i_["k"], i_["v"], list(i_["ks"]), list(i_["vs"])
            for b in range(grid[0]):
                key = [kk[24 * b + q] if 24 * b + q < len(kk) else 0.0 for q in range(24)]
                val = [v[24 * b + q] if 24 * b + q < len(v) else 0.0 for q in range(24)]
                for q, src in enumerate(bitonic_order(key)):
                    if 24 * b + q < len(ks):
                        ks[24 * b + q], vs[24 * b + q] = f32(key[src] * key[src]), val[src]
            first_diff("sort_pairs: ks", o["ks"], ks)
            first_diff("sort_pairs: vs", o["vs"], vs)
        elif k == "rank_ints":
            n, slot = i_["n"], [list(row) for row in i_["slot"]]
            for b in range(grid[0]):
                key = [n[4 * b + q // 8][q % 8] if 4 * b + q // 8 < len(n) and q % 8 < len(n[0]) else 0
                       for q in range(32)]
                for q, src in enumerate(bitonic_order(key)):
                    r_, c = 4 * b + q // 8, q % 8
                    if r_ < len(slot) and c < len(slot[0]):
                        slot[r_][c] = src
            first_diff("rank_ints: slot", o["slot"], slot)
        elif k == "set_elements":
            # t/tile/assign.py: elements set, then the tile squared
            x, sv, y = i_["x"], i_["s"], [list(row) for row in i_["y"]]
            for b in range(grid[0]):
                t = [[x[4 * b + q][c] if 4 * b + q < len(x) and c < len(x[0]) else 0.0 for c in range(4)]
                     for q in range(4)]
                t[1][2] = f32(sv[b] * 2.0)
                t[3][b % 4] = f32(t[0][0] + t[1][2])
                t[0][1] = f32(t[0][1] * sv[b])
                u = [[f32(v * v) for v in row] for row in t]
                u[2][2] = 5.0
                for q in range(4):
                    for c in range(4):
                        if 4 * b + q < len(y) and c < len(y[0]):
                            y[4 * b + q][c] = u[q][c]
            first_diff("set_elements: y", o["y"], y)
        elif k == "add_elements":
            x, sv, y = i_["x"], i_["s"], list(i_["y"])
            for b in range(grid[0]):
                t = [x[16 * b + q] if 16 * b + q < len(x) else 0.0 for q in range(16)]
                t[3] = f32(t[3] + sv[b])
                t[5] = f32(t[5] - f32(sv[b] * sv[b]))
                for kk in range(4):
                    t[2 * kk] = f32(t[2 * kk + 1] * 3.0)
                for q in range(16):
                    if 16 * b + q < len(y):
                        y[16 * b + q] = t[q]
            first_diff("add_elements: y", o["y"], y)
        elif k == "diag_shift":
            # t/tile/diag_axpy.py: u = t t + diag(d d), v = t + diag(u00 d), y = u v
            a, d, y = i_["a"], i_["d"], [list(row) for row in i_["y"]]
            for b in range(grid[0]):
                t = [[a[4 * b + q][c] if 4 * b + q < len(a) and c < len(a[0]) else 0.0 for c in range(4)]
                     for q in range(4)]
                dt = [d[4 * b + q] if 4 * b + q < len(d) else 0.0 for q in range(4)]
                u = [[f32(t[q][c] * t[q][c]) for c in range(4)] for q in range(4)]
                for q in range(4):
                    u[q][q] = f32(u[q][q] + f32(dt[q] * dt[q]))
                v = [row[:] for row in t]
                for q in range(4):
                    v[q][q] = f32(v[q][q] + f32(u[0][0] * dt[q]))
                for q in range(4):
                    for c in range(4):
                        if 4 * b + q < len(y) and c < len(y[0]):
                            y[4 * b + q][c] = sum(u[q][m] * v[m][c] for m in range(4))
            close_diff("diag_shift: y", o["y"], y, 1e-5)
        elif k == "axpy":
            x, z, y = i_["x"], i_["z"], list(i_["y"])
            for b in range(grid[0]):
                for q in range(16):
                    if 16 * b + q < len(y):
                        xv, zv = x[16 * b + q], z[16 * b + q]
                        dest = f32(zv + f32(f32(xv * xv) * 0.75))
                        y[16 * b + q] = f32(f32(1.0 + f32(dest * 2.0)) * dest)
            first_diff("axpy: y", o["y"], y)
        elif k == "axpy_vec":
            x, y = i_["x"], [list(e) for e in i_["y"]]
            for b in range(grid[0]):
                for q in range(8):
                    if 8 * b + q < len(y):
                        y[8 * b + q] = [f32(f32(c * 0.5) + f32(c * -1.5)) for c in x[8 * b + q]]
            first_diff("axpy_vec: y", o["y"], y)
        elif k == "views":
            # t/tile/view.py: rows and blocks of a 4x8 tile read and assigned
            x, y, z, w = i_["x"], [list(r_) for r_ in i_["y"]], list(i_["z"]), [list(r_) for r_ in i_["w"]]
            for b in range(grid[0]):
                t = [[x[4 * b + q][c] if 4 * b + q < len(x) and c < len(x[0]) else 0.0 for c in range(8)]
                     for q in range(4)]
                row, part = t[1], [t[1 + q][2:6] for q in range(2)]
                for c in range(8):
                    if 8 * b + c < len(z):
                        z[8 * b + c] = f32(f32(row[c] * row[c]) + t[b % 4][c])
                for q in range(2):
                    for c in range(4):
                        if 2 * b + q < len(w) and c < len(w[0]):
                            w[2 * b + q][c] = f32(part[q][c] * 2.0)
                u = [[0.0] * 8 for _ in range(4)]
                u[2] = [f32(v * 3.0) for v in row]
                for q in range(2):
                    for c in range(4):
                        u[q][4 + c] = f32(part[q][c] * part[q][c])
                for c in range(2):
                    u[3][b % 7 + c] = 1.0
                for q in range(4):
                    for c in range(8):
                        if 4 * b + q < len(y) and c < len(y[0]):
                            y[4 * b + q][c] = u[q][c]
            first_diff("views: y", o["y"], y)
            first_diff("views: z", o["z"], z)
            first_diff("views: w", o["w"], w)
        elif k in ("short_rows", "five_points", "inverse16"):
            # t/tile/fft.py: rows transformed in place and stored where
            # they were loaded
            x = i_["x"]
            tiles = {"short_rows": [("y", 4, 1, -1), ("z", 4, 2, 1)], "five_points": [("y", 3, 5, -1)],
                     "inverse16": [("y", 2, 16, 1)]}[k]
            for out, rows, n, sign in tiles:
                want = [[list(e) for e in row] for row in i_[out]]
                for b in range(grid[0]):
                    for (r, c), z in dft_rows(x, rows, n, rows * b, sign).items():
                        if r < len(want) and c < len(want[0]):
                            want[r][c] = list(z)
                close_diff(f"{k}: {out}", o[out], want, 1e-5)
        elif not check_map_func(r, grid):
            fail(f"{k}: not a kernel of t/tile")


def shortest_half(x):
    """Is x (a Num) printed in the fewest significant digits that read
    back to its float16?"""
    digits = len(x.text.lstrip("-").split("e")[0].replace(".", "").lstrip("0"))
    v = f16(x.d)
    if v == int(v):
        return True
    return all(f16(float(f"{x.d:.{p}g}")) != v for p in range(1, digits))


HALVES = {"h", "oh", "vh", "ovh", "mh", "omh", "ah", "bh"}  # scalars.py's float16 values


def check_types(path):
    for r in load(path):
        i_, o, k = r["inputs"], r["outputs"], r["kernel"]
        for name, v in list(i_.items()) + list(o.items()):
            for x in flat(v):
                if name in HALVES and not shortest_half(x):
                    fail(f"{k}.{name}: {x.text} is not the shortest float16 text")
        if k == "scalars":
            for name in [n for n in i_ if not n.startswith("o")]:
                want = i_[name]
                got = o["o" + name]
                if any(type(x) is not type(want) or getattr(x, "text", x) != getattr(want, "text", want)
                       for x in got):
                    fail(f"scalars: o{name} = {got}, want every element {want}")
        elif k == "arrays":
            for name in [n for n in i_ if not n.startswith("o")]:
                if o["o" + name] != i_[name] or [getattr(x, "text", x) for x in o["o" + name]] != \
                        [getattr(x, "text", x) for x in i_[name]]:
                    fail(f"arrays: o{name} = {o['o' + name]}, want {i_[name]}")
        elif k == "composites":
            for name in ("vh", "vd", "vi", "vub", "vul", "mh", "md", "q", "x"):
                if any(e != i_[name] for e in o["o" + name]):
                    fail(f"composites: o{name} = {o['o' + name]}, want every element {i_[name]}")
            want = [list(row) for row in i_["bh"]]
            for i in range(len(want)):
                want[i][0] = i_["ah"][i][1]
            if o["bh"] != want or o["ah"] != i_["ah"]:
                fail(f"composites: bh {o['bh']} != {want}")
        for name, v in i_.items():
            if any(isinstance(x, bool) for x in flat(v)) and not all(isinstance(x, bool) for x in flat(v)):
                fail(f"{k}.{name}: a bool array with other values")


def main(argv):
    cmd = argv[1]
    if cmd == "agree":
        opt = {"--rel": 0.0, "--abs": 0.0, "--grad-rel": None, "--grad-abs": None}
        args = argv[2:]
        for j, a in enumerate(args):
            if a in opt:
                opt[a] = float(args[j + 1])
        files = [a for j, a in enumerate(args)
                 if not a.startswith("--") and (j == 0 or args[j - 1] not in opt)]
        agree(files[0], files[1], opt["--rel"], opt["--abs"], "--scale" in args,
              opt["--grad-rel"], opt["--grad-abs"])
    elif cmd == "law":
        args, sets, ir, shapes, spds = argv[3:], set(), None, {}, set()
        while args:
            a = args.pop(0)
            if a == "--ir":
                ir = args.pop(0)
            elif a == "--shape":
                name, ext = args.pop(0).split("=")
                shapes[name] = [int(x) for x in ext.split("x")]
            elif a == "--law":
                spds.add(args.pop(0).split("=")[0])
            else:
                sets.add(a)
        law(argv[2], sets, ir, shapes, spds)
    elif cmd == "grads":
        grads(argv[2])
    elif cmd == "saxpy-grad":
        saxpy_grad(argv[2])
    elif cmd == "abi":
        check_abi(argv[2], argv[3:] or ["abi", "scale"])
    elif cmd == "int-edges":
        int_edges(argv[2])
    elif cmd == "grid":
        check_grid(argv[2])
    elif cmd == "nd-grad":
        check_nd_grad(argv[2])
    elif cmd == "types":
        check_types(argv[2])
    elif cmd == "tiles":
        check_tiles(argv[2])
    else:
        check_sample(cmd, argv[2])
    if bad > 20:
        print(f"# ... {bad - 20} more")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
