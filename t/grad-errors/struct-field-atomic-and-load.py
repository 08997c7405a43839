import warp as wp


@wp.struct
class Holder:
    values: wp.array(dtype=wp.vec3)


# an atomic on a struct's array that the kernel then loads: kdiff keeps an
# array parameter's as a thread's own read-modify-write, not yet a
# struct's, so it refuses (its gradient would be wrong)
@wp.kernel
def k(holder: Holder, x: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(holder.values, i, wp.vec3(x[i], 0.0, 0.0))
    out[i] = holder.values[i].x * x[i]
