# Float arithmetic: scaled add, unary minus and a guarded rational expression.
import warp as wp


@wp.kernel
def saxpy(a: float, x: wp.array(dtype=float), y: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = a * x[i] + y[i]


@wp.kernel
def rational_blend(x: wp.array(dtype=float), y: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    xi = x[i]
    yi = y[i]
    num = 3.0 * xi - yi * yi + 0.5
    den = 1.0 + xi * xi + yi * yi
    out[i] = -(num / den) + (xi - yi) * 0.25 + -yi * 0.1
