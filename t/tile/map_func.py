# wp.tile_map of a wp.func: f applied to each element of tiles of one
# shape (Warp 1.19), forward and adjoint: a func of one operand (relu), a
# complex product of vec2 and of vec2d tiles (as Warp's FFT convolution
# examples write it), a func with a branch and loops (one of a trip count
# that depends on the element), a func calling another, a func of three
# operands (one a number every element takes; ints, as Warp's stream
# compaction example maps them), an overloaded func and a
# generic one, instantiated by the elements' types.
import typing

import warp as wp

TILE = wp.constant(16)


@wp.func
def relu(x: float):
    return wp.max(x, 0.0)


@wp.func
def cplx_prod(x: wp.vec2, y: wp.vec2):
    return wp.vec2(x[0] * y[0] - x[1] * y[1], x[0] * y[1] + x[1] * y[0])


@wp.func
def bumpy(x: float, y: float) -> float:
    s = 0.0
    if x > y:
        s = x * y
    else:
        s = wp.sin(x) - y
    for k in range(3):
        s = s * 0.5 + x
    return s


@wp.func
def cplx_prod(x: wp.vec2d, y: wp.vec2d):
    return wp.vec2d(x[0] * y[0] - x[1] * y[1], x[0] * y[1] + x[1] * y[0])


@wp.func
def halve(x: float):
    n = int(0)
    while wp.abs(x) > 0.25:
        x = x * 0.5 + 0.01
        n += 1
    return x * float(n + 1)


@wp.func
def square(x: float):
    return x * x


@wp.func
def outer_fn(x: float):
    return square(x) + wp.cos(square(x))


@wp.func
def blend(a: float, b: float, w: float):
    return a * w + b * (1.0 - w)


@wp.func
def compute_index(valid: int, scan_inclusive: int, offset: int) -> int:
    if valid == 1:
        return scan_inclusive + offset - 1
    else:
        return -1


@wp.func
def soft(x: float):
    return x / (1.0 + wp.abs(x))


@wp.func
def soft(x: wp.vec3):
    return x / (1.0 + wp.length(x))


@wp.func
def twice(x: typing.Any):
    return x + x


@wp.kernel
def map_relu(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    t = wp.tile_load(x, shape=TILE, offset=i * TILE)
    wp.tile_store(y, wp.tile_map(relu, t), offset=i * TILE)


@wp.kernel
def map_cplx(a: wp.array2d(dtype=wp.vec2), b: wp.array2d(dtype=wp.vec2), c: wp.array2d(dtype=wp.vec2)):
    i = wp.tid()
    ta = wp.tile_load(a, shape=(4, 4), offset=(i * 4, 0))
    tb = wp.tile_load(b, shape=(4, 4), offset=(i * 4, 0))
    tc = wp.tile_map(cplx_prod, ta, tb)
    wp.tile_store(c, tc, offset=(i * 4, 0))


@wp.kernel
def map_cplx64(a: wp.array2d(dtype=wp.vec2d), b: wp.array2d(dtype=wp.vec2d), c: wp.array2d(dtype=wp.vec2d)):
    i = wp.tid()
    ta = wp.tile_load(a, shape=(4, 4), offset=(i * 4, 0))
    tb = wp.tile_load(b, shape=(4, 4), offset=(i * 4, 0))
    wp.tile_store(c, wp.tile_map(cplx_prod, ta, tb), offset=(i * 4, 0))


@wp.kernel
def map_halve(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    t = wp.tile_load(x, shape=TILE, offset=i * TILE)
    wp.tile_store(y, wp.tile_map(halve, t * 3.0), offset=i * TILE)


@wp.kernel
def map_bumpy(x: wp.array(dtype=float), y: wp.array(dtype=float), z: wp.array(dtype=float)):
    i = wp.tid()
    tx = wp.tile_load(x, shape=TILE, offset=i * TILE)
    ty = wp.tile_load(y, shape=TILE, offset=i * TILE)
    wp.tile_store(z, wp.tile_map(bumpy, tx, ty), offset=i * TILE)


@wp.kernel
def map_nested(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    t = wp.tile_load(x, shape=TILE, offset=i * TILE)
    u = wp.tile_map(outer_fn, t)
    wp.tile_store(y, u * 2.0, offset=i * TILE)


@wp.kernel
def map_three(
    a: wp.array(dtype=float), b: wp.array(dtype=float), w: float, c: wp.array(dtype=float), d: wp.array(dtype=float)
):
    i = wp.tid()
    ta = wp.tile_load(a, shape=TILE, offset=i * TILE)
    tb = wp.tile_load(b, shape=TILE, offset=i * TILE)
    wp.tile_store(c, wp.tile_map(blend, ta, tb, w), offset=i * TILE)
    wp.tile_store(d, wp.tile_map(blend, tb, ta, ta), offset=i * TILE)


@wp.kernel
def map_generic(x: wp.array(dtype=wp.vec3), y: wp.array(dtype=wp.vec3), s: wp.array(dtype=float)):
    i = wp.tid()
    t = wp.tile_load(x, shape=8, offset=i * 8)
    wp.tile_store(y, wp.tile_map(twice, t), offset=i * 8)
    u = wp.tile_load(s, shape=8, offset=i * 8)
    wp.tile_store(s, wp.tile_map(twice, u), offset=i * 8 + 32)


@wp.kernel
def map_overload(v: wp.array(dtype=wp.vec3), x: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    tv = wp.tile_map(soft, wp.tile_load(v, shape=8, offset=i * 8))
    tx = wp.tile_map(soft, wp.tile_load(x, shape=8, offset=i * 8))
    wp.tile_store(out, wp.tile_map(wp.dot, tv, tv) + tx, offset=i * 8)


@wp.kernel
def map_index(valid: wp.array(dtype=int), scan: wp.array(dtype=int), base: int, index: wp.array(dtype=int)):
    i = wp.tid()
    tv = wp.tile_load(valid, shape=TILE, offset=i * TILE)
    ts = wp.tile_load(scan, shape=TILE, offset=i * TILE)
    wp.tile_store(index, wp.tile_map(compute_index, tv, ts, wp.tile_full(TILE, base + i, dtype=int)), offset=i * TILE)
