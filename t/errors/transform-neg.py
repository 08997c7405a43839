import warp as wp


@wp.kernel
def k(t: wp.array[wp.transform]):
    i = wp.tid()
    t[i] = -t[i]
