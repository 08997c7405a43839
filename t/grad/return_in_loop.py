# return inside loops: a wp.func that returns from inside a nested loop,
# and a kernel thread that returns from inside a loop (so later stores
# never happen for it).
import warp as wp


@wp.func
def first_above(xs: wp.array(dtype=float), n: int, t: float) -> float:
    acc = float(0.0)
    for j in range(n):
        for k in range(2):
            acc = acc + xs[(j + k) % n] * t
            if acc > 1.0:
                return acc * acc
    if acc < -1.0:
        return -acc
    return wp.sin(acc)


@wp.kernel
def return_in_loop(n: int, xs: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    s = first_above(xs, n % 5 + 1, xs[i] + 0.5)
    for k in range(n % 3 + 1):
        s = s * 0.8 + xs[(i + k) % n]
        if s > 1.5:
            out[i] = s
            return
    out[i] = s * s
