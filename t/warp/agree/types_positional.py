# wp.types.vector and wp.types.matrix with their arguments by position, as
# a module alias and as an annotation.
import warp as wp

vec3x = wp.types.vector(3, wp.float64)
mat22x = wp.types.matrix((2, 2), wp.float64)


@wp.kernel
def shaped(v: wp.array(dtype=vec3x), m: wp.array(dtype=wp.types.matrix((2, 2), wp.float64)),
           out: wp.array(dtype=wp.float64)):
    i = wp.tid()
    w = vec3x(v[i][0], v[i][1] * wp.float64(2.0), v[i][2])
    n = mat22x(m[i][0, 0], m[i][0, 1], m[i][1, 0], m[i][1, 1] + wp.float64(1.0))
    out[i] = wp.dot(w, w) + wp.determinant(n)
