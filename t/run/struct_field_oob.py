import warp as wp

@wp.struct
class Holder:
    values: wp.array(dtype=float)

@wp.kernel
def read_past(h: Holder, out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = h.values[i + 1000]
