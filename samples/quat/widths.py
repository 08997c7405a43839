import warp as wp


@wp.kernel
def rotate_double(rot: wp.array[wp.quatd], p: wp.array[wp.vec3d], t: wp.array[wp.transformd], out: wp.array[wp.vec3d], q: wp.array[wp.quatd]):
    i = wp.tid()
    r = wp.normalize(rot[i])
    out[i] = wp.quat_rotate(r, p[i]) + wp.transform_point(t[i], p[i])
    q[i] = wp.quat_slerp(r, wp.transform_get_rotation(t[i]), wp.float64(0.5)) * r


@wp.kernel
def rotate_half(rot: wp.array[wp.quath], p: wp.array[wp.vec3h], out: wp.array[wp.vec3h]):
    i = wp.tid()
    out[i] = wp.quat_rotate(wp.normalize(rot[i]), p[i])
