# bool parameters, bool arrays and flags; vectors of other widths (vec3d, vec2i) and their conversions.
import warp as wp


@wp.kernel
def mask_update(active: wp.array(dtype=bool), x: wp.array(dtype=float), enabled: bool, out: wp.array(dtype=float)):
    i = wp.tid()
    on = active[i] and enabled
    if on:
        out[i] = 2.0 * x[i]
    else:
        out[i] = x[i]
    active[i] = not on


@wp.kernel
def to_double(v: wp.array(dtype=wp.vec3), out: wp.array(dtype=wp.vec3d), cells: wp.array(dtype=wp.vec2i)):
    i = wp.tid()
    vd = wp.vec3d(v[i])
    out[i] = vd * wp.float64(0.5) + wp.vec3d(1.0, 2.0, 0.1)
    cells[i] = wp.vec2i(int(v[i][0] * 8.0), int(v[i][1] * 8.0))
