# Vector and matrix component overwrites, read back after the write.
import warp as wp


@wp.kernel
def component_overwrite(vs: wp.array(dtype=wp.vec3), ms: wp.array(dtype=wp.mat22), out: wp.array(dtype=float)):
    i = wp.tid()
    v = vs[i]
    v[0] = v[0] * v[1]
    v[2] = v[2] + v[0]
    v.y = wp.sin(v.y) * v.z
    m = ms[i]
    m[0, 1] = m[0, 1] * m[1, 0] + v[2]
    m[1, 1] = m[0, 1] * m[0, 0]
    w = m * wp.vec2(v[0], v[1])
    out[i] = wp.dot(w, w) + wp.determinant(m)
