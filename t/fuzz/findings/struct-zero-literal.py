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
.x * f  s.n = s.n + 1
    out[i] = s.x * for k(s.n)
