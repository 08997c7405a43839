import warp as wp


@wp.func
def _h(_x: float):
    return _x * 2.0


@wp.func
def v_h(x: float):
    return x + 1.0


@wp.func
def __h2(__x: float, y_: float):
    _r = __x * y_
    __r = _r + 1.0
    return _r, __r


@wp.kernel
def _k(_a: wp.array(dtype=float), __b: wp.array(dtype=float), a__b: float, a_b: float):
    i = wp.tid()
    _y = _h(_a[i])
    v_y = v_h(_y)
    y_ = _y * a__b + v_y * a_b
    _ = 0.0
    for _i in range(3):
        _ = _ + y_
    p, q = __h2(_, y_)
    __b[i] = p + q
    _a[i] = _y


@wp.kernel
def v_k(x: wp.array(dtype=float)):
    i = wp.tid()
    x[i] = x[i] * 3.0


@wp.kernel
def k_(ks_x: wp.array(dtype=float), KS_y: float, _: float):
    i = wp.tid()
    ks_x[i] = ks_x[i] * KS_y + _


@wp.kernel
def __(_z: wp.array(dtype=float)):
    _i = wp.tid()
    _z[_i] = _z[_i] + 1.0
