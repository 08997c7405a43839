# Points in and on spheres: a cloud of points in a ball of radius r around
# a center, directions on a hemisphere, and a point of a triangle.
import warp as wp


@wp.kernel
def ball_cloud(center: wp.vec3, radius: wp.array(dtype=float), seed: int, out: wp.array(dtype=wp.vec3)):
    tid = wp.tid()
    state = wp.rand_init(seed, tid)
    r = radius[tid]
    p = center + wp.sample_unit_sphere(state) * r
    n = wp.sample_unit_sphere_surface(state)
    out[tid] = p + n * (0.01 * r)


@wp.kernel
def hemisphere_rays(normal_scale: wp.array(dtype=float), out: wp.array(dtype=wp.vec3)):
    tid = wp.tid()
    state = wp.rand_init(99)
    # every thread starts from the same state: skip ahead by tid draws
    for i in range(tid % 5):
        wp.randu(state)
    d = wp.sample_unit_hemisphere_surface(state)
    q = wp.sample_unit_hemisphere(state)
    out[tid] = (d + q) * normal_scale[tid]


@wp.kernel
def triangle_points(a: wp.array(dtype=wp.vec3), b: wp.array(dtype=wp.vec3), c: wp.array(dtype=wp.vec3),
                    out: wp.array(dtype=wp.vec3)):
    tid = wp.tid()
    state = wp.rand_init(5, tid)
    uv = wp.sample_triangle(state)
    out[tid] = a[tid] * uv[0] + b[tid] * uv[1] + c[tid] * (1.0 - uv[0] - uv[1])
