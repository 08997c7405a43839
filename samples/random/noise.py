# Procedural fields from Perlin noise: a terrain height map summed over
# octaves (fBm), a tileable texture from periodic noise, and particles
# advected by divergence-free curl noise, in two, three and four
# dimensions (the fourth one time).
import warp as wp


@wp.kernel
def terrain(seed: int, scale: float, xy: wp.array(dtype=wp.vec2), height: wp.array(dtype=float)):
    tid = wp.tid()
    state = wp.rand_init(seed)
    p = xy[tid] * scale
    h = float(0.0)
    amplitude = float(1.0)
    for octave in range(3):
        h += amplitude * wp.noise(state, p)
        p = p * 2.0
        amplitude *= 0.5
    height[tid] = h + 0.25 * wp.noise(state, p[0])


@wp.kernel
def tileable(seed: int, uv: wp.array(dtype=wp.vec3), t: float, color: wp.array(dtype=wp.vec3)):
    tid = wp.tid()
    state = wp.rand_init(seed)
    p = uv[tid] * 4.0
    r = wp.pnoise(state, wp.vec2(p[0], p[1]), 4, 4)
    g = wp.pnoise(state, p, 4, 4, 2)
    b = wp.pnoise(state, wp.vec4(p[0], p[1], p[2], t), 4, 4, 2, 8)
    color[tid] = wp.vec3(r, g, b) * 0.5 + wp.vec3(0.5, 0.5, 0.5) + wp.vec3(wp.pnoise(state, t, 3), 0.0, 0.0)


@wp.kernel
def advect(seed: int, dt: float, lacunarity: float, gain: float, time: float, x: wp.array(dtype=wp.vec3),
           x_new: wp.array(dtype=wp.vec3), y: wp.array(dtype=wp.vec2), y_new: wp.array(dtype=wp.vec2)):
    tid = wp.tid()
    state = wp.rand_init(seed)
    p = x[tid]
    v = wp.curlnoise(state, p, wp.uint32(3), lacunarity, gain)
    w = wp.curlnoise(state, wp.vec4(p[0], p[1], p[2], time), wp.uint32(2))
    x_new[tid] = p + (v + 0.1 * w) * dt
    y_new[tid] = y[tid] + wp.curlnoise(state, y[tid]) * dt
