from typing import Any

import warp as wp


@wp.func
def add(a: Any, b: Any):
    return a + b


@wp.kernel
def k(a: wp.array(dtype=float)):
    a[0] = add(a[0])
