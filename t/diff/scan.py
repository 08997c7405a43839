#!/usr/bin/env python3
"""scan.py: looks in emitted C or CUDA for what a hand-written adjoint
would not hold, in every backward function (NAME_backward_thread and the
funcs NAME_adj): an empty block, a store to a local variable that nothing
reads (an adjoint zeroed after its last use is one), a variable stored to
and then assigned again before anything reads it.

    python3 t/diff/scan.py FILE.c|FILE.cu ...

prints FILE:LINE: WHAT for each finding and exits 1 if there is one.

    python3 t/diff/scan.py --lines FILE.c|FILE.cu ...

prints, per kernel, the code lines (not blank, not only a comment or a
brace) of its thread function and of its backward thread function and
their ratio, then `median RATIO max RATIO KERNEL`.

The emitters print one statement per line and one block per brace pair,
so lines are statements.  A store at line i to variable v is read when v
appears, as other than the target of an assignment, on a line after i in
its function, or anywhere in a loop that holds line i (the next trip
reads it): no path-sensitivity, so what it reports is dead whatever the
branches do.
"""
import re
import sys

HEAD = re.compile(r'^(?:\[\[maybe_unused\]\] )?static .*\b(\w+_backward_thread|\w+_adj\d*)\(')
ASSIGN = re.compile(r'^(?:(?:const )?[A-Za-z_]\w* )?([A-Za-z_]\w*)((?:\.c\[\d+\])(?:\[\d+\])?)? = (.*);$')
IDENT = re.compile(r'[A-Za-z_]\w*')
ZERO = re.compile(r'^(0\.0f|0|false|-0\.0f|ks_zero_\w+\(\))$')


def idents(s):
    return set(IDENT.findall(s))


def scan_func(path, lines, start, out):
    """lines[start] is '{'; scan up to the matching '}'."""
    body = []  # (lineno, text, depth, loops): loops = start indices of enclosing loops
    depth, loops, i = 1, [], start + 1
    stack = []  # per open block: is it a loop?
    while i < len(lines) and depth > 0:
        raw = lines[i]
        code = raw.split('  //')[0].strip()
        if code.startswith('}'):
            depth -= 1
            if stack and stack.pop():
                loops.pop()
            if depth == 0:
                break
        body.append((i + 1, code, list(loops)))
        if code.endswith('{'):
            isloop = code.startswith('for ') or code.startswith('while ')
            stack.append(isloop)
            if isloop:
                loops.append(len(body) - 1)
            depth += 1
        i += 1
    # each line's reads and (plain) write
    info = []
    for ln, code, lp in body:
        m = ASSIGN.match(code)
        target, comp, reads = None, None, idents(code)
        if m and not code.startswith('for '):
            target, comp, rhs = m.group(1), m.group(2), m.group(3)
            reads = idents(rhs)
            if comp:
                reads.add(target)  # the other components stay
            if code.split(' = ')[0].count(' ') and not comp:
                reads.discard(code.split(' = ')[0].split()[0])  # the type
        info.append((ln, code, lp, target, comp, reads, m.group(3) if m else None))
    # loop extents: from the loop's line to the line before its closing
    extent = {}
    for k, (ln, code, lp, *_rest) in enumerate(info):
        for s in lp:
            extent[s] = k
    for k, (ln, code, lp, target, comp, reads, rhs) in enumerate(info):
        if code.endswith('{') and k + 1 < len(info) and info[k + 1][1] == '' and False:
            pass
        if target is None or '[' in code.split(' = ')[0].replace('.c[', ''):
            continue
        live = any(target in info[j][5] for j in range(k + 1, len(info)))
        for s in lp:
            if any(target in info[j][5] for j in range(s, extent[s] + 1)):
                live = True
        what = None
        if not live:
            what = 'zeroing after last use' if rhs and ZERO.match(rhs) else 'store that nothing reads'
        elif not lp and not comp:
            # assigned again before anything reads it, in the same block
            for j in range(k + 1, len(info)):
                ln2, code2, lp2, t2, c2, r2, _ = info[j]
                if target in r2 or code2.endswith('{') or code2.startswith('}'):
                    break
                if t2 == target and not c2:
                    what = 'store overwritten before it is read (line %d)' % ln2
                    break
        if what:
            out.append('%s:%d: %s: %s' % (path, ln, what, code))
    # empty blocks: a line opening a block, then one closing it
    for k in range(len(body) - 1):
        if body[k][1].endswith('{') and body[k + 1][1].startswith('}'):
            out.append('%s:%d: empty block: %s' % (path, body[k][0], body[k][1]))
    if body and body[-1][1].endswith('{'):
        out.append('%s:%d: empty block: %s' % (path, body[-1][0], body[-1][1]))
    return i


def scan(path):
    lines = open(path, encoding='utf-8').read().split('\n')
    out = []
    i = 0
    while i < len(lines):
        if HEAD.match(lines[i]) and i + 1 < len(lines) and lines[i + 1] == '{':
            i = scan_func(path, lines, i + 1, out)
        i += 1
    return out


FUNC = re.compile(r'^(?:static )?(?:__device__ )?void (\w+?)(_backward)?_thread\(')


def code_lines(paths):
    """(kernel, forward lines, backward lines) for each kernel"""
    n = {}
    for p in paths:
        cur = None
        for line in open(p, encoding='utf-8').read().split('\n'):
            m = FUNC.match(line)
            if m:
                cur = (m.group(1), bool(m.group(2)))
                n[cur] = 0
                continue
            if cur is None:
                continue
            if line == '}':
                cur = None
                continue
            s = line.split('  //')[0].strip()
            if s and not s.startswith('//') and s not in ('{', '}', '} else {'):
                n[cur] += 1
    return [(k, n[(k, False)], n[(k, True)]) for (k, b) in n if not b and (k, True) in n]


def lines_main(paths):
    rows = code_lines(paths)
    if not rows:
        return 1
    ratios = []
    for k, f, b in rows:
        r = b / f if f else float(b)
        ratios.append((r, k))
        print('%s %d %d %.3f' % (k, f, b, r))
    ratios.sort()
    m = len(ratios) // 2
    med = ratios[m][0] if len(ratios) % 2 else (ratios[m - 1][0] + ratios[m][0]) / 2
    print('median %.3f max %.3f %s' % (med, ratios[-1][0], ratios[-1][1]))
    return 0


def main():
    if sys.argv[1:2] == ['--lines']:
        return lines_main(sys.argv[2:])
    found = []
    for p in sys.argv[1:]:
        found += scan(p)
    for f in found:
        print(f)
    return 1 if found else 0


if __name__ == '__main__':
    sys.exit(main())
