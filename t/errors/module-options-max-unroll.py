import warp as wp


@wp.kernel(module="unique", module_options={"max_unroll": 2})
def k(x: wp.array(dtype=float)):
    acc = 0.0
    for j in range(3):
        acc += x[j]
    x[0] = acc
