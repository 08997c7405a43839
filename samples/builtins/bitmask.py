"""A histogram kept as bit masks: each value sets the bit of its bin in
the mask of its group (atomic_or), a toggle mask records odd counts
(atomic_xor), and a clear pass drops bits (atomic_and)."""
import warp as wp


@wp.kernel
def bin_masks(values: wp.array[float], masks: wp.array[wp.uint32], parity: wp.array[wp.uint32],
              occupied: wp.array[float]):
    i = wp.tid()
    b = wp.clamp(int((values[i] + 1.0) * 16.0), 0, 31)
    bit = wp.uint32(1) << wp.uint32(b)
    wp.atomic_or(masks, i % 4, bit)
    wp.atomic_xor(parity, i % 4, bit)
    # the upper half of the bins weighs its values twice
    occupied[i] = wp.where(bit >= wp.uint32(1 << 16), 2.0 * values[i], values[i])


@wp.kernel
def first_in_bin(bins: wp.array[int], masks: wp.array[int], first: wp.array[int]):
    i = wp.tid()
    bit = 1 << (bins[i] % 31)
    # the thread that set the bit is the first of its bin
    before = wp.atomic_or(masks, 0, bit)
    first[i] = wp.where((before & bit) == 0, 1, 0)


@wp.kernel
def clear_bits(masks: wp.array[wp.int64], keep: wp.array[wp.int64]):
    i = wp.tid()
    wp.atomic_and(masks, i % 2, keep[i] | wp.int64(255))
