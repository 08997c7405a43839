# NVIDIA/warp#1552: continue inside a dynamic loop, argmax-style reduction.
# The 2-D coefficient array of the issue is flattened to 1-D.
import warp as wp


@wp.kernel
def warp_1552(n: int, c_arr: wp.array(dtype=float), x_arr: wp.array(dtype=float), out: wp.array(dtype=float)):
    tid = wp.tid()
    max_val = float(-2.0)  # the issue uses -1e20, too large for a finite-difference check
    for p in range(n % 3 + 2):
        for q in range(n % 4 + 1):
            c = c_arr[(p * 5 + q) % n]
            if c < 0.0:
                continue
            d = c * (float(p + 1) + float(q + 1))
            v = x_arr[tid] * d
            if v > max_val:
                max_val = v
    out[tid] = max_val
