# --keep-going past defs that fail where a call is being lowered (its
# arguments' memo open) and an overload that fails before its function is
# made (its type names something host code skipped): the defs after them
# still come out, numbered right.
from collections import OrderedDict

import warp as wp


@wp.func
def scale(x: float, k: float):
    return x * k


@wp.func
def scale(x: OrderedDict):
    return x


@wp.func
def scale(v: wp.vec3, k: float):
    return v * k


@wp.func
def broken(x: float):
    y = scale(x, undefined_name)
    return y


@wp.kernel
def uses_broken(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = broken(a[i])


@wp.kernel
def first(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = scale(a[i], 2.0)


@wp.kernel
def second(v: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    v[i] = scale(v[i], 0.5)
