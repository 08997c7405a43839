# The load may happen in a wp.func: the array is still loaded.
import warp as wp


@wp.func
def get(a: wp.array(dtype=float), i: int) -> float:
    return a[i]


@wp.kernel
def smooth(n: int, a: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    s = get(a, i)
    for k in range(n):
        a[i] = s * float(k)
    out[i] = s
