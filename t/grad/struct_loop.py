# A struct updated field by field in a loop: its adjoint, known zero
# before the loop, is made (a struct has no literal) where kdiff once
# wrote a constant no reader took.
import warp as wp


@wp.struct
class State:
    x: float
    v: wp.vec2
    n: int


@wp.kernel
def run(s0: State, n: int, out: wp.array(dtype=float)):
    i = wp.tid()
    s = s0
    for k in range(n):
        s.x = s.x + s.v[0] * out[i]
        s.v = s.v * 0.9
