# Generic kernels: a parameter of type Any (or an array of Any) takes its
# type from each of the kernel's overloads, declared as Warp declares them
# (wp.overload with a list of every parameter's type, or a dict of the
# generic ones', or an @wp.overload stub); each overload is a kernel of its
# own, NAME and its generic parameters' types.
from typing import Any

import warp as wp


@wp.kernel
def scale(x: wp.array(dtype=Any), s: Any, out: wp.array(dtype=Any)):
    i = wp.tid()
    out[i] = x[i] * s


wp.overload(scale, [wp.array(dtype=float), float, wp.array(dtype=float)])
wp.overload(scale, {"x": wp.array(dtype=wp.vec3), "s": float, "out": wp.array(dtype=wp.vec3)})


@wp.kernel
def fill(a: wp.array(dtype=Any), v: Any):
    a[wp.tid()] = v


@wp.overload
def fill(a: wp.array(dtype=wp.float64), v: wp.float64):
    ...


@wp.overload
def fill(a: wp.array(dtype=int), v: int):
    ...
