import warp as wp

@wp.func
def f(x: float):
    return x

@wp.kernel
def f(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = 1.0
