#!/bin/bash
# Natural code: KGEN_NAT_N kernels (2000 here) across categories contain no
# trivial self-operation (x - x, x == x, wp.max(x, x), a and a, identical
# if-expression branches, i % (i + 1), wp.abs(i - i), wp.abs(i),
# wp.abs(wp.abs(x)), wp.clamp(i, -c, c)),
# no float //, and no dead local: every local a kernel assigns (x = e,
# x: T = e, x op= e, x.y = e, x[k] = e) is read after the assignment, or
# inside a loop that encloses it (the next iteration reads it).  A second
# check reads the kernels with Python's ast: no term built of literals alone
# (2.0 * wp.sin(0.5), int(0.25 * 8.0); in at most 0.5% of the functions, a
# helper with nothing to name), no constructor then index (wp.vec3(a, b,
# c)[1]), no operator or wp call on two constructors, no x = x (nor
# out[i] = out[i]), no x -= x or x /= x, no block whose body is only
# `pass`, no store overwritten before a read, no kernel parameter the body
# never names.
. "$(dirname "$0")/lib.sh"

N=${KGEN_NAT_N:-2000}
cat >"$TMP/check.py" <<'PY'
import re, sys
# Checks a kgen module for trivial self-operations, float //, and dead locals.
src = open(sys.argv[1]).read()
bad = []
ID = r'[A-Za-z_][A-Za-z0-9_.]*(?:\[[^\[\]]*\])?'
LB = r'(?:(?<=\()|(?<=\[)|(?<=, )|(?<=\w = )|(?<=\] = )|(?<=^)|(?<=return )|(?<=if )|(?<=while )|(?<=not )|(?<=and )|(?<=or )|(?<=else ))'
RB = r'(?=\)|\]|,|:|$| if | else | and | or | < | > | <= | >= | == | != | \+ | - )'
RB2 = r'(?=\)|:|$|,| if | else | and | or )'
pats = [
    (LB + r'(' + ID + r') (-|/|%|//) \1' + RB, 'self-op'),
    (LB + r'(' + ID + r') (!=|==|<|>|<=|>=) \1' + RB2, 'self-compare'),
    (LB + r'(' + ID + r') (and|or) \1' + RB2, 'bool self-op'),
    (r'wp\.(?:max|min)\(([^(),]+), \1\)', 'minmax self'),
    (r'\bwp\.clamp\(i, -\d+, \d+\)', 'clamp of i below 0'),
    (r'(?<![\w.])(\w+) % \(\1 \+ 1\)', 'i % (i + 1)'),
    (r'wp\.abs\((\w+) - \1\)', 'abs(i - i)'),
    (r'wp\.abs\(i\)', 'abs(i)'),
    (r'wp\.abs\(wp\.abs\((?:[^()]|\([^()]*\))*\)\)', 'abs(abs(x))'),
    (r'\(([\w.]+(?:\[\w+\])?) if (?:(?! else )[^()])+ else \1\)', 'same branches'),
]
funcs = re.split(r'\n(?=@wp\.)', src)
for f in funcs:
    lines = f.split('\n')
    for ln in lines:
        for p, what in pats:
            for m in re.finditer(p, ln):
                bad.append((what, ln.strip()))
    # float //: a // whose operands include a float literal or a float-typed name is hard to type
    # by regex; flag // next to a float literal, and //= with a float literal
    for ln in lines:
        if re.search(r'\d\.\d*\s*//|//=?\s*-?\d+\.\d', ln):
            bad.append(('float //', ln.strip()))
    # dead locals: an assignment NAME = / NAME op= / NAME.x = / NAME[..] = with no read later
    # (or, inside a loop, anywhere in the outermost enclosing loop)
    body = [l for l in lines if l.strip()]
    if not body or not body[0].startswith(('@wp.kernel', '@wp.func')):
        continue
    defline = body[1]
    params = set(re.findall(r'(\w+):', defline))
    stm = body[2:]
    ind = [len(l) - len(l.lstrip()) for l in stm]
    txt = [l.strip() for l in stm]
    def words(s):
        return set(re.findall(r'(?<![\w.])([A-Za-z_]\w*)', s))
    for j, t in enumerate(txt):
        m = re.match(r'^([A-Za-z_]\w*)((?:\.\w+|\[[^=]*\])?)(?:: [\w.]+)? (=|\+=|-=|\*=|/=|//=|%=) (.*)$', t)
        if not m or m.group(1) in params:
            continue
        x = m.group(1)
        start = j + 1
        for h in range(j):
            if re.match(r'(for|while) ', txt[h]) and all(ind[k] > ind[h] for k in range(h + 1, j + 1)):
                start = h
                break
        def reads(k):
            u = txt[k]
            mm = re.match(r'^([A-Za-z_]\w*)((?:\.\w+|\[[^=]*\])?)(?:: [\w.]+)? (=|\+=|-=|\*=|/=|//=|%=) (.*)$', u)
            if mm and mm.group(1) == x:
                return mm.group(3) != '=' or mm.group(2) != '' or x in words(mm.group(4))
            if mm:
                return x in words(mm.group(2) + ' ' + mm.group(4))
            return x in words(u)
        if not any(reads(k) for k in range(start, len(txt))):
            bad.append(('dead ' + x, t))
