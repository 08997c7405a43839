import warp as wp

@wp.func
def f(x: float):
    return x

@wp.func
def f(x: int):
    return x

@wp.kernel
def k(a: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    a[i] = f(a[i])
