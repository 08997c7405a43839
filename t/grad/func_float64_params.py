# A wp.func whose float adjoints are float64: returned one by one, not packed
# into a float32 gradient vector.
import warp as wp

@wp.func
def wn(v: wp.vec3d, w: wp.float64) -> wp.float64:
    return w * wp.dot(v, v)

@wp.kernel
def k(x: wp.array[wp.float64], out: wp.array[wp.float64]):
    i = wp.tid()
    out[i] = wn(wp.vec3d(x[i], x[i], x[i]), x[i])
