# How draws advance a state, in uint32 values a model can check exactly
# (t/t4014-random.t): thread tid starts from rand_init(seed, tid).
import warp as wp


@wp.func
def second(s: wp.uint32) -> wp.uint32:
    wp.randu(s)
    return wp.randu(s)


@wp.kernel
def rules(seed: int, c: int, out: wp.array(dtype=wp.uint32)):
    tid = wp.tid()
    state = wp.rand_init(seed, tid)
    s2 = state
    o = tid * 8
    out[o] = wp.randu(state)  # draw 1
    out[o + 1] = wp.randu(s2)  # draw 1 again: s2 is a copy
    out[o + 2] = second(state)  # draw 3: the second of a copy given to the function
    out[o + 3] = wp.randu(state)  # draw 2: the function did not advance it
    if tid % 2 == 0:
        wp.randu(state)  # draw 3 in even threads
    for i in range(c):
        wp.randu(state)  # c more
    out[o + 4] = wp.randu(state)
    out[o + 5] = wp.randu(wp.rand_init(seed, tid))  # draw 1 of a fresh state
    out[o + 6] = wp.randu(state, wp.uint32(5), wp.uint32(6))
    out[o + 7] = wp.randu(state)
