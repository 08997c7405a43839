import warp as wp


@wp.struct
class P:
    dt: float


@wp.kernel
def k(p: P, out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = p.dx
