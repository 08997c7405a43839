#!/bin/bash
# Natural code: KGEN_NAT_N kernels (2000 here) across categories contain no
# trivial self-operation (x - x, x == x, wp.max(x, x), a and a, identical
# if-expression branches, i % (i + 1), wp.abs(i - i), wp.clamp(i, -c, c)),
# no float //, and no dead local: every local a kernel assigns (x = e,
# x: T = e, x op= e, x.y = e, x[k] = e) is read after the assignment, or
# inside a loop that encloses it (the next iteration reads it).
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
	'    i = wp.tid()' '    col = wp.abs(i)' '    val = xs[i] - xs[i]' '    out[i] = wp.max(val, val)' >"$TMP/neg.py"
python3 "$TMP/check.py" "$TMP/neg.py" >"$TMP/negout"
is "the check rejects a bad kernel" "$?" 1
ok "... naming the dead local" grep -q '^dead col' "$TMP/negout"
ok "... the x - x" grep -q '^self-op' "$TMP/negout"
ok "... and the wp.max(x, x)" grep -q '^minmax self' "$TMP/negout"
done_testing
