# x - (x + c) gives x's adjoint two negated terms of adj_t, and adj_t is
# zeroed between the two (its last reader): `a + neg b` may become
# `a - b` only where b still holds what it held at the neg.
import warp as wp


@wp.kernel
def neg_reassigned(u: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    energy = float(0.0)
    partial = float(0.0)
    for s in range(2):
        t = 0.05 - energy - (energy + 0.05)
        energy += 0.1 * u[i]
        if u[i] > 0.3:
            partial += 0.5 * wp.sin(t + float(s))
    out[i] = partial
