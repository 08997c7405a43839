# Scalar helper functions: smoothstep, a gaussian, and a func that calls other funcs.
import warp as wp


@wp.func
def smoothstep(e0: float, e1: float, x: float) -> float:
    t = wp.clamp((x - e0) / (e1 - e0), 0.0, 1.0)
    return t * t * (3.0 - 2.0 * t)


@wp.func
def gaussian(x: float, sigma: float) -> float:
    return wp.exp(-0.5 * x * x / (sigma * sigma))


@wp.func
def falloff(d: float, radius: float) -> float:
    return gaussian(d, 0.5 * radius) * (1.0 - smoothstep(0.0, radius, d))


@wp.kernel
def apply_falloff(radius: float, d: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    r = 1.0 + 0.5 * radius
    out[i] = falloff(wp.abs(d[i]), r)
