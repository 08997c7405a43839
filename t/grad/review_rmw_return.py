# Atomics and stores on a[i], v[i] kept and undone as a read-modify-write (not
# made thread-private because a return sits inside a loop), returns inside
# nested loops.
import warp as wp


@wp.kernel
def review_rmw_return(xs: wp.array(dtype=float), a: wp.array(dtype=float), v: wp.array(dtype=wp.vec2), out: wp.array(dtype=float)):
    i = wp.tid()
    x = xs[i]
    wp.atomic_add(a, i, x * x)
    y = a[i] * x
    a[i] = y + a[i]
    v[i] -= wp.vec2(y, x)
    a[i] += v[i][0] * a[i]
    for k in range(3):
        if y > 0.6:
            out[i] = y * a[i]
            return
        for j in range(2):
            y = y * 0.7 + a[i] * 0.2 + v[i][1]
            if y < -1.0:
                return
    wp.atomic_sub(a, i, y)
    out[i] = a[i] * y
