# Launches of 2, 3 and 4 dimensions over arrays of 1 to 4 dimensions, for
# t/t4012-nd.t: neighbours read at the edges of the shape, row sums
# through atomics, a shape read in the kernel, composites and float16
# and float64 elements.
import warp as wp


@wp.kernel
def blur(src: wp.array2d(dtype=float), dst: wp.array2d(dtype=float), w: float):
    i, j = wp.tid()
    n = src.shape[0]
    m = src.shape[1]
    acc = src[i, j]
    if i > 0:
        acc += w * src[i - 1, j]
    if j + 1 < m:
        acc += w * src[i, j + 1]
    if i + 1 < n:
        acc -= w * w * src[i + 1, j]
    dst[i, j] = acc * acc


@wp.kernel
def row_sums(a: wp.array2d(dtype=float), rows: wp.array(dtype=float), cols: wp.array(dtype=float)):
    i, j = wp.tid()
    wp.atomic_add(rows, i, a[i, j])
    cols[j] += a[i, j] * a[i, j]


@wp.kernel
def volume(v: wp.array3d(dtype=wp.vec3d), s: wp.array(dtype=wp.float64), out: wp.array3d(dtype=wp.float64)):
    i, j, k = wp.tid()
    p = v[i, j, k]
    out[i, j, k] = wp.dot(p, p) * s[i] + p[0] * wp.float64(j)


@wp.kernel
def hyper(h: wp.array4d(dtype=wp.float16), g: wp.array2d(dtype=wp.float16), c: wp.float16):
    i, j, k, l = wp.tid()
    x = h[i, j, k, l]
    h[i, j, k, l] = x * x * c + g[i, l]


@wp.kernel
def counts(keys: wp.array2d(dtype=wp.int32), flags: wp.array2d(dtype=bool), hist: wp.array(dtype=wp.int32)):
    i, j = wp.tid()
    if flags[i, j]:
        wp.atomic_add(hist, keys[i, j], 1)
        flags[i, j] = not flags[i, j]
