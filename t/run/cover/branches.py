import warp as wp


@wp.func
def limit(x: float):
    if x > 0.5:
        return 0.5
    elif x < -0.5:
        return -0.5
    return x


@wp.kernel
def sweep(a: wp.array(dtype=float), b: wp.array(dtype=float), n: int):
    i = wp.tid()
    s = float(0.0)
    for j in range(n % 3):
        s += a[j]
    c = int(0)
    while c < 3 and a[i] > 2.0:
        c += 1
    b[i] = limit(a[i]) + s


@wp.kernel
def grid(a: wp.array2d(dtype=float), b: wp.array2d(dtype=float)):
    i, j = wp.tid()
    if i == j:
        b[i, j] = a[i, j]
    else:
        b[i, j] = limit(a[j, i])


@wp.kernel
def constant(a: wp.array(dtype=float), b: wp.array(dtype=float)):
    i = wp.tid()
    b[i] = 2.0


@wp.kernel
def untouched(a: wp.array(dtype=float), b: wp.array(dtype=float)):
    i = wp.tid()
    x = a[i]
