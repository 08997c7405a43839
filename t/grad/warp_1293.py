# NVIDIA/warp#1293: nested dynamic-range loops gave a gradient twice the
# correct value for the outer variable (the joint-chain pattern of the
# issue, with a vec3 position and an angle per step).
import warp as wp


@wp.func
def apply_joint(xpos: wp.vec3, angle: float, axis: wp.vec3) -> wp.vec3:
    half = angle * 0.5
    return xpos * wp.cos(half) + wp.cross(axis, xpos) * wp.sin(half)


@wp.kernel
def warp_1293(starts: wp.array(dtype=int), qpos: wp.array(dtype=float), axis: wp.array(dtype=wp.vec3), off: wp.array(dtype=wp.vec3), xpos: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    start = starts[i] % 4
    end = start + 2
    p = off[i]
    for b in range(start, end):
        for j in range(b % 3 + 1):
            p = apply_joint(p, qpos[(b + j) % 4], axis[j % 4]) + off[b]
    xpos[i] = p
