import warp as wp

vec5 = wp.types.vector(length=5, dtype=float)


@wp.kernel
def k(a: wp.array[vec5]):
    i = wp.tid()
