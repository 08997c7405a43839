# a keyword naming no parameter of curlnoise
import warp as wp
@wp.kernel
def k(o: wp.array(dtype=float)):
    s = wp.rand_init(3)
    o[0] = wp.curlnoise(s, wp.vec2(1.0, 2.0), bogus=2.0)[0]
