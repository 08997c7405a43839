# bench/bench.sh, section f: loop-carried state over a dynamic trip count,
# the kernel whose backward/forward run time is measured.
import warp as wp


@wp.kernel
def loop_carried(x: wp.array(dtype=float), out: wp.array(dtype=float), n: int):
    i = wp.tid()
    p = x[i]
    for k in range(n):
        p = p * x[i] + wp.sin(p)
    out[i] = p
