# Particle jitter: particles on a grid moved by a random offset in a cube
# of side `spread`, then by a Gaussian kick, as a scene is set up.
import warp as wp


@wp.kernel
def jitter_particles(spacing: float, spread: float, seed: int, x: wp.array(dtype=wp.vec3)):
    tid = wp.tid()
    state = wp.rand_init(seed, tid)
    i = tid % 8
    j = (tid // 8) % 8
    k = tid // 64
    base = wp.vec3(float(i), float(j), float(k)) * spacing
    offset = wp.sample_unit_cube(state) * spread
    kick = wp.vec3(wp.randn(state), wp.randn(state), wp.randn(state)) * (0.1 * spread)
    x[tid] = x[tid] + base + offset + kick


@wp.kernel
def jitter_velocities(scale: wp.array(dtype=float), v: wp.array(dtype=wp.vec2)):
    tid = wp.tid()
    state = wp.rand_init(7, tid)
    d = wp.sample_unit_disk(state)
    if wp.randf(state) < 0.5:
        d = d + wp.sample_unit_square(state)
    else:
        d = d - wp.sample_unit_ring(state)
    v[tid] = v[tid] + d * scale[tid]
