# Dynamic for loop with loop-carried state: p = p * x + sin(p) over a runtime count.
import warp as wp


@wp.kernel
def loop_carried(n: int, xs: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    x = xs[i]
    p = float(0.3)
    for k in range(n % 7 + i % 3):
        p = p * x + wp.sin(p)
    out[i] = p
