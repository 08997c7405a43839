import warp as wp


@wp.kernel
def k(x: float, out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = x.dt
