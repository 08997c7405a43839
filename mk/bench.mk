# bench.mk: `make bench` measures throughput, the dataset build against the
# compiler floor, the no-op rebuild, peak memory and scaling, and writes
# bench/RESULTS.md (bench/bench.sh says how).  Long: tens of minutes.
# Warp's codegen is timed with the venv of mk/warp.mk.
#   RUNS=3  repeats per figure (medians)
#   BEFORE=COMMIT  codegen (section a) and the adjoints (section f) of that commit's code too
#   SECTIONS="f"   only those sections (of a b c d e f h j), replaced in RESULTS.md
#   H_N=1000 H_RUNS=2  section h: the confinement's cost on make dataset
#   H_K=60 H_PAIRS=10  section h: and on krun alone, paired
#   DS_N=2000      records of the verified dataset build (sections b and f)
#   VAR_N=10000    section j: kgen kernels measured for variety
#
# `make bench-cuda` times the forward and backward kernels on the GPU at
# dim 1M, every sample and BENCH_GEN_N kgen kernels a category, beside
# Warp's own kernels for the same sources on the same GPU, into its
# section of bench/RESULTS.md (bench/bench_cuda.sh).  Without a GPU it
# fails with krun's reason.  BENCH_DEVICE=sim BENCH_OUT=FILE tries it
# without one (a dry run, into another file).

RUNS ?= 3
VAR_N ?= 10000
H_N ?= 1000
H_RUNS ?= 2
H_K ?= 60
H_PAIRS ?= 10
BENCH_DIM ?= 1000000
BENCH_REPS ?= 20
BENCH_GEN_N ?= 5
BENCH_DEVICE ?= cuda
BENCH_OUT ?= bench/RESULTS.md

.PHONY: bench bench-cuda
bench: all warp-venv
	$(Q)RUNS=$(RUNS) BEFORE=$(BEFORE) SECTIONS="$(SECTIONS)" DS_N=$(DS_N) VAR_N=$(VAR_N) H_N=$(H_N) H_RUNS=$(H_RUNS) H_K=$(H_K) H_PAIRS=$(H_PAIRS) WARP_PY=$(abspath $(WARP_PY)) bash bench/bench.sh $(O)/bin $(O)/bench bench/RESULTS.md

bench-cuda: all warp-venv
	$(Q)DIM=$(BENCH_DIM) REPS=$(BENCH_REPS) GEN_N=$(BENCH_GEN_N) DEVICE=$(BENCH_DEVICE) \
		WARP_PY=$(abspath $(WARP_PY)) WARP_SKIP=$(abspath $(WARP_SKIP)) \
		bash bench/bench_cuda.sh $(O)/bin $(O)/bench-cuda $(BENCH_OUT)
