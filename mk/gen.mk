# gen.mk: `make check-gen` runs the generator's tests (t/t5*.t) at full
# size: 200 kernels per category through kparse and krun (cpu and sim), and
# `krun --gradcheck` on cpu and sim for the same 200, and structural
# diversity over 10,000 kernels per category.  `make check` runs the same
# tests with 20, 5 and 1,000.  KGEN_N, KGEN_GRAD_N and KGEN_DIV_N set
# other sizes (`make check-gen KGEN_N=40`).  `make bench-gen` times kgen.

KGEN_N ?= 200
KGEN_GRAD_N ?= 200
KGEN_DIV_N ?= 10000

.PHONY: check-gen bench-gen
check-gen: all
	$(Q)KS_BIN=$(abspath $(O)/bin) KS_BUILD=$(abspath $(O)) KS_SAN=$(SAN) \
		KGEN_N=$(KGEN_N) KGEN_GRAD_N=$(KGEN_GRAD_N) KGEN_DIV_N=$(KGEN_DIV_N) $(PROVE) $(PROVE_FLAGS) $(wildcard t/t5*.t)

bench-gen: $(O)/bin/kgen
	$(Q)time $(O)/bin/kgen -c all -s 1 -n 100000 -o /dev/null
