# An array stored inside a loop and also loaded, at indices other than the
# thread's own: its per-iteration values cannot be kept within kdiff's bound.
import warp as wp


@wp.kernel
def relax(n: int, a: wp.array(dtype=float)):
    i = wp.tid()
    for k in range(n):
        a[(i + k) % n] = a[i] * 0.5 + 1.0
