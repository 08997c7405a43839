# int // and % with operands of both signs: // floors (-1 // 3 == -1, as
# Python and Warp 1.19; ksynth's ks_floordiv_int), % and / truncate as C
# in both.  a runs from -8 to 7 over dim 16.
import warp as wp


@wp.kernel
def int_floordiv(n: int, q: wp.array(dtype=int), r: wp.array(dtype=int), t: wp.array(dtype=int)):
    i = wp.tid()
    a = i - n // 2
    q[i] = a // 3
    r[i] = a % 3
    t[i] = a / 3 + (-a) // 4
