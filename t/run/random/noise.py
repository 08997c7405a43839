# Perlin noise's properties (t/t4014-random.t): zero at the lattice
# points, periodic pnoise equal a period away, and values at fixed points.
import warp as wp


@wp.kernel
def lattice(seed: int, out: wp.array(dtype=float)):
    i = wp.tid()
    state = wp.rand_init(seed)
    x = float(i - 8)
    out[i] = (wp.abs(wp.noise(state, x)) + wp.abs(wp.noise(state, wp.vec2(x, 3.0))) +
              wp.abs(wp.noise(state, wp.vec3(-2.0, x, 5.0))) + wp.abs(wp.noise(state, wp.vec4(x, x, 1.0, -7.0))))


@wp.kernel
def periods(seed: int, out: wp.array(dtype=float)):
    i = wp.tid()
    state = wp.rand_init(seed)
    x = float(i) * 0.375 + 0.0625
    p = wp.vec4(x, 0.5 * x, 1.25, x - 2.0)
    q = p + wp.vec4(3.0 * 2.0, 5.0, 2.0 * 4.0, 1.0)
    out[i] = (wp.abs(wp.pnoise(state, p[0], 2) - wp.pnoise(state, q[0], 2)) +
              wp.abs(wp.pnoise(state, wp.vec2(p[0], p[1]), 3, 5) - wp.pnoise(state, wp.vec2(q[0], q[1]), 3, 5)) +
              wp.abs(wp.pnoise(state, wp.vec3(p[0], p[1], p[2]), 2, 5, 4) -
                     wp.pnoise(state, wp.vec3(q[0], q[1], q[2]), 2, 5, 4)) +
              wp.abs(wp.pnoise(state, p, 6, 1, 2, 1) - wp.pnoise(state, q, 6, 1, 2, 1)))


@wp.kernel
def values(seed: int, out: wp.array(dtype=float)):
    i = wp.tid()
    state = wp.rand_init(seed)
    x = float(i) * 0.3 + 0.1
    c = wp.curlnoise(state, wp.vec3(x, 1.0 - x, 0.5 * x), wp.uint32(2))
    out[i] = wp.noise(state, x) + wp.noise(state, wp.vec3(x, -x, 2.0 * x)) + c[0] + c[1] + c[2]
