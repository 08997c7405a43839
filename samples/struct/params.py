import warp as wp


@wp.struct
class Params:
    dt: float
    gravity: wp.vec3
    steps: int


@wp.kernel
def integrate(p: Params, x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    q = Params()
    q.dt = p.dt * 2.0
    q.gravity = p.gravity
    q.gravity.y = 1.0
    v[i] = v[i] + q.gravity * p.dt
    x[i] = x[i] + v[i] * q.dt
