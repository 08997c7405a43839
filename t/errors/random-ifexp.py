import warp as wp


@wp.kernel
def k(out: wp.array(dtype=float)):
    i = wp.tid()
    state = wp.rand_init(1, i)
    out[i] = wp.randf(state) if i > 2 else 0.0
