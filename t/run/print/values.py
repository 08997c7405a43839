import warp as wp


# Every kind of value print() takes, and wp.printf's conversions, from
# values that depend on the thread alone.
@wp.kernel
def show(out: wp.array[float]):
    i = wp.tid()
    x = float(i) * 0.25 - 1.0 / 3.0
    wp.printf("thread %d: x=%f %.3e %g|%5.2f|%-4d|%x|%o|%c\n", i, x, x, x, x, i, 255 + i, 8 + i, 65 + i)
    wp.printf("wide %lld %llu %u %hd %ld\n", wp.int64(i) * wp.int64(3000000000), wp.uint64(i) + wp.uint64(9223372036854775000),
              wp.uint32(4000000000), wp.int16(-7), wp.int64(-5))
    wp.printf("no values, 100%% sure\n")
    print(x)
    print(wp.float64(x) / wp.float64(7.0))
    print(wp.float16(x))
    print(x > 0.0)
    print(i)
    print(wp.int64(i) - wp.int64(9000000000))
    print(wp.uint8(250 + i))
    print(wp.uint64(i) + wp.uint64(9223372036854775000))
    print(wp.vec3(x, 1.0, 2.5))
    print(wp.vec2i(i, -i))
    print(wp.vec4d(wp.float64(x), wp.float64(0.1), wp.float64(1.0e10), wp.float64(-2.0)))
    print(wp.mat22(1.0, x, 3.0, 4.0))
    print(wp.quat(0.0, x, 0.0, 1.0))
    print(wp.transform(wp.vec3(1.0, 2.0, x), wp.quat(0.0, 0.0, 0.0, 1.0)))
    out[i] = x
