"""Shared pieces of the package: a struct, module constants, a generic
func and a plain one, a kernel of this module's own, and host code."""

from dataclasses import dataclass
from typing import Any

import numpy as np
import warp as wp

GRAVITY = wp.constant(wp.vec3(0.0, -9.8, 0.0))
DRAG = 0.05
STIFFNESS = wp.constant(40.0)


@wp.struct
class Particle:
    x: wp.vec3
    v: wp.vec3
    inv_mass: float


@wp.func
def damp(v: Any, k: float):
    # generic: compiled for each type a caller gives
    return v * (1.0 - k)


@wp.func
def spring_force(a: wp.vec3, b: wp.vec3, rest: float):
    d = b - a
    n = wp.length(d)
    return STIFFNESS * (n - rest) * d / wp.max(n, 1.0e-6)


@wp.kernel
def reset(ps: wp.array(dtype=Particle)):
    # the module's own kernel: not one of sim.py's
    i = wp.tid()
    ps[i].v = wp.vec3(0.0)


@dataclass
class Settings:
    dt: float = 0.01
    steps: int = 8


def make_particles(n, seed=0):
    rng = np.random.default_rng(seed)
    return rng.standard_normal((n, 3)).astype(np.float32)
