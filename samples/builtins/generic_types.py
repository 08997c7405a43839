"""Types and values through Warp's generic constructors: a vector type
alias made with wp.types.vector, wp.vector and wp.matrix with a length,
shape and dtype, wp.quaternion and wp.transformation."""
import warp as wp

vec3d = wp.types.vector(length=3, dtype=wp.float64)
mat22 = wp.types.matrix(shape=(2, 2), dtype=float)


@wp.func
def weighted_norm(v: vec3d, w: wp.float64) -> wp.float64:
    return w * wp.dot(v, v)


@wp.kernel
def blend(x: wp.array[float], m: wp.array[mat22], out: wp.array[float]):
    i = wp.tid()
    a = wp.vector(x[i], 2.0 * x[i], 0.5)
    zero = wp.vector(length=4, dtype=float)
    d = vec3d(wp.float64(x[i]), wp.float64(1.0), wp.float64(-2.0))
    r = wp.matrix(wp.cos(x[i]), -wp.sin(x[i]), wp.sin(x[i]), wp.cos(x[i]), shape=(2, 2))
    q = wp.quaternion(0.0, 0.0, wp.sin(0.5 * x[i]), wp.cos(0.5 * x[i]))
    t = wp.transformation(a, q, dtype=float)
    p = wp.vector(wp.extract(t, 0), t[5], t[6])
    s = r * m[i] * wp.vector(1.0, x[i])
    out[i] = p[1] + zero[3] + float(weighted_norm(d, wp.float64(0.25))) + s[0] + wp.extract(s, 1)
