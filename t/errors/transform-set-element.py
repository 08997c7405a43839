import warp as wp

@wp.kernel
def k(y: wp.array(dtype=wp.transform), r: wp.array(dtype=wp.quat)):
    i = wp.tid()
    wp.transform_set_rotation(y[i], r[i])
