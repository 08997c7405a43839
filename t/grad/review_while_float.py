# while loops whose condition depends on float state, nested, with break and
# continue.
import warp as wp


@wp.kernel
def review_while_float(xs: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    x = xs[i]
    s = x * x + 0.1
    t = float(0.0)
    while s < 4.0:
        s = s * 1.7 + 0.05 * wp.cos(x)
        t += s * x
        if t > 3.0:
            break
        w = t
        while w > 0.5:
            w = w * 0.6 - 0.01 * x
            if w < 0.8:
                continue
            s += 0.01 * w
    out[i] = s + t * x
