# Vector components: vec2/vec4, .x/.y/.z/.w and index reads, component stores, per-component min/max.
import warp as wp


@wp.kernel
def rotate2d(angle: float, p: wp.array(dtype=wp.vec2), out: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    c = wp.cos(angle)
    s = wp.sin(angle)
    v = p[i]
    out[i] = wp.vec2(c * v.x - s * v.y, s * v[0] + c * v[1])


@wp.kernel
def clamp_color(rgba: wp.array(dtype=wp.vec4), lo: wp.array(dtype=wp.vec4), out: wp.array(dtype=wp.vec4), luma: wp.array(dtype=float)):
    i = wp.tid()
    c = wp.max(rgba[i], lo[i])
    c = wp.min(c, wp.vec4(0.8, 0.8, 0.8, 1.0))
    c[3] = 0.5 * (c.w + 1.0)
    luma[i] = 0.299 * c.x + 0.587 * c.y + 0.114 * c.z
    out[i] = c


@wp.kernel
def swizzle(p: wp.array(dtype=wp.vec3), out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    v = p[i]
    w = wp.vec3()
    w[0] = v.z
    w[1] = v[0] + v.y
    w[2] = v.x * v.x
    out[i] = w
