from typing import Any

import warp as wp


@wp.kernel
def scale(x: wp.array(dtype=Any), s: Any):
    x[wp.tid()] = x[wp.tid()] * s


wp.overload(scale, {"x": wp.array(dtype=float), "scale": float})
