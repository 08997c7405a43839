from typing import Any

import warp as wp


@wp.kernel
def scale(x: wp.array(dtype=Any), s: Any, out: wp.array(dtype=Any)):
    i = wp.tid()
    out[i] = x[i] * s


wp.overload(scale, [wp.array(dtype=float), float])
