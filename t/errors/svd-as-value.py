import warp as wp

@wp.kernel
def k(a: wp.array(dtype=wp.mat33)):
    i = wp.tid()
    x = wp.qr3(a[i])
