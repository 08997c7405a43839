import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    if bool(a[i]):
        a[i] = 0.0
