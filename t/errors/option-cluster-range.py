import warp as wp

@wp.kernel(cluster_dim=17)
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = 1.0
