# Warp looks a name the module does not bind up in warp itself: min(a, b)
# is wp.min, abs(x) wp.abs, round(x) wp.round, vec3(...) wp.vec3, and so
# is a builtin called without wp. (sqrt, dot).
import warp as wp


@wp.kernel
def bare(a: wp.array(dtype=float), v: wp.array(dtype=wp.vec3), out: wp.array(dtype=float)):
    i = wp.tid()
    x = min(a[i], 0.25) + max(a[i], -0.5) * abs(a[i])
    w = vec3(x, round(a[i] * 4.0), 1.0)
    out[i] = dot(w, v[i]) + sqrt(abs(x) + 1.0)
