import warp as wp

@wp.func
def f(x: float) -> float:
    return f(x)

@wp.kernel
def k(a: wp.array(dtype=float)):
    a[0] = f(1.0)
