# curlnoise has defaults for its last three parameters, not for x
import warp as wp
@wp.kernel
def k(o: wp.array(dtype=float)):
    s = wp.rand_init(3)
    o[0] = wp.curlnoise(s)[0] + wp.noise(s, 1)
