# Variables reassigned in if/elif/else branches, select on float, vec2 and
# mat22, int(x) and float(int).
import warp as wp


@wp.kernel
def review_branches_select(xs: wp.array(dtype=float), ys: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    x = xs[i]
    y = ys[i]
    a = x
    if x > 0.0:
        a = a * y
        x = x * x
        if y > 0.3:
            x = x + a
            a = float(0.0) * a + 1.0
        else:
            a *= 3.0
    elif y < 0.0:
        a = y
        y = a * x
    else:
        x /= 2.0
    b = x if a > 0.5 else y * a
    v = wp.vec2(a, b) if x < y else wp.vec2(b, x)
    m = wp.mat22(a, b, x, y) if b > 0.0 else wp.mat22(1.0, a, y, 2.0)
    c = int(x * 3.0)
    z = float(c) * y + float(int(y)) + float(c % 2) * a
    out[i] = (m * v)[0] + z + b * x
