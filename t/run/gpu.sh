# t/run/gpu.sh: is a GPU visible?  Then a GPU test that cannot run is a
# failure with its reason, not a skip: a missing libcuda.so.1 in a
# container, a failing cuInit or a missing NVRTC must not pass as "no
# GPU here".  Visible: KS_REQUIRE_GPU=1, or `nvidia-smi -L` lists one.
GPU_VISIBLE=
if [ "${KS_REQUIRE_GPU:-}" = 1 ]; then
	GPU_VISIBLE="KS_REQUIRE_GPU=1"
elif command -v nvidia-smi >/dev/null 2>&1; then
	t_gpus=$(timeout 30 nvidia-smi -L 2>/dev/null | grep -c '^GPU ')
	[ "${t_gpus:-0}" -gt 0 ] && GPU_VISIBLE="nvidia-smi -L lists $t_gpus GPU(s)"
fi

# gpu_fail DESC REASON: a failure, the reason also on stderr, which prove
# shows without -v
gpu_fail() {
	t_result 1 "$1"
	diag "a GPU is visible ($GPU_VISIBLE), so this may not be skipped: $2"
	echo "$(basename "$0"): a GPU is visible ($GPU_VISIBLE), but: $2" >&2
}

# gpu_skip DESC REASON: SKIP with the reason where no GPU is visible;
# where one is, a failure that says why the test could not run.
gpu_skip() {
	if [ -n "$GPU_VISIBLE" ]; then
		gpu_fail "$1" "$2"
	else
		skip "$1" "$2"
	fi
}
