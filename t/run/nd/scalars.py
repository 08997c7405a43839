# Every scalar type as a kernel parameter and as an array element: each
# scalar is stored into every element of an array of its type, and each
# input array is copied into an output array of its type, so that the
# record's outputs must repeat its inputs (t/t4013-types.t).
import warp as wp


@wp.kernel
def scalars(
    b: bool,
    i8: wp.int8,
    u8: wp.uint8,
    i16: wp.int16,
    u16: wp.uint16,
    i32: wp.int32,
    u32: wp.uint32,
    i64: wp.int64,
    u64: wp.uint64,
    h: wp.float16,
    f: wp.float32,
    d: wp.float64,
    ob: wp.array(dtype=bool),
    oi8: wp.array(dtype=wp.int8),
    ou8: wp.array(dtype=wp.uint8),
    oi16: wp.array(dtype=wp.int16),
    ou16: wp.array(dtype=wp.uint16),
    oi32: wp.array(dtype=wp.int32),
    ou32: wp.array(dtype=wp.uint32),
    oi64: wp.array(dtype=wp.int64),
    ou64: wp.array(dtype=wp.uint64),
    oh: wp.array(dtype=wp.float16),
    of: wp.array(dtype=wp.float32),
    od: wp.array(dtype=wp.float64),
):
    i = wp.tid()
    ob[i] = b
    oi8[i] = i8
    ou8[i] = u8
    oi16[i] = i16
    ou16[i] = u16
    oi32[i] = i32
    ou32[i] = u32
    oi64[i] = i64
    ou64[i] = u64
    oh[i] = h
    of[i] = f
    od[i] = d


@wp.kernel
def arrays(
    b: wp.array(dtype=bool),
    i8: wp.array(dtype=wp.int8),
    u8: wp.array(dtype=wp.uint8),
    i16: wp.array(dtype=wp.int16),
    u16: wp.array(dtype=wp.uint16),
    i32: wp.array(dtype=wp.int32),
    u32: wp.array(dtype=wp.uint32),
    i64: wp.array(dtype=wp.int64),
    u64: wp.array(dtype=wp.uint64),
    h: wp.array(dtype=wp.float16),
    f: wp.array(dtype=wp.float32),
    d: wp.array(dtype=wp.float64),
    ob: wp.array(dtype=bool),
    oi8: wp.array(dtype=wp.int8),
    ou8: wp.array(dtype=wp.uint8),
    oi16: wp.array(dtype=wp.int16),
    ou16: wp.array(dtype=wp.uint16),
    oi32: wp.array(dtype=wp.int32),
    ou32: wp.array(dtype=wp.uint32),
    oi64: wp.array(dtype=wp.int64),
    ou64: wp.array(dtype=wp.uint64),
    oh: wp.array(dtype=wp.float16),
    of: wp.array(dtype=wp.float32),
    od: wp.array(dtype=wp.float64),
):
    i = wp.tid()
    ob[i] = b[i]
    oi8[i] = i8[i]
    ou8[i] = u8[i]
    oi16[i] = i16[i]
    ou16[i] = u16[i]
    oi32[i] = i32[i]
    ou32[i] = u32[i]
    oi64[i] = i64[i]
    ou64[i] = u64[i]
    oh[i] = h[i]
    of[i] = f[i]
    od[i] = d[i]


@wp.kernel
def composites(
    vh: wp.vec3h,
    vd: wp.vec2d,
    vi: wp.vec3i,
    vub: wp.vec4ub,
    vul: wp.vec2ul,
    mh: wp.mat22h,
    md: wp.mat33d,
    q: wp.quat,
    x: wp.transformd,
    ovh: wp.array(dtype=wp.vec3h),
    ovd: wp.array(dtype=wp.vec2d),
    ovi: wp.array(dtype=wp.vec3i),
    ovub: wp.array(dtype=wp.vec4ub),
    ovul: wp.array(dtype=wp.vec2ul),
    omh: wp.array(dtype=wp.mat22h),
    omd: wp.array(dtype=wp.mat33d),
    oq: wp.array(dtype=wp.quat),
    ox: wp.array(dtype=wp.transformd),
    ah: wp.array2d(dtype=wp.quath),
    bh: wp.array2d(dtype=wp.quath),
):
    i = wp.tid()
    ovh[i] = vh
    ovd[i] = vd
    ovi[i] = vi
    ovub[i] = vub
    ovul[i] = vul
    omh[i] = mh
    omd[i] = md
    oq[i] = q
    ox[i] = x
    bh[i, 0] = ah[i, 1]
