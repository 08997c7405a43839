import warp as wp


@wp.kernel(module_options={"fast_math": True})
def k(x: wp.array(dtype=float)):
    x[0] = float(len({1: 2}))
