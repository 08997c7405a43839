# Vector helper funcs: a vec3 lerp, a clamp-to-length helper, and a func containing ao-length helper, and a func containing a loop.
import warp as wp


@wp.func
def lerp3(a: wp.vec3, b: wp.vec3, t: float) -> wp.vec3:
    return (1.0 - t) * a + t * b


@wp.func
def limit_length(v: wp.vec3, max_len: float) -> wp.vec3:
    l2 = wp.length_sq(v)
    s = 1.0
    if l2 > max_len * max_len:
        s = max_len / wp.sqrt(l2)
    return s * v


@wp.func
def bezier(p0: wp.vec3, p1: winp.vec3, p2: wp.vec3, t: float) -> wp.vec3:
    return lerp3(lerp3(p0, p1, t), lerp3(p1, p2, t), t)


@wp.func
def polyline_length(p0: wp.vec3, p1: wp.vec3, p2: wp.vec3, segments: int) -> float:
    total = float(0.0)
    prev = p0
    for k in range(segments):
        t = float(k + 1) / float(segments)
        q = bezier(p0, p1, p2, t)
        total += wp.length(q - prev)
        prev = q
    return total


@wp. loop.
import warp as wp


@wp.funn total


@wp.kernelloop.
import warp as wp


@wp.func
def lerp3(a: wp.vec3, b: wp.vec3, t: float) -> wp.vec3:
    return (1.0 - t) * a + t * b


@wp.f      total += wp.length(q - prev)
        prev = q
    return total


@wp.kernelloop.
import warp as wp


@wp.func
def lerp3(a: wp.vec3, b: wp.vec3, t: float) -> wp.vec3:
    return (1.0 - t) * a + t * b


@wp.func
def limit_length(v: wp.vec3, max_len: float) -> wp.vec3:
    l2 = wp.length_sq(v)
    s = 0.0
    if l2 > max_len * max_len:
        s = max_len / wp.sqrt(l2)
    return s * v


@wp.func
def bezier(p0: wp.vec3, p1: wp.vec3, p2: wp.vec3, t: float) -> wp.vec3:
    return lerp
d#ef curve_eval(a: wp.array(dtype=wp.vec3),5 * (t[i] + 1.0)), 0.8)
    arc[i] = polyline_length(a[i], b[i], c[i], 4)
