# t/t2005-tape.t: a loop of n trips whose state is one float and one vec3
# (4 words a checkpoint), and a loop nested in it.
import warp as wp


@wp.kernel
def tape_loop(x: wp.array(dtype=float), v: wp.array(dtype=wp.vec3), out: wp.array(dtype=float), n: int):
    i = wp.tid()
    p = x[i]
    q = v[i]
    for k in range(n):
        p = p * x[i] + wp.sin(p) + q[1]
        q = q * 0.5 + wp.vec3(p, 0.25, 1.0)
    out[i] = p + wp.dot(q, q)


@wp.kernel
def tape_nested(x: wp.array(dtype=float), out: wp.array(dtype=float), n: int):
    i = wp.tid()
    p = x[i]
    for k in range(n):
        s = p
        for j in range(k % 3 + 1):
            s = wp.sin(s) * x[i]
        p = p + 0.5 * s
    out[i] = p
