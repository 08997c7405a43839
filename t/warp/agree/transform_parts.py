# A transform's translation and rotation as attributes, t.p and t.q: read,
# assigned and updated on variables and on array elements (the rest of
# the element untouched; += an atomic, as Warp's).
import warp as wp


# Warp builds no backward here: its adjoint of a part of a variable
# assigned more than once is wrong (doc/warp-differences.md, `component`)
@wp.kernel(enable_backward=False)
def parts(t: wp.array(dtype=wp.transform), p: wp.array(dtype=wp.vec3), out: wp.array(dtype=float),
          tout: wp.array(dtype=wp.transform)):
    i = wp.tid()
    a = t[i]
    x = a.p.x + a.q.w
    a.p = p[i] * 2.0
    a.q = wp.quat(0.0, 0.0, wp.sin(p[i].x), 1.0)
    a.p += wp.vec3(x, 0.0, 0.0)
    out[i] = wp.length(a.p) + x
    tout[i] = a


@wp.kernel
def element_parts(p: wp.array(dtype=wp.vec3), r: wp.array(dtype=wp.quat), y: wp.array(dtype=wp.transform),
                  z: wp.array(dtype=wp.transform)):
    i = wp.tid()
    y[i].p = p[i]
    z[i].q = r[i]
    z[i].p += p[i] * 0.5
