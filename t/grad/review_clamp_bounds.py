# clamp(x, lo, hi) with data-dependent bounds, often lo > hi: the runtime
# computes min(max(lo, x), hi), which is hi whenever lo > hi, so the
# gradient must go to hi there (not to lo, as Warp's adj_clamp would).
import warp as wp


@wp.kernel
def review_clamp_bounds(xs: wp.array(dtype=float), lo: wp.array(dtype=float), hi: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    x = xs[i]
    c = wp.clamp(x, lo[i], hi[i])
    d = wp.clamp(x * 2.0, lo[i] * 0.5, 0.25)
    out[i] = c * (1.0 + x) + d
