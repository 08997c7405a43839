# A transform's translation and rotation as attributes, t.p and t.q, on
# array elements: assigned (the rest of the element untouched) and updated
# (+= an atomic, as Warp's).  On variables they are in
# t/grad/transform_parts.py: Warp's adjoint of a part of a variable assigned
# twice is its known `component` bug (doc/warp-differences.md).
import warp as wp


@wp.kernel
def element_parts(p: wp.array(dtype=wp.vec3), r: wp.array(dtype=wp.quat), y: wp.array(dtype=wp.transform),
                  z: wp.array(dtype=wp.transform)):
    i = wp.tid()
    y[i].p = p[i]
    z[i].q = r[i]
    z[i].p += p[i] * 0.5
