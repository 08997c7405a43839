# bench.mk: `make bench` measures throughput, the dataset build against the
# compiler floor, the no-op rebuild, peak memory and scaling, and writes
# bench/RESULTS.md (bench/bench.sh says how).  Long: tens of minutes.
# Warp's codegen is timed with the venv of mk/warp.mk.
#   RUNS=3  repeats per figure (medians)
#   BEFORE=COMMIT  the adjoint figures (section f) for that commit's code too

RUNS ?= 3

.PHONY: bench
bench: all warp-venv
	$(Q)RUNS=$(RUNS) BEFORE=$(BEFORE) WARP_PY=$(abspath $(WARP_PY)) bash bench/bench.sh $(O)/bin $(O)/bench bench/RESULTS.md
