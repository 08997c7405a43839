import warp as wp


@wp.func
def nearest(x: wp.array(dtype=float), n: int):
    t = wp.inf
    for j in range(n):
        t = wp.min(t, wp.abs(x[j]))
    return t


@wp.kernel
def k(x: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = nearest(x, 4)
