# A store and then a load through a struct's array field (each s.v is a
# field read of its own in the IR, all naming one array): the backward
# must see the store, as it does for a plain array.
import warp as wp


@wp.struct
class State:
    v: wp.array(dtype=float)


@wp.struct
class Holder:
    values: wp.array(dtype=wp.vec3)


@wp.kernel
def store_then_load(s: State, dt: float, x_out: wp.array(dtype=float)):
    i = wp.tid()
    s.v[i] = dt * 2.0
    x_out[i] = s.v[i] * dt


@wp.kernel
def component_then_load(holder: Holder, x: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    holder.values[i].x += x[i]
    out[i] = holder.values[i].x * x[i]
