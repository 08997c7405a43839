# A wp.func with an atomic update: the backward pass calls its replay copy,
# so the forward array it updates is left as it was passed.
import warp as wp


@wp.func
def push(acc: wp.array(dtype=float), i: int, x: float) -> float:
    wp.atomic_add(acc, i % 2, x * x)
    return x * 3.0


@wp.kernel
def use_push(xs: wp.array(dtype=float), acc: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = push(acc, i, xs[i]) * xs[i]
