# range with negative and data-dependent steps (0 included), bound variable
# reassigned inside the loop, empty range.
import warp as wp


@wp.kernel
def review_loop_steps(xs: wp.array(dtype=float), ns: wp.array(dtype=int), out: wp.array(dtype=float), n: int):
    i = wp.tid()
    x = xs[i]
    m = ns[i] % 5
    s = x
    for k in range(m, 0, -1):
        s = s * x + float(k) * 0.1
        m = m + 1
    st = ns[(i + 1) % n] % 3 - 1
    for k in range(m, m - 6 * st, st):
        s = wp.sin(s) + x * float(k) * 0.05
    for k in range(2, 2):
        s = s * 100.0
    out[i] = s + float(m) * x
