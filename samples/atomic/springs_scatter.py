# Edge scatter: each thread pushes equal and opposite spring impulses to two particles with atomic_add/atomic_sub.
import warp as wp


@wp.kernel
def spring_scatter(other: wp.array(dtype=int), x: wp.array(dtype=float), stiffness: float, force: wp.array(dtype=float)):
    i = wp.tid()
    j = other[i]
    f = (1.0 + stiffness) * (x[j] - x[i])
    wp.atomic_add(force, i, f)
    wp.atomic_sub(force, j, f)


@wp.kernel
def density_splat(n: int, x: wp.array(dtype=float), mass: wp.array(dtype=float), density: wp.array(dtype=float)):
    i = wp.tid()
    t = 0.5 * (x[i] + 1.0)
    density[i] += (1.0 - t) * mass[i]
    density[(i + 1) % n] += t * mass[i]
