import warp as wp

@wp.func
def f(x: float) -> float:
    return float(wp.tid())
