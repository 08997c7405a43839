import warp as wp


@wp.kernel
def place_points(body: wp.array[wp.transform], p: wp.array[wp.vec3], world: wp.array[wp.vec3], local: wp.array[wp.vec3]):
    i = wp.tid()
    t = wp.transform(wp.transform_get_translation(body[i]), wp.normalize(wp.transform_get_rotation(body[i])))
    w = wp.transform_point(t, p[i])
    world[i] = w + wp.transform_vector(t, p[i])
    local[i] = wp.transform_point(wp.transform_inverse(t), w)


@wp.kernel
def chain(a: wp.array[wp.transform], b: wp.array[wp.transform], p: wp.array[wp.vec3], out: wp.array[wp.transform], tip: wp.array[wp.vec3]):
    i = wp.tid()
    ab = wp.transform_multiply(a[i], b[i])
    both = a[i] * b[i] * wp.transform_identity()
    out[i] = ab + both * 0.5 - 2.0 * wp.transform_inverse(b[i])
    tip[i] = wp.transform_point(both, p[i])


@wp.kernel
def affine(m: wp.array[wp.mat44], p: wp.array[wp.vec3], out: wp.array[wp.vec3]):
    i = wp.tid()
    out[i] = wp.transform_point(m[i], p[i]) * 2.0 + wp.transform_vector(m[i], p[i])
