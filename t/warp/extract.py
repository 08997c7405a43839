#!/usr/bin/env python3
"""extract.py: the kernels of NVIDIA Warp's own example programs, each in a
module of its own.

    extract.py OUTDIR [EXAMPLES_DIR]

EXAMPLES_DIR defaults to the installed warp package's examples/ folder.
For every @wp.kernel defined at the top level of an example, OUTDIR gets a
file KEY.py (KEY: the example's path, '/' as '__', then '__' and the
kernel's name) holding `import warp as wp`, the imports of math and numpy
when something kept uses them, and, in the example's order, the module
constants, type aliases, @wp.struct classes and @wp.func definitions the
kernel uses (directly or through one another), then the kernel itself:
each copied from the example's text unchanged.

Each kernel is sorted into one group, written to OUTDIR/index.tsv as
`KEY<TAB>GROUP<TAB>WHY`:

  runtime   uses one of Warp's runtime objects (meshes, BVHs, hash grids,
            volumes, textures, marching cubes, sparse matrices, warp.fem),
            with or without tiles -- counted apart, as the language leaves
            them out;
  tiles     uses tiles (tile_*, wp.tile) and none of those objects: a
            kernel on tiles (doc/language.md, "Tiles");
  language  every other kernel: the Warp language itself.

WHY is the first name that decided the group (empty for language).

Kernels defined inside a function or class (made at run time, often
generic over a dtype) are listed with group `nested` and not extracted.
"""

import ast
import os
import re
import sys

# Names that mark a kernel as using a runtime object (the language leaves
# them out, doc/language.md): mesh_*, bvh_*, hash_grid_*, volume_*,
# texture*, and the classes behind them.
OBJECTS = re.compile(
    r"\b(?:wp\.)?(?:mesh_\w+|bvh_\w+|hash_grid_\w+|volume_\w+|texture\w*|"
    r"Mesh|MeshQuery\w*|Bvh|BvhQuery\w*|HashGrid|HashGridQuery|Volume|Texture\w*|"
    r"MarchingCubes|lower_bound|sparse|fem)\b"
)
# Names that mark a kernel as one on tiles: tile_* and wp.tile.  The first
# call of Warp's (wp.tile*) names the group rather than a kernel or a
# variable called tile_something.
TILES = re.compile(r"\b(?:wp\.)?tile\w*\b")
TILE_CALL = re.compile(r"\bwp\.tile\w*\b")


def decorator_names(node):
    return [ast.unparse(d) for d in node.decorator_list]


def is_wp(node, names):
    return any(d.split("(")[0] in names for d in decorator_names(node))


def source_of(text, node):
    """The node's text, decorators included."""
    lines = text.splitlines(keepends=True)
    first = min([d.lineno for d in getattr(node, "decorator_list", [])] + [node.lineno])
    return "".join(lines[first - 1:node.end_lineno]).rstrip() + "\n"


def names_in(node):
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def extract(path, key, outdir, index):
    text = open(path, encoding="utf-8").read()
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return
    defs = {}      # name -> [nodes]: consts, aliases, structs, funcs (overloads)
    kernels = []
    imports = {}   # alias -> "import math" / "import numpy as np"
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            target = node.targets[0] if isinstance(node, ast.Assign) else node.target
            if len(getattr(node, "targets", [target])) != 1:
                continue
            if isinstance(target, ast.Name):
                defs.setdefault(target.id, []).append(node)
            elif isinstance(target, ast.Tuple) and all(isinstance(e, ast.Name) for e in target.elts):
                # `np_type, wp_type = np.float64, wp.float64`: each name's
                for e in target.elts:
                    defs.setdefault(e.id, []).append(node)
        elif isinstance(node, ast.FunctionDef):
            if is_wp(node, ("wp.kernel",)):
                kernels.append(node)
            elif is_wp(node, ("wp.func",)):
                defs.setdefault(node.name, []).append(node)
        elif isinstance(node, ast.ClassDef) and is_wp(node, ("wp.struct",)):
            defs.setdefault(node.name, []).append(node)
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name in ("math", "numpy"):
                    imports[a.asname or a.name] = "import %s%s\n" % (
                        a.name, " as " + a.asname if a.asname else "")
    for outer in tree.body:
        if isinstance(outer, (ast.FunctionDef, ast.ClassDef)):
            for inner in ast.walk(outer):
                if isinstance(inner, ast.FunctionDef) and inner is not outer and \
                        is_wp(inner, ("wp.kernel",)):
                    index.append((key + "__" + inner.name, "nested", "defined in %s" % outer.name))
    for k in kernels:
        need, todo = set(), [k]
        while todo:
            for name in names_in(todo.pop()):
                if name in defs and name not in need and name != k.name:
                    need.add(name)
                    todo.extend(defs[name])
        kept = [n for n in tree.body if n is not k and any(
            n in defs.get(name, []) for name in need)]
        used = set()
        for n in kept + [k]:
            used |= names_in(n)
        body = "import warp as wp\n"
        body += "".join(imports[a] for a in sorted(imports) if a in used)
        for n in kept + [k]:
            body += "\n\n" + source_of(text, n)
        name = key + "__" + k.name
        src = "".join(source_of(text, n) for n in kept + [k])
        obj, tile = OBJECTS.search(src), TILES.search(src)
        if obj:
            group, why = "runtime", obj.group(0)
        elif tile:
            group, why = "tiles", (TILE_CALL.search(src) or tile).group(0)
        else:
            group, why = "language", ""
        with open(os.path.join(outdir, name + ".py"), "w", encoding="utf-8") as f:
            f.write(body)
        index.append((name, group, why))


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: extract.py OUTDIR [EXAMPLES_DIR]")
    outdir = sys.argv[1]
    if len(sys.argv) == 3:
        root = sys.argv[2]
    else:
        import warp
        root = os.path.join(os.path.dirname(warp.__file__), "examples")
    os.makedirs(outdir, exist_ok=True)
    index = []
    for dirpath, dirnames, files in os.walk(root):
        dirnames.sort()
        for f in sorted(files):
            if f.endswith(".py"):
                rel = os.path.relpath(os.path.join(dirpath, f), root)[:-3]
                extract(os.path.join(dirpath, f), rel.replace(os.sep, "__"), outdir, index)
    with open(os.path.join(outdir, "index.tsv"), "w", encoding="utf-8") as f:
        for row in sorted(index):
            f.write("\t".join(row) + "\n")


if __name__ == "__main__":
    main()
