# Every scalar builtin at generic points (asin/acos/log domains kept),
# floor/ceil/sign/abs/min/max/clamp, float % and //, int<->float.
import warp as wp


@wp.kernel
def review_scalar_builtins(xs: wp.array(dtype=float), ys: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    x = xs[i]
    y = ys[i]
    p = x * x + 0.5
    s = 0.9 * x
    r = wp.sin(x) + wp.cos(y) + wp.tan(0.5 * x) + wp.asin(s) + wp.acos(0.8 * y)
    r += wp.atan(x * 3.0) + wp.atan2(y, x) + wp.sinh(x) + wp.cosh(y) + wp.tanh(2.0 * x)
    r += wp.exp(y) * wp.log(p) + wp.log2(p + y * y) + wp.log10(p) + wp.sqrt(p)
    r += wp.pow(p, y) + wp.pow(y, 2.0) + wp.pow(x, 3.0)
    r += wp.floor(x * 3.0) * x + wp.ceil(y * 2.0) * y + wp.sign(x - 0.1) * y
    r += wp.abs(x - 0.2) * wp.min(x, y) + wp.max(x * y, y - x) + wp.clamp(x * 2.0, y, 0.3)
    r += x % (y + 2.0) + (x * 3.0) // 1.0 + float(int(x * 4.0)) * y
    out[i] = r
