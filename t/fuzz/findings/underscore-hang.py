import warp as wp


@wp.kernel
def _k(_a: wp.array(dtype=float)):
    _i = wp.tid()
    _a[_i] = _a[_i] * 2.0
