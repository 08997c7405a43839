"""Warp's constants in kernel code: every name and its capitalised alias,
float32 like any float literal."""
import warp as wp


@wp.func
def wrap_angle(a: float) -> float:
    # into [-pi, pi)
    return a - wp.TAU * wp.floor((a + wp.PI) / wp.tau)


@wp.kernel
def constants(x: wp.array[float], out: wp.array[float], flags: wp.array[int]):
    i = wp.tid()
    a = wrap_angle(x[i] * 10.0) + wp.half_pi - wp.HALF_PI
    g = wp.exp(x[i] * wp.LN2) * wp.log2e + wp.log(wp.E + x[i] * x[i]) * wp.LOG10E
    h = wp.pow(wp.phi, x[i]) + wp.PHI * wp.ln10 - wp.LN10 * wp.LOG2E + wp.e
    big = wp.where(x[i] > 0.0, wp.inf, -wp.INF)
    out[i] = a + g + h + wp.pi * wp.clamp(x[i], -1.0, 1.0) + wp.where(big > 0.0, 1.0, -1.0)
    n = wp.nan + x[i]
    flags[i] = wp.where(n != n, 1, 0) + wp.where(wp.NAN != wp.NAN, 2, 0)
