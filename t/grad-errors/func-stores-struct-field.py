import warp as wp


@wp.struct
class State:
    v: wp.array(dtype=float)


@wp.func
def put(s: State, i: int, dt: float):
    s.v[i] = wp.sin(dt)


@wp.kernel
def store_in_func_then_load(s: State, dt: float, x_out: wp.array(dtype=float)):
    i = wp.tid()
    put(s, i, dt)
    x_out[i] = s.v[i] * s.v[i]
