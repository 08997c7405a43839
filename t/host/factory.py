# A kernel built by a Python function at run time (a kernel factory): not
# compiled, and said so (t/t1006-host.t).
import warp as wp


def make_scale(factor: float):
    @wp.kernel
    def scale(x: wp.array(dtype=float)):
        i = wp.tid()
        x[i] = x[i] * factor

    return scale


@wp.kernel
def plain(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = x[i] + 1.0
