import warp as wp

@wp.func
def f(x: float) -> float:
    if x > 0.0:
        return x
