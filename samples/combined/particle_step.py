# Particle integrator: gravity and drag, symplectic Euler, ground collision and a kinetic-energy reduction.
import warp as wp


@wp.func
def drag(v: wp.vec3, k: float) -> wp.vec3:
    return -k * wp.length(v) * v


@wp.kernel
def integrate(dt: float, pos: wp.array(dtype=wp.vec3), vel: wp.array(dtype=wp.vec3), mass: wp.array(dtype=float), energy: wp.array(dtype=float)):
    i = wp.tid()
    h = 0.01 + 0.01 * wp.abs(dt)
    m = 1.5 + mass[i]
    v = vel[i]
    p = pos[i]
    for s in range(4):
        f = m * wp.vec3(0.0, -9.8, 0.0) + drag(v, 0.1)
        v = v + (h / m) * f
        p = p + h * v
        if p.y < -1.0:
            p[1] = -2.0 - p.y
            v[1] = -0.5 * v.y
    pos[i] = p
    vel[i] = v
    wp.atomic_add(energy, 0, 0.5 * m * wp.dot(v, v))
