import warp as wp

@wp.kernel
def k(a: wp.array(dtype=float), n: int):
    for j in range(n):
        j = 2