for what, ln in bad:
    print(f'{what}: {ln}')
sys.exit(1 if bad else 0)
PY
cat >"$TMP/check2.py" <<'PY'
import ast, re, sys
# Constant subtrees, constructor-then-index, constructor op constructor,
# self-assignments, stores overwritten before a read, unused kernel parameters.
src = open(sys.argv[1]).read()
tree = ast.parse(src)
bad = []
CTOR = re.compile(r'^(vec[234]|mat(22|33|44))$')
def is_wp(n, pat):
    return isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == 'wp' and re.match(pat, n.attr)
def is_ctor(n):
    return isinstance(n, ast.Call) and is_wp(n.func, CTOR.pattern)
def is_num(n):
    if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.USub):
        n = n.operand
    return isinstance(n, ast.Constant) and not isinstance(n.value, bool)
def const(n):
    for m in ast.walk(n):
        if isinstance(m, ast.Name) and m.id not in ('wp', 'float', 'int'):
            return False
    return True
def allowed(n, parent):
    if is_num(n) or isinstance(n, ast.Constant) or ast.unparse(n) == 'wp.tid()':
        return True
    if isinstance(n, ast.Call) and len(n.args) == 1 and is_num(n.args[0]) and (
            isinstance(n.func, ast.Name) or is_wp(n.func, r'^(float32|int32|uint32)$')):
        return True  # float(0.0), int(0), wp.uint32(8): a typed literal
    if isinstance(n, ast.Call) and len(n.args) == 1 and is_wp(n.args[0], r'^(inf|nan)$') and (
            isinstance(n.func, ast.Name) or is_wp(n.func, r'^(vec[234]|mat33)$')):
        return True  # float(wp.inf), wp.vec3(wp.nan), wp.mat33(wp.inf): a sentinel
    if isinstance(n, ast.Call) and not n.args and is_wp(n.func, r'^(quat|transform)_identity$'):
        return True  # wp.quat_identity(): a named constant
    if isinstance(n, ast.Call) and not n.args and is_wp(n.func, r'^identity$'):
        return True  # wp.identity(n=3, dtype=float): a named constant
    if is_ctor(n) and all(is_num(a) for a in n.args):
        if all(isinstance(a, ast.Constant) and a.value == 0 for a in n.args):
            return True  # wp.vec3(), wp.vec3(0.0): a zero
        if isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Add) and parent.right is n:
            return True  # v + wp.vec3(0.0, c, 0.0), M + c*I: the guards
    return False
def walk(n, parent, fn):
    if isinstance(n, ast.Attribute) and is_wp(n, '.*'):
        return  # a type: x: wp.vec3 = e
    if isinstance(n, ast.expr) and not isinstance(n, ast.Name) and const(n):
        if not allowed(n, parent):
            bad.append(('constant', fn, ast.unparse(n)))
        return
    if isinstance(n, (ast.Subscript, ast.Attribute)) and is_ctor(n.value):
        bad.append(('constructor then index', fn, ast.unparse(n)))
    if isinstance(n, ast.BinOp) and is_ctor(n.left) and is_ctor(n.right) and not (
            isinstance(n.op, ast.Add) and all(is_num(a) for a in n.right.args)):
        bad.append(('constructor op constructor', fn, ast.unparse(n)))
    if isinstance(n, ast.Call) and is_wp(n.func, '.*') and not is_ctor(n) and len([a for a in n.args if is_ctor(a)]) >= 2:
        bad.append(('call of constructors', fn, ast.unparse(n)))
    for c in ast.iter_child_nodes(n):
        if not (isinstance(n, ast.Call) and c is n.func) and not (isinstance(n, ast.Subscript) and c is n.slice and const(c)):
            walk(c, n, fn)
