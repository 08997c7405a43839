import warp as wp

@wp.kernel(grid_stride=0)
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = 1.0
