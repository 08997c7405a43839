# Bitwise operators and shifts on ints, wp.func parameters with default values and keyword arguments.
import warp as wp


@wp.func
def mix(h: int, k: int, rounds: int = 2):
    for r in range(rounds):
        h = h ^ (k << 3)
        h = (h * 31) & 0x7FFFFFFF
        k = k >> 1
    return h


@wp.func
def soft_clip(x: float, limit: float = 1.0, gain: float = 0.5):
    return wp.clamp(x * gain, low=-limit, high=limit)


@wp.kernel(enable_backward=False)
def scramble(seed: wp.array(dtype=int), out: wp.array(dtype=int)):
    i = wp.tid()
    out[i] = mix(seed[i], i) | (~i & 1)


@wp.kernel
def shape_signal(x: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = soft_clip(x[i]) + soft_clip(x[i], gain=2.0) + soft_clip(x[i], 0.25)
