# wp.expect_eq, expect_neq and expect_near of every kind of value they
# take, failing on some threads and passing on others, and assert (which
# Warp's release builds, and so every launch, leave out): what Warp 1.19
# prints for it on 3 threads is expects.log.
import warp as wp


@wp.func
def half(i: int):
    return float(i) * 0.5


@wp.kernel
def show(out: wp.array(dtype=float)):
    i = wp.tid()
    f = half(i)
    assert i >= 0, "a thread index is never negative"
    assert f
    wp.expect_eq(i, 1)
    wp.expect_neq(i, 1)
    wp.expect_eq(wp.uint8(i), wp.uint8(2))
    wp.expect_eq(i > 1, True)
    wp.expect_eq(wp.vec3(f, 1.0, 2.0), wp.vec3(0.5, 1.0, 2.0))
    wp.expect_neq(wp.vec2i(i, 0), wp.vec2i(0, 0))
    wp.expect_eq(wp.mat22(f, 0.0, 0.0, 1.0), wp.mat22(0.0, 0.0, 0.0, 1.0))
    wp.expect_near(f, 0.5, 0.1)
    wp.expect_near(wp.float64(f), wp.float64(0.0), wp.float64(0.25))
    wp.expect_near(wp.vec2(f, -f), wp.vec2(0.0, 0.0), tolerance=0.75)
    wp.expect_near(wp.mat22(f, 0.0, 0.0, f), wp.mat22(0.0, 0.0, 0.0, 0.0))
    wp.expect_near(wp.quat(f, 0.0, 0.0, 1.0), wp.quat(0.0, 0.0, 0.0, 1.0), 0.25)
    out[i] = f
