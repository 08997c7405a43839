from typing import Any

import warp as wp


@wp.func
def inner(v: Any):
    return wp.length(v)


@wp.func
def outer(v: Any, s: float):
    return inner(v) * s


@wp.kernel
def k(a: wp.array(dtype=float)):
    a[0] = outer(a[0], 2.0)
