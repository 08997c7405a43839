import warp as wp
import numpy as np

TABLE = np.zeros(4)


@wp.kernel
def k(a: wp.array(dtype=float)):
    a[0] = TABLE
