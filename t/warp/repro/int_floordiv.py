# int // with operands of opposite signs: Warp 1.19 rounds toward negative
# infinity (-1 // 2 == -1, as Python), ksynth truncates toward zero as C
# (-1 // 2 == 0, doc/language.md).  % truncates in both.
import warp as wp


@wp.kernel
def int_floordiv(n: int, q: wp.array(dtype=int), r: wp.array(dtype=int)):
    i = wp.tid()
    a = i - n // 2
    q[i] = a // 3
    r[i] = a % 3
