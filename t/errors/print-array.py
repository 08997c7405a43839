import warp as wp


@wp.kernel
def k(a: wp.array[float]):
    print(a)
