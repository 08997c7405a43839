"""Kernels whose outputs do or do not depend on the order the threads run
in: t/t4017-order.t lists, kernel by kernel, what krun's record must name
as order_dependent."""
import warp as wp


@wp.kernel
def ticket(counter: wp.array[int], out: wp.array[float]):
    # the slot handed out depends on who came first
    i = wp.tid()
    s = wp.atomic_add(counter, 0, 1)
    out[i] = float(s)


@wp.func
def take(count: wp.array[int]) -> int:
    return wp.atomic_add(count, 0, 1)


@wp.kernel
def ticket_through_func(count: wp.array[int], x: wp.array[float], out: wp.array[float]):
    i = wp.tid()
    out[i] = x[i] * float(take(count) % 2)


@wp.kernel
def winner_flag(x: wp.array[float], best: wp.array[float], won: wp.array[float]):
    i = wp.tid()
    old = wp.atomic_max(best, 0, x[i])
    if old < x[i]:
        won[i] = 1.0


@wp.kernel
def last_writer(last: wp.array[int], y: wp.array[float], x: wp.array[float]):
    i = wp.tid()
    wp.atomic_exch(last, 0, i)
    y[i] = 2.0 * x[i]


@wp.kernel
def early_exit(c: wp.array[int], x: wp.array[float], out: wp.array[float]):
    i = wp.tid()
    if wp.atomic_add(c, 0, 1) > 3:
        return
    out[i] = x[i]


@wp.kernel
def read_back(n: wp.array[int], x: wp.array[float], buf: wp.array[float], y: wp.array[float]):
    i = wp.tid()
    slot = wp.atomic_add(n, 0, 1)
    buf[slot % buf.shape[0]] = x[i]
    y[i] = 0.5 * x[i]
    y[i] += buf[i]


@wp.kernel
def sums_only(x: wp.array[float], total: wp.array[float], hist: wp.array[int], out: wp.array[float]):
    # atomics whose results go unused: the same on every device
    i = wp.tid()
    wp.atomic_add(total, 0, x[i])
    wp.atomic_add(hist, i % 4, 1)
    wp.atomic_max(out, 0, x[i])


@wp.kernel
def take_counts(counts: wp.array[int], momentum: wp.array[wp.vec3], v: wp.array[wp.vec3], n_out: wp.array[int]):
    # atomics at the thread's own element only: nothing depends on the order
    i = wp.tid()
    n = wp.atomic_exch(counts, i, 0)
    n_out[i] = n
    v[i] = momentum[i] / float(wp.max(n, 1))


@wp.kernel
def claim_own(state: wp.array[int], x: wp.array[float], y: wp.array[float]):
    i = wp.tid()
    if wp.atomic_cas(state, i, 0, 1) == 0:
        y[i] = x[i] * 2.0
    else:
        y[i] = x[i]


@wp.kernel
def shared_counts(counts: wp.array[int], n_out: wp.array[int]):
    # four threads share an element
    i = wp.tid()
    n_out[i] = wp.atomic_exch(counts, i % 4, 0)


@wp.kernel
def moved_index(counts: wp.array[int], n_out: wp.array[int]):
    # the index is reassigned: two threads share an element
    i = wp.tid()
    i = i // 2
    n_out[i] = wp.atomic_cas(counts, i, 0, 1)


@wp.kernel
def read_elsewhere(state: wp.array[int], y: wp.array[int]):
    # an element of another thread is loaded
    i = wp.tid()
    old = wp.atomic_exch(state, i, 7)
    y[i] = old + state[0]
