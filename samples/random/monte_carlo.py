# Monte Carlo integration: each thread estimates the integral of
# exp(-a (x^2 + y^2)) over [0, 1) x [-1, 1) from its own stream of
# samples, a its decay; the gradient with respect to a replays the same
# draws.
import warp as wp


@wp.kernel
def integrate(decay: wp.array(dtype=float), seed: int, samples: int, out: wp.array(dtype=float)):
    tid = wp.tid()
    state = wp.rand_init(seed, tid)
    a = decay[tid]
    acc = float(0.0)
    for i in range(samples):
        x = wp.randf(state)
        y = wp.randf(state, -1.0, 1.0)
        acc += wp.exp(-a * (x * x + y * y))
    out[tid] = acc * 2.0 / float(samples)


@wp.func
def gaussian_step(state: wp.uint32, sigma: float) -> float:
    # the state is a copy: the caller's does not advance
    return sigma * wp.randn(state)


@wp.kernel
def random_walk(sigma: wp.array(dtype=float), steps: int, pos: wp.array(dtype=float)):
    tid = wp.tid()
    state = wp.rand_init(1234, tid)
    p = pos[tid]
    s = sigma[tid]
    for i in range(steps):
        p = p + gaussian_step(state, s) * 0.5
        p = p + s * wp.randn(state)
    pos[tid] = p
