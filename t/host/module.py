# A Warp module as it is written: host Python around the kernels, which
# kparse skips (t/t1006-host.t).  Comments and strings may say “anything”.
"""Particles: a damped spring step, with a command line."""

import argparse
import os.path as osp
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import warp as wp

DT = wp.constant(1.0 / 60.0)
STIFFNESS = 40.0
NUM_STEPS = 4
GRAVITY = wp.vec3(0.0, -9.8, 0.0)
Vec = wp.vec3
SETTINGS = {"steps": NUM_STEPS, "name": f"run-{NUM_STEPS}"}
PRESETS = [0.5, 1.0, 2.0]
here = osp.dirname(osp.abspath(__file__)) if "__file__" in globals() else None
rng = np.random.default_rng(7)
a, b = 1, 2
square = lambda z: z * z  # noqa: E731
TOTAL = sum(n for n in range(4)) + \
    len(PRESETS)
BLOB = rb"\x00raw" + b'bytes'


async def fetch(path, *, timeout=None):
    global a
    if (n := len(path)) > 3:
        a = n
    match n:
        case 0:
            return None
        case _:
            return await something(path)


@dataclass
class Config:
    stiffness: float = STIFFNESS
    tags: list = field(default_factory=list)

    def scaled(self, k):
        return Config(self.stiffness * k)


@wp.struct
class Spring:
    rest: float
    k: float


def host_helper(x, *args, **kwargs):
    try:
        return np.sum(x) + len(args)
    except (TypeError, ValueError) as e:
        raise RuntimeError(f"bad input: {e!r}") from e
    finally:
        pass


@wp.kernel
def step(
    x: wp.array(dtype=wp.vec3),
    v: wp.array(dtype=wp.vec3),
    s: Spring,
    x_out: wp.array(dtype=wp.vec3),
    v_out: wp.array(dtype=wp.vec3),
):
    i = wp.tid()
    f = spring_force(x[i], s) + GRAVITY
    v_out[i] = v[i] + f * DT
    x_out[i] = x[i] + v_out[i] * DT


@wp.func(module=__name__)
def spring_force(p: Vec, s: Spring):
    d = wp.length(p)
    return -s.k * (d - s.rest) * wp.normalize(p)


@wp.kernel
def energy(x: wp.array(dtype=wp.vec3), e: wp.array(dtype=float)):
    i = wp.tid()
    for _ in range(NUM_STEPS):
        wp.atomic_add(e, 0, 0.5 * STIFFNESS * wp.dot(x[i], x[i]) / float(NUM_STEPS))


class Simulation:
    """Host code that launches the kernels."""

    def __init__(self, n: int = 16):
        self.x = wp.array(rng.standard_normal((n, 3)), dtype=wp.vec3)
        self.lookup = {k: v for k, v in SETTINGS.items() if k != "name"}

    def run(self):
        for _ in range(SETTINGS["steps"]):
            wp.launch(step, dim=len(self.x), inputs=[self.x, self.v, self.spring], outputs=[self.x, self.v])
        return [float(v) for v in self.x.numpy().ravel()][:3]


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=16)
    args = parser.parse_known_args()[0]
    with wp.ScopedDevice("cpu"):
        print(Simulation(args.n).run())
    del parser
else:
    pass
