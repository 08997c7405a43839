# Float<->int conversion: quantizing to fixed levels with int() and measuring the error with float().
import warp as wp


@wp.kernel
def quantize(levels: int, x: wp.array(dtype=float), q: wp.array(dtype=int), err: wp.array(dtype=float)):
    i = wp.tid()
    s = float(levels)
    level = int(x[i] * s)
    q[i] = level + levels
    err[i] = x[i] - float(level) / s


@wp.kernel
def dequantize(levels: int, q: wp.array(dtype=int), bias: float, out: wp.array(dtype=float)):
    i = wp.tid()
    centered = q[i] * 2 - levels
    out[i] = float(centered) / float(2 * levels) * (1.0 - bias) + bias * 0.5
