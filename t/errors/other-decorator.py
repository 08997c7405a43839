import warp as wp

@staticmethod
def f(x: float):
    return x
