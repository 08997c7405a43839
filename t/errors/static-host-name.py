import warp as wp

TABLE = {"double": 2.0}


@wp.kernel
def k(x: wp.array(dtype=float)):
    x[0] = wp.static(TABLE["double"])
