# While loops: Newton iteration with a convergence test, a bounded pointer-chasing walk and a search that stops at a flag.
import warp as wp


@wp.kernel
def newton_sqrt(x: wp.array(dtype=float), root: wp.array(dtype=float), iters: wp.array(dtype=int)):
    i = wp.tid()
    a = x[i] * x[i] + 0.5
    g = float(1.0)
    k = int(0)
    err = wp.abs(g * g - a)
    while err > 1.0e-5 and k < 20:
        g = 0.5 * (g + a / g)
        err = wp.abs(g * g - a)
        k += 1
    root[i] = g
    iters[i] = k


@wp.kernel
def follow_links(link: wp.array(dtype=int), w: wp.array(dtype=float), out: wp.array(dtype=float), last: wp.array(dtype=int)):
    i = wp.tid()
    j = i
    steps = int(0)
    acc = float(0.0)
    while steps < 6:
        acc = 0.9 * acc + w[j]
        j = link[j]
        steps += 1
    out[i] = acc
    last[i] = j


@wp.kernel
def first_above(n: int, x: wp.array(dtype=float), limit: float, hit: wp.array(dtype=int), val: wp.array(dtype=float)):
    i = wp.tid()
    k = int(0)
    found = bool(False)
    best = float(0.0)
    while k < 8 and not found:
        v = x[(i + k) % n]
        if v > limit:
            found = True
            best = v * v
        k += 1
    hit[i] = k
    val[i] = best
