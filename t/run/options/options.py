# @wp.kernel's options for the CUDA build: recorded in the IR (kernel and
# backward alike), honoured in the CUDA entries, and nothing to the CPU.
import warp as wp

BLOCK = wp.constant(128)


# a thread for each index (no grid-stride loop), at most BLOCK threads to
# a block and at least two blocks resident on a multiprocessor
@wp.kernel(launch_bounds=(BLOCK, 2), grid_stride=False, enable_cuda_smem_spilling=True)
def scale(a: wp.array(dtype=float), b: wp.array(dtype=float), s: float):
    i = wp.tid()
    b[i] = a[i] * s


# clusters of four blocks where the GPU has them; 64 registers a thread
@wp.kernel(cuda_max_registers=64, cluster_dim=4, entry_point_abi="warp")
def wave(a: wp.array2d(dtype=float), out: wp.array2d(dtype=float)):
    i, j = wp.tid()
    out[i, j] = wp.sin(a[i, j]) * a[i, j]


# the defaults spelled out: no option recorded but the bound
@wp.kernel(cluster_dim=1, grid_stride=True, launch_bounds=64)
def shift(a: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = a[i] + 1.0
