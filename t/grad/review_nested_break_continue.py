# Nested dynamic loops (bounds from loaded ints), break and continue at both
# levels, vec3 component inserts inside the inner loop.
import warp as wp


@wp.kernel
def review_nested_break_continue(xs: wp.array(dtype=float), ns: wp.array(dtype=int), out: wp.array(dtype=float), n: int):
    i = wp.tid()
    x = xs[i]
    acc = float(0.0)
    p = x
    v = wp.vec3(x, 0.5, -x)
    for j in range(ns[i] % 5 + 1):
        if p > 1.5:
            break
        q = p * 0.5
        for k in range(j, ns[(i + j) % n] % 4 + 2):
            if q * x > 0.3:
                q = q - x * 0.1
                continue
            q = q * x + wp.sin(q)
            v[k % 3] = v[k % 3] * q + x
            if q < -0.7:
                break
            acc += q * q
        if acc > 2.0:
            p = p - acc * 0.1
            continue
        p = p * 1.1 + q * 0.3
    out[i] = acc + p * v[0] + v[1] * v[2]
