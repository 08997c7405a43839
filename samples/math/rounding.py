# Rounding and range functions: floor/ceil grid snapping, abs, sign, min/max and clamp.
import warp as wp


@wp.kernel
def snap_to_grid(cell: float, x: wp.array(dtype=float), lo: wp.array(dtype=float), hi: wp.array(dtype=float)):
    i = wp.tid()
    h = 0.25 + wp.abs(cell)
    lo[i] = wp.floor(x[i] / h) * h
    hi[i] = wp.ceil(x[i] / h) * h


@wp.kernel
def soft_limit(limit: float, x: wp.array(dtype=float), y: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    m = 0.2 + 0.5 * wp.abs(limit)
    a = wp.clamp(2.0 * x[i], -m, m)
    b = wp.max(x[i], y[i]) - wp.min(x[i], y[i])
    out[i] = a + wp.sign(y[i]) * b
