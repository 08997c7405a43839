import warp as wp

# Scalar special functions as a user writes them: a smooth falloff of a
# splat's weight, the normal distribution's CDF and its quantile, and
# angles wrapped into one turn.


@wp.kernel
def splat_weight(dist: wp.array(dtype=float), radius: wp.array(dtype=float), weight: wp.array(dtype=float)):
    i = wp.tid()
    r = 1.5 + radius[i] * radius[i]
    # 1 inside half the radius, 0 outside it, smooth in between
    w = 1.0 - wp.smoothstep(0.5 * r, r, wp.abs(dist[i]) * 2.0)
    weight[i] = wp.lerp(0.1, 1.0, w)


@wp.kernel
def normal_cdf(x: wp.array(dtype=float), mu: float, sigma: float, cdf: wp.array(dtype=float)):
    i = wp.tid()
    s = 0.5 + sigma * sigma
    z = (x[i] - mu) / (s * wp.sqrt(2.0))
    cdf[i] = 0.5 * wp.erfc(-z)


@wp.kernel
def normal_quantile(p: wp.array(dtype=wp.float64), q: wp.array(dtype=wp.float64)):
    i = wp.tid()
    # p in (0, 1) from an input in (-1, 1)
    u = wp.float64(0.5) + wp.float64(0.45) * p[i]
    q[i] = wp.sqrt(wp.float64(2.0)) * wp.erfinv(wp.float64(2.0) * u - wp.float64(1.0))


@wp.kernel
def wrap_angles(deg: wp.array(dtype=float), rad: wp.array(dtype=float), turns: wp.array(dtype=int)):
    i = wp.tid()
    d = deg[i] * 500.0
    w = wp.mod(d, 360.0)
    if w < 0.0:
        w = w + 360.0
    rad[i] = wp.radians(w) + wp.cbrt(deg[i]) * wp.copysign(0.1, deg[i])
    turns[i] = int(wp.trunc(d / 360.0)) + int(wp.round(d / 360.0)) * 10 + int(wp.step(d)) * 100
