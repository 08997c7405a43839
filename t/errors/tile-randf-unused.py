import warp as wp


@wp.kernel
def k(seed: int, a: wp.array(dtype=float), b: wp.array(dtype=int)):
    rng = wp.rand_init(seed)
    wp.tile_randf(shape=8, rng=rng)
