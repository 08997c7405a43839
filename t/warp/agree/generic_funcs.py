# Generic wp.funcs: a parameter of type Any (or an array of Any) takes the
# type of its argument, and each list of argument types compiles the func
# once (an instance), as Warp does; generics call generics, keywords bind
# as for any func, and an instance in a piece other than its caller's is read
# from its own; a generic parameter left to its default takes the
# default's type.
from typing import Any

import warp as wp


@wp.func
def generic_adder(a: Any, b: Any):
    return a + b


@wp.func
def scale_at(x: wp.array(dtype=Any), i: int, s: float):
    return x[i] * s


@wp.func
def twice(v: Any):
    return generic_adder(v, v)


@wp.func
def lerp_any(a: Any, b: Any, t: float):
    return a + (b - a) * t


@wp.func
def offset(a: Any, b: Any = 1.5):
    return a + b


@wp.kernel
def generic_mix(
    a: wp.array(dtype=float),
    b: wp.array(dtype=wp.vec3),
    m: wp.array2d(dtype=float),
    out: wp.array(dtype=float),
    outv: wp.array(dtype=wp.vec3),
):
    i = wp.tid()
    x = generic_adder(a[i], 2.0) + twice(a[i]) + float(generic_adder(i, 3))
    out[i] = x + scale_at(a, i, 3.0) + lerp_any(a[i], m[i, 1], 0.25) + offset(a[i])
    v = generic_adder(b[i], b[i]) + scale_at(b, i, 0.5) + twice(b[i])
    outv[i] = lerp_any(v, b[i] * a[i], 0.5)
