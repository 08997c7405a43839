# bench.mk: `make bench` measures throughput, the dataset build against the
# compiler floor, the no-op rebuild, peak memory and scaling, and writes
# bench/RESULTS.md (bench/bench.sh says how).  Long: tens of minutes.
# Warp's codegen is timed with the venv of mk/warp.mk.
#   RUNS=3  repeats per figure (medians)
#   BEFORE=COMMIT  the adjoint figures (section f) for that commit's code too
#   SECTIONS="f"   only those sections (of a b c d e f), replaced in RESULTS.md
#   DS_N=2000      records of the verified dataset build (sections b and f)

RUNS ?= 3

.PHONY: bench
bench: all warp-venv
	$(Q)RUNS=$(RUNS) BEFORE=$(BEFORE) SECTIONS="$(SECTIONS)" DS_N=$(DS_N) WARP_PY=$(abspath $(WARP_PY)) bash bench/bench.sh $(O)/bin $(O)/bench bench/RESULTS.md
