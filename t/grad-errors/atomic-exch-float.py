import warp as wp


@wp.kernel
def swap_in(x: wp.array[float], y: wp.array[float]):
    i = wp.tid()
    y[i] = wp.atomic_exch(x, i, 2.0 * y[i])
