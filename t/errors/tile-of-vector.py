import warp as wp


@wp.kernel
def k(v: wp.array(dtype=wp.vec3), s: wp.array(dtype=float)):
    i = wp.tid()
    vi = v[i]
    t = wp.tile(vi)
    wp.tile_atomic_add(s, wp.tile_sum(t))
