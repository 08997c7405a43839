import warp as wp


@wp.kernel
def search(x: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    flag = False
    k = int(0)
    while k < 4 and not flag:
        k += 1
        if x[(i + k) % 16] < 0.0:
            flag = True
    out[i] = float(k)
