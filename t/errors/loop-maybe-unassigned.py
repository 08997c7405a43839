import warp as wp


@wp.kernel
def k(a: wp.array[float]):
    i = wp.tid()
    for j in range(4):
        if a[i] > 0.0:
            break
        d = a[i]
    a[i] = d
