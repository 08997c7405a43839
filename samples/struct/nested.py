import warp as wp


@wp.struct
class Body:
    pos: wp.vec3
    mass: float


@wp.struct
class Scene:
    body: Body
    weights: wp.array(dtype=float)
    scale: float


@wp.func
def moved(b: Body, d: wp.vec3) -> Body:
    r = Body()
    r.pos = b.pos + d
    r.mass = b.mass
    return r


@wp.kernel
def step(s: Scene, out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    b = moved(s.body, wp.vec3(s.weights[i], 0.0, 0.0))
    b.pos.y = s.scale
    b.mass = s.body.mass * 2.0
    out[i] = b.pos * b.mass
