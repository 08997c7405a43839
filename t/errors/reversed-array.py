import warp as wp

@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    for j in reversed(a):
        a[i] = 1.0
