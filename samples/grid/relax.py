import warp as wp

# A 2-D launch whose threads run loops of their own length: each cell is
# relaxed `steps[i, j]` times, so its backward keeps the loop's values on the
# tape at the thread's row-major index.
@wp.kernel
def relax_cells(u: wp.array2d(dtype=float), steps: wp.array2d(dtype=int), rate: float, out: wp.array2d(dtype=float)):
    i, j = wp.tid()
    x = u[i, j]
    for k in range(steps[i, j]):
        x = x * rate + wp.sin(x)
    out[i, j] = x
