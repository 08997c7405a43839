import warp as wp


@wp.kernel
def body_wrench(twist: wp.array[wp.spatial_vector], inertia: wp.array[wp.spatial_matrix], f: wp.array[wp.spatial_vector], power: wp.array[float]):
    i = wp.tid()
    v = twist[i]
    h = inertia[i] * v
    # the bias force of a moving body: v x* (I v)
    f[i] = wp.spatial_cross_dual(v, h) + wp.spatial_cross(v, h)
    power[i] = wp.spatial_dot(v, h)


@wp.kernel
def velocity_at(twist: wp.array[wp.spatial_vector], r: wp.array[wp.mat33], s: wp.array[wp.mat33], p: wp.array[wp.vec3], out: wp.array[wp.vec3], moved: wp.array[wp.spatial_vector]):
    i = wp.tid()
    w = wp.spatial_top(twist[i])
    v = wp.spatial_bottom(twist[i])
    out[i] = v + wp.cross(w, p[i])
    x = wp.spatial_adjoint(r[i], s[i])
    moved[i] = x * wp.spatial_vector(w, v) + wp.spatial_vector(1.0, 2.0, 3.0, w[0], v[1], 0.5)
