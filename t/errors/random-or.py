import warp as wp


@wp.kernel
def k(out: wp.array(dtype=float)):
    i = wp.tid()
    state = wp.rand_init(1, i)
    if wp.randf(state) < 0.5 or wp.randf(state) < 0.25:
        out[i] = 1.0
