# a[i] += f(a[i]) is atomic in Warp, but each thread updates only its own
# element wp.tid(): kdiff treats the element as a local variable, so the
# value an atomic returns is known too.
import warp as wp


@wp.kernel
def own_element_update(xs: wp.array(dtype=float), a: wp.array(dtype=float), vs: wp.array(dtype=wp.vec3), total: wp.array(dtype=float)):
    i = wp.tid()
    x = xs[i]
    a[i] += a[i] * x
    a[i] = a[i] * a[i]
    a[i] -= wp.sin(a[i])
    vs[i] -= 0.5 * (wp.vec3(x) + x * vs[i])
    old = wp.atomic_add(a, i, 0.5 * x)
    vs[i] = vs[i] * wp.length(vs[i]) * old
    wp.atomic_add(total, 0, a[i] * x)
