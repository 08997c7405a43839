# A kernel that reads a name the host code binds: with --keep-going it is
# reported and left out, the others are written (t/t1006-host.t).
import numpy as np

import warp as wp

TABLE = np.linspace(0.0, 1.0, 8)
SCALE = 2.0


@wp.kernel
def good(x: wp.array(dtype=float)):
    i = wp.tid()
    x[i] = x[i] * SCALE


@wp.kernel
def bad(x: wp.array(dtype=float)):
    i = wp.tid()
    x[i] = x[i] * TABLE


@wp.func
def broken(v: float):
    return v[0]


@wp.kernel
def calls_broken(x: wp.array(dtype=float)):
    i = wp.tid()
    x[i] = broken(x[i])


@wp.kernel
def also_good(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = x[i] + SCALE
