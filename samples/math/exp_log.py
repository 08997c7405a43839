# Exponentials, logarithms and hyperbolic functions: activations and decibel/bit conversions.
import warp as wp


@wp.kernel
def activations(x: wp.array(dtype=float), softplus: wp.array(dtype=float), act: wp.array(dtype=float)):
    i = wp.tid()
    v = 4.0 * x[i]
    softplus[i] = wp.log(1.0 + wp.exp(v))
    act[i] = wp.tanh(v) + 0.1 * wp.sinh(x[i]) / wp.cosh(x[i])


@wp.kernel
def decibels(power: wp.array(dtype=float), db: wp.array(dtype=float), bits: wp.array(dtype=float)):
    i = wp.tid()
    p = power[i] * power[i] + 0.01
    db[i] = 10.0 * wp.log10(p)
    bits[i] = wp.log2(1.0 + p) + wp.pow(p, 0.75) - wp.sqrt(p)
