import warp as wp


# A component of an array element written in place (store_comp): the
# element's other components keep their gradients, the written one's goes
# to the value; += and -= on a component are atomics; a matrix row is
# written element by element.  A 2-D array is not promoted to a variable,
# so its adjoint is written component by component too.
@wp.kernel
def components(a: wp.array(dtype=wp.vec3), m: wp.array(dtype=wp.mat22), q: wp.array2d(dtype=wp.quat),
               r: wp.array2d(dtype=wp.quat), x: wp.array(dtype=float)):
    i = wp.tid()
    a[i].x = x[i]
    a[i][1] = 2.0 * x[i]
    m[i][0, 1] = x[i] * x[i]
    a[i].z += x[i]
    m[i][1] = wp.vec2(x[i], 3.0)
    q[i, 0].w = wp.sin(x[i])
    r[i, 1][2] -= x[i]


# a component written, then read back: the forward sweep keeps the old
# component and the reverse puts it back
@wp.kernel
def reread(v: wp.array(dtype=wp.vec2), out: wp.array(dtype=float), s: float):
    i = wp.tid()
    v[i].y = s * v[i].x
    out[i] = v[i].y * v[i].y


@wp.struct
class Holder:
    values: wp.array(dtype=wp.vec3)


# a struct's array: its elements' components written in place too
@wp.kernel
def field_components(holder: Holder, x: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    holder.values[i][1] = x[i] * 2.0
    holder.values[i].z = x[i]
    out[i] = holder.values[i].y + holder.values[i].x
