/*
 * fake_cuda.c: a stand-in for the CUDA driver, libcuda.so.1, that has
 * only cuDriverGetVersion, answering the version it is built with
 * (-DVERSION=12080 for CUDA 12.8): enough for krun to match NVRTC to it
 * (t/t4011-nvrtc.t), with every run on the GPU skipped.
 */
int cuDriverGetVersion(int *version);

int cuDriverGetVersion(int *version)
{
	*version = VERSION;
	return 0;
}
