"""The kernels of the package and the host code that runs them: the
struct, constants and funcs come from physics.py by relative imports, of
names and of the module as a name."""

import argparse

import numpy as np
import warp as wp

from . import physics
from .physics import DRAG, GRAVITY, Particle, Settings, damp, make_particles
from .physics import spring_force as force


@wp.kernel
def integrate(
    ps: wp.array(dtype=Particle), anchor: wp.vec3, dt: float, out: wp.array(dtype=Particle), speed: wp.array(dtype=float)
):
    i = wp.tid()
    p = ps[i]
    f = force(p.x, anchor, 1.0) + GRAVITY
    v = damp(p.v + f * (p.inv_mass * dt), DRAG)
    p.v = v
    p.x = p.x + v * dt
    out[i] = p
    speed[i] = damp(wp.length(v), 0.5 * DRAG)


@wp.kernel
def energy(ps: wp.array(dtype=physics.Particle), total: wp.array(dtype=float)):
    i = wp.tid()
    p = ps[i]
    m = 1.0 / wp.max(p.inv_mass, 1.0e-3)
    stretch = wp.length(physics.spring_force(p.x, wp.vec3(0.0), 1.0)) / physics.STIFFNESS
    wp.atomic_add(total, 0, 0.5 * m * wp.dot(p.v, p.v) - m * wp.dot(physics.GRAVITY, p.x) + stretch)


class Simulation:
    def __init__(self, n, settings=None):
        self.settings = settings or Settings()
        x = make_particles(n)
        self.ps = wp.array([Particle() for _ in range(n)], dtype=Particle)
        self.x = x

    def step(self):
        speed = wp.zeros(len(self.x), dtype=float)
        out = wp.empty_like(self.ps)
        wp.launch(integrate, dim=len(self.x), inputs=[self.ps, wp.vec3(0.0), self.settings.dt, out, speed])
        self.ps = out
        return speed


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=16)
    args = parser.parse_args()
    print(Simulation(args.n).step().numpy())
