# Module constants (wp.constant and plain numbers), ** and chained comparisons, as Warp code writes them.
import math

import warp as wp

DT = wp.constant(0.01)
GRAVITY = wp.constant(wp.vec3(0.0, -9.8, 0.0))
DAMPING = 0.98
STEPS = 4
TWO_PI = 2.0 * math.pi


@wp.kernel
def integrate(x: wp.array[wp.vec3], v: wp.array[wp.vec3]):
    i = wp.tid()
    vel = v[i]
    pos = x[i]
    for s in range(STEPS):
        vel = DAMPING * vel + DT * GRAVITY
        pos = pos + DT * vel
    x[i] = pos
    v[i] = vel


@wp.kernel
def falloff(r: wp.array[float], out: wp.array[float]):
    i = wp.tid()
    d = wp.abs(r[i])
    w = float(0.0)
    if 0.0 <= d < 1.0:
        w = (1.0 - d * d) ** 3.0
    out[i] = w * wp.cos(TWO_PI * d)
