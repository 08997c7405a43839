# Names bound to a literal that Warp lets a loop change: the loops it
# unrolls (at most 16 constant steps, no break; a continue is fine), an
# empty range, a copy (y = x), a name changed before the loop or bound
# differently by an if's branches, a dynamic loop's own variable, the
# variable of an unrolled loop changed later, and float(0.0).  kparse
# accepts each, as Warp does (doc/language.md, "Constants in loops").
import warp as wp

STEPS = 4


@wp.kernel
def unrolled(x: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    n = x.shape[0]
    acc = 0.0
    for j in range(3):
        acc += x[(i + j) % n]
    for j in range(16):
        acc += 0.01 * x[(i + j) % n]
    for j in range(0, 40, 3):
        acc -= 0.01 * x[(i + j) % n]
    for j in range(STEPS):
        acc += 0.1 * x[(i + j) % n]
    m = -2
    for j in range(m, 2):
        if x[(i + j + 2) % n] > 0.5:
            continue
        acc += 0.1 * x[(i + j + 2) % n]
    for j in range(5, 0):
        acc = x[j]
    out[i] = acc


@wp.kernel
def dynamic(x: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    n = x.shape[0]
    total = float(0.0)
    start = 0.0
    y = start
    z = 1.0
    z = z * x[i]
    if x[i] > 0.0:
        w = 1.0
    else:
        w = 2.0
    k = 0
    for k in range(n):
        total += x[k]
        y += 0.5 * x[k]
        z += 0.25 * x[k]
        w += 0.125 * x[k]
    for j in range(2):
        total += x[j]
    for q in range(n):
        j = q
        total += 0.1 * float(j)
    out[i] = total + y + z + w
