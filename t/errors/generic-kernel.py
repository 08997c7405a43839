from typing import Any

import warp as wp


@wp.kernel
def fill(a: wp.array(dtype=Any)):
    a[wp.tid()] = a.dtype(1.0)
