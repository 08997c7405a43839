import warp as wp


@wp.kernel(enable_backward=False, name="scaled")
def k(a: wp.array(dtype=float)):
    a[0] = 1.0
