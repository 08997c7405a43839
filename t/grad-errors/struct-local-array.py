import warp as wp


@wp.struct
class Field:
    values: wp.array(dtype=float)
    scale: float


@wp.kernel
def k(a: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    f = Field()
    f.values = a
    f.scale = 2.0
    out[i] = f.values[i] * f.scale
