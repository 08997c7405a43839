import warp as wp

from ..host.particles import physics


@wp.kernel
def k(x: wp.array(dtype=float)):
    x[0] = physics.DRAG + physics.FRICTION
