import warp as wp


@wp.kernel
def corners(x: wp.array[float], out: wp.array[wp.quat], v: wp.array[wp.vec3]):
    i = wp.tid()
    if i == 0:
        s = x[0] * 0.0
        z = wp.quat(s, s, s, s)
        a = wp.quat_rpy(0.1 + s, 0.2, 0.3)
        b = wp.quat_from_axis_angle(wp.vec3(0.0, 0.0, 1.0), 1.0 + s)
        out[0] = wp.normalize(z)
        out[1] = wp.quat_slerp(a, b, s)
        out[2] = wp.quat_slerp(a, b, 1.0 + s)
        out[3] = wp.quat_slerp(a, a, 0.5 + s)
        out[4] = wp.quat_slerp(a, a * wp.quat_rpy(1.0e-4, s, s), 0.5)
        out[5] = wp.quat_from_matrix(wp.quat_to_matrix(b))
        out[6] = wp.quat_from_matrix(wp.mat33(-1.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, 1.0 + s))
        out[7] = wp.quat_identity() + 2.0 / wp.quat(1.0, 2.0, 4.0, 8.0 + s)
        v[0] = wp.quat_rotate(wp.quat_identity(), wp.vec3(1.0, 2.0, 3.0 + s))
        v[1] = wp.transform_point(wp.transform_identity(), wp.vec3(s, 2.0, 3.0))
        v[2] = wp.transform_get_translation(wp.transform(wp.vec3(1.0, s, 2.0), z) * -1.0)
