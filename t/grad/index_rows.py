import warp as wp

# A 2-D index array read twice at the thread's row: the row's index is
# not one element per thread, so kdiff keeps the loads (a 1-D array read
# at wp.tid() becomes a local read once; a 2-D one took the same path and
# lost its second index).


@wp.kernel
def gather_rows(cols: wp.array2d(dtype=int), A: wp.array2d(dtype=float), x: wp.array(dtype=float), m: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    acc = float(0.0)
    for j in range(cols.shape[1]):
        acc += A[i, j] * (x[cols[i, j]] * m[cols[i, j]])
    y[i] = acc + x[cols[i, 0]] * m[cols[i, 0]]
