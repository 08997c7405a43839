"""Stream compaction with a compare-and-swap loop: each selected thread
claims the next free slot of an index list, then a weighted gather reads
through the list."""
import warp as wp


@wp.func
def claim(count: wp.array[int]) -> int:
    # retry until no other thread moved the counter in between
    while True:
        c = wp.atomic_add(count, 0, 0)
        if wp.atomic_cas(count, 0, c, c + 1) == c:
            return c
    return -1


@wp.kernel
def compact_indices(flags: wp.array[int], count: wp.array[int], index: wp.array[int]):
    i = wp.tid()
    if flags[i] % 3 == 0:
        slot = claim(count)
        index[slot % index.shape[0]] = i
    # the list's end, left for a reader
    wp.atomic_max(count, 1, i)


@wp.kernel
def gather_weighted(values: wp.array[float], index: wp.array[int], w: float, out: wp.array[float]):
    i = wp.tid()
    j = index[i] % values.shape[0]
    out[i] = wp.where(j >= 0, values[j] * w, 0.0)
