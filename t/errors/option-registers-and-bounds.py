import warp as wp

@wp.kernel(launch_bounds=128, cuda_max_registers=32)
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = 1.0
