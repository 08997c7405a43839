import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    a[0] = wp.clamp(x=a[0], lo=0.0, hi=1.0)
