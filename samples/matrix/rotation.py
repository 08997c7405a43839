# mat33 from scalars: a z-rotation, mat*vec, transpose as the inverse rotation, row access, scalar*mat and mat*mat.
import warp as wp


@wp.kernel
def rotate_z(angle: wp.array(dtype=float), p: wp.array(dtype=wp.vec3), out: wp.array(dtype=wp.vec3), back: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    c = wp.cos(angle[i])
    s = wp.sin(angle[i])
    r = wp.mat33(c, -s, 0.0, s, c, 0.0, 0.0, 0.0, 1.0)
    q = r * p[i]
    out[i] = q
    back[i] = wp.transpose(r) * q + 0.5 * r[0]


@wp.kernel
def scaled_shear(k: float, p: wp.array(dtype=wp.vec3), out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    shear = wp.mat33(1.0, k, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0)
    v = p[i]
    scale = wp.mat33(v.x, 0.0, 0.0, 0.0, v.y, 0.0, 0.0, 0.0, v.z)
    m = 2.0 * (shear * scale)
    out[i] = m * wp.vec3(1.0, 1.0, 1.0)
