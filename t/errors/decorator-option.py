import warp as wp


@wp.kernel(enable_backward=False, launch_bounds=256)
def k(a: wp.array(dtype=float)):
    a[0] = 1.0
