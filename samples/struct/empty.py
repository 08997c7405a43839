import warp as wp


@wp.struct
class Tag:
    pass


@wp.func
def scaled(t: Tag, x: float) -> float:
    u = Tag()
    return 2.0 * x


@wp.kernel
def tagged(t: Tag, x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = scaled(t, x[i]) + y[i]
