import warp as wp


@wp.kernel(module="unique", module_options={"enable_backward": True, "max_unrolls": 4})
def k(x: wp.array(dtype=float)):
    x[0] = 1.0