def assigned(st):
    # (target text, whole, rhs) of x = e, x: T = e, out[i] = e
    if isinstance(st, ast.Assign) and len(st.targets) == 1:
        t, v = st.targets[0], st.value
    elif isinstance(st, ast.AnnAssign) and st.value is not None:
        t, v = st.target, st.value
    else:
        return None
    if isinstance(t, ast.Name):
        return t.id, v
    if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and ast.unparse(t.slice) == 'i':
        return t.value.id + '[i]', v
    return None
def names_in(n):
    return {m.id for m in ast.walk(n) if isinstance(m, ast.Name)}
def jumps(n, arr):
    for m in ast.walk(n):
        if isinstance(m, (ast.Break, ast.Continue)) or (arr and isinstance(m, ast.Return)):
            return True
    return False
def block(body, fn):
    for j, st in enumerate(body):
        a = assigned(st)
        if a and ast.unparse(a[1]) == a[0]:
            bad.append(('self-assignment', fn, ast.unparse(st)))
        if isinstance(st, ast.AugAssign) and isinstance(st.op, (ast.Sub, ast.Div, ast.Mod, ast.FloorDiv)) and \
                ast.unparse(st.target) == ast.unparse(st.value):
            bad.append(('self-update', fn, ast.unparse(st)))
        for f in ('body', 'orelse'):
            b = getattr(st, f, None)
            if isinstance(st, (ast.If, ast.For, ast.While)) and b and all(isinstance(x, ast.Pass) for x in b):
                bad.append(('pass-only block', fn, ast.unparse(st).split('\n')[0]))
        if a and not (isinstance(a[1], ast.Call) and ast.unparse(a[1].func).startswith('wp.atomic_')):
            x, arr = a[0].split('[')[0], a[0].endswith('[i]')
            for st2 in body[j + 1:]:
                b2 = assigned(st2)
                if b2 and b2[0] == a[0]:
                    if x not in names_in(b2[1]):
                        bad.append(('overwritten', fn, ast.unparse(st)))
                    break
                if x in names_in(st2) or jumps(st2, arr):
                    break
        for f in ('body', 'orelse'):
            if isinstance(getattr(st, f, None), list) and not isinstance(st, ast.FunctionDef):
                block(getattr(st, f), fn)
for fd in tree.body:
    if not isinstance(fd, ast.FunctionDef):
        continue
    for st in fd.body:
        walk(st, None, fd.name)
    block(fd.body, fd.name)
    if any(ast.unparse(d) == 'wp.kernel' for d in fd.decorator_list):
        used = set()
        for st in fd.body:
            used |= names_in(st)
        for a in fd.args.args:
            if a.arg not in used:
                bad.append(('unused parameter', fd.name, a.arg))
kinds = {}
for what, fn, txt in bad:
    kinds.setdefault(what, set()).add(fn)
for what, fn, txt in bad:
    print(f'{what}: {fn}: {txt}')
n = sum(1 for fd in tree.body if isinstance(fd, ast.FunctionDef) and any(ast.unparse(d) == 'wp.kernel' for d in fd.decorator_list))
print('#', n, 'kernels;', ', '.join(f'{k} {len(v)}' for k, v in sorted(kinds.items())), file=sys.stderr)
sys.exit(1 if bad else 0)
PY
for s in 1 2; do
	kgen -c all -s $s -n "$N" -o "$TMP/k$s.py"
	python3 "$TMP/check.py" "$TMP/k$s.py" >"$TMP/bad$s" 2>&1
	is "-c all -s $s -n $N: no trivial operation, float // or dead local" "$?" 0
	[ -s "$TMP/bad$s" ] && diag "$(head -20 "$TMP/bad$s")"
