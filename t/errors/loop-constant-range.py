import warp as wp


@wp.kernel
def k(x: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    acc = 0.0
    for j in range(20):
        acc += x[j]
    out[i] = acc
