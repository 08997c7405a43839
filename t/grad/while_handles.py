# A while loop nested in a while loop, then a sibling while loop: the
# inner loop's tape handle is defined again in the outer loop's reverse
# sweep, after the sibling's handle is dead, and must keep a variable of
# its own (one variable, one loop ID).
import warp as wp


@wp.kernel
def while_handles(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    steps = int(0)
    while steps < 2:
        steps += 1
        rounds = int(0)
        acc = float(0.0)
        while rounds < 3:
            rounds += 1
            acc += wp.sin(acc + x[i])
        y[i] = acc
    iters = int(0)
    run = float(0.0)
    while iters < 3:
        iters += 1
        run += wp.sin(run * x[i])
    y[i] = y[i] + run
