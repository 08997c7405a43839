# vec3 arrays: reflection and plane projection with dot, normalize, length_sq and scalar*vec.
import warp as wp


@wp.kernel
def reflect(d: wp.array(dtype=wp.vec3), nrm: wp.array(dtype=wp.vec3), out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    n = wp.normalize(nrm[i] + wp.vec3(0.0, 2.0, 0.0))
    v = d[i]
    out[i] = v - 2.0 * wp.dot(v, n) * n


@wp.kernel
def project_to_plane(p: wp.array(dtype=wp.vec3), nrm: wp.array(dtype=wp.vec3), out: wp.array(dtype=wp.vec3), dist2: wp.array(dtype=float)):
    i = wp.tid()
    n = wp.normalize(nrm[i] + wp.vec3(0.0, 0.0, 2.0))
    v = p[i]
    q = v - wp.dot(v, n) * n
    dist2[i] = wp.length_sq(v - q)
    out[i] = q
