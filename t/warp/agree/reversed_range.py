# for ... in reversed(range(...)): the range's values, last first, for
# every sign of the step, constant or not, empty ranges included.
import warp as wp


@wp.kernel
def backwards(a: wp.array(dtype=float), n: int, s: int, out: wp.array(dtype=float)):
    i = wp.tid()
    acc = float(0.0)
    for j in reversed(range(n)):
        acc = acc * 0.5 + a[j]
    for j in reversed(range(2, n, 3)):
        acc = acc * 0.25 + a[j] * float(j)
    for j in reversed(range(n, 0, -2)):
        acc = acc - a[j - 1] * 0.125
    for j in reversed(range(i, n, s)):
        acc = acc * 0.75 + float(j)
    for j in reversed(range(n, i, -s)):
        acc = acc + float(j) * 0.01
    for j in reversed(range(5, 5)):
        acc = acc + 100.0
    out[i] = acc
