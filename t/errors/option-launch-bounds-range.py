import warp as wp

@wp.kernel(launch_bounds=2048)
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = 1.0
