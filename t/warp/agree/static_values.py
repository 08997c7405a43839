# wp.static(x): x evaluated when the kernel is compiled, as Warp does it:
# module constants (numbers, wp.constant, vectors), their arithmetic and
# comparisons, the length of a vector; wp.static(False) guards code that
# then does nothing.
import warp as wp

N = 4
SCALE = wp.constant(2.5)
OFF = wp.vec3(1.0, 2.0, 3.0)


@wp.kernel
def k(x: wp.array(dtype=float), v: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    q = v[i]
    n = wp.static(len(q))
    x[i] = x[i] * wp.static(SCALE * 2.0) + float(wp.static(N * 10 + 1)) + float(n)
    if wp.static(N > 3):
        v[i] = q + wp.static(OFF)
    if wp.static(False):
        x[i] = 0.0

