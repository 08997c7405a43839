# wp.where between two structs (a key-value max): its adjoint goes to the
# struct chosen, a struct of zeros to the other.
import warp as wp

@wp.struct
class KV:
    key: int
    value: float

@wp.func
def kv_max(a: KV, b: KV):
    return wp.where(a.value < b.value, b, a)

@wp.kernel
def k(x: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    a = KV()
    a.value = x[i]
    b = KV()
    b.value = 2.0 * x[i]
    out[i] = kv_max(a, b).value
