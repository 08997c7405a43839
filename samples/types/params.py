import warp as wp

# Scalar parameters of every width, and an integer vector, passed by value.
@wp.kernel
def cell_offsets(
    x: wp.array(dtype=wp.float64),
    seed: wp.uint32,
    stride: wp.int64,
    scale: wp.float64,
    bias: wp.float16,
    cell: wp.vec3i,
    out: wp.array(dtype=wp.float64),
):
    i = wp.tid()
    h = (wp.uint32(i) * wp.uint32(2654435761)) ^ seed
    j = wp.int64(i) * stride
    shift = wp.float64(h % wp.uint32(7)) + wp.float64(j % wp.int64(5))
    out[i] = x[i] * scale + shift + wp.float64(bias) + wp.float64(cell[0] + cell[1] * cell[2])
