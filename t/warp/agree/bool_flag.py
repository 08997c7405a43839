# A bool flag changed in a dynamic loop, declared `flag = bool(False)` as
# kgen writes it (Warp's way to declare a variable a loop may change):
# both accept it and agree.  Both reject `flag = False` there
# (t/errors/loop-constant-while.py).
import warp as wp


@wp.kernel
def bool_flag(x: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    flag = bool(False)
    k = int(0)
    while k < 4 and not flag:
        k += 1
        if x[(i + k) % 16] < 0.0:
            flag = wp.bool(True)
    out[i] = float(k)
