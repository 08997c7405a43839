# Arrays of 2 to 4 dimensions read, written and updated at a literal 0 (or
# a name bound to 0) on an axis after the first: kdiff once dropped the
# adjoint of such a read (issue 37), as an atomic_add of a zero value.
import warp as wp


@wp.func
def first_col(a: wp.array2d(dtype=float), i: int):
    return a[i, 0]


@wp.kernel
def read_2d(a: wp.array2d(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = a[i, 0]


@wp.kernel
def read_2d_var(a: wp.array2d(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    j = 0
    x = a[i, j]
    out[i] = x * x + a[0, i]


@wp.kernel
def read_3d(a: wp.array3d(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = a[i, 0, 0] + 2.0 * a[i, 0, 1] + 3.0 * a[0, i, 0] + a[0, 0, i]


@wp.kernel
def launch_2d(a: wp.array2d(dtype=float), b: wp.array3d(dtype=float), out: wp.array2d(dtype=float)):
    i, j = wp.tid()
    out[i, j] = a[i, 0] * a[0, j] + b[i, j, 0]


@wp.kernel
def in_func(a: wp.array2d(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = wp.sin(first_col(a, i))


@wp.kernel
def write_2d(x: wp.array(dtype=float), a: wp.array2d(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    a[i, 0] = 2.0 * x[i]
    out[i] = x[i] * x[i]


@wp.kernel
def atomic_2d(x: wp.array(dtype=float), a: wp.array2d(dtype=float)):
    i = wp.tid()
    wp.atomic_add(a, i, 0, x[i] * x[i])
    a[0, i] += 3.0 * x[i]


@wp.kernel
def vec_2d(a: wp.array2d(dtype=wp.vec3), out: wp.array(dtype=float)):
    i = wp.tid()
    v = a[i, 0]
    out[i] = v[0] + 2.0 * v[1] * v[2]
