# Multi-value funcs: helpers returning two values, unpacked with a, b = f(x).
import warp as wp


@wp.func
def polar_to_cart(r: float, angle: float):
    return r * wp.cos(angle), r * wp.sin(angle)


@wp.func
def divmod_pos(a: int, b: int):
    q = a // b
    return q, a - q * b


@wp.kernel
def polar_points(r: wp.array(dtype=float), angle: wp.array(dtype=float), x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    px, py = polar_to_cart(r[i], 3.0 * angle[i])
    x[i] = px
    y[i] = py


@wp.kernel
def split_index(keys: wp.array(dtype=int), row: wp.array(dtype=int), w: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    q, r = divmod_pos(keys[i], 4)
    row[i] = q
    out[i] = w[i] * float(r) + float(q)
