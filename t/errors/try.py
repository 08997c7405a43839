import warp as wp

@wp.kernel
def k(a: wp.array(dtype=float)):
    try:
        a[0] = 1.0
    except:
        pass
