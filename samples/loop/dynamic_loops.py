# Runtime-bounded loops: trip counts from parameters and thread ids, loop-carried state, break and continue.
import warp as wp


@wp.kernel
def iterate_map(n: int, x: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    p = x[i]
    steps = n // 4 + i % 3
    for k in range(steps):
        p = 0.5 * p * x[i] + wp.sin(p)
    out[i] = p


@wp.kernel
def sum_until_negative(n: int, x: wp.array(dtype=float), count: wp.array(dtype=int), out: wp.array(dtype=float)):
    i = wp.tid()
    total = float(0.0)
    used = int(0)
    for k in range(i, n):
        v = x[k]
        if v < -0.8:
            break
        if v < 0.0:
            continue
        total += v
        used += 1
    count[i] = used
    out[i] = total


@wp.kernel
def strided_backward(n: int, x: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    acc = float(0.0)
    for k in range(n - 1, i, -2):
        acc = 0.5 * acc + x[k]
    out[i] = acc
