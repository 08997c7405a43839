import warp as wp


@wp.func
def integrate_rotation(q: wp.quat, omega: wp.vec3, dt: float):
    # dq/dt = 0.5 * (omega, 0) * q, then back onto the unit sphere
    spin = wp.quat(omega, 0.0) * q
    return wp.normalize(q + spin * (0.5 * dt))


@wp.kernel
def spin_bodies(rot: wp.array[wp.quat], omega: wp.array[wp.vec3], dt: float, out: wp.array[wp.quat]):
    i = wp.tid()
    q = wp.normalize(rot[i])
    for _ in range(4):
        q = integrate_rotation(q, omega[i], dt)
    out[i] = q


@wp.kernel
def rotate_points(rot: wp.array[wp.quat], p: wp.array[wp.vec3], moved: wp.array[wp.vec3], back: wp.array[wp.vec3]):
    i = wp.tid()
    q = wp.normalize(rot[i])
    r = wp.quat_rotate(q, p[i])
    moved[i] = r + wp.quat_to_matrix(q) * p[i]
    back[i] = wp.quat_rotate_inv(q, r) + wp.quat_rotate(wp.quat_inverse(q), p[i])


@wp.kernel
def orientations(angles: wp.array[wp.vec3], axis: wp.array[wp.vec3], out: wp.array[wp.quat], err: wp.array[float]):
    i = wp.tid()
    a = angles[i]
    q = wp.quat_rpy(a[0], a[1], a[2])
    k = wp.quat_from_axis_angle(wp.normalize(axis[i]), a[0] + a[1])
    m = wp.quat_to_matrix(q * k)
    back = wp.quat_from_matrix(m)
    out[i] = wp.quat_slerp(q, k, 0.25) + back * 0.5
    err[i] = wp.length(back - q * k) + wp.dot(q, k) * wp.length_sq(k) - q.w * k[0] / (2.0 + q.x * q.x)
