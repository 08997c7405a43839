# Every scalar width: float64 and float16 arithmetic, typed literals, unsigned wrap-around and int8 arrays.
import warp as wp


@wp.kernel
def precise_sum(x: wp.array(dtype=wp.float64), y: wp.array(dtype=wp.float32), out: wp.array(dtype=wp.float64)):
    i = wp.tid()
    scale = wp.float64(0.1)
    out[i] = x[i] * scale + wp.float64(y[i]) * wp.float64(2.5)


@wp.kernel
def half_blend(a: wp.array(dtype=wp.float16), b: wp.array(dtype=wp.float16), w: float, out: wp.array(dtype=wp.float16)):
    i = wp.tid()
    t = wp.float16(w)
    out[i] = a[i] * (wp.float16(1.0) - t) + b[i] * t


@wp.kernel
def hash_bins(keys: wp.array(dtype=wp.uint32), counts: wp.array(dtype=wp.uint8), out: wp.array(dtype=wp.uint32)):
    i = wp.tid()
    h = keys[i] * wp.uint32(2654435761)
    h = h ^ (h >> wp.uint32(16))
    out[i] = h
    counts[i] = counts[i] + wp.uint8(200)


@wp.kernel
def widen(small: wp.array(dtype=wp.int8), big: wp.array(dtype=wp.int64), f: wp.array(dtype=float)):
    i = wp.tid()
    v = wp.int64(small[i]) * wp.int64(1000000000)
    big[i] = v
    f[i] = float(v) * 1.0e-9
