import warp as wp


@wp.struct
class Holder:
    values: wp.array(dtype=float)


@wp.kernel
def k(holders: wp.array(dtype=Holder), src: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    holders[0].values[i] = src[i] * 2.0
    out[i] = holders[0].values[i] * src[i]
