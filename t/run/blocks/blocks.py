# Two kernels whose CUDA code (blocks.cu, written by hand) makes the
# threads of a block cooperate through shared memory: t/t4020 runs it on
# sim.  Here, what each computes, one thread at a time.
import warp as wp


@wp.kernel
def block_sum(x: wp.array(dtype=float), out: wp.array(dtype=float)):
    # out[b] = the sum of block b's 256 elements of x (the CUDA code
    # overwrites out[b]; this atomic sum adds to it)
    i = wp.tid()
    wp.atomic_add(out, i // 256, x[i])


@wp.kernel
def transpose16(a: wp.array(dtype=float), b: wp.array(dtype=float)):
    # each block of 256 elements is a 16 x 16 matrix, transposed
    i = wp.tid()
    t = i % 256
    b[i - t + (t % 16) * 16 + t // 16] = a[i]
