# bench.mk: `make bench` measures throughput, the dataset build against the
# compiler floor, the no-op rebuild, peak memory and scaling, and writes
# bench/RESULTS.md (bench/bench.sh says how).  Long: tens of minutes.
#   RUNS=3  repeats per figure (medians)   WARP_PY=  a Python with warp-lang

RUNS ?= 3
WARP_PY ?= $(abspath $(O)/warp-venv/bin/python)

.PHONY: bench
bench: all
	$(Q)RUNS=$(RUNS) WARP_PY=$(WARP_PY) bash bench/bench.sh $(O)/bin $(O)/bench bench/RESULTS.md
