import warp as wp

@wp.func
def f(x: float):
    yield x
