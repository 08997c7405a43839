# N-D kernels with no float data: their backward is empty, and krun --grad
# runs it over any launch (t/t4012).
import warp as wp


@wp.kernel
def index_sum(a: wp.array2d(dtype=int)):
    i, j = wp.tid()
    a[i, j] = i + j


@wp.kernel
def count_3d(n: wp.array(dtype=int), flags: wp.array3d(dtype=wp.int8)):
    i, j, k = wp.tid()
    if flags[i, j, k] > wp.int8(0):
        wp.atomic_add(n, 0, 1)
