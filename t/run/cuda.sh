# t/run/cuda.sh: what the make check-cuda tests (t/t41xx) share.  They are
# slow (every sample through NVRTC, nvcc, the GPU), so `make check` only
# lists them as skipped; `make check-cuda` sets KS_CHECK_CUDA=1.  Finds the
# CUDA toolkit: $CUDA_HOME, else /usr/local/cuda, else PATH.  With a GPU
# visible (t/run/gpu.sh) a GPU test that cannot run fails: gpu_skip.
if [ "${KS_CHECK_CUDA:-}" != 1 ]; then
	skip "$(basename "$0")" "run by make check-cuda"
	done_testing
fi
. t/run/gpu.sh
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
NVCC=
for c in "$CUDA_HOME/bin/nvcc" "$(command -v nvcc 2>/dev/null)"; do
	[ -n "$c" ] && [ -x "$c" ] && { NVCC=$c; break; }
done
