# Augmented assignment on locals: += -= *= /= in a running-moment computation and a damped update.
import warp as wp


@wp.kernel
def moments(n: int, x: wp.array(dtype=float), mean: wp.array(dtype=float), var: wp.array(dtype=float)):
    i = wp.tid()
    s = 0.0
    s2 = 0.0
    for k in range(4):
        v = x[(i + k) % n]
        s += v
        s2 += v * v
    s /= 4.0
    s2 /= 4.0
    s2 -= s * s
    mean[i] = s
    var[i] = s2


@wp.kernel
def damped(vel: wp.array(dtype=float), force: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    v = vel[i]
    v *= 0.98
    v += 0.1 * force[i]
    v -= 0.01 * v * wp.abs(v)
    count = 1
    count += 2
    count *= 3
    out[i] = v * float(count)
