# Streams of every random builtin, for t/warp/random.t: thread tid draws n
# values from rand_init(seed, tid) (rand_init(seed + tid) in the first
# kernel) into out[tid * n ...].
import warp as wp


@wp.kernel
def stream_randi(seed: int, n: int, out: wp.array(dtype=int)):
    tid = wp.tid()
    state = wp.rand_init(seed + tid)
    for i in range(n):
        out[tid * n + i] = wp.randi(state)


@wp.kernel
def stream_randi_range(seed: int, n: int, low: int, high: int, out: wp.array(dtype=int)):
    tid = wp.tid()
    state = wp.rand_init(seed, tid)
    for i in range(n):
        out[tid * n + i] = wp.randi(state, low, high)


@wp.kernel
def stream_randu(seed: int, n: int, out: wp.array(dtype=wp.uint32)):
    tid = wp.tid()
    state = wp.rand_init(seed, tid)
    for i in range(n):
        out[tid * n + i] = wp.randu(state)


@wp.kernel
def stream_randu_range(seed: int, n: int, low: wp.uint32, high: wp.uint32, out: wp.array(dtype=wp.uint32)):
    tid = wp.tid()
    state = wp.rand_init(seed, tid)
    for i in range(n):
        out[tid * n + i] = wp.randu(state, low, high)


@wp.kernel
def stream_randf(seed: int, n: int, out: wp.array(dtype=float)):
    tid = wp.tid()
    state = wp.rand_init(seed, tid)
    for i in range(n):
        out[tid * n + i] = wp.randf(state)


@wp.kernel
def stream_randf_range(seed: int, n: int, low: float, high: float, out: wp.array(dtype=float)):
    tid = wp.tid()
    state = wp.rand_init(seed, tid)
    for i in range(n):
        out[tid * n + i] = wp.randf(state, low, high)


@wp.kernel
def stream_randn(seed: int, n: int, out: wp.array(dtype=float)):
    tid = wp.tid()
    state = wp.rand_init(seed, tid)
    for i in range(n):
        out[tid * n + i] = wp.randn(state)


@wp.kernel
def stream_poisson(seed: int, n: int, lam: float, out: wp.array(dtype=wp.uint32)):
    tid = wp.tid()
    state = wp.rand_init(seed, tid)
    for i in range(n):
        out[tid * n + i] = wp.poisson(state, lam)


@wp.kernel
def stream_sample_cdf(seed: int, n: int, cdf: wp.array(dtype=float), out: wp.array(dtype=int)):
    tid = wp.tid()
    state = wp.rand_init(seed, tid)
    for i in range(n):
        out[tid * n + i] = wp.sample_cdf(state, cdf)


@wp.kernel
def stream_sample2(seed: int, n: int, out: wp.array(dtype=wp.vec2)):
    tid = wp.tid()
    state = wp.rand_init(seed, tid)
    for i in range(n):
        j = (tid * n + i) * 4
        out[j] = wp.sample_triangle(state)
        out[j + 1] = wp.sample_unit_ring(state)
        out[j + 2] = wp.sample_unit_disk(state)
        out[j + 3] = wp.sample_unit_square(state)


@wp.kernel
def stream_sample3(seed: int, n: int, out: wp.array(dtype=wp.vec3)):
    tid = wp.tid()
    state = wp.rand_init(seed, tid)
    for i in range(n):
        j = (tid * n + i) * 5
        out[j] = wp.sample_unit_sphere_surface(state)
        out[j + 1] = wp.sample_unit_sphere(state)
        out[j + 2] = wp.sample_unit_hemisphere_surface(state)
        out[j + 3] = wp.sample_unit_hemisphere(state)
        out[j + 4] = wp.sample_unit_cube(state)
