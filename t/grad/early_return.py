# Early return: some threads write their output, others leave it.
import warp as wp


@wp.kernel
def early_return(xs: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    x = xs[i]
    if x < -0.3:
        return
    y = x * x
    if y > 0.5:
        out[i] = y
        return
    out[i] = wp.exp(x) + out[i] * x
