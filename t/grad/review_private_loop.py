# thread-private float/vec3/mat22 elements updated in nested loops, the
# value atomic_add returns on a private element used.
import warp as wp


@wp.kernel
def review_private_loop(xs: wp.array(dtype=float), a: wp.array(dtype=float), v: wp.array(dtype=wp.vec3), m: wp.array(dtype=wp.mat22), hits: wp.array(dtype=float), n: int):
    i = wp.tid()
    x = xs[i]
    for k in range(i % 3 + 2):
        old = wp.atomic_add(a, i, x * 0.5)
        a[i] = a[i] * old + 0.1
        v[i] = v[i] * a[i]
        t = v[i]
        t[k % 3] = t[(k + 1) % 3] * x
        v[i] = t
        for j in range(k):
            if a[i] > 1.0:
                break
            a[i] = a[i] * 0.8 + x * t[j % 3]
        mm = m[i]
        mm[k % 2, 0] = mm[0, 1] * a[i]
        m[i] = mm
        wp.atomic_add(hits, k % n, a[i])
