# An assignment through a struct's field with a call in the target's index
# (data[bump(counter, i)].value += 5.0): the target is read, updated and
# written back level by level, and each of its nodes must be evaluated
# once, as Warp does (issue 37), so the counter each call bumps agrees.
import warp as wp


@wp.struct
class Inner:
    w: float
    v: wp.vec3


@wp.struct
class S:
    value: float
    inner: Inner
    m: wp.mat22


@wp.func
def bump(counter: wp.array(dtype=int), i: int) -> int:
    wp.atomic_add(counter, 0, 1)
    return i


@wp.kernel
def field_add(counter: wp.array(dtype=int), data: wp.array(dtype=S)):
    i = wp.tid()
    data[bump(counter, i)].value += 5.0


@wp.kernel
def field_store(counter: wp.array(dtype=int), data: wp.array(dtype=S)):
    i = wp.tid()
    data[bump(counter, i)].value = 3.0


@wp.kernel
def nested_field_add(counter: wp.array(dtype=int), data: wp.array(dtype=S)):
    i = wp.tid()
    data[bump(counter, i)].inner.w += 1.0


@wp.kernel
def matrix_element_add(counter: wp.array(dtype=int), data: wp.array(dtype=S)):
    i = wp.tid()
    data[bump(counter, i)].m[1, 0] += 1.0


@wp.kernel
def vector_component_add(counter: wp.array(dtype=int), data: wp.array(dtype=S)):
    i = wp.tid()
    data[bump(counter, i)].inner.v.y += 1.0


@wp.kernel
def two_indices_add(counter: wp.array(dtype=int), d2: wp.array2d(dtype=S)):
    i = wp.tid()
    d2[bump(counter, i), bump(counter, 0)].value += 1.0


@wp.kernel
def vector_element_store(counter: wp.array(dtype=int), data: wp.array(dtype=S)):
    i = wp.tid()
    data[bump(counter, i)].inner.v[2] = 2.0


@wp.kernel
def vector_element_plain(data: wp.array(dtype=S)):
    i = wp.tid()
    data[i].inner.v[2] = 2.0
