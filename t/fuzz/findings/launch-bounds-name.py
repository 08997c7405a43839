import warp as wp

@wp.kernel(launch_bounds=1024)
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = 1.0
