# Warp 1.19 rejects a variable first assigned a literal and changed inside a
# dynamic loop ("Error mutating a constant flag inside a dynamic loop, use
# the following syntax: pi = float(3.141)"); ksynth accepts it (kgen writes
# `flag = bool(False)`, t/warp/agree/bool_flag.py).
# warp-rejects: flag = False
import warp as wp


@wp.kernel
def const_flag(x: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    flag = False
    k = int(0)
    while k < 4 and not flag:
        k += 1
        if x[(i + k) % 16] < 0.0:
            flag = True
    out[i] = float(k)
