# --keep-going past a generic wp.func whose instance fails inside another
# instance being lowered (each caller meets the error, the state of the
# caller is restored), and a generic that compiles: its instances (one made
# for a kernel that then fails, kept for the next caller) and the kernel
# that calls them come out, the instances first.
from typing import Any

import warp as wp


@wp.func
def inner(a: Any):
    return a * undefined_name


@wp.func
def outer(a: Any):
    return inner(a) + 1.0


@wp.kernel
def k(x: wp.array(dtype=float)):
    x[0] = outer(x[0])


@wp.func
def fine(a: Any):
    return a * 2.0


@wp.kernel
def k2(x: wp.array(dtype=float)):
    x[0] = fine(x[0]) + outer(2.0)


@wp.kernel
def k3(x: wp.array(dtype=float), v: wp.array(dtype=wp.vec3)):
    x[0] = fine(x[0])
    v[0] = fine(v[0])
