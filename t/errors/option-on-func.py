import warp as wp

@wp.func(launch_bounds=64)
def f(x: float):
    return x
