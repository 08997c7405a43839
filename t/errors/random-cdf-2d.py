import warp as wp


@wp.kernel
def k(cdf: wp.array2d(dtype=float), out: wp.array(dtype=int)):
    i = wp.tid()
    state = wp.rand_init(1, i)
    out[i] = wp.sample_cdf(state, cdf)
