import warp as wp


@wp.struct
class Particles:
    pos: wp.array(dtype=wp.vec3)
    vel: wp.array(dtype=wp.vec3)
    mass: wp.array(dtype=float)
    count: int


@wp.struct
class Config:
    dt: float
    damping: float
    substeps: int


@wp.func
def kinetic(p: Particles, i: int) -> float:
    v = p.vel[i]
    return 0.5 * p.mass[i] * wp.dot(v, v)


@wp.kernel
def advance(p: Particles, c: Config, energy: wp.array(dtype=float)):
    i = wp.tid()
    v = p.vel[i]
    for k in range(3):
        v = v * (1.0 - c.damping * c.dt)
    p.pos[i] = p.pos[i] + v * c.dt
    wp.atomic_add(energy, 0, kinetic(p, i))
