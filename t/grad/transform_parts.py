# A transform's translation and rotation as attributes on a variable, read,
# assigned and updated (t/warp/agree/transform_parts.py has them on array
# elements, beside Warp).
import warp as wp


@wp.kernel
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
