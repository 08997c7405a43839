import warp as wp

OPTIONS = 3


@wp.kernel(module_options=OPTIONS)
def k(x: wp.array(dtype=float)):
    x[0] = 1.0
