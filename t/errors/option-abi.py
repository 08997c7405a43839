import warp as wp

@wp.kernel(entry_point_abi="external_constant_params")
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = 1.0