done
for c in loop function control_flow; do
	kgen -c $c -s 3 -n 500 -o "$TMP/c.py"
	python3 "$TMP/check.py" "$TMP/c.py" >"$TMP/bad" 2>&1
	is "-c $c -s 3 -n 500: natural" "$?" 0
	[ -s "$TMP/bad" ] && diag "$(head -20 "$TMP/bad")"
done
# the ast check: constant terms rare, the rest never
for s in 1 2; do
	kgen -c all -s $s -n "$N" -o "$TMP/k$s.py"
	python3 "$TMP/check2.py" "$TMP/k$s.py" >"$TMP/bad$s" 2>"$TMP/sum$s"
	diag "$(cat "$TMP/sum$s")"
	is "-c all -s $s -n $N: no constructor tricks, x = x, x -= x, pass-only block, overwritten store or unused parameter" \
		"$(grep -v '^constant: ' "$TMP/bad$s" | head -5)" ""
	nc=$(grep '^constant: ' "$TMP/bad$s" | awk -F': ' '{ print $2 }' | sort -u | wc -l)
	ok "-c all -s $s -n $N: $nc functions with a literal-only term (<= 0.5%)" test $((nc * 200)) -le "$N"
done
# what the category promises survives the dead-store pass
for c in loop:'^ +(for|while) ' control_flow:'^ +if ' inplace:'^ +[][a-z_0-9]+ (\+|-|\*|/|//|%)= '; do
	kgen -c "${c%%:*}" -s 4 -n 500 -o "$TMP/p.py"
	miss=$(python3 -c '
import re, sys
ks = re.split(r"\n(?=@wp\.kernel)", open(sys.argv[1]).read())[1:]
print(sum(1 for k in ks if not re.search(sys.argv[2], k.split("\n", 2)[2], re.M)))' "$TMP/p.py" "${c#*:}")
	is "-c ${c%%:*}: every kernel keeps what its category promises" "$miss" 0
done
# the check itself catches what it is meant to catch
printf '%s\n' '@wp.kernel' 'def k_0(xs: wp.array(dtype=float), out: wp.array(dtype=float)):' \
	'    i = wp.tid()' '    col = wp.abs(i)' '    val = xs[i] - xs[i]' '    out[i] = wp.max(val, val)' \
	'    out[i] = wp.abs(wp.abs(wp.sin(xs[i])))' >"$TMP/neg.py"
python3 "$TMP/check.py" "$TMP/neg.py" >"$TMP/negout"
is "the check rejects a bad kernel" "$?" 1
ok "... naming the dead local" grep -q '^dead col' "$TMP/negout"
ok "... the x - x" grep -q '^self-op' "$TMP/negout"
ok "... the wp.max(x, x)" grep -q '^minmax self' "$TMP/negout"
ok "... the wp.abs(i)" grep -q '^abs(i): ' "$TMP/negout"
ok "... and the wp.abs(wp.abs(x))" grep -q '^abs(abs(x)): ' "$TMP/negout"
printf '%s\n' '@wp.kernel' 'def k_0(xs: wp.array(dtype=float), s: float, out: wp.array(dtype=float)):' \
	'    i = wp.tid()' '    a = xs[i]' '    a = a' '    out[i] = 2.0 * wp.sin(0.5) + wp.vec3(a, 0.5, a)[1]' \
	'    out[i] = wp.dot(wp.vec2(a, 1.0), wp.vec2(0.5, a)) + xs[i]' '    xs[i] = xs[i]' '    a -= a' \
	'    if a > 0.5:' '        pass' '    else:' '        out[i] = a' >"$TMP/neg2.py"
python3 "$TMP/check2.py" "$TMP/neg2.py" >"$TMP/negout" 2>/dev/null
is "the ast check rejects a bad kernel" "$?" 1
for w in 'constant: k_0: 2.0 \* wp.sin(0.5)' 'constructor then index' 'call of constructors' 'self-assignment' \
	'self-assignment: k_0: xs\[i\] = xs\[i\]' 'self-update: k_0: a -= a' 'pass-only block: k_0: if a > 0.5:' \
	'overwritten: k_0: out\[i\] = 2.0' 'unused parameter: k_0: s'; do
	ok "... naming the ${w%%:*}" grep -q "^$w" "$TMP/negout"
done
done_testing
