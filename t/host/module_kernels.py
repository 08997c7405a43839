# module.py's kernels with the host code cut out by hand: kparse must make
# the same IR of both, but for the lines (t/t1006-host.t).
import warp as wp

DT = wp.constant(1.0 / 60.0)
STIFFNESS = 40.0
NUM_STEPS = 4
GRAVITY = wp.vec3(0.0, -9.8, 0.0)
Vec = wp.vec3


@wp.struct
class Spring:
    rest: float
    k: float


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


@wp.func
def spring_force(p: Vec, s: Spring):
    d = wp.length(p)
    return -s.k * (d - s.rest) * wp.normalize(p)


@wp.kernel
def energy(x: wp.array(dtype=wp.vec3), e: wp.array(dtype=float)):
    i = wp.tid()
    for _ in range(NUM_STEPS):
        wp.atomic_add(e, 0, 0.5 * STIFFNESS * wp.dot(x[i], x[i]) / float(NUM_STEPS))
