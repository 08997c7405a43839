# A struct that does not compile (a five-component vector has no type) and
# a func that does not, beside kernels: krun --kernel runs the kernel that
# uses neither, and tells the one that uses the struct why it cannot.
import warp as wp


@wp.struct
class Wide:
    v5: wp.types.vector(5, wp.uint8)


@wp.func
def broken(x: float):
    return undefined_name * x


@wp.kernel
def plain(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = a[i] * 2.0


@wp.kernel
def wide(w: wp.array(dtype=Wide), out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = float(w[i].v5[0])
