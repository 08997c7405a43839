# wp.transform_set_translation(t, p) and wp.transform_set_rotation(t, q)
# change a transform variable in place.  Warp's backward is not compared:
# its adjoint of the setters leaves the adjoint of the part they overwrote
# on the transform passed in, where it is zero (ksynth's passes
# --gradcheck, t/t2003).
import warp as wp


@wp.kernel(enable_backward=False)
def setters(t: wp.array(dtype=wp.transform), p: wp.array(dtype=wp.vec3), r: wp.array(dtype=wp.quat),
            out: wp.array(dtype=wp.transform)):
    i = wp.tid()
    a = t[i]
    wp.transform_set_translation(a, p[i] * 2.0)
    wp.transform_set_rotation(xform=a, q=r[i])
    out[i] = a
