# @wp.kernel's CUDA options (launch_bounds, cuda_max_registers, cluster_dim,
# grid_stride, enable_cuda_smem_spilling, entry_point_abi): Warp ignores them
# on the CPU, and so does ksynth's C code.
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
