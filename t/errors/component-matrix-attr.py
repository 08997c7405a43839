import warp as wp

@wp.kernel
def k(m: wp.array(dtype=wp.mat33)):
    i = wp.tid()
    m[i].x = 1.0
