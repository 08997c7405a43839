import warp as wp


@wp.struct
class Inner:
    h: wp.float16
    d: wp.float64
    b: wp.bool


@wp.struct
class Outer:
    i8: wp.int8
    inner: Inner
    m: wp.mat22


@wp.kernel
def copy(a: wp.array(dtype=Outer), b: wp.array(dtype=Outer), s: wp.array(dtype=float)):
    i, j = wp.tid()
    o = a[i]
    o.m = o.m * 2.0
    o.inner.d = o.inner.d + wp.float64(1.0)
    if j == 0:
        b[i] = o
        s[i] = float(o.inner.h) * o.m[0, 1]
