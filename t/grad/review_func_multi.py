# wp.func with two results and returns inside its loop, called in a while
# loop; a func with atomics in a loop.
import warp as wp


@wp.func
def early(x: float, v: wp.vec3, n: int):
    for k in range(n):
        x = x * 0.9 + v[k % 3]
        v[(k + 1) % 3] = v[k % 3] * x
        if x > 1.2:
            return x, v
    if x < 0.0:
        return -x, v * 2.0
    return x * x, v


@wp.func
def twice(a: float, b: float) -> float:
    return a * b + wp.sin(a)


@wp.func
def scat(acc: wp.array(dtype=float), j: int, x: float, m: int, n: int):
    for k in range(m):
        wp.atomic_add(acc, (j + k) % n, x * float(k + 1))
        x = x * x
    wp.atomic_sub(acc, j % n, x)


@wp.kernel
def review_func_multi(xs: wp.array(dtype=float), vs: wp.array(dtype=wp.vec3), out: wp.array(dtype=float), acc: wp.array(dtype=float), n: int):
    i = wp.tid()
    x = xs[i]
    v = vs[i]
    y = float(0.0)
    k = int(0)
    while k < i % 4 + 1:
        a, w = early(x + y, v, k + 2)
        y += twice(a, a) * 0.1 + twice(w[0], x)
        v = w * 0.5
        k += 1
    scat(acc, i, y * 0.1, i % 3, n)
    out[i] = y + v[2]
