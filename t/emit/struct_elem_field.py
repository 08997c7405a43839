import warp as wp

@wp.struct
class Holder:
    values: wp.array(dtype=float)

@wp.kernel
def copy_into(holders: wp.array(dtype=Holder), src: wp.array(dtype=float)):
    i = wp.tid()
    holders[0].values[i] = src[i]
