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
