# Arrays read and written in loops at the thread's own index wp.tid(): the
# element is private to the thread, so kdiff treats it as a loop-carried
# local variable.
import warp as wp


@wp.kernel
def own_element_loop(n: int, xs: wp.array(dtype=float), a: wp.array(dtype=float), v: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    x = xs[i]
    for k in range(n % 4 + 1):
        a[i] = a[i] * 0.5 + wp.sin(x * a[i])
        if a[i] > 0.8:
            a[i] -= 0.25 * x
            continue
        v[i] += wp.vec2(a[i], x) * 0.5
    if x < -0.5:
        return
    v[i] = v[i] * a[i]
