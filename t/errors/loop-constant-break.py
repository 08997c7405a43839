import warp as wp


@wp.kernel
def k(x: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    n = -1
    for j in range(4):
        if x[j] > 0.5:
            n = j
            break
    out[i] = float(n)
