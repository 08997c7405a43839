#!/bin/bash
# The sim half of t5001's gradient sweep: the first KGEN_GRAD_N kernels of
# every category (5 here, 200 under `make check-gen`), with the seeds of
# t/gen/sweep.sh, and the kernels that once failed, pass `krun
# --gradcheck` on the sim device: the emitted CUDA, forward and backward,
# run thread by thread on the host.  A file of its own so that prove runs
# it beside t5001.
. "$(dirname "$0")/lib.sh"
. t/gen/sweep.sh

gen_grad_sweep sim
done_testing
