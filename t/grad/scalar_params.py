# Float scalar parameters: their gradients are summed over all threads.
import warp as wp


@wp.kernel
def scalar_params(alpha: float, beta: float, xs: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    x = xs[i]
    alpha = alpha * alpha + 0.1
    out[i] = alpha * x + beta * wp.sin(beta * x)
