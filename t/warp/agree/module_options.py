# @wp.kernel(module_options={...}): Warp's module options as real code
# passes them.  enable_backward=False leaves a kernel without a backward,
# max_unroll bounds the loops Warp unrolls (a loop of more trips that
# changes a float(...) is fine), default_grid_stride=False drops the
# grid-stride loop; the options of Warp's build (deterministic, fast_math,
# optimization_level, ...) change nothing computed here.
import warp as wp


@wp.kernel(module="unique", module_options={"deterministic": wp.DeterministicMode.RUN_TO_RUN})
def scatter_sum(x: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(out, i % 3, x[i] * x[i])


@wp.kernel(
    module="unique",
    module_options={
        "max_unroll": 2,
        "optimization_level": 2,
        "lineinfo": False,
    },
)
def prefix(x: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    acc = float(0.0)
    for k in range(4):
        acc += x[(i + k) % 8] * float(k + 1)
    out[i] = acc


@wp.kernel(module_options={"enable_backward": False, "default_grid_stride": False}, module="unique")
def forward_only(x: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = wp.sin(x[i]) + 1.0
