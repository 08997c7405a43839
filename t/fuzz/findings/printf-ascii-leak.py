import warp as wp


@wp.kernel
def k(a: wp.array[float]):
    i = wp.tid()
    wp.printf("abés\n", i)
