import warp as wp

v5 = wp.types.vector(0, float)

@wp.kernel
def k(a: wp.array(dtype=v5)):
    i = wp.tid()
