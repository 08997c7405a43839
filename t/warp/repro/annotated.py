# Warp 1.19 rejects an annotated assignment in a kernel ("Construct
# `ast.AnnAssign` not supported in kernels"); ksynth accepts it and kgen
# writes it.
import warp as wp


@wp.kernel
def annotated(x: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    y: float = 2.0 * x[i]
    out[i] = y
