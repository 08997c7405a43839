# The shapes of struct_array_field.py and nd_zero_index.py one level
# further: a store then a load through a struct's 2-D array field and a
# nested struct's field, a literal 0 on a struct's 2-D field, and an
# int-only 2-D kernel whose values come from a func.  What kdiff refuses
# is not here: a func that stores through a struct's array field, and the
# adjoint of an array field of an element of an array of structs
# (t/grad-errors).
import warp as wp


@wp.struct
class Grid:
    a: wp.array2d(dtype=float)


@wp.struct
class Inner:
    v: wp.array(dtype=float)


@wp.struct
class Outer:
    inner: Inner
    scale: float


@wp.func
def cell(i: int, j: int) -> int:
    return i * 3 + j


@wp.kernel
def grid_store_then_load(g: Grid, dt: float, out: wp.array(dtype=float)):
    i = wp.tid()
    g.a[i, 0] = dt * 2.0
    out[i] = g.a[i, 0] * dt


@wp.kernel
def grid_zero_column(g: Grid, out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = g.a[i, 0] * g.a[i, 0] + g.a[0, i]


@wp.kernel
def nested_store_then_load(o: Outer, dt: float, out: wp.array(dtype=float)):
    i = wp.tid()
    o.inner.v[i] = dt * o.scale
    out[i] = o.inner.v[i] * dt


@wp.kernel
def int_cells(a: wp.array2d(dtype=int)):
    i, j = wp.tid()
    a[i, j] = cell(i, j)
