# How a draw advances the state, as in Warp: each draw from a variable
# advances it; a copy (s2 = state) advances alone; a wp.func gets a copy;
# draws in branches and loops advance it where they run; a kernel
# parameter can be the state; a draw from an expression advances nothing.
import warp as wp


@wp.func
def two_draws(s: wp.uint32) -> float:
    a = wp.randf(s)
    return a + 2.0 * wp.randf(s)


@wp.kernel
def draw_rules(start: wp.uint32, c: int, w: wp.array(dtype=float), first: wp.array(dtype=float),
               copies: wp.array(dtype=float), calls: wp.array(dtype=float), rest: wp.array(dtype=float),
               ints: wp.array(dtype=int)):
    tid = wp.tid()
    state = wp.rand_init(42, tid)
    s2 = state
    first[tid] = wp.randf(state) * w[tid]
    copies[tid] = wp.randf(s2) + wp.randf(state) + wp.randf(start) + wp.randf(start)
    calls[tid] = two_draws(state) + two_draws(state) + wp.randf(wp.rand_init(42, tid)) * w[tid]
    x = float(0.0)
    if tid % 2 == 0:
        x = wp.randn(state)
    n = int(0)
    while wp.randf(state) < 0.7 and n < 20:
        n += 1
    for i in range(c % 4):
        n += wp.randi(state, -5, 5) * 100
    ints[tid] = n
    x += float(wp.poisson(state, 3.5)) + float(wp.poisson(state, 20.0))
    rest[tid] = x + float(wp.randu(state, wp.uint32(10), wp.uint32(1000))) * w[tid]


@wp.kernel
def pick_bins(cdf: wp.array(dtype=float), counts: wp.array(dtype=int)):
    tid = wp.tid()
    state = wp.rand_init(3, tid)
    k = wp.sample_cdf(state, cdf)
    wp.atomic_add(counts, k % counts.shape[0], 1)
