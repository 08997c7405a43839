# Constant-bound loops: a 5-point stencil with range(a, b), nested loops and a countdown with a negative step.
import warp as wp


@wp.kernel
def box_blur(n: int, x: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    s = 0.0
    for k in range(-2, 3):
        s += x[(i + k + n) % n]
    out[i] = s / 5.0


@wp.kernel
def horner_countdown(x: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    p = 0.0
    for k in range(5, 0, -1):
        p = p * x[i] + 1.0 / float(k)
    out[i] = p


@wp.kernel
def nested_sum(x: wp.array(dtype=float), y: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    acc = 0.0
    for a in range(3):
        for b in range(4):
            acc += wp.sin(float(a) * x[i] + float(b) * y[i])
    out[i] = acc
