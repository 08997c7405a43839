# Polynomial evaluation: Horner's rule over a coefficient array in a func, with derivative and a Newton step.
import warp as wp


@wp.func
def horner(coeffs: wp.array(dtype=float), degree: int, x: float):
    p = float(0.0)
    dp = float(0.0)
    for k in range(degree, -1, -1):
        dp = dp * x + p
        p = p * x + coeffs[k]
    return p, dp


@wp.kernel
def poly_eval(degree: int, coeffs: wp.array(dtype=float), x: wp.array(dtype=float), value: wp.array(dtype=float), slope: wp.array(dtype=float)):
    i = wp.tid()
    d = degree % 6
    p, dp = horner(coeffs, d, x[i])
    value[i] = p
    slope[i] = dp


@wp.kernel
def newton_step(coeffs: wp.array(dtype=float), x: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    y = x[i]
    for it in range(3):
        p, dp = horner(coeffs, 3, y)
        y = y - p * dp / (1.0 + dp * dp)
    out[i] = wp.clamp(y, -4.0, 4.0)
