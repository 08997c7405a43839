# In-place array updates: kernels that overwrite the arrays they read.
import warp as wp


@wp.kernel
def square_in_place(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = a[i] * a[i]


@wp.kernel
def relax(x: wp.array(dtype=float), target: wp.array(dtype=float), rate: float):
    i = wp.tid()
    r = 0.25 + 0.5 * wp.abs(rate)
    x[i] = x[i] + r * (target[i] - x[i])
    target[i] = wp.tanh(x[i]) * target[i]
