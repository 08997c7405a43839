import warp as wp


@wp.struct
class Particle:
    pos: wp.vec3
    mass: float
    alive: int


@wp.kernel
def weigh(ps: wp.array(dtype=Particle), g: wp.vec3, out: wp.array(dtype=wp.vec3), moved: wp.array[Particle]):
    i = wp.tid()
    p = ps[i]
    f = g * p.mass * float(p.alive)
    out[i] = f
    q = Particle()
    q.pos = p.pos + f
    q.mass = p.mass
    q.alive = p.alive
    moved[i] = q
