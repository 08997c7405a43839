// blocks.py's kernels as a CUDA programmer writes them, each block of 256
// threads cooperating through shared memory (t/t4020 runs them on sim).

// a tree reduction of the block's 256 elements
extern "C" __global__ void block_sum_cuda_forward(int dim, float *x, float *out)
{
    __shared__ float part[256];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    part[t] = i < dim ? x[i] : 0.0f;
    __syncthreads();
    for (int half = blockDim.x / 2; half > 0; half /= 2) {
        if (t < half)
            part[t] += part[t + half];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = part[0];
}

// a 16 x 16 transpose through a padded shared tile
extern "C" __global__ void transpose16_cuda_forward(int dim, float *a, float *b)
{
    __shared__ float tile[16][17];
    int t = threadIdx.x;
    int base = blockIdx.x * 256;
    int row = t / 16, col = t % 16;
    if (base + t < dim)
        tile[row][col] = a[base + t];
    __syncthreads();
    if (base + t < dim)
        b[base + t] = tile[col][row];
}
