"""Bit patterns with wp.cast: floats kept as their int32 bits (a packed
buffer, a key to sort by), decoded and scaled; the exponent field read
from the bits."""
import warp as wp


@wp.func
def exponent_of(bits: int) -> int:
    return ((bits >> 23) & 255) - 127


@wp.kernel
def decode_scaled(packed: wp.array[int], w: wp.array[float], out: wp.array[float], exps: wp.array[int]):
    i = wp.tid()
    # a small positive float's bits: 0.5 + the low mantissa bits of packed[i]
    bits = 0x3F000000 | (packed[i] & 0x7FFF)
    v = wp.cast(bits, float)
    out[i] = v * w[i]
    exps[i] = exponent_of(wp.cast(w[i] * 8.0, int))
