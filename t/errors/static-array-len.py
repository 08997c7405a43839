import warp as wp


@wp.kernel
def k(x: wp.array(dtype=float)):
    n = wp.static(len(x))
    x[0] = float(n)
