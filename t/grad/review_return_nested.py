# return from inside two nested loops, after one store and before another.
import warp as wp


@wp.kernel
def review_return_nested(xs: wp.array(dtype=float), ys: wp.array(dtype=float), out: wp.array(dtype=float), o2: wp.array(dtype=float)):
    i = wp.tid()
    x = xs[i]
    y = ys[i]
    o2[i] = x * y
    a = x
    for j in range(3):
        for k in range(4):
            a = a * 0.9 + y * float(k)
            if a > 2.5 + x:
                out[i] = a * y
                return
            if a < -2.0:
                return
        a = a - float(j) * x
    out[i] = a
    o2[i] = a * x
