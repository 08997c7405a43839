# vec3 geometry: triangle areas, centroids and edge lengths from vertex arrays with cross and length.
import warp as wp


@wp.kernel
def triangle_area(a: wp.array(dtype=wp.vec3), b: wp.array(dtype=wp.vec3), c: wp.array(dtype=wp.vec3), area: wp.array(dtype=float), centroid: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    e1 = b[i] - a[i]
    e2 = c[i] - a[i]
    n = wp.cross(e1, e2)
    area[i] = 0.5 * wp.sqrt(wp.length_sq(n) + 1.0e-6)
    centroid[i] = (1.0 / 3.0) * (a[i] + b[i] + c[i])


@wp.kernel
def edge_lengths(n: int, p: wp.array(dtype=wp.vec3), seg_len: wp.array(dtype=float)):
    i = wp.tid()
    q = p[(i + 1) % n] + wp.vec3(2.5, 0.0, 0.0)
    seg_len[i] = wp.length(q - p[i])
