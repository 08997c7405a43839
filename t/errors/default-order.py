import warp as wp


@wp.func
def f(x: float = 1.0, y: float):
    return x + y
