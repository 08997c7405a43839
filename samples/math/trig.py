# Trigonometry: polar coordinates, wave sampling and inverse trig with in-domain arguments.
import warp as wp


@wp.kernel
def to_polar(x: wp.array(dtype=float), y: wp.array(dtype=float), r: wp.array(dtype=float), theta: wp.array(dtype=float)):
    i = wp.tid()
    r[i] = wp.sqrt(x[i] * x[i] + y[i] * y[i] + 1.0e-4)
    theta[i] = wp.atan2(y[i], x[i] + 2.0)


@wp.kernel
def wave(t: float, phase: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    p = phase[i] + t
    out[i] = wp.sin(3.0 * p) * wp.cos(p) + 0.1 * wp.tan(0.5 * p)


@wp.kernel
def inverse_trig(x: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    u = 0.9 * x[i]
    out[i] = wp.asin(u) + 0.5 * wp.acos(u) + wp.atan(4.0 * x[i])
