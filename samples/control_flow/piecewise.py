# Branching: piecewise functions and classification with if/elif/else and comparisons.
import warp as wp


@wp.kernel
def smoothstep_piecewise(x: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    v = x[i]
    y = 0.0
    if v < -0.5:
        y = 0.05 * (v + 0.5)
    elif v <= 0.5:
        t = v + 0.5
        y = t * t * (3.0 - 2.0 * t)
    else:
        y = 1.0 + 0.1 * (v - 0.5)
    out[i] = y


@wp.kernel
def classify(keys: wp.array(dtype=int), x: wp.array(dtype=float), label: wp.array(dtype=int), score: wp.array(dtype=float)):
    i = wp.tid()
    k = keys[i]
    lab = 0
    s = x[i]
    if k == 0:
        lab = 3
    elif k >= 10:
        lab = 2
        s = s * 2.0
    elif x[i] != 0.0:
        lab = 1
        s = -s
    else:
        pass
    label[i] = lab
    score[i] = s
