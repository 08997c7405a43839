import warp as wp


@wp.func
def acquire(lock: wp.array[int]):
    while wp.atomic_cas(lock, 0, 0, 1) == 1:
        pass


@wp.kernel
def locked_add(lock: wp.array[int], x: wp.array[float], total: wp.array[float]):
    i = wp.tid()
    acquire(lock)
    total[0] = total[0] + x[i]
    wp.atomic_exch(lock, 0, 0)
