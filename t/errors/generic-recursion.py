from typing import Any

import warp as wp


@wp.func
def ping(a: Any, n: int):
    if n > 0:
        return pong(a, n - 1)
    return a


@wp.func
def pong(a: Any, n: int):
    return ping(a, n)


@wp.kernel
def k(a: wp.array(dtype=float)):
    a[0] = ping(a[0], 3)
