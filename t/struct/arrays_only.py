# A kernel whose only float data are arrays inside a struct parameter
# (the shape of ksa in Warp's examples/benchmarks/benchmark_launches.py):
# its backward takes an adjoint array per float array field.
import warp as wp


@wp.struct
class Buffers:
    src: wp.array(dtype=float)
    dst: wp.array(dtype=float)
    count: int


@wp.kernel
def scale_into(b: Buffers):
    tid = wp.tid()
    b.dst[tid] = b.src[tid] * b.src[tid] + float(b.count)
