from typing import Any

import warp as wp


@wp.func
def first(x: wp.array(dtype=Any)):
    return x[0]


@wp.kernel
def k(a: wp.array(dtype=float)):
    a[0] = first(1.0)
