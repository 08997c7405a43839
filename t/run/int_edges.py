# Integer division, modulo and float -> int conversion where C leaves them
# undefined: every device gives the answers of doc/language.md (t/t4007).
import warp as wp


@wp.func
def dividend(k: int):
    # 7, -7, 0, INT_MIN, INT_MAX
    a = 7
    if k == 1:
        a = -7
    elif k == 2:
        a = 0
    elif k == 3:
        a = -2147483647 - 1
    elif k == 4:
        a = 2147483647
    return a


@wp.kernel
def int_division(quot: wp.array(dtype=int), rem: wp.array(dtype=int), floor_quot: wp.array(dtype=int)):
    # thread i divides dividend(i / 5) by i % 5 - 2: -2, -1, 0, 1, 2
    i = wp.tid()
    a = dividend(i / 5)
    b = i % 5 - 2
    quot[i] = a / b
    rem[i] = a % b
    floor_quot[i] = a // b


@wp.kernel
def constant_divisors(out: wp.array(dtype=int)):
    i = wp.tid()
    a = dividend(i % 5)
    out[i] = a / 0 + a % 0 + a // 0
    if i >= 5:
        out[i] = a / -1
    if i >= 10:
        out[i] = a % -1
    if i >= 15:
        out[i] = a // -1


@wp.kernel
def float_to_int(xs: wp.array(dtype=float), out: wp.array(dtype=int)):
    i = wp.tid()
    zero = xs[i] - xs[i]
    x = 0.0
    if i == 0:
        x = zero / zero
    elif i == 1:
        x = 1.0 / zero
    elif i == 2:
        x = -1.0 / zero
    elif i == 3:
        x = 3.0e9
    elif i == 4:
        x = -3.0e9
    elif i == 5:
        x = 2147483648.0
    elif i == 6:
        x = -2147483648.0
    elif i == 7:
        x = 2147483520.0
    elif i == 8:
        x = -2.7
    elif i == 9:
        x = 2.7
    elif i == 10:
        x = 1.0e-30
    out[i] = int(x + zero)
